-- Token bucket: a bucket of `limit` tokens, refilled at `limit` tokens per window.
--
-- Each request takes one token, and is refused when the bucket is empty. A full bucket lets a
-- burst of `limit` through at once, then requests pass at the refill rate. Two numbers per client
-- whatever the traffic. It limits a rate, not a count per window: after a burst it admits again as
-- soon as a token has come back, where a sliding log waits for the burst to leave the window.
--
-- KEYS[1]  a hash: tokens (what is left, with fractions), at (ms of the last refill)
-- ARGV[1]  now, ms
-- ARGV[2]  window, ms
-- ARGV[3]  limit: the bucket's size, and the tokens that come back per window
-- Reply    {allowed, count}: 1 admitted or 0 refused, and the tokens in use after this call

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

-- 1. Read the bucket: a new one is full.
local state = redis.call('HMGET', key, 'tokens', 'at')
local tokens = tonumber(state[1]) or limit
local at = tonumber(state[2]) or now

-- 2. Refill for the time since the last call, up to the bucket's size.
if now > at then
  tokens = math.min(limit, tokens + (now - at) * limit / window)
  at = now
end

-- 3. Take a token if there is one.
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end

-- 4. Keep the bucket. string.format: Lua would write the fraction with 14 digits only.
redis.call('HSET', key, 'tokens', string.format('%.6f', tokens), 'at', ARGV[1])
-- An idle bucket is full again after one window: then it may as well be gone.
redis.call('PEXPIRE', key, window)
return {allowed, limit - math.floor(tokens)}
