//! A connection's timeouts, and why opening one failed, said plainly: what
//! the pool, the cluster's builder and the sentinel code share (a single
//! server's socket itself is opened by `wire`).

use std::time::Duration;

use ::redis::RedisError;

use super::plain::{plain, plain_io};
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

/// A one-line cause in plain words: what a PHP developer can act on, never a
/// Rust type name, a parser's internals or an `os error` number.
pub fn describe(e: &RedisError) -> String {
    use ::redis::ErrorKind;
    if e.is_timeout() {
        return "timed out".to_string();
    }
    if e.is_connection_refusal() {
        return "connection refused".to_string();
    }
    match e.kind() {
        // Bytes that are not RESP: an HTTP server, an SSH daemon, a TLS port spoken to in plain text.
        ErrorKind::Parse => return "not a Redis server (its answer is not the Redis protocol)".to_string(),
        ErrorKind::AuthenticationFailed => return "authentication failed (wrong user name or password)".to_string(),
        _ => {}
    }
    if let Some(code) = e.code() {
        // An error reply: the server's own words ("WRONGTYPE Operation against a key …"),
        // without the " script: <sha>, on @user_script:<line>." Redis adds to
        // an error raised inside one of our scripts: it names our code, not the cause.
        return match e.detail().map(|d| d.split(" script: ").next().unwrap_or(d)) {
            Some(detail) => format!("{code} {detail}"),
            None => code.to_string(),
        };
    }
    if let Some(io) = std::error::Error::source(e).and_then(|s| s.downcast_ref::<std::io::Error>()) {
        return plain_io(io);
    }
    plain(&e.to_string(), &format!("{:?}", e.kind()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::redis::ErrorKind;

    #[test]
    fn causes_are_plain_words() {
        let io = |kind, text: &str| RedisError::from(std::io::Error::new(kind, text.to_string()));
        assert_eq!(describe(&io(std::io::ErrorKind::WouldBlock, "Resource temporarily unavailable (os error 11)")), "timed out");
        assert_eq!(describe(&io(std::io::ErrorKind::ConnectionRefused, "Connection refused (os error 111)")), "connection refused");
        assert_eq!(describe(&io(std::io::ErrorKind::ConnectionReset, "Connection reset by peer (os error 104)")), "the server reset the connection");
        assert_eq!(
            describe(&RedisError::from((ErrorKind::AuthenticationFailed, "Password authentication failed"))),
            "authentication failed (wrong user name or password)"
        );
        assert_eq!(describe(&RedisError::from((ErrorKind::Parse, "Parse error"))), "not a Redis server (its answer is not the Redis protocol)");
        let nested = RedisError::from((
            ErrorKind::Io,
            "It failed to check startup nodes.",
            "Failed to connect to each cluster node (127.0.0.1:7000: Connection refused (os error 111))".to_string(),
        ));
        assert_eq!(describe(&nested), "no cluster node answered: Failed to connect to each cluster node (127.0.0.1:7000: connection refused)");
        let text = describe(&nested);
        assert!(!text.contains("os error") && !text.contains(" - Io"), "{text}");
    }
}
