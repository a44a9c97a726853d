<?php
// The hand-written phpredis limiters the extension replaces, as blog posts publish
// them (written for this project): a pipelined fixed window, an atomic sorted-set
// sliding log with unique members, an atomic hash token bucket. Same policy as the
// extension's cases: nothing is ever denied, so every call does the full work.
declare(strict_types=1);

const USERLAND_SLIDING_LOG = <<<'LUA'
local now, window = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, now - window)
local count = redis.call('ZCARD', KEYS[1])
if count >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return 1
LUA;

const USERLAND_TOKEN_BUCKET = <<<'LUA'
local capacity, per_ms, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens, ts = tonumber(state[1]), tonumber(state[2])
if tokens == nil then tokens, ts = capacity, now end
tokens = math.min(capacity, tokens + math.max(0, now - ts) * per_ms)
local allowed = 0
if tokens >= 1 then tokens, allowed = tokens - 1, 1 end
redis.call('HSET', KEYS[1], 'tokens', tokens, 'ts', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity / per_ms))
return allowed
LUA;

/** INCR + EXPIRE NX in one pipeline: the cheapest exact fixed window phpredis can do. */
function userland_fixed_window(Redis $r, int $limit, int $window): Closure
{
    return static function (string $id) use ($r, $limit, $window): bool {
        $key = "u:fw:$id";
        [$n] = $r->multi(Redis::PIPELINE)->incr($key)->rawCommand('EXPIRE', $key, $window, 'NX')->exec();
        return $n <= $limit;
    };
}

/** evalSha of a sorted-set log; members are unique (time + counter) so a burst counts every call. */
function userland_sliding_log(Redis $r, int $limit, int $window): Closure
{
    $sha = $r->script('load', USERLAND_SLIDING_LOG);
    $seq = 0;
    return static function (string $id) use ($r, $sha, $limit, $window, &$seq): bool {
        $now = (int) (microtime(true) * 1000);
        $member = $now . '-' . getmypid() . '-' . ++$seq;
        return 1 === $r->evalSha($sha, ["u:sw:$id", $now, $window * 1000, $limit, $member], 1);
    };
}

/** evalSha of a hash {tokens, ts} refilled by elapsed time. */
function userland_token_bucket(Redis $r, int $capacity, float $perSecond): Closure
{
    $sha = $r->script('load', USERLAND_TOKEN_BUCKET);
    return static function (string $id) use ($r, $sha, $capacity, $perSecond): bool {
        $now = sprintf('%.3f', microtime(true) * 1000);
        return 1 === $r->evalSha($sha, ["u:tb:$id", $capacity, $perSecond / 1000, $now], 1);
    };
}
