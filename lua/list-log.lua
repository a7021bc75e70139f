-- Moving window in a LIST, LPUSH + LTRIM (Python's `limits`).
--
-- The list holds the times of the newest admitted requests, newest first, and never more than
-- `limit` of them. A request is admitted when the list is not full yet or its oldest entry, the
-- limit-th newest admitted time, has left the window (now - window, now]. As exact as the sliding
-- log, with memory bounded by the limit instead of the traffic; LTRIM keeps it there.
--
-- KEYS[1]  the list of one client
-- ARGV[1]  now, ms
-- ARGV[2]  window, ms
-- ARGV[3]  limit
-- Reply    {allowed}: 1 admitted or 0 refused (no count: it would take reading the whole list)

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

-- 1. The limit-th newest admitted time: still in the window means `limit` admitted in it.
local oldest = redis.call('LINDEX', key, limit - 1)
if oldest and tonumber(oldest) > now - window then
  redis.call('PEXPIRE', key, window) -- kept while its client keeps calling
  return {0}
end

-- 2. Admit it: push its time (ARGV[1], the text as sent) and drop what is beyond the limit.
redis.call('LPUSH', key, ARGV[1])
redis.call('LTRIM', key, 0, limit - 1)
redis.call('PEXPIRE', key, window)
return {1}
