//! The core's arithmetic, with its invariants: one limiter (any algorithm,
//! any parameters the extension accepts, sent as the extension sends them)
//! decides a sequence of takes and peeks of any cost on one key, while the
//! server's clock moves forward by anything from a microsecond to hours.
//! Every call runs through the module's command (`ratelimit_core::command`)
//! on an in-memory keyspace with Redis's semantics and millisecond expiries.
//!
//! Checked (a panic or a failed assert is a finding; nothing is caught):
//! - never more accepted than the limit in any window: an exact log and a
//!   sliding window in slices at most `limit` units in any interval of the
//!   window (µs); a fixed window at most `limit` between the opening of its
//!   key and its expiry; a token bucket at most `capacity + rate × t`, a
//!   leaky bucket at most `capacity + rate × t` units and GCRA at most
//!   `(t + tolerance) / interval` in any interval of length t;
//! - remaining never negative and never above the limit; every number of a
//!   reply a whole double below 2^53; a denial's retry at least 1 µs;
//! - a peek and a denied take write nothing, and a peek answers what the
//!   take at the same instant answers (allowed or not; remaining when denied);
//! - the state round-trips through its bytes: a peek right after a take
//!   reads back from the stored bytes the remaining the take answered.
#![no_main]

use std::sync::atomic::{AtomicI64, Ordering};

use libfuzzer_sys::fuzz_target;
use ratelimit_core::command::{self, Command};
use ratelimit_core::store::Store;
use ratelimit_core::Algorithm;
use ratelimit_fuzz::{replies, Bytes};

static NOW_US: AtomicI64 = AtomicI64::new(0);
fn clock() -> i64 {
    NOW_US.load(Ordering::Relaxed)
}

const MAX_SECONDS: f64 = 315_360_000.0;

/// One of `xs` or, for the last choices, a small integer >= 1.
fn pick(b: &mut Bytes, xs: &[f64]) -> f64 {
    let i = b.next() as usize;
    if i < 4 * xs.len() {
        xs[i % xs.len()]
    } else {
        1.0 + (i - 4 * xs.len()) as f64
    }
}

/// The limiter: the algorithm's name and arguments as the extension's
/// constructors would send them (decimal integers, a rate as Rust prints
/// an f64), and its limit.
fn policy(b: &mut Bytes) -> (&'static str, Vec<String>, f64) {
    let int = |x: f64| format!("{}", x as i64);
    let limit = pick(b, &[1.0, 2.0, 3.0, 5.0, 10.0, 100.0, 1000.0, 1_099_511_627_776.0]);
    match b.next() % 6 {
        0 => {
            let window_ms = pick(b, &[1.0, 2.0, 10.0, 1000.0, 60_000.0, 3_600_000.0]);
            ("fixed_window", vec![int(window_ms), int(limit)], limit)
        }
        1 => {
            let window_us = pick(b, &[1000.0, 1001.0, 1500.0, 1_000_000.0, 60_000_000.0]).max(1000.0);
            ("sliding_log", vec![int(window_us), int(limit), int((window_us / 1000.0).ceil())], limit)
        }
        2 => {
            let window_us = pick(b, &[1000.0, 1999.0, 10_000.0, 1_000_000.0, 1_000_999.0, 60_000_000.0]).max(1000.0);
            let most = (window_us / 1000.0).floor().min(1000.0);
            let blocks = 1.0 + (f64::from(b.next()) * 7.0) % most;
            ("sliding_blocks", vec![int(window_us), int(limit), int((window_us / blocks).floor())], limit)
        }
        3 | 4 => {
            let leaky = b.next() % 2 == 1;
            // Units per second, at least capacity / 10 years (the extension's bound).
            let rate = pick(b, &[0.001, 0.1, 0.3, 1.0, 2.5, 7.0, 1000.0, 1e6]).max(limit / MAX_SECONDS);
            if leaky {
                let size = pick(b, &[1.0, 2.0, 3.0, 7.0]).min(limit);
                ("leaky_bucket", vec![int(limit), format!("{rate}"), int(size)], limit)
            } else {
                ("token_bucket", vec![int(limit), format!("{rate}")], limit)
            }
        }
        _ => {
            // maxBurst + 1 = limit, count per period: interval = period / count.
            let interval = pick(b, &[1.0, 7.0, 1000.0, 333_333.0, 1_000_000.0]);
            let limit = limit.min((MAX_SECONDS * 1e6 / interval).floor());
            ("gcra", vec![int(interval), int(interval * limit)], limit)
        }
    }
}

