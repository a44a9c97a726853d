//! Windows on the calendar (`withAnchor()`, `withCalendar()`), replayed on
//! an injected clock at chosen instants: a month's end, the days and hours
//! of both DST changes in Europe/Paris, ISO weeks, an anchor. Every table
//! runs on the Lua library, the server module (when `make test` loaded it)
//! and a `memory://` store, which must all give its answers: the client
//! works out the edges around the injected instant, the server (or core)
//! picks the window on that clock. Instants are in 2027, after the real
//! clock, so the keys' expiries (instants) are still ahead of Redis's own.

mod support;

use jiff::Timestamp;
use ratelimit::limiter::algorithms::calendar::Calendar;
use ratelimit::limiter::algorithms::fixed_window;
use ratelimit::limiter::decide::instance::{CallOptions, Limiter, Windows};
use ratelimit::limiter::Op;
use support::OPTS;

const Y: bool = true;
const N: bool = false;
const S: i64 = 1_000_000;
const H: i64 = 3600 * S;

/// (instant, cost) → (allowed, remaining, retry_after µs, reset_after µs).
type Row = (&'static str, i64, (bool, i64, i64, i64));

fn at(s: &str) -> i64 {
    s.parse::<Timestamp>().unwrap().as_microsecond()
}

/// `rows` on every path, each path a key of its own.
fn replay(name: &str, window_s: f64, limit: i64, windows: impl Fn() -> Windows, rows: &[Row]) {
    let Some(server) = support::start() else { return };
    let policy = fixed_window::policy(window_s, limit).unwrap();
    let lua = CallOptions { server_module: false, ..OPTS };
    let mut paths: Vec<(&str, Limiter, CallOptions)> = vec![
        ("lua", server.limiter(policy.clone(), name), lua),
        ("memory", support::memory_limiter(policy.clone(), &format!("calendar-{name}"), name), OPTS),
    ];
    if support::server_module().is_some() {
        paths.push(("module", server.limiter(policy, &format!("{name}-module")), OPTS));
    }
    let mut wrong = Vec::new();
    for (on, limiter, opts) in paths {
        let limiter = limiter.with_windows(windows()).unwrap();
        for (i, &(when, cost, want)) in rows.iter().enumerate() {
            let o = limiter.decide_at(b"", Op::Consume(cost), opts, Some(at(when))).unwrap_or_else(|e| panic!("{name} on {on} row {i}: {e}"));
            let got = (o.allowed, o.remaining, o.retry_after_us, o.reset_after_us);
            if got != want {
                wrong.push(format!("{on}: row {i} at {when} cost {cost}: got {got:?}, want {want:?}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{name}:\n{}", wrong.join("\n"));
}

fn calendar(unit: &'static str, zone: &'static str) -> impl Fn() -> Windows {
    move || Windows::Calendar(Calendar::new(unit, zone).unwrap())
}

#[test]
#[rustfmt::skip]
fn months_end_at_their_own_length() {
    replay("month", 60.0, 2, calendar("month", "UTC"), &[
        ("2027-01-31T23:59:59Z", 1, (Y, 1, 0, S)),
        ("2027-01-31T23:59:59.500Z", 1, (Y, 0, 0, S / 2)),
        ("2027-01-31T23:59:59.900Z", 1, (N, 0, S / 10, S / 10)),
        // February: 28 days.
        ("2027-02-01T00:00:00Z", 2, (Y, 0, 0, 28 * 24 * H)),
        ("2027-02-28T23:00:00Z", 1, (N, 0, H, H)),
        ("2027-03-01T00:00:00Z", 1, (Y, 1, 0, 31 * 24 * H)),
    ]);
}

#[test]
#[rustfmt::skip]
fn days_across_both_dst_changes() {
    // Europe/Paris: 2027-03-28 has 23 hours (from 2027-03-27T23:00Z to 2027-03-28T22:00Z),
    // 2027-10-31 has 25 (from 2027-10-30T22:00Z to 2027-10-31T23:00Z).
    replay("dst-day", 60.0, 1, calendar("day", "Europe/Paris"), &[
        ("2027-03-27T23:00:00Z", 1, (Y, 0, 0, 23 * H)),
        ("2027-03-28T21:59:59Z", 1, (N, 0, S, S)),
        ("2027-03-28T22:00:00Z", 1, (Y, 0, 0, 24 * H)),
        ("2027-10-30T22:00:00Z", 1, (Y, 0, 0, 25 * H)),
        ("2027-10-31T22:30:00Z", 1, (N, 0, H / 2, H / 2)),
        ("2027-10-31T23:00:00Z", 1, (Y, 0, 0, 24 * H)),
    ]);
}

#[test]
#[rustfmt::skip]
fn hours_weeks_and_anchors() {
    // The hour after 01:00 CET on 2027-03-28 is 03:00 CEST: each local hour lasts one hour.
    replay("dst-hour", 60.0, 1, calendar("hour", "Europe/Paris"), &[
        ("2027-03-28T00:30:00Z", 1, (Y, 0, 0, H / 2)),
        ("2027-03-28T00:59:00Z", 1, (N, 0, 60 * S, 60 * S)),
        ("2027-03-28T01:00:00Z", 1, (Y, 0, 0, H)),
    ]);
    // 2027-01-01 is a Friday: its ISO week ends on Monday 2027-01-04.
    replay("week", 60.0, 1, calendar("week", "UTC"), &[
        ("2027-01-01T00:00:00Z", 1, (Y, 0, 0, 3 * 24 * H)),
        ("2027-01-03T23:59:59Z", 1, (N, 0, S, S)),
        ("2027-01-04T00:00:00Z", 1, (Y, 0, 0, 7 * 24 * H)),
    ]);
    // 10 s windows from 00:00:03: [13 s, 23 s) holds 15 s.
    let anchor_ms = at("2027-01-01T00:00:03Z") / 1000;
    replay("anchor", 10.0, 1, || Windows::Anchored { anchor_ms }, &[
        ("2027-01-01T00:00:15Z", 1, (Y, 0, 0, 8 * S)),
        ("2027-01-01T00:00:22.999Z", 1, (N, 0, 1000, 1000)),
        ("2027-01-01T00:00:23Z", 1, (Y, 0, 0, 10 * S)),
    ]);
}
