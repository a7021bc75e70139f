-- The plainest fixed window: INCR, and on the first call of a window an expiry of the
-- window. It reads no clock at all: the window is the key's expiry.
--
-- What it shows: a script with no clock of its own. The probe runs it in real time
-- with a short window: the second burst, a window later, starts from 0.
--
-- Call:     --keys "{key}" --args "{window}"
-- Findings: none
-- Live:     clock none; replies are a count with the call; a window later the limit again

local key = KEYS[1]
local window = tonumber(ARGV[1])

local count = redis.call('INCR', key)
if count == 1 then
  redis.call('PEXPIRE', key, window)
end
return count
