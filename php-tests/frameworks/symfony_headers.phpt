--TEST--
Symfony adapter: ExtensionLimiter::headers() gives the last decision's header fields in the factory's style ('x' by default, 'ietf' by configuration)
--SKIPIF--
<?php require __DIR__ . '/../skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../config.inc';
require_once '/usr/share/php/Symfony/Component/RateLimiter/autoload.php';
require_once __DIR__ . '/../../integrations/symfony/autoload.php';

use RateLimit\Symfony\ExtensionRateLimiterFactory;

$config = ['id' => rl_prefix(), 'policy' => 'fixed_window', 'limit' => 2, 'interval' => '30 seconds'];
foreach (['x', 'ietf'] as $style) {
    $limiter = (new ExtensionRateLimiterFactory($config + [], RL_URL, $style))->create("client-$style");
    echo "== $style\n";
    echo json_encode($limiter->headers()), "\n";
    for ($i = 0; $i < 3; $i++) {
        $limiter->consume();
        // Reset and Retry-After: whole seconds to the window's end, 30 just after it opened (29 on a slow machine).
        echo preg_replace('/(t=|":")(29|30)\b/', '${1}30', json_encode($limiter->headers())), "\n";
    }
}
echo json_encode((new ExtensionRateLimiterFactory($config, RL_URL))->create('client-x')->headers()), " (a new object: no decision yet)\n";
rl_throws(fn () => new ExtensionRateLimiterFactory($config, RL_URL, 'X'));
?>
--EXPECT--
== x
[]
{"X-RateLimit-Limit":"2","X-RateLimit-Remaining":"1","X-RateLimit-Reset":"30"}
{"X-RateLimit-Limit":"2","X-RateLimit-Remaining":"0","X-RateLimit-Reset":"30"}
{"X-RateLimit-Limit":"2","X-RateLimit-Remaining":"0","X-RateLimit-Reset":"30","Retry-After":"30"}
== ietf
[]
{"RateLimit-Policy":"\"default\";q=2","RateLimit":"\"default\";r=1;t=30"}
{"RateLimit-Policy":"\"default\";q=2","RateLimit":"\"default\";r=0;t=30"}
{"RateLimit-Policy":"\"default\";q=2","RateLimit":"\"default\";r=0;t=30","Retry-After":"30"}
[] (a new object: no decision yet)
ValueError: RateLimit\Symfony\ExtensionRateLimiterFactory::__construct(): Argument #3 ($headers) must be "x" or "ietf"
