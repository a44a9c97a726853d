-- Leaky bucket (the queue form): a request adds `cost * size` units to the
-- level, which drains continuously at `rate` units per second; it is accepted
-- iff the drained level plus its units fits the capacity. An accepted request
-- leaks out once everything before it has: after level_before / rate seconds,
-- its `delay`, so callers that wait their delay make a constant outflow.
-- Denied requests and peeks write nothing, so draining is never lost.
--
-- State: one 16-byte string, struct.pack('<dd', level, ts): the level at ts
-- (a double: fractions kept exactly) and ts, the Redis server's TIME in
-- microseconds (exact in a double). Binary, because a decimal string needs up
-- to 38 bytes for the same exactness, and Redis spends them on every key.
-- A missing key is an empty bucket, so the key expires when the bucket would be empty.
--
-- KEYS[1]  the limiter key
-- ARGV[1]  bucket capacity, units (integer >= 1)
-- ARGV[2]  leak rate, units per second (float > 0)
-- ARGV[3]  request size, units per request (integer, 1..capacity)
-- ARGV[4]  cost, requests (integer >= 1, cost * size <= capacity)
-- ARGV[5]  "1" = peek (decide for cost 1, write nothing), "0" = consume
-- ARGV[6]  optional: now in µs instead of TIME (tests only, see clock.lua)
-- Reply    {remaining = floor(capacity - level after the call), reset_after_us (until empty)}
--          when allowed, {remaining, reset_after_us, 0, delay_us} when allowed with a delay
--          (until this request leaks out = level before it / rate), and
--          {remaining, reset_after_us, retry_after_us >= 1 (until it fits)} when denied
local key = KEYS[1]
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local units = tonumber(ARGV[3]) * tonumber(ARGV[4])

-- Float noise guard: a level of 9.0000000000000018 must still take one more unit of 10.
local EPS = 1e-9

local now = clock_us(ARGV[6])

local level = 0
local raw = redis.call('GET', key)
if raw then
  local v, ts
  if #raw == 16 then v, ts = struct.unpack('<dd', raw) end
  -- Written by someone else: refuse it rather than compute with NaN or infinity.
  if not (v and v >= 0 and v < 2^53 and ts >= 0 and ts < 2^53) then
    return redis.error_reply('ERR ratelimit: the key holds a value that is not a leaky bucket')
  end
  -- A clock that went back (failover) drains nothing rather than too much.
  level = math.max(0, v - math.max(0, now - ts) * rate / 1000000)
  now = math.max(now, ts)
end

-- Microseconds for `n` units to drain, rounded up (multiply first: 1e6 / 10 is exact).
local function us_for(n)
  if n <= EPS then return 0 end
  return math.ceil(n * 1000000 / rate - 1e-6)
end

local function remaining(l)
  return math.max(0, math.floor(capacity - l + EPS))
end

if level + units > capacity + EPS then
  return {remaining(level), us_for(level), math.max(us_for(level + units - capacity), 1)}
end
if ARGV[5] == '1' then
  return {remaining(level), us_for(level)}
end

local delay_us = us_for(level)
level = level + units
local reset_us = us_for(level)
-- Once empty the state no longer matters: expire then (whole ms, rounded up).
redis.call('SET', key, struct.pack('<dd', level, now), 'PX', math.max(1, math.ceil(reset_us / 1000)))
if delay_us == 0 then return {remaining(level), reset_us} end
return {remaining(level), reset_us, 0, delay_us}
