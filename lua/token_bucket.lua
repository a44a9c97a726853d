-- Token bucket: starts full (capacity tokens), refills continuously at `rate`
-- tokens per second up to capacity; a request takes `cost` tokens if they are
-- there. Denied requests and peeks write nothing, so a refill is never lost.
--
-- State: one 16-byte string, struct.pack('<dd', tokens, ts): the tokens at ts
-- (a double: fractions kept exactly) and ts, the Redis server's TIME in
-- microseconds (exact in a double). Binary, because a decimal string needs up
-- to 38 bytes for the same exactness, and Redis spends them on every key.
-- A missing key is a full bucket, so the key expires when the bucket would be full.
--
-- KEYS[1]  the limiter key
-- ARGV[1]  capacity (integer >= 1)
-- ARGV[2]  refill rate, tokens per second (float > 0)
-- ARGV[3]  cost (integer, 1..capacity)
-- ARGV[4]  "1" = peek (decide for cost 1, write nothing), "0" = consume
-- ARGV[5]  optional: now in µs instead of TIME (tests only, see clock.lua)
-- Reply    {remaining = floor(tokens after the call), reset_after_us (until full)} when allowed,
--          {remaining, reset_after_us, retry_after_us >= 1 (until `cost` tokens exist)} when denied
local key = KEYS[1]
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local now = clock_us(ARGV[5])

-- Float noise guard: 0.1 + 0.9 may come out as 0.99999999999999989, which
-- must still count as one whole token.
local EPS = 1e-9

local tokens = capacity
local raw = redis.call('GET', key)
if raw then
  local v, ts
  if #raw == 16 then v, ts = struct.unpack('<dd', raw) end
  -- Written by someone else: refuse it rather than compute with NaN or infinity.
  if not (v and v >= 0 and v < 2^53 and ts >= 0 and ts < 2^53) then
    return redis.error_reply('ERR ratelimit: the key holds a value that is not a token bucket')
  end
  -- A clock that went back (failover) refills nothing rather than too much.
  tokens = math.min(capacity, v + math.max(0, now - ts) * rate / 1000000)
  now = math.max(now, ts)
end

-- Microseconds for `n` tokens to flow in, rounded up (multiply first: 1e6 / 10 is exact).
local function us_for(n)
  if n <= EPS then return 0 end
  return math.ceil(n * 1000000 / rate - 1e-6)
end

if tokens + EPS < cost then
  return {math.floor(tokens + EPS), us_for(capacity - tokens), math.max(us_for(cost - tokens), 1)}
end
if ARGV[4] == '1' then
  return {math.floor(tokens + EPS), us_for(capacity - tokens)}
end

tokens = math.max(0, tokens - cost)
local reset_us = us_for(capacity - tokens)
-- Once full the state no longer matters: expire then (whole ms, rounded up).
redis.call('SET', key, struct.pack('<dd', tokens, now), 'PX', math.max(1, math.ceil(reset_us / 1000)))
return {math.floor(tokens + EPS), reset_us}
