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

  -- refund, charge and reserve (entries.lua's adjust; core/src/token_bucket.rs
  -- mirrors them). Tokens are negative while the bucket owes (a charge past
  -- the limit, bookings that wait): a consume is denied until refilled.
  refund = function(key, argv, i, units, now, tokens, ts)
    local capacity, rate = num(argv[i + 1]), num(argv[i + 2])
    local after = tokens + units
    if after > capacity then after = capacity end
    local reset = us_for(capacity - after, rate)
    if after ~= tokens then
      -- Full: a missing key says so.
      if reset == 0 then redis.call('DEL', key) else redis.call('SET', key, struct.pack('<dd', after, ts), 'PX', int(expire_ms(reset))) end
    end
    return math.max(math.floor(after + EPS), 0), reset
  end,

  -- Only for units that do not fit: a debt, no deeper than most_owed.
  charge = function(key, argv, i, units, now, tokens, ts)
    local capacity, rate = num(argv[i + 1]), num(argv[i + 2])
    tokens = tokens - units
    if tokens < -most_owed(rate) then tokens = -most_owed(rate) end
    local reset = us_for(capacity - tokens, rate)
    redis.call('SET', key, struct.pack('<dd', tokens, ts), 'PX', int(expire_ms(reset)))
    return 0, reset, us_for(1 - tokens, rate)
  end,

  -- Books `cost` when its wait is at most `wait` µs: remaining, reset,
  -- delay, nil; else remaining, reset, 0, the wait, with nothing written.
  reserve = function(key, argv, i, cost, now, wait, fits, tokens, ts)
    if fits then
      local remaining, reset = ALGORITHMS.token_bucket.commit(key, argv, i, cost, now, tokens, ts)
      return remaining, reset, 0, nil
    end
    local capacity, rate = num(argv[i + 1]), num(argv[i + 2])
    local need = us_for(cost - tokens, rate)
    if need > wait then return math.max(math.floor(tokens + EPS), 0), us_for(capacity - tokens, rate), 0, need end
    tokens = tokens - cost
    local reset = us_for(capacity - tokens, rate)
    redis.call('SET', key, struct.pack('<dd', tokens, ts), 'PX', int(expire_ms(reset)))
    return 0, reset, need, nil
  end,
}
