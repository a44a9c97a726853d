//! Several limiters as one decision (`lua/entries.lua`, `compound`), replayed with an
//! injected clock on a real redis-server: all or nothing, the most
//! restrictive answer, one round trip for a batch.

mod support;

use std::sync::Arc;

use ratelimit::error::Error;
use ratelimit::limiter::algorithms::{fixed_window, gcra, leaky_bucket, sliding_window, token_bucket};
use ratelimit::limiter::decide::compound::Compound;
use ratelimit::limiter::Op;
use support::OPTS;

const S: i64 = 1_000_000;

#[test]
fn all_or_nothing_with_the_most_restrictive_answer() {
    let Some(server) = support::start() else { return };
    let start = {
        let (secs, _): (i64, i64) = ::redis::cmd("TIME").query(&mut server.connection().unwrap()).unwrap();
        (secs + 3600) * S
    };
    // 3 per 10 s, and a bucket of 5 refilled 1 per second.
    let fixed = Arc::new(server.limiter(fixed_window::policy(10.0, 3).unwrap(), "c-fixed"));
    let token = Arc::new(server.limiter(token_bucket::policy(5, 1.0).unwrap(), "c-token"));
    let both = Compound::new(vec![fixed.clone(), token.clone()]).unwrap();
    let at = |t: i64, op| both.decide_at(b"", op, OPTS, Some(start + t)).unwrap().outcome;
    let seen = |o: ratelimit::limiter::Outcome| (o.allowed, o.limit, o.remaining, o.retry_after_us, o.reset_after_us);

    assert_eq!(seen(at(0, Op::Peek)), (true, 3, 3, 0, 0), "peek of nothing: the fixed window has least left");
    assert_eq!(seen(at(0, Op::Consume(2))), (true, 3, 1, 0, 10 * S), "fixed 1 left, token 3 left; reset: the longer");
    assert_eq!(seen(at(0, Op::Consume(2))), (false, 3, 1, 10 * S, 10 * S), "the window denies: nothing taken from the bucket");
    // Each member's own numbers beside the combined ones (q, r and t of one IETF item):
    // the window denies with 1 left; the bucket, untouched, has 3 of 5 and is full in 2 s.
    let own = |op| -> Vec<(bool, i64, i64, i64, i64)> {
        both.decide_at(b"", op, OPTS, Some(start))
            .unwrap()
            .members
            .iter()
            .map(|m| (m.allowed, m.limit, m.remaining, m.retry_after_us, m.reset_after_us))
            .collect()
    };
    assert_eq!(own(Op::Consume(2)), [(false, 3, 1, 10 * S, 10 * S), (true, 5, 3, 0, 2 * S)]);
    assert_eq!(own(Op::Peek), [(true, 3, 1, 0, 10 * S), (true, 5, 3, 0, 2 * S)]);
    let token_alone = token.decide_at(b"", Op::Peek, OPTS, Some(start)).unwrap();
    assert_eq!(token_alone.remaining, 3, "the bucket kept its tokens");
    assert_eq!(seen(at(S, Op::Consume(1))), (true, 3, 0, 0, 9 * S));
    // The bucket denies alone (1 token + 1 refilled < 3), the window has room again.
    assert_eq!(seen(at(10 * S, Op::Consume(3))), (true, 3, 0, 0, 10 * S), "a new window; the bucket refilled to 5, took 3");
    assert_eq!(token.decide_at(b"", Op::Peek, OPTS, Some(start + 10 * S)).unwrap().remaining, 2);

    // GCRA (2 per 10 s burst) with a log (5 per minute): GCRA denies alone.
    let cell = Arc::new(server.limiter(gcra::policy(1, 1, 10.0).unwrap(), "c-gcra"));
    let log = Arc::new(server.limiter(sliding_window::policy(60.0, 5, 0).unwrap(), "c-log"));
    let pair = Compound::new(vec![log.clone(), cell.clone()]).unwrap();
    let at = |t: i64, op| pair.decide_at(b"", op, OPTS, Some(start + t)).unwrap().outcome;
    assert_eq!(seen(at(0, Op::Consume(2))), (true, 2, 0, 0, 60 * S), "GCRA has none left; the log's reset is longer");
    assert_eq!(seen(at(S, Op::Consume(1))), (false, 2, 0, 9 * S, 59 * S), "GCRA's retry; the log untouched");
    assert_eq!(log.decide_at(b"", Op::Peek, OPTS, Some(start + S)).unwrap().remaining, 3);

    // A leaky bucket's delay comes through.
    let leaky = Arc::new(server.limiter(leaky_bucket::policy(4, 1.0, 1).unwrap(), "c-leaky"));
    let wide = Arc::new(server.limiter(fixed_window::policy(60.0, 10).unwrap(), "c-wide"));
    let queue = Compound::new(vec![wide, leaky]).unwrap();
    let o = queue.decide_at(b"", Op::Consume(2), OPTS, Some(start)).unwrap().outcome;
    assert_eq!((o.allowed, o.limit, o.remaining, o.delay_us), (true, 4, 2, 0));
    let o = queue.decide_at(b"", Op::Consume(1), OPTS, Some(start)).unwrap().outcome;
    assert_eq!((o.allowed, o.limit, o.remaining, o.delay_us), (true, 4, 1, 2 * S));

    // Ties: limit and remaining come from the first member with the least
    // remaining, in a peek (explained) and in a consume (committed) alike.
    let five = Arc::new(server.limiter(fixed_window::policy(60.0, 5).unwrap(), "c-five"));
    let three = Arc::new(server.limiter(token_bucket::policy(3, 1.0).unwrap(), "c-three"));
    five.decide_at(b"", Op::Consume(2), OPTS, Some(start)).unwrap();
    let tied = Compound::new(vec![five.clone(), three.clone()]).unwrap();
    let swapped = Compound::new(vec![three.clone(), five.clone()]).unwrap();
    let limit_left = |c: &Compound, op| {
        let o = c.decide_at(b"", op, OPTS, Some(start)).unwrap().outcome;
        (o.limit, o.remaining)
    };
    assert_eq!(limit_left(&tied, Op::Peek), (5, 3), "3 left in both: the first member's limit");
    assert_eq!(limit_left(&swapped, Op::Peek), (3, 3));
    assert_eq!(limit_left(&tied, Op::Consume(1)), (5, 2), "2 left in both after the consume");
    assert_eq!(limit_left(&swapped, Op::Consume(1)), (3, 1));
}

