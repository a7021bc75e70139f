-- Sliding-window rate limiter, member strategy "sequence": unique by a server counter.
--
-- The member is the timestamp plus a number that Redis itself increments (INCR) on
-- every call, so no two calls can share a member, whatever their clocks say.
-- The counter lives beside the ZSET, in KEYS[1] .. ':seq', and expires with it. (zsetlab
-- also passes that key as KEYS[2], as Redis asks callers to declare every key a script uses.)
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
local counter = key .. ':seq'

-- 1. Remove the requests that have left the window.
redis.call('ZREMRANGEBYSCORE', key, 0, now - window)

-- 2. Add this request under "now-N", N from the server-side sequence.
local member = now .. '-' .. redis.call('INCR', counter)
local added = redis.call('ZADD', key, now, member)

-- 3. Count the requests in the window.
local count = redis.call('ZCARD', key)

-- 4. Let the idle key and its counter expire after one window (milliseconds).
redis.call('PEXPIRE', key, window)
redis.call('PEXPIRE', counter, window)

return {count, added, member}
