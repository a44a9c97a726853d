-- Sliding window, exact log: at most a[2] units in ANY interval of a[1] µs.
-- One sorted set per key; each accepted unit is a member scored with the
-- server time in µs. Members must be unique, even for a burst inside one
-- microsecond and across processes: a unit accepted alone is the member `now`
-- (a decimal integer, stored as an integer in the listpack) when no member of
-- that name exists yet; otherwise, and for cost > 1, members are taken from a
-- per-key sequence kept in the same key as the member "" with the NEGATIVE
-- score -(last number used). Timestamps are > 0, so every range below starts
-- at score 0 or later and never touches the counter. Times are integers below
-- 2^53 passed to redis.call as numbers: Redis prints those in full.
-- An entry counts while its time is in (now - window, now]; later ones (a
-- clock that went back) count too.
--
-- Key      a sorted set {"" -> -seq, member -> time_us, ...}
-- a[1]     window, microseconds (integer >= 1000)
-- a[2]     maxRequests (integer >= 1); one call adds at most 1000 units (Rust checks)
-- a[3]     key TTL after a write, milliseconds (the window rounded up)
ALGORITHMS.sliding_log = {
  nargs = 3,
  clock = true,

  check = function(key, a, cost, now)
    local limit = a[2]
    local edge = now - a[1]
    local used = redis.call('ZCOUNT', key, edge + 1, '+inf')
    return {edge = edge, used = used, fits = used + cost <= limit, remaining = math.max(limit - used, 0)}
  end,

  explain = function(key, a, cost, now, d)
    local reset, retry = 0, 0
    -- Until the newest entry leaves the window: the key is empty again.
    if d.used > 0 then
      reset = tonumber(redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')[2]) - d.edge
    end
    -- Once the (used + cost - limit)-th oldest entry has left, `cost` fits.
    if not d.fits then
      local oldest = redis.call('ZRANGEBYSCORE', key, d.edge + 1, '+inf', 'WITHSCORES', 'LIMIT', d.used + cost - a[2] - 1, 1)
      retry = tonumber(oldest[2]) - d.edge
    end
    return reset, retry
  end,

  commit = function(key, a, cost, now, d)
    if cost > 1 or redis.call('ZADD', key, 'NX', now, now) == 0 then
      -- Take `cost` fresh sequence numbers, one member per unit.
      local last = -tonumber(redis.call('ZINCRBY', key, -cost, ''))
      local batch = {}
      for seq = last - cost + 1, last do
        batch[#batch + 1] = now
        batch[#batch + 1] = seq
      end
      redis.call('ZADD', key, unpack(batch))
    end
    redis.call('ZREMRANGEBYSCORE', key, 0, d.edge)
    redis.call('PEXPIRE', key, a[3])
    return d.remaining - cost, a[1], 0
  end,
}
