<?php
// An API plan of 10 requests per second AND 1,000 per day per API key, decided
// as one: CompoundRateLimiter checks both limits and takes from both only when
// both accept, in one atomic round trip. A burst that the per-second limit
// turns away does not eat the day's allowance.
// Run: php -d extension=modules/ratelimit.so -d ratelimit.redis_url=redis://127.0.0.1:6379 examples/api_plan.php

$perSecond = new FixedWindowRateLimiter(null, 'plan:second', 1, 10);
$perDay = new TokenBucketRateLimiter(null, 'plan:day', 1000, 1000 / 86400);
// The keys name the two policies in headers('ietf'), each item with its own numbers.
$plan = new CompoundRateLimiter(['second' => $perSecond, 'day' => $perDay]);

$apiKey = 'key-' . getmypid();
$served = $refused = 0;
for ($i = 0; $i < 25; $i++) { // a client bursting 25 requests at once
    $r = $plan->consume($apiKey);
    $r->allowed ? $served++ : $refused++;
    if (!$r->allowed && $refused === 1) {
        printf("first refusal: limit %d (the per-second one), retry after %.2f s\n", $r->limit, $r->retryAfter);
        foreach ($r->headers('ietf') as $name => $value) echo "  $name: $value\n";
    }
}
printf("burst of 25: served %d, refused %d\n", $served, $refused);
printf("the day's allowance lost only what was served: %d of 1000 left\n", $perDay->peek($apiKey)->remaining);
$plan->reset($apiKey);
