-- Replies nothing (nil) when the request may pass, and a message when it is refused, as
-- a script that returns an error text to show to the user does. The window is right and
-- the member is the caller's id.
--
-- What it shows: no false alarm: nil is read as admitted, the message as refused, and
-- the probe finds every count right.
--
-- Call:     --keys "{key}" --args "{now} {window} {limit} {uuid}" (zsetlab's default)
-- Findings: none
-- Live:     replies read as nil-admitted; counts right

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
if redis.call('ZCARD', key) >= limit then
  return 'rate limit exceeded, try again later'
end
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, window)
return nil
