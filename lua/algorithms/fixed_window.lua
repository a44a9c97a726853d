-- Fixed window: the articles' INCR + EXPIRE, made atomic. A window opens at the
-- key's first accepted request and lasts the window; the key's TTL is the window,
-- so the Redis server's clock closes it. Denied requests write nothing.
-- Key      a string counter with a TTL of at most one window: an integer as
--          INCRBY reads one, below 2^53 (any other value is refused before
--          anything is written, so no later member of a compound fails on it)
-- argv     window in ms (integer >= 1), limit per window (integer >= 1)
-- State    s1 = the counter as read (false: none), s2 = its ms left (-window: it
--          has no expiry), s3 = now in ms with an injected clock, else false
-- Clock    none: the key's expiry. With an injected clock the expiry is
--          written and read as an instant (PEXPIREAT, expiry_at) instead of
--          a duration, so a test moves through windows without waiting; a
--          window that ended at that instant is over.

-- The key's expiry as an instant in ms, or PTTL's -1/-2: PEXPIRETIME where
-- the server has it (Redis >= 7, Valkey); on Redis 6 the server's clock plus
-- PTTL, read between two TIMEs of the same millisecond, so that it is exact
-- (PTTL counts from the clock at the moment it runs). Injected clocks only.
local function expiry_at(key)
  local at = redis.pcall('PEXPIRETIME', key)
  if type(at) == 'number' then return at end
  while true do
    local before = redis.call('TIME')
    local left = redis.call('PTTL', key)
    local after = redis.call('TIME')
    if left < 0 then return left end
    local ms = before[1] * 1000 + math.floor(before[2] / 1000)
    if ms == after[1] * 1000 + math.floor(after[2] / 1000) then return ms + left end
  end
end

ALGORITHMS.fixed_window = {
  nargs = 2,
  clock = false,
  string = true,

  check = function(key, argv, i, cost, now, injected, consuming, raw)
    local window, limit = num(argv[i + 1]), num(argv[i + 2])
    local now_ms = injected and math.floor(now / 1000)
    if raw == nil then raw = redis.call('GET', key) end
    local used = 0
    if raw then
      used = tonumber(raw)
      if used == nil or not is_counter(raw, used) then refuse('a value that is not a fixed-window counter') end
    end
    -- ms left in the window; -window: the counter has no expiry (it came from
    -- outside) and gets one window from a consuming call.
    local ttl = 0
    if raw then
      if now_ms then
        local at = expiry_at(key)
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
    local fits = used + cost <= limit
    if ttl < 0 and consuming and not fits then
      if now_ms then redis.call('PEXPIREAT', key, int(now_ms + window)) else redis.call('PEXPIRE', key, argv[i + 1]) end
    end
    return fits, math.max(limit - used, 0), raw, ttl, now_ms
  end,

  -- A consuming call that takes nothing gives a counter without expiry (it
  -- came from outside) one window, or it would deny forever. One key's
  -- check does it itself; a compound's members check with consuming false
  -- and repair on the way out, once no member can refuse any more.
  repair = function(key, argv, i, exists, ttl, now_ms)
    if ttl < 0 then
      if now_ms then redis.call('PEXPIREAT', key, int(now_ms + num(argv[i + 1]))) else redis.call('PEXPIRE', key, argv[i + 1]) end
    end
  end,

  explain = function(key, argv, i, cost, now, exists, ttl)
    local left = math.abs(ttl) * 1000
    return left, left
  end,

  commit = function(key, argv, i, cost, now, exists, ttl, now_ms)
    local window = num(argv[i + 1])
    if exists then
      local used = redis.call('INCRBY', key, int(cost))
      if ttl < 0 then
        if now_ms then redis.call('PEXPIREAT', key, int(now_ms + window)) else redis.call('PEXPIRE', key, argv[i + 1]) end
        ttl = window
      end
      return num(argv[i + 2]) - used, ttl * 1000, 0
    end
    if now_ms then
      -- SET … PXAT is Redis >= 6.2: SET, then PEXPIREAT, in the same script.
      redis.call('SET', key, int(cost))
      redis.call('PEXPIREAT', key, int(now_ms + window))
    else
      redis.call('SET', key, int(cost), 'PX', argv[i + 1])
    end
    return num(argv[i + 2]) - cost, window * 1000, 0
  end,

  -- refund and charge (entries.lua's adjust; core/src/fixed_window.rs
  -- mirrors them). A refund lowers the open window's count, not below 0
  -- (nothing when no window is open); a counter without expiry gets one
  -- window, as repair gives it.
  refund = function(key, argv, i, units, now, raw, ttl, now_ms)
    local window, limit = num(argv[i + 1]), num(argv[i + 2])
    if not raw then return limit, 0 end
    local used = tonumber(raw)
    local back = units
    if back > used then back = math.max(used, 0) end
    if back > 0 then redis.call('INCRBY', key, int(-back)) end
    ALGORITHMS.fixed_window.repair(key, argv, i, raw, ttl, now_ms)
    if ttl < 0 then ttl = window end
    return math.max(limit - used + back, 0), ttl * 1000
  end,

  -- Only for units that do not fit: commit's writes; a cost of 1 fits once the window ends.
  charge = function(key, argv, i, units, now, raw, ttl, now_ms)
    local _, reset = ALGORITHMS.fixed_window.commit(key, argv, i, units, now, raw, ttl, now_ms)
    return 0, reset, reset
  end,

}
