-- A limiter whose member is a fixed text that holds terminal escape sequences: one that
-- clears the screen and one that sets the window title. Lua takes any bytes in a string
-- or a comment, so the script loads and runs.
--
-- What it shows: the doctor quotes the script's lines and the members it stored, and
-- prints the escapes as \e and \x07 instead of sending them to the terminal.
--
-- Call:     zsetlab's default
-- Findings: member-is-constant (line 19)
-- Live:     20 calls stored as 1 entry; no escape byte reaches the output
-- ]0;owned[2J

local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local tag = ']0;owned[2J[31mrequest'

redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
redis.call('ZADD', key, now, tag)
redis.call('PEXPIRE', key, window)
return redis.call('ZCARD', key)
