-- The script puts its own prefix in front of the key it is given, so that all limiter
-- keys sit under "ratelimit:" on the server, and forgets the expiry.
--
-- What it shows: 'ratelimit:' .. KEYS[1] is another key than KEYS[1]. The caller (and
-- zsetlab) cannot know it, so it is never deleted: every probe would leave keys behind
-- for ever. The doctor says so without running it; the live probe runs it on a private
-- redis-server only.
--
-- Call:     --keys "{key}" --args "{now} {window} {limit} {uuid}" (zsetlab's default)
-- Findings: foreign-key (lines 19, 20, 21), no-expiry (line 21)
-- Live:     only on a private server; it touched ratelimit:zsetlab:run:...

local key = 'ratelimit:' .. KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

-- The window, then the count, then this request.
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
redis.call('ZADD', key, now, ARGV[4])
return count + 1
