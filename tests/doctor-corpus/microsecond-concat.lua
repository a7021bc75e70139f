-- Microseconds "to lower the chance" of equal members (tj/node-ratelimiter PR #33):
-- the caller sends the time in microseconds and the script builds the member as text.
--
-- What it shows: two traps at once. The member is still the time alone (one member per
-- microsecond), and Lua turns the number into text with 14 significant digits, so
-- 1710000000000123 becomes 1.7100000000001e+15: members are 100 microseconds wide.
--
-- Call:     --keys "{key}" --args "{now_us} {window}"
-- Findings: lossy-time (line 19, error), member-is-time (line 20)
-- Live:     100 calls at 50 per ms stored as 21 entries, not 100

local key = KEYS[1]
local now = tonumber(ARGV[1])            -- microseconds
local window = tonumber(ARGV[2]) * 1000  -- milliseconds to microseconds

redis.call('ZREMRANGEBYSCORE', key, 0, now - window)

-- The score keeps every digit (numbers passed to redis.call are exact); the text does not.
local member = 'req:' .. now
local added = redis.call('ZADD', key, now, member)
local count = redis.call('ZCARD', key)
redis.call('PEXPIRE', key, math.ceil(window / 1000))
return {count, added, member}
