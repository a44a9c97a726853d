-- Prepended to every script by src/redis/scripts.rs (Redis scripts cannot
-- include one another), so the clock is read the same way everywhere.
--
-- clock_us(injected): the instant of a decision in microseconds: the Redis
-- server's TIME, or `injected` (the optional last ARGV of every script) when
-- a test replays an algorithm against a table of instants. The PHP API never
-- passes it; a client that could would only change what is computed for keys
-- it can already write or delete.
local function clock_us(injected)
  if injected then return tonumber(injected) end
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000000 + tonumber(t[2])
end

