--TEST--
RateLimitResult::headers('ietf'): RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers-09), Retry-After when denied; 'x' by default; any other style is a ValueError
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$l = new FixedWindowRateLimiter(RL_URL, rl_prefix(), 30, 3);
$ok = $l->consume('h', 2);
var_dump($ok->headers('ietf'));
var_dump($ok->headers() === $ok->headers('x'), array_keys($ok->headers()));
$l->consume('h');
$no = $l->consume('h');
$h = $no->headers('ietf');
var_dump(array_keys($h), $h['RateLimit-Policy'], $h['RateLimit'], $h['Retry-After'] === (int) ceil($no->retryAfter) && $h['Retry-After'] >= 29);
// Every style: the same numbers, so a client of either gets the same answer.
$x = $no->headers('x');
var_dump($h['RateLimit'] === '"default";r=' . $x['X-RateLimit-Remaining'] . ';t=' . $x['X-RateLimit-Reset']);
// A token bucket: remaining and reset from the same decision.
$b = new TokenBucketRateLimiter(RL_URL, rl_prefix('tb'), 10, 2.0);
$r = $b->consume('', 4);
var_dump($r->headers('ietf'));
foreach (['X', 'IETF', '', 'draft-07', "ietf\0"] as $style) {
    rl_throws(fn () => $ok->headers($style));
}
rl_throws(fn () => $ok->headers(style: 'ietf'));
rl_throws(fn () => $ok->headers([]));
?>
--EXPECT--
array(2) {
  ["RateLimit-Policy"]=>
  string(13) ""default";q=3"
  ["RateLimit"]=>
  string(18) ""default";r=1;t=30"
}
bool(true)
array(3) {
  [0]=>
  string(17) "X-RateLimit-Limit"
  [1]=>
  string(21) "X-RateLimit-Remaining"
  [2]=>
  string(17) "X-RateLimit-Reset"
}
array(3) {
  [0]=>
  string(16) "RateLimit-Policy"
  [1]=>
  string(9) "RateLimit"
  [2]=>
  string(11) "Retry-After"
}
string(13) ""default";q=3"
string(18) ""default";r=0;t=30"
bool(true)
bool(true)
array(2) {
  ["RateLimit-Policy"]=>
  string(14) ""default";q=10"
  ["RateLimit"]=>
  string(17) ""default";r=6;t=2"
}
ValueError: RateLimitResult::headers(): Argument #1 ($style) must be "x" or "ietf"
ValueError: RateLimitResult::headers(): Argument #1 ($style) must be "x" or "ietf"
ValueError: RateLimitResult::headers(): Argument #1 ($style) must be "x" or "ietf"
ValueError: RateLimitResult::headers(): Argument #1 ($style) must be "x" or "ietf"
ValueError: RateLimitResult::headers(): Argument #1 ($style) must be "x" or "ietf"
no exception
TypeError: RateLimitResult::headers(): Argument #1 ($style) must be of type string, array given
