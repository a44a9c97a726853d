-- clock_us(injected): the instant of a decision in microseconds: the Redis
-- server's TIME, or `injected` (the optional last ARGV of every entry) when a
-- test replays an algorithm against a table of instants. The PHP API never
-- passes it; a client that could would only change what is computed for keys
-- it can already write or delete.
local function clock_us(injected)
  if injected then return tonumber(injected) end
  local t = redis.call('TIME')
  return t[1] * 1000000 + t[2]
end
