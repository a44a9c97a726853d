--TEST--
Breaker: a refused target is not tried again for ratelimit.retry_interval (any on_error), the exception says it is open and for how long, one probe then, php --ri and RateLimitMetrics::breakers() show it; retry_interval=0 turns it off
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--INI--
ratelimit.connect_timeout=0.3
ratelimit.retry_interval=0.3
--FILE--
<?php
require __DIR__ . '/../config.inc';
ini_set("log_errors", "1");
ini_set('error_log', $log = tempnam(sys_get_temp_dir(), 'rl-log'));
$down = 'redis://127.0.0.1:' . rl_free_port();
$l = new FixedWindowRateLimiter($down, 'p', 60, 10);
rl_throws(fn () => $l->consume('a'));
$t = microtime(true);
rl_throws(fn () => $l->consume('a'));
echo "refused at once: ", var_export(microtime(true) - $t < 0.05, true), "\n";
$b = RateLimitMetrics::breakers()[$down];
var_dump($b['state'], $b['opens'], $b['refused'], $b['cause'], $b['open_for'] > 0 && $b['open_for'] <= 0.36);
ob_start();
phpinfo(INFO_MODULES);
$info = ob_get_clean();
echo "php --ri shows it: ", var_export((bool) preg_match('/breaker open for 0\.\d+ s more \(opened 1 time\(s\), 1 call\(s\) refused\)/', $info), true), "\n";

echo "-- any on_error answers at once while it is open\n";
ini_set('ratelimit.on_error', 'deny');
$r = $l->consume('a');
var_dump($r->allowed, $r->source);
ini_set('ratelimit.on_error', 'allow');
var_dump($l->consume('a')->source, $l->isAllowed('a'));
ini_set('ratelimit.on_error', 'throw');
rl_throws(fn () => $l->reset('a'));

echo "-- after the interval one call tries again (refused: open again, not another opening)\n";
usleep(370000);
rl_throws(fn () => $l->consume('a'));
rl_throws(fn () => $l->consume('a'));
var_dump(RateLimitMetrics::breakers()[$down]['opens']);
$lines = array_values(array_filter(explode("\n", file_get_contents($log)), fn ($l) => $l !== ''));
echo "one warning per opening:\n", preg_replace('/^\[[^\]]*\] /', '', implode("\n", $lines)), "\n";

echo "-- retry_interval = 0: no breaker\n";
ini_set('ratelimit.retry_interval', '0');
$other = new FixedWindowRateLimiter('redis://127.0.0.1:' . rl_free_port(), 'p', 60, 10);
rl_throws(fn () => $other->consume('a'));
rl_throws(fn () => $other->consume('a'));

echo "-- the settings' ranges\n";
var_dump(ini_set('ratelimit.retry_interval', '-1'), ini_set('ratelimit.retry_interval', '3601'), ini_set('ratelimit.retry_interval', 'soon'));
var_dump(ini_set('ratelimit.retry_interval', '2.5'), ini_get('ratelimit.retry_interval'));
var_dump(ini_set('ratelimit.local_share', '1.5'), ini_set('ratelimit.local_share', '-0.1'), ini_set('ratelimit.local_share', 'half'));
var_dump(ini_set('ratelimit.local_share', '0.25'), ini_get('ratelimit.local_share'));
var_dump(ini_set('ratelimit.on_error', 'local'), ini_get('ratelimit.on_error'));
unlink($log);
?>
--EXPECTF--
RateLimiterException: Redis at redis://127.0.0.1:%d: connection refused
RateLimiterException: Redis at redis://127.0.0.1:%d: not tried, the circuit breaker is open for 0.%d s more (the last call failed: connection refused); the decision was not counted
refused at once: true
string(4) "open"
int(1)
int(1)
string(18) "connection refused"
bool(true)
php --ri shows it: true
-- any on_error answers at once while it is open
bool(false)
string(8) "on_error"
string(8) "on_error"
bool(true)
RateLimiterException: Redis at redis://127.0.0.1:%d: not tried, the circuit breaker is open for 0.%d s more (the last call failed: connection refused); the decision was not counted
-- after the interval one call tries again (refused: open again, not another opening)
RateLimiterException: Redis at redis://127.0.0.1:%d: connection refused
RateLimiterException: Redis at redis://127.0.0.1:%d: not tried, the circuit breaker is open for 0.%d s more (the last call failed: connection refused); the decision was not counted
int(1)
one warning per opening:
PHP Warning:  ratelimit: Redis at redis://127.0.0.1:%d could not be reached (connection refused); its calls get the ratelimit.on_error answer without trying for 0.%d s, then one call tries it again
-- retry_interval = 0: no breaker
RateLimiterException: Redis at redis://127.0.0.1:%d: connection refused
RateLimiterException: Redis at redis://127.0.0.1:%d: connection refused
-- the settings' ranges
bool(false)
bool(false)
bool(false)
string(1) "0"
string(3) "2.5"
bool(false)
bool(false)
bool(false)
string(3) "0.1"
string(4) "0.25"
string(5) "throw"
string(5) "local"
