<?php
// The documentation scripts/stubs.php adds to what Reflection shows. Keep it
// true to docs/api.md; signatures come from the extension itself.
$id = 'binary-safe; the key is ratelimit.key_prefix . $keyPrefix . ":" . $id, or without ":" . $id when empty';
$connection = 'Redis|array|string|null';
return [
    'ini' => [
        'ratelimit.redis_url' => 'default connection (null or short form), default "redis://127.0.0.1:6379"',
        'ratelimit.connect_timeout' => 'seconds to open a connection, default 1.0',
        'ratelimit.timeout' => "seconds for one command's reply, default 1.0",
        'ratelimit.on_error' => 'throw|allow|deny when Redis fails at call time, default throw',
        'ratelimit.key_prefix' => 'prepended to every Redis key, read at construction, default ""',
    ],
    'limiter' => [
        'props' => [
            'remaining' => ['?int', "The remaining count after this object's last call; null before any and after reset()."],
        ],
        'methods' => [
            'isAllowed' => ['doc' => "Takes \$cost units for \$id if they fit; false (and nothing taken) otherwise.\n@param string \$id $id\n@throws RateLimiterException when Redis fails and ratelimit.on_error is throw"],
            'access' => ['doc' => "The same as isAllowed().\n@throws RateLimiterException"],
            'consume' => ['doc' => "Like isAllowed(), with the whole decision.\n@throws RateLimiterException"],
            'peek' => ['doc' => "Would a request of cost 1 be accepted now? Nothing is consumed.\n@throws RateLimiterException"],
            'reset' => ['doc' => "Deletes the key of \$id. Always throws on a Redis failure, whatever ratelimit.on_error says.\n@throws RateLimiterException"],
        ],
    ],
    'classes' => [
        'RateLimiterInterface' => ['doc' => 'Implemented by every limiter class.'],
        'RateLimitResult' => [
            'doc' => 'One decision. Its properties cannot be written.',
            'props' => [
                'allowed' => ['bool', 'Whether the request was accepted.'],
                'limit' => ['int', 'Requests (units) the policy allows.'],
                'remaining' => ['int', 'Units left after this call.'],
                'retryAfter' => ['float', "Seconds until this request's cost would fit; 0.0 when allowed."],
                'resetAfter' => ['float', 'Seconds until the key is back to its empty/full state.'],
                'delay' => ['float', 'Leaky bucket: seconds until this accepted request leaks out; else 0.0.'],
            ],
            'methods' => [
                'headers' => ['doc' => "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset (seconds from now, rounded up)\nand, when denied, Retry-After (whole seconds, at least 1).\n@return array<string, int>"],
            ],
        ],
        'RateLimiterException' => ['doc' => 'Redis unreachable, timed out, refused or answered with an error.'],
        'FixedWindowRateLimiter' => [
            'doc' => "At most \$limit requests per window; a window opens at the key's first accepted request.",
            'methods' => [
                '__construct' => [
                    'doc' => "Long form: (\$connection, string \$keyPrefix, float \$window, int \$limit)\nShort form: (string \$key, float \$window, int \$limit) on ratelimit.redis_url\n@param $connection \$connection the connection, or the key in the short form\n@param string|float \$keyPrefix the key prefix, or the window in the short form",
                    'types' => ['connection' => 'mixed', 'keyPrefix' => 'string|float|int', 'window' => 'float|int|null', 'limit' => 'int|null'],
                ],
            ],
        ],
        'SlidingWindowRateLimiter' => [
            'doc' => "At most \$maxRequests in ANY interval of \$windowSize seconds.\nblocks = 0: an exact log (sorted set); blocks > 0: a counter per windowSize/blocks slice, memory independent of traffic (may deny up to one slice early).",
            'methods' => [
                '__construct' => [
                    'doc' => "Long form: (\$connection, string \$keyPrefix, float \$windowSize, int \$maxRequests, int \$blocks = 0)\nShort form: (string \$key, float \$window, int \$limit, int \$blocks = 0) on ratelimit.redis_url\n@param $connection \$connection the connection, or the key in the short form",
                    'types' => ['connection' => 'mixed', 'keyPrefix' => 'string|float|int', 'windowSize' => 'float|int|null', 'maxRequests' => 'int|null', 'blocks' => 'int|null'],
                ],
            ],
        ],
        'TokenBucketRateLimiter' => [
            'doc' => "Starts full with \$capacity tokens, refills continuously at \$refillRate tokens per second; a request takes \$cost tokens.",
            'methods' => [
                '__construct' => [
                    'doc' => "Long form: (\$connection, string \$keyPrefix, int \$capacity, float \$refillRate)\nShort form: (string \$key, float \$rate, int \$capacity) on ratelimit.redis_url\n@param $connection \$connection the connection, or the key in the short form",
                    'types' => ['connection' => 'mixed', 'keyPrefix' => 'string|float|int', 'capacity' => 'int|float|null', 'refillRate' => 'float|int|null'],
                ],
            ],
        ],
        'LeakyBucketRateLimiter' => [
            'doc' => "The level rises by cost × \$requestSize and drains at \$leakRate units per second; an accepted request's \$delay is the level before it / leakRate.",
            'methods' => [
                '__construct' => [
                    'doc' => "Long form: (\$connection, string \$keyPrefix, int \$bucketCapacity, float \$leakRate, int \$requestSize = 1)\nShort form: (string \$key, float \$rate, int \$capacity) on ratelimit.redis_url\n@param $connection \$connection the connection, or the key in the short form",
                    'types' => ['connection' => 'mixed', 'keyPrefix' => 'string|float|int', 'bucketCapacity' => 'int|float|null', 'leakRate' => 'float|int|null', 'requestSize' => 'int|null'],
                ],
            ],
        ],
        'GcraRateLimiter' => [
            'doc' => "GCRA with redis-cell's semantics: \$count per \$period seconds, bursts of \$maxBurst + 1.",
            'methods' => [
                '__construct' => [
                    'doc' => "Long form: (\$connection, string \$keyPrefix, int \$maxBurst, int \$count, float \$period)\nShort form: (string \$key, int \$maxBurst, int \$count, float \$period) on ratelimit.redis_url\n@param $connection \$connection the connection, or the key in the short form",
                    'types' => ['connection' => 'mixed', 'keyPrefix' => 'string|int', 'maxBurst' => 'int|null', 'count' => 'int|float|null', 'period' => 'float|int|null'],
                ],
                'throttle' => ['doc' => "Exactly what redis-cell's CL.THROTTLE key maxBurst count period quantity returns:\n[limited (0|1), limit (maxBurst + 1), remaining, retryAfter (whole s, -1 when allowed), resetAfter (whole s)].\nquantity 0 peeks.\n@return array{0: int, 1: int, 2: int, 3: int, 4: int}\n@throws RateLimiterException"],
            ],
        ],
    ],
];
