-- GCRA (generic cell rate algorithm) with redis-cell's semantics.
-- The whole state is one number: the TAT (theoretical arrival time), the
-- instant at which the schedule of accepted requests, each `emission interval`
-- apart, is used up. A request of `cost` pushes the TAT by cost x interval; it
-- is accepted when the pushed TAT lies at most `tolerance` ahead of now, so a
-- burst of up to maxBurst + 1 fits when the key is idle. A TAT in the past
-- means the same as no key: the schedule has caught up with the clock.
-- remaining and reset_after are those of the new TAT when allowed and
-- consumed, else of the current one (redis-cell's reply, in microseconds).
-- Every number stays an integer below 2^53 (times below 10 years plus the
-- clock), so Lua's doubles compute exactly, and floor(a / b) of two such
-- non-negative integers is the exact quotient.
--
-- Key      a string holding the TAT in integer microseconds (server clock),
--          with a TTL that ends when the TAT has passed
-- argv     emission interval in µs (integer >= 1: period / count), delay
--          variation tolerance in µs (interval x (maxBurst + 1))
-- State    s1 = the TAT (now when there is none), s2 = the TAT after this request

-- Whole emission intervals still inside the tolerance when the TAT is `t`
-- (redis-cell: (tolerance - (t - now)) / interval, truncated, never negative).
local function gcra_remaining(interval, tolerance, t, now)
  local left = tolerance - (t - now)
  if left <= 0 then return 0 end
  return math.floor(left / interval)
end

ALGORITHMS.gcra = {
  nargs = 2,
  clock = true,
  string = true,

  check = function(key, argv, i, cost, now, injected, consuming, raw)
    local interval, tolerance = num(argv[i + 1]), num(argv[i + 2])
    local tat = now
    if raw == nil then raw = redis.call('GET', key) end
    if raw then
      tat = tonumber(raw)
      if tat == nil or tat ~= math.floor(tat) or tat < 0 or tat > 9007199254740991 then
        refuse('a value that is not a GCRA timestamp')
      end
      if tat < now then tat = now end
    end
    local new_tat = tat + interval * cost
    -- Denied: nothing written, so a client retrying too early is not pushed back.
    return now >= new_tat - tolerance, gcra_remaining(interval, tolerance, tat, now), tat, new_tat
  end,

  explain = function(key, argv, i, cost, now, tat, new_tat)
    return tat - now, new_tat - num(argv[i + 2]) - now
  end,

  commit = function(key, argv, i, cost, now, tat, new_tat)
    -- The key lives until the TAT has passed (ms, rounded up, at least 1 ms
    -- since cost >= 1): after that it holds nothing a missing key would not say.
    local ttl = new_tat - now
    redis.call('SET', key, int(new_tat), 'PX', int(math.floor((ttl + 999) / 1000)))
    return gcra_remaining(num(argv[i + 1]), num(argv[i + 2]), new_tat, now), ttl, 0
  end,

  -- refund, charge and reserve (entries.lua's adjust; core/src/gcra.rs
  -- mirrors them). A TAT written lives until it has passed, at least 1 ms.
  refund = function(key, argv, i, units, now, tat)
    local interval, tolerance = num(argv[i + 1]), num(argv[i + 2])
    local after = tat - interval * units
    if after < now then after = now end
    if after ~= tat then
      -- Caught up with now: a missing key says so.
      if after == now then
        redis.call('DEL', key)
      else
        redis.call('SET', key, int(after), 'PX', int(math.max(math.floor((after - now + 999) / 1000), 1)))
      end
    end
    return gcra_remaining(interval, tolerance, after, now), after - now
  end,

  -- Only for units that do not fit: the TAT at most 10 years past the tolerance.
  charge = function(key, argv, i, units, now, tat, new_tat)
    local interval, tolerance = num(argv[i + 1]), num(argv[i + 2])
    if new_tat > now + tolerance + 315360000000000 then new_tat = now + tolerance + 315360000000000 end
    redis.call('SET', key, int(new_tat), 'PX', int(math.max(math.floor((new_tat - now + 999) / 1000), 1)))
    return gcra_remaining(interval, tolerance, new_tat, now), new_tat - now, new_tat + interval - tolerance - now
  end,

  reserve = function(key, argv, i, cost, now, wait, fits, tat, new_tat)
    local interval, tolerance = num(argv[i + 1]), num(argv[i + 2])
    local need = new_tat - tolerance - now
    if need < 0 then need = 0 end
    if need > wait then return gcra_remaining(interval, tolerance, tat, now), tat - now, 0, need end
    redis.call('SET', key, int(new_tat), 'PX', int(math.max(math.floor((new_tat - now + 999) / 1000), 1)))
    return gcra_remaining(interval, tolerance, new_tat, now), new_tat - now, need, nil
  end,
}
