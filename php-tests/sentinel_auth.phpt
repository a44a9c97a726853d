--TEST--
Redis Sentinel with passwords: the master's (auth, or the DSN's user:password) and the sentinels' own (sentinel_auth, or ?sentinel_user=&sentinel_password=), a password or an ACL user; a missing or wrong one on either side is a RateLimiterException saying which side refused, never showing a password
--SKIPIF--
<?php $needs = ['posix']; require __DIR__ . '/skipif.inc'; ?>
--INI--
ratelimit.connect_timeout=1
ratelimit.timeout=1
--FILE--
<?php
require __DIR__ . '/config.inc';
require __DIR__ . '/sentinel.inc';
$set = rl_start_sentinels(replicas: 0, sentinels: 1, quorum: 1, masterArgs: ['--requirepass', 'master-pw'],
    sentinelConf: ['requirepass sentinel-pw', 'user sam on >sam-pw +@all']);
$s = $set['sentinels'][0];
$p = rl_prefix();
$show = fn (string $m) => preg_replace('/:\d{4,5}\b/', ':PORT', $m);
// A Redis 6.0 sentinel has no ACL users (6.2 added them): there the ACL rows
// must be refused as a wrong password is; elsewhere they must decide.
[$host, $port] = explode(':', $s);
$probe = new RlClient();
$probe->connect($host, (int) $port);
$sentinelAcl = @$probe->auth(['sam', 'sam-pw']) === true;
$acl = fn (string $got) => $got === ($sentinelAcl ? 'YYn'
    : 'RateLimiterException: Redis at redis-sentinel://127.0.0.1:PORT#mymaster user default sentinel user sam: no sentinel answered (127.0.0.1:PORT: authentication failed (wrong user name or password))')
    ? 'as the sentinel allows (YYn with ACL users; refused by a Redis 6.0 sentinel)' : "UNEXPECTED: $got";
foreach ([
    "both passwords (DSN)" => "redis-sentinel://:master-pw@$s?sentinel_password=sentinel-pw#mymaster",
    "both passwords (array)" => ['sentinel' => [$s], 'service' => 'mymaster', 'auth' => 'master-pw', 'sentinel_auth' => 'sentinel-pw'],
    "a sentinel ACL user (DSN)" => "redis-sentinel://default:master-pw@$s?sentinel_user=sam&sentinel_password=sam-pw#mymaster",
    "a sentinel ACL user (array)" => ['sentinel' => [$s], 'service' => 'mymaster', 'auth' => ['default', 'master-pw'], 'sentinel_auth' => ['sam', 'sam-pw']],
    "no sentinel password" => "redis-sentinel://:master-pw@$s#mymaster",
    "a wrong sentinel password" => ['sentinel' => [$s], 'service' => 'mymaster', 'auth' => 'master-pw', 'sentinel_auth' => 'wrong-pw'],
    "no master password" => "redis-sentinel://$s?sentinel_password=sentinel-pw#mymaster",
    "a wrong master password" => ['sentinel' => [$s], 'service' => 'mymaster', 'auth' => 'wrong-pw', 'sentinel_auth' => 'sentinel-pw'],
] as $what => $connection) {
    try {
        $l = new GcraRateLimiter($connection, "$p:$what", 1, 2, 60);
        $got = implode('', array_map(fn ($r) => $r->allowed ? 'Y' : 'n', [$l->consume('x'), $l->consume('x'), $l->consume('x')]));
    } catch (Throwable $e) {
        $got = get_class($e) . ': ' . $show($e->getMessage());
        if (preg_match('/(master|sentinel|sam|wrong)-pw/', $e->getMessage())) $got .= "\n  PASSWORD SHOWN";
    }
    echo "$what: ", str_contains($what, 'ACL') ? $acl($got) : $got, "\n";
}
?>
--EXPECT--
both passwords (DSN): YYn
both passwords (array): YYn
a sentinel ACL user (DSN): as the sentinel allows (YYn with ACL users; refused by a Redis 6.0 sentinel)
a sentinel ACL user (array): as the sentinel allows (YYn with ACL users; refused by a Redis 6.0 sentinel)
no sentinel password: RateLimiterException: Redis at redis-sentinel://127.0.0.1:PORT#mymaster: no sentinel answered (127.0.0.1:PORT: NOAUTH Authentication required.)
a wrong sentinel password: RateLimiterException: Redis at redis-sentinel://127.0.0.1:PORT#mymaster: no sentinel answered (127.0.0.1:PORT: authentication failed (wrong user name or password))
no master password: RateLimiterException: Redis at redis-sentinel://127.0.0.1:PORT#mymaster: the master 127.0.0.1:PORT the sentinels named: NOAUTH Authentication required.
a wrong master password: RateLimiterException: Redis at redis-sentinel://127.0.0.1:PORT#mymaster: the master 127.0.0.1:PORT the sentinels named: authentication failed (wrong user name or password)
