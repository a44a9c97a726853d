-- Windows on the calendar (FixedWindowRateLimiter's withAnchor() and
-- withCalendar()): a fixed window whose windows start at set instants
-- instead of at a key's first request. The state is the fixed window's: a
-- counter (an integer as INCRBY reads one, below 2^53) whose expiry is the
-- end of its window, an instant (PEXPIREAT), so a key still there belongs
-- to the window now in; denied requests write nothing. The window is
-- picked on the server's clock (TIME, or a test's injected clock).
--
-- anchored_window  argv: window in ms, limit, anchor in ms (Unix time):
--                  windows [anchor + k × window, anchor + (k + 1) × window)
-- calendar_window  argv: limit, then 4 instants in ms b0 < b1 < b2 < b3
--                  that the client worked out around its own clock (the
--                  calendar unit before, the one it is in, the next, in the
--                  limiter's time zone): the window is [b_i, b_i+1) that holds
--                  now; a server clock outside [b0, b3) is refused
-- State    s1 = the counter as read (false: none), s2 = the window's end in
--          ms, s3 = now in ms
-- core/src/calendar_window.rs is its twin.

-- The end (ms) of the window that holds now_ms.
local function anchored_end(argv, i, now_ms)
  local window, anchor = num(argv[i + 1]), num(argv[i + 3])
  return anchor + (math.floor((now_ms - anchor) / window) + 1) * window
end

local function calendar_end(argv, i, now_ms)
  if now_ms < num(argv[i + 2]) then
    error({err = 'ERR ratelimit: the server clock is before the calendar windows the client sent (a clock more than a window off)'})
  end
  for b = 3, 5 do
    local edge = num(argv[i + b])
    if now_ms < edge then return edge end
  end
  error({err = 'ERR ratelimit: the server clock is after the calendar windows the client sent (a clock more than a window off)'})
end

local function calendar(name, nargs, limit_at, window_end)
  return {
    nargs = nargs,
    clock = true,
    string = true,

    check = function(key, argv, i, cost, now, injected, consuming, raw)
      local limit, now_ms = num(argv[i + limit_at]), math.floor(now / 1000)
      local finish = window_end(argv, i, now_ms)
      if raw == nil then raw = redis.call('GET', key) end
      local used = 0
      if raw then
        used = tonumber(raw)
        if used == nil or not is_counter(raw, used) then refuse('a value that is not a fixed-window counter') end
        -- With an injected clock the key outlives its window: over at its expiry.
        if injected then
          local at = expiry_at(key)
          if at >= 0 and at <= now_ms then raw, used = false, 0 end
        end
      end
      local fits = used + cost <= limit
      if raw and consuming and not fits and redis.call('PTTL', key) == -1 then
        redis.call('PEXPIREAT', key, int(finish))
      end
      return fits, math.max(limit - used, 0), raw, finish, now_ms
    end,

    -- A counter without expiry (from outside) gets its window's end.
    repair = function(key, argv, i, raw, finish)
      if raw and redis.call('PTTL', key) == -1 then redis.call('PEXPIREAT', key, int(finish)) end
    end,

    explain = function(key, argv, i, cost, now, raw, finish, now_ms)
      local left = (finish - now_ms) * 1000
      return left, left
    end,

    commit = function(key, argv, i, cost, now, raw, finish, now_ms)
      local limit, used = num(argv[i + limit_at]), cost
      if raw then
        used = redis.call('INCRBY', key, int(cost))
        if redis.call('PTTL', key) == -1 then redis.call('PEXPIREAT', key, int(finish)) end
      else
        redis.call('SET', key, int(cost))
        redis.call('PEXPIREAT', key, int(finish))
      end
      return limit - used, (finish - now_ms) * 1000, 0
    end,

    -- refund and charge (entries.lua's adjust), as the fixed window's: a
    -- refund lowers the open window's count, not below 0 (nothing when no
    -- window is open), and gives a counter without expiry its window's end.
    refund = function(key, argv, i, units, now, raw, finish, now_ms)
      local limit = num(argv[i + limit_at])
      if not raw then return limit, 0 end
      local used = tonumber(raw)
      local back = units
      if back > used then back = math.max(used, 0) end
      if back > 0 then redis.call('INCRBY', key, int(-back)) end
      if redis.call('PTTL', key) == -1 then redis.call('PEXPIREAT', key, int(finish)) end
      return math.max(limit - used + back, 0), (finish - now_ms) * 1000
    end,

    -- Only for units that do not fit: commit's writes; a cost of 1 fits once the window ends.
    charge = function(key, argv, i, units, now, raw, finish, now_ms)
      local _, reset = ALGORITHMS[name].commit(key, argv, i, units, now, raw, finish, now_ms)
      return 0, reset, reset
    end,
  }
end

ALGORITHMS.anchored_window = calendar('anchored_window', 3, 2, anchored_end)
ALGORITHMS.calendar_window = calendar('calendar_window', 5, 1, calendar_end)
