--TEST--
pcntl_fork() after connections exist: parent and 4 children each get exactly their own sequence of replies
--SKIPIF--
<?php $needs = ['pcntl', 'posix']; require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
$p = rl_prefix();
$l = new FixedWindowRateLimiter(RL_URL, $p, 60, 300);
$l->isAllowed('warmup');          // the parent's connection exists before fork()

$files = [];
$pids = [];
for ($c = 1; $c <= 4; $c++) {
    $files[$c] = tempnam(sys_get_temp_dir(), 'rl-fork');
    $pid = pcntl_fork();
    if ($pid === 0) {
        // Each child counts down its own key; any crossed reply breaks the sequence.
        $ok = true;
        for ($i = 1; $i <= 300; $i++) {
            $r = $l->consume("child$c");
            $ok = $ok && $r->allowed && $r->remaining === 300 - $i;
        }
        file_put_contents($files[$c], $ok ? 'ok' : 'crossed');
        rl_child_exit();
    }
    $pids[] = $pid;
}
$ok = true;
for ($i = 1; $i <= 300; $i++) {
    $r = $l->consume('parent');
    $ok = $ok && $r->allowed && $r->remaining === 300 - $i;
}
foreach ($pids as $pid) pcntl_waitpid($pid, $status);
echo "parent: ", $ok ? 'ok' : 'crossed', "\n";
foreach ($files as $c => $f) {
    echo "child$c: ", file_get_contents($f), "\n";
    unlink($f);
}
echo "warmup untouched: ", rl_redis()->get("$p:warmup"), "\n";
?>
--EXPECT--
parent: ok
child1: ok
child2: ok
child3: ok
child4: ok
warmup untouched: 1
