-- The reply says what was left of the limit before this call: {limit - count, reset}, with 0 for
-- a refused call. The count is taken before the request is added, so an admitted call answers 1
-- or more.
--
-- What it shows: counting down alone does not tell the two conventions apart; the first call
-- under a limit does. Here it answers the limit itself (nothing was used before it), so 0 is a
-- refusal, where {remaining after the call} would answer limit - 1 and use 0 for the last
-- admission.
--
-- Call:     zsetlab's default (--args "{now} {window} {limit} {uuid}")
-- Findings: none
-- Live:     counts right; replies read as what was left before the call

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

redis.call('ZREMRANGEBYSCORE', key, 0, now - window)
local used = redis.call('ZCARD', key)
local reset = now + window
if used >= limit then
  return {0, reset}
end
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, window)
return {limit - used, reset}
