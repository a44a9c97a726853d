-- In-flight limits (core/src/concurrency.rs, the same operations in Rust):
-- at most `max` permits per key at once, each a lease on the server's clock.
-- Key      a sorted set {permit token -> lease expiry in µs}; a member counts
--          while its expiry is after now; expired members (a process killed
--          before it released) are dropped by the next call that writes. The
--          key's TTL is the latest lease, rounded up to the next ms. The member
--          '' (a token is never empty), scored -n, counts the n callers
--          waiting for a slot (below 0: never a permit), so that a release
--          tells its caller whether anyone is to be woken.
-- Every entry: KEYS[1] the limiter's key; ARGV as below, then optionally
-- now in µs (tests only). Replies are packed doubles (entries.lua).

-- Live permits at `now`, and ZREMRANGEBYSCORE of the expired ones when there are.
local function live_count(key, now)
  return redis.call('ZCOUNT', key, '(' .. int(now), '+inf')
end
local function drop_expired(key, live, now)
  if redis.call('ZCOUNT', key, '(-1', '+inf') > live then
    redis.call('ZREMRANGEBYSCORE', key, '0', int(now))
  end
end
-- The latest lease if later than `at`, else `at`.
local function latest(key, at)
  local top = redis.call('ZRANGE', key, '-1', '-1', 'WITHSCORES')[2]
  if top and tonumber(top) > at then return tonumber(top) end
  return at
end
local function expire_at_latest(key, top, now)
  redis.call('PEXPIRE', key, int(math.floor((top - now) / 1000) + 1))
end

-- One waiter more (by -1) or fewer (+1); the member goes at 0. One fewer only
-- where it was counted (a key deleted meanwhile has none: no key is left
-- without an expiry).
local function count_waiter(key, by, now)
  local was = redis.call('ZSCORE', key, '')
  was = was and tonumber(was)
  if by > 0 and not (was and was < 0) then return end
  redis.call('ZINCRBY', key, int(by), '')
  if (was or 0) + by == 0 then
    redis.call('ZREMRANGEBYSCORE', key, '0', int(now))
  end
end

-- ARGV     max, ttl_us, token, waiting (0: the caller will not wait; 1: a
--          first try, counted as a waiter when denied; 2: a waiter's try, no
--          longer counted once granted; 3: a waiter's last try, no longer
--          counted either way)
-- Reply    granted: {max - live after, ttl}; denied: {0, wait, wait}, wait
--          the time until the earliest lease ends
register('inflight_acquire', function(keys, argv, o)
  o = o or 0
  local key, max, ttl, token = keys[1], num(argv[o + 1]), num(argv[o + 2]), argv[o + 3]
  local waiting = num(argv[o + 4])
  local now = clock_us(argv[o + 5], true)
  local live = live_count(key, now)
  if live < max then
    local expiry = now + ttl
    local top = latest(key, expiry)
    drop_expired(key, live, now)
    redis.call('ZADD', key, int(expiry), token)
    expire_at_latest(key, top, now)
    if waiting >= 2 then count_waiter(key, 1, now) end
    return answer(max - live - 1, ttl, nil, 0)
  end
  local first = redis.call('ZRANGEBYSCORE', key, '(' .. int(now), '+inf', 'WITHSCORES', 'LIMIT', '0', '1')[2]
  local wait = (first and tonumber(first) or now + 1) - now
  drop_expired(key, live, now)
  if waiting == 1 then count_waiter(key, -1, now) elseif waiting == 3 then count_waiter(key, 1, now) end
  return answer(0, wait, wait, 0)
end)

-- ARGV     token
-- Reply    {live after, 1 when this call freed a live permit else 0, callers waiting}
register('inflight_release', function(keys, argv, o)
  o = o or 0
  local key, token = keys[1], argv[o + 1]
  local now = clock_us(argv[o + 2], true)
  local live = live_count(key, now)
  local expiry, freed = redis.call('ZSCORE', key, token), 0
  if expiry then
    if tonumber(expiry) > now then
      -- Moved to score 0 and dropped with the expired ones (the core has no ZREM).
      redis.call('ZADD', key, '0', token)
      freed = 1
    end
    redis.call('ZREMRANGEBYSCORE', key, '0', int(now))
  end
  local waiters = redis.call('ZSCORE', key, '')
  waiters = waiters and -tonumber(waiters) or 0
  if waiters < 0 then waiters = 0 end
  return struct.pack('<ddd', live - freed, freed, waiters)
end)

-- ARGV     ttl_us, token
-- Reply    {1, ttl} when the lease was live and is renewed, else {0, 0}
register('inflight_renew', function(keys, argv, o)
  o = o or 0
  local key, ttl, token = keys[1], num(argv[o + 1]), argv[o + 2]
  local now = clock_us(argv[o + 3], true)
  local expiry = redis.call('ZSCORE', key, token)
  if expiry and tonumber(expiry) > now then
    local at = now + ttl
    local top = latest(key, at)
    redis.call('ZADD', key, int(at), token)
    expire_at_latest(key, top, now)
    return struct.pack('<dd', 1, ttl)
  end
  return struct.pack('<dd', 0, 0)
end)

-- ARGV     none
-- Reply    {live permits, µs until the earliest lease ends, or 0}
local function inflight_count(keys, argv, o)
  o = o or 0
  local key = keys[1]
  local now = clock_us(argv[o + 1], true)
  local live = live_count(key, now)
  local wait = 0
  if live > 0 then
    local first = redis.call('ZRANGEBYSCORE', key, '(' .. int(now), '+inf', 'WITHSCORES', 'LIMIT', '0', '1')[2]
    wait = tonumber(first) - now
  end
  return struct.pack('<dd', live, wait)
end
register('inflight_count', inflight_count, true)
