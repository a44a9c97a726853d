//! What a refused call needs before it is sent again, in the same call: the
//! function library or the script form loaded where the server lacks it, the
//! script form from now on where it has no functions, Lua from now on where
//! the module's commands are gone, and a replica's peeks read-only by script.
//! Each is told by the refusal itself (`fix_for`), never by the wording of
//! an unknown-command error, which differs between releases: the server is
//! asked (`COMMAND INFO`, `ROLE`).
//!
//! A peek that finds no library on a read-only replica (its master has not
//! loaded it yet, or it only ever decides through the server module) does
//! not load it, since FUNCTION LOAD is a write a replica refuses: asked with
//! ROLE, a replica's connection sends its peeks as the script form with
//! EVALSHA_RO instead (SCRIPT LOAD, which a replica takes, on NOSCRIPT),
//! read-only as FCALL_RO is. A master loads the library, as for any call.

use std::sync::atomic::{AtomicBool, Ordering};

use ::redis::{ErrorKind, RedisError, RedisResult, ServerErrorKind, Value};

use crate::entry::library::LIBRARY;
use crate::entry::reply::functions_in;
use crate::redis::conn::{role_of, Conn};
use crate::redis::rules::retry::{self, older_module, Allows};

/// Set once a server said it has no FCALL (Redis < 7): from then on
/// this process calls the script form. Process-wide rather than per server,
/// so a fleet mixing Redis 6 and 7 behind one process pays EVALSHA on both;
/// the answers are the same either way.
pub(super) static SCRIPTS_ONLY: AtomicBool = AtomicBool::new(false);

/// What a failed call needs before it is sent again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Fix {
    /// The server no longer has the module's commands: Lua from now on, on this connection.
    DropModule,
    /// The server lacks our function library: FUNCTION LOAD it.
    LoadFunctions,
    /// FCALL was refused for a reason of the server's own: if the server
    /// has no FCALL (asked with `COMMAND INFO`), use the script form from now on.
    UseScripts,
    /// The server lacks the script form: SCRIPT LOAD it.
    LoadScript,
    /// A peek found no function library: a master loads it (as
    /// `LoadFunctions`); on a read-only replica, which refuses the load, this
    /// connection's peeks use the script form read-only (EVALSHA_RO) from
    /// now on, and nothing is written.
    PeekWithoutLibrary,
}

/// `module`: the refused call was the module's command; `writes`: the
/// call's entry may write (a peek does not: it never loads the library).
pub(super) fn fix_for(e: &RedisError, module: bool, writes: bool) -> Option<Fix> {
    // Only a refusal that says the server may lack something (`retry`).
    if retry::allows(e) != Allows::Lacks {
        return None;
    }
    let ours = e.detail().is_some_and(|d| d.starts_with("ratelimit:"));
    if module {
        return (e.code() == Some("ERR") && (!ours || older_module(e))).then_some(Fix::DropModule);
    }
    if older_module(e) {
        return None;
    }
    // A cluster connection hands the node's error on with its code only.
    if e.kind() == ErrorKind::Server(ServerErrorKind::NoScript) || e.code() == Some("NOSCRIPT") {
        return Some(Fix::LoadScript);
    }
    let text = e.to_string();
    if text.contains("Function not found") {
        Some(if writes { Fix::LoadFunctions } else { Fix::PeekWithoutLibrary })
    } else if e.code() == Some("ERR") && !ours {
        // A generic refusal that is not one of our library's own errors
        // ("ERR ratelimit: …"): "unknown command" in any release's words.
        // Only an ERR reply gets here (not WRONGTYPE, OOM, READONLY, …), so
        // the question costs a round trip only on a rare failure.
        Some(Fix::UseScripts)
    } else {
        None
    }
}

/// Does the server know FCALL? `COMMAND INFO FCALL` answers one entry, nil
/// for a command it does not have (Redis 6, or FCALL renamed away).
fn has_functions(conn: &mut Conn) -> RedisResult<bool> {
    functions_in(::redis::cmd("COMMAND").arg("INFO").arg("FCALL").query::<Value>(conn)?)
}

/// Is the server a master? (ROLE: "master", or "slave" for a replica.) A
/// cluster connection's calls all go to masters.
fn is_master(conn: &mut Conn) -> RedisResult<bool> {
    Ok(role_of(conn)? == "master")
}

