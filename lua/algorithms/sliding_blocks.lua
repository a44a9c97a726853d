-- Sliding window, counted in slices: a hash of per-slice counters, so memory
-- does not grow with the request count. Slice k covers [k*slice, (k+1)*slice)
-- µs of server time. A decision at `now` counts every slice that overlaps
-- (now - window, now]: slices k >= floor((now - window) / slice). Every request
-- accepted in the last `window` is therefore counted, which keeps "at most
-- limit in ANY interval of window"; the oldest counted slice may reach up to
-- one slice further back, so a request can be denied up to one slice early.
-- Slices that no longer overlap are deleted on every write, so the hash holds
-- at most blocks + 2 (<= 1002) fields. Slice numbers and times are integers
-- below 2^53, passed to redis.call as decimal strings (int(), int_often(),
-- library.lua).
--
-- Key      a hash {slice index -> units accepted in it}
-- argv     window in µs (integer >= 1000), limit (integer >= 1), slice in µs
--          (integer >= 1000, floor(window / blocks))
-- State    s1 = units counted, s2 = the hash as HGETALL read it, s3 = the
--          fields of slices that left the window (nil when none)
ALGORITHMS.sliding_blocks = {
  nargs = 3,
  clock = true,

  check = function(key, argv, i, cost, now)
    local limit, slice = num(argv[i + 2]), num(argv[i + 3])
    local oldest = math.floor((now - num(argv[i + 1])) / slice)
    local fields = redis.call('HGETALL', key)
    local used, expired = 0, nil
    -- The field a commit adds to: HINCRBY refuses it unless it holds an
    -- integer, so that is refused here, before any member of a compound writes.
    local current = int_often(math.floor(now / slice))
    for f = 1, #fields, 2 do
      local k, n = num(fields[f]), tonumber(fields[f + 1])
      if k == nil or n == nil then refuse('a hash that is not a sliding-window counter') end
      if fields[f] == current and not is_counter(fields[f + 1], n) then error({err = 'ERR hash value is not an integer'}) end
      if k >= oldest then
        used = used + n
      else
        expired = expired or {}
        expired[#expired + 1] = fields[f]
      end
    end
    local remaining = limit - used
    if remaining < 0 then remaining = 0 end
    return used + cost <= limit, remaining, used, fields, expired
  end,

  explain = function(key, argv, i, cost, now, used, fields)
    local window, limit, slice = num(argv[i + 1]), num(argv[i + 2]), num(argv[i + 3])
    local oldest = math.floor((now - window) / slice)
    -- Slice k stops overlapping the window once now >= (k + 1) * slice + window.
    local function leaves(k) return (k + 1) * slice + window - now end
    local counts, newest = {}, nil
    for f = 1, #fields, 2 do
      local k = num(fields[f])
      if k >= oldest then
        counts[#counts + 1] = {k, tonumber(fields[f + 1])}
        if newest == nil or k > newest then newest = k end
      end
    end
    local reset, retry = newest and leaves(newest) or 0, 0
    if used + cost > limit then
      -- Drop whole slices, oldest first, until `cost` fits.
      table.sort(counts, function(x, y) return x[1] < y[1] end)
      local need, freed = used + cost - limit, 0
      for _, c in ipairs(counts) do
        freed = freed + c[2]
        if freed >= need then retry = leaves(c[1]); break end
      end
    end
    return reset, retry
  end,

  commit = function(key, argv, i, cost, now, used, fields, expired)
    local window, slice = num(argv[i + 1]), num(argv[i + 3])
    local current = math.floor(now / slice)
    redis.call('HINCRBY', key, int_often(current), int_often(cost))
    if expired then redis.call('HDEL', key, unpack(expired)) end
    -- The key matters until the current slice leaves the window.
    local reset = (current + 1) * slice + window - now
    redis.call('PEXPIRE', key, int(math.ceil(reset / 1000)))
    return num(argv[i + 2]) - used - cost, reset, 0
  end,

  -- refund and charge (entries.lua's adjust; core/src/sliding_blocks.rs
  -- mirrors them). A refund lowers the newest slices first (only those
  -- holding counters above 0); a slice that reaches 0 is deleted.
  refund = function(key, argv, i, units, now, used, fields)
    local window, limit, slice = num(argv[i + 1]), num(argv[i + 2]), num(argv[i + 3])
    local oldest = math.floor((now - window) / slice)
    local slices = {}
    for f = 1, #fields, 2 do
      local k, n = num(fields[f]), tonumber(fields[f + 1])
      if k >= oldest and n > 0 and is_counter(fields[f + 1], n) then slices[#slices + 1] = {k, n, fields[f]} end
    end
    table.sort(slices, function(x, y) return x[1] > y[1] end)
    local left, emptied, gone, lowered, by = units, {}, {}, nil, 0
    for _, s in ipairs(slices) do
      if left <= 0 then break end
      if s[2] <= left then
        left = left - s[2]
        emptied[#emptied + 1] = s[3]
        gone[s[1]] = true
      else
        lowered, by, left = s[3], left, 0
      end
    end
    if #emptied > 0 then redis.call('HDEL', key, unpack(emptied)) end
    if lowered then redis.call('HINCRBY', key, lowered, int(-by)) end
    local newest = nil
    for f = 1, #fields, 2 do
      local k = num(fields[f])
      if k >= oldest and not gone[k] and (newest == nil or k > newest) then newest = k end
    end
    local reset = 0
    if newest then reset = (newest + 1) * slice + window - now end
    return math.max(limit - used + units - left, 0), reset
  end,

  -- Only for units that do not fit: commit's writes; a cost of 1 fits once
  -- enough of the oldest slices (this call's units in the current one) left.
  charge = function(key, argv, i, units, now, used, fields, expired)
    local window, limit, slice = num(argv[i + 1]), num(argv[i + 2]), num(argv[i + 3])
    local oldest = math.floor((now - window) / slice)
    local counts = {}
    for f = 1, #fields, 2 do
      local k = num(fields[f])
      if k >= oldest then counts[#counts + 1] = {k, tonumber(fields[f + 1])} end
    end
    counts[#counts + 1] = {math.floor(now / slice), units}
    table.sort(counts, function(x, y) return x[1] < y[1] end)
    local need, freed, retry = used + units + 1 - limit, 0, 0
    for _, c in ipairs(counts) do
      freed = freed + c[2]
      if freed >= need then retry = (c[1] + 1) * slice + window - now; break end
    end
    local _, reset = ALGORITHMS.sliding_blocks.commit(key, argv, i, units, now, used, fields, expired)
    return 0, reset, retry
  end,
}
