-- Sliding log: one ZSET member per admitted request, scored by its time. The fix, in full.
--
-- Exact: a request is admitted when fewer than `limit` admitted requests lie in the window
-- (now - window, now]. The member is an id unique per request, so no two requests share one.
-- The price is memory: one member per admitted request in the window (tens of bytes each), so a
-- key grows with the traffic the window lets through.
--
-- KEYS[1]  the log of one client
-- ARGV[1]  now, ms
-- ARGV[2]  window, ms
-- ARGV[3]  limit
-- ARGV[4]  request id, unique per request
-- Reply    {allowed, count, added}: 1 admitted or 0 refused, the admitted requests in the window
--          after this call, and for an admitted request ZADD's reply (1: a new member)

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

-- 1. Remove the requests that have left the window.
redis.call('ZREMRANGEBYSCORE', key, 0, now - window)

-- 2. Count the admitted requests still in it.
local count = redis.call('ZCARD', key)

-- 3. At the limit: refuse. A refused request takes no place in the log, which stays while its
--    client keeps calling.
if count >= limit then
  redis.call('PEXPIRE', key, window)
  return {0, count}
end

-- 4. Admit it: log it under its own id, and let an idle log expire after one window.
local added = redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, window)
return {1, count + added, added}
