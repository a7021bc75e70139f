#!lua name=ratelimit
-- A Redis Functions library (Redis 7+, Valkey) with the same limiter twice: limit_now keeps the
-- request's millisecond as the member, limit_unique the request id the caller passes. Both share
-- the helper that trims the window.
--
-- What it shows: the doctor reads each function as the EVAL script its body would be (keys and
-- args as KEYS and ARGV) and names the function of each finding; the probe loads the library on a
-- private server with FUNCTION LOAD and calls one function with FCALL.
--
-- Call:     FCALL <function> 1 {key} {now} {window} {limit} {uuid} (zsetlab's default)
-- Findings: member-is-time in limit_now (line 41); none in limit_unique
-- Live:     --function limit_now counts wrong; --function limit_unique counts right

local function trim(key, now, window)
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
end

local function unique_limiter(keys, args)
  local key = keys[1]
  local now = tonumber(args[1])
  local window = tonumber(args[2])
  local limit = tonumber(args[3])
  trim(key, now, window)
  if redis.call('ZCARD', key) >= limit then
    return 0
  end
  redis.call('ZADD', key, now, args[4])
  redis.call('PEXPIRE', key, window)
  return 1
end

redis.register_function('limit_now', function(keys, args)
  local key = keys[1]
  local now = tonumber(args[1])
  local window = tonumber(args[2])
  local limit = tonumber(args[3])
  trim(key, now, window)
  if redis.call('ZCARD', key) >= limit then
    return 0
  end
  redis.call('ZADD', key, now, now)
  redis.call('PEXPIRE', key, window)
  return 1
end)

redis.register_function{
  function_name = 'limit_unique',
  callback = unique_limiter,
  flags = {'allow-stale'},
  description = 'one member per request',
}
