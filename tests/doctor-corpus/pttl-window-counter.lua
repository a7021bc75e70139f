-- A fixed window kept as a counter whose TTL is the window: the first call of a window
-- sets it with PX; a refused call answers the milliseconds left (PTTL), an admitted
-- one 0. The call carries no time: the key's TTL is its clock.
--
-- What it shows: a script that tells time by PTTL. The probe cannot move its clock, so
-- it runs it in real time with a short window and says which clock it uses.
--
-- Call:     --keys "{key}" --args "{limit} {window}"
-- Findings: none
-- Live:     clock PTTL; a window later the second burst gets the limit again

local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])

local count = tonumber(redis.call('GET', key) or '0')
if count >= limit then
  local left = redis.call('PTTL', key)
  if left > 0 then
    return left
  end
end
if count == 0 then
  redis.call('SET', key, 1, 'PX', window)
else
  redis.call('INCR', key)
end
return 0
