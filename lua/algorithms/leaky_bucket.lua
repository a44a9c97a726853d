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
}
