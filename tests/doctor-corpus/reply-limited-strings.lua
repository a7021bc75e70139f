-- Replies the strings "true" or "false" to the question "is this request limited?", the
-- way some middleware reads a script's answer, and checks before it adds with a
-- comparison that lets one more through: count > limit where count >= limit is meant.
-- The caller sends the window's start (now - window) instead of the window.
--
-- What it shows: "false" means admitted here. The probe learns that from its own calls
-- (the first calls under a limit are admissions) and counts the admissions: limit + 1 in
-- every burst. With {now-window} in the call template the window slides as it should.
--
-- Call:     --keys "{key}" --args "{now} {now-window} {limit} {uuid}"
-- Findings: none
-- Live:     replies read as limited; with limit 5, 6 admitted: "admits limit + 1"

local key = KEYS[1]
local now = tonumber(ARGV[1])
local clear_before = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

redis.call('ZREMRANGEBYSCORE', key, '-inf', clear_before)
local count = redis.call('ZCARD', key)
if count > limit then
  return 'true'
end
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, 60000)
return 'false'
