-- Fixed window: one counter per window, INCR + PEXPIRE (rate-limiter-flexible, many gateways).
--
-- Time is cut into windows of `window` ms that start at multiples of it (0-999, 1000-1999, ...).
-- Each request INCRements the counter of its window and is admitted while the counter is at most
-- the limit. One integer per client, and the cheapest call; but a window knows nothing of the one
-- before it: `limit` requests at the end of one window and `limit` more at the start of the next
-- are all admitted, twice the limit within a few milliseconds.
--
-- Libraries name the counter after its window (key:<number>) and let PEXPIRE remove the old ones.
-- zsetlab replays timestamps faster than the clock runs, so the counter keeps the number of its
-- window in KEYS[2] instead: every key has a name zsetlab knows and can delete.
--
-- KEYS[1]  the counter of the current window (a string holding an integer)
-- KEYS[2]  the number of that window
-- ARGV[1]  now, ms
-- ARGV[2]  window, ms
-- ARGV[3]  limit
-- Reply    {allowed, count}: 1 admitted or 0 refused, and the window's counter after this call

local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local current = tostring(math.floor(now / window))

-- 1. A new window starts its counter again from 0.
if redis.call('GET', KEYS[2]) ~= current then
  redis.call('SET', KEYS[1], 0)
  redis.call('SET', KEYS[2], current)
end

-- 2. Count this request (a refused one too: it is a request of this window).
local count = redis.call('INCR', KEYS[1])

-- 3. Let the idle counter expire with its window.
redis.call('PEXPIRE', KEYS[1], window)
redis.call('PEXPIRE', KEYS[2], window)

if count <= limit then
  return {1, count}
end
return {0, count}
