-- Seconds: the caller sends a Unix time in seconds and the window in seconds, as many
-- servers written against Date.now() / 1000 or time() do (sockudo issue #251:
-- zadd(key, now, now) with seconds). The caller compares the count with its limit.
--
-- What it shows: with seconds, every request of the same second is the same member,
-- so the count cannot pass one per second, whatever the rate.
--
-- Call:     --keys "{key}" --args "{now_s} {window_s} {limit}"
-- Findings: member-is-time (line 22); EXPIRE with seconds is right here
-- Live:     20 calls in one millisecond stored as 1 entry; 100 calls at 0.5 per ms
--           (all in one second) stored as 1 entry

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3]) -- for the caller; read here only to document the call

-- 1. Drop the requests older than the window (in seconds).
redis.call('ZREMRANGEBYSCORE', key, 0, now - window)

-- 2. Record this request under its second.
redis.call('ZADD', key, now, now)

-- 3. Count, and let the key expire with the window (EXPIRE takes seconds: right).
local count = redis.call('ZCARD', key)
redis.call('EXPIRE', key, window)
return count
