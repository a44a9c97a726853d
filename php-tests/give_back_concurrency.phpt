--TEST--
refund() and charge() under contention, every class: 8 processes consume, give back what they were admitted and charge on one id; admitted units never exceed the limit plus the units refunded, and the state holds exactly what was taken (memory://: the same in one process)
--SKIPIF--
<?php $needs = ['pcntl', 'posix']; require __DIR__ . '/skipif.inc'; ?>
--CONFLICTS--
heavy
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
$redis = rl_redis();
// Limit 60 over 100000 s: nothing refills while the test runs. Each attempt
// consumes 1, gives back a third of what it was admitted, and every 8th
// attempt charges 1: counts come back packed as admitted·10^6 + refunded·10^3 + charged.
$attempt = function (RateLimiterInterface $l): int {
    static $i = 0;
    $i++;
    $n = 0;
    if ($l->consume('one')->allowed) {
        $n += 1_000_000;
        if (mt_rand(0, 2) === 0) {
            $n += $l->refund('one')->allowed ? 1_000 : 0;
        }
    }
    if ($i % 8 === 0) {
        $l->charge('one');
        $n += 1;
    }
    return $n;
};
$unpack = fn (int $n) => [intdiv($n, 1_000_000), intdiv($n % 1_000_000, 1_000), $n % 1_000];
foreach (rl_classes() as $kind => $c) {
    $prefix = rl_prefix("gb-$kind");
    $packed = rl_hammer(function () use ($kind, $prefix, $attempt) {
        static $limiter;
        $limiter ??= rl_long($kind, RL_URL, $prefix, 60, 100000);
        return $attempt($limiter);
    }, 8, 40);
    [$admitted, $refunded, $charged] = $unpack($packed);
    $used = $admitted + $charged - $refunded;
    // A denied request writes nothing, on every algorithm (the fixed window's cost-1 consume too).
    $want = match ($kind) {
        'fixed' => "counter '$used'",
        'sliding' => "entries $used",
        'blocks' => "counted in the slices $used",
        'token' => sprintf('tokens %.1f', 60 - $used),
        'leaky' => sprintf('level %.1f', $used),
        'gcra' => sprintf('TAT %.1f intervals ahead', $used),
    };
    $state = rl_state($kind, $redis, "$prefix:one", 60, 100000);
    printf("%-8s admitted <= 60 + refunded: %s; some refunded: %s; state: %s\n", $kind,
        $admitted <= 60 + $refunded ? 'yes' : "NO ($admitted, $refunded)", $refunded > 0 ? 'yes' : 'no',
        $state === $want ? 'as taken' : "$state, want $want");

    // memory://: one process, the same calls.
    $l = rl_long($kind, 'memory://gb', $prefix, 60, 100000);
    $packed = 0;
    for ($k = 0; $k < 320; $k++) {
        $packed += $attempt($l);
    }
    [$admitted, $refunded, $charged] = $unpack($packed);
    $left = $l->peek('one')->remaining;
    $used = $admitted + $charged - $refunded;
    $exact = $left > 0 ? $used === 60 - $left : $used >= 60;
    printf("%-8s memory:// admitted <= 60 + refunded: %s\n", $kind, $admitted <= 60 + $refunded && $exact ? 'yes' : "NO ($admitted, $refunded, $charged, $left)");
}
?>
--EXPECT--
fixed    admitted <= 60 + refunded: yes; some refunded: yes; state: as taken
fixed    memory:// admitted <= 60 + refunded: yes
sliding  admitted <= 60 + refunded: yes; some refunded: yes; state: as taken
sliding  memory:// admitted <= 60 + refunded: yes
blocks   admitted <= 60 + refunded: yes; some refunded: yes; state: as taken
blocks   memory:// admitted <= 60 + refunded: yes
token    admitted <= 60 + refunded: yes; some refunded: yes; state: as taken
token    memory:// admitted <= 60 + refunded: yes
leaky    admitted <= 60 + refunded: yes; some refunded: yes; state: as taken
leaky    memory:// admitted <= 60 + refunded: yes
gcra     admitted <= 60 + refunded: yes; some refunded: yes; state: as taken
gcra     memory:// admitted <= 60 + refunded: yes
