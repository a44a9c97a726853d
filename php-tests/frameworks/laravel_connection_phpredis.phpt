--TEST--
Laravel drop-in: the connection as Laravel's phpredis client reads it: scheme tls, a tls:// host or a rediss:// URL with context.stream options; stream options without TLS are not TLS; a cluster's password and TLS context from its options
--SKIPIF--
<?php $phpredis = 'Laravel on the phpredis client'; require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/laravel_app.inc';

use Illuminate\Config\Repository;
use RateLimit\Laravel\RedisTarget;
use RateLimit\Laravel\StepAside;

function target(array $redis): string
{
    $cache = ['default' => 'redis', 'prefix' => 'app', 'stores' => ['redis' => ['driver' => 'redis', 'connection' => 'cache']]];
    try {
        $t = RedisTarget::ofLimiterStore(new Repository(['cache' => $cache, 'database' => ['redis' => ['client' => 'phpredis'] + $redis]]));
    } catch (StepAside $why) {
        return 'stock: ' . $why->getMessage();
    }
    return json_encode($t->connection, JSON_UNESCAPED_SLASHES) . ($t->cluster ? ' (cluster)' : '');
}
$conn = ['host' => '10.0.0.5', 'port' => 6380, 'password' => 'secret'];
$stream = ['context' => ['stream' => ['cafile' => '/etc/ca.pem', 'verify_peer' => true]]];
echo target(['cache' => $conn + ['scheme' => 'tls'] + $stream]), "\n";
echo target(['cache' => ['host' => 'tls://10.0.0.5'] + $conn + $stream]), "\n";
echo target(['cache' => ['url' => 'rediss://default:pw@cache.example.net:6380/1'] + $stream]), "\n";
echo target(['cache' => $conn + ['context' => ['stream' => ['local_cert' => '/c.pem', 'local_pk' => '/k.pem']], 'scheme' => 'tls']]), "\n";
// phpredis applies stream options to TLS streams only: a plain connection stays plain.
echo target(['cache' => $conn + $stream]), "\n";
echo target(['cache' => $conn + ['scheme' => 'tls', 'context' => ['stream' => ['verify_peer_name' => false]]]]), "\n";
// A cluster: phpredis reads the password and the TLS context (the options themselves) from the options.
$nodes = [['scheme' => 'tls', 'host' => '10.0.1.1', 'port' => 7000], ['scheme' => 'tls', 'host' => '10.0.1.2', 'port' => 7001]];
echo target(['options' => ['cluster' => 'redis', 'password' => 'pw', 'context' => ['cafile' => '/etc/ca.pem']], 'clusters' => ['cache' => $nodes]]), "\n";
echo target(['options' => ['password' => 'pw'], 'clusters' => ['cache' => [['host' => '10.0.1.1', 'port' => 7000]]]]), "\n";
?>
--EXPECT--
{"host":"10.0.0.5","port":6380,"scheme":"tls","ssl":{"cafile":"/etc/ca.pem","verify_peer":true},"auth":"secret"}
{"host":"10.0.0.5","port":6380,"scheme":"tls","ssl":{"cafile":"/etc/ca.pem","verify_peer":true},"auth":"secret"}
{"host":"cache.example.net","port":6380,"scheme":"tls","ssl":{"cafile":"/etc/ca.pem","verify_peer":true},"auth":["default","pw"],"database":1}
{"host":"10.0.0.5","port":6380,"scheme":"tls","ssl":{"local_cert":"/c.pem","local_pk":"/k.pem"},"auth":"secret"}
{"host":"10.0.0.5","port":6380,"auth":"secret"}
stock: TLS option verify_peer_name => false with verify_peer on: the extension verifies the peer whole (chain and host name) or not at all (verify_peer => false)
{"cluster":["10.0.1.1:7000","10.0.1.2:7001"],"scheme":"tls","ssl":{"cafile":"/etc/ca.pem"},"auth":"pw"} (cluster)
{"cluster":["10.0.1.1:7000"],"auth":"pw"} (cluster)
