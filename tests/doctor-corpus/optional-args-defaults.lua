-- A sliding log whose last arguments are optional: the cost of a request (1 unless
-- given) and a debugging flag. Most callers leave them out.
--
-- What it shows: an argument read with a default is optional. Wrong reading avoided:
-- "ARGV[5] is not in the call template" (argv-missing) for ARGV[5] and ARGV[6].
--
-- Call:     --keys "{key}" --args "{now} {window} {limit} {uuid}" (zsetlab's default)
-- Findings: none

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local cost = tonumber(ARGV[5]) or 1
local verbose = ARGV[6] or ''

redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count + cost > limit then
  return 0
end
for i = 1, cost do
  redis.call('ZADD', key, now, ARGV[4] .. ':' .. i)
end
redis.call('PEXPIRE', key, window)
if verbose ~= '' then
  redis.log(redis.LOG_NOTICE, 'admitted ' .. ARGV[4])
end
return 1
