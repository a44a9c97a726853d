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
-- Reply    {allowed (0|1), remaining, retry_after_us, reset_after_us, delay_us (always 0)}
local key = KEYS[1]
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local peek = ARGV[4] == '1'

local raw = redis.call('GET', key)
local used = tonumber(raw or '0')
if used == nil then
  return redis.error_reply('ERR ratelimit: the key holds a value that is not a fixed-window counter')
end

local ttl = 0
if raw then
  ttl = redis.call('PTTL', key)
  if ttl < 0 then
    -- A counter without expiry can only come from outside; it gets one window.
    ttl = window
    if not peek then redis.call('PEXPIRE', key, window) end
  end
end

if used + cost > limit then
  return {0, math.max(limit - used, 0), ttl * 1000, ttl * 1000, 0}
end
if peek then
  return {1, limit - used, 0, ttl * 1000, 0}
end
if raw then
  redis.call('INCRBY', key, cost)
else
  redis.call('SET', key, cost, 'PX', window)
  ttl = window
end
return {1, limit - used - cost, 0, ttl * 1000, 0}
