-- The member is the time and a request id: "1710000000000123-<uuid>". The time is a microsecond
-- count that Lua writes with 14 digits (tostring of a number), so it is rounded to 100
-- microseconds, but the id after it is unique per request.
--
-- What it shows: a member is judged by what makes it unique, not by its weakest part. The lossy
-- time is a note, not the error it is in a member made of the time alone; every scenario is
-- counted right.
--
-- Call:     --keys "{key}" --args "{now_us} 60000000 {limit} {uuid}" (the window in microseconds)
-- Findings: lossy-time as a note (line 22)
-- Live:     counts right; 20 calls of one microsecond are 20 members

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

redis.call('ZREMRANGEBYSCORE', key, 0, now - window)
if redis.call('ZCARD', key) >= limit then
  return 0
end
local member = tostring(now) .. '-' .. ARGV[4]
redis.call('ZADD', key, now, member)
redis.call('PEXPIRE', key, math.ceil(window / 1000))
return 1
