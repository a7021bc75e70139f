-- Sliding-window rate limiter, member strategy "request-id": the robust fix.
--
-- The caller sends an id that is unique per request (a UUID, or a counter of its
-- own). Nothing about the time or the server decides whether two requests collide.
--
-- KEYS[1]  the ZSET of one client
-- ARGV[1]  now, an integer timestamp (milliseconds)
-- ARGV[2]  window, in the unit of now
-- ARGV[3]  limit (0 = none); the caller compares the count with it
-- ARGV[4]  request id, unique per request
-- Reply    {count, added, member}

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local member = ARGV[4]

-- 1. Remove the requests that have left the window.
redis.call('ZREMRANGEBYSCORE', key, 0, now - window)

-- 2. Add this request under its own id.
local added = redis.call('ZADD', key, now, member)

-- 3. Count the requests in the window.
local count = redis.call('ZCARD', key)

-- 4. Let an idle key expire after one window: PEXPIRE counts in milliseconds.
redis.call('PEXPIRE', key, window)

return {count, added, member}
