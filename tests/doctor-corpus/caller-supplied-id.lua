-- A caller-supplied id: the application sends a unique id per request (a UUID) and the
-- script stores it as the member, as ecodeclub/ginx did to fix issue #27. The script
-- decides and replies {allowed, count}.
--
-- What it shows: the robust fix. Nothing about the clock decides whether two requests
-- collide. It should come out clean: no findings, every scenario counted right.
--
-- Call:     --keys "{key}" --args "{now} {window} {limit} {uuid}" (zsetlab's default)
-- Findings: none
-- Live:     counts right; the limit admits exactly 5

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local request_id = ARGV[4]

redis.call('ZREMRANGEBYSCORE', key, 0, now - window)
local count = redis.call('ZCARD', key)
if count >= limit then
  return {0, count}
end

redis.call('ZADD', key, now, request_id)
redis.call('PEXPIRE', key, window)
return {1, count + 1}
