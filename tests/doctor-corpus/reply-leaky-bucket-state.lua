-- A leaky bucket that answers with its whole state: the bucket's size, its leak rate,
-- when it last leaked, its level after this call, and the wait before a refused call
-- would fit (0 when it fitted).
--
-- What it shows: five numbers and none of them is 1/0. The first three never change
-- with the decision and the level stops at the size; only the wait goes from 0 to above
-- 0 when the bucket is full. The probe finds that element from its own calls.
--
-- Call:     --keys "{key}" --args "{now} {window} {limit}"
-- Findings: none
-- Live:     element 5 decides (0 admitted); counts right

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local size = tonumber(ARGV[3])
local leak_per_ms = size / window

local level = tonumber(redis.call('HGET', key, 'level')) or 0
local last = tonumber(redis.call('HGET', key, 'last')) or now
level = math.max(0, level - (now - last) * leak_per_ms)

local wait = 0
if level + 1 <= size then
  level = level + 1
else
  wait = math.ceil((level + 1 - size) / leak_per_ms)
end
redis.call('HSET', key, 'level', level, 'last', now)
redis.call('PEXPIRE', key, window)
return {size, tostring(leak_per_ms), last, tostring(level), wait}
