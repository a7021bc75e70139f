-- Seconds everywhere, a unique member, and then PEXPIRE, which counts milliseconds:
-- a 60 s window becomes a 60 ms TTL.
--
-- What it shows: an expiry 1000 times too short. Every pause longer than the TTL
-- deletes the requests still in the window, and the count starts again from zero.
--
-- Call:     --keys "{key}" --args "{now_s} {window_s} {uuid}"
-- Findings: pexpire-in-seconds (line 18)
-- Live:     the sorted set expires after 60 ms, before the 60 s window ends

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])

redis.call('ZREMRANGEBYSCORE', key, 0, now - window)
redis.call('ZADD', key, now, ARGV[3])
local count = redis.call('ZCARD', key)
redis.call('PEXPIRE', key, window)
return count
