-- Upper-case command names, double quotes, and ARGV used as strings straight away,
-- without tonumber: the shortest form of the bug, as pasted in many answers.
--
-- What it shows: ZADD KEYS[1] ARGV[1] ARGV[1] stores the caller's millisecond text as
-- both score and member: one member per millisecond.
--
-- Call:     zsetlab's default (--args "{now} {window} {limit} {uuid}")
-- Findings: member-is-time (line 12)
-- Live:     20 calls in one millisecond stored as 1 entry; with limit 5, 20 admitted

redis.call("ZREMRANGEBYSCORE", KEYS[1], "-inf", ARGV[1] - ARGV[2])
redis.call("ZADD", KEYS[1], ARGV[1], ARGV[1])
redis.call("PEXPIRE", KEYS[1], ARGV[2])
return redis.call("ZCARD", KEYS[1])
