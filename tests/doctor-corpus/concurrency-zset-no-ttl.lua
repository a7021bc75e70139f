-- A concurrency limiter that keeps the holders of its slots in a sorted set, scored by
-- when they took a slot. A caller removes itself (ZREM) when done. Nothing else ever
-- removes a holder, and the set has no TTL.
--
-- What it shows: a caller that crashes before its ZREM holds its slot for ever. The
-- live probe never gives a slot back, as a crashed caller would not: a window later the
-- slots are still taken, and the set still has no expiry.
--
-- Call:     --keys "{key}" --args "{limit} {uuid}"
-- Findings: never-trims (line 21: nothing removes a holder that left); no-expiry and a
--           note, a write after TIME (line 24)
-- Live:     clock TIME; the sorted set has no expiry; the call carries no window, so no
--           real-time scenario: the probe cannot tell how long a slot should last

local key = KEYS[1]
local slots = tonumber(ARGV[1])
local holder = ARGV[2]

local t = redis.call('TIME')

if redis.call('ZCARD', key) >= slots then
  return 0
end
redis.call('ZADD', key, t[1], holder)
return 1
