--TEST--
consumeMany(): array keys and ids that are not UTF-8 (PHP's strings are binary) are kept and decided like any other, every class, on Redis and memory://
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
