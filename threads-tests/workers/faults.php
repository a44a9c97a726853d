<?php
// One request of faults_under_threads.phpt: about 100 ms of decisions on the
// test's own server ($_GET['port']; ratelimit.timeout 0.3 s), each counted
// as decided, raised (RateLimiterException), or anything else, which must
// never happen. Ends at once when the file $_GET['stop'] exists. Prints
// "req <thread> <request> <start time> <decided> <raised> <other>".
$t = (int) $_GET['thread'];
$r = (int) $_GET['request'];
if (file_exists($_GET['stop'])) return;
$url = "redis://127.0.0.1:{$_GET['port']}";
$limiters = [new TokenBucketRateLimiter($url, 'faults', 1000000, 1000), new SlidingWindowRateLimiter($url, 'faults-log', 1000, 1000000)];
$started = microtime(true);
$decided = $raised = 0;
$other = $why = [];
while (microtime(true) - $started < 0.1) {
    foreach ($limiters as $limiter) {
        try {
            $limiter->consume("t$t");
            $decided++;
        } catch (RateLimiterException $e) {
            $raised++;
            $why[$e->getMessage()] = true;
        } catch (Throwable $e) {
            $other[] = get_class($e) . ': ' . $e->getMessage();
        }
    }
}
printf("req %d %d %.6f %d %d %d\n", $t, $r, $started, $decided, $raised, count($other));
foreach ($other as $o) echo "other $o\n";
foreach (array_keys($why) as $w) echo "why $started $w\n";
