--TEST--
Every class, one table: consumeMany() answers exactly what consume() in the same order answers (repeated ids included), under the same keys, in one round trip; [] without Redis; bad ids named by their key before Redis; on_error per id; 8 processes on overlapping ids accept exactly the limit per id
--SKIPIF--
<?php $needs = ['pcntl', 'posix']; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
// Counts server-wide figures (INFO stats): a server of this test's own.
$server = rl_start_redis();
$url = 'redis://127.0.0.1:' . $server['port'];
$redis = rl_redis($server['port']);
$reads = fn () => (int) $redis->info('stats')['total_reads_processed'];
$commands = fn () => (int) $redis->info('stats')['total_commands_processed'];
$brief = fn (RateLimitResult $r) => ($r->allowed ? 'Y' : 'n') . $r->remaining;
$batch = ['a', 'b', 'a', 'x' => 'a', 7 => 'c', "bin\0" => 'b', 'a'];
$seen = [];
foreach (rl_classes() as $kind => $c) {
    $row = [];
    foreach ([1, 2] as $cost) {
        $many = rl_long($kind, $url, rl_prefix("$kind-many-$cost"), 4);
        $one = rl_long($kind, $url, rl_prefix("$kind-one-$cost"), 4);
        $many->isAllowed('b'); // some state first: b partly used, the scripts loaded
        $one->isAllowed('b');
        $many->consume('warm', 2);
        $one->consume('warm', 2);
        $before = $reads();
        $got = $many->consumeMany($batch, $cost);
        $trips = $reads() - $before - 1; // minus the INFO call itself
        $want = array_map(fn ($id) => $one->consume($id, $cost), $batch);
        $row["cost $cost: keys kept"] = var_export(array_keys($got) === array_keys($batch), true);
        $row["cost $cost: answers"] = implode(' ', array_map($brief, $got));
        $row["cost $cost: the same as consume() in order"] = var_export(array_map($brief, $got) === array_map($brief, $want), true);
        $row["cost $cost: round trips"] = $trips;
        $row["cost $cost: \$remaining of the last"] = var_export($many->remaining, true);
    }
    $l = rl_long($kind, $url, rl_prefix("$kind-edge"), 4);
    $before = $commands();
    $row['[]'] = json_encode($l->consumeMany([])) . ', commands sent ' . ($commands() - $before - 1);
    ob_start();
    rl_throws(fn () => $l->consumeMany(['a', 'b' => ['x']]));
    rl_throws(fn () => $l->consumeMany(['a', new stdClass()]));
    rl_throws(fn () => $l->consumeMany('a'));
    rl_throws(fn () => $l->consumeMany(array_fill(0, 1001, 'a')));
    rl_throws(fn () => $l->consumeMany(['a'], 0));
    rl_throws(fn () => $l->consumeMany(['a', str_repeat('k', 9000)]));
    $row['bad arguments'] = "6 errors\n" . preg_replace('/key of \d+ bytes/', 'key of N bytes', str_replace($c['class'], 'Class', ob_get_clean()));
    $row['nothing reached Redis'] = var_export(!$redis->exists(rl_prefix("$kind-edge") . ':a'), true);
    $seen[$kind] = $row;
}
rl_table($seen);

echo "== on_error applies per id: a foreign key in the batch\n";
$p = rl_prefix('foreign');
$redis->rPush("$p:list", 'v');
foreach (['throw', 'allow', 'deny'] as $policy) {
    ini_set('ratelimit.on_error', $policy);
    $l = new TokenBucketRateLimiter($url, "$p-$policy", 3, 1);
    $redis->rename("$p:list", "$p-$policy:list");
    try {
        $answers = $l->consumeMany(['ok', 'list', 'ok']);
        echo "$policy: ", implode(' ', array_map($brief, $answers)), "\n";
    } catch (RateLimiterException $e) {
        echo "$policy: ", get_class($e), ': ', preg_replace(['/\d{4,}/', '/ value.*/'], ['PORT', ' value'], $e->getMessage()), "; the batch ran: ", $redis->exists("$p-$policy:ok"), "\n";
    }
    $redis->rename("$p-$policy:list", "$p:list");
}
echo "== a fixed window's cost-1 batch (one library call): a foreign key fails only its own id\n";
$redis->set("$p-fw:noexpiry", '1');
$fw = new FixedWindowRateLimiter($url, "$p-fw", 60, 3);
$calls = fn () => rl_library_calls($redis);
$before = $calls();
$redis->rename("$p:list", "$p-fw:list");
ini_set('ratelimit.on_error', 'deny');
echo implode(' ', array_map($brief, $fw->consumeMany(['a', 'list', 'a', 'noexpiry', 'a', 'a']))), "; library calls: ", $calls() - $before, "\n";
ini_set('ratelimit.on_error', 'throw');
echo "a counter found without expiry got the window: ", var_export($redis->pTtl("$p-fw:noexpiry") > 59000, true), "; the list untouched: ", $redis->lLen("$p-fw:list"), "\n";

