<?php
// The documentation scripts/stubs.php adds to what Reflection shows. Keep it
// true to API.md; signatures come from the extension itself.
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
        'RateLimiter' => ['doc' => 'Implemented by every limiter class.'],
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
    ],
];
