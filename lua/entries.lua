-- The entry points PHP calls (FCALL PREFIX..name, or ARGV[1] = name in the
-- EVALSHA form, where every argv index below is shifted by o = 1).
-- Times are µs, on the server's clock unless a test injected one (clock.lua).
--
-- Every decision entry (take, peek, take_many, the compounds and their
-- counted forms) honours lock-outs the same way (lockout.lua): after its n
-- decided keys come their n block keys (key k's at n + k), before the
-- counters' base of a counted form; and each limiter's arguments start with
-- its lockout in ms (0: none), before its algorithm's name. The block is
-- read before the algorithm (`one_key`, `members`).
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
-- arguments start in argv, the cost, whether a test gave the clock, now,
-- and its lockout in ms.
local function one_limiter(argv, o)
  local algo = ALGORITHMS[argv[o + 2]]
  local at = o + 2 + algo.nargs
  local cost, injected = num(argv[at + 1]), argv[at + 2]
  return algo, o + 2, cost, injected ~= nil, clock_us(injected, algo.clock), num(argv[o + 1])
end

-- One limiter on one key: the block first (a blocked id is denied, nothing
-- read or written), then check, then commit when it fits and this is not a
-- peek, else explain, and block the id for `lockout` ms when a consuming
-- call is denied. Returns remaining, reset, retry (nil when it fits), delay.
-- raw: the key's value when a batch has read it already (see `string` in library.lua).
local function one_key(key, algo, argv, i, cost, now, injected, peek, raw, block, lockout)
  local now_ms = injected and math.floor(now / 1000) or nil
  local left = block_left(block, now_ms)
  if left > 0 then return 0, left * 1000, left * 1000, 0 end
  local fits, remaining, s1, s2, s3 = algo.check(key, argv, i, cost, now, injected, not peek, raw)
  if fits and not peek then
    local rem, reset, delay = algo.commit(key, argv, i, cost, now, s1, s2, s3)
    return rem, reset, nil, delay
  end
  local reset, retry = algo.explain(key, argv, i, cost, now, s1, s2, s3)
  if fits then
    retry = nil
  elseif lockout > 0 and not peek then
    lock(block, lockout, now_ms)
    remaining, reset, retry = 0, math.max(reset, lockout * 1000), math.max(retry, lockout * 1000)
  end
  return remaining, reset, retry, 0
end

-- One limiter, one key.
-- KEYS     the limiter's key, its block key
-- ARGV     lockout ms, algorithm name, its arguments (ALGORITHMS.<name>.nargs
--          of them, see algorithms/*.lua), cost, and optionally now in µs (tests only)
-- Reply    an answer (above)
-- Also returns, for the counted form: the instant, and whether it fits.
local function decide(keys, argv, o, peek)
  local algo, i, cost, injected, now, lockout = one_limiter(argv, o or 0)
  local remaining, reset, retry, delay = one_key(keys[1], algo, argv, i, cost, now, injected, peek, nil, keys[2], lockout)
  return answer(remaining, reset, retry, delay), now, retry == nil
end

register('take', function(keys, argv, o) return (decide(keys, argv, o, false)) end)
-- Would `cost` fit? Writes nothing (flagged so: Redis runs it when out of memory).
register('peek', function(keys, argv, o) return (decide(keys, argv, o, true)) end, true)

-- The batch entries' loop: one(key, block, ...) for each of the first n
-- keys of KEYS in order (block: KEYS[n + k], its block key, or nil), each in
-- a pcall, so a key holding a foreign value fails only itself. one
-- returns the key's record, 4 packed doubles; a key whose call raised gets
-- {-1, byte length of its error, 0, 0} instead (no record starts with -1),
-- and its error text follows all the records, in KEYS order.
local function each_key(keys, n, one, ...)
  local records, errors = {}, {}
  for k = 1, n do
    local ok, record = pcall(one, keys[k], keys[n + k], ...)
    if ok then
      records[k] = record
    else
      local message = type(record) == 'table' and record.err or tostring(record)
      records[k] = struct.pack('<dddd', -1, #message, 0, 0)
      errors[#errors + 1] = message
    end
  end
  return table.concat(records) .. table.concat(errors)
end

-- One key of take_many: take's decision as a record. `known` (or nil): the
-- values read_strings read (false: missing); a value is used once, so a key
-- repeated in the batch reads what the decision before it wrote.
-- tally (or nil): {accepted, denied} so far, for the counted form.
local function take_one(key, block, algo, argv, i, cost, now, injected, known, tally, lockout)
  local raw = nil
  if known then raw, known[key] = known[key], nil end
  local remaining, reset, retry, delay = one_key(key, algo, argv, i, cost, now, injected, false, raw, block, lockout)
  if retry and retry < 1 then retry = 1 end
  if tally then
    local k = retry and 2 or 1
    tally[k] = tally[k] + 1
  end
  return struct.pack('<dddd', remaining, reset, retry or 0, delay)
end

-- redis.call(command, ...) over `list` in slices of at most SLICE (Lua's
-- unpack has a stack limit): the replies, one per slice, in order.
local SLICE = 1000
local function sliced(command, list)
  local replies = {}
  for first = 1, #list, SLICE do
    replies[#replies + 1] = redis.call(command, unpack(list, first, math.min(first + SLICE - 1, #list)))
  end
  return replies
end

-- keys[1 .. n] as a table of its own (a batch's keys without their block keys).
local function first_n(keys, n)
  local out = {}
  for k = 1, n do out[k] = keys[k] end
  return out
end

-- The string values of `keys`, by key, read with MGET. MGET answers nil
-- both for a missing key and for one of another type, which a decision must
-- refuse: so the keys it answers nil for are known missing (false) only when
-- EXISTS over all of them counts none; otherwise they are left out, and each
-- decision reads its key with GET (WRONGTYPE for a foreign type).
local function read_strings(keys)
  local known, absent = {}, {}
  for s, values in ipairs(sliced('MGET', keys)) do
    for k = 1, #values do
      local key = keys[(s - 1) * SLICE + k]
      if values[k] then known[key] = values[k] else absent[#absent + 1] = key end
    end
  end
  for _, found in ipairs(sliced('EXISTS', absent)) do
    if found > 0 then return known end
  end
  for _, key in ipairs(absent) do known[key] = false end
  return known
end

-- consumeMany: one limiter, many keys (one slot: a single server), each
-- decided in KEYS order exactly as `take` one after another would, at one instant.
-- KEYS     the keys, in the order of the ids (repeats allowed), then their block keys
-- ARGV     as `take`
-- Reply    per key, 4 doubles {remaining, reset_after_us, retry_after_us, delay_us}
--          (retry > 0: denied); errors as each_key says
-- Also returns the instant, for the counted form (which passes a tally).
local function take_many(keys, argv, o, tally)
  local algo, i, cost, injected, now, lockout = one_limiter(argv, o or 0)
  local n = #keys / 2
  local known = algo.string and read_strings(first_n(keys, n)) or nil
  return each_key(keys, n, take_one, algo, argv, i, cost, now, injected, known, tally, lockout), now
end
register('take_many', function(keys, argv, o) return (take_many(keys, argv, o)) end)

-- Member m, then (calling itself) members m + 1 .. n. Every member is checked
-- on the way in (its block first: a blocked member does not fit, unread);
-- `above` says whether members 1 .. m - 1 fit, `free` whether none of them
-- is blocked, so the last one knows whether all fit and none is blocked. On
-- the way out each member commits when all fit (and this is not a peek),
-- else explains (a blocked one: its block's time left), and a consuming
-- call denied by an algorithm (no member blocked) blocks every member that
-- has a lockout. A member's state stays in the locals of
-- its own call: no table per decision. Members have distinct keys (distinct
-- key prefixes, one id), so committing from the last to the first writes
-- what the first-to-last order would.
-- Returns whether all fit, whether none is blocked, then the records of
-- members m .. n in order: each a batch record {remaining, reset_after_us,
-- retry_after_us or 0, delay_us} (retry >= 1 for a member that does not fit).
local function members(keys, argv, at, m, n, cost, now, injected, peek, above, free)
  local lockout, algo = num(argv[at + 1]), ALGORITHMS[argv[at + 2]]
  local key, block, i = keys[m], keys[n + m], at + 2
  local now_ms = injected and math.floor(now / 1000) or nil
  local left = block_left(block, now_ms)
  -- Checked without writing (consuming false): a later member may still
  -- refuse its key, and a refused call writes nothing. A member that denies
  -- repairs its key on the way out instead (algo.repair).
  local fits, remaining, s1, s2, s3 = false, 0, nil, nil, nil
  if left == 0 then fits, remaining, s1, s2, s3 = algo.check(key, argv, i, cost, now, injected, false) end
  local all, none, later = above and fits, free and left == 0, ''
  if m < n then
    all, none, later = members(keys, argv, i + algo.nargs, m + 1, n, cost, now, injected, peek, all, none)
  end
  local reset, retry, delay = 0, 0, 0
  if all and not peek then
    remaining, reset, delay = algo.commit(key, argv, i, cost, now, s1, s2, s3)
  elseif left > 0 then
    reset, retry = left * 1000, left * 1000
  else
    reset, retry = algo.explain(key, argv, i, cost, now, s1, s2, s3)
    if fits then
      retry = 0
    else
      if retry < 1 then retry = 1 end
      if not peek and algo.repair then algo.repair(key, argv, i, s1, s2, s3) end
    end
    if none and lockout > 0 and not peek then
      lock(block, lockout, now_ms)
      remaining, reset, retry = 0, math.max(reset, lockout * 1000), math.max(retry, lockout * 1000)
    end
  end
  return all, none, struct.pack('<dddd', remaining, reset, retry, delay) .. later
end

-- Where what follows n members' arguments (from argv[o + 1]: lockout,
-- algorithm name, its arguments) starts, less one, and whether any member's
-- algorithm reads the clock.
local function after_members(argv, o, n)
  local at, clock = o, false
  for _ = 1, n do
    local algo = ALGORITHMS[argv[at + 2]]
    at = at + 2 + algo.nargs
    clock = clock or algo.clock
  end
  return at, clock
end

-- Several limiters, one atomic decision (CompoundRateLimiter): every member
-- is checked first; only when every member accepts does every member commit,
-- so a request denied by one member takes nothing from any.
-- KEYS     the members' keys, then their block keys, in member order
-- ARGV     per member, in KEYS order: its lockout in ms, its algorithm's
--          name, then its arguments; then cost (within every member's bound;
--          Rust checks) and optionally now in µs (tests only)
-- Reply    per member, in KEYS order, its own answer as a batch record (4
--          doubles, as take_many's); the client combines them into the most
--          restrictive answer and shows each (one IETF header item per member)
local function decide_all(keys, argv, o, peek)
  o = o or 0
  local n = #keys / 2
  local at, clock = after_members(argv, o, n)
  local cost, injected = num(argv[at + 1]), argv[at + 2]
  local now = clock_us(injected, clock)
  local all, _, records = members(keys, argv, o, 1, n, cost, now, injected ~= nil, peek, true, true)
  -- Also returned, for the counted form: the instant, and whether all fit.
  return records, now, all
end

-- Named compound2: the reply is every member's (core/src/command.rs says why the name changed).
register('compound2', function(keys, argv, o) return (decide_all(keys, argv, o, false)) end)
register('compound2_peek', function(keys, argv, o) return (decide_all(keys, argv, o, true)) end, true)

-- The counted forms (ratelimit.metrics = redis): take, take_many and
-- compound with their decisions counted in the same call (metrics.lua).
-- KEYS     the entry's keys, then the counters' base key (the same slot)
-- ARGV     the three counting arguments (metrics.lua), then the entry's ARGV
-- Reply    the entry's
-- A counted form of an entry that decides once (take, compound): `decide`
-- returns the reply, the instant and whether it fits.
local function counted_once(decide_fn)
  return function(keys, argv, o)
    o = o or 0
    local base = table.remove(keys)
    local reply, now, fits = decide_fn(keys, argv, o + COUNTING_ARGS, false)
    counted(base, argv, o, now, fits and 1 or 0, fits and 0 or 1)
    return reply
  end
end
register('take_counted', counted_once(decide))
register('compound2_counted', counted_once(decide_all))
register('take_many_counted', function(keys, argv, o)
  o = o or 0
  local base, tally = table.remove(keys), {0, 0}
  local reply, now = take_many(keys, argv, o + COUNTING_ARGS, tally)
  counted(base, argv, o, now, tally[1], tally[2])
  return reply
end)

-- Giving back, charging, booking ahead: one entry with a mode rather than
-- three, so each algorithm's part of the three (ALGORITHMS.<name>.refund,
-- charge, reserve) is reached from one place; core/src/entries.rs `adjust`
-- is its twin. Member m is checked, members m + 1 .. n (calling itself),
-- then m adjusts its key on the way out: every member is checked before any
-- writes, as a compound's. No member waits for another: a refund and a
-- charge apply to every member. A charge or a booking reads each member's
-- block first, as a decision does (a blocked member is not checked): when
-- any member is blocked (`free` false on the way out), nothing is taken from
-- any; a blocked member answers its block's time left, the others what they
-- have left, untouched (reset 0). A refund ignores blocks, and none of the
-- modes starts one. Returns whether every member's answer is an acceptance,
-- whether no member is blocked, then the records of members m .. n, as
-- `members` does.
--   mode 0 refund: gives back up to `units`; accepted, the state after it
--   mode 1 charge: takes `units`; past the limit (a debt) it is a denial
--          whose retry is until a cost of 1 fits
--   mode 2 reserve (one key; token bucket, leaky bucket, GCRA): books
--          `units` when the wait for them is at most `wait` µs, accepted
--          with the wait as its delay; else a denial whose retry is the wait
--   mode 3 lease (one key; token bucket, GCRA, fixed window): `wait` is
--          the asking call's cost; see `lease` below. It reads the block
--          as a charge does: a blocked id gets no lease
local LEASE_SHARE = 4

-- A lease (core/src/lease.rs is its twin): when `need` fits (check said so,
-- with `remaining` what is left), takes min(want, floor(remaining / 4)) but
-- at least `need`, in one commit, and answers that commit with the units
-- taken in the delay slot; else the denial of `need`, taking nothing (a
-- fixed window's counter without expiry repaired, as a consume's denial).
local function lease(key, algo, argv, i, want, need, now, injected, fits, remaining, s1, s2, s3)
  if not fits then
    local reset, retry = algo.explain(key, argv, i, need, now, s1, s2, s3)
    if algo.repair then algo.repair(key, argv, i, s1, s2, s3) end
    return remaining, reset, retry, 0
  end
  local grant = math.max(math.min(want, math.floor(remaining / LEASE_SHARE)), need)
  local _, _, t1, t2, t3 = algo.check(key, argv, i, grant, now, injected, false)
  local rem, reset = algo.commit(key, argv, i, grant, now, t1, t2, t3)
  return rem, reset, nil, grant
end

local function adjusted(keys, argv, at, m, n, mode, units, wait, now, injected, free)
  local algo = ALGORITHMS[argv[at + 2]]
  local key, block, i = keys[m], keys[n + m], at + 2
  local left = 0
  if mode ~= 0 then left = block_left(block, injected and math.floor(now / 1000) or nil) end
  local probe = units
  if mode == 3 then probe = wait end
  local fits, remaining, s1, s2, s3 = false, 0, nil, nil, nil
  if left == 0 then fits, remaining, s1, s2, s3 = algo.check(key, argv, i, probe, now, injected, false) end
  local all, none, later = true, free and left == 0, ''
  if m < n then
    all, none, later = adjusted(keys, argv, i + algo.nargs, m + 1, n, mode, units, wait, now, injected, none)
  end
  local reset, retry, delay = 0, nil, 0
  if left > 0 then
    remaining, reset, retry = 0, left * 1000, left * 1000
  elseif not none then
    reset = 0
  elseif mode == 0 then
    remaining, reset = algo.refund(key, argv, i, units, now, s1, s2, s3)
  elseif mode == 1 and fits then
    remaining, reset, delay = algo.commit(key, argv, i, units, now, s1, s2, s3)
  elseif mode == 1 then
    remaining, reset, retry = algo.charge(key, argv, i, units, now, s1, s2, s3)
  elseif mode == 2 then
    remaining, reset, delay, retry = algo.reserve(key, argv, i, units, now, wait, fits, s1, s2)
  else
    remaining, reset, retry, delay = lease(key, algo, argv, i, units, wait, now, injected, fits, remaining, s1, s2, s3)
  end
  if retry then
    if retry < 1 then retry = 1 end
    all = false
  end
  return all, none, struct.pack('<dddd', remaining, reset, retry or 0, delay) .. later
end

-- refund, charge, reserve on one limiter's key or on every member of a compound.
-- KEYS     the members' keys, then their block keys, in member order (one
--          limiter: its key and its block key), as compound2's
-- ARGV     per member, in KEYS order: its lockout in ms (read as a
--          decision's, unused here), its algorithm's name and arguments;
--          then mode (0 refund, 1 charge, 2 reserve, 3 lease), units, the
--          longest wait in µs (reserve; a lease's cost; else 0) and
--          optionally now in µs (tests only)
-- Reply    per member, in KEYS order, its answer as a batch record (4
--          doubles, as compound2's; a lease's 4th is the units taken)
-- Also returns, for the counted form: the instant, and whether all were accepted.
local function adjust(keys, argv, o)
  o = o or 0
  local n = #keys / 2
  local at, clock = after_members(argv, o, n)
  local mode, units, wait, injected = num(argv[at + 1]), num(argv[at + 2]), num(argv[at + 3]), argv[at + 4]
  local now = clock_us(injected, clock)
  local all, _, records = adjusted(keys, argv, o, 1, n, mode, units, wait, now, injected ~= nil, true)
  return records, now, all
end
register('adjust', function(keys, argv, o) return (adjust(keys, argv, o)) end)
register('adjust_counted', counted_once(adjust))
