#!lua name=waiting
-- A library whose function waits for a slot instead of refusing (see runaway-wait.lua): the
-- count never drops inside one call, so the loop never ends.
--
-- What it shows: Redis answers SCRIPT KILL on a running function with BUSY ("You can only call
-- FUNCTION KILL"); the probe ends it with FUNCTION KILL on its private server.
--
-- Call:     FCALL wait_for_slot 1 {key} {now} {window} {limit} {uuid}
-- Findings: none
-- Live:     exit 4, the function did not finish within 1000 ms; ended with FUNCTION KILL

redis.register_function('wait_for_slot', function(keys, args)
  local key = keys[1]
  local now = tonumber(args[1])
  local window = tonumber(args[2])
  local limit = tonumber(args[3])
  local count = redis.call('ZCOUNT', key, '(' .. (now - window), '+inf')
  while count >= limit do
    count = redis.call('ZCOUNT', key, '(' .. (now - window), '+inf')
  end
  redis.call('ZADD', key, now, args[4])
  redis.call('PEXPIRE', key, window)
  return 1
end)
