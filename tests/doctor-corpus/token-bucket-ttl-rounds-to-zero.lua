-- A token bucket on the server's clock that keeps its state only while it matters: for
-- twice the time the bucket takes to fill, in whole seconds. A TTL of 0 would be refused
-- by SET, so the state is written only when the TTL is above 0.
--
-- What it shows: when the rate is more than twice the capacity per second, the TTL
-- rounds down to 0 and the bucket is never written: every call finds it full, and
-- nothing is limited. With a one-minute window it works; the probe's real-time window
-- (200 ms: 25 tokens a second for a bucket of 5) shows the failure.
--
-- Call:     --keys "{key}" --args "{limit} {window}"
-- Findings: a note: a write after TIME (line 33)
-- Live:     clock TIME; in real time the bursts pass whole: counts wrong

local key = KEYS[1]
local capacity = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local rate = capacity * 1000 / window -- tokens a second

local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000) -- ms

local fill_time = capacity / rate
local ttl = math.floor(fill_time * 2)

local tokens = tonumber(redis.call('HGET', key, 'tokens')) or capacity
local at = tonumber(redis.call('HGET', key, 'at')) or now
tokens = math.min(capacity, tokens + (now - at) * rate / 1000)
local allowed = tokens >= 1
if allowed then
  tokens = tokens - 1
end
if ttl > 0 then
  redis.call('HSET', key, 'tokens', tostring(tokens), 'at', tostring(now))
  redis.call('EXPIRE', key, ttl)
end
return allowed and 1 or 0
