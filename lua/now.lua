-- Sliding-window rate limiter, member strategy "now": THE BUG.
--
-- The ZSET holds one entry per request: score = when it came, member = its identity.
-- Here the identity is the timestamp itself, so two requests that carry the same
-- millisecond are the same member: the second ZADD only updates the first entry
-- (it replies 0) and ZCARD does not grow. Atomic, and still wrong.
--
-- KEYS[1]  the ZSET of one client
-- ARGV[1]  now, an integer timestamp (milliseconds)
-- ARGV[2]  window, in the unit of now
-- ARGV[3]  limit (0 = none); the caller compares the count with it
-- ARGV[4]  request id (not used by this strategy)
-- Reply    {count, added, member}: added is ZADD's own reply, 1 = new member, 0 = overwritten

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])

-- 1. Remove the requests that have left the window.
redis.call('ZREMRANGEBYSCORE', key, 0, now - window)

-- 2. Add this request. The member is the timestamp: same millisecond, same member.
local added = redis.call('ZADD', key, now, now)

-- 3. Count the requests in the window.
local count = redis.call('ZCARD', key)

-- 4. Let an idle key expire. EXPIRE counts in seconds, so a window in
--    milliseconds keeps the key 1000 times longer than meant (kept as written).
redis.call('EXPIRE', key, window)

return {count, added, ARGV[1]}
