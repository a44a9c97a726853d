--TEST--
The harness stops a redis-server of a test that dies before rl_stop_redis() (here an uncaught exception): neither the server nor its temp dir is left behind
--SKIPIF--
<?php $needs = ['posix']; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';
$script = tempnam(sys_get_temp_dir(), 'rl-dies');
file_put_contents($script, '<?php require ' . var_export(__DIR__ . '/config.inc', true) . ';
$s = rl_start_redis();
echo $s["pid"], " ", $s["dir"], "\n";
throw new LogicException("the test dies");');
// The same PHP and extensions as this test (posix among them), no php.ini.
$out = (string) shell_exec(rl_php_shell() . ' ' . escapeshellarg($script) . ' 2>&1');
unlink($script);
[$pid, $dir] = explode(' ', trim(strtok($out, "\n")), 2) + [1 => ''];
echo "the child started a server: ", var_export(ctype_digit($pid) && $dir !== '', true), "\n";
echo "and died: ", var_export(str_contains($out, 'LogicException'), true), "\n";
echo "its server is gone: ", var_export(ctype_digit($pid) && !posix_kill((int) $pid, 0), true), "\n";
echo "its dir is gone: ", var_export($dir !== '' && !is_dir($dir), true), "\n";
?>
--EXPECT--
the child started a server: true
and died: true
its server is gone: true
its dir is gone: true
