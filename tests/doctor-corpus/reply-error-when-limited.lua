-- Refusing with an error: over the limit the script answers redis.error_reply('rate limited'),
-- which the app catches as an exception; under it, the count with the call.
--
-- What it shows: the probe reads such an error, after calls that answered, as a refusal, not as
-- a failing script, and counts admissions exactly. A Lua error (a line in the message) or the
-- server's own (WRONGTYPE, an ACL refusal) still ends the probe.
--
-- Call:     zsetlab's default (--args "{now} {window} {limit} {uuid}")
-- Findings: none
-- Live:     counts right; refusals read from the error replies

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

redis.call('ZREMRANGEBYSCORE', key, 0, now - window)
local count = redis.call('ZCARD', key)
if count >= limit then
  return redis.error_reply('rate limited: ' .. count .. ' requests in the window')
end
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, window)
return count + 1
