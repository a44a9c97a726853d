--TEST--
Hostile input, every class of classes.inc: wrong types, zero/negative/NaN/INF/huge numbers, empty and 100 KB keys, malformed connections each raise the right error naming the parameter, and nothing reaches Redis; binary ids are keys like any other
--SKIPIF--
<?php $needs = ['posix']; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
$own = rl_start_redis();   // its command count must be ours alone
$url = 'redis://127.0.0.1:' . $own['port'];
ini_set('ratelimit.redis_url', $url);
$r = rl_redis($own['port']);
$commandsBefore = $r->info('stats')['total_commands_processed'];

$badNumbers = [0, -1, NAN, INF, -INF, 1e300, PHP_INT_MAX, PHP_INT_MIN, 'abc', [], new stdClass, ''];   // not true: coercive mode takes it as 1
$badConnections = [42, 1.5, true, new stdClass, 'http://h', 'redis://h:0', 'redis://h:99999', 'redis://h/x', 'redis://:1',
    'unix://', 'rediss://h?verify_peer=2', ['port' => 'x'], ['index' => -1], ['timeout' => NAN], ['auth' => 1.5], ['host' => 5]];
$cases = 0;
$surprises = [];
// $param: the parameter the message must name, as "($param)"; or a whole needle like "Argument #2 (".
$expect = function (string $what, callable $f, string $param, array $classes = ['ValueError', 'TypeError', 'ArgumentCountError']) use (&$cases, &$surprises) {
    $needle = str_contains($param, '(') ? $param : "(\$$param)";
    $cases++;
    try {
        $f();
        $surprises[] = "$what: no exception";
    } catch (Throwable $e) {
        if (!in_array(get_class($e), $classes, true) || !str_contains($e->getMessage(), $needle)) {
            $surprises[] = "$what: " . get_class($e) . ': ' . $e->getMessage();
        }
    }
};
// Per kind of limiter (classes.inc): valid long-form numbers by long name,
// optional ones included, and the short form's order of long names.
foreach (rl_classes() as $kind => $c) {
    [$class, $good, $shortOrder] = [$c['class'], $c['params'](10, 60) + $c['optional'], $c['short']];
    $longNames = array_keys($good);
    foreach ($longNames as $pos => $name) {
        foreach ($badNumbers as $bad) {
            if ($name === 'blocks' && in_array($bad, [0], true)) continue;         // 0 blocks is valid
            if ($name === 'maxBurst' && in_array($bad, [0], true)) continue;       // 0 burst is valid (limit 1)
            $args = $good;
            $args[$name] = $bad;
            $expect("$class long \$$name=" . json_encode($bad), fn () => new $class($url, 'p', ...array_values($args)), $name);
            // The short form names its parameters its own way; the error must still name the one at fault.
            $shortPos = array_search($name, $shortOrder, true);
            if ($shortPos !== false && !is_string($bad)) {
                $shortArgs = array_map(fn ($n) => $n === $name ? $bad : $good[$n], $shortOrder);
                $expect("$class short #" . ($shortPos + 2) . '=' . json_encode($bad), fn () => new $class('key', ...$shortArgs), 'Argument #' . ($shortPos + 2) . ' (');
            }
        }
    }
    foreach (['', str_repeat('k', 100 * 1024)] as $prefix) {
        $expect("$class long empty/huge prefix", fn () => new $class($url, $prefix, ...array_values($good)), 'keyPrefix');
        $expect("$class short empty/huge key", fn () => new $class($prefix, ...array_map(fn ($n) => $good[$n], $shortOrder)), 'key');
    }
    foreach ($badConnections as $conn) {
        $expect("$class connection " . json_encode($conn), fn () => new $class($conn, 'p', ...array_values($good)), 'connection');
    }
    $limiter = new $class($url, 'p', ...array_values($good));
    foreach ([0, -1, PHP_INT_MIN, PHP_INT_MAX, NAN, INF, 'x', []] as $cost) {
        $expect("$class cost " . json_encode($cost), fn () => $limiter->consume('id', $cost), 'cost');
    }
    foreach ([[], new stdClass, str_repeat('i', 100 * 1024)] as $id) {
        $expect("$class id " . gettype($id), fn () => $limiter->isAllowed($id), 'id');
        $expect("$class reset id " . gettype($id), fn () => $limiter->reset($id), 'id');
        $expect("$class peek id " . gettype($id), fn () => $limiter->peek($id), 'id');
    }
}
$expect('GcraRateLimiter throttle quantity -1', fn () => (new GcraRateLimiter($url, 'p', 9, 10, 60))->throttle('id', -1), 'quantity');
$expect('GcraRateLimiter throttle quantity NAN', fn () => (new GcraRateLimiter($url, 'p', 9, 10, 60))->throttle('id', NAN), 'quantity');

$commandsAfter = $r->info('stats')['total_commands_processed'];
echo "$cases bad inputs\n";
echo $surprises ? implode("\n", $surprises) . "\n" : "each raised the expected error naming its parameter\n";
echo "commands Redis saw meanwhile (only our INFO): ", $commandsAfter - $commandsBefore, "\n";
echo "keys: ", $r->dbSize(), "\n";

echo "-- binary ids are keys like any other, each its own\n";
$ids = ["a\0b", "{tag}", "}{", "a:b", ":", "\xff\xfe", "\xc3\x28", "null\0", str_repeat("\0", 10)];
foreach (rl_classes() as $kind => $c) {
    $l = rl_long($kind, $url, "bin:$kind", 10, 60);
    foreach ($ids as $id) {
        $l->consume($id);
        $l->consume($id);
    }
    $stored = 0;
    foreach ($ids as $id) $stored += $r->exists("bin:$kind:$id");
    echo str_pad($kind, 8), "$stored of ", count($ids), " keys, exactly named\n";
}
rl_stop_redis($own);
?>
--EXPECT--
551 bad inputs
each raised the expected error naming its parameter
commands Redis saw meanwhile (only our INFO): 1
keys: 0
-- binary ids are keys like any other, each its own
fixed   9 of 9 keys, exactly named
sliding 9 of 9 keys, exactly named
blocks  9 of 9 keys, exactly named
token   9 of 9 keys, exactly named
leaky   9 of 9 keys, exactly named
gcra    9 of 9 keys, exactly named
