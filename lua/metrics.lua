-- Decision counters kept inside the decision's own call (ratelimit.metrics =
-- redis), for the entries' counted forms (entries.lua). core/src/metrics.rs
-- is its twin (the server module, memory://).
--   key     base .. ':' .. minute: base is the client's (ratelimit.key_prefix
--           .. 'ratelimit-metrics', with a hash tag of the decision key's slot
--           on a Redis Cluster), minute = floor(now in µs / 60e6) on the
--           decision's clock
--   fields  '<outcome>:<limiter>' -> count: allowed, denied, would_deny (a
--           denial in dry run), and the counts the client sends along
--           (PENDING, made without a round trip since its last counted call)
--   expiry  the instant (minute + 60) * 60 s, written by the call that
--           creates a field: no key outlives its minute by more than an hour
-- A counted call's ARGV start with three of their own (at o + 1 .. o + 3):
-- the limiter's name, '1' in dry run (else '0'), and '' or the five pending
-- counts as integers (denied would_deny errors on_error block_cache).
local PENDING = {'denied', 'would_deny', 'errors', 'on_error', 'block_cache'}
local COUNTING_ARGS = 3

-- HINCRBY of one field; true when it created the field.
local function add(key, outcome, name, n)
  return n > 0 and redis.call('HINCRBY', key, outcome .. ':' .. name, int(n)) == n
end

-- Counts a call's decisions (allowed and denied of them) and its pending
-- counts under base at `now` (0: no algorithm of the call read the clock).
local function count(base, argv, o, now, allowed, denied)
  local name, pending = argv[o + 1], argv[o + 3]
  if now == 0 then now = clock_us(nil, true) end
  local minute = math.floor(now / 60000000)
  local key = base .. ':' .. int(minute)
  local created = add(key, 'allowed', name, allowed)
  created = add(key, argv[o + 2] == '1' and 'would_deny' or 'denied', name, denied) or created
  if pending ~= '' then
    local k = 0
    for n in string.gmatch(pending, '%d+') do
      k = k + 1
      if PENDING[k] then created = add(key, PENDING[k], name, tonumber(n)) or created end
    end
  end
  if created then redis.call('PEXPIREAT', key, int((minute + 60) * 60000)) end
end

-- count, in a pcall: a foreign value at the counters' key (WRONGTYPE) must
-- not fail a decision that has already written its state.
local function counted(base, argv, o, now, allowed, denied)
  pcall(count, base, argv, o, now, allowed, denied)
end
