-- A script with a syntax error: the if has no end. Redis refuses the whole script at
-- SCRIPT LOAD, so it never counts anything.
--
-- What it shows: the doctor compiles the script with Lua 5.1, as Redis does, names the
-- line, and exits with 4 instead of "no findings".
--
-- Call:     zsetlab's default
-- Findings: syntax-error (line 20: Lua notices the missing end there)
-- Live:     does not run (exit 4)

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
if redis.call('ZCARD', key) >= limit then
  return 0

redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, window)
return 1
