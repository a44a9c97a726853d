//! Every algorithm replayed against a readable table, with the clock
//! injected: exact microsecond answers at chosen instants, no sleeps,
//! independent of how busy the machine is. Every table runs on each path a
//! decision can take: a real redis-server's Lua library, the server module's
//! commands on the same server (when `make test` loaded it), and a
//! `memory://` store (the core in process); each must give the table's answers.
//!
//! A row is `(at, op, cost) → (allowed, remaining, retry_after, reset_after, delay)`:
//! `at` is microseconds after the table's start, times in microseconds. The
//! rows run in order on one key, through the same `Limiter::decide_at` path
//! PHP calls use (policy → FCALL on a pooled connection, or the core on a
//! store → `Outcome`).

mod support;

use ratelimit::error::Error;
use ratelimit::limiter::algorithms::{fixed_window, gcra, leaky_bucket, sliding_window, token_bucket};
use ratelimit::limiter::decide::instance::{CallOptions, Limiter};
use ratelimit::limiter::{Op, Outcome, Policy};
use support::OPTS;

const S: i64 = 1_000_000;
const MS: i64 = 1_000;
const Y: bool = true;
const N: bool = false;

#[derive(Clone, Copy, Debug)]
enum Do {
    /// consume(cost)
    C,
    /// peek(): cost 1, writes nothing
    P,
}
use Do::{C, P};

type Row = (i64, Do, i64, (bool, i64, i64, i64, i64));

struct Bench {
    server: support::RedisServer,
    /// The tables' time zero (`test_clock_start_us`).
    start_us: i64,
}

impl Bench {
    fn new() -> Option<Self> {
        let server = support::start()?;
        let start_us = server.test_clock_start_us();
        Some(Bench { server, start_us })
    }

    fn limiter(&self, policy: Policy, name: &str) -> Limiter {
        self.server.limiter(policy, name)
    }

    /// The same policy on every path, each on a key (or store) of its own,
    /// with the options that choose the path.
    fn limiters(&self, policy: Policy, name: &str) -> Vec<(&'static str, Limiter, CallOptions)> {
        let store = format!("tables-{name}-{}", self.start_us);
        let lua = CallOptions { server_module: false, ..OPTS };
        let mut paths =
            vec![("lua", self.limiter(policy.clone(), name), lua), ("memory", support::memory_limiter(policy.clone(), &store, name), OPTS)];
        if support::server_module().is_some() {
            paths.push(("module", self.limiter(policy, &format!("{name}-module")), OPTS));
        } else {
            eprintln!("{name}: no RATELIMIT_SERVER_MODULE, the module's path is not run");
        }
        paths
    }

    fn decide(&self, limiter: &Limiter, at: i64, op: Op) -> Result<Outcome, Error> {
        self.decide_with(limiter, at, op, OPTS)
    }

    fn decide_with(&self, limiter: &Limiter, at: i64, op: Op, opts: CallOptions) -> Result<Outcome, Error> {
        limiter.decide_at(b"", op, opts, Some(self.start_us + at))
    }

    /// Replays `rows`; every mismatch is reported, then the test fails.
    fn replay(&self, name: &str, policy: Policy, rows: &[Row]) {
        let mut wrong = Vec::new();
        for (on, limiter, opts) in self.limiters(policy, name) {
            for (i, &(at, what, cost, want)) in rows.iter().enumerate() {
                let op = match what {
                    C => Op::Consume(cost),
                    P => Op::Peek,
                };
                let o = self.decide_with(&limiter, at, op, opts).unwrap_or_else(|e| panic!("{name} on {on} row {i}: {e}"));
                let got = (o.allowed, o.remaining, o.retry_after_us, o.reset_after_us, o.delay_us);
                if got != want {
                    wrong.push(format!("{on}: row {i} at {at} µs {what:?} {cost}: got {got:?}, want {want:?}"));
                }
            }
        }
        assert!(wrong.is_empty(), "{name}:\n{}", wrong.join("\n"));
    }