/// A take or a peek of `cost` by the module's command; the decoded answer.
fn decide(store: &mut Store, name: &str, args: &[String], cost: f64, peek: bool) -> replies::Answer {
    let command = if peek { Command::Peek } else { Command::Take };
    // The key, its block key (never set here) and a lockout of 0, as the extension sends them.
    let mut argv: Vec<Vec<u8>> = vec![command.name().into(), b"2".to_vec(), b"k".to_vec(), b"k!".to_vec(), b"0".to_vec(), name.into()];
    argv.extend(args.iter().map(|a| a.clone().into_bytes()));
    argv.push(format!("{}", cost as i64).into_bytes());
    let argv: Vec<&[u8]> = argv.iter().map(Vec::as_slice).collect();
    let call = command::parse(command, &argv).unwrap_or_else(|e| panic!("what the extension sends is refused: {e:?}"));
    let reply = command::run(store, &call).unwrap_or_else(|e| panic!("a decision on our own state is refused: {e:?}"));
    replies::answer(&reply, true)
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    NOW_US.store(1_700_000_000_000_000 + i64::from(b.u32()), Ordering::Relaxed);
    let (name, args, limit) = policy(&mut b);
    let texts: Vec<&[u8]> = args.iter().map(|a| a.as_bytes()).collect();
    let algo = Algorithm::parse(name.as_bytes(), &texts).unwrap_or_else(|e| panic!("what the extension sends is refused: {e:?}"));
    let max_cost = algo.max_cost();
    let mut store = Store::with_clock(clock);
    // Accepted takes: (µs, cost).
    let mut accepted: Vec<(f64, f64)> = Vec::new();
    // A fixed window: what its current window accepted.
    let mut in_window = 0.0;
    while !b.is_empty() && accepted.len() < 100 {
        let step = b.next();
        let advance = match step % 8 {
            0 | 1 => 0,
            2 => 1,
            3 => i64::from(b.next()) * 10,
            4 => i64::from(b.next()) * 1000,
            5 => i64::from(b.next()) * 100_000,
            6 => i64::from(b.next()) * 10_000_000,
            _ => i64::from(b.u32()),
        };
        NOW_US.fetch_add(advance, Ordering::Relaxed);
        let now = clock() as f64;
        let cost = match b.next() {
            c if c < 128 => (1.0 + f64::from(c % 4)).min(max_cost),
            c if c < 250 => 1.0 + (f64::from(c - 128) * max_cost / 122.0).floor().min(max_cost - 1.0),
            _ => max_cost,
        };
        if ratelimit_fuzz::show() {
            eprintln!("{name} {args:?}: +{advance} µs, cost {cost}, keys {:?}", store.snapshot());
        }
        let before = store.snapshot();
        let peeked = decide(&mut store, name, &args, cost, true);
        assert_eq!(before, store.snapshot(), "a peek wrote");
        let key_was_there = !before.is_empty();
        let took = decide(&mut store, name, &args, cost, false);
        for a in [peeked, took] {
            assert!(a.remaining <= limit, "remaining {} above the limit {limit}", a.remaining);
        }
        assert_eq!(peeked.allowed, took.allowed, "a peek and a take at one instant disagree");
        if !took.allowed {
            assert_eq!(before, store.snapshot(), "a denied take wrote");
            assert_eq!(peeked.remaining, took.remaining, "a peek and a denied take at one instant disagree");
            continue;
        }
        let after = decide(&mut store, name, &args, 1.0, true);
        assert_eq!(after.remaining, took.remaining, "the stored state does not read back what the take answered");
        accepted.push((now, cost));
        let units = |from: f64| accepted.iter().rev().take_while(|(t, _)| *t >= from).map(|(_, c)| c).sum::<f64>();
        // Units accepted from each earlier accept to now, and the time between.
        let spans = || {
            accepted.iter().rev().scan(0.0, move |n, &(t, c)| {
                *n += c;
                Some((*n, now - t))
            })
        };
        match algo {
            Algorithm::FixedWindow(p) => {
                in_window = if key_was_there { in_window + cost } else { cost };
                assert!(in_window <= p.limit, "a fixed window accepted {in_window} of {}", p.limit);
            }
            Algorithm::SlidingLog(p) => {
                let n = units(now - p.window + 1.0);
                assert!(n <= p.limit, "{n} units in a window of {} µs, limit {}", p.window, p.limit);
            }
            Algorithm::SlidingBlocks(p) => {
                let n = units(now - p.window + 1.0);
                assert!(n <= p.limit, "{n} units in a window of {} µs, limit {}", p.window, p.limit);
            }
            Algorithm::TokenBucket(p) => {
                for (n, t) in spans() {
                    assert!(n <= p.capacity + p.rate * t / 1e6 + 1e-6, "{n} tokens in {t} µs: capacity {}, rate {}", p.capacity, p.rate);
                }
            }
            Algorithm::LeakyBucket(p) => {
                for (n, t) in spans() {
                    let n = n * p.size;
                    assert!(n <= p.capacity + p.rate * t / 1e6 + 1e-6, "{n} units in {t} µs: capacity {}, rate {}", p.capacity, p.rate);
                }
            }
            Algorithm::Gcra(p) => {
                for (n, t) in spans() {
                    assert!(n <= (t + p.tolerance) / p.interval + 1e-9, "{n} in {t} µs: interval {}, tolerance {}", p.interval, p.tolerance);
                }
            }
            // Calendar windows take their edges per call: module_commands.rs calls them.
            Algorithm::CalendarWindow(_) => {}
        }
    }
});
