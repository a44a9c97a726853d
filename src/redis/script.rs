//! Calls an entry point: the server module's command where the server has the
//! module (`module/`, asked once per connection with `COMMAND INFO`, and only
//! when the call allows it: `ratelimit.server_module = auto`), else the Lua
//! library (`scripts`): FCALL (FCALL_RO for the peeks, so they answer on
//! read-only replicas), loading the library when the server lacks it (a
//! restart, `FUNCTION FLUSH`, a new cluster node); on a Redis without
//! functions (< 7, or FCALL renamed away), EVALSHA of the script form, loaded
//! on NOSCRIPT. Whether the server has functions is asked of it (`COMMAND INFO
//! FCALL`) when an FCALL is refused, never read from the wording of the
//! refusal, which differs between releases; a module command refused the same
//! way (the module was unloaded) is sent again as Lua, in the same call. Both
//! take the same arguments and reply the same bytes. A call is spelled
//! (`entry_call`) into a buffer reused across calls: one write, one read; on
//! a cluster, into the command redis-rs sends to the key's master.
//! A peek that finds no library on a read-only replica (its master has not
//! loaded it yet, or it only ever decides through the server module) does
//! not load it, since FUNCTION LOAD is a write a replica refuses: asked with
//! ROLE, a replica's connection sends its peeks as the script form with
//! EVALSHA_RO instead (SCRIPT LOAD, which a replica takes, on NOSCRIPT),
//! read-only as FCALL_RO is. A master loads the library, as for any call.
//! Replies are packed doubles (`lua/entries.lua`), decoded by `reply`.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};

use ::redis::{Cmd, ConnectionLike, ErrorKind, RedisError, RedisResult, ServerErrorKind, Value};

use super::conn::{as_result, Conn};
use super::entry_call::{EntryCall, Form};
use super::reply::{count_and_ttl, functions_in, is_master_in, module_in, Ints};
use super::scripts::{Entry, LIBRARY};

/// Set once a server said it has no FCALL (Redis < 7): from then on
/// this process calls the script form. Process-wide rather than per server,
/// so a fleet mixing Redis 6 and 7 behind one process pays EVALSHA on both;
/// the answers are the same either way.
static SCRIPTS_ONLY: AtomicBool = AtomicBool::new(false);

