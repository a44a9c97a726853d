-- Sliding window, counted in slices: a hash of per-slice counters, so memory
-- does not grow with the request count. Slice k covers [k*slice, (k+1)*slice)
-- µs of server time. A decision at `now` counts every slice that overlaps
-- (now - window, now]: slices k >= floor((now - window) / slice). Every request
-- accepted in the last `window` is therefore counted, which keeps "at most
-- limit in ANY interval of window"; the oldest counted slice may reach up to
-- one slice further back, so a request can be denied up to one slice early.
-- Slices that no longer overlap are deleted on every write, so the hash holds
-- at most blocks + 2 (<= 1002) fields. Slice numbers and times are integers
-- below 2^53, passed to redis.call as numbers (Redis prints them in full).
--
-- Key      a hash {slice index -> units accepted in it}
-- a[1]     window, microseconds (integer >= 1000)
-- a[2]     limit (integer >= 1)
-- a[3]     slice, microseconds (integer >= 1000, floor(window / blocks))
ALGORITHMS.sliding_blocks = {
  nargs = 3,
  clock = true,

  check = function(key, a, cost, now)
    local window, limit, slice = a[1], a[2], a[3]
    local oldest = math.floor((now - window) / slice)
    local fields = redis.call('HGETALL', key)
    local d = {counts = {}, used = 0, expired = {}}
    for i = 1, #fields, 2 do
      local k, n = tonumber(fields[i]), tonumber(fields[i + 1])
      if k == nil or n == nil then refuse('a hash that is not a sliding-window counter') end
      if k >= oldest then
        d.counts[#d.counts + 1] = {k, n}
        d.used = d.used + n
        if d.newest == nil or k > d.newest then d.newest = k end
      else
        d.expired[#d.expired + 1] = fields[i]
      end
    end
    d.fits = d.used + cost <= limit
    d.remaining = math.max(limit - d.used, 0)
    return d
  end,

  explain = function(key, a, cost, now, d)
    local window, limit, slice = a[1], a[2], a[3]
    -- Slice k stops overlapping the window once now >= (k + 1) * slice + window.
    local function leaves(k) return (k + 1) * slice + window - now end
    local reset, retry = d.newest and leaves(d.newest) or 0, 0
    if not d.fits then
      -- Drop whole slices, oldest first, until `cost` fits.
      table.sort(d.counts, function(x, y) return x[1] < y[1] end)
      local need, freed = d.used + cost - limit, 0
      for _, c in ipairs(d.counts) do
        freed = freed + c[2]
        if freed >= need then retry = leaves(c[1]); break end
      end
    end
    return reset, retry
  end,

  commit = function(key, a, cost, now, d)
    local window, slice = a[1], a[3]
    local current = math.floor(now / slice)
    redis.call('HINCRBY', key, current, cost)
    if #d.expired > 0 then redis.call('HDEL', key, unpack(d.expired)) end
    -- The key matters until the current slice leaves the window.
    local reset = (current + 1) * slice + window - now
    redis.call('PEXPIRE', key, math.ceil(reset / 1000))
    return d.remaining - cost, reset, 0
  end,
}
