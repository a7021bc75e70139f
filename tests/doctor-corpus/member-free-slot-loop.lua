-- The member starts as the time, and the script moves it on while it is taken: "1700000000000",
-- then "1700000000000x", "1700000000000xx", ... until ZSCORE finds it free. Every call gets a
-- member of its own, without a request id.
--
-- What it shows: a reading that cannot follow the loop takes the member for the time alone
-- (member-is-time, an error), while the live probe stores every call of one millisecond as its
-- own member. The probe's count wins: with --live the finding becomes a note that says so, and
-- the doctor exits 0. (The loop costs one ZSCORE per call already in that millisecond.)
--
-- Call:     --keys "{key}" --args "{now} {window} {limit}"
-- Findings: member-is-time (line 27); a note after --live
-- Live:     counts right; 20 calls of one millisecond are 20 members

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

redis.call('ZREMRANGEBYSCORE', key, 0, now - window)
if redis.call('ZCARD', key) >= limit then
  return 0
end
local member = tostring(now)
while redis.call('ZSCORE', key, member) do
  member = member .. 'x'
end
redis.call('ZADD', key, now, member)
redis.call('PEXPIRE', key, window)
return 1
