-- Check, then add: count the window with ZCOUNT and add the request only when it is
-- under the limit; the script decides and replies 1 (admitted) or 0 (refused). The
-- shape of many gateway plugins and blog posts.
--
-- What it shows: checking first does not help when the member is the timestamp.
-- ZADD key now now writes one member per millisecond, ZCOUNT never sees more than
-- one request per millisecond, and a burst inside one millisecond is admitted whole.
--
-- Call:     --keys "{key}" --args "{now} {window} {limit}"
-- Findings: member-is-time (line 24)
-- Live:     20 calls in one millisecond stored as 1 entry; with limit 5, 20 admitted

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

-- Forget the requests that left the window, then count the ones still in it.
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCOUNT', key, now - window, '+inf')

if count < limit then
  -- Admit: remember this request. The member is the timestamp: same ms, same member.
  redis.call('ZADD', key, now, now)
  redis.call('PEXPIRE', key, window)
  return 1
end
return 0
