-- Sliding window, exact log: at most ARGV[2] units in ANY interval of ARGV[1] µs.
-- One sorted set per key. Each accepted unit is a member scored with the server
-- time in µs. Members must be unique even for a burst inside one microsecond
-- and across processes, so they are a per-key sequence number: the sequence
-- lives in the same key as the member "" with the NEGATIVE score -(last number
-- used). Timestamps are > 0, so every range below starts at score 0 or later
-- and never touches the counter. Decimal integer members keep the key small:
-- Redis stores them (and integral scores) as integers in a listpack.
-- Denied requests write nothing; peek writes nothing.
--
-- KEYS[1]  the limiter key: a sorted set {"" -> -seq, "<seq>" -> time_us, ...}
-- ARGV[1]  window, microseconds (integer >= 1000)
-- ARGV[2]  maxRequests (integer >= 1)
-- ARGV[3]  key TTL after a write, milliseconds (the window rounded up)
-- ARGV[4]  cost (integer, 1..maxRequests)
-- ARGV[5]  "1" = peek (decide for cost 1, write nothing), "0" = consume
-- ARGV[6]  optional: now in µs instead of TIME (tests only, see clock.lua)
-- Reply    {allowed (0|1), remaining, retry_after_us, reset_after_us, delay_us (always 0)}
local key = KEYS[1]
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local ttl_ms = ARGV[3]
local cost = tonumber(ARGV[4])
local peek = ARGV[5] == '1'

-- Integers as Redis arguments: tostring() would print 1.7e+15 and lose digits.
local function int(n) return string.format('%d', n) end

local now = clock_us(ARGV[6])
-- An entry counts while its time is in (now - window, now].
local live = '(' .. int(now - window)

if not peek then
  redis.call('ZREMRANGEBYSCORE', key, 0, int(now - window))
end
local used = redis.call('ZCOUNT', key, live, '+inf')

-- Time until the newest entry leaves the window: the key is empty again.
local function reset_after()
  if used == 0 then return 0 end
  local newest = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
  return tonumber(newest[2]) + window - now
end

if used + cost > limit then
  -- Once the (used + cost - limit)-th oldest entry has left, `cost` fits.
  local oldest = redis.call('ZRANGEBYSCORE', key, live, '+inf', 'WITHSCORES', 'LIMIT', used + cost - limit - 1, 1)
  return {0, limit - used, tonumber(oldest[2]) + window - now, reset_after(), 0}
end
if peek then
  return {1, limit - used, 0, reset_after(), 0}
end

-- Take `cost` fresh sequence numbers, then add one member per unit
-- (in batches: unpack() is bounded by Lua's stack).
local last = -tonumber(redis.call('ZINCRBY', key, -cost, ''))
local first = last - cost + 1
local score = int(now)
local batch = {}
for seq = first, last do
  batch[#batch + 1] = score
  batch[#batch + 1] = int(seq)
  if #batch == 1000 or seq == last then
    redis.call('ZADD', key, unpack(batch))
    batch = {}
  end
end
redis.call('PEXPIRE', key, ttl_ms)
return {1, limit - used - cost, 0, window, 0}
