-- Fixed window: the articles' INCR + EXPIRE, made atomic. A window opens at the
-- key's first accepted request and lasts a[1] ms; the key's TTL is the window,
-- so the Redis server's clock closes it. Denied requests write nothing.
-- (A cost-1 consume of one limiter skips the script: SET NX PX + INCRBY +
-- PTTL in one round trip, src/redis/counter.rs.)
--
-- Key      a string counter with a TTL of at most one window
-- a[1]     window, milliseconds (integer >= 1)
-- a[2]     limit per window (integer >= 1)
-- Clock    none: the key's expiry. With an injected clock the expiry is
--          written and read as an instant (PXAT, PEXPIRETIME: Redis >= 7)
--          instead of a duration, so a test moves through windows without
--          waiting; a window that ended at that instant is over.
ALGORITHMS.fixed_window = {
  nargs = 2,
  clock = false,

  check = function(key, a, cost, now, injected, consuming)
    local window, limit = a[1], a[2]
    local now_ms = injected and math.floor(now / 1000) or nil
    local raw = redis.call('GET', key)
    local used = tonumber(raw or '0')
    if used == nil then refuse('a value that is not a fixed-window counter') end
    -- ms left in the window; -window: the counter has no expiry (it came from
    -- outside) and gets one window from a consuming call.
    local ttl = 0
    if raw then
      if now_ms then
        local at = redis.call('PEXPIRETIME', key)
        ttl = at < 0 and at or math.max(at - now_ms, 0)
      else
        ttl = redis.call('PTTL', key)
      end
      if now_ms and ttl == 0 then
        raw, used = nil, 0 -- only an injected clock outlives a window: as if expired
      elseif ttl < 0 then
        ttl = -window
      end
    end
    local d = {raw = raw, ttl = ttl, now_ms = now_ms, fits = used + cost <= limit, remaining = math.max(limit - used, 0)}
    if ttl < 0 and consuming and not d.fits then
      if now_ms then redis.call('PEXPIREAT', key, now_ms + window) else redis.call('PEXPIRE', key, window) end
    end
    return d
  end,

  explain = function(key, a, cost, now, d)
    local left = math.abs(d.ttl) * 1000
    return left, left
  end,

  commit = function(key, a, cost, now, d)
    local window = a[1]
    if d.raw then
      redis.call('INCRBY', key, cost)
      if d.ttl < 0 then
        if d.now_ms then redis.call('PEXPIREAT', key, d.now_ms + window) else redis.call('PEXPIRE', key, window) end
        d.ttl = window
      end
    else
      if d.now_ms then redis.call('SET', key, cost, 'PXAT', d.now_ms + window) else redis.call('SET', key, cost, 'PX', window) end
      d.ttl = window
    end
    return d.remaining - cost, d.ttl * 1000, 0
  end,
}
