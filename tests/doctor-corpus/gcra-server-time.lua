-- GCRA (the generic cell rate algorithm) on the server's clock: one value per client,
-- the theoretical arrival time of its next request. A request passes when that time
-- is no further ahead than the burst allows. The call carries the limit and the window.
--
-- What it shows: a limiter that gives capacity back as time passes: half a window after
-- a burst, a call passes again. The probe runs it in real time and says so.
--
-- Call:     --keys "{key}" --args "{limit} {window}"
-- Findings: a note: a write after TIME (line 26)
-- Live:     clock TIME; {allowed, retry} read as admitted; half a window later admitted

local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local interval = window / limit

local t = redis.call('TIME')
local now = t[1] * 1000 + t[2] / 1000

local tat = tonumber(redis.call('GET', key)) or now
tat = math.max(tat, now)
local allow_at = tat + interval - window
if allow_at > now then
  return {0, math.ceil(allow_at - now)}
end
redis.call('SET', key, tostring(tat + interval), 'PX', math.ceil(tat + interval - now))
return {1, 0}
