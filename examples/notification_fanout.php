<?php
// A queue worker sending one notification to 200 recipients, at most 3 per
// recipient per hour: consumeMany() asks for all 200 in ONE round trip and
// answers under the same keys, exactly as 200 consume() calls in order would.
// Run: php -d extension=modules/ratelimit.so -d ratelimit.redis_url=redis://127.0.0.1:6379 examples/notification_fanout.php

$perRecipient = new SlidingWindowRateLimiter(null, 'notify:user', 3600, 3);

$recipients = [];
for ($i = 1; $i <= 200; $i++) {
    $recipients["msg-$i"] = 'user-' . ($i % 50); // 50 users, 4 messages each
}
$t = hrtime(true);
$answers = $perRecipient->consumeMany($recipients);
$ms = (hrtime(true) - $t) / 1e6;
$send = array_keys(array_filter($answers, fn (RateLimitResult $r) => $r->allowed));
printf("200 decisions in one round trip (%.1f ms): send %d, hold back %d\n", $ms, count($send), 200 - count($send));
printf("msg-1 %s, msg-151 %s (the 4th for user-1)\n",
    $answers['msg-1']->allowed ? 'sent' : 'held', $answers['msg-151']->allowed ? 'sent' : 'held');
foreach (array_unique($recipients) as $user) $perRecipient->reset($user);
