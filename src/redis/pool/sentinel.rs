//! Finding the master of a Redis Sentinel service, each time the pool opens
//! a connection for a `redis-sentinel://` target:
//!
//! 1. ask the sentinels in turn `SENTINEL GET-MASTER-ADDR-BY-NAME service`
//!    (the one that answered last time first); the first that names an
//!    address is believed (a sentinel that cannot be reached, or does not
//!    know the service, is passed over);
//! 2. connect to that address as to a single server (credentials, db, TLS,
//!    timeouts of the target) and check that `ROLE` says master: right after
//!    a failover a sentinel may still name the old master, now a replica.
//!    Then ask again, a few times; a replica is never written to.
//!
//! The connection is then an ordinary single-server one, and the pool treats
//! it so (scripts, NOSCRIPT, fork, timeouts). When the master dies or is
//! demoted, the pool drops the connection (an I/O error, or the READONLY a
//! demoted master answers a write with), and its next connect comes back here.
//!
//! A master that is still up after a failover (`SENTINEL FAILOVER`) is only
//! demoted by the sentinels seconds later, and what it counts until then is
//! lost. So the pool re-confirms the master of a reused connection with the
//! sentinel that answered last once more than a second has passed since the
//! last confirmation (`Confirmed`): a moved master is then left within about
//! a second, and calls within that second cost no extra round trip.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use ::redis::{RedisResult, Value};
use once_cell::sync::Lazy;
use parking_lot::Mutex;

use crate::redis::conn::Conn;
use crate::redis::rules::time::Deadline;
use crate::redis::rules::time::Timeouts;
use crate::redis::single::mux::Mux;
use crate::redis::single::wire::Login;
use crate::redis::target::{Address, Sentinels, Target, Tls};
use crate::redis::words::plain::{cause, OpenError};
use crate::redis::words::redact::shown;

/// How many times a master that says it is a replica is asked about again,
/// and the pause before each new question (sentinels update one another
/// within ~100 ms of a promotion).
const ROUNDS: usize = 3;
const REASK_PAUSE: Duration = Duration::from_millis(100);

/// How long a master the sentinels named is believed without asking again.
const RECHECK_AFTER: Duration = Duration::from_secs(1);

/// Which master a connection is to, and when the sentinels last said so.
pub struct Confirmed {
    master: (String, u16),
    at: Instant,
}

/// Whether a master confirmed at `at` is to be confirmed again `now`.
fn recheck_due(at: Instant, now: Instant) -> bool {
    now.saturating_duration_since(at) > RECHECK_AFTER
}

/// What a re-check's answer means for the connection to `current`: only a
/// sentinel naming another address moves it. One that cannot be reached (or
/// forgot the service) says nothing: an outage of the sentinels must not stop
/// decisions on a master that still works.
fn moved(current: &(String, u16), answer: &Result<Option<(String, u16)>, String>) -> bool {
    matches!(answer, Ok(Some(named)) if named != current)
}

impl Confirmed {
    /// True when the sentinels now name another master than this connection's
    /// (the caller drops it and connects again). Asks at most once a second,
    /// only the sentinel that answered last, with the call's timeouts.
    pub fn moved(&mut self, target: &Target, sentinels: &Sentinels, timeouts: Timeouts) -> bool {
        if !recheck_due(self.at, Instant::now()) {
            return false;
        }
        let answer = ask_last(sentinels, target.tls.as_ref(), timeouts);
        // Also after a failure: the next attempt is a second away, so a
        // hanging sentinel slows one call a second, not every call.
        self.at = Instant::now();
        moved(&self.master, &answer)
    }
}

/// A connection to the current master of `sentinels.service`, or why there
/// is none: `open` connects to the address the sentinels name (as to a single server, with the target's
/// credentials and db), `role` asks it `ROLE` (`role_of`).
pub fn connect_master<C>(
    target: &Target,
    sentinels: &Sentinels,
    timeouts: Timeouts,
    open: impl Fn(&str, u16) -> Result<C, String>,
    role: impl Fn(&mut C) -> RedisResult<String>,
) -> Result<(C, Confirmed), String> {
    let tls = target.tls.as_ref();
    let mut why = String::new();
    for round in 0..ROUNDS {
        if round > 0 {
            std::thread::sleep(REASK_PAUSE);
        }
        let (host, port) = ask(sentinels, tls, timeouts)?;
        let master = format!("{}:{port}", shown(&host));
        let mut conn = open(&host, port).map_err(|e| format!("the master {master} the sentinels named: {e}"))?;
        match role(&mut conn) {
            Ok(role) if role == "master" => return Ok((conn, Confirmed { master: (host, port), at: Instant::now() })),
            Ok(role) => {
                let role = if role == "slave" { "replica" } else { role.as_str() };
                why = format!("the sentinels named {master} as master, but it is a {role} (a failover is under way); asked {ROUNDS} times")
            }
            Err(e) => return Err(format!("the master {master} the sentinels named: {}", cause(&e, tls.is_some()))),
        }
    }
    Err(why)
}

/// Per process, the sentinel of each set that answered last: it is asked
/// first next time, so one that hangs costs its timeout once, not on every
/// reconnect (a re-check that gets no answer moves on to the next one). A handful of sets at most; the map is cleared if it ever grows.
static ANSWERED_LAST: Lazy<Mutex<HashMap<Sentinels, usize>>> = Lazy::new(Default::default);
const ANSWERED_LAST_MAX: usize = 256;

