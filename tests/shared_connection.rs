//! Threads sharing one connection (`redis::mux`, `ratelimit.multiplex`):
//! their decisions pipelined on one socket, each caller with its own reply,
//! its own timeout and its own error; against a real redis-server, with real
//! threads (what a thread-safe PHP's requests are). A stall is the server
//! stopped (SIGSTOP) for a while: it answers nothing, and commands queue.
//!
//! Every thread decides on a fixed window of its own whose limit names the
//! thread (`(t + 1) * 1e6`), so a reply handed to the wrong caller shows as a
//! `remaining` out of that caller's range, and its own replies must count down
//! by one per call it made (a call that timed out may have run: one more).

mod support;

use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use ratelimit::backend::Backend;
use ratelimit::error::Error;
use ratelimit::limiter::algorithms::fixed_window;
use ratelimit::limiter::decide::instance::{CallOptions, Limiter};
use ratelimit::limiter::Op;
use ratelimit::redis::pool::multiplex::{set_multiplex, Multiplex};
use ratelimit::redis::pool::{self, breaker, Timeouts};
use ratelimit::redis::target::Target;
use support::{RedisServer, OPTS};

const SPAN: i64 = 1_000_000;

/// A window of an hour whose remaining count says which thread it belongs to.
fn own_window(server_port: u16, test: &str, thread: usize) -> Limiter {
    let slot = pool::connections(Target::tcp("127.0.0.1", server_port));
    Limiter::new(
        fixed_window::policy(3600.0, (thread as i64 + 1) * SPAN).unwrap(),
        Backend::Redis(slot),
        b"mux:",
        format!("{test}:{thread}").as_bytes(),
    )
    .unwrap()
}

/// What one thread saw: calls decided, calls that failed (and why), replies of another thread.
#[derive(Default, Debug)]
struct Seen {
    decided: u64,
    accepted: u64,
    failed: Vec<String>,
    foreign: Vec<String>,
}

/// Checks one reply of thread `t`'s window against the last one it had;
/// `since`: calls that failed in between (each may have run). After a
/// failure the server may also have restarted empty: the window starts again.
fn check(t: usize, o: &ratelimit::limiter::Outcome, last: &mut i64, since: i64, seen: &mut Seen) {
    let own = (t as i64 + 1) * SPAN;
    let in_range = o.remaining < own && o.remaining >= own - SPAN / 2;
    let step = *last - o.remaining;
    let restarted = since > 0 && o.remaining >= own - 1 - since;
    if !in_range || !((1..=1 + since).contains(&step) || restarted) {
        seen.foreign.push(format!("thread {t}: remaining {} after {} ({} failed between)", o.remaining, *last, since));
    }
    *last = o.remaining;
}

/// Decisions on thread `t`'s own window for `run`, each checked; what failed,
/// with how long it had waited.
fn decide_for(port: u16, test: &str, t: usize, run: Duration, reply: Duration) -> (Seen, Vec<(Duration, String)>, bool) {
    let mine = own_window(port, test, t);
    let mut seen = Seen::default();
    let mut failures = Vec::new();
    let mut last = (t as i64 + 1) * SPAN;
    let mut since = 0;
    let mut last_ok = false;
    let started = Instant::now();
    while started.elapsed() < run {
        let at = Instant::now();
        match mine.decide(b"", Op::Consume(1), opts(reply)) {
            Ok(o) => {
                check(t, &o, &mut last, since, &mut seen);
                seen.decided += 1;
                since = 0;
                last_ok = true;
            }
            Err(e) => {
                failures.push((at.elapsed(), e.to_string()));
                since += 1;
                last_ok = false;
            }
        }
    }
    (seen, failures, last_ok)
}

fn opts(reply: Duration) -> CallOptions {
    CallOptions { timeouts: Timeouts { connect: Duration::from_secs(2), reply }, ..OPTS }
}

