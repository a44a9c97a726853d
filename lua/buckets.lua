-- What the token and the leaky bucket share: their state format (the amount
-- at an instant, packed as two doubles, and how check reads it) and how they
-- turn amounts into times.

-- Float noise guard: 0.1 + 0.9 may come out as 0.99999999999999989, which
-- must still count as one whole token (or unit).
local EPS = 1e-9

-- Reads a bucket state written by the token or leaky bucket: (amount, ts),
-- or refuses what we never write (NaN, infinity, other lengths, amounts of
-- -2^53 or less). A token bucket's amount is negative while it owes (charge,
-- reserve: entries.lua's adjust); an older library refuses such a state.
local function unpack_state(raw, what)
  local v, ts
  if #raw == 16 then v, ts = struct.unpack('<dd', raw) end
  if not (v and v > -2^53 and v < 2^53 and ts >= 0 and ts < 2^53) then refuse('a value that is not a ' .. what) end
  return v, ts
end

-- Microseconds for `n` units to flow at `rate` per second, rounded up
-- (multiply first: 1e6 / 10 is exact).
local function us_for(n, rate)
  if n <= EPS then return 0 end
  return math.ceil(n * 1000000 / rate - 1e-6)
end

-- The deepest a bucket may owe: what `rate` pays back in 10 years
-- (MAX_SECONDS), so paying it off stays a time the arithmetic keeps exact.
local function most_owed(rate)
  return rate * 315360000
end

-- A key's TTL for state that stops mattering in `us` microseconds: whole
-- milliseconds, rounded up, at least 1 (PX 0 is an error).
local function expire_ms(us)
  local ms = math.ceil(us / 1000)
  if ms < 1 then return 1 end
  return ms
end

-- A bucket's stored amount, the instant it is measured at and how long it
-- has flowed since (µs), read as check reads its key (`raw` as check takes
-- it); nil, now, 0 for a missing key. A clock that went back (failover) flows
-- for no time rather than too long: the instant is then the stored one.
local function read_bucket(key, raw, what, now)
  if raw == nil then raw = redis.call('GET', key) end
  if not raw then return nil, now, 0 end
  local v, ts = unpack_state(raw, what)
  if ts > now then now = ts end
  return v, now, now - ts
end
