-- A correct sliding log that also counts the requests it refuses, for a dashboard, in a
-- second key beside the log: KEYS[1] .. ':refused', named in the script itself. The
-- caller passes only the log's key.
--
-- What it shows: on one server this works. On Redis Cluster the call goes to the node
-- that serves the slot of KEYS[1], and KEYS[1] .. ':refused' hashes to a slot of its own
-- unless the caller's key carries a hash tag (rl:{user42} and rl:{user42}:refused share
-- one): the first refusal fails with "Script attempted to access a non local key in a
-- cluster node". The fix: pass the counter as KEYS[2] and give the keys one hash tag.
--
-- Call:     --keys "{key}" --args "{now} {window} {limit} {uuid}" (zsetlab's default)
-- Findings: undeclared-key (line 27, again on line 28)
-- Call:     --keys "{key} {key}:refused": no findings (the counter is passed as KEYS[2])
-- Live:     counts right in every scenario, called either way (one server)

local key = KEYS[1]
local refused = key .. ':refused'
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

-- The window, then the count, then this request.
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count >= limit then
  -- Refused: count it where the dashboard reads it.
  redis.call('INCR', refused)
  redis.call('PEXPIRE', refused, window)
  return 0
end
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, window)
return 1
