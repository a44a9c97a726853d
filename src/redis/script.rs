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
//! take the same arguments and reply the same bytes. The command is written
//! into a buffer reused across calls, with the policy's fixed arguments
//! already encoded: one write, one read.
//! A peek that finds no library on a read-only replica (its master has not
//! loaded it yet, or it only ever decides through the server module) does
//! not load it, since FUNCTION LOAD is a write a replica refuses: asked with
//! ROLE, a replica's connection sends its peeks as the script form with
//! EVALSHA_RO instead (SCRIPT LOAD, which a replica takes, on NOSCRIPT),
//! read-only as FCALL_RO is. A master loads the library, as for any call.
//! Replies are packed doubles (`lua/entries.lua`), decoded here into `Ints`.
//! The readers of replies are public for the fuzz target that feeds them
//! any reply (fuzz/fuzz_targets/resp_replies.rs).

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};

use ::redis::{ConnectionLike, ErrorKind, RedisError, RedisResult, ServerErrorKind, Value};

use super::conn::{as_result, Conn};
use super::resp;
use super::scripts::{Entry, LIBRARY};

/// Set once a server said it has no FCALL (Redis < 7): from then on
/// this process calls the script form. Process-wide rather than per server,
/// so a fleet mixing Redis 6 and 7 behind one process pays EVALSHA on both;
/// the answers are the same either way.
static SCRIPTS_ONLY: AtomicBool = AtomicBool::new(false);

/// One answer: at most 5 integers (see `limiter::Outcome::from_reply`
/// and `lua/entries.lua`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Ints {
    vals: [i64; 5],
    len: usize,
}

impl Ints {
    pub fn as_slice(&self) -> &[i64] {
        &self.vals[..self.len]
    }

    /// Little-endian doubles, each an integer below 2^53 (exact).
    fn from_doubles(bytes: &[u8]) -> Option<Ints> {
        if !bytes.len().is_multiple_of(8) || bytes.len() > 40 {
            return None;
        }
        let mut out = Ints { len: bytes.len() / 8, ..Ints::default() };
        for (slot, chunk) in out.vals.iter_mut().zip(bytes.chunks_exact(8)) {
            let x = f64::from_le_bytes(chunk.try_into().ok()?);
            if !x.is_finite() || x.fract() != 0.0 {
                return None;
            }
            *slot = x as i64;
        }
        Some(out)
    }

    /// An answer (take, peek, a compound's: up to 5 doubles) from its reply.
    pub fn from_value(v: Value) -> RedisResult<Ints> {
        let bytes = reply_bytes(v)?;
        Ints::from_doubles(&bytes).ok_or_else(|| unexpected(&Value::BulkString(bytes)))
    }

    /// The reply of `take_many` for `n` keys: per key 4 doubles
    /// {remaining, reset, retry, delay}, then the error texts of the keys
    /// whose record is {-1, text length, 0, 0}.
    pub fn many_from_value(v: Value, n: usize) -> RedisResult<Vec<RedisResult<Ints>>> {
        let bytes = reply_bytes(v)?;
        if bytes.len() < 32 * n {
            return Err(unexpected(&Value::BulkString(bytes)));
        }
        let (records, mut texts) = bytes.split_at(32 * n);
        let mut out = Vec::with_capacity(n);
        for record in records.chunks_exact(32) {
            let ints = Ints::from_doubles(record).ok_or_else(|| unexpected(&Value::BulkString(record.to_vec())))?;
            let answer = match *ints.as_slice() {
                [-1, len, 0, 0] => {
                    let len = usize::try_from(len).ok().filter(|&l| l <= texts.len()).ok_or_else(|| unexpected(&Value::BulkString(bytes.clone())))?;
                    let (text, rest) = texts.split_at(len);
                    texts = rest;
                    Err(error_reply(text))
                }
                [remaining, reset, 0, 0] => Ok(Ints { vals: [remaining, reset, 0, 0, 0], len: 2 }),
                [remaining, reset, 0, delay] => Ok(Ints { vals: [remaining, reset, 0, delay, 0], len: 4 }),
                [remaining, reset, retry, _] => Ok(Ints { vals: [remaining, reset, retry, 0, 0], len: 3 }),
                _ => unreachable!("four doubles make four integers"),
            };
            out.push(answer);
        }
        Ok(out)
    }
}

