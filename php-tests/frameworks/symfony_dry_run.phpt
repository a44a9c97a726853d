--TEST--
Symfony adapter: the factory option dry_run makes every limiter decide and count as enforcing but accept everything (the remaining tokens are the real ones, reserve() does not wait, headers are an accepted request's); an enforcing factory on the same id then finds the state the dry run left; ratelimit.metrics counts would_deny
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
ratelimit.metrics=local
--FILE--
<?php
require __DIR__ . '/../config.inc';
require_once '/usr/share/php/Symfony/Component/RateLimiter/autoload.php';
require_once __DIR__ . '/../../integrations/symfony/autoload.php';

use RateLimit\Symfony\ExtensionRateLimiterFactory;

foreach (['fixed_window', 'sliding_window', 'token_bucket'] as $policy) {
    $id = rl_prefix($policy);
    $config = ['id' => $id, 'policy' => $policy, 'limit' => 2, 'interval' => '1 hour', 'rate' => ['interval' => '1 hour', 'amount' => 2]];
    $dry = (new ExtensionRateLimiterFactory($config + ['dry_run' => true], RL_URL))->create('c');
    $seen = [];
    for ($i = 0; $i < 4; $i++) {
        $limit = $dry->consume();
        $seen[] = ($limit->isAccepted() ? 'Y' : 'n') . $limit->getRemainingTokens();
    }
    // (Symfony's own sliding window has no reserve() before 7.x: the adapter follows the installed one.)
    $start = microtime(true);
    if ($policy !== 'sliding_window') $dry->reserve(1, 0.0);
    $waited = microtime(true) - $start < 0.5;
    $headers = implode(',', array_keys($dry->headers()));
    $enforcing = (new ExtensionRateLimiterFactory($config, RL_URL))->create('c')->consume();
    printf("%-14s dry run %s, reserve() without waiting %s, headers %s; enforcing now: %s\n", $policy, implode(' ', $seen), json_encode($waited), $headers, $enforcing->isAccepted() ? 'accepted' : 'refused');
    $c = RateLimitMetrics::local()["symfony:$id"];
    echo "  counted: allowed {$c['allowed']}, would_deny {$c['would_deny']}, denied {$c['denied']}\n";
}
rl_throws(fn () => new ExtensionRateLimiterFactory(['id' => 'x', 'policy' => 'fixed_window', 'limit' => 1, 'interval' => '1 hour', 'dry_run' => 'yes'], RL_URL));
?>
--EXPECTF--
fixed_window   dry run Y1 Y0 Y0 Y0, reserve() without waiting true, headers X-RateLimit-Limit,X-RateLimit-Remaining,X-RateLimit-Reset; enforcing now: refused
  counted: allowed 2, would_deny 3, denied 1
sliding_window dry run Y1 Y0 Y0 Y0, reserve() without waiting true, headers X-RateLimit-Limit,X-RateLimit-Remaining,X-RateLimit-Reset; enforcing now: refused
  counted: allowed 2, would_deny 2, denied 1
token_bucket   dry run Y1 Y0 Y0 Y0, reserve() without waiting true, headers X-RateLimit-Limit,X-RateLimit-Remaining,X-RateLimit-Reset; enforcing now: refused
  counted: allowed 2, would_deny 3, denied 1
%s: The option "dry_run" with value "yes" is expected to be of type "bool", but is of type "string".
