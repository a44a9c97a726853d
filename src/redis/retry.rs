//! The one retry rule: a command is sent again only when an answer proves it
//! did not run; one that may have reached the server is never sent twice, so
//! a decision is applied at most once (the time bound is `time`'s).
//!
//! What proves a command did not run:
//! - nothing of it was written: the connection was found closed before the
//!   write (`not_sent`), or connecting was refused;
//! - the server refused it before running it: `MOVED`, `ASK`, `TRYAGAIN`,
//!   `CLUSTERDOWN`, `LOADING`, `MASTERDOWN`, `READONLY`, `NOSCRIPT` (and the
//!   library's or the module's absence, which `script` reads itself).
//!
//! What does not: a reply that did not come in time (the server may be
//! stalled with our command read: a fork, a slow command, `CLIENT PAUSE`,
//! SIGSTOP; it runs the command when it wakes), or a connection lost after
//! the write. Such a call fails (or gets the `ratelimit.on_error` answer), and
//! its message says it may have been counted (`may_have_run`).

use std::io;

use ::redis::{ErrorKind, RedisError};

/// The text that marks an error raised before anything of the command was
/// written (`not_sent`): the connection was found closed first.
const NOT_SENT: &str = "closed before the command was sent";

/// The error for a command that was not sent because its connection was
/// found closed: `why` says how.
pub fn not_sent_error(why: &str) -> RedisError {
    io::Error::new(io::ErrorKind::NotConnected, format!("{why}; {NOT_SENT}")).into()
}

/// Whether nothing of the command was written (`not_sent_error`).
pub fn not_sent(e: &RedisError) -> bool {
    e.kind() == ErrorKind::Io && e.to_string().contains(NOT_SENT)
}

/// The server's refusals that come before a command runs.
const REFUSED_UNRUN: [&str; 8] = ["MOVED", "ASK", "TRYAGAIN", "CLUSTERDOWN", "LOADING", "MASTERDOWN", "READONLY", "NOSCRIPT"];

/// Whether `e` proves the command did not run, so sending it again (to the
/// right node, after a fix) cannot apply it twice.
pub fn did_not_run(e: &RedisError) -> bool {
    not_sent(e) || e.is_connection_refusal() || e.code().is_some_and(|code| REFUSED_UNRUN.contains(&code))
}

/// Whether the command may have run although the call failed: it was sent
/// and its outcome is unknown (no reply in time, the connection lost after
/// the write). Its message says so.
pub fn may_have_run(e: &RedisError) -> bool {
    e.is_io_error() && !did_not_run(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(wire: &[u8]) -> RedisError {
        match ::redis::parse_redis_value(wire).unwrap() {
            ::redis::Value::ServerError(e) => e.into(),
            _ => unreachable!(),
        }
    }

    #[test]
    fn only_what_proves_the_command_did_not_run_is_retried() {
        for refused in [
            &b"-MOVED 3999 127.0.0.1:6381\r\n"[..],
            b"-ASK 3999 127.0.0.1:6381\r\n",
            b"-TRYAGAIN Multiple keys request during rehashing of slot\r\n",
            b"-CLUSTERDOWN The cluster is down\r\n",
            b"-LOADING Redis is loading the dataset in memory\r\n",
            b"-MASTERDOWN Link with MASTER is down\r\n",
            b"-READONLY You can't write against a read only replica.\r\n",
            b"-NOSCRIPT No matching script.\r\n",
        ] {
            let e = server(refused);
            assert!(did_not_run(&e), "{e}");
            assert!(!may_have_run(&e), "{e}");
        }
        assert!(did_not_run(&not_sent_error("the server closed the connection")));
        assert!(did_not_run(&io::Error::from(io::ErrorKind::ConnectionRefused).into()));
        for unknown in [io::ErrorKind::TimedOut, io::ErrorKind::WouldBlock, io::ErrorKind::UnexpectedEof, io::ErrorKind::ConnectionReset] {
            let e: RedisError = io::Error::new(unknown, "x").into();
            assert!(!did_not_run(&e), "{e}");
            assert!(may_have_run(&e), "{e}");
        }
        // An error reply is an answer: the command ran (or was refused for its own sake).
        let wrongtype = server(b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n");
        assert!(!did_not_run(&wrongtype) && !may_have_run(&wrongtype));
        assert!(!did_not_run(&server(b"-ERR ratelimit: bad\r\n")));
    }
}