/// The bulk string every entry of the library replies with, or the error reply.
fn reply_bytes(v: Value) -> RedisResult<Vec<u8>> {
    match v {
        Value::BulkString(bytes) => Ok(bytes),
        Value::ServerError(e) => Err(e.into()),
        other => Err(unexpected(&other)),
    }
}

/// An error reply Redis would have sent for `text` ("ERR …"), as redis-rs reads one.
fn error_reply(text: &[u8]) -> RedisError {
    let mut wire = Vec::with_capacity(text.len() + 3);
    wire.push(b'-');
    wire.extend(text.iter().map(|&b| if b == b'\r' || b == b'\n' { b' ' } else { b }));
    wire.extend_from_slice(b"\r\n");
    match ::redis::parse_redis_value(&wire) {
        Ok(Value::ServerError(e)) => e.into(),
        _ => RedisError::from((ErrorKind::Server(ServerErrorKind::ResponseError), "script error", String::from_utf8_lossy(text).into_owned())),
    }
}

fn unexpected(v: &Value) -> RedisError {
    RedisError::from((ErrorKind::Parse, "unexpected script reply", format!("{v:?}")))
}

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

/// `has_module`'s reading of every master's `COMMAND INFO` reply.
pub fn module_in(replies: Vec<Value>) -> RedisResult<bool> {
    let mut any = false;
    for reply in replies {
        match reply {
            Value::Array(entries) => {
                if entries.iter().any(|e| matches!(e, Value::Nil)) {
                    return Ok(false);
                }
                any |= !entries.is_empty();
            }
            Value::Nil => return Ok(false),
            other => return Err(unexpected(&other)),
        }
    }
    Ok(any)
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

/// `has_functions`'s reading of the reply.
pub fn functions_in(reply: Value) -> RedisResult<bool> {
    match reply {
        Value::Array(entries) => Ok(entries.first().is_some_and(|e| !matches!(e, Value::Nil))),
        other => Err(unexpected(&other)),
    }
}

/// Is the server a master? (ROLE: "master", or "slave" for a replica.) A
/// cluster connection's calls all go to masters.
fn is_master(conn: &mut Conn) -> RedisResult<bool> {
    match ::redis::cmd("ROLE").query::<Value>(conn)? {
        Value::Array(parts) => Ok(matches!(parts.first(), Some(Value::BulkString(role)) if role == b"master")),
        other => Err(unexpected(&other)),
    }
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

/// `FCALL <prefix><entry> <n> <keys…> <args> <extra…>`, in the script form
/// `EVALSHA <sha> <n> <keys…> <entry> <args> <extra…>`, with `module` the
/// module's `RATELIMIT.<ENTRY> <n> <keys…> <args> <extra…>`. `args` holds
/// `arg_count` arguments already in RESP (`resp::encode_all`), `extra` the
/// per-call integers (cost, and a test's clock). `peek_by_script`: a peek in
/// the script form with EVALSHA_RO (`Fix::PeekWithoutLibrary` on a replica).
#[allow(clippy::too_many_arguments)]
fn encode<K: AsRef<[u8]>>(
    buf: &mut Vec<u8>,
    entry: Entry,
    keys: &[K],
    args: &[u8],
    arg_count: usize,
    extra: &[i64],
    module: bool,
    peek_by_script: bool,
) {
    if module {
        resp::array(buf, 2 + keys.len() + arg_count + extra.len());
        resp::bulk(buf, entry.name().as_bytes());
        resp::bulk_int(buf, keys.len() as i64);
        for key in keys {
            resp::bulk(buf, key.as_ref());
        }
        buf.extend_from_slice(args);
        for &n in extra {
            resp::bulk_int(buf, n);
        }
        return;
    }
    let read_only_script = peek_by_script && !entry.writes();
    let scripts = read_only_script || SCRIPTS_ONLY.load(Ordering::Relaxed);
    resp::array(buf, 3 + keys.len() + scripts as usize + arg_count + extra.len());
    let name = entry.entry().as_bytes();
    if scripts {
        // Redis 6 has no EVALSHA_RO; a peek that found no library is on a Redis 7+ or Valkey.
        resp::bulk(buf, if read_only_script && !SCRIPTS_ONLY.load(Ordering::Relaxed) { b"EVALSHA_RO".as_slice() } else { b"EVALSHA".as_slice() });
        resp::bulk(buf, LIBRARY.script_sha.as_bytes());
    } else {
        // A peek's function is flagged no-writes: FCALL_RO runs it on a read-only replica too.
        resp::bulk(buf, if entry.writes() { b"FCALL".as_slice() } else { b"FCALL_RO".as_slice() });
        resp::bulk_parts(buf, &[LIBRARY.function_prefix.as_bytes(), name]);
    }
    resp::bulk_int(buf, keys.len() as i64);
    for key in keys {
        resp::bulk(buf, key.as_ref());
    }
    if scripts {
        resp::bulk(buf, name);
    }
    buf.extend_from_slice(args);
    for &n in extra {
        resp::bulk_int(buf, n);
    }
}

/// One call of `entry` over `keys`; the raw reply. `module`: the module's
/// command may decide (`uses_module`).
fn call<K: AsRef<[u8]>>(conn: &mut Conn, entry: Entry, keys: &[K], args: &[u8], arg_count: usize, extra: &[i64], module: bool) -> RedisResult<Value> {
    let mut applied = Applied::default();
    let module = module && uses_module(conn, true)?;
    COMMAND.with_borrow_mut(|buf| loop {
        buf.clear();
        let module = module && conn.module == Some(true);
        encode(buf, entry, keys, args, arg_count, extra, module, conn.peeks_by_script);
        let sent = match keys.first() {
            Some(key) if module => conn.req_packed_for_key(buf, key.as_ref()),
            _ => conn.req_packed_command(buf),
        };
        match as_result(sent) {
            Err(e) => match fix_for(&e, module, entry.writes()) {
                Some(fix) if applied.first_time(fix) => apply(conn, fix, e)?,
                _ => return Err(e),
            },
            ok => return ok,
        }
    })
}

/// One decision (`Entry::Take`, `Peek`, `Compound`, `CompoundPeek`) over `keys`.
pub fn decide<K: AsRef<[u8]>>(
    conn: &mut Conn,
    entry: Entry,
    keys: &[K],
    args: &[u8],
    arg_count: usize,
    extra: &[i64],
    module: bool,
) -> RedisResult<Ints> {
    call(conn, entry, keys, args, arg_count, extra, module).and_then(Ints::from_value)
}

/// `Entry::TakeMany`: one decision per key, in order, in one call; each
/// answer stands alone (a key holding a foreign value fails only its own).
/// On a cluster, where the keys of one call must share a slot, each key is
/// its own `Take`, one after another.
pub fn decide_many<K: AsRef<[u8]>>(
    conn: &mut Conn,
    keys: &[K],
    args: &[u8],
    arg_count: usize,
    extra: &[i64],
    module: bool,
) -> RedisResult<Vec<RedisResult<Ints>>> {
    if conn.is_cluster() {
        let one_each: Vec<[&[u8]; 1]> = keys.iter().map(|k| [k.as_ref()]).collect();
        return decide_each(conn, Entry::Take, &one_each, args, arg_count, extra, module);
    }
    call(conn, Entry::TakeMany, keys, args, arg_count, extra, module).and_then(|v| Ints::many_from_value(v, keys.len()))
}

/// `Entry::TakeManyCounted` on a single server: `decide_many`, the decisions
/// counted in the same call under `base` (`ratelimit.metrics = redis`,
/// `lua/metrics.lua`); `args` start with the three counting arguments.
pub fn decide_many_counted<K: AsRef<[u8]>>(
    conn: &mut Conn,
    keys: &[K],
    base: &[u8],
    args: &[u8],
    arg_count: usize,
    extra: &[i64],
    module: bool,
) -> RedisResult<Vec<RedisResult<Ints>>> {
    let mut all: Vec<&[u8]> = keys.iter().map(AsRef::as_ref).collect();
    all.push(base);
    call(conn, Entry::TakeManyCounted, &all, args, arg_count, extra, module).and_then(|v| Ints::many_from_value(v, keys.len()))
}

/// `Entry::HitMany` on a single server: a fixed window's cost-1 hit per key
/// (`counter::hit_many`), in order, in one call; per key (the count including
/// the hit, ms left in the window), each standing alone as in `decide_many`.
pub fn hit_many<K: AsRef<[u8]>>(conn: &mut Conn, keys: &[K], window_ms: i64, module: bool) -> RedisResult<Vec<RedisResult<(i64, i64)>>> {
    let records = call(conn, Entry::HitMany, keys, &[], 0, &[window_ms], module).and_then(|v| Ints::many_from_value(v, keys.len()))?;
    Ok(records.into_iter().map(|r| r.and_then(count_and_ttl)).collect())
}

/// A `hit_many` record, {ms left, count, 0, 0}, read as `take_many`'s are.
pub fn count_and_ttl(ints: Ints) -> RedisResult<(i64, i64)> {
    match *ints.as_slice() {
        [ttl, count] => Ok((count, ttl)),
        _ => Err(unexpected(&Value::Int(ints.as_slice().len() as i64))),
    }
}

/// One `entry` decision per call (each its own keys), in order, pipelined in
/// one round trip on a single server, one by one on a cluster (a cluster sends
/// a pipeline to the node of its first key). Each reply stands alone. Calls
/// refused before running (library missing) are sent again once it is there.
pub fn decide_each<K: AsRef<[u8]>, L: AsRef<[K]>>(
    conn: &mut Conn,
    entry: Entry,
    calls: &[L],
    args: &[u8],
    arg_count: usize,
    extra: &[i64],
    module: bool,
) -> RedisResult<Vec<RedisResult<Ints>>> {
    if conn.is_cluster() {
        let mut out = Vec::with_capacity(calls.len());
        for call in calls {
            match decide(conn, entry, call.as_ref(), args, arg_count, extra, module) {
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
        let replies = COMMAND.with_borrow_mut(|buf| {
            buf.clear();
            for call in rest {
                encode(buf, entry, call.as_ref(), args, arg_count, extra, module, conn.peeks_by_script);
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

    fn doubles(xs: &[f64]) -> Vec<u8> {
        xs.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    #[test]
    fn answers_are_packed_doubles() {
        let ints = Ints::from_value(Value::BulkString(doubles(&[3.0, 1_000_000.0, 9_007_199_254_740_991.0]))).unwrap();
        assert_eq!(ints.as_slice(), &[3, 1_000_000, 9_007_199_254_740_991]);
        assert!(Ints::from_value(Value::BulkString(doubles(&[0.5]))).is_err());
        assert!(Ints::from_value(Value::BulkString(vec![0; 7])).is_err());
        assert!(Ints::from_value(Value::BulkString(doubles(&[1.0; 6]))).is_err());
        assert!(Ints::from_value(Value::Int(1)).is_err());
    }

    #[test]
    fn many_answers_are_records_then_error_texts() {
        let mut reply = doubles(&[4.0, 10.0, 0.0, 0.0, -1.0, 13.0, 0.0, 0.0, 0.0, 10.0, 7.0, 0.0, 2.0, 5.0, 0.0, 9.0]);
        reply.extend_from_slice(b"ERR ratelimit");
        let out = Ints::many_from_value(Value::BulkString(reply), 4).unwrap();
        assert_eq!(out[0].as_ref().unwrap().as_slice(), &[4, 10]);
        assert!(out[1].as_ref().unwrap_err().to_string().contains("ratelimit"));
        assert_eq!(out[2].as_ref().unwrap().as_slice(), &[0, 10, 7]);
        assert_eq!(out[3].as_ref().unwrap().as_slice(), &[2, 5, 0, 9]);
        assert!(Ints::many_from_value(Value::BulkString(doubles(&[1.0; 4])), 2).is_err());
    }

    #[test]
    fn hits_are_records_with_the_time_left_first() {
        let mut reply = doubles(&[60_000.0, 1.0, 0.0, 0.0, -1.0, 9.0, 0.0, 0.0, 59_000.0, -1.0, 0.0, 0.0]);
        reply.extend_from_slice(b"WRONGTYPE");
        let out: Vec<_> = Ints::many_from_value(Value::BulkString(reply), 3).unwrap().into_iter().map(|r| r.and_then(count_and_ttl)).collect();
        assert_eq!(*out[0].as_ref().unwrap(), (1, 60_000));
        assert!(out[1].as_ref().unwrap_err().to_string().contains("WRONGTYPE"));
        assert_eq!(*out[2].as_ref().unwrap(), (-1, 59_000), "a foreign counter may count -1: not an error record");
    }

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