/// Applies `fix` for the call that failed with `e`; `e` itself when the fix
/// does not apply (the server has FCALL after all: the refusal stands).
pub(super) fn apply(conn: &mut Conn, fix: Fix, e: RedisError) -> RedisResult<()> {
    match fix {
        Fix::DropModule => {
            conn.set_module(false);
            Ok(())
        }
        // REPLACE: another process may load the same library at the same
        // moment; its text is ours, so either load is right.
        Fix::LoadFunctions => ::redis::cmd("FUNCTION").arg("LOAD").arg("REPLACE").arg(&LIBRARY.function_text).query::<String>(conn).map(|_| ()),
        Fix::UseScripts => {
            if has_functions(conn)? {
                return Err(e);
            }
            SCRIPTS_ONLY.store(true, Ordering::Relaxed);
            Ok(())
        }
        Fix::LoadScript => ::redis::cmd("SCRIPT").arg("LOAD").arg(&LIBRARY.script_text).query::<String>(conn).map(|_| ()),
        Fix::PeekWithoutLibrary if conn.is_cluster() || is_master(conn)? => apply(conn, Fix::LoadFunctions, e),
        Fix::PeekWithoutLibrary => {
            conn.set_peeks_by_script();
            Ok(())
        }
    }
}

/// The fixes a call may apply, each once: a server that still fails after
/// one has a problem no retry solves.
#[derive(Default)]
pub(super) struct Applied([bool; 5]);

impl Applied {
    pub(super) fn first_time(&mut self, fix: Fix) -> bool {
        !std::mem::replace(&mut self.0[fix as usize], true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixes_are_told_by_the_error() {
        let fix = |wire: &[u8]| match ::redis::parse_redis_value(wire).unwrap() {
            Value::ServerError(e) => fix_for(&e.into(), false, true),
            _ => unreachable!(),
        };
        assert_eq!(fix(b"-ERR Function not found\r\n"), Some(Fix::LoadFunctions));
        // A peek loads the library only where the server is a master (a replica refuses the write).
        let peek_fix = |wire: &[u8]| match ::redis::parse_redis_value(wire).unwrap() {
            Value::ServerError(e) => fix_for(&e.into(), false, false),
            _ => unreachable!(),
        };
        assert_eq!(peek_fix(b"-ERR Function not found\r\n"), Some(Fix::PeekWithoutLibrary));
        assert_eq!(peek_fix(b"-NOSCRIPT No matching script. Please use EVAL.\r\n"), Some(Fix::LoadScript));
        // Redis 7 (a renamed FCALL) and Redis 6 word it differently: both ask the server.
        assert_eq!(fix(b"-ERR unknown command 'FCALL', with args beginning with: \r\n"), Some(Fix::UseScripts));
        assert_eq!(fix(b"-ERR unknown command `FCALL`, with args beginning with: \r\n"), Some(Fix::UseScripts));
        assert_eq!(fix(b"-ERR ratelimit: the key holds a token bucket\r\n"), None);
        assert_eq!(fix(b"-READONLY You can't write against a read only replica.\r\n"), None);
        assert_eq!(fix(b"-NOSCRIPT No matching script. Please use EVAL.\r\n"), Some(Fix::LoadScript));
        assert_eq!(fix(b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"), None);
        // A module command refused as unknown (the module was unloaded) goes to Lua; its own errors stand.
        let module_fix = |wire: &[u8]| match ::redis::parse_redis_value(wire).unwrap() {
            Value::ServerError(e) => fix_for(&e.into(), true, true),
            _ => unreachable!(),
        };
        assert_eq!(module_fix(b"-ERR unknown command 'RATELIMIT.TAKE', with args beginning with: \r\n"), Some(Fix::DropModule));
        assert_eq!(module_fix(b"-ERR ratelimit: the key holds a value that is not a token bucket\r\n"), None);
        // An older module reads this layout's words as naming no algorithm: Lua from now on.
        assert_eq!(module_fix(b"-ERR ratelimit: no algorithm named 0\r\n"), Some(Fix::DropModule));
        assert_eq!(fix(b"-ERR ratelimit: no algorithm named 0\r\n"), None);
        assert_eq!(module_fix(b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"), None);
        assert_eq!(module_fix(b"-OOM command not allowed when used memory > 'maxmemory'.\r\n"), None);
    }
}
