--TEST--
reserve() on the token bucket, the leaky bucket and GCRA: bookings made one after another get delays one emission apart (± 50 ms), a booking that would wait longer than maxWait books nothing and says how long, a consume cannot take booked units; 4 processes booking at once each get a delay of their own, one emission apart, in booking order
--SKIPIF--
<?php $needs = ['pcntl', 'posix']; require __DIR__ . '/skipif.inc'; ?>
--CONFLICTS--
heavy
--FILE--
<?php
require __DIR__ . '/config.inc';
// One unit per 0.1 s, none stored ahead.
$make = [
    'token' => fn ($p) => new TokenBucketRateLimiter(RL_URL, $p, 1, 10.0),
    'leaky' => fn ($p) => new LeakyBucketRateLimiter(RL_URL, $p, 1, 10.0),
    'gcra' => fn ($p) => new GcraRateLimiter(RL_URL, $p, 0, 10, 1.0),
];
$near = fn (float $t, float $want) => abs($t - $want) <= 0.05 ? sprintf('%.1f', $want) : sprintf('%.3f (want %.1f)', $t, $want);
foreach ($make as $kind => $new) {
    $l = $new(rl_prefix("reserve-$kind"));
    $l->consume('u');
    $d = [];
    foreach ([1, 2, 3] as $k) {
        $b = $l->reserve('u', 1, 1.0);
        $d[] = ($b->allowed ? '' : 'denied ') . $near($b->delay, 0.1 * $k);
    }
    $no = $l->reserve('u', 1, 0.05);
    $c = $l->consume('u');
    printf("%-6s delays %s; maxWait 0.05: %s, retryAfter %s; a consume: %s, retryAfter %s\n", $kind, implode(' ', $d),
        $no->allowed ? 'booked' : 'nothing booked', $near($no->retryAfter, 0.4), $c->allowed ? 'allowed' : 'denied', $near($c->retryAfter, 0.4));
}

// 4 processes per algorithm book at the same instant, then wait their delays.
$start = microtime(true) + 0.3;
$files = [];
foreach ($make as $kind => $new) {
    $p = rl_prefix("reserve-many-$kind");
    $new($p)->consume('m');
    for ($c = 0; $c < 4; $c++) {
        $file = $files[$kind][] = tempnam(sys_get_temp_dir(), 'rl-reserve');
        if (pcntl_fork() === 0) {
            $l = $new($p);
            rl_sleep_until($start);
            $b = $l->reserve('m', 1, 2.0);
            file_put_contents($file, $b->allowed ? (string) $b->delay : 'denied');
            rl_child_exit();
        }
    }
}
while (pcntl_wait($status) > 0);
foreach ($files as $kind => $list) {
    $delays = array_map(fn ($f) => (float) file_get_contents($f), $list);
    array_map('unlink', $list);
    sort($delays);
    $gaps = [];
    for ($k = 1; $k < 4; $k++) {
        $gaps[] = $near($delays[$k] - $delays[$k - 1], 0.1);
    }
    printf("%-6s 4 bookings, gaps between their delays: %s; the first within one emission: %s\n", $kind, implode(' ', $gaps),
        $delays[0] <= 0.15 ? 'yes' : "no ({$delays[0]})");
}
?>
--EXPECT--
token  delays 0.1 0.2 0.3; maxWait 0.05: nothing booked, retryAfter 0.4; a consume: denied, retryAfter 0.4
leaky  delays 0.1 0.2 0.3; maxWait 0.05: nothing booked, retryAfter 0.4; a consume: denied, retryAfter 0.4
gcra   delays 0.1 0.2 0.3; maxWait 0.05: nothing booked, retryAfter 0.4; a consume: denied, retryAfter 0.4
token  4 bookings, gaps between their delays: 0.1 0.1 0.1; the first within one emission: yes
leaky  4 bookings, gaps between their delays: 0.1 0.1 0.1; the first within one emission: yes
gcra   4 bookings, gaps between their delays: 0.1 0.1 0.1; the first within one emission: yes
