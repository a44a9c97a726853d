--TEST--
Threads: ini_set() of ratelimit.redis_url and ratelimit.key_prefix in one thread's request stays in that request; other threads keep php.ini's
--FILE--
<?php
require __DIR__ . '/threads.inc';
$other = rl_start_redis();
$redis = rl_redis();
$otherRedis = rl_redis($other['port']);
$lines = rl_threads(__DIR__ . '/workers/ini_per_request.php', 16, 20, ['other' => "redis://127.0.0.1:{$other['port']}"]);
// Every request's 20 keys, on the server and with the prefix its own settings name, none elsewhere.
$right = $wrong = 0;
foreach (rl_tagged($lines, 'request') as [$t, $r, $which]) {
    [$want, $elsewhere] = $which === 'own' ? [$otherRedis, $redis] : [$redis, $otherRedis];
    $prefix = $which === 'own' ? "own-$t-$r:" : '';
    $found = count($want->keys("{$prefix}ini-$t-$r:*"));
    $stray = count($elsewhere->keys("*ini-$t-$r:*")) + ($which === 'own' ? 0 : count($want->keys("?*ini-$t-$r:*")));
    ($found === 20 && $stray === 0) ? $right++ : $wrong++;
    if ($found !== 20 || $stray !== 0) echo "thread $t request $r ($which): $found keys where its settings say, $stray elsewhere\n";
}
echo "requests with every key where their own settings say: $right, elsewhere: $wrong\n";
echo 'anything else printed: ', json_encode(rl_untagged($lines, ['request'])), "\n";
rl_stop_redis($other);
?>
--EXPECT--
requests with every key where their own settings say: 320, elsewhere: 0
anything else printed: []
