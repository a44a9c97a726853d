//! refund(), charge() and reserve() replayed against readable tables with an
//! injected clock, on every path (the Lua library, the server module when
//! `make test` loaded it, a `memory://` store): exact microsecond answers.
//! What the tables show, per algorithm: a refunded unit is admitted again;
//! a charge's debt denies the next cost of 1 until exactly the time it takes
//! to pay it off (denied 1 µs before, accepted at it); a booking waits
//! exactly its delay and a later consume or booking cannot take its units.
//! Rows are `(at, op) → (allowed, remaining, retry_after, reset_after,
//! delay)` as in tests/algorithms.rs.

mod support;

use std::sync::Arc;

use ratelimit::limiter::algorithms::{fixed_window, gcra, leaky_bucket, sliding_window, token_bucket};
use ratelimit::limiter::decide::adjust::Adjust;
use ratelimit::limiter::decide::compound::Compound;
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
    C(i64),
    /// refund(units)
    R(i64),
    /// charge(units)
    G(i64),
    /// reserve(cost, maxWait µs)
    B(i64, i64),
}
use Do::{B, C, G, R};

type Row = (i64, Do, (bool, i64, i64, i64, i64));

fn paths(server: &support::RedisServer, policy: &Policy, name: &str, start: i64) -> Vec<(&'static str, Limiter, CallOptions)> {
    let mut paths = vec![
        ("lua", server.limiter(policy.clone(), name), CallOptions { server_module: false, ..OPTS }),
        ("memory", support::memory_limiter(policy.clone(), &format!("give-back-{name}-{start}"), name), OPTS),
    ];
    if support::server_module().is_some() {
        paths.push(("module", server.limiter(policy.clone(), &format!("{name}-module")), OPTS));
    }
    paths
}

fn run(limiter: &Limiter, opts: CallOptions, now: i64, what: Do) -> Outcome {
    let r = match what {
        C(cost) => limiter.decide_at(b"", Op::Consume(cost), opts, Some(now)),
        R(units) => limiter.adjust_at(b"", Adjust::Refund, units, opts, Some(now)),
        G(units) => limiter.adjust_at(b"", Adjust::Charge, units, opts, Some(now)),
        B(cost, wait) => limiter.adjust_at(b"", Adjust::Reserve(wait as f64 / 1e6), cost, opts, Some(now)),
    };
    r.unwrap_or_else(|e| panic!("{what:?}: {e}"))
}

