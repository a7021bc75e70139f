-- The article's script with its fix (a unique member sent by the caller), but the
-- expiry is still EXPIRE with the window in milliseconds.
--
-- What it shows: the count is right, yet every idle key lives 1000 times longer than
-- the window (a 60 s window gives a TTL of 16.7 hours).
--
-- Call:     --keys "{key}" --args "{now} {window} {uuid}"
-- Findings: expire-in-ms (line 21, warning)
-- Live:     counts right; the sorted set expires after 16.7 h

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window_ms = tonumber(ARGV[2])
local member = ARGV[3]

redis.call('ZREMRANGEBYSCORE', key, 0, now - window_ms)
redis.call('ZADD', key, now, member)
local count = redis.call('ZCARD', key)

-- EXPIRE takes seconds.
redis.call('EXPIRE', key, window_ms)
return count
