-- ARGV in another order (window, limit, now, id), the way a Python client passed them,
-- and a sequence number of the caller's own in the member. Check, then add; replies
-- the count before this request, or -1 when refused.
--
-- What it shows: a correct script that needs its call described: with
-- --args "{window} {limit} {now} {seq}" it is clean; with zsetlab's default order the
-- doctor says the names and the call do not match.
--
-- Call:     --keys "{key}" --args "{window} {limit} {now} {seq}"
-- Findings: none (template-mismatch with the default --args)
-- Live:     counts right; replies read as the count before the call

local key = KEYS[1]
local window = tonumber(ARGV[1])
local max_requests = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local seq = ARGV[4]

redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCOUNT', key, now - window, '+inf')
if count >= max_requests then
  return -1
end

redis.call('ZADD', key, now, now .. '-' .. seq)
redis.call('PEXPIRE', key, window)
return count
