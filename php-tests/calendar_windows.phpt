--TEST--
FixedWindowRateLimiter::withAnchor() and withCalendar() (Lua library, server module, memory://): windows start at anchor + k × window, or are calendar hours, days, ISO weeks or months in a time zone, with resetAfter/retryAfter the time to the window's end (as PHP's own DateTime works it out); copies of their class on the same keys, the original unchanged; in a compound and with a lockout; bad units, zones and anchors; Reflection
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$p = rl_prefix();
$yn = fn (array $results) => implode('', array_map(fn ($x) => $x->allowed ? 'Y' : 'n', $results));
// A time to a window's end, within 50 ms of what PHP's DateTime says.
$near = fn (float $t, float $want) => abs($t - $want) <= 0.05 ? 'as DateTime says' : "$t (want $want)";
$until = fn (string $when, string $zone) => (new DateTimeImmutable($when, new DateTimeZone($zone)))->format('U.u') - microtime(true);

foreach (['redis' => RL_URL, 'memory' => 'memory://calendar'] as $where => $connection) {
    echo "-- $where\n";
    // Every window below ends on a UTC hour or half hour (Kolkata is +5:30):
    // a run that straddled one would meet two windows (both passes failed so
    // once, at 05:30 UTC). Not within 3 s of one, then.
    $intoHalfHour = fmod(microtime(true), 1800);
    if ($intoHalfHour > 1800 - 3) usleep((int) ((1800 - $intoHalfHour + 0.05) * 1e6));
    $l = new FixedWindowRateLimiter($connection, "$p:$where", 3600, 2);
    foreach ([['day', 'UTC', 'tomorrow'], ['day', 'Asia/Tokyo', 'tomorrow'], ['hour', 'Asia/Kolkata', '+1 hour'], ['week', 'Europe/Paris', 'monday next week'], ['month', 'America/New_York', 'first day of next month midnight']] as [$unit, $zone, $end]) {
        $c = $l->withCalendar($unit, $zone);
        $id = "$unit:$zone";
        $r = [$c->consume($id), $c->consume($id), $c->consume($id)];
        $want = $unit === 'hour' ? $until(date('Y-m-d H:30:00', time() + (((int) date('i')) >= 30 ? 3600 : 0)), 'UTC') : $until($end === 'monday next week' ? 'monday next week midnight' : ($end === 'tomorrow' ? 'tomorrow' : $end), $zone);
        printf("%-5s %-16s %s reset %s, retry %s\n", $unit, $zone, $yn($r), $near($r[0]->resetAfter, $want), $near($r[2]->retryAfter, $want));
    }
    echo 'a copy of its class on the same keys, the original unchanged: ', json_encode([get_class($l->withCalendar('day')), $l->consume('day:UTC')->allowed, abs($l->peek('x')->resetAfter) < 0.001]), "\n";
    // 0.3 s windows anchored 0.1 s ago: this one ends in 0.2 s.
    $t0 = microtime(true);
    $a = (new FixedWindowRateLimiter($connection, "$p:$where:anchor", 0.3, 1))->withAnchor($t0 - 0.1);
    $r = [$a->consume('a'), $a->consume('a')];
    echo 'anchored: ', $yn($r), ' reset ', abs($r[0]->resetAfter - 0.2) < 0.05 ? '~0.2' : $r[0]->resetAfter;
    rl_sleep_until($t0 + 0.21);
    $r = $a->consume('a');
    echo '; the next window: ', $yn([$r]), ' reset ', abs($r->resetAfter - 0.29) < 0.05 ? '~0.3' : $r->resetAfter, "\n";
    $d = (new FixedWindowRateLimiter($connection, "$p:$where:date", 60, 1))->withAnchor(new DateTimeImmutable('2024-01-01 00:00:30', new DateTimeZone('UTC')));
    $want = 60 - fmod(microtime(true) - 30, 60);
    echo 'anchored on a DateTimeInterface: ', $near($d->consume('d')->resetAfter, $want), "\n";
    $c = new CompoundRateLimiter([$l->withCalendar('day'), new TokenBucketRateLimiter($connection, "$p:$where:tb", 10, 1)]);
    echo 'in a compound: ', $yn([$c->consume('k'), $c->consume('k'), $c->consume('k')]), ' reset ', $near($c->peek('k')->resetAfter, $until('tomorrow', 'UTC')), "\n";
    $lo = $l->withCalendar('month')->withLockout(7200);
    $r = [$lo->consume('lo'), $lo->consume('lo'), $lo->consume('lo')];
    echo 'with a lockout: ', $yn($r), ' retry ', abs($r[2]->retryAfter - max(7200, $until('first day of next month midnight', 'UTC'))) < 0.05 ? 'the longer of the lockout and the month' : $r[2]->retryAfter, "\n";
}

echo "-- bad input\n";
$l = new FixedWindowRateLimiter('redis://127.0.0.1:1', 'nowhere', 60, 1);
rl_throws(fn () => $l->withCalendar('year'));
rl_throws(fn () => $l->withCalendar('day', 'Mars/Olympus'));
rl_throws(fn () => $l->withCalendar('day', 'utc'));
rl_throws(fn () => $l->withAnchor(new stdClass()));
rl_throws(fn () => $l->withAnchor(NAN));
rl_throws(fn () => $l->withAnchor(-1));
rl_throws(fn () => $l->withAnchor('soon'));
rl_throws(fn () => $l->withCalendar('day')->withAnchor(0));
echo "-- Reflection\n";
foreach (['withAnchor', 'withCalendar'] as $m) {
    $rm = new ReflectionMethod('FixedWindowRateLimiter', $m);
    echo $m, '(', implode(', ', array_map(fn ($q) => $q->getType() . ' $' . $q->getName() . ($q->isDefaultValueAvailable() ? ' = ' . var_export($q->getDefaultValue(), true) : ''), $rm->getParameters())), '): ', $rm->getReturnType(), "\n";
}
echo json_encode(method_exists('TokenBucketRateLimiter', 'withCalendar')), "\n";
?>
--EXPECT--
-- redis
day   UTC              YYn reset as DateTime says, retry as DateTime says
day   Asia/Tokyo       YYn reset as DateTime says, retry as DateTime says
hour  Asia/Kolkata     YYn reset as DateTime says, retry as DateTime says
week  Europe/Paris     YYn reset as DateTime says, retry as DateTime says
month America/New_York YYn reset as DateTime says, retry as DateTime says
a copy of its class on the same keys, the original unchanged: ["FixedWindowRateLimiter",false,true]
anchored: Yn reset ~0.2; the next window: Y reset ~0.3
anchored on a DateTimeInterface: as DateTime says
in a compound: YYn reset as DateTime says
with a lockout: YYn retry the longer of the lockout and the month
-- memory
day   UTC              YYn reset as DateTime says, retry as DateTime says
day   Asia/Tokyo       YYn reset as DateTime says, retry as DateTime says
hour  Asia/Kolkata     YYn reset as DateTime says, retry as DateTime says
week  Europe/Paris     YYn reset as DateTime says, retry as DateTime says
month America/New_York YYn reset as DateTime says, retry as DateTime says
a copy of its class on the same keys, the original unchanged: ["FixedWindowRateLimiter",false,true]
anchored: Yn reset ~0.2; the next window: Y reset ~0.3
anchored on a DateTimeInterface: as DateTime says
in a compound: YYn reset as DateTime says
with a lockout: YYn retry the longer of the lockout and the month
-- bad input
ValueError: FixedWindowRateLimiter::withCalendar(): Argument #1 ($unit) must be one of 'hour', 'day', 'week', 'month'
ValueError: FixedWindowRateLimiter::withCalendar(): Argument #2 ($timeZone) must be a time zone name such as 'UTC' or 'Europe/Paris', 'Mars/Olympus' given
no exception
TypeError: FixedWindowRateLimiter::withAnchor(): Argument #1 ($anchor) must be of type DateTimeInterface|int|float, stdClass given
ValueError: FixedWindowRateLimiter::withAnchor(): Argument #1 ($anchor) must be a finite number of seconds
ValueError: FixedWindowRateLimiter::withAnchor(): Argument #1 ($anchor) must be an instant from 1970 to 2112
TypeError: FixedWindowRateLimiter::withAnchor(): Argument #1 ($anchor) must be of type DateTimeInterface|int|float, string given
ValueError: FixedWindowRateLimiter::withAnchor(): Argument #1 ($anchor) cannot anchor windows that are calendar units
-- Reflection
withAnchor(DateTimeInterface|int|float $anchor): static
withCalendar(string $unit, string $timeZone = 'UTC'): static
false