--TEST--
Symfony Semaphore on RateLimit\Symfony\ConcurrencyStore (symfony/semaphore's PersistingStoreInterface on ConcurrencyLimiter): 8 processes racing on a limit of 3 never have more than 3 inside (the server's count); release(), a destroyed Semaphore (autoRelease) and the end of a request that died in a fatal error give the slot back; refresh() renews; a weight takes that many slots; acquire() again after the ttl ran out takes a slot anew (refused while another holds it); Symfony's own Redis store measured beside it: after a request dies at max_execution_time its slot stays taken until the ttl, the drop-in's is back
--EXTENSIONS--
pcntl
posix
--SKIPIF--
<?php
require __DIR__ . '/../skipif.inc';
if (!is_file('/usr/share/php/Symfony/Component/Semaphore/autoload.php')) die('skip needs php-symfony-semaphore (make deps installs it)');
?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
require '/usr/share/php/Symfony/Component/Semaphore/autoload.php';
require __DIR__ . '/../../integrations/symfony/autoload.php';
use RateLimit\Symfony\ConcurrencyStore;
use Symfony\Component\Semaphore\SemaphoreFactory;

$prefix = rl_prefix();
$factory = new SemaphoreFactory(new ConcurrencyStore(RL_URL, $prefix));
$seen = new ConcurrencyLimiter(RL_URL, $prefix, 3, 5.0);
$r = rl_redis();

$inside = rl_hammer(function () use ($factory, $seen, $r, $prefix) {
    $s = $factory->createSemaphore('race', 3, 1, 5.0);
    if (!$s->acquire()) return 0;
    if ($seen->inFlight('race') > 3) $r->rawCommand('INCR', "$prefix:over");
    usleep(5000);
    $s->release();
    return 1;
}, 8, 40);
echo "some got in: ", json_encode($inside > 0), "; more than 3 inside: ", var_export($r->get("$prefix:over"), true), "; in flight after: ", $seen->inFlight('race'), "\n";

$a = $factory->createSemaphore('k', 2, 1, 5.0);
$b = $factory->createSemaphore('k', 2, 1, 5.0);
$c = $factory->createSemaphore('k', 2, 1, 5.0);
var_dump($a->acquire(), $b->acquire(), $c->acquire(), $a->isAcquired(), $seen->inFlight('k'));
$a->refresh();
var_dump($a->isAcquired());
$a->release();
var_dump($a->isAcquired(), $seen->inFlight('k'), $c->acquire());
unset($b, $c); // autoRelease
var_dump($seen->inFlight('k'));
$w = new Symfony\Component\Semaphore\Semaphore(new Symfony\Component\Semaphore\Key('w', 3, 2), new ConcurrencyStore(RL_URL, $prefix), 5.0);
var_dump($w->acquire(), $seen->inFlight('w'));
$w2 = new Symfony\Component\Semaphore\Semaphore(new Symfony\Component\Semaphore\Key('w', 3, 2), new ConcurrencyStore(RL_URL, $prefix), 5.0);
var_dump($w2->acquire(), $seen->inFlight('w'));

// acquire() again once the ttl ran out takes a slot anew, as Symfony's own
// stores do: refused while another holder has the only one, granted after.
$e = $factory->createSemaphore('lapsed', 1, 1, 0.2);
var_dump($e->acquire());
usleep(250000);
$other = $factory->createSemaphore('lapsed', 1, 1, 5.0);
var_dump($e->isAcquired(), $other->acquire(), $e->acquire(), $seen->inFlight('lapsed'));
$other->release();
var_dump($e->acquire(), $seen->inFlight('lapsed'));
$e->release();

// A request that dies with the semaphore acquired: its slot is back at the request's end.
$code = 'require "/usr/share/php/Symfony/Component/Semaphore/autoload.php"; require ' . var_export(__DIR__ . '/../../integrations/symfony/autoload.php', true) . ';'
    . ' $s = (new Symfony\Component\Semaphore\SemaphoreFactory(new RateLimit\Symfony\ConcurrencyStore(' . var_export(RL_URL, true) . ', ' . var_export($prefix, true) . ')))->createSemaphore("dies", 1, 1, 30.0);'
    . ' echo $s->acquire() ? "acquired\n" : "refused\n"; undefined_function();';
$out = shell_exec(rl_php_shell() . ' -r ' . escapeshellarg($code) . ' 2>&1');
echo strtok($out, "\n"), '; in flight after: ', $seen->inFlight('dies'), "\n";

// Symfony's own Redis store beside it: a request that holds a semaphore and
// dies at max_execution_time (no destructor runs then, so no autoRelease)
// leaves stock's slot taken until its ttl; the drop-in's is back.
$dying = sys_get_temp_dir() . '/rl-semaphore-' . getmypid() . '.php';
foreach (['stock' => 'new Symfony\Component\Semaphore\Store\RedisStore(rl_framework_redis())',
          'drop-in' => 'new RateLimit\Symfony\ConcurrencyStore(RL_URL, ' . var_export($prefix, true) . ')'] as $who => $store) {
    file_put_contents($dying, '<?php require ' . var_export(__DIR__ . '/../config.inc', true) . ';'
        . ' require "/usr/share/php/Symfony/Component/Semaphore/autoload.php"; require ' . var_export(__DIR__ . '/../../integrations/symfony/autoload.php', true) . ';'
        . ' $s = (new Symfony\Component\Semaphore\SemaphoreFactory(' . $store . '))->createSemaphore(' . var_export("$prefix:timeout", true) . ', 1, 1, 30.0);'
        . ' echo $s->acquire() ? "acquired\n" : "refused\n"; set_time_limit(1); for (;;) {}');
    $out = shell_exec(rl_php_shell() . ' ' . escapeshellarg($dying) . ' 2>&1');
    $stores = ['stock' => new Symfony\Component\Semaphore\Store\RedisStore(rl_framework_redis()), 'drop-in' => new ConcurrencyStore(RL_URL, $prefix)];
    $next = (new SemaphoreFactory($stores[$who]))->createSemaphore("$prefix:timeout", 1, 1, 30.0);
    echo "$who after max_execution_time: ", strtok($out, "\n"), ', ', str_contains($out, 'Maximum execution time') ? 'timed out' : "did not time out: $out",
        '; the next acquire: ', var_export($next->acquire(), true), "\n";
    if ($next->isAcquired()) $next->release();
}
unlink($dying);
?>
--EXPECT--
some got in: true; more than 3 inside: false; in flight after: 0
bool(true)
bool(true)
bool(false)
bool(true)
int(2)
bool(true)
bool(false)
int(1)
bool(true)
int(0)
bool(true)
int(2)
bool(false)
int(2)
bool(true)
bool(false)
bool(true)
bool(false)
int(1)
bool(true)
int(1)
acquired; in flight after: 0
stock after max_execution_time: acquired, timed out; the next acquire: false
drop-in after max_execution_time: acquired, timed out; the next acquire: true
