-- GCRA, the generic cell rate algorithm (redis-cell, go-redis/redis_rate): one time per client.
--
-- Requests are meant to come `interval = window / limit` apart, with a burst of up to `limit`
-- allowed. The key holds the theoretical arrival time (TAT): when the next request would be on
-- time had every admitted one kept the pace. A request is admitted when, after it, the TAT is no
-- more than one window ahead of now: at most `limit` intervals borrowed. One number per client;
-- like a token bucket it limits a rate, so after a burst it admits one request per interval.
--
-- KEYS[1]  the TAT of one client, ms (a string with fractions)
-- ARGV[1]  now, ms
-- ARGV[2]  window, ms
-- ARGV[3]  limit
-- Reply    {allowed, count}: 1 admitted or 0 refused, and the intervals borrowed after this call

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local interval = window / limit

-- 1. The TAT; a client that kept the pace (or a new one) is on time: now.
local tat = tonumber(redis.call('GET', key)) or now
if tat < now then
  tat = now
end

-- 2. After this request the TAT moves one interval on. More than a window ahead: refuse.
local after = tat + interval
if after - now > window then
  redis.call('PEXPIRE', key, window) -- kept while its client keeps calling
  return {0, math.floor((tat - now) / interval + 0.5)}
end

-- 3. Admit it. string.format keeps the fraction (Lua writes 14 digits); the key lives as long as
--    it is ahead of now.
redis.call('SET', key, string.format('%.3f', after), 'PX', math.ceil(after - now))
return {1, math.floor((after - now) / interval + 0.5)}
