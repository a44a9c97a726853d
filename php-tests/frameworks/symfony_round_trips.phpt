--TEST--
Symfony adapter: one Redis round trip per consume(), consume(0) and reset() (INFO stats total_reads_processed on a server of this test's own)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
require_once '/usr/share/php/Symfony/Component/RateLimiter/autoload.php';
require_once __DIR__ . '/../../integrations/symfony/autoload.php';

use RateLimit\Symfony\ExtensionRateLimiterFactory;

$server = rl_start_redis();
$info = rl_redis($server['port']);
function reads(RlClient $r): int
{
    return (int) $r->info('stats')['total_reads_processed'];
}
$url = 'redis://127.0.0.1:' . $server['port'];
foreach ([
    ['policy' => 'fixed_window', 'limit' => 10, 'interval' => '1 minute'],
    ['policy' => 'sliding_window', 'limit' => 10, 'interval' => '1 minute'],
    ['policy' => 'token_bucket', 'limit' => 10, 'rate' => ['interval' => '1 minute', 'amount' => 10]],
] as $config) {
    $limiter = (new ExtensionRateLimiterFactory($config + ['id' => 'rt'], $url))->create($config['policy']);
    $limiter->consume(0);   // connects, loads the script
    $calls = ['consume()' => fn () => $limiter->consume(), 'consume(0)' => fn () => $limiter->consume(0), 'reset()' => fn () => $limiter->reset()];
    $line = [];
    foreach ($calls as $name => $call) {
        $before = reads($info);
        for ($i = 0; $i < 15; $i++) {
            $call();   // consume(): 10 accepted, then denied
        }
        // The second INFO's own read is counted: minus one.
        $line[] = sprintf('%s %.2f', $name, (reads($info) - $before - 1) / 15);
    }
    printf("%-14s round trips per call: %s\n", $config['policy'], implode(', ', $line));
}
rl_stop_redis($server);
?>
--EXPECT--
fixed_window   round trips per call: consume() 1.00, consume(0) 1.00, reset() 1.00
sliding_window round trips per call: consume() 1.00, consume(0) 1.00, reset() 1.00
token_bucket   round trips per call: consume() 1.00, consume(0) 1.00, reset() 1.00
