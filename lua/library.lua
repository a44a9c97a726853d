-- The algorithms as one library (src/redis/scripts.rs puts it together:
-- as_function.lua or as_script.lua, clock.lua, this file, buckets.lua,
-- algorithms/*.lua, then entries.lua; Lua code in Redis cannot include other
-- files). It is loaded once per server as a Redis Function library (Redis >= 7),
-- so helpers and algorithm tables are built once at load, not on every call;
-- on an older Redis the same text runs as one EVALSHA script.
--
-- Every algorithm is a table ALGORITHMS.<name> = {
--   nargs   how many of its arguments follow its name in ARGV,
--   clock   false when it needs no TIME (the fixed window: its clock is the key's expiry),
--   string  true when its state is a string that check reads with GET: a
--           batch may read many such keys with one MGET and pass each value
--           as `raw` (about 0.5 µs less per key than a GET of its own),
--   check(key, argv, i, cost, now, injected, consuming, raw) -> fits, remaining, s1, s2, s3
--           argv[i + 1 .. i + nargs] are its arguments (strings); reads the
--           key (or takes `raw`, its value already read, when not nil;
--           false: the key is missing) and
--           decides whether `cost` fits at `now` (µs): `remaining` is
--           what is left before any write, s1..s3 what explain/commit need.
--           Writes nothing, except what a consuming call may do first
--           (drop log entries that left the window, give an expiry to a
--           counter that lost it);
--   explain(key, argv, i, cost, now, s1, s2, s3) -> reset_after_us, retry_after_us
--           the times of an answer that takes nothing (denied, or a peek); may read more;
--   commit(key, argv, i, cost, now, s1, s2, s3) -> remaining, reset_after_us, delay_us
--           takes `cost` (only after check said it fits).
-- }
-- Values travel as multiple returns, not tables: a table per call is an
-- allocation Redis pays on every decision.
-- A foreign value at a key raises an error reply naming what the key should
-- have held, before anything is written.
local ALGORITHMS = {}

local function refuse(what)
  error({err = 'ERR ratelimit: the key holds ' .. what})
end

-- f(x), remembered for the x that come back call after call. The function
-- library's Lua state lives on between calls, and a lookup of an interned
-- string (or a number) costs far less than what f does: Lua's tonumber
-- (strtod) and string.format each measured about 0.3-0.4 µs in Redis, several
-- times per decision. Bounded: after 4,096 distinct x it starts again. (The
-- EVALSHA form rebuilds the table on every call: no gain there, and no harm.)
-- f is called through a function because Lua's own libraries are not there
-- while FUNCTION LOAD runs this file.
local function remembered(f)
  local seen, size = {}, 0
  return function(x)
    local v = seen[x]
    if v ~= nil then return v end
    v = f(x)
    if size >= 4096 then seen, size = {}, 0 end
    seen[x], size = v, size + 1
    return v
  end
end

-- An integer as the decimal string Redis reads. Pass numbers to redis.call
-- through this: Redis turns a Lua number into text with a %.17g conversion
-- that costs about 0.8 µs per argument; '%d' costs far less and, for
-- integers below 2^53, says the same.
local function int(n)
  return string.format('%d', n)
end

-- Whether the string s (tonumber: n) holds a counter the library may have
-- written: an integer as INCRBY and HINCRBY read one (digits, an optional
-- '-', no leading zero), below 2^53 in size, where doubles count exactly.
-- A check refuses anything else before any write, so INCRBY or HINCRBY
-- never fails after another write of the same call (numbers.rs: `counter`).
local function is_counter(s, n)
  return (s == '0' or string.find(s, '^%-?[1-9]%d*$') ~= nil) and n > -2^53 and n < 2^53
end

-- A number from ARGV: a limiter's arguments (capacity, rate, window, limit,
-- cost) are the same few strings on every call; and the slice numbers of a
-- sliding window's hash, the same for a whole slice. Never for what changes
-- on every call (counts, times, replies).
local num = remembered(function(s) return tonumber(s) end)

-- int() of a number that comes back call after call (a slice number).
local int_often = remembered(function(n) return int(n) end)
