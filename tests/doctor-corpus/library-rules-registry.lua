#!lua name=ratelimits
-- A Redis Functions library with a registry of rules beside the limiter: define_rule
-- stores a rule in a hash (HSET) and adds its name to the index of rules, a sorted set
-- with every score 0; limit reads the rule and keeps the sliding log.
--
-- What it shows: the index of rules is no log of requests: adding the same name again is
-- what it is for. Wrong reading avoided: "The ZSET member is the same for every call"
-- (member-is-constant) on the index's ZADD, and "The ZSET never expires" (no-expiry) for
-- an index meant to stay. The log's own ZADD is still read.
--
-- Call:     --keys "{key} {key}:rules {key}:rules:index" --args "{now} {uuid}"
-- Findings: none

local function define_rule(keys, args)
  redis.call('HSET', keys[2], 'limit', args[1], 'window', args[2])
  redis.call('ZADD', keys[3], 0, 'requests')
  return 1
end

local function limit(keys, args)
  local now = tonumber(args[1])
  local rule = redis.call('HMGET', keys[2], 'limit', 'window')
  local max = tonumber(rule[1]) or 10
  local window = tonumber(rule[2]) or 60000
  redis.call('ZREMRANGEBYSCORE', keys[1], '-inf', now - window)
  if redis.call('ZCARD', keys[1]) >= max then
    return 0
  end
  redis.call('ZADD', keys[1], now, args[2])
  redis.call('PEXPIRE', keys[1], window)
  return 1
end

redis.register_function('define_rule', define_rule)
redis.register_function('limit', limit)
