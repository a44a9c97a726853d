//! The fixed window's cost-1 consume is the library's or the module's call,
//! as every cost's (it once ran as a scriptless SET NX PX + INCRBY + PTTL
//! pipeline, which could not skip its INCRBY for a blocked id: lock-out):
//! on the server's real clock, denied requests not counted, foreign keys left
//! as they were.

mod support;

use ratelimit::error::Error;
use ratelimit::limiter::algorithms::fixed_window;
use ratelimit::limiter::decide::instance::CallOptions;
use ratelimit::limiter::Op;
use support::OPTS;

#[test]
fn cost_one_hits_count_and_deny_like_the_script() {
    let Some(server) = support::start() else { return };
    let limiter = server.limiter(fixed_window::policy(60.0, 3).unwrap(), "hits");
    let mut seen = Vec::new();
    for _ in 0..5 {
        let o = limiter.decide(b"", Op::Consume(1), OPTS).unwrap();
        assert!(o.reset_after_us > 59_000_000 && o.reset_after_us <= 60_000_000, "{o:?}");
        if !o.allowed {
            assert_eq!(o.retry_after_us, o.reset_after_us);
        }
        seen.push((o.allowed, o.remaining));
    }
    assert_eq!(seen, [(true, 2), (true, 1), (true, 0), (false, 0), (false, 0)]);
    // Denied requests were not counted.
    assert_eq!(server.query::<i64>(&["GET", "table:hits"]), 3);
    let peek = limiter.decide(b"", Op::Peek, OPTS).unwrap();
    assert_eq!((peek.allowed, peek.remaining), (false, 0));
    let ttl: i64 = server.query(&["PTTL", "table:hits"]);
    assert!(ttl > 59_000 && ttl <= 60_000, "{ttl}");
    // A cost above 1 too counts nothing when it denies.
    let wide = server.limiter(fixed_window::policy(60.0, 3).unwrap(), "wide");
    assert!(wide.decide(b"", Op::Consume(1), OPTS).unwrap().allowed);
    assert!(!wide.decide(b"", Op::Consume(3), OPTS).unwrap().allowed);
    assert_eq!(server.query::<i64>(&["GET", "table:wide"]), 1);
}

#[test]
fn a_counter_without_expiry_gets_its_window() {
    let Some(server) = support::start() else { return };
    let limiter = server.limiter(fixed_window::policy(60.0, 3).unwrap(), "persisted");
    let _: () = server.query(&["SET", "table:persisted", "1"]);
    let o = limiter.decide(b"", Op::Consume(1), OPTS).unwrap();
    assert_eq!((o.allowed, o.remaining, o.reset_after_us), (true, 1, 60_000_000));
    let ttl: i64 = server.query(&["PTTL", "table:persisted"]);
    assert!(ttl > 59_000 && ttl <= 60_000, "{ttl}");
}

#[test]
fn foreign_keys_are_refused_and_left_alone() {
    let Some(server) = support::start() else { return };
    let limiter = server.limiter(fixed_window::policy(60.0, 3).unwrap(), "text");
    let _: () = server.query(&["SET", "table:text", "hello"]);
    // The library refuses it, and so does the server module where it decides.
    match limiter.decide(b"", Op::Consume(1), OPTS) {
        Err(Error::Redis(m)) => assert!(m.contains("not a fixed-window counter"), "{m}"),
        other => panic!("{other:?}"),
    }
    match limiter.decide(b"", Op::Consume(1), CallOptions { server_module: false, ..OPTS }) {
        Err(Error::Redis(m)) => assert!(m.contains("not a fixed-window counter"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(server.query::<String>(&["GET", "table:text"]), "hello");
    assert_eq!(server.query::<i64>(&["PTTL", "table:text"]), -1);
    let limiter = server.limiter(fixed_window::policy(60.0, 3).unwrap(), "list");
    let _: () = server.query(&["RPUSH", "table:list", "a"]);
    match limiter.decide(b"", Op::Consume(1), OPTS) {
        Err(Error::Redis(m)) => assert!(m.contains("WRONGTYPE"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(server.query::<i64>(&["PTTL", "table:list"]), -1);
    assert_eq!(server.query::<i64>(&["LLEN", "table:list"]), 1);
}

#[test]
fn a_request_that_opens_a_window_is_told_the_whole_window() {
    let Some(server) = support::start() else { return };
    // Over a few thousand fresh windows a millisecond boundary falls inside
    // a call many times, and each first request must still get exactly the
    // window, never 59.999 s.
    let limiter = server.limiter(fixed_window::policy(60.0, 3).unwrap(), "fresh");
    for module in [false, true] {
        let opts = CallOptions { server_module: module, ..OPTS };
        for i in 0..3000 {
            let id = format!("{module}:{i}");
            let o = limiter.decide(id.as_bytes(), Op::Consume(1), opts).unwrap();
            assert_eq!((o.allowed, o.remaining, o.reset_after_us), (true, 2, 60_000_000), "request {i}, module {module}");
        }
    }
}
