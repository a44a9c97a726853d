-- clock_us(injected, reads): the instant of a decision in microseconds: the Redis
-- server's TIME, or `injected` (the optional last ARGV of every entry) when a
-- test replays an algorithm against a table of instants. The PHP API never
-- passes it; a client that could would only change what is computed for keys
-- it can already write or delete.
-- `reads` false: no algorithm of the call reads the clock (fixed windows keep
-- theirs in the key's expiry), so 0 without TIME.
local function clock_us(injected, reads)
  if injected then return tonumber(injected) end
  if not reads then return 0 end
  local t = redis.call('TIME')
  return t[1] * 1000000 + t[2]
end