fn replay(name: &str, policy: Policy, rows: &[Row]) {
    let Some(server) = support::start() else { return };
    let start = server.test_clock_start_us();
    let mut wrong = Vec::new();
    for (on, limiter, opts) in paths(&server, &policy, name, start) {
        for (i, &(at, what, want)) in rows.iter().enumerate() {
            let o = run(&limiter, opts, start + at, what);
            let got = (o.allowed, o.remaining, o.retry_after_us, o.reset_after_us, o.delay_us);
            if got != want {
                wrong.push(format!("{on}: row {i} at {at} µs {what:?}: got {got:?}, want {want:?}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{name}:\n{}", wrong.join("\n"));
}

#[test]
#[rustfmt::skip]
fn token_bucket_gives_back_charges_and_books() {
    // 4 tokens, 2 per second: a token every 0.5 s.
    replay("gb-token", token_bucket::policy(4, 2.0).unwrap(), &[
        (0,           C(4),        (Y, 0, 0,       2 * S,       0)),
        (0,           R(1),        (Y, 1, 0,       1_500_000,   0)), // one back
        (0,           C(1),        (Y, 0, 0,       2 * S,       0)), // and admitted again
        (0,           C(1),        (N, 0, S / 2,   2 * S,       0)),
        (0,           G(3),        (N, 0, 2 * S,   3_500_000,   0)), // -3 tokens: 4 to pay back for a cost of 1
        (2 * S - 1,   C(1),        (N, 0, 1,       1_500_001,   0)), // 1 µs early
        (2 * S,       C(1),        (Y, 0, 0,       2 * S,       0)), // paid off exactly
        (2 * S,       B(2, 1_500_000), (Y, 0, 0,   3 * S,       S)), // booked: usable in 1 s
        (2 * S,       B(1, 200_000), (N, 0, 1_500_000, 3 * S,   0)), // would wait 1.5 s: nothing booked
        (2 * S,       B(1, 2 * S), (Y, 0, 0,       3_500_000,   1_500_000)), // after the first booking
        (3 * S,       C(1),        (N, 0, S,       2_500_000,   0)), // booked units are not taken
        (4 * S,       C(1),        (Y, 0, 0,       2 * S,       0)),
        (4 * S,       R(9),        (Y, 4, 0,       0,           0)), // up to the capacity (the key goes)
    ]);
}

#[test]
#[rustfmt::skip]
fn fixed_window_gives_back_and_charges() {
    // 3 per 10 s window.
    replay("gb-fixed", fixed_window::policy(10.0, 3).unwrap(), &[
        (0,        R(1),  (Y, 3, 0,      0,      0)), // no window open: nothing
        (0,        C(3),  (Y, 0, 0,      10 * S, 0)),
        (S,        R(2),  (Y, 2, 0,      9 * S,  0)),
        (S,        C(2),  (Y, 0, 0,      9 * S,  0)),
        (S,        C(1),  (N, 0, 9 * S,  9 * S,  0)),
        (2 * S,    G(2),  (N, 0, 8 * S,  8 * S,  0)), // 5 of 3: until the window ends
        (3 * S,    R(1),  (Y, 0, 0,      7 * S,  0)), // 4 of 3: still none left
        (10 * S - MS, C(1), (N, 0, MS,   MS,     0)),
        (10 * S,   C(1),  (Y, 2, 0,      10 * S, 0)), // paid off by the window's end
        (10 * S,   R(5),  (Y, 3, 0,      10 * S, 0)), // not below 0
        (10 * S,   G(2),  (Y, 1, 0,      10 * S, 0)), // within the limit: a consume's answer
    ]);
}

#[test]
#[rustfmt::skip]
fn sliding_log_gives_back_and_charges() {
    // 3 in any 10 s.
    replay("gb-log", sliding_window::policy(10.0, 3, 0).unwrap(), &[
        (0,           C(1), (Y, 2, 0,      10 * S, 0)),
        (S,           C(1), (Y, 1, 0,      10 * S, 0)),
        (2 * S,       C(1), (Y, 0, 0,      10 * S, 0)),
        (3 * S,       R(1), (Y, 1, 0,      8 * S,  0)), // the newest entry (2 s) goes; 1 s is newest now
        (3 * S,       C(1), (Y, 0, 0,      10 * S, 0)),
        (4 * S,       G(2), (N, 0, 9 * S,  10 * S, 0)), // 5 in the window: a cost of 1 fits once 0, 1 s and 3 s left
        (13 * S - 1,  C(1), (N, 0, 1,      S + 1,  0)),
        (13 * S,      C(1), (Y, 0, 0,      10 * S, 0)),
        (13 * S,      R(9), (Y, 3, 0,      0,      0)), // every entry in the window
    ]);
}

#[test]
#[rustfmt::skip]
fn sliding_blocks_give_back_and_charge() {
    // 4 in 10 s, 5 slices of 2 s.
    replay("gb-blocks", sliding_window::policy(10.0, 4, 5).unwrap(), &[
        (0,           C(2), (Y, 2, 0,      12 * S, 0)),
        (3 * S,       C(2), (Y, 0, 0,      11 * S, 0)),
        (3 * S,       R(1), (Y, 1, 0,      11 * S, 0)), // from the newest slice
        (3 * S,       R(2), (Y, 3, 0,      9 * S,  0)), // it empties, then the older one falls
        (4 * S,       G(4), (N, 0, 12 * S, 12 * S, 0)), // 5 of 4: until the current slice leaves
        (16 * S - 1,  C(1), (N, 0, 1,      1,      0)),
        (16 * S,      C(1), (Y, 3, 0,      12 * S, 0)),
    ]);
}

#[test]
#[rustfmt::skip]
fn leaky_bucket_gives_back_charges_and_books() {
    // 4 units, 2 leak per second, requests of 1.
    replay("gb-leaky", leaky_bucket::policy(4, 2.0, 1).unwrap(), &[
        (0,               C(4),    (Y, 0, 0,         2 * S,     0)),
        (0,               R(1),    (Y, 1, 0,         1_500_000, 0)),
        (0,               C(1),    (Y, 0, 0,         2 * S,     1_500_000)), // the queue's delay
        (0,               G(2),    (N, 0, 1_500_000, 3 * S,     0)), // level 6 of 4
        (1_500_000 - 1,   C(1),    (N, 0, 1,         1_500_001, 0)),
        (1_500_000,       C(1),    (Y, 0, 0,         2 * S,     1_500_000)),
        (1_500_000,       B(2, S), (Y, 0, 0,         3 * S,     S)), // fits once 2 units leaked
        (1_500_000,       B(1, 0), (N, 0, 1_500_000, 3 * S,     0)),
        (2_500_000,       C(1),    (N, 0, S / 2,     2 * S,     0)), // the booking's units are not taken
        (2_500_000,       R(9),    (Y, 4, 0,         0,         0)),
    ]);
}

#[test]
#[rustfmt::skip]
fn gcra_gives_back_charges_and_books() {
    // A burst of 3, one per second.
    replay("gb-gcra", gcra::policy(2, 1, 1.0).unwrap(), &[
        (0,          C(3),        (Y, 0, 0,     3 * S, 0)),
        (0,          R(1),        (Y, 1, 0,     2 * S, 0)), // the TAT moves back one interval
        (0,          C(1),        (Y, 0, 0,     3 * S, 0)),
        (0,          G(2),        (N, 0, 3 * S, 5 * S, 0)),
        (3 * S - 1,  C(1),        (N, 0, 1,     2 * S + 1, 0)),
        (3 * S,      C(1),        (Y, 0, 0,     3 * S, 0)),
        (3 * S,      B(2, 2 * S), (Y, 0, 0,     5 * S, 2 * S)),
        (3 * S,      B(1, 0),     (N, 0, 3 * S, 5 * S, 0)),
        (4 * S,      C(1),        (N, 0, 2 * S, 4 * S, 0)), // the booking's intervals are not taken
        (4 * S,      R(9),        (Y, 3, 0,     0,     0)), // not before now (the key goes)
    ]);
}

/// A compound's refund and charge reach every member in one call, each by
/// its own arithmetic, whatever the others answer.
#[test]
fn a_compound_gives_back_and_charges_on_every_member() {
    let Some(server) = support::start() else { return };
    let start = server.test_clock_start_us();
    for (on, opts) in [("lua", CallOptions { server_module: false, ..OPTS }), ("module", OPTS)] {
        let fixed = Arc::new(server.limiter(fixed_window::policy(10.0, 3).unwrap(), &format!("gb-c-fixed-{on}")));
        let token = Arc::new(server.limiter(token_bucket::policy(5, 1.0).unwrap(), &format!("gb-c-token-{on}")));
        let both = Compound::new(vec![fixed.clone(), token.clone()]).unwrap();
        let own = |d: ratelimit::limiter::decide::compound::Decision| -> Vec<(bool, i64, i64)> {
            d.members.iter().map(|m| (m.allowed, m.remaining, m.retry_after_us)).collect()
        };
        assert_eq!(own(both.decide_at(b"", Op::Consume(3), opts, Some(start)).unwrap()), [(Y, 0, 0), (Y, 2, 0)], "{on}");
        let back = both.adjust_at(b"", Adjust::Refund, 2, opts, Some(start)).unwrap();
        assert_eq!(own(back.clone()), [(Y, 2, 0), (Y, 4, 0)], "{on}: both gave 2 back");
        assert_eq!((back.outcome.allowed, back.outcome.remaining), (Y, 2), "{on}: the least remaining");
        let charged = both.adjust_at(b"", Adjust::Charge, 3, opts, Some(start)).unwrap();
        assert_eq!(own(charged.clone()), [(N, 0, 10 * S), (Y, 1, 0)], "{on}: the window owes, the bucket had room");
        assert!(!charged.outcome.allowed, "{on}: a member past its limit");
        assert_eq!(token.decide_at(b"", Op::Peek, opts, Some(start)).unwrap().remaining, 1, "{on}");
        assert!(both.adjust_at(b"", Adjust::Refund, 0, opts, Some(start)).is_err(), "{on}: units < 1");
    }
}

/// A blocked id (`block()`, or a `withLockout()` limiter's denial): a charge
/// and a booking are denied as a consume is, with the block's time left,
/// and take nothing; a refund ignores the block. On every path.
#[test]
fn a_blocked_id_is_denied_by_charge_and_reserve_but_not_by_refund() {
    let Some(server) = support::start() else { return };
    let start = server.test_clock_start_us();
    let policy = token_bucket::policy(4, 2.0).unwrap();
    for (on, limiter, opts) in paths(&server, &policy, "gb-blocked", start) {
        let got = |o: Outcome| (o.allowed, o.remaining, o.retry_after_us, o.reset_after_us, o.delay_us);
        let at = |dt: i64, what: Do| got(run(&limiter, opts, start + dt, what));
        assert_eq!(at(0, C(2)), (Y, 2, 0, S, 0), "{on}");
        limiter.block(b"", 5_000, opts, Some(start)).unwrap();
        assert_eq!(at(0, C(1)), (N, 0, 5 * S, 5 * S, 0), "{on}: consume, blocked");
        assert_eq!(at(0, R(1)), (Y, 3, 0, S / 2, 0), "{on}: a refund ignores the block");
        assert_eq!(at(0, G(1)), (N, 0, 5 * S, 5 * S, 0), "{on}: charge, blocked");
        assert_eq!(at(0, B(1, 10 * S)), (N, 0, 5 * S, 5 * S, 0), "{on}: reserve, blocked");
        limiter.unblock(b"", opts.timeouts).unwrap();
        // Nothing was charged or booked: the 3 tokens the refund left.
        assert_eq!(at(0, C(3)), (Y, 0, 0, 2 * S, 0), "{on}: the blocked charge and booking took nothing");
        assert_eq!(at(S, C(2)), (Y, 0, 0, 2 * S, 0), "{on}");
        // A consume denied by a lockout limiter blocks the id for a charge too.
        let locked = limiter.with_lockout(3_000);
        assert!(!locked.decide_at(b"", Op::Consume(1), opts, Some(start + S)).unwrap().allowed, "{on}: denied, so blocked for 3 s");
        let charged = locked.adjust_at(b"", Adjust::Charge, 1, opts, Some(start + 2 * S)).unwrap();
        assert_eq!(got(charged), (N, 0, 2 * S, 2 * S, 0), "{on}: a charge during a lockout");
        let refunded = locked.adjust_at(b"", Adjust::Refund, 1, opts, Some(start + 2 * S)).unwrap();
        assert!(refunded.allowed, "{on}: a refund during a lockout");
    }
}

/// A compound's charge on an id one member blocks takes nothing from any
/// member: the blocked member answers its block, the others what they have.
#[test]
fn a_compound_charge_on_a_blocked_member_takes_nothing() {
    let Some(server) = support::start() else { return };
    let start = server.test_clock_start_us();
    for (on, opts) in [("lua", CallOptions { server_module: false, ..OPTS }), ("module", OPTS)] {
        let fixed = Arc::new(server.limiter(fixed_window::policy(10.0, 3).unwrap(), &format!("gb-cb-fixed-{on}")));
        let token = Arc::new(server.limiter(token_bucket::policy(5, 1.0).unwrap(), &format!("gb-cb-token-{on}")));
        let both = Compound::new(vec![fixed.clone(), token.clone()]).unwrap();
        token.block(b"", 2_000, opts, Some(start)).unwrap();
        let charged = both.adjust_at(b"", Adjust::Charge, 2, opts, Some(start)).unwrap();
        let own: Vec<(bool, i64, i64)> = charged.members.iter().map(|m| (m.allowed, m.remaining, m.retry_after_us)).collect();
        assert_eq!(own, [(Y, 3, 0), (N, 0, 2 * S)], "{on}");
        assert!(!charged.outcome.allowed && charged.outcome.retry_after_us == 2 * S, "{on}");
        assert_eq!(fixed.decide_at(b"", Op::Peek, opts, Some(start)).unwrap().remaining, 3, "{on}: nothing charged");
        let back = both.adjust_at(b"", Adjust::Refund, 1, opts, Some(start)).unwrap();
        assert!(back.outcome.allowed, "{on}: a refund ignores the block");
    }
}