#[test]
fn batches_and_resets() {
    let Some(server) = support::start() else { return };
    let a = Arc::new(server.limiter(gcra::policy(1, 1, 10.0).unwrap(), "b-gcra"));
    let b = Arc::new(server.limiter(sliding_window::policy(60.0, 3, 0).unwrap(), "b-log"));
    let both = Compound::new(vec![a, b]).unwrap();
    let got: Vec<(bool, i64)> =
        both.decide_many(&[b"x", b"x", b"y", b"x"], 1, OPTS).unwrap().iter().map(|d| (d.outcome.allowed, d.outcome.remaining)).collect();
    assert_eq!(got, [(true, 1), (true, 0), (true, 1), (false, 0)]);
    both.reset(b"x", OPTS.timeouts).unwrap();
    let keys: i64 = server.query(&["EXISTS", "table:b-gcra:x", "table:b-log:x", "table:b-gcra:y"]);
    assert_eq!(keys, 1, "both members' keys of x deleted, y kept");
    assert!(both.decide(b"x", Op::Consume(2), OPTS).unwrap().outcome.allowed);
}

#[test]
fn members_are_checked() {
    let Some(server) = support::start() else { return };
    let one = || Arc::new(server.limiter(fixed_window::policy(1.0, 1).unwrap(), "same"));
    let err = |r: Result<Compound, Error>| r.err().map(|e| e.to_string()).unwrap_or_default();
    assert_eq!(err(Compound::new(vec![])), "$limiters must hold 1 to 16 limiters, 0 given");
    assert_eq!(err(Compound::new((0..17).map(|_| one()).collect())), "$limiters must hold 1 to 16 limiters, 17 given");
    assert_eq!(err(Compound::new(vec![one(), one()])), "$limiters must have distinct key prefixes; limiters 0 and 1 share one");
    let small = Arc::new(server.limiter(token_bucket::policy(2, 1.0).unwrap(), "small"));
    let big = Arc::new(server.limiter(token_bucket::policy(9, 1.0).unwrap(), "big"));
    let both = Compound::new(vec![big, small]).unwrap();
    assert_eq!(both.decide(b"", Op::Consume(3), OPTS).unwrap_err().to_string(), "$cost must be at most 2 (the capacity), 3 given");
}
