-- The reply says what is left of the limit: {remaining, limit}, with remaining -1 for a refused
-- call, as several public limiters answer (and return headers such as X-RateLimit-Remaining).
--
-- What it shows: the probe learns this reply shape from its own calls (without a limit the
-- remaining count goes down by one per call) and counts admissions exactly: 0 or more is
-- admitted, -1 refused.
--
-- Call:     zsetlab's default (--args "{now} {window} {limit} {uuid}")
-- Findings: none
-- Live:     counts right; replies read as what is left of the limit

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

redis.call('ZREMRANGEBYSCORE', key, 0, now - window)
local count = redis.call('ZCARD', key)
if count >= limit then
  return {-1, limit}
end
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, window)
return {limit - count - 1, limit}
