-- Sliding window, exact log: at most ARGV[2] units in ANY interval of ARGV[1] µs.
-- One sorted set per key; each accepted unit is a member scored with the
-- server time in µs. Members must be unique, even for a burst inside one
-- microsecond and across processes: a unit accepted alone is the member `now`
-- (a decimal integer, stored as an integer in the listpack) when no member of
-- that name exists yet; otherwise, and for cost > 1, members are taken from a
-- per-key sequence kept in the same key as the member "" with the NEGATIVE
-- score -(last number used). Timestamps are > 0, so every range below starts
-- at score 0 or later and never touches the counter. Times are integers below
-- 2^53 passed to redis.call as numbers: Redis prints those in full.
-- Denied requests and peeks write nothing. The first write of an accepted
-- request is ZADD, which Redis refuses when it is out of memory (a write done
-- before it would let the rest of the script through).
--
-- KEYS[1]  the limiter key: a sorted set {"" -> -seq, member -> time_us, ...}
-- ARGV[1]  window, microseconds (integer >= 1000)
-- ARGV[2]  maxRequests (integer >= 1)
-- ARGV[3]  key TTL after a write, milliseconds (the window rounded up)
-- ARGV[4]  cost (integer, 1..min(maxRequests, 1000))
-- ARGV[5]  "1" = peek (decide for cost 1, write nothing), "0" = consume
-- ARGV[6]  optional: now in µs instead of TIME (tests only, see clock.lua)
-- Reply    {remaining, reset_after_us} when allowed,
--          {remaining, reset_after_us, retry_after_us >= 1} when denied
local key = KEYS[1]
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local cost = tonumber(ARGV[4])
local now = clock_us(ARGV[6])
-- An entry counts while its time is in (now - window, now]; later ones (a
-- clock that went back) count too.
local edge = now - window
local used = redis.call('ZCOUNT', key, edge + 1, '+inf')

-- Time until the newest entry leaves the window: the key is empty again.
local function reset_after()
  if used == 0 then return 0 end
  local newest = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
  return tonumber(newest[2]) - edge
end

if used + cost > limit then
  -- Once the (used + cost - limit)-th oldest entry has left, `cost` fits.
  local oldest = redis.call('ZRANGEBYSCORE', key, edge + 1, '+inf', 'WITHSCORES', 'LIMIT', used + cost - limit - 1, 1)
  return {limit - used, reset_after(), tonumber(oldest[2]) - edge}
end
if ARGV[5] == '1' then
  return {limit - used, reset_after()}
end

if cost > 1 or redis.call('ZADD', key, 'NX', now, now) == 0 then
  -- Take `cost` fresh sequence numbers, one member per unit.
  local last = -tonumber(redis.call('ZINCRBY', key, -cost, ''))
  local batch = {}
  for seq = last - cost + 1, last do
    batch[#batch + 1] = now
    batch[#batch + 1] = seq
  end
  redis.call('ZADD', key, unpack(batch))
end
redis.call('ZREMRANGEBYSCORE', key, 0, edge)
redis.call('PEXPIRE', key, ARGV[3])
return {limit - used - cost, window}
