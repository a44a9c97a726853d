-- Several limiters, one atomic decision (CompoundRateLimiter): every member
-- is checked first; only when every member accepts does every member commit,
-- so a request denied by one member takes nothing from any.
--
-- KEYS[i]  member i's key
-- ARGV     per member, in KEYS order: its algorithm's name, then its
--          arguments (ALGORITHMS.<name>.nargs of them, see algorithms/*.lua);
--          then cost (integer, within every member's bound; Rust checks),
--          peek ("1": decide for cost 1, write nothing), and optionally now
--          in µs instead of TIME (tests only, see clock.lua)
-- Reply    the most restrictive answer: m = the 0-based member with the least
--          remaining (the first of equals), reset = the largest reset_after,
--          retry = the largest retry_after of the members that deny:
--          {m, remaining, reset_after_us} allowed,
--          {m, remaining, reset_after_us, retry_after_us >= 1} denied,
--          {m, remaining, reset_after_us, 0, delay_us} allowed with a delay
--          (the largest, of leaky bucket members)
local members, at = {}, 1
for i = 1, #KEYS do
  local algo = ALGORITHMS[ARGV[at]]
  local a = {}
  for j = 1, algo.nargs do a[j] = tonumber(ARGV[at + j]) end
  at = at + 1 + algo.nargs
  members[i] = {algo = algo, a = a}
end
local cost = tonumber(ARGV[at])
local peek = ARGV[at + 1] == '1'
local injected = ARGV[at + 2]
local now = clock_us(injected)

local fits = true
for i, m in ipairs(members) do
  m.d = m.algo.check(KEYS[i], m.a, cost, now, injected ~= nil, not peek)
  fits = fits and m.d.fits
end

-- The member with the least `remaining` answers for all.
local function least(remaining_of)
  local best, low = 1, remaining_of(members[1])
  for i = 2, #members do
    local r = remaining_of(members[i])
    if r < low then best, low = i, r end
  end
  return best - 1, low
end

if not fits or peek then
  local reset, retry = 0, 0
  for i, m in ipairs(members) do
    local r, w = m.algo.explain(KEYS[i], m.a, cost, now, m.d)
    reset = math.max(reset, r)
    if not m.d.fits then retry = math.max(retry, w) end
  end
  local m, remaining = least(function(x) return x.d.remaining end)
  if not fits then return {m, remaining, reset, math.max(retry, 1)} end
  return {m, remaining, reset}
end

local reset, delay = 0, 0
for i, m in ipairs(members) do
  local r, t, w = m.algo.commit(KEYS[i], m.a, cost, now, m.d)
  m.after = r
  reset = math.max(reset, t)
  delay = math.max(delay, w)
end
local m, remaining = least(function(x) return x.after end)
if delay > 0 then return {m, remaining, reset, 0, delay} end
return {m, remaining, reset}
