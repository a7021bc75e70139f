-- Sliding-window rate limiter with microsecond timestamps: the %.14g trap.
--
-- "Milliseconds collide, so use microseconds" narrows the bug without fixing it, and here it
-- does not even narrow it: Lua turns a number into text with 14 significant digits, so
-- 1710000000000123 becomes "1.7100000000001e+15". Every request in the same 100 µs gets the
-- same member once the timestamp is concatenated into it.
--
-- KEYS[1]  the ZSET of one client
-- ARGV[1]  now, an integer timestamp in MICROseconds
-- ARGV[2]  window, in microseconds
-- ARGV[3]  limit (0 = none); the caller compares the count with it
-- ARGV[4]  request id (not used by this script)
-- Reply    {count, added, member}

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])

-- 1. Remove the requests that have left the window.
redis.call('ZREMRANGEBYSCORE', key, 0, now - window)

-- 2. Add this request. The member is built from the time: "req:" .. now uses %.14g.
local member = 'req:' .. now
local added = redis.call('ZADD', key, now, member)

-- 3. Count the requests in the window.
local count = redis.call('ZCARD', key)

-- 4. Let an idle key expire after one window (PEXPIRE takes milliseconds).
redis.call('PEXPIRE', key, math.ceil(window / 1000))

return {count, added, member}
