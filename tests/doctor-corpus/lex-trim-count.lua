-- A log kept in lexical order: every entry has the score 0 and a member that starts with
-- the time, zero-padded to 16 digits, so that members sort by time. Old entries are
-- trimmed with ZREMRANGEBYLEX and the window is counted with ZLEXCOUNT; the reply is the
-- set's size after the call (ZCARD).
--
-- What it shows: a trim and a count by lexical range are a trim and a count. Wrong
-- reading avoided: "Nothing removes the entries older than the window" (never-trims).
--
-- Call:     --keys "{key}" --args "{now} {window} {limit} {uuid}" (zsetlab's default)
-- Findings: none

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

local function stamp(ms)
  return string.format('%016d', ms)
end

redis.call('ZREMRANGEBYLEX', key, '-', '(' .. stamp(now - window))
local count = redis.call('ZLEXCOUNT', key, '-', '+')
if count >= limit then
  return -1
end
redis.call('ZADD', key, 0, stamp(now) .. ':' .. ARGV[4])
redis.call('PEXPIRE', key, window)
return redis.call('ZCARD', key)
