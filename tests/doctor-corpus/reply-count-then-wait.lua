-- A sliding log that answers an admitted call with its count alone and a refused one
-- with two numbers: the count and how long until the oldest request leaves the window.
--
-- What it shows: the shape of the reply is the decision. Both shapes start with a
-- count, so the first element repeats the limit whether a call was admitted or not;
-- the second element is missing for admitted calls and above 0 for refused ones.
--
-- Call:     --keys "{key}" --args "{now} {window} {limit} {uuid}" (zsetlab's default)
-- Findings: none
-- Live:     element 2 decides (missing: admitted); counts right

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count >= limit then
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return {count, tonumber(oldest[2]) + window - now}
end
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, window)
return count + 1
