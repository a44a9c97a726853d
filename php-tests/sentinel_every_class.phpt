--TEST--
Redis Sentinel (1 master, 1 replica, 3 sentinels, started by the test): every class, consumeMany and CompoundRateLimiter decide exactly through redis-sentinel:// and the 'sentinel' array, on the master the sentinels name, in the db asked for; the replica holds no key it was not sent by its master; a master demoted by hand (REPLICAOF, no failover) is never written: its READONLY drops the connection, the sentinels are asked again and the ROLE check refuses it, until it is master again; sentinels that do not answer are passed over, and one that hangs is asked last once another has answered; forked children accept exactly the limit
--SKIPIF--
<?php $needs = ['posix', 'pcntl']; require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.connect_timeout=1
ratelimit.timeout=1
--CONFLICTS--
heavy # one such test at a time per pass (scripts/run-tests.bash says why)
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/classes.inc';
require __DIR__ . '/sentinel.inc';
$set = rl_start_sentinels();
$master = rl_redis($set['master']);
$replica = rl_redis($set['replicas'][0]);
$dsn = 'redis-sentinel://' . implode(',', $set['sentinels']) . '/2#mymaster';
$array = ['sentinel' => $set['sentinels'], 'service' => 'mymaster', 'database' => 2];
$p = rl_prefix();
$yn = fn (array $results) => implode('', array_map(fn ($r) => $r->allowed ? 'Y' : 'n', $results));
$master->select(2);
$replica->select(2);

foreach (['DSN' => $dsn, 'array' => $array] as $form => $connection) {
    echo "-- $form\n";
    foreach (rl_classes() as $kind => $c) {
        $l = rl_long($kind, $connection, "$p:$form:$kind", 3);
        $seq = [];
        for ($i = 0; $i < 4; $i++) $seq[] = $l->consume('id');
        $many = $l->consumeMany(['a', 'b', 'a', 'b', 'a', 'b', 'a', 'b']);
        printf("%-8s consume %s  consumeMany %s  %s\n", $kind, $yn($seq), $yn($many), rl_state($kind, $master, "$p:$form:$kind:id", 3));
    }
    $compound = new CompoundRateLimiter([rl_long('fixed', $connection, "$p:$form:c1", 2), rl_long('gcra', $connection, "$p:$form:c2", 3)]);
    echo "compound ", $yn([$compound->consume('k'), $compound->consume('k'), $compound->consume('k')]), "\n";
}
echo "keys on the master (db 2): ", count($master->keys("$p:*")), ", in db 0: ", count(rl_redis($set['master'])->keys("$p:*")), "\n";
$keys = $master->keys("$p:*");
echo "the replica has the same keys: ", rl_wait_replica_copy($master, $replica, $keys) && count($replica->keys("$p:*")) === count($keys) ? 'yes' : 'no', "\n";

echo "-- the master demoted by hand: its READONLY is not a decision, and it is not written again\n";
$l = rl_long('token', $dsn, "$p:demoted", 3);
echo $yn([$l->consume('x')]), "\n";
$nowhere = rl_free_port(); // a master that is not there: the demoted one stays a read-only replica
$master->rawCommand('REPLICAOF', '127.0.0.1', (string) $nowhere);
rl_throws(fn () => $l->consume('x'));
rl_throws(fn () => $l->consume('x'));
echo "its bucket was left as it was: ", rl_state('token', $master, "$p:demoted:x", 3), "\n";
$master->rawCommand('REPLICAOF', 'NO', 'ONE');
echo $yn([$l->consume('x'), $l->consume('x'), $l->consume('x')]), "  ", rl_state('token', $master, "$p:demoted:x", 3), "\n";

echo "-- sentinels that do not answer are passed over\n";
$dead = '127.0.0.1:' . rl_free_port();
$l = rl_long('gcra', ['sentinel' => [$dead, $set['sentinels'][2]], 'service' => 'mymaster'], "$p:passed", 2);
echo $yn([$l->consume('x'), $l->consume('x'), $l->consume('x')]), "\n";

echo "-- a sentinel that hangs is waited for once; after that the one that answered is asked first\n";
$hang = rl_unanswered_connect();
$l = rl_long('gcra', ['sentinel' => [substr($hang['url'], strlen('redis://')), $set['sentinels'][1]], 'service' => 'mymaster', 'timeout' => 0.5], "$p:hang", 5);
$t = microtime(true);
$l->consume('x');
$first = microtime(true) - $t;
$master->rawCommand('CLIENT', 'KILL', 'TYPE', 'normal'); // every client but this one: the next call connects again
$t = microtime(true);
$l->consume('x');
$second = microtime(true) - $t;
echo "the first call waited for the hanging sentinel's connect timeout: ", $first >= 0.45 ? 'yes' : sprintf('no (%.3f s)', $first), "\n";
echo "the reconnect did not: ", $second < 0.4 ? 'yes' : sprintf('no (%.3f s)', $second), "\n";
echo "state: ", rl_state('gcra', rl_redis($set['master']), "$p:hang:x", 5), "\n";

echo "-- forked children (a connection each): 4 x 40 on a limit of 100\n";
$shared = rl_long('fixed', $dsn, "$p:fork", 100);
$shared->peek('warm'); // the parent's connection is open before fork()
echo rl_hammer(fn () => $shared->consume('f')->allowed, 4, 40), " accepted\n";
echo "counter ", $master->get("$p:fork:f"), " (denials write nothing)\n";
?>
--EXPECTF--
-- DSN
fixed    consume YYYn  consumeMany YYYYYYnn  counter '3'
sliding  consume YYYn  consumeMany YYYYYYnn  entries 3
blocks   consume YYYn  consumeMany YYYYYYnn  counted in the slices 3
token    consume YYYn  consumeMany YYYYYYnn  tokens 0.0
leaky    consume YYYn  consumeMany YYYYYYnn  level 3.0
gcra     consume YYYn  consumeMany YYYYYYnn  TAT 3.0 intervals ahead
compound YYn
-- array
fixed    consume YYYn  consumeMany YYYYYYnn  counter '3'
sliding  consume YYYn  consumeMany YYYYYYnn  entries 3
blocks   consume YYYn  consumeMany YYYYYYnn  counted in the slices 3
token    consume YYYn  consumeMany YYYYYYnn  tokens 0.0
leaky    consume YYYn  consumeMany YYYYYYnn  level 3.0
gcra     consume YYYn  consumeMany YYYYYYnn  TAT 3.0 intervals ahead
compound YYn
keys on the master (db 2): 40, in db 0: 0
the replica has the same keys: yes
-- the master demoted by hand: its READONLY is not a decision, and it is not written again
Y
RateLimiterException: Redis at redis-sentinel://%s#mymaster db 2: the sentinels named 127.0.0.1:%d as master, but it is a replica (a failover is under way); asked 3 times
RateLimiterException: Redis at redis-sentinel://%s#mymaster db 2: the sentinels named 127.0.0.1:%d as master, but it is a replica (a failover is under way); asked 3 times
its bucket was left as it was: tokens 2.0
YYn  tokens 0.0
-- sentinels that do not answer are passed over
YYn
-- a sentinel that hangs is waited for once; after that the one that answered is asked first
the first call waited for the hanging sentinel's connect timeout: yes
the reconnect did not: yes
state: TAT 2.0 intervals ahead
-- forked children (a connection each): 4 x 40 on a limit of 100
100 accepted
counter 100 (denials write nothing)
