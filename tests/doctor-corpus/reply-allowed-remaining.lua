-- Replies {allowed, remaining} with a Lua boolean first. Redis turns true into 1 and
-- stops a table at false, so a refusal arrives as an empty array.
--
-- What it shows: no false alarm: {1, n} is admitted and the empty array refused, and the
-- probe finds every count right.
--
-- Call:     --keys "{key}" --args "{now} {window} {limit} {uuid}" (zsetlab's default)
-- Findings: none
-- Live:     replies read as admitted; counts right

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count >= limit then
  return {false, 0}
end
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, window)
return {true, limit - count - 1}
