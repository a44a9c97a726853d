--TEST--
Array keys that are not UTF-8 (PHP's strings are binary) are keys like any other: consumeMany() keeps them and decides their ids, every class, on Redis and memory://; a CompoundRateLimiter takes members under them and names one in its TypeError
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
$batch = ["\xff\xfe" => 'a', "ok" => "\xc3\x28", 3 => "\xff", "\x80\0x" => 'a'];
foreach (['redis' => RL_URL, 'memory' => 'memory://'] as $where => $connection) {
    foreach (rl_classes() as $kind => $c) {
        $l = rl_long($kind, $connection, rl_prefix("bin-$where-$kind"), 3);
        $got = $l->consumeMany($batch);
        $again = $l->consumeMany($batch);
        printf("%-8s %-15s keys kept: %s; first: %s; again: %s; one id's state, read by consume(): %d\n",
            $where, $kind,
            var_export(array_keys($got) === array_keys($batch), true),
            implode(' ', array_map(fn ($r) => ($r->allowed ? 'Y' : 'n') . $r->remaining, $got)),
            implode(' ', array_map(fn ($r) => ($r->allowed ? 'Y' : 'n') . $r->remaining, $again)),
            $l->consume("\xc3\x28", 1)->remaining);
    }
}
$member = rl_long('token', RL_URL, rl_prefix('bin-compound'), 3);
$compound = new CompoundRateLimiter(["\xff" => $member, "ok" => rl_long('fixed', RL_URL, rl_prefix('bin-compound-2'), 5)]);
echo "compound: ", $compound->consume('x')->remaining, "\n";
rl_throws(fn () => new CompoundRateLimiter(["\xff\xfe" => 5]));
?>
--EXPECTF--
redis    %s keys kept: true; first: Y2 Y2 Y2 Y1; again: Y0 Y1 Y1 n0; one id's state, read by consume(): 0
redis    %s keys kept: true; first: Y2 Y2 Y2 Y1; again: Y0 Y1 Y1 n0; one id's state, read by consume(): 0
redis    %s keys kept: true; first: Y2 Y2 Y2 Y1; again: Y0 Y1 Y1 n0; one id's state, read by consume(): 0
redis    %s keys kept: true; first: Y2 Y2 Y2 Y1; again: Y0 Y1 Y1 n0; one id's state, read by consume(): 0
redis    %s keys kept: true; first: Y2 Y2 Y2 Y1; again: Y0 Y1 Y1 n0; one id's state, read by consume(): 0
redis    %s keys kept: true; first: Y2 Y2 Y2 Y1; again: Y0 Y1 Y1 n0; one id's state, read by consume(): 0
memory   %s keys kept: true; first: Y2 Y2 Y2 Y1; again: Y0 Y1 Y1 n0; one id's state, read by consume(): 0
memory   %s keys kept: true; first: Y2 Y2 Y2 Y1; again: Y0 Y1 Y1 n0; one id's state, read by consume(): 0
memory   %s keys kept: true; first: Y2 Y2 Y2 Y1; again: Y0 Y1 Y1 n0; one id's state, read by consume(): 0
memory   %s keys kept: true; first: Y2 Y2 Y2 Y1; again: Y0 Y1 Y1 n0; one id's state, read by consume(): 0
memory   %s keys kept: true; first: Y2 Y2 Y2 Y1; again: Y0 Y1 Y1 n0; one id's state, read by consume(): 0
memory   %s keys kept: true; first: Y2 Y2 Y2 Y1; again: Y0 Y1 Y1 n0; one id's state, read by consume(): 0
compound: 2
TypeError: CompoundRateLimiter::__construct(): Argument #1 ($limiters) must contain only rate limiters of this extension, int given at key "��"
