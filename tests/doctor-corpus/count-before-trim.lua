-- Counting first, trimming later: the count includes requests that have already left
-- the window, and a refusal returns before the trim ever runs. Members are unique
-- (the caller's id), so only the order is wrong. Replies 1 or 0.
--
-- What it shows: once a client reaches the limit it stays refused, even after its old
-- requests left the window, until the key expires.
--
-- Call:     zsetlab's default (--args "{now} {window} {limit} {uuid}")
-- Findings: count-before-trim (line 18)
-- Live:     5 calls half a window apart, limit 2, the key kept alive: 4 admitted, not 5

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local id = ARGV[4]

local count = redis.call('ZCARD', key)
if count >= limit then
  return 0
end

redis.call('ZREMRANGEBYSCORE', key, 0, now - window)
redis.call('ZADD', key, now, id)
redis.call('PEXPIRE', key, window)
return 1
