-- Token bucket: starts full (capacity tokens), refills continuously at `rate`
-- tokens per second up to capacity; a request takes `cost` tokens if they are
-- there. Denied requests and peeks write nothing, so a refill is never lost.
--
-- Key      one 16-byte string, struct.pack('<dd', tokens, ts): the tokens at ts
--          (a double: fractions kept exactly) and ts, the Redis server's TIME in
--          microseconds (exact in a double). Binary, because a decimal string
--          needs up to 38 bytes for the same exactness, and Redis spends them on
--          every key. A missing key is a full bucket, so the key expires when
--          the bucket would be full.
-- argv     capacity (integer >= 1), refill rate in tokens per second (float > 0)
-- State    s1 = tokens at now, s2 = the instant they are counted at
-- Needs    buckets.lua (state format, its read and times, shared with the leaky bucket)

ALGORITHMS.token_bucket = {
  nargs = 2,
  clock = true,
  string = true,

  check = function(key, argv, i, cost, now, injected, consuming, raw)
    local capacity = num(argv[i + 1])
    local tokens = capacity
    local v, elapsed
    v, now, elapsed = read_bucket(key, raw, 'token bucket', now)
    if v then
      tokens = v + elapsed * num(argv[i + 2]) / 1000000
      if tokens > capacity then tokens = capacity end
    end
    return tokens + EPS >= cost, math.floor(tokens + EPS), tokens, now
  end,

  explain = function(key, argv, i, cost, now, tokens)
    local rate = num(argv[i + 2])
    return us_for(num(argv[i + 1]) - tokens, rate), us_for(cost - tokens, rate)
  end,

  commit = function(key, argv, i, cost, now, tokens, ts)
    tokens = tokens - cost
    if tokens < 0 then tokens = 0 end
    local reset = us_for(num(argv[i + 1]) - tokens, num(argv[i + 2]))
    -- Once full the state no longer matters: expire then (whole ms, rounded up).
    redis.call('SET', key, struct.pack('<dd', tokens, ts), 'PX', int(expire_ms(reset)))
    return math.floor(tokens + EPS), reset, 0
  end,
}
