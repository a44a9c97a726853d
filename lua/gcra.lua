-- GCRA (generic cell rate algorithm) with redis-cell's semantics.
-- The whole state is one number: the TAT (theoretical arrival time), the
-- instant at which the schedule of accepted requests, each `emission interval`
-- apart, is used up. A request of `cost` pushes the TAT by cost x interval; it
-- is accepted when the pushed TAT lies at most `tolerance` ahead of now, so a
-- burst of up to maxBurst + 1 fits when the key is idle. A TAT in the past
-- means the same as no key: the schedule has caught up with the clock.
--
-- KEYS[1]  the limiter key: a string holding the TAT in integer microseconds
--          (server clock), with a TTL that ends when the TAT has passed
-- ARGV[1]  emission interval, microseconds (integer >= 1): period / count
-- ARGV[2]  delay variation tolerance, microseconds: interval x (maxBurst + 1)
-- ARGV[3]  cost (integer, 1..maxBurst + 1)
-- ARGV[4]  "1" = peek (decide for cost 1, write nothing), "0" = consume
-- ARGV[5]  optional: now in µs instead of TIME (tests only, see clock.lua)
-- Reply    {remaining, reset_after_us} when allowed,
--          {remaining, reset_after_us, retry_after_us >= 1} when denied;
--          remaining and reset_after are those of the new TAT when allowed and
--          consumed, else of the current one (redis-cell's reply, in microseconds).
--
-- Every number stays an integer below 2^53 (times below 10 years plus the
-- clock), so Lua's doubles compute exactly, and floor(a / b) of two such
-- non-negative integers is the exact quotient.
local key = KEYS[1]
local interval = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])

local now = clock_us(ARGV[5])

local tat = now
local raw = redis.call('GET', key)
if raw then
  tat = tonumber(raw)
  -- Refuse what we never write (NaN, inf, fractions, negatives) instead of
  -- computing with it.
  if tat == nil or tat ~= math.floor(tat) or tat < 0 or tat > 9007199254740991 then
    return redis.error_reply('ERR ratelimit: the key holds a value that is not a GCRA timestamp')
  end
  if tat < now then tat = now end
end

-- Whole emission intervals still inside the tolerance when the TAT is `t`
-- (redis-cell: (tolerance - (t - now)) / interval, truncated, never negative).
local function remaining(t)
  local left = tolerance - (t - now)
  if left <= 0 then return 0 end
  return math.floor(left / interval)
end

local new_tat = tat + interval * cost
local allow_at = new_tat - tolerance
if now < allow_at then
  -- Denied: nothing written, so a client retrying too early is not pushed back.
  return {remaining(tat), tat - now, allow_at - now}
end
if ARGV[4] == '1' then
  return {remaining(tat), tat - now}
end
-- The TAT goes to SET as a number: Redis prints integers below 2^53 in full
-- (tostring() would round it to 14 digits). The key lives until the TAT has
-- passed (ms, rounded up, at least 1 ms since cost >= 1): after that it holds
-- nothing a missing key would not say.
local ttl_us = new_tat - now
redis.call('SET', key, new_tat, 'PX', math.floor((ttl_us + 999) / 1000))
return {remaining(new_tat), ttl_us}
