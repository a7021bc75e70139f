-- The script reads the clock itself with redis.call('TIME') (no clock skew between
-- application servers) and builds a millisecond timestamp from seconds and
-- microseconds. The caller sends only the window and compares the count.
--
-- What it shows: the server's clock does not help: every request of the same
-- millisecond is still one member. zsetlab cannot set the time of these calls, so the
-- probe sends them back to back and says so.
--
-- Call:     --keys "{key}" --args "{window}"
-- Findings: member-is-time (line 20); write-after-time, a note (line 19)
-- Live:     20 calls sent back to back stored as fewer than 20 entries

local key = KEYS[1]
local window = tonumber(ARGV[1])

local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)

redis.call('ZREMRANGEBYSCORE', key, 0, now - window)
redis.call('ZADD', key, now, now)
redis.call('PEXPIRE', key, window)
return redis.call('ZCARD', key)
