<?php
// One request of inflight.phpt, in one of many threads: takes a permit of
// $_GET['prefix'] (4 at once, lease 30 s) when one is free, checks the
// server's count while holding it, then ends by the request number: a
// release(), a permit left to the request's end, or exit() with it held.
// Prints "got <0|1> <in flight seen>".
require __DIR__ . '/../../php-tests/config.inc';
$l = new ConcurrencyLimiter(RL_URL, $_GET['prefix'], 4, 30.0);
$permit = $l->acquire('x');
echo 'got ', $permit === null ? 0 : 1, ' ', $l->inFlight('x'), "\n";
usleep(random_int(500, 3000));
match (((int) $_GET['thread'] + (int) $_GET['request']) % 3) {
    0 => $permit?->release(),
    1 => null,
    2 => exit(0),
};