/// The address the first sentinel that knows the service gives for its master.
fn ask(sentinels: &Sentinels, tls: Option<&Tls>, timeouts: Timeouts) -> Result<(String, u16), String> {
    let mut failures = Vec::new();
    let mut unknown = 0;
    let n = sentinels.nodes.len();
    let first = ANSWERED_LAST.lock().get(sentinels).copied().unwrap_or(0);
    for i in (0..n).map(|k| (first + k) % n) {
        match query(sentinels, i, tls, timeouts) {
            Ok(Some(master)) => return Ok(master),
            Ok(None) => unknown += 1,
            Err(e) => failures.push(e),
        }
    }
    let service = shown(&sentinels.service);
    Err(match (unknown, failures.is_empty()) {
        (0, _) => format!("no sentinel answered ({})", failures.join("; ")),
        (_, true) => format!("no sentinel knows the service \"{service}\" (not a master name they monitor)"),
        (n, false) => format!("no sentinel knows the service \"{service}\" ({n} answered they do not; {})", failures.join("; ")),
    })
}

/// A re-check's question, to the sentinel that answered last only. When it
/// does not answer, the next sentinel becomes the one asked first, so a dead
/// sentinel does not keep every later re-check from seeing a failover.
fn ask_last(sentinels: &Sentinels, tls: Option<&Tls>, timeouts: Timeouts) -> Result<Option<(String, u16)>, String> {
    if sentinels.nodes.is_empty() {
        return Ok(None); // never so once parsed; no division by zero all the same
    }
    let i = ANSWERED_LAST.lock().get(sentinels).copied().unwrap_or(0) % sentinels.nodes.len();
    let answer = query(sentinels, i, tls, timeouts);
    if !matches!(answer, Ok(Some(_))) {
        remember(sentinels, (i + 1) % sentinels.nodes.len());
    }
    answer
}

/// Sentinel `i`'s answer: the master's address, `None` when it does not know
/// the service, or why it could not be asked. One that names an address is
/// remembered as the one to ask first.
fn query(sentinels: &Sentinels, i: usize, tls: Option<&Tls>, timeouts: Timeouts) -> Result<Option<(String, u16)>, String> {
    let (host, port) = &sentinels.nodes[i];
    // A sentinel has no databases: no SELECT, whatever the master's db.
    let login = Login { db: 0, username: sentinels.username.as_deref(), password: sentinels.password.as_deref() };
    let answer = open(host, *port, tls, &login, timeouts)
        .and_then(|mut conn| {
            ::redis::cmd("SENTINEL")
                .arg("GET-MASTER-ADDR-BY-NAME")
                .arg(&sentinels.service)
                .query::<Value>(&mut conn)
                .map_err(|e| cause(&e, tls.is_some()))
        })
        .map_err(|e| format!("{}:{port}: {e}", shown(host)))
        .and_then(|reply| master_in(reply).map_err(|e| format!("{}:{port} {e}", shown(host))));
    if matches!(answer, Ok(Some(_))) {
        remember(sentinels, i);
    }
    answer
}

/// A sentinel's `GET-MASTER-ADDR-BY-NAME` reply: the master's address,
/// `None` when it does not know the service (public for the fuzz target
/// that feeds it any reply, fuzz/fuzz_targets/resp_replies.rs).
pub fn master_in(reply: Value) -> Result<Option<(String, u16)>, String> {
    match ::redis::from_redis_value::<Option<(String, String)>>(reply) {
        Ok(Some((master, port))) => match port.parse::<u16>() {
            Ok(port) if port > 0 => Ok(Some((master, port))),
            _ => Err(format!("named the port \"{}\"", shown(&port))),
        },
        Ok(None) => Ok(None),
        Err(e) => Err(format!("answered {e}")),
    }
}

/// Sentinel `i` of the set is the one to ask first from now on.
fn remember(sentinels: &Sentinels, i: usize) {
    let mut answered = ANSWERED_LAST.lock();
    if answered.len() >= ANSWERED_LAST_MAX && !answered.contains_key(sentinels) {
        answered.clear();
    }
    answered.insert(sentinels.clone(), i);
}

/// One connection to `host:port`, plain or TLS, for one question, with the call's timeouts.
fn open(host: &str, port: u16, tls: Option<&Tls>, login: &Login, timeouts: Timeouts) -> Result<Conn, String> {
    match Mux::open(&Address::Tcp { host: host.to_string(), port }, tls, login, timeouts) {
        Ok(mux) => Ok(Conn::single(mux, Deadline::after(timeouts.reply))),
        Err(OpenError::Setup(why)) => Err(why),
        Err(OpenError::Redis(e)) => Err(cause(&e, tls.is_some())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recheck_is_due_only_after_a_second() {
        let at = Instant::now();
        assert!(!recheck_due(at, at));
        assert!(!recheck_due(at, at + Duration::from_millis(999)));
        assert!(!recheck_due(at, at + RECHECK_AFTER));
        assert!(recheck_due(at, at + Duration::from_millis(1001)));
        assert!(recheck_due(at, at + Duration::from_secs(3600)));
        // A time before the confirmation (not monotonic in the caller's order) is not due.
        assert!(!recheck_due(at + Duration::from_secs(5), at));
    }

    #[test]
    fn only_another_named_address_moves_the_connection() {
        let current = ("10.0.0.21".to_string(), 6379);
        assert!(!moved(&current, &Ok(Some(current.clone()))));
        assert!(moved(&current, &Ok(Some(("10.0.0.22".to_string(), 6379)))));
        assert!(moved(&current, &Ok(Some(("10.0.0.21".to_string(), 6380)))));
        // No answer, or a sentinel that forgot the service: keep deciding where we are.
        assert!(!moved(&current, &Err("10.0.0.31:26379: connection refused".to_string())));
        assert!(!moved(&current, &Ok(None)));
    }
}
