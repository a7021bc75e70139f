-- math.randomseed(now) "to make math.random() random": the script seeds the generator
-- with the request's time, then adds a random suffix to the member. Replies the
-- strings "true" and "false".
--
-- What it shows: calls with the same now get the same seed, so the same "random"
-- number and the same member. On Redis 7 the seed also resets the generator every
-- other script shares.
--
-- Call:     --keys "{key}" --args "{now} {window} {limit}"
-- Findings: member-random-reseeded (line 26)
-- Live:     20 calls in one millisecond stored as 1 entry; with limit 5, 20 admitted

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
math.randomseed(now)

redis.call('ZREMRANGEBYSCORE', key, 0, now - window)
local count = redis.call('ZCARD', key)
if count >= limit then
  return 'false'
end

local member = now .. ':' .. math.random(1000000)
redis.call('ZADD', key, now, member)
redis.call('PEXPIRE', key, window)
return 'true'
