-- The limit is not an argument: the app writes it once into a hash beside the sorted set
-- (HSET <key>:config limit 100), and the script refuses to count until it is there.
--
-- What it shows: without that hash every call fails with "not initialized", and the probe can say
-- nothing. With --setup "HSET {key}:config limit {limit}" the probe writes it on each scenario's
-- own keys first (and deletes it after), and the script is probed like any other.
--
-- Call:     --keys "{key} {key}:config" --args "{now} {window} {uuid}"
--           --setup "HSET {key}:config limit {limit}"
-- Findings: none
-- Live:     without --setup, exit 4 (not initialized); with it, counts right

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(redis.call('HGET', KEYS[2], 'limit'))
if not limit then
  return redis.error_reply('not initialized: HSET ' .. KEYS[2] .. ' limit N first')
end

redis.call('ZREMRANGEBYSCORE', key, 0, now - window)
if redis.call('ZCARD', key) >= limit then
  return 0
end
redis.call('ZADD', key, now, ARGV[3])
redis.call('PEXPIRE', key, window)
return 1
