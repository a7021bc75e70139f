local rate = tonumber(ARGV[1])
            local limit = tonumber(ARGV[2])
            local requested = tonumber(ARGV[3])
            local now = tonumber(ARGV[4])
            local period = tonumber(ARGV[5])

            local current_tokens = tonumber(redis.call("get", ARGV[6]))
            if current_tokens == nil then
              current_tokens = limit
            end

            local last_refreshed = tonumber(redis.call("get", ARGV[7]))
            if last_refreshed == nil then
              last_refreshed = 0
            end

            local delta_ts = math.max(0, now - last_refreshed)
            local segments = math.floor(delta_ts / period)
            current_tokens = math.min(limit, current_tokens + (segments * rate))

            local allowed = current_tokens >= requested
            if allowed then
               current_tokens = current_tokens - requested
            end

            local fill_time = limit / rate
            local ttl = math.floor(fill_time * 2)

            redis.call("setex", ARGV[6], ttl, current_tokens)
            redis.call("setex", ARGV[7], ttl, now)

            return { allowed, current_tokens }