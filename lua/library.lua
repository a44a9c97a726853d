-- The algorithms as a library (src/redis/scripts.rs puts the scripts
-- together: clock.lua, this file, one or all of algorithms/*.lua, then
-- single.lua or compound.lua; Redis scripts cannot include one another).
--
-- Every algorithm is a table ALGORITHMS.<name> = {
--   nargs   how many of its arguments follow in ARGV (numbers),
--   clock   false when it needs no TIME (the fixed window: its clock is the key's expiry),
--   check(key, a, cost, now, injected, consuming) -> d
--           reads the key and decides whether `cost` fits at `now` (µs);
--           d.fits, d.remaining (now, before any write) and what the others need;
--           writes nothing, except that a consuming call on a counter that
--           lost its expiry gives it one (the fixed window);
--   explain(key, a, cost, now, d) -> reset_after_us, retry_after_us
--           the times of an answer that takes nothing (denied, or a peek); may read more;
--   commit(key, a, cost, now, d) -> remaining, reset_after_us, delay_us
--           takes `cost` (only after check said it fits); its first write is
--           one Redis refuses when out of memory, so nothing is half written.
-- }
-- `a` holds the algorithm's arguments as numbers; `injected` is true when a
-- test gave the clock (see clock.lua). A foreign value at a key raises an
-- error reply naming what the key should have held.
local ALGORITHMS = {}

local function refuse(what)
  error({err = 'ERR ratelimit: the key holds ' .. what})
end

