-- A concurrency limiter: each call takes a slot for a lease (the window) and gets the
-- slot's name back; when every slot is taken it gets nil. A caller gives its slot back
-- when done; a caller that crashes loses its slot only until the lease runs out. It
-- reads the server's clock, so its call carries no time.
--
-- What it shows: a reply that is text or nil. No number to read, so no reply style
-- fits; the probe learns that the first calls under the limit got text and later ones
-- nil. In real time the leases run out after the window, and the slots come back.
--
-- Call:     --keys "{key}" --args "{limit} {window} {uuid}"
-- Findings: a note: a write after TIME (line 22)
-- Live:     the reply itself decides (text admitted, nil refused); clock TIME;
--           after the window the second burst gets the limit again

local key = KEYS[1]
local slots = tonumber(ARGV[1])
local lease = tonumber(ARGV[2])
local holder = ARGV[3]

local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
local held = redis.call('ZCARD', key)
if held >= slots then
  return false
end
redis.call('ZADD', key, now + lease, holder)
redis.call('PEXPIRE', key, lease)
return 'slot-' .. (held + 1)
