-- Like runaway-wait.lua, but the script records the attempt before it waits: a refused
-- request is added too, and then the script loops until the count drops.
--
-- What it shows: after a write, Redis refuses SCRIPT KILL (UNKILLABLE): only SHUTDOWN
-- NOSAVE ends the script. zsetlab does that only to the private redis-server it started
-- to try the script, and says so; a server it did not start is never shut down.
--
-- Call:     --keys "{key}" --args "{now} {window} {limit} {uuid}" (zsetlab's default)
-- Findings: none
-- Live:     exit 4, UNKILLABLE, the private server was shut down

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, window)
local count = redis.call('ZCARD', key)
while count > limit do
  count = redis.call('ZCARD', key)
end
return count