    /// A key holding what our scripts never write is refused, and left alone.
    fn refuses_foreign(&self, policy: Policy, name: &str, setup: &[&[&str]], says: &str) {
        let limiter = self.limiter(policy, name);
        let mut conn = self.server.connection().unwrap();
        let key = format!("table:{name}");
        for cmd in setup {
            let mut c = ::redis::cmd(cmd[0]);
            c.arg(&key);
            for a in &cmd[1..] {
                c.arg(*a);
            }
            c.query::<()>(&mut conn).unwrap();
        }
        let dump = |conn: &mut ::redis::Connection| ::redis::cmd("DUMP").arg(&key).query::<Vec<u8>>(conn).unwrap();
        let before = dump(&mut conn);
        // By the Lua library, then by the module where the server has it.
        for (on, opts) in [("lua", CallOptions { server_module: false, ..OPTS }), ("module", OPTS)] {
            match self.decide_with(&limiter, 0, Op::Consume(1), opts) {
                Err(Error::Redis(m)) => assert!(m.contains(says), "{name} on {on}: {m}"),
                other => panic!("{name} on {on}: a foreign value was not refused: {other:?}"),
            }
            assert_eq!(dump(&mut conn), before, "{name} on {on}: the foreign key was changed");
        }
    }
}

#[test]
#[rustfmt::skip]
fn fixed_window_table() {
    let Some(b) = Bench::new() else { return };
    // 3 per 10 s window; the window opens at the first accepted request.
    b.replay("fixed", fixed_window::policy(10.0, 3).unwrap(), &[
        (0,            P, 1, (Y, 3, 0,      0,      0)), // empty: nothing used, nothing to reset
        (0,            C, 1, (Y, 2, 0,      10 * S, 0)), // opens the window
        (S,            C, 2, (Y, 0, 0,      9 * S,  0)), // cost = what remains
        (2 * S,        C, 1, (N, 0, 8 * S,  8 * S,  0)), // full: retry when the window ends
        (2 * S,        P, 1, (N, 0, 8 * S,  8 * S,  0)),
        (10 * S - MS,  C, 1, (N, 0, MS,     MS,     0)), // the window's last millisecond
        (10 * S,       C, 3, (Y, 0, 0,      10 * S, 0)), // its end opens a new one; cost = limit
        (15 * S,       C, 1, (N, 0, 5 * S,  5 * S,  0)),
        (20 * S,       C, 2, (Y, 1, 0,      10 * S, 0)),
        (21 * S,       C, 2, (N, 1, 9 * S,  9 * S,  0)), // cost > remaining: denied, nothing taken
        (21 * S,       C, 1, (Y, 0, 0,      9 * S,  0)),
    ]);
    b.refuses_foreign(fixed_window::policy(10.0, 3).unwrap(), "fixed-foreign", &[&["SET", "not a number"]], "not a fixed-window counter");
    b.refuses_foreign(fixed_window::policy(10.0, 3).unwrap(), "fixed-hash", &[&["HSET", "f", "1"]], "WRONGTYPE");
}

#[test]
fn fixed_window_counter_without_expiry_gets_one_window() {
    let Some(b) = Bench::new() else { return };
    let limiter = b.limiter(fixed_window::policy(10.0, 3).unwrap(), "persisted");
    let mut conn = b.server.connection().unwrap();
    ::redis::cmd("SET").arg("table:persisted").arg("1").query::<()>(&mut conn).unwrap();
    let o = b.decide(&limiter, 0, Op::Peek).unwrap();
    assert_eq!((o.allowed, o.remaining, o.reset_after_us), (true, 2, 10 * S));
    let ttl: i64 = ::redis::cmd("PTTL").arg("table:persisted").query(&mut conn).unwrap();
    assert_eq!(ttl, -1, "peek writes nothing");
    let o = b.decide(&limiter, 0, Op::Consume(1)).unwrap();
    assert_eq!((o.allowed, o.remaining), (true, 1));
    let ttl: i64 = ::redis::cmd("PTTL").arg("table:persisted").query(&mut conn).unwrap();
    assert!(ttl > 0, "a consuming call gives it a window: PTTL {ttl}");
}

