--TEST--
A float $id is the key PHP's own (string) makes of it, under this request's precision: 0.1 + 0.2 is "0.3", 1e20 "1.0E+20", -0.0 "-0" (so a caller passing the float and one passing (string) of it count on one key), on every class, on Redis and on memory://, in consume(), peek(), reset() and consumeMany()
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
$r = rl_redis();
$floats = [0.1 + 0.2, 1e20, -0.0, 1.5, 7.0, 1/3];
foreach ([RL_URL, 'memory://float-ids'] as $target) {
    echo "-- ", $target === RL_URL ? 'redis' : 'memory://', "\n";
    foreach (rl_classes() as $kind => $c) {
        $prefix = rl_prefix($kind);
        $l = new $c['class']($target, $prefix, ...$c['params'](5, RL_SLOW));
        $line = [];
        foreach ($floats as $f) {
            $l->consume($f);
            // The same key by PHP's own string of the float: one unit already taken there.
            $line[] = (string) $f . '=' . $l->peek((string) $f)->remaining;
        }
        $many = $l->consumeMany([0.1 + 0.2]);
        $line[] = 'many ' . $many[0]->remaining;
        if ($target === RL_URL) {
            $keys = $r->keys("$prefix:*");
            sort($keys);
            $line[] = 'keys ' . implode(' ', array_map(fn ($k) => substr($k, strlen($prefix) + 1), $keys));
        }
        $l->reset(-0.0);
        $line[] = 'after reset -0: ' . $l->peek('-0')->remaining;
        printf("%-8s %s\n", $kind, implode(', ', $line));
    }
}
echo "-- precision = 17: (string) gives every digit, and so does the key\n";
ini_set('precision', '17');
$l = new FixedWindowRateLimiter('memory://float-ids-17', 'p', RL_SLOW, 5);
$l->consume(0.1 + 0.2);
var_dump((string) (0.1 + 0.2), $l->peek('0.30000000000000004')->remaining, $l->peek('0.3')->remaining);
?>
--EXPECT--
-- redis
fixed    0.3=4, 1.0E+20=4, -0=4, 1.5=4, 7=4, 0.33333333333333=4, many 3, keys -0 0.3 0.33333333333333 1.0E+20 1.5 7, after reset -0: 5
sliding  0.3=4, 1.0E+20=4, -0=4, 1.5=4, 7=4, 0.33333333333333=4, many 3, keys -0 0.3 0.33333333333333 1.0E+20 1.5 7, after reset -0: 5
blocks   0.3=4, 1.0E+20=4, -0=4, 1.5=4, 7=4, 0.33333333333333=4, many 3, keys -0 0.3 0.33333333333333 1.0E+20 1.5 7, after reset -0: 5
token    0.3=4, 1.0E+20=4, -0=4, 1.5=4, 7=4, 0.33333333333333=4, many 3, keys -0 0.3 0.33333333333333 1.0E+20 1.5 7, after reset -0: 5
leaky    0.3=4, 1.0E+20=4, -0=4, 1.5=4, 7=4, 0.33333333333333=4, many 3, keys -0 0.3 0.33333333333333 1.0E+20 1.5 7, after reset -0: 5
gcra     0.3=4, 1.0E+20=4, -0=4, 1.5=4, 7=4, 0.33333333333333=4, many 3, keys -0 0.3 0.33333333333333 1.0E+20 1.5 7, after reset -0: 5
-- memory://
fixed    0.3=4, 1.0E+20=4, -0=4, 1.5=4, 7=4, 0.33333333333333=4, many 3, after reset -0: 5
sliding  0.3=4, 1.0E+20=4, -0=4, 1.5=4, 7=4, 0.33333333333333=4, many 3, after reset -0: 5
blocks   0.3=4, 1.0E+20=4, -0=4, 1.5=4, 7=4, 0.33333333333333=4, many 3, after reset -0: 5
token    0.3=4, 1.0E+20=4, -0=4, 1.5=4, 7=4, 0.33333333333333=4, many 3, after reset -0: 5
leaky    0.3=4, 1.0E+20=4, -0=4, 1.5=4, 7=4, 0.33333333333333=4, many 3, after reset -0: 5
gcra     0.3=4, 1.0E+20=4, -0=4, 1.5=4, 7=4, 0.33333333333333=4, many 3, after reset -0: 5
-- precision = 17: (string) gives every digit, and so does the key
string(19) "0.30000000000000004"
int(4)
int(5)
