-- Sliding window, counted in slices: a hash of per-slice counters, so memory
-- does not grow with the request count. Slice k covers [k*slice, (k+1)*slice)
-- µs of server time. A decision at `now` counts every slice that overlaps
-- (now - window, now]: slices k >= floor((now - window) / slice). Every request
-- accepted in the last `window` is therefore counted, which keeps "at most
-- limit in ANY interval of window"; the oldest counted slice may reach up to
-- one slice further back, so a request can be denied up to one slice early.
-- Slices that no longer overlap are deleted on every write, so the hash holds
-- at most blocks + 2 (<= 1002) fields. Denied requests and peeks write
-- nothing; the first write of an accepted request is HINCRBY, which Redis
-- refuses when it is out of memory. Slice numbers and times are integers
-- below 2^53, passed to redis.call as numbers (Redis prints them in full).
--
-- KEYS[1]  the limiter key: a hash {slice index -> units accepted in it}
-- ARGV[1]  window, microseconds (integer >= 1000)
-- ARGV[2]  limit (integer >= 1)
-- ARGV[3]  slice, microseconds (integer >= 1000, floor(window / blocks))
-- ARGV[4]  cost (integer, 1..limit)
-- ARGV[5]  "1" = peek (decide for cost 1, write nothing), "0" = consume
-- ARGV[6]  optional: now in µs instead of TIME (tests only, see clock.lua)
-- Reply    {remaining, reset_after_us} when allowed,
--          {remaining, reset_after_us, retry_after_us >= 1} when denied
local key = KEYS[1]
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local slice = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
local now = clock_us(ARGV[6])
local current = math.floor(now / slice)
local oldest = math.floor((now - window) / slice)

-- Slice k stops overlapping the window once now >= (k + 1) * slice + window.
local function leaves(k) return (k + 1) * slice + window - now end

local fields = redis.call('HGETALL', key)
local counts, used, expired, newest = {}, 0, {}, nil
for i = 1, #fields, 2 do
  local k, n = tonumber(fields[i]), tonumber(fields[i + 1])
  if k == nil or n == nil then
    return redis.error_reply('ERR ratelimit: the key holds a hash that is not a sliding-window counter')
  end
  if k >= oldest then
    counts[#counts + 1] = {k, n}
    used = used + n
    if newest == nil or k > newest then newest = k end
  else
    expired[#expired + 1] = fields[i]
  end
end

if used + cost > limit then
  -- Drop whole slices, oldest first, until `cost` fits.
  table.sort(counts, function(a, b) return a[1] < b[1] end)
  local need, freed, at = used + cost - limit, 0, 0
  for _, c in ipairs(counts) do
    freed = freed + c[2]
    if freed >= need then at = leaves(c[1]); break end
  end
  return {limit - used, leaves(newest), math.max(at, 1)}
end
if ARGV[5] == '1' then
  return {limit - used, newest and leaves(newest) or 0}
end

redis.call('HINCRBY', key, current, cost)
if #expired > 0 then redis.call('HDEL', key, unpack(expired)) end
-- The key matters until the current slice leaves the window.
local reset = leaves(current)
redis.call('PEXPIRE', key, math.ceil(reset / 1000))
return {limit - used - cost, reset}
