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
-- a[1]     capacity (integer >= 1)
-- a[2]     refill rate, tokens per second (float > 0)
-- Needs    buckets.lua (state format and times, shared with the leaky bucket)

ALGORITHMS.token_bucket = {
  nargs = 2,
  clock = true,

  check = function(key, a, cost, now)
    local capacity, rate = a[1], a[2]
    local tokens = capacity
    local raw = redis.call('GET', key)
    if raw then
      local v, ts = unpack_state(raw, 'token bucket')
      -- A clock that went back (failover) refills nothing rather than too much.
      tokens = math.min(capacity, v + math.max(0, now - ts) * rate / 1000000)
      now = math.max(now, ts)
    end
    return {tokens = tokens, now = now, fits = tokens + EPS >= cost, remaining = math.floor(tokens + EPS)}
  end,

  explain = function(key, a, cost, now, d)
    return us_for(a[1] - d.tokens, a[2]), us_for(cost - d.tokens, a[2])
  end,

  commit = function(key, a, cost, now, d)
    local tokens = math.max(0, d.tokens - cost)
    local reset = us_for(a[1] - tokens, a[2])
    -- Once full the state no longer matters: expire then (whole ms, rounded up).
    redis.call('SET', key, struct.pack('<dd', tokens, d.now), 'PX', math.max(1, math.ceil(reset / 1000)))
    return math.floor(tokens + EPS), reset, 0
  end,
}
