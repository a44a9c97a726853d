//! Under `maxmemory` with `noeviction`, Redis refuses writes: every algorithm
//! must then refuse a consuming call (the caller's `on_error` applies) without
//! writing anything, and keep answering `peek` and `reset`. Each script's
//! first write is one Redis refuses when out of memory; a write allowed before
//! it would let the rest of the script through.

mod support;

use ratelimit::error::Error;
use ratelimit::limiter::algorithms::{fixed_window, gcra, leaky_bucket, sliding_window, token_bucket};
use ratelimit::limiter::{Op, Policy};
use support::OPTS;

#[test]
fn every_algorithm_refuses_to_consume_when_redis_is_out_of_memory() {
    let Some(server) = support::start() else { return };
    let policies: [(&str, Policy); 6] = [
        ("fixed", fixed_window::policy(60.0, 10).unwrap()),
        ("log", sliding_window::policy(60.0, 10, 0).unwrap()),
        ("blocks", sliding_window::policy(60.0, 10, 6).unwrap()),
        ("token", token_bucket::policy(10, 1.0).unwrap()),
        ("leaky", leaky_bucket::policy(10, 1.0, 1).unwrap()),
        ("gcra", gcra::policy(9, 10, 60.0).unwrap()),
    ];
    let limiters: Vec<_> = policies.into_iter().map(|(name, p)| (name, server.limiter(p, name))).collect();
    // Some state first, so that the scripts' cleanup writes (expired log
    // entries, old slices) have something to do.
    for (name, limiter) in &limiters {
        assert!(limiter.decide(b"", Op::Consume(2), OPTS).unwrap().allowed, "{name}");
    }
    let _: () = server.query(&["CONFIG", "SET", "maxmemory-policy", "noeviction"]);
    let _: () = server.query(&["CONFIG", "SET", "maxmemory", "1"]);
    for (name, limiter) in &limiters {
        let key = format!("table:{name}");
        let before: Vec<u8> = server.query(&["DUMP", &key]);
        for cost in [1, 3] {
            match limiter.decide(b"", Op::Consume(cost), OPTS) {
                Err(Error::Redis(m)) => assert!(m.contains("OOM"), "{name}: {m}"),
                other => panic!("{name} cost {cost}: consumed out of memory: {other:?}"),
            }
        }
        assert_eq!(server.query::<Vec<u8>>(&["DUMP", &key]), before, "{name}: written out of memory");
        let peek = limiter.decide(b"", Op::Peek, OPTS).unwrap();
        assert_eq!((peek.allowed, peek.remaining), (true, 8), "{name}");
    }
    for (name, limiter) in &limiters {
        limiter.reset(b"", OPTS.timeouts).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(server.query::<i64>(&["EXISTS", &format!("table:{name}")]), 0, "{name}");
    }
}
