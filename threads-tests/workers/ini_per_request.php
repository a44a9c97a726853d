<?php
// One request of ini_per_request.phpt. A request whose thread + request
// number is even sets ratelimit.redis_url (to $_GET['other'], a second
// server) and ratelimit.key_prefix for itself with ini_set(); the others keep
// php.ini's values. Each builds limiters in the short form (which reads both
// settings) 20 times, with pauses, while other threads change theirs, and
// decides once with each: the keys it leaves show which settings it saw.
$t = (int) $_GET['thread'];
$r = (int) $_GET['request'];
$own = ($t + $r) % 2 === 0;
if ($own) {
    ini_set('ratelimit.redis_url', $_GET['other']);
    ini_set('ratelimit.key_prefix', "own-$t-$r:");
}
for ($i = 0; $i < 20; $i++) {
    (new FixedWindowRateLimiter("ini-$t-$r", 100000, 1000))->consume("id$i");
    usleep(random_int(0, 500));
}
echo "request $t $r ", $own ? 'own' : 'ini', "\n";
