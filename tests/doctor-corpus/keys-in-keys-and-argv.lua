-- A script written for StackExchange.Redis's LuaScript: its @parameters become ARGV[n],
-- and the parameters that are keys are sent in KEYS as well, so that Redis Cluster
-- routes the call. The script reads its key from ARGV.
--
-- What it shows: the key is declared in KEYS even though the script reads it from ARGV.
-- Wrong readings avoided: "ZREMRANGEBYSCORE uses a key the caller does not pass in
-- KEYS" (foreign-key) and "The script is called without KEYS" (no-keys).
--
-- Call:     --keys "{key}" --args "{limit} {now} {window} {key} {uuid}"
-- Findings: none

local limit = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
local window = tonumber(ARGV[3])

redis.call('ZREMRANGEBYSCORE', ARGV[4], '-inf', now - window)
local count = redis.call('ZCARD', ARGV[4])
local allowed = count < limit
if allowed then
  redis.call('ZADD', ARGV[4], now, ARGV[5])
end
redis.call('PEXPIRE', ARGV[4], window)
return {allowed, count}
