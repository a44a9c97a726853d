<?php
// The doc comments scripts/stubs.php adds to what Reflection shows. Every
// declaration (types, defaults, readonly, modifiers) comes from the extension
// itself; only words live here. Keep them true to docs/api.md.
$id = 'binary-safe; the key is ratelimit.key_prefix . $keyPrefix . ":" . $id, or without ":" . $id when empty';
$connection = 'Redis|RedisCluster|array|string|int|float|null';
return [
    'ini' => [
        'ratelimit.redis_url' => 'default connection (null or short form), default "redis://127.0.0.1:6379"',
        'ratelimit.connect_timeout' => 'seconds to open a connection, default 1.0',
        'ratelimit.timeout' => "seconds for one command's reply, default 1.0",
        'ratelimit.on_error' => 'throw|allow|deny|local when Redis fails at call time (local: decided in this process for ratelimit.local_share of the limit), default throw',
        'ratelimit.local_share' => 'with on_error = local: the share of each limit (0..1, rounded down, at least 1) one process admits by itself, default 0.1',
        'ratelimit.retry_interval' => 'seconds a target\'s breaker stays open (its calls get the on_error answer at once) after a call could not reach it, +-20 %, before one call tries it again; 0: no breaker; default 1.0',
        'ratelimit.key_prefix' => 'prepended to every Redis key, read at construction, default ""',
        'ratelimit.block_cache' => 'remember denials in process memory until their retryAfter has passed (no round trip for them), default 0',
        'ratelimit.block_cache_size' => 'entries the block cache holds per process (1..10000000), default 10000',
        'ratelimit.max_connections' => 'Redis connections one process keeps open at most (least recently used closed first), default 64',
        'ratelimit.server_module' => 'auto|off: the server module decides where a server has loaded it (same answers and state), else the Lua library; default auto',
        'ratelimit.dry_run' => 'every limiter without a withDryRun() of its own decides and writes exactly as enforcing would but never denies (RateLimitResult::$wouldDeny says what enforcing would have answered), default 0',
        'ratelimit.metrics' => 'off|local|redis: count decisions per limiter in this process (RateLimitMetrics::local()), and with redis also in Redis inside the decision\'s own call, per minute for an hour (RateLimitMetrics::fleet()); default off',
        'ratelimit.multiplex' => 'auto|off|1..8: the threads of a thread-safe PHP share one connection per target (auto), or 1..8, their commands pipelined; off: a connection per thread in a call; no effect without threads unless a number; default auto',
    ],
    'limiter' => [
        'props' => [
            'remaining' => "The remaining count after this object's last call; null before any and after reset().\nreadonly: PHP code cannot write it; the extension updates it after each call.",
        ],
        'methods' => [
            'isAllowed' => ['doc' => "Takes \$cost units for \$id if they fit; false (and nothing taken) otherwise.\n@param string \$id $id\n@throws RateLimiterException when Redis fails and ratelimit.on_error is throw"],
            'access' => ['doc' => "The same as isAllowed().\n@throws RateLimiterException"],
            'consume' => ['doc' => "Like isAllowed(), with the whole decision.\n@throws RateLimiterException"],
            'peek' => ['doc' => "Would a request of cost 1 be accepted now? Nothing is consumed.\n@throws RateLimiterException"],
            'refund' => ['doc' => "Gives back up to \$units of what \$id used, never past the empty/full state (fixed window: the open window's\ncount falls; sliding log: the newest entries go; blocks: the newest slices fall; token bucket: tokens rise to at\nmost the capacity; leaky bucket: the level falls by units × requestSize; GCRA: the TAT moves back, not before now).\nallowed = true, with the state after it. A CompoundRateLimiter gives back on every member in one call.\n@throws ValueError when \$units < 1\n@throws RateLimiterException"],
            'charge' => ['doc' => "Takes \$units even past the limit: a debt that denies later calls until time pays it off.\nallowed says whether the state is still within the limit after it; retryAfter is then the time until a\ncost of 1 fits again. \$units may be more than the limit (1 to 2^40; an exact sliding log: at most 1,000).\n@throws ValueError\n@throws RateLimiterException"],
            'reset' => ['doc' => "Deletes the key of \$id. Always throws on a Redis failure, whatever ratelimit.on_error says.\n@throws RateLimiterException"],
            'consumeMany' => ['doc' => "consume(\$id, \$cost) for every id of \$ids, in order, in ONE round trip: exactly the answers\nof single calls in that order (repeated ids included), under the same keys. [] answers [] without Redis.\nAt most 1000 ids. ratelimit.on_error answers for an id whose call failed (or for all when Redis is\nunreachable); with throw, the first failure throws after the whole batch ran.\n@param array<array-key, string> \$ids\n@return array<array-key, RateLimitResult>\n@throws RateLimiterException"],
            '__clone' => ['doc' => 'Limiters cannot be cloned (protected and final: `clone` throws an Error).'],
            'withDryRun' => ['doc' => "A copy of this limiter (same connection target, keys, policy and \$remaining; of this object's own class) in dry run,\nor with \$on = false enforcing even when ratelimit.dry_run is 1 (the copy's own choice wins over the setting). This limiter is unchanged.\nIn dry run a limiter decides, writes and is counted exactly as when enforcing (a request it would deny consumes\nnothing), but never denies: isAllowed()/access() answer true, consume() answers allowed = true with wouldDeny = true\nand the real remaining, retryAfter and resetAfter. A CompoundRateLimiter's own choice applies to all its members."],
            'block' => ['doc' => "Lock-out: denies every call for \$id for \$seconds (a longer block already there is kept), on every process:\nconsume() answers allowed = false, remaining 0, retryAfter = resetAfter = the block's time left; peek() shows it;\nnothing is consumed meanwhile. A CompoundRateLimiter blocks the id on every member. The block is a key of its own\nbeside the limiter's, with a TTL of the block. Always throws on a Redis failure, whatever ratelimit.on_error says.\n@throws ValueError when \$seconds is not finite, not above 0 (at least 0.001) or above 10 years\n@throws RateLimiterException"],
            'unblock' => ['doc' => "Ends the block of \$id (block(), withLockout()); its counters stay. Always throws on a Redis failure.\n@throws RateLimiterException"],
            'withLockout' => ['doc' => "A copy of this limiter (as withDryRun() copies; this limiter is unchanged) that blocks an id for \$seconds\nwhenever one of its calls is denied by the policy, in the same atomic call (calls denied by the block itself do\nnot make it longer). Login protection: (new FixedWindowRateLimiter(\$redis, 'login', 900, 5))->withLockout(900).\nA CompoundRateLimiter's applies to every member (a member's own longer lockout is kept).\n@throws ValueError when \$seconds is not finite, not above 0 or above 10 years"],
            '__debugInfo' => ['doc' => "What var_dump() shows: class, keyPrefix (with ratelimit.key_prefix), policy, remaining; never the connection."],
        ],
    ],
    'classes' => [
        'RateLimiterInterface' => ['doc' => 'Implemented by every limiter class.'],
        'RateLimitResult' => [
            'doc' => 'One decision. Its properties are readonly; clone copies them.',
            'props' => [
                'allowed' => 'Whether the request was accepted.',
                'limit' => 'Requests (units) the policy allows.',
                'remaining' => 'Units left after this call.',
                'retryAfter' => "Seconds until this request's cost would fit; 0.0 when allowed.",
                'resetAfter' => 'Seconds until the key is back to its empty/full state.',
                'delay' => 'Leaky bucket: seconds until this accepted request leaks out; else 0.0.',
                'wouldDeny' => 'Dry run (ratelimit.dry_run, withDryRun()): enforcing would have denied this request, which $allowed accepts; remaining, retryAfter and resetAfter are the real decision\'s. False outside dry run.',
                'source' => "What decided: 'redis' (Redis, the Lua library or the server module), 'memory' (a memory:// target), 'cache' (the block cache), 'local' (this process, ratelimit.on_error = local), 'on_error' (an allow/deny answer) or 'lease' (this process's lease, withLease()).",
            ],
            'methods' => [
                '__construct' => ['doc' => "A decision built by PHP code, e.g. for a test double of a limiter.\n@throws ValueError when \$limit < 1, \$remaining is not within 0..\$limit, a time is negative or not finite,\nor \$wouldDeny is true with \$allowed false, or \$source is not one of 'redis', 'memory', 'cache', 'local', 'on_error'"],
                'headers' => ['doc' => "The rate-limit header fields of this decision, by \$style:\n'x': X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset (seconds from now, rounded up);\n'ietf': RateLimit-Policy (\"default\";q=<limit>) and RateLimit (\"default\";r=<remaining>;t=<seconds to reset>)\nof draft-ietf-httpapi-ratelimit-headers-09; a CompoundRateLimiter's result has one item per member, each its own\nq, r and t, named by the member's key in \$limiters (\"0\";q=3, \"1\";q=10).\nBoth add Retry-After (whole seconds, at least 1) when denied.\n@param 'x'|'ietf' \$style\n@return array<string, int|string>\n@throws ValueError for any other \$style"],
            ],
        ],
        'CompoundRateLimiter' => [
            'doc' => "Several limiters (1 to 16, any classes, one connection target, distinct key prefixes) decided as one:\na call is accepted only when every member accepts, and then every member takes it, in one atomic\nscript; when one denies, none takes anything. The result is the most restrictive: allowed = all\nallowed; limit and remaining of the member with the least remaining; retryAfter the largest among\nthe denying members; resetAfter the largest; delay the largest (leaky bucket members).",
            'methods' => [
                '__construct' => ['doc' => "@param array<array-key, RateLimiterInterface> \$limiters limiter objects of this extension (not compounds); their\nkeys name them in headers('ietf') (0, 1, ... for a list)\n@throws ValueError|TypeError"],
            ],
        ],
        'RateLimiterException' => ['doc' => 'Redis unreachable, timed out, refused or answered with an error.'],
        'RateLimitMetrics' => [
            'doc' => "Decision counters per limiter (its key prefix; a CompoundRateLimiter's members' prefixes joined by '+'),\nkept when ratelimit.metrics is local or redis: allowed, denied, would_deny (dry run), errors (Redis failures),\non_error (errors answered by ratelimit.on_error), block_cache (denials answered from the block cache).\nEvery consume (isAllowed, access, consume, each id of consumeMany, throttle, refund, charge, reserve) is exactly one of allowed,\ndenied, would_deny or errors; peek() and reset() are not counted. See docs/operations.md.",
            'methods' => [
                'local' => ['doc' => "This process's counters (limiters with no decision left out).\n@return array<string, array{allowed: int, denied: int, would_deny: int, errors: int, on_error: int, block_cache: int}>"],
                'sources' => ['doc' => "This process's answers by what gave them, per limiter (limiters with no answer left out); counted when ratelimit.metrics is local or redis.\n@return array<string, array{redis: int, memory: int, cache: int, local: int, on_error: int, lease: int}>"],
                'leases' => ['doc' => "What leases (withLease()) did in this process, per limiter: units leased (taken into leases), returned (given back:\na refund, or the key deleted by reset()), expired (void without going back: a fixed window's lease whose window ended,\na give-back that failed), held (in leases now, every thread). Counted whatever ratelimit.metrics says.\n@return array<string, array{leased: int, returned: int, expired: int, held: int}>"],
                'breakers' => ['doc' => "Each Redis target's breaker in this process, by target (its DSN without a password): closed or open, seconds it stays open,\ntimes it opened, calls it refused, the failure that opened it, keys decided locally (ratelimit.on_error = local).\n@return array<string, array{state: 'closed'|'open', open_for: float, opens: int, refused: int, cause: string, local_keys: int}>"],
                'fleet' => ['doc' => "Every process's counters over the last \$minutes minutes (1..60, the current one included; the server's clock),\nas ratelimit.metrics = redis kept them in Redis, under the current ratelimit.key_prefix. A Redis Cluster's\ncounters are read from every master.\n@param Redis|RedisCluster|array|string|null \$connection any connection a limiter takes; null: ratelimit.redis_url\n@return array<string, array{allowed: int, denied: int, would_deny: int, errors: int, on_error: int, block_cache: int}>\n@throws RateLimiterException|ValueError"],
                'prometheus' => ['doc' => "\$counters (what local() or fleet() returned) in the Prometheus text exposition format.\n\$minutes = 0: local()'s counts as counters: ratelimit_decisions_total{limiter, outcome = allowed|denied|would_deny|error},\nratelimit_on_error_answers_total{limiter}, ratelimit_block_cache_answers_total{limiter};\n\$minutes = 1..60: fleet(\$connection, \$minutes)'s as gauges: ratelimit_recent_decisions{limiter, outcome, minutes}, and so on.\n@throws TypeError|ValueError"],
            ],
        ],
        'FixedWindowRateLimiter' => [
            'doc' => "At most \$limit requests per window; a window opens at the key's first accepted request.",
            'methods' => [
                'withAnchor' => ['doc' => "A copy (of this object's own class, on the same keys; this limiter is unchanged) whose windows start at\n\$anchor + k × \$window (Unix seconds, or a DateTimeInterface, to the ms) on the Redis server's clock, not at a\nkey's first request. resetAfter/retryAfter: the time to the window's end.\n@throws ValueError when \$anchor is not finite or not from 1970 to 2112, or this limiter's windows are calendar units"],
                'withCalendar' => ['doc' => "A copy (as withAnchor()) whose every window is one calendar \$unit in \$timeZone: 'hour', 'day', 'week'\n(ISO, from Monday) or 'month', DST changes and month lengths included (a tz database compiled into the\nextension); \$window is unused. Decided on the Redis server's clock. resetAfter/retryAfter: the time to the window's end.\n@param 'hour'|'day'|'week'|'month' \$unit\n@throws ValueError for another \$unit or an unknown \$timeZone"],
                'withLease' => ['doc' => "A copy of this limiter (same target, keys, policy and \$remaining; this object's own class) whose consumes are\nanswered from a lease: one atomic call takes up to \$units at once (never more than is there, at most a quarter of\nwhat is left, at least the call's cost), and the calls after it spend them in this process (per thread) without a\nround trip (RateLimitResult::\$source 'lease'). What is left goes back (a refund) when the lease is older than\n\$maxAge seconds (at the limiter's next call and at the request's end), on reset(), and when the thread or process\nends; a fixed window's lease ends with its window. Units admitted across all processes never exceed the limit; a\ncall may be denied while other processes hold unused units, at most the units leased. See docs/leases.md.\n@throws ValueError for \$units below 1 or a \$maxAge not above 0 or not finite"],
                '__construct' => [
                    'doc' => "Long form: (\$connection, string \$keyPrefix, float \$window, int \$limit)\nShort form: (string \$key, float \$window, int \$limit) on ratelimit.redis_url\nThe parameters carry the long form's names (named arguments use them); in the short form a position\nmeans what its @param says after 'short form:'.\n@param $connection \$connection long form: the connection; short form: string \$key, the key prefix on the default connection\n@param string|float \$keyPrefix long form: the key prefix; short form: float \$window, seconds\n@param int|float|null \$window long form: float \$window, seconds; short form: int \$limit, requests per window\n@param ?int \$limit long form: int \$limit, requests per window; short form: not used",
                ],
            ],
        ],
        'SlidingWindowRateLimiter' => [
            'doc' => "At most \$maxRequests in ANY interval of \$windowSize seconds.\nblocks = 0: an exact log (sorted set); blocks > 0: a counter per windowSize/blocks slice, memory independent of traffic (may deny up to one slice early).",
            'methods' => [
                '__construct' => [
                    'doc' => "Long form: (\$connection, string \$keyPrefix, float \$windowSize, int \$maxRequests, ?int \$blocks = 0)\nShort form: (string \$key, float \$window, int \$limit, ?int \$blocks = 0) on ratelimit.redis_url\nThe parameters carry the long form's names (named arguments use them); in the short form a position\nmeans what its @param says after 'short form:'.\n@param $connection \$connection long form: the connection; short form: string \$key, the key prefix on the default connection\n@param string|float \$keyPrefix long form: the key prefix; short form: float \$window, seconds\n@param int|float|null \$windowSize long form: float \$windowSize, seconds; short form: int \$limit, requests in any window\n@param ?int \$maxRequests long form: int \$maxRequests, requests in any window; short form: ?int \$blocks (null or 0: an exact log)\n@param ?int \$blocks long form: slices per window (null or 0: an exact log); short form: not used",
                ],
            ],
        ],
        'TokenBucketRateLimiter' => [
            'doc' => "Starts full with \$capacity tokens, refills continuously at \$refillRate tokens per second; a request takes \$cost tokens.",
            'methods' => [
                'withLease' => ['doc' => "A copy of this limiter (same target, keys, policy and \$remaining; this object's own class) whose consumes are\nanswered from a lease: one atomic call takes up to \$units at once (never more than is there, at most a quarter of\nwhat is left, at least the call's cost), and the calls after it spend them in this process (per thread) without a\nround trip (RateLimitResult::\$source 'lease'). What is left goes back (a refund) when the lease is older than\n\$maxAge seconds (at the limiter's next call and at the request's end), on reset(), and when the thread or process\nends; a fixed window's lease ends with its window. Units admitted across all processes never exceed the limit; a\ncall may be denied while other processes hold unused units, at most the units leased. See docs/leases.md.\n@throws ValueError for \$units below 1 or a \$maxAge not above 0 or not finite"],
                'reserve' => ['doc' => "Books \$cost now, to be used after the result's delay seconds, when that delay is at most \$maxWait\n(allowed = true); otherwise books nothing: allowed = false and retryAfter is the wait \$cost would need now.\nBookings are served in the order made: a later consume() or reserve() cannot take booked units.\n@throws ValueError for a bad \$cost or a \$maxWait below 0\n@throws RateLimiterException"],
                '__construct' => [
                    'doc' => "Long form: (\$connection, string \$keyPrefix, int \$capacity, float \$refillRate)\nShort form: (string \$key, float \$rate, int \$capacity) on ratelimit.redis_url\nThe parameters carry the long form's names (named arguments use them); in the short form a position\nmeans what its @param says after 'short form:'. The buckets' two forms swap rate and capacity.\n@param $connection \$connection long form: the connection; short form: string \$key, the key prefix on the default connection\n@param string|float \$keyPrefix long form: the key prefix; short form: float \$rate, tokens refilled per second\n@param ?int \$capacity long form: int \$capacity, tokens when full; short form: int \$capacity, tokens when full\n@param ?float \$refillRate long form: float \$refillRate, tokens refilled per second; short form: not used",
                ],
            ],
        ],
        'LeakyBucketRateLimiter' => [
            'doc' => "The level rises by cost × \$requestSize and drains at \$leakRate units per second; an accepted request's \$delay is the level before it / leakRate.",
            'methods' => [
                'reserve' => ['doc' => "Books \$cost now, to be used after the result's delay seconds, when that delay is at most \$maxWait\n(allowed = true); otherwise books nothing: allowed = false and retryAfter is the wait \$cost would need now.\nBookings are served in the order made: a later consume() or reserve() cannot take booked units.\n@throws ValueError for a bad \$cost or a \$maxWait below 0\n@throws RateLimiterException"],
                '__construct' => [
                    'doc' => "Long form: (\$connection, string \$keyPrefix, int \$bucketCapacity, float \$leakRate, ?int \$requestSize = 1)\nShort form: (string \$key, float \$rate, int \$capacity) on ratelimit.redis_url\nThe parameters carry the long form's names (named arguments use them); in the short form a position\nmeans what its @param says after 'short form:'. The buckets' two forms swap rate and capacity.\n@param $connection \$connection long form: the connection; short form: string \$key, the key prefix on the default connection\n@param string|float \$keyPrefix long form: the key prefix; short form: float \$rate, units leaked per second\n@param ?int \$bucketCapacity long form: int \$bucketCapacity, units; short form: int \$capacity, units\n@param ?float \$leakRate long form: float \$leakRate, units leaked per second; short form: not used\n@param ?int \$requestSize long form: units one request of cost 1 takes (null: 1); short form: not used",
                ],
            ],
        ],
        'GcraRateLimiter' => [
            'doc' => "GCRA with redis-cell's semantics: \$count per \$period seconds, bursts of \$maxBurst + 1.",
            'methods' => [
                'withLease' => ['doc' => "A copy of this limiter (same target, keys, policy and \$remaining; this object's own class) whose consumes are\nanswered from a lease: one atomic call takes up to \$units at once (never more than is there, at most a quarter of\nwhat is left, at least the call's cost), and the calls after it spend them in this process (per thread) without a\nround trip (RateLimitResult::\$source 'lease'). What is left goes back (a refund) when the lease is older than\n\$maxAge seconds (at the limiter's next call and at the request's end), on reset(), and when the thread or process\nends; a fixed window's lease ends with its window. Units admitted across all processes never exceed the limit; a\ncall may be denied while other processes hold unused units, at most the units leased. See docs/leases.md.\n@throws ValueError for \$units below 1 or a \$maxAge not above 0 or not finite"],
                '__construct' => [
                    'doc' => "Long form: (\$connection, string \$keyPrefix, int \$maxBurst, int \$count, float \$period)\nShort form: (string \$key, int \$maxBurst, int \$count, float \$period) on ratelimit.redis_url\nThe parameters carry the long form's names (named arguments use them); in the short form a position\nmeans what its @param says after 'short form:'.\n@param $connection \$connection long form: the connection; short form: string \$key, the key prefix on the default connection\n@param string|int \$keyPrefix long form: the key prefix; short form: int \$maxBurst, requests beyond the first in a burst\n@param ?int \$maxBurst long form: int \$maxBurst, requests beyond the first in a burst; short form: int \$count, requests per period\n@param int|float|null \$count long form: int \$count, requests per period; short form: float \$period, seconds\n@param ?float \$period long form: float \$period, seconds; short form: not used",
                ],
                'reserve' => ['doc' => "Books \$cost now, to be used after the result's delay seconds, when that delay is at most \$maxWait\n(allowed = true); otherwise books nothing: allowed = false and retryAfter is the wait \$cost would need now.\nBookings are served in the order made: a later consume() or reserve() cannot take booked units.\n@throws ValueError for a bad \$cost or a \$maxWait below 0\n@throws RateLimiterException"],
                'throttle' => ['doc' => "Exactly what redis-cell's CL.THROTTLE key maxBurst count period quantity returns:\n[limited (0|1), limit (maxBurst + 1), remaining, retryAfter (whole s, -1 when allowed), resetAfter (whole s)].\nquantity 0 peeks.\n@return array{0: int, 1: int, 2: int, 3: int, 4: int}\n@throws RateLimiterException"],
            ],
        ],
        'ConcurrencyLimiter' => [
            'doc' => "An in-flight limit: at most \$max permits per id at once, each a lease of \$ttl seconds on the Redis server's clock.\nA permit is freed by release(), when it is destroyed, and at the end of the request whatever ended it;\na process killed outright loses its permits when their leases end.",
            'methods' => [
                '__construct' => [
                    'doc' => "Long form: (\$connection, string \$keyPrefix, int \$max, float \$ttl)\nShort form: (string \$key, int \$max, float \$ttl) on ratelimit.redis_url\n@param $connection \$connection long form: the connection; short form: string \$key, the key prefix on the default connection\n@param string|int \$keyPrefix long form: the key prefix; short form: int \$max, permits at once\n@param int|float \$max long form: int \$max, permits at once; short form: float \$ttl, a permit's lease in seconds\n@param int|float|null \$ttl long form: float \$ttl, a permit's lease in seconds; short form: not used",
                ],
                'acquire' => ['doc' => "One of \$max slots of \$id, waiting up to \$maxWait seconds for one to free (woken by a release,\nwaiters served in the order they came); null when none frees in time.\nDry run: always a permit, wouldDeny saying what enforcing would have answered.\n@throws RateLimiterException"],
                'inFlight' => ['doc' => "Permits held now for \$id.\n@throws RateLimiterException"],
                'reset' => ['doc' => "Deletes the permits of \$id: every slot free again. Always throws on a Redis failure, whatever ratelimit.on_error says.\n@throws RateLimiterException"],
            ],
        ],
        'ConcurrencyPermit' => [
            'doc' => "One slot of a ConcurrencyLimiter, made by acquire() only.",
            'props' => [
                'id' => 'The id the permit was acquired for.',
                'remaining' => 'Slots left for the id when the permit was granted.',
                'wouldDeny' => 'Dry run: enforcing would have answered null (such a permit holds no slot). False otherwise.',
            ],
            'methods' => [
                'release' => ['doc' => "Frees the slot now (a second call, or the request's end after it, frees nothing).\n@throws RateLimiterException"],
                'renew' => ['doc' => "The lease again \$ttl seconds from now. Throws when the permit was released or its lease had ended.\n@throws RateLimiterException"],
                'expiresIn' => ['doc' => 'Seconds until the lease ends; 0.0 once released.'],
            ],
        ],
    ],
];
