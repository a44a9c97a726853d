<?php
// An LLM API that bills by tokens: each API key may spend 20,000 tokens per
// minute AND 200,000 per day, one CompoundRateLimiter deciding both at once.
// The real cost of a completion is known only after it: take an estimate
// before calling the model, then settle the difference, in one atomic call
// each: refund() what the completion did not use, charge() what it used
// beyond the estimate (a debt that later requests wait out, even past the
// limit: the tokens were spent).
// Run: php -d extension=modules/ratelimit.so -d ratelimit.redis_url=redis://127.0.0.1:6379 examples/llm_token_budget.php

$perMinute = new TokenBucketRateLimiter(null, 'llm:minute', 20000, 20000 / 60);
$perDay = new FixedWindowRateLimiter(null, 'llm:day', 86400, 200000);
$budget = new CompoundRateLimiter(['minute' => $perMinute, 'day' => $perDay]);

$apiKey = 'key-' . getmypid();

/** Runs one completion of at most $maxTokens, settling what it really used. */
function complete(CompoundRateLimiter $budget, string $apiKey, int $maxTokens, int $used): string
{
    $taken = $budget->consume($apiKey, $maxTokens);      // the estimate, before the work
    if (!$taken->allowed) {
        return sprintf('refused: retry in %.1f s', $taken->retryAfter);
    }
    // ... the model runs here and reports $used tokens ...
    if ($used < $maxTokens) {
        $after = $budget->refund($apiKey, $maxTokens - $used);
        return sprintf('estimated %d, used %d: refunded %d, %d left this minute', $maxTokens, $used, $maxTokens - $used, $after->remaining);
    }
    if ($used > $maxTokens) {
        $after = $budget->charge($apiKey, $used - $maxTokens);
        return sprintf('estimated %d, used %d: charged %d more, %s', $maxTokens, $used, $used - $maxTokens,
            $after->allowed ? "{$after->remaining} left this minute" : sprintf('over budget: next request in %.0f s', $after->retryAfter));
    }
    return sprintf('estimated %d, used %d: settled', $maxTokens, $used);
}

echo complete($budget, $apiKey, 8000, 1500), "\n";    // a short answer: most of the estimate comes back
echo complete($budget, $apiKey, 8000, 8000), "\n";
echo complete($budget, $apiKey, 8000, 12000), "\n";   // a long one: the extra is charged
echo complete($budget, $apiKey, 8000, 100), "\n";     // the minute's budget is spent: refused, nothing taken
printf("the day's budget lost exactly what was used: %d of 200000 left\n", $perDay->peek($apiKey)->remaining);
$budget->reset($apiKey);