/// Runs `body(t)` in `threads` threads sharing `Multiplex::Shared(1)`, started together.
fn in_threads<F>(threads: usize, body: F) -> Vec<Seen>
where
    F: Fn(usize) -> Seen + Send + Sync + 'static,
{
    let body = Arc::new(body);
    let start = Arc::new(Barrier::new(threads));
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let (body, start) = (body.clone(), start.clone());
            std::thread::spawn(move || {
                set_multiplex(Multiplex::Shared(1));
                // Each caller meets the stall itself: no breaker answers for the target (tests/breaker.rs).
                breaker::set_retry_interval(Duration::ZERO);
                start.wait();
                body(t)
            })
        })
        .collect();
    handles.into_iter().map(|h| h.join().expect("a thread panicked")).collect()
}

fn clients(server: &RedisServer) -> i64 {
    let info: String = server.query(&["INFO", "clients"]);
    info.lines().find_map(|l| l.strip_prefix("connected_clients:")).and_then(|n| n.trim().parse().ok()).unwrap()
}

#[test]
fn sixty_four_threads_on_one_connection_count_exactly_and_each_gets_its_own_reply() {
    let Some(server) = support::start() else { return };
    let port = server.port;
    let before = clients(&server);
    let seen = in_threads(64, move |t| {
        let mine = own_window(port, "own", t);
        let shared = {
            let slot = pool::connections(Target::tcp("127.0.0.1", port));
            Limiter::new(fixed_window::policy(3600.0, 10_000).unwrap(), Backend::Redis(slot), b"mux:", b"shared").unwrap()
        };
        let mut seen = Seen::default();
        let mut last = (t as i64 + 1) * SPAN;
        for i in 0..400 {
            match mine.decide(b"", Op::Consume(1), OPTS) {
                Ok(o) => {
                    check(t, &o, &mut last, 0, &mut seen);
                    seen.decided += 1;
                }
                Err(e) => seen.failed.push(e.to_string()),
            }
            // Several replies for one call (consumeMany), and the counter path's three.
            if i % 10 == 0 {
                match mine.decide_many(&[b"a", b"b", b""], 1, OPTS) {
                    Ok(all) => {
                        let o = &all[2];
                        check(t, o, &mut last, 0, &mut seen);
                        seen.decided += 3;
                    }
                    Err(e) => seen.failed.push(e.to_string()),
                }
            }
            match shared.decide(b"", Op::Consume(1), OPTS) {
                Ok(o) => seen.accepted += u64::from(o.allowed),
                Err(e) => seen.failed.push(e.to_string()),
            }
        }
        seen
    });
    let failed: Vec<_> = seen.iter().flat_map(|s| s.failed.iter()).collect();
    let foreign: Vec<_> = seen.iter().flat_map(|s| s.foreign.iter()).collect();
    assert!(failed.is_empty(), "{} calls failed: {:?}", failed.len(), &failed[..failed.len().min(5)]);
    assert!(foreign.is_empty(), "replies handed to the wrong caller: {:?}", &foreign[..foreign.len().min(5)]);
    let accepted: u64 = seen.iter().map(|s| s.accepted).sum();
    assert_eq!(accepted, 10_000, "64 threads x 400 attempts on a limit of 10,000");
    let decided: u64 = seen.iter().map(|s| s.decided).sum();
    assert_eq!(decided, 64 * (400 + 40 * 3));
    // One connection for the 64 threads (the test's own look at INFO is another).
    assert_eq!(clients(&server) - before, 1, "connections open for the threads");
}

