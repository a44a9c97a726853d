-- Fixed window: the articles' INCR + EXPIRE, made atomic.
-- A window opens at the key's first accepted request and lasts ARGV[1] ms; the
-- key's TTL is the window, so the Redis server's clock closes it. Denied
-- requests write nothing.
--
-- KEYS[1]  the limiter key: a string counter with a TTL of at most one window
-- ARGV[1]  window, milliseconds (integer >= 1)
-- ARGV[2]  limit per window (integer >= 1)
-- ARGV[3]  cost (integer, 1..limit)
-- ARGV[4]  "1" = peek (decide for cost 1, write nothing), "0" = consume
-- ARGV[5]  optional: now in µs (tests only, see clock.lua). This script needs
--          no TIME: its clock is the key's expiry. With an injected now the
--          expiry is written and read as an instant (PXAT, PEXPIRETIME: Redis
--          >= 7) instead of a duration, so a test moves through windows
--          without waiting; a window that ended at that instant is over.
-- Reply    {remaining, reset_after_us} when allowed,
--          {remaining, reset_after_us, retry_after_us >= 1} when denied
-- A cost-1 consume on Redis >= 7 does not come here: it is the pipeline
-- INCRBY + PEXPIRE NX + PTTL (src/redis/fixed_window_fast.rs).
local key = KEYS[1]
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local peek = ARGV[4] == '1'
local now_ms = ARGV[5] and math.floor(tonumber(ARGV[5]) / 1000)

-- Milliseconds left in the key's window; -1 when it has none, 0 when it is over.
local function ttl_of()
  if not now_ms then return redis.call('PTTL', key) end
  local at = redis.call('PEXPIRETIME', key)
  if at < 0 then return at end
  return math.max(at - now_ms, 0)
end

local raw = redis.call('GET', key)
local used = tonumber(raw or '0')
if used == nil then
  return redis.error_reply('ERR ratelimit: the key holds a value that is not a fixed-window counter')
end

local ttl = 0
if raw then
  ttl = ttl_of()
  if now_ms and ttl == 0 then
    -- Only with an injected clock does a key outlive its window: as if expired.
    raw, used = nil, 0
  elseif ttl < 0 then
    -- A counter without expiry can only come from outside; a consuming call
    -- gives it one window (when accepted, after INCRBY, which Redis refuses
    -- when out of memory, so that no write gets in before it).
    ttl = -window
  end
end

-- The key's window ends `window` ms from now.
local function expire()
  if now_ms then redis.call('PEXPIREAT', key, now_ms + window) else redis.call('PEXPIRE', key, window) end
end

if used + cost > limit then
  if ttl < 0 and not peek then expire() end
  local left = math.max(math.abs(ttl) * 1000, 1)
  return {math.max(limit - used, 0), left, left}
end
if peek then
  return {limit - used, math.abs(ttl) * 1000}
end
if raw then
  redis.call('INCRBY', key, cost)
  if ttl < 0 then
    ttl = window
    expire()
  end
else
  if now_ms then redis.call('SET', key, cost, 'PXAT', now_ms + window) else redis.call('SET', key, cost, 'PX', window) end
  ttl = window
end
return {limit - used - cost, ttl * 1000}
