-- A token bucket for callers that may wait: every reply starts with "true", and the
-- second element says how long the caller must wait for a token (0: one is there now).
-- The caller goes ahead when the wait is within what it accepts (its maxDelay), so with
-- no delay accepted, a wait above 0 is a refusal.
--
-- What it shows: the decision is not the first element. Read from the first element,
-- every call looks admitted ("20 of 5 admitted", a false alarm). The probe learns from
-- its own calls that the second element is 0 for the first calls under the limit and
-- above 0 later, and counts by it.
--
-- Call:     --keys "{key}" --args "{now} {window} {limit}"
-- Findings: none
-- Live:     element 2 decides (0 admitted); counts right; --reply limited@2 says the same

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local capacity = tonumber(ARGV[3])
local per_token = window / capacity

local state = redis.call('HMGET', key, 'tokens', 'at')
local tokens = tonumber(state[1]) or capacity
local at = tonumber(state[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - at) / per_token)

local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
else
  wait = math.ceil((1 - tokens) * per_token)
end
redis.call('HSET', key, 'tokens', tokens, 'at', now)
redis.call('PEXPIRE', key, window * 2)
return {'true', wait, tostring(tokens)}
