//! The one retry decision: what a failed call allows (`Allows`), decided in
//! one function (`allows`) and obeyed by every loop that sends a command
//! again: the pool's (a call's connection: `pool::TargetConnections::at_most_once`),
//! the cluster link's (redirections and failovers: `conn::ClusterLink::send`)
//! and the runner's (what the server lacks first: `decide`, `fallback`). An
//! error reply becomes an error in one place, the reply decoder's
//! (`entry::reply::as_result`), before it is judged here.
//!
//! A command is sent again only when an answer proves it did not run; one
//! that may have reached the server is never sent twice, so a decision is
//! applied at most once (the time bound is `time`'s). What proves it:
//! - nothing of it was written: the connection was found closed before the
//!   write (`not_sent`), or connecting was refused;
//! - the server refused it before running it: `MOVED`, `ASK`, `TRYAGAIN`,
//!   `CLUSTERDOWN`, `LOADING`, `MASTERDOWN`, `READONLY`, `NOSCRIPT`, and the
//!   library's or the module's absence (which `fallback` confirms by asking
//!   the server before it sends the call again).
//!
//! What does not: a reply that did not come in time (the server may be
//! stalled with our command read: a fork, a slow command, `CLIENT PAUSE`,
//! SIGSTOP; it runs the command when it wakes), or a connection lost after
//! the write. Such a call fails (or gets the `ratelimit.on_error` answer), and
//! its message says it may have been counted (`may_have_run`).

use std::io;

use ::redis::{ErrorKind, RedisError, ServerErrorKind};

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

/// What a failed call allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Allows {
    /// Nothing of it was written (its connection was found closed first, or
    /// connecting was refused): again, on a new connection.
    NotSent,
    /// `MOVED`: again, at the node that owns the slot now.
    Redirect { node: (String, u16), slot: u16 },
    /// `ASK`: again, once, at that node, after `ASKING`.
    Ask { node: (String, u16) },
    /// A redirection that names no node we can read: again, once the
    /// cluster's slot map has been read again.
    ReadSlotsAgain,
    /// `TRYAGAIN`, `CLUSTERDOWN`, `LOADING`, `MASTERDOWN`: refused for the
    /// moment; again after a pause.
    Wait,
    /// `READONLY`: the server is a replica now (a failover): again, at the
    /// master found anew (a Sentinel target's or a cluster's).
    Demoted,
    /// The server may lack what the call needs (`NOSCRIPT`, the library, the
    /// module's command, FCALL itself: an `ERR` that is not our library's
    /// own): again once `fallback` has asked the server and put it right.
    Lacks,
    /// It was sent and its outcome is unknown (no reply in time, the
    /// connection lost after the write): never again; its message says it
    /// may have been counted.
    MayHaveRun,
    /// An error reply of the command's own: it ran, or was refused for its
    /// own sake (WRONGTYPE, OOM, `ERR ratelimit: …`). That is the answer.
    Answer,
}

impl Allows {
    /// Whether the failure proves the command did not run, so sending it
    /// again (to the right node, after a fix) cannot apply it twice.
    pub fn did_not_run(&self) -> bool {
        !matches!(self, Allows::MayHaveRun | Allows::Answer)
    }
}

/// "host:port" as a redirection names a node (an IPv6 host has colons of its own).
fn node(addr: &str) -> Option<(String, u16)> {
    let (host, port) = addr.rsplit_once(':')?;
    Some((host.to_string(), port.parse().ok()?))
}

/// Whether `e` is a server module's refusal of the words this extension
/// sent as naming no algorithm: the extension only sends algorithms it
/// knows, so the module is older than they are (a module from before the
/// lock-out layout reads a lockout as the algorithm's name; one from before
/// calendar windows does not know them). Such a connection goes to Lua
/// (`fallback`), as one whose module was unloaded. (`decide::has_module` keeps an older
/// module from being used at all; this covers a connection that met one
/// later, after a failover.)
pub fn older_module(e: &RedisError) -> bool {
    e.code() == Some("ERR") && e.detail().is_some_and(|d| d.starts_with("ratelimit: no algorithm named"))
}

