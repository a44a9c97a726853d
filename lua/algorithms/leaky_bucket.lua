-- Leaky bucket (the queue form): a request adds `cost * size` units to the
-- level, which drains continuously at `rate` units per second; it is accepted
-- iff the drained level plus its units fits the capacity. An accepted request
-- leaks out once everything before it has: after level_before / rate seconds,
-- its `delay`, so callers that wait their delay make a constant outflow.
-- Denied requests and peeks write nothing, so draining is never lost.
--
-- Key      struct.pack('<dd', level, ts), as the token bucket's; a missing key
--          is an empty bucket, so the key expires when the bucket would be empty.
-- argv     bucket capacity in units (integer >= 1), leak rate in units per
--          second (float > 0), request size in units per request (integer, 1..capacity)
-- State    s1 = level at now, s2 = the instant it is measured at
-- Needs    buckets.lua (state format, its read and times, shared with the token bucket)
ALGORITHMS.leaky_bucket = {
  nargs = 3,
  clock = true,
  string = true,

  check = function(key, argv, i, cost, now, injected, consuming, raw)
    local capacity = num(argv[i + 1])
    local level = 0
    local v, elapsed
    v, now, elapsed = read_bucket(key, raw, 'leaky bucket', now)
    if v then
      level = v - elapsed * num(argv[i + 2]) / 1000000
      if level < 0 then level = 0 end
    end
    local remaining = math.floor(capacity - level + EPS)
    if remaining < 0 then remaining = 0 end
    return level + num(argv[i + 3]) * cost <= capacity + EPS, remaining, level, now
  end,

  explain = function(key, argv, i, cost, now, level)
    local rate = num(argv[i + 2])
    return us_for(level, rate), us_for(level + num(argv[i + 3]) * cost - num(argv[i + 1]), rate)
  end,

  commit = function(key, argv, i, cost, now, level, ts)
    local rate = num(argv[i + 2])
    local delay = us_for(level, rate)
    level = level + num(argv[i + 3]) * cost
    local reset = us_for(level, rate)
    -- Once empty the state no longer matters: expire then (whole ms, rounded up).
    redis.call('SET', key, struct.pack('<dd', level, ts), 'PX', int(expire_ms(reset)))
    local remaining = math.floor(num(argv[i + 1]) - level + EPS)
    if remaining < 0 then remaining = 0 end
    return remaining, reset, delay
  end,

  -- refund, charge and reserve (entries.lua's adjust; core/src/leaky_bucket.rs
  -- mirrors them). The level is above the capacity while the bucket owes.
  refund = function(key, argv, i, units, now, level, ts)
    local capacity, rate = num(argv[i + 1]), num(argv[i + 2])
    local after = level - units * num(argv[i + 3])
    if after < 0 then after = 0 end
    local reset = us_for(after, rate)
    if after ~= level then
      -- Empty: a missing key says so.
      if reset == 0 then redis.call('DEL', key) else redis.call('SET', key, struct.pack('<dd', after, ts), 'PX', int(expire_ms(reset))) end
    end
    return math.max(math.floor(capacity - after + EPS), 0), reset
  end,

  -- Only for units that do not fit: a debt, no deeper than most_owed.
  charge = function(key, argv, i, units, now, level, ts)
    local capacity, rate, size = num(argv[i + 1]), num(argv[i + 2]), num(argv[i + 3])
    level = level + units * size
    if level > capacity + most_owed(rate) then level = capacity + most_owed(rate) end
    local reset = us_for(level, rate)
    redis.call('SET', key, struct.pack('<dd', level, ts), 'PX', int(expire_ms(reset)))
    return 0, reset, us_for(level + size - capacity, rate)
  end,

  -- Books `cost` when it fits within `wait` µs; its delay is the wait until
  -- it fits (0 now), not the queue's. Returns as the token bucket's.
  reserve = function(key, argv, i, cost, now, wait, fits, level, ts)
    local capacity, rate = num(argv[i + 1]), num(argv[i + 2])
    local after = level + num(argv[i + 3]) * cost
    local need = us_for(after - capacity, rate)
    if need > wait then return math.max(math.floor(capacity - level + EPS), 0), us_for(level, rate), 0, need end
    local reset = us_for(after, rate)
    redis.call('SET', key, struct.pack('<dd', after, ts), 'PX', int(expire_ms(reset)))
    return math.max(math.floor(capacity - after + EPS), 0), reset, need, nil
  end,
}
