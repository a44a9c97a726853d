--TEST--
PHP code in a phpredis subclass is respected: its exceptions propagate unchanged, exit() exits, phpredis's own RedisException becomes the previous of our ValueError
--SKIPIF--
<?php $phpredis = 'its subclasses and their exceptions as the connection argument'; require __DIR__ . '/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/config.inc';

/** Looks connected to the test server; each subclass overrides one getter.
 *  Its timeouts too: phpredis's own getters answer false on an object that
 *  is not connected, against their float return type (a debug PHP stops there). */
class Connected extends Redis {
    public function isConnected(): bool { return true; }
    public function getHost(): string { return '127.0.0.1'; }
    public function getPort(): int { return RL_PORT; }
    public function getAuth(): mixed { return null; }
    public function getDbNum(): int { return 0; }
    public function getTimeout(): float { return 0.0; }
    public function getReadTimeout(): float { return 0.0; }
}
class AuthFromVault extends Connected {
    public function getAuth(): mixed { throw new LogicException('vault unavailable', 42); }
}
class BrokenIsConnected extends Connected {
    public function isConnected(): bool { throw new DomainException('no idea'); }
}
class FailingPhpredis extends Connected {
    public function getHost(): string { throw new RedisException('Redis server went away'); }
}
class Fine extends Connected {}

foreach ([new AuthFromVault, new BrokenIsConnected, new FailingPhpredis] as $redis) {
    try {
        new FixedWindowRateLimiter($redis, rl_prefix(), 60, 5);
        echo "no exception\n";
    } catch (Throwable $e) {
        echo get_class($redis), ': ', get_class($e), ' (', $e->getCode(), '): ', $e->getMessage(), "\n";
        if ($p = $e->getPrevious()) echo '  previous: ', get_class($p), ': ', $p->getMessage(), "\n";
    }
}
$l = new FixedWindowRateLimiter(new Fine, rl_prefix(), 60, 5);
var_dump($l->consume('a')->remaining);

echo "-- exit() in getDbNum() ends the script, as exit does\n";
$code = <<<'PHP'
class ExitingRedis extends Redis {
    public function isConnected(): bool { return true; }
    public function getHost(): string { return '127.0.0.1'; }
    public function getPort(): int { return 6379; }
    public function getAuth(): mixed { return null; }
    public function getDbNum(): int { echo "exit in getDbNum\n"; exit(7); }
}
try {
    new FixedWindowRateLimiter(new ExitingRedis, 'k', 60, 5);
    echo "constructed\n";
} catch (Throwable $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
} finally {
    echo "finally does not run on exit\n";
}
echo "after\n";
PHP;
// A child PHP without php.ini: an installed copy of the extension stays out.
$proc = proc_open([...rl_php_command(), '-r', $code], [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
echo stream_get_contents($pipes[1]), stream_get_contents($pipes[2]);
echo "exit code ", proc_close($proc), "\n";
?>
--EXPECT--
AuthFromVault: LogicException (42): vault unavailable
BrokenIsConnected: DomainException (0): no idea
FailingPhpredis: ValueError (0): FixedWindowRateLimiter::__construct(): Argument #1 ($connection) is a Redis object that could not be read: Redis::getHost() threw
  previous: RedisException: Redis server went away
int(4)
-- exit() in getDbNum() ends the script, as exit does
exit in getDbNum
exit code 7