#[test]
#[rustfmt::skip]
fn sliding_log_table() {
    let Some(b) = Bench::new() else { return };
    // At most 3 in ANY 10 s; an entry counts while its time is in (now - 10 s, now].
    b.replay("log", sliding_window::policy(10.0, 3, 0).unwrap(), &[
        (0,             P, 1, (Y, 3, 0,        0,           0)),
        (0,             C, 1, (Y, 2, 0,        10 * S,      0)),
        (S,             C, 1, (Y, 1, 0,        10 * S,      0)),
        (2 * S,         C, 1, (Y, 0, 0,        10 * S,      0)),
        (3 * S,         C, 1, (N, 0, 7 * S,    9 * S,       0)), // the entry of 0 s leaves at 10 s
        (3 * S,         P, 1, (N, 0, 7 * S,    9 * S,       0)),
        (10 * S,        C, 1, (Y, 0, 0,        10 * S,      0)), // exactly one window later: 0 s is out
        (10 * S + S / 2, C, 2, (N, 0, 3 * S / 2, 19 * S / 2, 0)), // 2 must leave: the 2nd oldest (2 s) at 12 s
        (12 * S,        C, 2, (Y, 0, 0,        10 * S,      0)), // cost = limit - what is left (10 s)
        (12 * S,        C, 1, (N, 0, 8 * S,    10 * S,      0)),
        // a burst inside one microsecond: every request counts
        (40 * S,        C, 1, (Y, 2, 0,        10 * S,      0)),
        (40 * S,        C, 1, (Y, 1, 0,        10 * S,      0)),
        (40 * S,        C, 1, (Y, 0, 0,        10 * S,      0)),
        (40 * S,        C, 1, (N, 0, 10 * S,   10 * S,      0)),
        // the clock goes back 5 s (a failover): entries "in the future" still count
        (35 * S,        C, 1, (N, 0, 15 * S,   15 * S,      0)),
        (35 * S,        P, 1, (N, 0, 15 * S,   15 * S,      0)),
        // long idle: everything has left
        (100 * S,       P, 1, (Y, 3, 0,        0,           0)),
    ]);
    b.refuses_foreign(sliding_window::policy(10.0, 3, 0).unwrap(), "log-foreign", &[&["SET", "x"]], "WRONGTYPE");
}

#[test]
#[rustfmt::skip]
fn sliding_blocks_table() {
    let Some(b) = Bench::new() else { return };
    // At most 4 in any 10 s, counted in 5 slices of 2 s; every slice that
    // overlaps (now - 10 s, now] counts, so it may deny up to a slice early.
    b.replay("blocks", sliding_window::policy(10.0, 4, 5).unwrap(), &[
        (0,             P, 1, (Y, 4, 0,       0,           0)),
        (0,             C, 1, (Y, 3, 0,       12 * S,      0)), // slice [0, 2 s) leaves the window at 12 s
        (S,             C, 2, (Y, 1, 0,       11 * S,      0)),
        (3 * S,         C, 1, (Y, 0, 0,       11 * S,      0)), // slice [2, 4 s) leaves at 14 s
        (5 * S,         C, 1, (N, 0, 7 * S,   9 * S,       0)), // fits once slice 0 leaves, at 12 s
        (5 * S,         P, 1, (N, 0, 7 * S,   9 * S,       0)),
        (12 * S - 1,    C, 1, (N, 0, 1,       2 * S + 1,   0)), // one µs before it does
        (12 * S,        C, 1, (Y, 2, 0,       12 * S,      0)),
        (12 * S,        C, 3, (N, 2, 2 * S,   12 * S,      0)), // cost > remaining: wait for slice 1
        (14 * S,        C, 3, (Y, 0, 0,       12 * S,      0)), // cost = what remains
        // the clock goes back 1 s: slices newer than now still count
        (13 * S,        C, 1, (N, 0, 11 * S,  13 * S,      0)),
        (100 * S,       P, 1, (Y, 4, 0,       0,           0)),
    ]);
    b.refuses_foreign(sliding_window::policy(10.0, 4, 5).unwrap(), "blocks-foreign", &[&["HSET", "not a slice", "1"]], "not a sliding-window counter");
    b.refuses_foreign(sliding_window::policy(10.0, 4, 5).unwrap(), "blocks-string", &[&["SET", "x"]], "WRONGTYPE");
}

