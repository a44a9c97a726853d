-- The library run as an EVALSHA script, for a Redis without functions (< 7):
-- ARGV[1] names the entry, the entry's own ARGV follow it (o = 1 below).
-- Slower than FCALL (every call builds the library again), just as exact.
local FUNCTIONS = {}
local function register(name, fn)
  FUNCTIONS[name] = fn
end
