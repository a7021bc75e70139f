-- Lower-case command names and single quotes, a member made with tostring(), and a
-- boolean reply: true when admitted, false (which reaches the caller as nil) when not.
--
-- What it shows: ZADD k t tostring(t) is still the timestamp as member.
--
-- Call:     --keys "{key}" --args "{now} {window} {limit}"
-- Findings: member-is-time (line 16)
-- Live:     20 calls in one millisecond stored as 1 entry; with limit 5, 20 admitted

local key = KEYS[1]
local t = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

redis.call('zremrangebyscore', key, 0, t - window)
redis.call('zadd', key, t, tostring(t))
redis.call('pexpire', key, window)
local count = redis.call('zcard', key)
return count <= limit