echo "== on_error applies to the whole batch when Redis is unreachable\n";
foreach (['allow', 'deny'] as $policy) {
    ini_set('ratelimit.on_error', $policy);
    $l = new GcraRateLimiter('redis://127.0.0.1:1', 'nowhere', 2, 3, 1);
    echo "$policy: ", implode(' ', array_map($brief, $l->consumeMany(['a', 'b']))), "\n";
}
ini_set('ratelimit.on_error', 'throw');

echo "== 8 processes, batches of overlapping ids, limit 30 per id\n";
foreach (rl_classes() as $kind => $c) {
    $prefix = rl_prefix("$kind-race");
    $accepted = rl_hammer(function () use ($kind, $prefix, $url) {
        static $limiter, $n = 0;
        $limiter ??= rl_long($kind, $url, $prefix, 30, 100000);
        $ids = ['p', 'q', 'r', 'p', 'q'];
        $ids = array_slice($ids, $n++ % 3); // 5, 4 or 3 ids, overlapping
        return count(array_filter($limiter->consumeMany($ids), fn ($r) => $r->allowed));
    }, 8, 40);
    printf("%-8s %d accepted (3 ids x 30 = 90)\n", $kind, $accepted);
}
rl_stop_redis($server);
?>
--EXPECT--
cost 1: keys kept: true
cost 1: answers: Y3 Y2 Y2 Y1 Y3 Y1 Y0
cost 1: the same as consume() in order: true
cost 1: round trips: 1
cost 1: $remaining of the last: 0
cost 2: keys kept: true
cost 2: answers: Y2 Y1 Y0 n0 Y2 n1 n0
cost 2: the same as consume() in order: true
cost 2: round trips: 1
cost 2: $remaining of the last: 0
[]: [], commands sent 0
bad arguments: 6 errors
TypeError: Class::consumeMany(): Argument #1 ($ids) must contain only strings, array given at key "b"
TypeError: Class::consumeMany(): Argument #1 ($ids) must contain only strings, stdClass given at key 1
TypeError: Class::consumeMany(): Argument #1 ($ids) must be of type array, string given
ValueError: Class::consumeMany(): Argument #1 ($ids) must hold at most 1000 ids, 1001 given
ValueError: Class::consumeMany(): Argument #2 ($cost) must be greater than or equal to 1
ValueError: Class::consumeMany(): Argument #1 ($ids) at position 1: makes a Redis key of N bytes; keys are limited to 8192

nothing reached Redis: true
== on_error applies per id: a foreign key in the batch
throw: RateLimiterException: Redis at redis://127.0.0.1:PORT: WRONGTYPE Operation against a key holding the wrong kind of value; the batch ran: 1
allow: Y2 Y3 Y1
deny: Y2 n0 Y1
== a fixed window's cost-1 batch (one library call): a foreign key fails only its own id
Y2 n0 Y1 Y1 Y0 n0; library calls: 1
a counter found without expiry got the window: true; the list untouched: 1
== on_error applies to the whole batch when Redis is unreachable
allow: Y3 Y3
deny: n0 n0
== 8 processes, batches of overlapping ids, limit 30 per id
fixed    90 accepted (3 ids x 30 = 90)
sliding  90 accepted (3 ids x 30 = 90)
blocks   90 accepted (3 ids x 30 = 90)
token    90 accepted (3 ids x 30 = 90)
leaky    90 accepted (3 ids x 30 = 90)
gcra     90 accepted (3 ids x 30 = 90)
