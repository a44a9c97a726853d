-- Loaded with FUNCTION LOAD (src/redis/scripts.rs writes the first two lines:
-- the `#!lua name=` header and PREFIX, both carrying a hash of this library's
-- text, so two versions of the extension never replace each other's functions).
-- register(name, fn, readonly): FCALL PREFIX..name runs fn(KEYS, ARGV);
-- readonly functions are flagged no-writes, so Redis runs them even when it
-- is out of memory (a peek), while the others are refused whole (nothing half written).
local function register(name, fn, readonly)
  redis.register_function{function_name = PREFIX .. name, callback = fn, flags = readonly and {'no-writes'} or {}}
end
