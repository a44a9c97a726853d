//! A connection's timeouts, and why opening one failed, said plainly: what
//! the pool, the cluster's builder and the sentinel code share (a single
//! server's socket itself is opened by `wire`).

use std::time::Duration;

use ::redis::RedisError;

use super::target::Tls;

/// Connection and reply timeouts for one call, from the ini settings or the
/// connection argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    pub connect: Duration,
    pub reply: Duration,
}

/// Why one server could not be connected to: its TLS settings (unreadable
/// files, found before any I/O), or the connection's error.
pub enum OpenError {
    Setup(String),
    Redis(RedisError),
}

/// `describe`, and over TLS the certificate problem said plainly.
pub fn cause(e: &RedisError, tls: Option<&Tls>) -> String {
    let text = describe(e);
    match tls {
        Some(_) => super::tls::describe(&text).unwrap_or(text),
        None => text,
    }
}

/// A one-line cause: redis-rs's text, with the common cases said plainly.
pub fn describe(e: &RedisError) -> String {
    if e.is_timeout() {
        format!("timed out ({e})")
    } else if e.is_connection_refusal() {
        "connection refused".to_string()
    } else if e.kind() == ::redis::ErrorKind::Parse {
        format!("the server did not answer as Redis does ({e})")
    } else if let Some(code) = e.code() {
        // An error reply: the server's own words ("WRONGTYPE Operation against a key …"),
        // without the " script: <sha>, on @user_script:<line>." Redis adds to
        // an error raised inside one of our scripts: it names our code, not the cause.
        match e.detail().map(|d| d.split(" script: ").next().unwrap_or(d)) {
            Some(detail) => format!("{code} {detail}"),
            None => code.to_string(),
        }
    } else {
        e.to_string()
    }
}
