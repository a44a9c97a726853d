-- One limiter, one key: check, then commit when it fits and is not a peek.
--
-- KEYS[1]  the limiter key
-- ARGV     the algorithm's arguments (ALGO.nargs of them, see algorithms/*.lua),
--          then cost, peek ("1": decide for cost 1, write nothing), and optionally
--          now in µs instead of TIME (tests only, see clock.lua)
-- Reply    {remaining, reset_after_us} when allowed,
--          {remaining, reset_after_us, retry_after_us >= 1} when denied,
--          {remaining, reset_after_us, 0, delay_us} when allowed with a delay (leaky bucket)
local key = KEYS[1]
local n = ALGO.nargs
local a = {}
for i = 1, n do a[i] = tonumber(ARGV[i]) end
local cost = tonumber(ARGV[n + 1])
local peek = ARGV[n + 2] == '1'
local injected = ARGV[n + 3]
local now = 0
if ALGO.clock then now = clock_us(injected) elseif injected then now = tonumber(injected) end

local d = ALGO.check(key, a, cost, now, injected ~= nil, not peek)
if not d.fits or peek then
  local reset, retry = ALGO.explain(key, a, cost, now, d)
  if not d.fits then return {d.remaining, reset, math.max(retry, 1)} end
  return {d.remaining, reset}
end
local remaining, reset, delay = ALGO.commit(key, a, cost, now, d)
if delay > 0 then return {remaining, reset, 0, delay} end
return {remaining, reset}
