local limit = tonumber(ARGV[1])
            local timestamp = tonumber(ARGV[2])
            local window = tonumber(ARGV[3])

            -- remove all requests outside current window
            redis.call("zremrangebyscore", ARGV[4], '-inf', timestamp - window)

            local count = redis.call("zcard", ARGV[4])
            local allowed = count < limit

            if allowed
            then
                redis.call("zadd", ARGV[4], timestamp, ARGV[5])
            end

            redis.call("expireat", ARGV[4], timestamp + window + 1)

            return { allowed, count }