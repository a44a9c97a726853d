--TEST--
var_dump() of a CompoundRateLimiter shows every member (class, key prefix with ratelimit.key_prefix, policy as given), not the first member's prefix and an empty policy; a withDryRun() copy shows the same
--SKIPIF--
<?php require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.key_prefix=app:
--FILE--
<?php
$plan = new CompoundRateLimiter([
    new FixedWindowRateLimiter('memory://debug', 'api:second', 1, 10),
    new TokenBucketRateLimiter('memory://debug', 'api:day', 1000, 0.5),
]);
$plan->consume('k');
var_dump($plan);
var_dump($plan->withDryRun()->__debugInfo() === $plan->__debugInfo());
?>
--EXPECT--
object(CompoundRateLimiter)#1 (3) {
  ["class"]=>
  string(19) "CompoundRateLimiter"
  ["members"]=>
  array(2) {
    [0]=>
    array(3) {
      ["class"]=>
      string(22) "FixedWindowRateLimiter"
      ["keyPrefix"]=>
      string(14) "app:api:second"
      ["policy"]=>
      array(2) {
        ["window"]=>
        int(1)
        ["limit"]=>
        int(10)
      }
    }
    [1]=>
    array(3) {
      ["class"]=>
      string(22) "TokenBucketRateLimiter"
      ["keyPrefix"]=>
      string(11) "app:api:day"
      ["policy"]=>
      array(2) {
        ["capacity"]=>
        int(1000)
        ["refillRate"]=>
        float(0.5)
      }
    }
  }
  ["remaining"]=>
  int(9)
}
bool(true)
