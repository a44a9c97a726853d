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
-- a[1]     emission interval, microseconds (integer >= 1): period / count
-- a[2]     delay variation tolerance, microseconds: interval x (maxBurst + 1)

-- Whole emission intervals still inside the tolerance when the TAT is `t`
-- (redis-cell: (tolerance - (t - now)) / interval, truncated, never negative).
local function gcra_remaining(a, t, now)
  local left = a[2] - (t - now)
  if left <= 0 then return 0 end
  return math.floor(left / a[1])
end

ALGORITHMS.gcra = {
  nargs = 2,
  clock = true,

  check = function(key, a, cost, now)
    local tat = now
    local raw = redis.call('GET', key)
    if raw then
      tat = tonumber(raw)
      if tat == nil or tat ~= math.floor(tat) or tat < 0 or tat > 9007199254740991 then
        refuse('a value that is not a GCRA timestamp')
      end
      if tat < now then tat = now end
    end
    local new_tat = tat + a[1] * cost
    -- Denied: nothing written, so a client retrying too early is not pushed back.
    return {tat = tat, new_tat = new_tat, fits = now >= new_tat - a[2], remaining = gcra_remaining(a, tat, now)}
  end,

  explain = function(key, a, cost, now, d)
    return d.tat - now, d.new_tat - a[2] - now
  end,

  commit = function(key, a, cost, now, d)
    -- The TAT goes to SET as a number: Redis prints integers below 2^53 in
    -- full. The key lives until the TAT has passed (ms, rounded up, at least
    -- 1 ms since cost >= 1): after that it holds nothing a missing key would not say.
    local ttl = d.new_tat - now
    redis.call('SET', key, d.new_tat, 'PX', math.floor((ttl + 999) / 1000))
    return gcra_remaining(a, d.new_tat, now), ttl, 0
  end,
}