#[test]
#[rustfmt::skip]
fn token_bucket_table() {
    let Some(b) = Bench::new() else { return };
    // 4 tokens, 2 per second, starts full.
    b.replay("token", token_bucket::policy(4, 2.0).unwrap(), &[
        (0,            P, 1, (Y, 4, 0,        0,             0)),
        (0,            C, 1, (Y, 3, 0,        500 * MS,      0)),
        (0,            C, 3, (Y, 0, 0,        2 * S,         0)), // cost = what remains
        (250 * MS,     C, 1, (N, 0, 250 * MS, 1750 * MS,     0)), // half a token so far
        (500 * MS,     P, 1, (Y, 1, 0,        1500 * MS,     0)),
        (750 * MS,     C, 2, (N, 1, 250 * MS, 1250 * MS,     0)), // 1.5 tokens: cost > remaining
        (750 * MS,     C, 1, (Y, 0, 0,        1750 * MS,     0)), // the half token is kept
        (S,            C, 1, (Y, 0, 0,        2 * S,         0)), // ... and adds up to a whole one
        // the clock goes back 100 ms: nothing refills
        (900 * MS,     C, 1, (N, 0, 500 * MS, 2 * S,         0)),
        // long idle: full again (the state is stale, not trusted beyond capacity)
        (100 * S,      C, 4, (Y, 0, 0,        2 * S,         0)),
    ]);
    // Slow refills keep their fractions: 0.3 per second.
    b.replay("token-slow", token_bucket::policy(2, 0.3).unwrap(), &[
        (0,            C, 2, (Y, 0, 0,         6_666_667, 0)),
        (S,            C, 1, (N, 0, 2_333_334, 5_666_667, 0)),
        (3_333_334,    C, 1, (Y, 0, 0,         6_666_666, 0)), // 1.0000002 tokens came
    ]);
    b.refuses_foreign(token_bucket::policy(4, 2.0).unwrap(), "token-foreign", &[&["SET", "0123456789abcdef"]], "not a token bucket");
    b.refuses_foreign(token_bucket::policy(4, 2.0).unwrap(), "token-short", &[&["SET", "1.5"]], "not a token bucket");
}

#[test]
#[rustfmt::skip]
fn leaky_bucket_table() {
    let Some(b) = Bench::new() else { return };
    // 4 units, draining 2 per second; an accepted request leaks out after `delay`.
    b.replay("leaky", leaky_bucket::policy(4, 2.0, 1).unwrap(), &[
        (0,            P, 1, (Y, 4, 0,        0,         0)),
        (0,            C, 1, (Y, 3, 0,        500 * MS,  0)),
        (0,            C, 2, (Y, 1, 0,        1500 * MS, 500 * MS)),  // leaks out after the first
        (0,            C, 2, (N, 1, 500 * MS, 1500 * MS, 0)),         // cost > remaining
        (500 * MS,     C, 2, (Y, 0, 0,        2 * S,     S)),         // cost = what remains
        (500 * MS,     P, 1, (N, 0, 500 * MS, 2 * S,     0)),
        (1250 * MS,    C, 1, (Y, 0, 0,        1750 * MS, 1250 * MS)), // 2.5 left: fractions kept
        // the clock goes back 250 ms: nothing drains
        (S,            C, 1, (N, 0, 250 * MS, 1750 * MS, 0)),
        (10 * S,       P, 1, (Y, 4, 0,        0,         0)),
    ]);
    // requestSize 2: each request of cost 1 adds 2 units; limit/remaining in units.
    b.replay("leaky-sized", leaky_bucket::policy(4, 2.0, 2).unwrap(), &[
        (0,            C, 2, (Y, 0, 0,        2 * S,     0)),
        (500 * MS,     C, 1, (N, 1, 500 * MS, 1500 * MS, 0)),
        (S,            C, 1, (Y, 0, 0,        2 * S,     S)),
    ]);
    b.refuses_foreign(leaky_bucket::policy(4, 2.0, 1).unwrap(), "leaky-foreign", &[&["SET", "not sixteen bytes"]], "not a leaky bucket");
}