/// What a failed call needs before it is sent again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fix {
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
fn fix_for(e: &RedisError, module: bool, writes: bool) -> Option<Fix> {
    let ours = e.detail().is_some_and(|d| d.starts_with("ratelimit:"));
    if module {
        return (e.code() == Some("ERR") && !ours).then_some(Fix::DropModule);
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

/// Does the server have the module's commands, and on a cluster every
/// master? `COMMAND INFO` answers nil for a command a server does not have.
fn has_module(conn: &mut Conn) -> RedisResult<bool> {
    module_in(conn.on_every_master(::redis::cmd("COMMAND").arg("INFO").arg("RATELIMIT.TAKE"))?)
}

/// Whether calls on `conn` go to the module's commands: only when `allowed`
/// (`ratelimit.server_module = auto`) and the server has them (on a cluster,
/// every master), asked once per connection. A master that lacks them later
/// (a failover to a replica without the module) refuses the command as
/// unknown, and the connection goes back to Lua in that call (`fix_for`).
pub fn uses_module(conn: &mut Conn, allowed: bool) -> RedisResult<bool> {
    if !allowed {
        return Ok(false);
    }
    if conn.module.is_none() {
        conn.module = Some(has_module(conn)?);
    }
    Ok(conn.module == Some(true))
}

/// Which path a connection's calls take, for `php --ri`.
pub fn path(conn: &Conn) -> &'static str {
    match conn.module {
        Some(true) => "server module",
        _ if SCRIPTS_ONLY.load(Ordering::Relaxed) => "Lua script (EVALSHA)",
        _ => "Lua functions (FCALL)",
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
    is_master_in(::redis::cmd("ROLE").query::<Value>(conn)?)
}

/// Applies `fix` for the call that failed with `e`; `e` itself when the fix
/// does not apply (the server has FCALL after all: the refusal stands).
fn apply(conn: &mut Conn, fix: Fix, e: RedisError) -> RedisResult<()> {
    match fix {
        Fix::DropModule => {
            conn.module = Some(false);
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
            conn.peeks_by_script = true;
            Ok(())
        }
    }
}

/// The fixes a call may apply, each once: a server that still fails after
/// one has a problem no retry solves.
#[derive(Default)]
struct Applied([bool; 5]);

impl Applied {
    fn first_time(&mut self, fix: Fix) -> bool {
        !std::mem::replace(&mut self.0[fix as usize], true)
    }
}

thread_local! {
    /// The command being sent; PHP runs one call at a time per thread.
    static COMMAND: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// How a call on `conn` is spelled: `module` when the server module's
/// command decides (`uses_module`); else FCALL, or the script form where
/// the server has no functions (`SCRIPTS_ONLY`) and for a peek on a replica
/// without the library (`Conn::peeks_by_script`; Redis 6 has no EVALSHA_RO,
/// so such a peek is on a Redis 7+ or Valkey).
fn form(conn: &Conn, entry: Entry, module: bool) -> Form {
    let scripts_only = SCRIPTS_ONLY.load(Ordering::Relaxed);
    let read_only_script = conn.peeks_by_script && !entry.writes();
    if module {
        Form::Module
    } else if read_only_script && !scripts_only {
        Form::ReadOnlyScript
    } else if read_only_script || scripts_only {
        Form::Script
    } else {
        Form::Function
    }
}

/// `c` spelled in `form` and sent: on a single server as RESP, on a cluster
/// as the command sent to its first key's master (redis-rs would route a
/// module command by its first argument, the key count).
fn send<K: AsRef<[u8]>>(conn: &mut Conn, c: &EntryCall<K>, form: Form) -> RedisResult<Value> {
    if conn.is_cluster() {
        let mut cmd = Cmd::new();
        c.spell(form, &mut cmd);
        let key = c.keys.first().map(AsRef::as_ref).unwrap_or_default();
        return conn.req_command_for_key(&cmd, key);
    }
    COMMAND.with_borrow_mut(|buf| {
        buf.clear();
        c.spell(form, buf);
        conn.req_packed_command(buf)
    })
}

/// One call; the raw reply. `module`: the module's command may decide
/// (`uses_module`).
fn call<K: AsRef<[u8]>>(conn: &mut Conn, c: &EntryCall<K>, module: bool) -> RedisResult<Value> {
    let mut applied = Applied::default();
    let module = module && uses_module(conn, true)?;
    loop {
        let module = module && conn.module == Some(true);
        match as_result(send(conn, c, form(conn, c.entry, module))) {
            Err(e) => match fix_for(&e, module, c.entry.writes()) {
                Some(fix) if applied.first_time(fix) => apply(conn, fix, e)?,
                _ => return Err(e),
            },
            ok => return ok,
        }
    }
}

/// One decision (`Entry::Take`, `Peek`, `Compound`, `CompoundPeek` and the counted ones).
pub fn decide<K: AsRef<[u8]>>(conn: &mut Conn, c: &EntryCall<K>, module: bool) -> RedisResult<Ints> {
    call(conn, c, module).and_then(Ints::from_value)
}

/// `Entry::TakeMany` (or `TakeManyCounted`, its last key the counters'
/// base): one decision per key, in order, in one call; each answer stands
/// alone (a key holding a foreign value fails only its own). On a cluster,
/// where the keys of one call must share a slot, each key of an uncounted
/// call is its own `Take`, one after another.
pub fn decide_many<K: AsRef<[u8]>>(conn: &mut Conn, c: &EntryCall<K>, module: bool) -> RedisResult<Vec<RedisResult<Ints>>> {
    if conn.is_cluster() && c.entry == Entry::TakeMany {
        let one_each: Vec<[&[u8]; 1]> = c.keys.iter().map(|k| [k.as_ref()]).collect();
        return decide_each(conn, Entry::Take, &one_each, c.counting, c.args, c.extra, module);
    }
    let n = c.keys.len() - usize::from(c.entry.counted());
    call(conn, c, module).and_then(|v| Ints::many_from_value(v, n))
}

/// `Entry::HitMany` on a single server: a fixed window's cost-1 hit per key
/// (`counter::hit_many`), in order, in one call; per key (the count including
/// the hit, ms left in the window), each standing alone as in `decide_many`.
pub fn hit_many<K: AsRef<[u8]>>(conn: &mut Conn, keys: &[K], window_ms: i64, module: bool) -> RedisResult<Vec<RedisResult<(i64, i64)>>> {
    let c = EntryCall { entry: Entry::HitMany, keys, counting: &[], args: &[], extra: &[window_ms] };
    let records = call(conn, &c, module).and_then(|v| Ints::many_from_value(v, keys.len()))?;
    Ok(records.into_iter().map(|r| r.and_then(count_and_ttl)).collect())
}

/// One `entry` decision per call (each its own keys, the same arguments),
/// in order, pipelined in one round trip on a single server, one by one on a
/// cluster (a cluster sends a pipeline to the node of its first key). Each
/// reply stands alone. Calls refused before running (library missing) are
/// sent again once it is there.
pub fn decide_each<K: AsRef<[u8]>, L: AsRef<[K]>>(
    conn: &mut Conn,
    entry: Entry,
    calls: &[L],
    counting: &[Vec<u8>],
    args: &[Vec<u8>],
    extra: &[i64],
    module: bool,
) -> RedisResult<Vec<RedisResult<Ints>>> {
    if conn.is_cluster() {
        let mut out = Vec::with_capacity(calls.len());
        for keys in calls {
            match decide(conn, &EntryCall { entry, keys: keys.as_ref(), counting, args, extra }, module) {
                // The connection is lost: the whole batch fails, and the pool drops it.
                Err(e) if super::conn::is_broken(&e) => return Err(e),
                one => out.push(one),
            }
        }
        return Ok(out);
    }
    let mut out: Vec<RedisResult<Ints>> = Vec::with_capacity(calls.len());
    let mut applied = Applied::default();
    let allowed = module && uses_module(conn, true)?;
    while out.len() < calls.len() {
        let rest = &calls[out.len()..];
        let module = allowed && conn.module == Some(true);
        let form = form(conn, entry, module);
        let replies = COMMAND.with_borrow_mut(|buf| {
            buf.clear();
            for keys in rest {
                EntryCall { entry, keys: keys.as_ref(), counting, args, extra }.spell(form, buf);
            }
            conn.req_packed_commands(buf, 0, rest.len())
        })?;
        let mut fix = None;
        for reply in replies {
            match as_result(Ok(reply)) {
                Err(e) => match fix_for(&e, module, entry.writes()) {
                    // This call and every later one failed the same way without running.
                    Some(f) if applied.first_time(f) => {
                        fix = Some((f, e));
                        break;
                    }
                    _ => out.push(Err(e)),
                },
                Ok(v) => out.push(Ints::from_value(v)),
            }
        }
        if let Some((f, e)) = fix {
            // A fix that does not apply: the refusal is this call's answer,
            // and the later calls are sent again.
            if let Err(e) = apply(conn, f, e) {
                if super::conn::is_broken(&e) {
                    return Err(e);
                }
                out.push(Err(e));
            }
        }
    }
    Ok(out)
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
        assert_eq!(module_fix(b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n"), None);
        assert_eq!(module_fix(b"-OOM command not allowed when used memory > 'maxmemory'.\r\n"), None);
    }
}
