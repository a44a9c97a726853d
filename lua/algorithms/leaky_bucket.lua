-- Leaky bucket (the queue form): a request adds `cost * size` units to the
-- level, which drains continuously at `rate` units per second; it is accepted
-- iff the drained level plus its units fits the capacity. An accepted request
-- leaks out once everything before it has: after level_before / rate seconds,
-- its `delay`, so callers that wait their delay make a constant outflow.
-- Denied requests and peeks write nothing, so draining is never lost.
-- Needs    buckets.lua (state format and times, shared with the token bucket)
--
-- Key      struct.pack('<dd', level, ts), as the token bucket's; a missing key
--          is an empty bucket, so the key expires when the bucket would be empty.
-- a[1]     bucket capacity, units (integer >= 1)
-- a[2]     leak rate, units per second (float > 0)
-- a[3]     request size, units per request (integer, 1..capacity)
ALGORITHMS.leaky_bucket = {
  nargs = 3,
  clock = true,

  check = function(key, a, cost, now)
    local capacity, rate = a[1], a[2]
    local level = 0
    local raw = redis.call('GET', key)
    if raw then
      local v, ts = unpack_state(raw, 'leaky bucket')
      -- A clock that went back (failover) drains nothing rather than too much.
      level = math.max(0, v - math.max(0, now - ts) * rate / 1000000)
      now = math.max(now, ts)
    end
    local units = a[3] * cost
    return {
      level = level, units = units, now = now,
      fits = level + units <= capacity + EPS,
      remaining = math.max(0, math.floor(capacity - level + EPS)),
    }
  end,

  explain = function(key, a, cost, now, d)
    return us_for(d.level, a[2]), us_for(d.level + d.units - a[1], a[2])
  end,

  commit = function(key, a, cost, now, d)
    local delay = us_for(d.level, a[2])
    local level = d.level + d.units
    local reset = us_for(level, a[2])
    -- Once empty the state no longer matters: expire then (whole ms, rounded up).
    redis.call('SET', key, struct.pack('<dd', level, d.now), 'PX', math.max(1, math.ceil(reset / 1000)))
    return math.max(0, math.floor(a[1] - level + EPS)), reset, delay
  end,
}
