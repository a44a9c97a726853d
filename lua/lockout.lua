-- Lock-out (block(), unblock(), withLockout()): a block of an id is a key of
-- its own beside the limiter's key (the client names it and passes it among
-- KEYS, in the same hash slot: src/limiter/decide/lockout.rs), the string '1' whose
-- TTL is the block's time left. core/src/lockout.rs is its twin.
-- Every decision entry reads it first, with PTTL (no clock needed): a
-- blocked id is denied at once, {0, left, left}, and nothing else is read or
-- written. A call denied by its algorithm (not by a block) whose limiter
-- has a lockout blocks the id for that long in the same call.
-- A block key without expiry (written from outside) is no block: every
-- block this library writes has one.
-- With an injected clock (tests) expiries are instants on that clock, as
-- the fixed window's are (expiry_at, PEXPIREAT).

-- ms left of the block at `block` (0: none). now_ms: a test's clock in ms, else nil.
local function block_left(block, now_ms)
  if now_ms then
    local at = expiry_at(block)
    if at < 0 then return 0 end
    return math.max(at - now_ms, 0)
  end
  local left = redis.call('PTTL', block)
  if left < 0 then return 0 end
  return left
end

-- Blocks for `ms` from now (replacing any shorter block).
local function lock(block, ms, now_ms)
  if now_ms then
    redis.call('SET', block, '1')
    redis.call('PEXPIREAT', block, int(now_ms + ms))
  else
    redis.call('SET', block, '1', 'PX', int(ms))
  end
end

-- block(): every key of KEYS (the block keys of one id: one limiter's, or a
-- compound's members') blocked for ARGV ms, unless a longer block is there.
-- KEYS     block keys
-- ARGV     ms (whole, 1 .. 10 years), and optionally now in µs (tests only)
-- Reply    per key, the block's time left in µs after the call (packed doubles)
register('block', function(keys, argv, o)
  o = o or 0
  local ms, injected = num(argv[o + 1]), argv[o + 2]
  local now_ms = injected and math.floor(tonumber(injected) / 1000) or nil
  local out = {}
  for k = 1, #keys do
    local left = block_left(keys[k], now_ms)
    if left < ms then
      lock(keys[k], ms, now_ms)
      left = ms
    end
    out[k] = struct.pack('<d', left * 1000)
  end
  return table.concat(out)
end)
