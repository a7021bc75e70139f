-- A correct sliding window that also keeps a running total of every call in one hash,
-- named in the script itself, for a dashboard. The caller passes only the window's key.
--
-- What it shows: the script writes a key it was not given. On a shared server that hash is
-- somebody's data, every client's calls change it, and Redis Cluster refuses the script.
-- The live probe tries it on a private redis-server first, sees HINCRBY limiter:stats,
-- and never runs it on the given server, whose limiter:stats stays as it was.
--
-- Call:     --keys "{key}" --args "{now} {window} {limit} {uuid}" (zsetlab's default)
-- Findings: foreign-key (line 25)
-- Live:     only on a private server; it touched HINCRBY limiter:stats

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count >= limit then
  return 0
end
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, window)
redis.call('HINCRBY', 'limiter:stats', 'admitted', 1)
return 1
