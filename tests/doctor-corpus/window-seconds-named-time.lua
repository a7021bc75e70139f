-- Takes the limit first and the window second, in seconds, under a name that sounds like
-- a time ("timeframe"), then now in seconds; the member is the caller's id.
--
-- What it shows: the doctor reads what the script does with an argument before its name:
-- EXPIRE takes ARGV[2], so it is a window in seconds, and now is in seconds too. Called in
-- zsetlab's default order the doctor suggests --args "{limit} {window_s} {now_s} {uuid}",
-- not a time for the window.
--
-- Call:     --keys "{key}" --args "{limit} {window_s} {now_s} {uuid}"
-- Findings: none (template-mismatch with the default --args)
-- Live:     counts right

local key = KEYS[1]
local limit = tonumber(ARGV[1])
local timeframe = tonumber(ARGV[2])
local now = tonumber(ARGV[3])

redis.call('ZREMRANGEBYSCORE', key, '-inf', now - timeframe)
if redis.call('ZCARD', key) >= limit then
  return 0
end
redis.call('ZADD', key, now, ARGV[4])
redis.call('EXPIRE', key, timeframe)
return 1
