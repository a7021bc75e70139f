-- The caller names each request: KEYS[2] is a per-request name ("<key>:<uuid>") that the script
-- stores as the member; it never reads or writes that key. Some apps pass the request id as a
-- key so that a cluster routes it with the limiter's key.
--
-- What it shows: a member taken from a key or argument is unique when the call fills it with a
-- per-request value ({uuid}, {seq}); it is not "the same for every call".
--
-- Call:     --keys "{key} {key}:{uuid}" --args "{now} {window} {limit}"
-- Findings: none
-- Live:     counts right

local key = KEYS[1]
local member = KEYS[2]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

redis.call('ZREMRANGEBYSCORE', key, 0, now - window)
if redis.call('ZCARD', key) >= limit then
  return 0
end
redis.call('ZADD', key, now, member)
redis.call('PEXPIRE', key, window)
return 1
