//! A failed call in the user's words: where, what happened, and whether the
//! decision may have been counted (`retry::may_have_run`). Each failure is
//! counted on its target (`php --ri`).

use std::sync::atomic::Ordering;
use std::time::Duration;

use ::redis::RedisError;

use crate::error::Error;
use crate::redis::pool::breakers::{Gate, Refusal};
use crate::redis::pool::{breaker, TargetConnections};
use crate::redis::rules::retry;
use crate::redis::rules::time::Timeouts;
use crate::redis::words::plain::{cause, plain_cause};

impl TargetConnections {
    /// A call that failed with `e`: the cause, and when the command may
    /// have run (`retry::may_have_run`), that it may have been counted.
    pub(super) fn fail(&self, e: &RedisError, timeouts: Timeouts, gate: &Gate) -> Error {
        if !retry::may_have_run(e) {
            return self.fail_to_open(e, gate);
        }
        self.failures.fetch_add(1, Ordering::Relaxed);
        let cause = match e.is_timeout() {
            true => format!("timed out after {} s", seconds(timeouts.reply)),
            false => "the connection was lost after the command was sent".to_string(),
        };
        self.judged(e, &cause, gate);
        Error::Redis(format!("Redis at {}: {cause}; the decision may have been counted", self.target))
    }

    /// What a failure tells the breaker the call went through (`breakers`):
    /// a server that could not be reached opens it; one that answered, even
    /// with an error, closes it.
    fn judged(&self, e: &RedisError, cause: &str, gate: &Gate) {
        match breaker::unreachable(e) {
            true => self.breakers.trip(gate, breaker::retry_interval(), &self.target.to_string(), cause),
            false => self.answered(gate),
        }
    }

    /// A probe that ended in a failure the breaker was not told of: open for another interval.
    #[cold]
    pub(super) fn probe_failed(&self, e: &Error, gate: &Gate) {
        self.breakers.probe_failed(gate, breaker::retry_interval(), &self.target.to_string(), &e.to_string());
    }

    /// A call an open breaker refused: the target (and on a cluster the
    /// master), how long it stays open, and why it opened.
    #[cold]
    pub(super) fn refused(&self, refusal: Refusal) -> Error {
        let when = match refusal.left.is_zero() {
            true => "until the call now trying it again answers".to_string(),
            false => format!("for {:.3} s more", refusal.left.as_secs_f64()),
        };
        let whose = match &refusal.master {
            Some((host, port)) => format!("the circuit breaker of its master {host}:{port}"),
            None => "the circuit breaker".to_string(),
        };
        Error::Redis(format!(
            "Redis at {}: not tried, {whose} is open {when} (the last call failed: {}); the decision was not counted",
            self.target, refusal.cause
        ))
    }

    /// A connection that could not be opened (nothing was sent), or `fail`'s cause.
    pub(super) fn fail_to_open(&self, e: &RedisError, gate: &Gate) -> Error {
        self.failures.fetch_add(1, Ordering::Relaxed);
        let text = match &self.target.tls {
            // The handshake runs with the first command, so a plain port (which
            // reads a TLS hello as the start of a command and waits) shows as a timeout.
            Some(_) if e.is_timeout() => format!("{}; over TLS this is also what a plain, non-TLS port gives", plain_cause(e)),
            tls => cause(e, tls.is_some()),
        };
        let text = match self.target.is_cluster() && self.target.password.is_none() && text.contains("NOAUTH") {
            true => format!("{text}; {CLUSTER_WITHOUT_PASSWORD}"),
            false => text,
        };
        self.judged(e, &text, gate);
        Error::Redis(format!("Redis at {}: {text}", self.target))
    }
}

/// Added to NOAUTH from a cluster no password was given for. The usual way to
/// get there is a phpredis `RedisCluster` object as `$connection`: its
/// password cannot be read from it (`php::phpredis_cluster`), so the user
/// must be told where to put it.
const CLUSTER_WITHOUT_PASSWORD: &str = "the cluster wants a password and none was given (phpredis does not expose a RedisCluster \
    object's password, so one passed as $connection is used without it): pass a redis-cluster://:password@host:port DSN \
    or ['cluster' => [...], 'auth' => ...] instead";

/// Seconds as a PHP developer wrote them: "0.2", "1", "1.5".
fn seconds(d: Duration) -> String {
    let ms = d.as_millis();
    match ms % 1000 {
        0 => format!("{}", ms / 1000),
        _ => format!("{}", (ms as f64 / 1000.0)),
    }
}