/// What `e` allows: the one decision (see `Allows`).
pub fn allows(e: &RedisError) -> Allows {
    if not_sent(e) || e.is_connection_refusal() {
        return Allows::NotSent;
    }
    let redirect = || e.redirect_node().and_then(|(addr, slot)| Some((node(addr)?, slot)));
    match e.code() {
        Some("MOVED") => redirect().map_or(Allows::ReadSlotsAgain, |(node, slot)| Allows::Redirect { node, slot }),
        Some("ASK") => redirect().map_or(Allows::ReadSlotsAgain, |(node, _)| Allows::Ask { node }),
        Some("TRYAGAIN" | "CLUSTERDOWN" | "LOADING" | "MASTERDOWN") => Allows::Wait,
        Some("READONLY") => Allows::Demoted,
        Some("NOSCRIPT") => Allows::Lacks,
        _ if e.kind() == ErrorKind::Server(ServerErrorKind::NoScript) => Allows::Lacks,
        // A generic refusal that is not one of our library's own errors
        // ("ERR ratelimit: …"): "unknown command" or "Function not found" in
        // any release's words. `fallback` asks the server which.
        Some("ERR") if !e.detail().is_some_and(|d| d.starts_with("ratelimit:")) => Allows::Lacks,
        // An older server module (`older_module`): it lacks this layout.
        Some("ERR") if older_module(e) => Allows::Lacks,
        Some(_) => Allows::Answer,
        None if e.is_io_error() => Allows::MayHaveRun,
        None => Allows::Answer,
    }
}

/// Whether `e` proves the command did not run (`Allows::did_not_run`).
pub fn did_not_run(e: &RedisError) -> bool {
    allows(e).did_not_run()
}

/// Whether the command may have run although the call failed: it was sent
/// and its outcome is unknown (no reply in time, the connection lost after
/// the write). Its message says so.
pub fn may_have_run(e: &RedisError) -> bool {
    e.is_io_error() && !did_not_run(e)
}

/// Whether the connection's stream can no longer be trusted to be in step
/// (a reply may still be on its way): the connection is let go.
pub fn is_broken(e: &RedisError) -> bool {
    e.is_io_error() || e.is_timeout() || e.is_connection_dropped() || e.is_unrecoverable_error()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entry::reply::as_result;
    use ::redis::Value;

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

    #[test]
    fn each_failure_allows_one_thing() {
        let node = |h: &str, p| (h.to_string(), p);
        assert_eq!(allows(&server(b"-MOVED 3999 127.0.0.1:6381\r\n")), Allows::Redirect { node: node("127.0.0.1", 6381), slot: 3999 });
        assert_eq!(allows(&server(b"-MOVED 3999 ::1:6381\r\n")), Allows::Redirect { node: node("::1", 6381), slot: 3999 });
        assert_eq!(allows(&server(b"-ASK 12 10.0.0.1:7000\r\n")), Allows::Ask { node: node("10.0.0.1", 7000) });
        assert_eq!(allows(&server(b"-MOVED 3999 nowhere\r\n")), Allows::ReadSlotsAgain);
        assert_eq!(allows(&server(b"-TRYAGAIN Multiple keys request during rehashing of slot\r\n")), Allows::Wait);
        assert_eq!(allows(&server(b"-LOADING Redis is loading the dataset in memory\r\n")), Allows::Wait);
        assert_eq!(allows(&server(b"-READONLY You can't write against a read only replica.\r\n")), Allows::Demoted);
        assert_eq!(allows(&server(b"-NOSCRIPT No matching script.\r\n")), Allows::Lacks);
        assert_eq!(allows(&server(b"-ERR Function not found\r\n")), Allows::Lacks);
        assert_eq!(allows(&server(b"-ERR unknown command 'FCALL', with args beginning with: \r\n")), Allows::Lacks);
        assert_eq!(allows(&server(b"-ERR ratelimit: the key holds a token bucket\r\n")), Allows::Answer);
        assert_eq!(allows(&server(b"-OOM command not allowed when used memory > 'maxmemory'.\r\n")), Allows::Answer);
        assert_eq!(allows(&not_sent_error("the server closed the connection")), Allows::NotSent);
        assert_eq!(allows(&io::Error::from(io::ErrorKind::TimedOut).into()), Allows::MayHaveRun);
        // An error reply becomes an error in one place, and only an error reply does.
        assert!(as_result(::redis::parse_redis_value(b"-ERR x\r\n")).is_err());
        assert_eq!(as_result(Ok(Value::Int(3))).unwrap(), Value::Int(3));
    }
}
