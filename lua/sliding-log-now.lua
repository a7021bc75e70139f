-- Sliding log with the timestamp as the member: the bug, in a limiter that decides itself.
--
-- The same log as sliding-log.lua, except the member: here it is `now`. Two requests in the same
-- millisecond are the same member, so the second ZADD only updates the first entry (it replies
-- 0) and ZCARD does not grow: a burst inside one millisecond is admitted whole, far beyond the
-- limit.
--
-- KEYS[1]  the log of one client
-- ARGV[1]  now, ms
-- ARGV[2]  window, ms
-- ARGV[3]  limit
-- Reply    {allowed, count, added}: 1 admitted or 0 refused, the members in the window after this
--          call, and for an admitted request ZADD's reply (1 new member, 0 overwritten)

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

-- 1. Remove the requests that have left the window.
redis.call('ZREMRANGEBYSCORE', key, 0, now - window)

-- 2. Count the members still in it: one per millisecond that had requests, not one per request.
local count = redis.call('ZCARD', key)

-- 3. At the limit: refuse (the log stays while its client keeps calling).
if count >= limit then
  redis.call('PEXPIRE', key, window)
  return {0, count}
end

-- 4. Admit it under the member `now`: same millisecond, same member, the count stays.
local added = redis.call('ZADD', key, now, ARGV[1])
redis.call('PEXPIRE', key, window)
return {1, count + added, added}
