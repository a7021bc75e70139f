-- A sliding log with a line left from debugging: it logs the set's size before anything
-- else. The decision's count comes after the trim.
--
-- What it shows: only the count the decision uses matters. Wrong reading avoided: "The
-- script counts before removing expired entries" (count-before-trim) for the ZCARD of
-- the log line.
--
-- Call:     --keys "{key}" --args "{now} {window} {limit} {uuid}" (zsetlab's default)
-- Findings: none

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

redis.log(redis.LOG_DEBUG, 'entries before the trim: ' .. redis.call('ZCARD', key))
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count >= limit then
  return 0
end
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, window)
return 1
