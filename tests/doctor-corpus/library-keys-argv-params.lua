#!lua name=windowlog
-- A Redis Functions library whose callback names its parameters KEYS and ARGV, so that
-- the body reads like the EVAL script it came from.
--
-- What it shows: KEYS and ARGV here are the callback's own parameters, not the EVAL
-- globals a function cannot see. Wrong reading avoided: "KEYS is nil in a function"
-- (function-reads-keys).
--
-- Call:     --keys "{key}" --args "{now} {window} {limit} {uuid}" (zsetlab's default)
-- Findings: none

local function admit(KEYS, ARGV)
  local key = KEYS[1]
  local now = tonumber(ARGV[1])
  local window = tonumber(ARGV[2])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  if redis.call('ZCARD', key) >= tonumber(ARGV[3]) then
    return 0
  end
  redis.call('ZADD', key, now, ARGV[4])
  redis.call('PEXPIRE', key, window)
  return 1
end

redis.register_function('admit', admit)