/// redis-cell's own table (src/cell/mod.rs `it_rate_limits`: limit 5, one per
/// second), through `throttle()`'s mapping to the CL.THROTTLE tuple
/// `[limited, limit, remaining, retry_after, reset_after]`, plus ours.
#[test]
#[rustfmt::skip]
fn gcra_redis_cell_table() {
    let Some(b) = Bench::new() else { return };
    let cases: &[(i64, i64, [i64; 5])] = &[
        (0,          6, [1, 5, 5, -1, 0]),  // never larger than the maximum
        (0,          1, [0, 5, 4, -1, 1]),
        (0,          1, [0, 5, 3, -1, 2]),
        (0,          1, [0, 5, 2, -1, 3]),
        (0,          1, [0, 5, 1, -1, 4]),
        (0,          1, [0, 5, 0, -1, 5]),
        (0,          1, [1, 5, 0, 1, 5]),
        (3000 * MS,  1, [0, 5, 2, -1, 3]),
        (3100 * MS,  1, [0, 5, 1, -1, 4]),  // reset 3.9 s: rounded up
        (4000 * MS,  1, [0, 5, 1, -1, 4]),
        (8000 * MS,  1, [0, 5, 4, -1, 1]),
        (9500 * MS,  1, [0, 5, 4, -1, 1]),
        (9500 * MS,  0, [0, 5, 4, -1, 1]),  // zero quantity peeks
        (9500 * MS,  2, [0, 5, 2, -1, 3]),  // more than one unit at once
        (9500 * MS,  5, [1, 5, 2, 3, 3]),   // cannot exceed the limit
        (30000 * MS, 1, [0, 5, 4, -1, 1]),  // ours: a TAT long past counts as now
    ];
    let mut wrong = Vec::new();
    for (on, limiter, opts) in b.limiters(gcra::policy(4, 1, 1.0).unwrap(), "cell") {
        for (i, &(at, quantity, want)) in cases.iter().enumerate() {
            let op = gcra::throttle_op(quantity, limiter.limit()).unwrap();
            let got = gcra::cl_throttle(quantity, &b.decide_with(&limiter, at, op, opts).unwrap());
            if got != want {
                wrong.push(format!("{on}: case {i} at {at} µs quantity {quantity}: got {got:?}, want {want:?}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
#[rustfmt::skip]
fn gcra_table() {
    let Some(b) = Bench::new() else { return };
    // limit 3 (maxBurst 2), one per 2 s: interval 2 s, tolerance 6 s.
    b.replay("gcra", gcra::policy(2, 1, 2.0).unwrap(), &[
        (0,            P, 1, (Y, 3, 0,        0,      0)),
        (0,            C, 1, (Y, 2, 0,        2 * S,  0)),
        (0,            C, 2, (Y, 0, 0,        6 * S,  0)), // cost = what remains
        (S,            C, 1, (N, 0, S,        5 * S,  0)), // the next slot frees at 2 s
        (S,            P, 1, (N, 0, S,        5 * S,  0)),
        (2 * S,        C, 2, (N, 1, 2 * S,    4 * S,  0)), // cost > remaining
        (2 * S,        C, 1, (Y, 0, 0,        6 * S,  0)),
        // the clock goes back 1 s: the TAT is ahead, nothing is given back
        (S,            C, 1, (N, 0, 3 * S,    7 * S,  0)),
        (100 * S,      P, 1, (Y, 3, 0,        0,      0)),
    ]);
    b.refuses_foreign(gcra::policy(2, 1, 2.0).unwrap(), "gcra-foreign", &[&["SET", "1.5"]], "not a GCRA timestamp");
}
