-- A log whose members are the millisecond within the second, read from the server's
-- clock, and the permit's index within the call: a call for three permits adds
-- "417:1", "417:2" and "417:3".
--
-- What it shows: the member takes only 1,000 values per index. Every call in the same
-- millisecond writes the same members, and so do calls a whole number of seconds apart
-- while both are in the window. The reading finds it and says how many values the
-- member takes; the live probe's back-to-back calls show it.
--
-- Call:     --keys "{key}" --args "{window} {limit} 1"
-- Findings: member-is-time, 1,000 values (line 28); a note: a write after TIME (line 23)
-- Live:     clock TIME; back-to-back calls stored as fewer entries than calls

local key = KEYS[1]
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local permits = tonumber(ARGV[3])

local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local ms = math.floor(t[2] / 1000)

redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
if redis.call('ZCARD', key) + permits > limit then
  return 0
end
for i = 1, permits do
  redis.call('ZADD', key, now, ms .. ':' .. i)
end
redis.call('PEXPIRE', key, window)
return 1