#[test]
fn a_stalled_server_times_callers_out_on_their_own_deadline_and_hands_no_one_a_late_reply() {
    let Some(server) = support::start() else { return };
    let port = server.port;
    // 16 threads for 3 s, 0.3 s to reply; the server stalls for 1.2 s after 1 s.
    let server = Arc::new(server);
    let stalling = server.clone();
    let busy = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(1));
        stalling.stall(Duration::from_millis(1200));
    });
    let seen = in_threads(16, move |t| {
        let (mut seen, failures, last_ok) = decide_for(port, "stall", t, Duration::from_secs(3), Duration::from_millis(300));
        for (waited, why) in failures {
            // Timed out, and not before its own timeout.
            if !why.contains("timed out") || waited < Duration::from_millis(290) {
                seen.failed.push(format!("after {waited:?}: {why}"));
            }
            seen.accepted += 1;
        }
        if !last_ok {
            seen.failed.push(format!("thread {t}: its last call failed: no recovery"));
        }
        seen
    });
    busy.join().unwrap();
    let wrong: Vec<_> = seen.iter().flat_map(|s| s.failed.iter()).collect();
    let foreign: Vec<_> = seen.iter().flat_map(|s| s.foreign.iter()).collect();
    assert!(foreign.is_empty(), "replies handed to the wrong caller: {:?}", &foreign[..foreign.len().min(5)]);
    assert!(wrong.is_empty(), "{:?}", &wrong[..wrong.len().min(5)]);
    let timed_out: u64 = seen.iter().map(|s| s.accepted).sum();
    assert!(timed_out >= 16, "every thread felt the stall: {timed_out} timeouts");
    assert!(seen.iter().all(|s| s.decided > 0));
}

#[test]
fn a_restart_fails_only_the_calls_in_flight_and_the_threads_reconnect() {
    let Some(mut server) = support::start() else { return };
    let port = server.port;
    let threads = std::thread::spawn(move || {
        in_threads(16, move |t| {
            let (mut seen, failures, last_ok) = decide_for(port, "restart", t, Duration::from_secs(3), Duration::from_secs(1));
            seen.accepted = failures.len() as u64;
            if !last_ok {
                seen.failed.push(format!("thread {t}: its last call failed: no recovery"));
            }
            seen
        })
    });
    std::thread::sleep(Duration::from_secs(1));
    server.kill();
    std::thread::sleep(Duration::from_millis(300));
    server.start_again();
    let seen = threads.join().unwrap();
    let wrong: Vec<_> = seen.iter().flat_map(|s| s.failed.iter()).collect();
    let foreign: Vec<_> = seen.iter().flat_map(|s| s.foreign.iter()).collect();
    assert!(foreign.is_empty(), "replies handed to the wrong caller: {:?}", &foreign[..foreign.len().min(5)]);
    assert!(wrong.is_empty(), "{:?}", &wrong[..wrong.len().min(5)]);
    assert!(seen.iter().map(|s| s.accepted).sum::<u64>() > 0, "the restart was felt");
    // After it, one connection again for the 16 threads.
    assert_eq!(clients(&server) - 1, 1, "connections open for the threads");
}

#[test]
fn a_caller_alone_that_times_out_closes_the_connection_and_the_next_call_opens_another() {
    let Some(server) = support::start() else { return };
    let port = server.port;
    let before = opened(&server);
    let server = Arc::new(server);
    let stalling = server.clone();
    let busy = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        stalling.stall(Duration::from_millis(800));
    });
    let seen = in_threads(1, move |_| {
        let mine = own_window(port, "alone", 0);
        let mut seen = Seen::default();
        std::thread::sleep(Duration::from_millis(300));
        match mine.decide(b"", Op::Consume(1), opts(Duration::from_millis(200))) {
            Err(Error::Redis(m)) if m.contains("timed out") => {}
            other => seen.failed.push(format!("during the stall: {other:?}")),
        }
        std::thread::sleep(Duration::from_millis(1000));
        // The late reply of the call that timed out is not this one's: this is the window's second hit (or first).
        match mine.decide(b"", Op::Consume(1), OPTS) {
            Ok(o) if o.remaining == SPAN - 2 || o.remaining == SPAN - 1 => {}
            other => seen.failed.push(format!("after the stall: {other:?}")),
        }
        seen
    });
    busy.join().unwrap();
    assert!(seen[0].failed.is_empty(), "{:?}", seen[0].failed);
    // The caller's two, and the connection of this look at INFO.
    assert_eq!(opened(&server) - before, 2 + 1, "connections opened");
}

/// Connections the server accepted so far (this look at INFO's own included).
fn opened(server: &RedisServer) -> i64 {
    let info: String = server.query(&["INFO", "stats"]);
    info.lines().find_map(|l| l.strip_prefix("total_connections_received:")).unwrap().trim().parse().unwrap()
}
