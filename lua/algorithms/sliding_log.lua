-- Sliding window, exact log: at most maxRequests units in ANY interval of the window.
-- One sorted set per key; each accepted unit is a member scored with the
-- server time in µs. Members must be unique, even for a burst inside one
-- microsecond and across processes: a unit accepted alone is the member `now`
-- (a decimal integer, stored as an integer in the listpack) when no member of
-- that name exists yet; otherwise, and for cost > 1, members are taken from a
-- per-key sequence kept in the same key as the member "" with the NEGATIVE
-- score -(last number used). Timestamps are > 0, so every range below starts
-- at score 0 or later and never touches the counter. Times are integers below
-- 2^53, passed to redis.call as decimal strings (int(), library.lua).
-- An entry counts while its time is in (now - window, now]; later ones (a
-- clock that went back) count too.
--
-- Key      a sorted set {"" -> -seq, member -> time_us, ...}
-- argv     window in µs (integer >= 1000), maxRequests (integer >= 1; one
--          call adds at most 1000 units, Rust checks), the key's TTL after a
--          write in ms (the window rounded up)
-- State    s1 = now - window (entries at or before it have left), s2 = entries in
--          the window, s3 = s1 as the decimal string Redis reads
ALGORITHMS.sliding_log = {
  nargs = 3,
  clock = true,

  check = function(key, argv, i, cost, now)
    local limit = num(argv[i + 2])
    local edge = now - num(argv[i + 1])
    local edge_s = int(edge)
    local used = redis.call('ZCOUNT', key, '(' .. edge_s, '+inf')
    local remaining = limit - used
    if remaining < 0 then remaining = 0 end
    return used + cost <= limit, remaining, edge, used, edge_s
  end,

  explain = function(key, argv, i, cost, now, edge, used, edge_s)
    local reset, retry = 0, 0
    -- Until the newest entry leaves the window: the key is empty again.
    if used > 0 then
      reset = tonumber(redis.call('ZRANGE', key, '-1', '-1', 'WITHSCORES')[2]) - edge
    end
    -- Once the (used + cost - limit)-th oldest entry has left, `cost` fits.
    if used + cost > num(argv[i + 2]) then
      local oldest = redis.call('ZRANGEBYSCORE', key, '(' .. edge_s, '+inf', 'WITHSCORES', 'LIMIT', int(used + cost - num(argv[i + 2]) - 1), '1')
      retry = tonumber(oldest[2]) - edge
    end
    return reset, retry
  end,

  commit = function(key, argv, i, cost, now, edge, used, edge_s)
    local at = int(now)
    if cost > 1 or redis.call('ZADD', key, 'NX', at, at) == 0 then
      -- Take `cost` fresh sequence numbers, one member per unit.
      local last = -tonumber(redis.call('ZINCRBY', key, int(-cost), ''))
      local batch = {}
      for seq = last - cost + 1, last do
        batch[#batch + 1] = at
        batch[#batch + 1] = int(seq)
      end
      redis.call('ZADD', key, unpack(batch))
    end
    redis.call('ZREMRANGEBYSCORE', key, '0', edge_s)
    redis.call('PEXPIRE', key, argv[i + 3])
    return num(argv[i + 2]) - used - cost, num(argv[i + 1]), 0
  end,

  -- refund and charge (entries.lua's adjust; core/src/sliding_log.rs mirrors
  -- them). A refund removes the newest entries (at most those in the window).
  refund = function(key, argv, i, units, now, edge, used, edge_s)
    local back = units
    if back > used then back = used end
    local left = used - back
    local reset = 0
    -- Until the newest entry that stays leaves the window.
    if left > 0 then
      reset = tonumber(redis.call('ZRANGEBYSCORE', key, '(' .. edge_s, '+inf', 'WITHSCORES', 'LIMIT', int(left - 1), '1')[2]) - edge
    end
    if back > 0 then redis.call('ZREMRANGEBYRANK', key, int(-back), '-1') end
    return math.max(num(argv[i + 2]) - left, 0), reset
  end,

  -- Only for units that do not fit: commit's writes; a cost of 1 fits once
  -- the (used + units - limit)-th oldest entry (from 0) has left.
  charge = function(key, argv, i, units, now, edge, used, edge_s)
    local nth = used + units - num(argv[i + 2])
    local retry = num(argv[i + 1])
    if nth < used then
      retry = tonumber(redis.call('ZRANGEBYSCORE', key, '(' .. edge_s, '+inf', 'WITHSCORES', 'LIMIT', int(nth), '1')[2]) - edge
    end
    local _, reset = ALGORITHMS.sliding_log.commit(key, argv, i, units, now, edge, used, edge_s)
    return 0, reset, retry
  end,
}
