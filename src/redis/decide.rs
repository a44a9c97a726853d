//! Calls an entry point: the server module's command where the server has the
//! module (`module/`, asked once per connection with `COMMAND INFO`, on a
//! cluster of the master of the first call's key, and only
//! when the call allows it: `ratelimit.server_module = auto`), else the Lua
//! library (`entry::library`): FCALL (FCALL_RO for the peeks, so they answer on
//! read-only replicas), or EVALSHA of the script form on a Redis without
//! functions (< 7, or FCALL renamed away). Both take the same arguments and
//! reply the same bytes. A call refused before it ran for want of something
//! (the library after a restart or `FUNCTION FLUSH`, a new cluster node, the
//! module unloaded) gets it and is sent again in the same call (`fallback`).
//! A call is spelled (`entry::call`) into a buffer reused across calls: one
//! write, one read; on a cluster, into the command redis-rs sends to the
//! key's master. Replies are packed doubles (`lua/entries.lua`), decoded by `reply`.

use std::cell::RefCell;
use std::sync::atomic::Ordering;

use ::redis::{Cmd, ConnectionLike, RedisResult, Value};

use crate::entry::call::{EntryCall, Form, PolicyArgs};
use crate::entry::library::Entry;
use crate::entry::reply::as_result;
use crate::entry::reply::{module_commands_in, Ints};
use crate::redis::conn::Conn;
use crate::redis::fallback::{apply, fix_for, Applied, SCRIPTS_ONLY};

/// Does the server have the module's commands in the argument layout this
/// extension sends? `COMMAND INFO` answers nil for a command a server does
/// not have. Asked of `RATELIMIT.BLOCK`: it came with the lock-out layout (a
/// block key after each key, a lockout before each algorithm), so a module
/// older than that layout, which would refuse every call, is not used: its
/// server gets the Lua library. On a cluster, the master of `key` (the
/// call's) is asked, not every master: one master that cannot answer must
/// not fail the calls to the others (a connection opened while a master is
/// stalled would otherwise fail every call until it is back).
fn has_module(conn: &mut Conn, key: Option<&[u8]>) -> RedisResult<bool> {
    let ask = ::redis::cmd("COMMAND").arg("INFO").arg("RATELIMIT.BLOCK").clone();
    match key {
        Some(key) if conn.is_cluster() => module_commands_in(vec![conn.req_command_for_key(&ask, key)?]),
        _ => module_commands_in(conn.on_every_master(&ask)?),
    }
}

/// Whether calls on `conn` go to the module's commands: only when `allowed`
/// (`ratelimit.server_module = auto`) and the server has them (on a cluster,
/// the master of the first call's `key`), asked once per connection. A
/// master that lacks them (another master of a cluster, a failover to a
/// replica without the module) refuses the command as unknown before running
/// it, and the connection goes back to Lua in that call (`fix_for`).
pub fn uses_module(conn: &mut Conn, allowed: bool, key: Option<&[u8]>) -> RedisResult<bool> {
    if !allowed {
        return Ok(false);
    }
    if conn.module().is_none() {
        let has = has_module(conn, key)?;
        conn.set_module(has);
    }
    Ok(conn.module() == Some(true))
}

/// Which path the calls of a connection take that knows this of its
/// server's module (`Conn::module`), for `php --ri`.
pub fn path(module: Option<bool>) -> &'static str {
    match module {
        Some(true) => "server module",
        _ if SCRIPTS_ONLY.load(Ordering::Relaxed) => "Lua script (EVALSHA)",
        _ => "Lua functions (FCALL)",
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
    let read_only_script = conn.peeks_by_script() && !entry.writes();
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
    let module = module && uses_module(conn, true, c.keys.first().map(AsRef::as_ref))?;
    loop {
        let module = module && conn.module() == Some(true);
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
    // The decided keys, then their block keys (then the counters' base).
    let n = (c.keys.len() - usize::from(c.entry.counted())) / 2;
    if conn.is_cluster() && c.entry == Entry::TakeMany {
        let one_each: Vec<[&[u8]; 2]> = (0..n).map(|i| [c.keys[i].as_ref(), c.keys[n + i].as_ref()]).collect();
        return decide_each(conn, Entry::Take, &one_each, c.counting, c.args, c.per_call, module);
    }
    call(conn, c, module).and_then(|v| Ints::many_from_value(v, n))
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
    args: &PolicyArgs,
    per_call: &[i64],
    module: bool,
) -> RedisResult<Vec<RedisResult<Ints>>> {
    if conn.is_cluster() {
        let mut out = Vec::with_capacity(calls.len());
        for keys in calls {
            match decide(conn, &EntryCall { entry, keys: keys.as_ref(), counting, args, per_call }, module) {
                // The connection is lost: the whole batch fails, and the pool drops it.
                Err(e) if crate::redis::rules::retry::is_broken(&e) => return Err(e),
                one => out.push(one),
            }
        }
        return Ok(out);
    }
    let mut out: Vec<RedisResult<Ints>> = Vec::with_capacity(calls.len());
    let mut applied = Applied::default();
    // A single server's pipeline (a cluster's calls went one by one above).
    let allowed = module && uses_module(conn, true, None)?;
    while out.len() < calls.len() {
        let rest = &calls[out.len()..];
        let module = allowed && conn.module() == Some(true);
        let form = form(conn, entry, module);
        let replies = COMMAND.with_borrow_mut(|buf| {
            buf.clear();
            for keys in rest {
                EntryCall { entry, keys: keys.as_ref(), counting, args, per_call }.spell(form, buf);
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
                if crate::redis::rules::retry::is_broken(&e) {
                    return Err(e);
                }
                out.push(Err(e));
            }
        }
    }
    Ok(out)
}
