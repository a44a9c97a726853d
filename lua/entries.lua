-- The entry points PHP calls (FCALL PREFIX..name, or ARGV[1] = name in the
-- EVALSHA form, where every argv index below is shifted by o = 1).
-- Times are µs, on the server's clock unless a test injected one (clock.lua).
--
-- Replies are binary strings of little-endian doubles (struct.pack '<d'),
-- every number an integer below 2^53, so exact: cheaper for Redis to send
-- than an array, and parsed without a reply-tree on the client.
--   allowed                {remaining, reset_after_us}
--   denied                 {remaining, reset_after_us, retry_after_us >= 1}
--   allowed with a delay   {remaining, reset_after_us, 0, delay_us} (leaky bucket)
local function answer(remaining, reset, retry, delay)
  if retry then
    if retry < 1 then retry = 1 end
    return struct.pack('<ddd', remaining, reset, retry)
  end
  if delay > 0 then return struct.pack('<dddd', remaining, reset, 0, delay) end
  return struct.pack('<dd', remaining, reset)
end

-- The call of one limiter (take, peek, take_many): its algorithm, where its
-- arguments start in argv, the cost, whether a test gave the clock, and now.
local function one_limiter(argv, o)
  local algo = ALGORITHMS[argv[o + 1]]
  local at = o + 1 + algo.nargs
  local cost, injected = num(argv[at + 1]), argv[at + 2]
  local now = 0
  if algo.clock then now = clock_us(injected) elseif injected then now = tonumber(injected) end
  return algo, o + 1, cost, injected ~= nil, now
end

-- One limiter, one key: check, then commit when it fits and is not a peek.
-- KEYS[1]  the limiter's key
-- ARGV     algorithm name, its arguments (ALGORITHMS.<name>.nargs of them,
--          see algorithms/*.lua), cost, and optionally now in µs (tests only)
-- Reply    an answer (above)
local function decide(keys, argv, o, peek)
  local algo, i, cost, injected, now = one_limiter(argv, o or 0)
  local key = keys[1]
  local fits, remaining, s1, s2, s3 = algo.check(key, argv, i, cost, now, injected, not peek)
  if not fits or peek then
    local reset, retry = algo.explain(key, argv, i, cost, now, s1, s2, s3)
    if fits then return answer(remaining, reset, nil, 0) end
    return answer(remaining, reset, retry)
  end
  local rem, reset, delay = algo.commit(key, argv, i, cost, now, s1, s2, s3)
  return answer(rem, reset, nil, delay)
end

register('take', function(keys, argv, o) return decide(keys, argv, o, false) end)
-- Would `cost` fit? Writes nothing (flagged so: Redis runs it when out of memory).
register('peek', function(keys, argv, o) return decide(keys, argv, o, true) end, true)

-- consumeMany: one limiter, many keys (one slot: a single server), each
-- decided in KEYS order exactly as `take` one after another would, at one instant.
-- KEYS     the keys, in the order of the ids (repeats allowed)
-- ARGV     as `take`
-- Reply    per key, 4 doubles {remaining, reset_after_us, retry_after_us, delay_us}
--          (retry > 0: denied); a key holding a foreign value gets
--          {-1, byte length of its error, 0, 0} and its error text follows
--          all the records, in KEYS order.
register('take_many', function(keys, argv, o)
  local algo, i, cost, injected, now = one_limiter(argv, o or 0)
  local records, errors = {}, {}
  for k = 1, #keys do
    local key = keys[k]
    local ok, fits, remaining, s1, s2, s3 = pcall(algo.check, key, argv, i, cost, now, injected, true)
    if not ok then
      local message = type(fits) == 'table' and fits.err or tostring(fits)
      records[k] = struct.pack('<dddd', -1, #message, 0, 0)
      errors[#errors + 1] = message
    elseif fits then
      local rem, reset, delay = algo.commit(key, argv, i, cost, now, s1, s2, s3)
      records[k] = struct.pack('<dddd', rem, reset, 0, delay)
    else
      local reset, retry = algo.explain(key, argv, i, cost, now, s1, s2, s3)
      if retry < 1 then retry = 1 end
      records[k] = struct.pack('<dddd', remaining, reset, retry, 0)
    end
  end
  return table.concat(records) .. table.concat(errors)
end)

-- Several limiters, one atomic decision (CompoundRateLimiter): every member
-- is checked first; only when every member accepts does every member commit,
-- so a request denied by one member takes nothing from any.
-- KEYS[m]  member m's key
-- ARGV     per member, in KEYS order: its algorithm's name, then its
--          arguments; then cost (within every member's bound; Rust checks)
--          and optionally now in µs (tests only)
-- Reply    {m} followed by an answer: the most restrictive: m = the 0-based
--          member with the least remaining (the first of equals), reset = the
--          largest reset_after, retry = the largest retry_after of the members
--          that deny, delay = the largest delay (leaky bucket members)
local function decide_all(keys, argv, o, peek)
  o = o or 0
  local n = #keys
  -- Per member m, at 6 * (m - 1): algorithm, index of its name in argv,
  -- whether it fits, its state s1..s3 (one table for all: fewer allocations).
  local st, at, clock = {}, o, false
  for m = 1, n do
    local algo = ALGORITHMS[argv[at + 1]]
    st[6 * m - 5], st[6 * m - 4] = algo, at + 1
    at = at + 1 + algo.nargs
    clock = clock or algo.clock
  end
  local cost, injected = num(argv[at + 1]), argv[at + 2]
  -- As one_limiter: no TIME when no member reads the clock (fixed windows only).
  local now = 0
  if clock then now = clock_us(injected) elseif injected then now = tonumber(injected) end

  local fits = true
  local least, low = 1, nil
  for m = 1, n do
    local j = 6 * m - 5
    local f, remaining, s1, s2, s3 = st[j].check(keys[m], argv, st[j + 1], cost, now, injected ~= nil, not peek)
    st[j + 2], st[j + 3], st[j + 4], st[j + 5] = f, s1, s2, s3
    fits = fits and f
    if low == nil or remaining < low then least, low = m, remaining end
  end

  if not fits or peek then
    local reset, retry = 0, 0
    for m = 1, n do
      local j = 6 * m - 5
      local r, w = st[j].explain(keys[m], argv, st[j + 1], cost, now, st[j + 3], st[j + 4], st[j + 5])
      if r > reset then reset = r end
      if not st[j + 2] and w > retry then retry = w end
    end
    return struct.pack('<d', least - 1) .. answer(low, reset, (not fits) and retry or nil, 0)
  end

  local reset, delay = 0, 0
  least, low = 1, nil
  for m = 1, n do
    local j = 6 * m - 5
    local remaining, r, w = st[j].commit(keys[m], argv, st[j + 1], cost, now, st[j + 3], st[j + 4], st[j + 5])
    if low == nil or remaining < low then least, low = m, remaining end
    if r > reset then reset = r end
    if w > delay then delay = w end
  end
  return struct.pack('<d', least - 1) .. answer(low, reset, nil, delay)
end

register('compound', function(keys, argv, o) return decide_all(keys, argv, o, false) end)
register('compound_peek', function(keys, argv, o) return decide_all(keys, argv, o, true) end, true)
