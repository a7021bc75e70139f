-- Instead of refusing, the script waits for a slot: it counts the window again and again
-- until a request leaves it. Redis runs one script at a time and its clock does not move
-- inside a script, so the count never drops: the loop never ends, and the whole server
-- answers every client with BUSY.
--
-- What it shows: the probe ends such a call with SCRIPT KILL (nothing was written before
-- the loop, so Redis allows it) and the doctor exits with 4; the private redis-server where
-- it tried the script first took the loop, and the given server never saw it.
--
-- Call:     --keys "{key}" --args "{now} {window} {limit} {uuid}" (zsetlab's default)
-- Findings: none (a loop is no mistake the doctor reads)
-- Live:     exit 4, the script did not finish within 1000 ms; the server still answers

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

local count = redis.call('ZCOUNT', key, '(' .. (now - window), '+inf')
while count >= limit do
  count = redis.call('ZCOUNT', key, '(' .. (now - window), '+inf')
end
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, window)
return 1
