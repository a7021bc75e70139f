-- Sliding-window rate limiter, member strategy "random": the usual fix.
--
-- The member is the timestamp plus a random number, so requests in the same
-- millisecond get different members. Caveat: Redis 2.6 to 6.2 reseed math.random()
-- with the same seed at the start of every script call, so the first random number
-- is the same in every call and this fix still collides there. Redis 7 keeps one
-- generator running, and it works.
--
-- KEYS[1]  the ZSET of one client
-- ARGV[1]  now, an integer timestamp (milliseconds)
-- ARGV[2]  window, in the unit of now
-- ARGV[3]  limit (0 = none); the caller compares the count with it
-- ARGV[4]  request id (not used by this strategy)
-- Reply    {count, added, member}

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])

-- 1. Remove the requests that have left the window.
redis.call('ZREMRANGEBYSCORE', key, 0, now - window)

-- 2. Add this request under a member made unique by a random suffix.
local member = now .. '-' .. math.random()
local added = redis.call('ZADD', key, now, member)

-- 3. Count the requests in the window.
local count = redis.call('ZCARD', key)

-- 4. Let an idle key expire (EXPIRE is in seconds, kept as written).
redis.call('EXPIRE', key, window)

return {count, added, member}
