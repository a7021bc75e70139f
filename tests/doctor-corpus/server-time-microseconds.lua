-- The script reads the server's clock and makes the member from its seconds and its
-- microseconds, zero-padded, so that the member is the exact time of the call. The
-- caller sends the window in ms and compares the count.
--
-- What it shows: no false alarm: one server runs one script at a time and no call takes
-- less than a microsecond, so no two calls share a member. The doctor says so as a
-- note (with what is left: a clock that steps back), and the live probe agrees: 20 calls
-- sent back to back are stored as 20 entries.
--
-- Call:     --keys "{key}" --args "{window}"
-- Findings: member-is-time as a note (line 22); write-after-time, a note (line 21)
-- Live:     20 calls sent back to back stored as 20 entries; counts right

local key = KEYS[1]
local window = tonumber(ARGV[1])

local t = redis.call('TIME')
local now = t[1] * 1000 + t[2] / 1000
local member = t[1] .. string.format('%06d', t[2])

redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
redis.call('ZADD', key, now, member)
redis.call('PEXPIRE', key, window)
return redis.call('ZCARD', key)
