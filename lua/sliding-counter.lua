-- Sliding window counter: two fixed windows, the previous one weighted (upstash ratelimit,
-- Cloudflare).
--
-- Keeps the counts of the current fixed window and of the one before. The requests of the sliding
-- window are estimated as if the previous window's requests had come evenly: the part of it that
-- the sliding window still covers, plus all of the current one:
--   estimate = previous * (window - elapsed) / window + current
-- Three numbers per client, and close to exact when traffic is even; a burst late in the previous
-- window is spread by the estimate, so it may admit a little more or less than the limit.
--
-- KEYS[1]  a hash: window (number of the current fixed window), current, previous
-- ARGV[1]  now, ms
-- ARGV[2]  window, ms
-- ARGV[3]  limit
-- Reply    {allowed, count}: 1 admitted or 0 refused, and the estimate after this call (rounded down)

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local number = math.floor(now / window)

-- 1. Read the two counters; a new fixed window moves the current count to the previous one.
local state = redis.call('HMGET', key, 'window', 'current', 'previous')
local stored = tonumber(state[1])
local current = tonumber(state[2]) or 0
local previous = tonumber(state[3]) or 0
if stored ~= number then
  if stored == number - 1 then
    previous = current
  else
    previous = 0
  end
  current = 0
end

-- 2. The estimate: the previous window weighted by the part the sliding window still covers.
local elapsed = now - number * window
local estimate = previous * (window - elapsed) / window + current

-- 3. Admit below the limit, and count the admitted request in the current window.
local allowed = 0
if estimate < limit then
  allowed = 1
  current = current + 1
  estimate = estimate + 1
end
redis.call('HSET', key, 'window', number, 'current', current, 'previous', previous)
-- The counts matter for two windows: the current one, and the next as its previous.
redis.call('PEXPIRE', key, 2 * window)
return {allowed, math.floor(estimate)}
