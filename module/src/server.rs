//! The server's keyspace as the core reads and writes it. Reads and writes
//! go through the module key API (`keys.rs`), with the semantics of the
//! commands the Lua library calls (types, WRONGTYPE, expiries, keyspace
//! events); the few reads a server may lack the API for (Redis 6.0) are made
//! with those commands through RedisModule_Call. Each write is replicated
//! (RedisModule_Replicate) as the plain command that leaves the same state,
//! with its expiry as an instant where the server has one (Redis >= 6.2,
//! Valkey): replicas and the AOF get effects, never the module command
//! itself, which a replica or an AOF replay would run on another clock.

use std::cell::RefCell;
use std::ffi::CStr;

use ratelimit_core::keyspace::Keyspace;
use ratelimit_core::numbers::{int_text, lua_tonumber, redis_int};
use ratelimit_core::view::{Read, Refused, View};
use ratelimit_core::Effect;
use redis_module::raw::{REDISMODULE_NOTIFY_GENERIC, REDISMODULE_NOTIFY_HASH, REDISMODULE_NOTIFY_STRING, REDISMODULE_NOTIFY_ZSET};
use redis_module::{CallOptions, CallOptionsBuilder, CallReply, CallResult, Context, RedisString};

use crate::keys::{self, Decimal, Key, Kind};

/// One command's reply as the core reads it (the RedisModule_Call fallbacks).
enum Reply {
    Nil,
    Int(i64),
    Bytes(Vec<u8>),
    List(Vec<Reply>),
}

impl Reply {
    fn from_call(r: CallResult<'_>) -> Read<Reply> {
        match r {
            Err(e) => Err(Refused(e.to_utf8_string().unwrap_or_else(|| "ERR ratelimit: a command failed".into()))),
            Ok(CallReply::I64(n)) => Ok(Reply::Int(n.to_i64())),
            Ok(CallReply::String(s)) => Ok(Reply::Bytes(s.as_bytes().to_vec())),
            Ok(CallReply::Null(_)) => Ok(Reply::Nil),
            Ok(CallReply::Array(a)) => a.iter().map(Reply::from_call).collect::<Read<Vec<_>>>().map(Reply::List),
            Ok(other) => Err(Refused(format!("ERR ratelimit: an unexpected reply {other:?}"))),
        }
    }

    fn bytes(self) -> Read<Option<Vec<u8>>> {
        match self {
            Reply::Nil => Ok(None),
            Reply::Bytes(b) => Ok(Some(b)),
            _ => Err(Refused("ERR ratelimit: a string reply was expected".into())),
        }
    }

    fn list(self) -> Read<Vec<Reply>> {
        match self {
            Reply::List(l) => Ok(l),
            Reply::Nil => Ok(Vec::new()),
            _ => Err(Refused("ERR ratelimit: an array reply was expected".into())),
        }
    }
}

pub struct Server<'a> {
    ctx: &'a Context,
    /// The command's arguments: a key opened is the argument string itself.
    args: &'a [RedisString],
    /// Whether the command writes: its keys are opened for writing from the
    /// first read, so a decision opens each key once.
    writes: bool,
    /// The key opened last, kept open while the decision reads and writes it.
    open: RefCell<Option<Key<'a>>>,
}

impl<'a> Server<'a> {
    pub fn new(ctx: &'a Context, args: &'a [RedisString], writes: bool) -> Self {
        Server { ctx, args, writes, open: RefCell::new(None) }
    }

    /// Runs `f` on the key `name`, opened once for the decision (again only
    /// when another key was opened in between, or a write needs a key that
    /// was opened for reading).
    fn with_key<T>(&self, name: &[u8], write: bool, f: impl FnOnce(&Key<'a>) -> T) -> T {
        let mut open = self.open.borrow_mut();
        let reuse = matches!(&*open, Some(k) if k.name().as_slice() == name && (k.writable() || !write));
        if !reuse {
            *open = None; // closed before the next is opened
                          // The keys a decision opens are slices of its arguments.
            let given = self.args.iter().find(|a| a.as_slice().as_ptr() == name.as_ptr() && a.as_slice().len() == name.len());
            *open = Some(Key::open(self.ctx, name, given, write || self.writes));
        }
        f(open.as_ref().expect("just opened"))
    }

    /// A read through RedisModule_Call (the fallbacks). No "E" flag (errors
    /// as replies): Redis 6 refuses flags it does not know, and an error
    /// reply comes back as one without it anyway.
    fn call(&self, command: &str, args: &[&[u8]]) -> Read<Reply> {
        let options: CallOptions = CallOptionsBuilder::new().build();
        Reply::from_call(self.ctx.call_ext::<_, CallResult>(command, &options, args))
    }
}

/// One key, read as lua/algorithms/*.lua read it.
struct KeyView<'s, 'a> {
    server: &'s Server<'a>,
    key: &'s [u8],
}

impl<'a> KeyView<'_, 'a> {
    /// `f` of the key when it holds `kind`, `missing` when it does not
    /// exist; WRONGTYPE when it holds another type.
    fn read<T>(&self, kind: Kind, missing: T, f: impl FnOnce(&Key<'a>) -> T) -> Read<T> {
        self.server.with_key(self.key, false, |key| match key.kind() {
            Kind::Missing => Ok(missing),
            k if k == kind => Ok(f(key)),
            _ => Err(Refused::wrong_type()),
        })
    }

    /// PEXPIRETIME where the server has it (Redis >= 7, Valkey); else the
    /// server's clock plus PTTL, read between two TIMEs of the same
    /// millisecond, as lua/algorithms/fixed_window.lua does.
    fn expiry_at_ms_by_commands(&self) -> i64 {
        if let Ok(Reply::Int(at)) = self.server.call("PEXPIRETIME", &[self.key]) {
            return at;
        }
        let ms = |r: Read<Reply>| -> Option<i64> {
            let parts = r.ok()?.list().ok()?;
            let mut it = parts.into_iter().map(|p| p.bytes().ok().flatten().and_then(|b| lua_tonumber(&b)));
            Some((it.next()?? * 1000.0 + (it.next()?? / 1000.0).floor()) as i64)
        };
        loop {
            let before = ms(self.server.call("TIME", &[]));
            let left = self.pttl_ms();
            let after = ms(self.server.call("TIME", &[]));
            if left < 0 {
                return left;
            }
            match (before, after) {
                (Some(b), Some(a)) if a == b => return b + left,
                (Some(_), Some(_)) => continue,
                _ => return -2,
            }
        }
    }
}

impl View for KeyView<'_, '_> {
    fn get(&self) -> Read<Option<Vec<u8>>> {
        self.read(Kind::String, None, |k| Some(k.bytes()))
    }

    fn pttl_ms(&self) -> i64 {
        self.server.with_key(self.key, false, |k| if k.kind() == Kind::Missing { -2 } else { k.ttl_ms() })
    }

    fn expiry_at_ms(&self) -> i64 {
        let at = self.server.with_key(self.key, false, |k| if k.kind() == Kind::Missing { Some(-2) } else { k.expiry_at_ms() });
        at.unwrap_or_else(|| self.expiry_at_ms_by_commands())
    }

    fn hgetall(&self) -> Read<Vec<(Vec<u8>, Vec<u8>)>> {
        if !keys::has_scan_key() {
            let flat = self.server.call("HGETALL", &[self.key])?.list()?;
            let mut fields = Vec::with_capacity(flat.len() / 2);
            let mut it = flat.into_iter();
            while let (Some(f), Some(v)) = (it.next(), it.next()) {
                fields.push((f.bytes()?.unwrap_or_default(), v.bytes()?.unwrap_or_default()));
            }
            return Ok(fields);
        }
        self.read(Kind::Hash, Vec::new(), Key::hash_pairs)
    }

    /// HGET, through the key API where the server has the rest of it (as `hgetall`).
    fn hget(&self, field: &[u8]) -> Read<Option<Vec<u8>>> {
        if !keys::has_scan_key() {
            return Ok(self.hgetall()?.into_iter().find(|(f, _)| f == field).map(|(_, v)| v));
        }
        self.read(Kind::Hash, None, |k| k.hash_get(field))
    }

    /// ZCOUNT (edge +inf, as the set's size less the members at or below
    /// `edge`: those are the few that left the window since the last write,
    /// where a walk above `edge` would step over every counted member.
    fn zcount_above(&self, edge: f64) -> Read<i64> {
        self.read(Kind::Zset, 0, |k| (k.len() - k.zcount(f64::NEG_INFINITY, edge)) as i64)
    }

    fn zmax_score(&self) -> Read<Option<f64>> {
        self.read(Kind::Zset, None, Key::zmax_score)
    }

    fn znth_score_above(&self, edge: f64, offset: i64) -> Read<Option<f64>> {
        self.read(Kind::Zset, None, |k| k.znth_score_above(edge, offset.max(0) as usize))
    }

    fn zscore(&self, member: &[u8]) -> Read<Option<f64>> {
        self.read(Kind::Zset, None, |k| k.zscore(member))
    }
}

/// The keyspace events the commands would fire.
const SET: &CStr = c"set";
const EXPIRE: &CStr = c"expire";
const INCRBY: &CStr = c"incrby";
const HINCRBY: &CStr = c"hincrby";
const HDEL: &CStr = c"hdel";
const ZADD: &CStr = c"zadd";
const ZINCR: &CStr = c"zincr";
const ZREMRANGEBYSCORE: &CStr = c"zremrangebyscore";
const ZREMRANGEBYRANK: &CStr = c"zremrangebyrank";
const DEL: &CStr = c"del";

impl Server<'_> {
    /// Sets or moves the key's expiry and replicates it as an instant
    /// (PEXPIREAT) where the server can tell the instant, else as given.
    fn expire(&self, key: &Key, ms: i64) -> Result<(), Refused> {
        if ms <= 0 {
            return Err(Refused("ERR ratelimit: an expiry must be in the future".into()));
        }
        let at = key.expire_in_ms(ms);
        key.notify(REDISMODULE_NOTIFY_GENERIC, EXPIRE);
        match at {
            Some(at) => key.replicate_int(c"PEXPIREAT", at),
            None => key.replicate_int(c"PEXPIRE", ms),
        }
        Ok(())
    }

    fn apply_one(&self, key: &Key, effect: &Effect) -> Result<(), Refused> {
        let fail = || Refused("ERR ratelimit: the server refused a write".into());
        match effect {
            Effect::SetPx(value, ms) => {
                // A bucket's state keeps its length (16 bytes): rewritten in
                // place, it skips a new value object and the keyspace's
                // replace; the expiry is set next either way, as SET PX sets it.
                let in_place = key.kind() == Kind::String && key.len_string() == value.len() && key.overwrite_string(value);
                if !in_place {
                    key.set_string(value).then_some(()).ok_or_else(fail)?;
                }
                key.notify(REDISMODULE_NOTIFY_STRING, SET);
                let at = key.expire_in_ms(*ms);
                key.notify(REDISMODULE_NOTIFY_GENERIC, EXPIRE);
                match at {
                    Some(at) => key.replicate_set(value, &keys::PXAT, at),
                    None => key.replicate_set(value, &keys::PX, *ms),
                }
            }
            Effect::Set(value) => {
                key.set_string(value).then_some(()).ok_or_else(fail)?;
                key.notify(REDISMODULE_NOTIFY_STRING, SET);
                key.replicate(c"SET", &[value]);
            }
            Effect::IncrBy(n) => {
                let now = if key.kind() == Kind::Missing { Some(0) } else { redis_int(&key.bytes()) };
                let sum = now.and_then(|v| v.checked_add(*n)).ok_or_else(Refused::not_an_integer)?;
                let text = Decimal::new(sum);
                let written = if key.kind() == Kind::Missing { key.set_string(text.as_bytes()) } else { key.overwrite_string(text.as_bytes()) };
                written.then_some(()).ok_or_else(fail)?;
                key.notify(REDISMODULE_NOTIFY_STRING, INCRBY);
                key.replicate_int(c"INCRBY", *n);
            }
            Effect::PExpire(ms) => self.expire(key, *ms)?,
            Effect::PExpireAt(at) => {
                key.set_expiry_at_ms(*at);
                key.notify(REDISMODULE_NOTIFY_GENERIC, EXPIRE);
                key.replicate_int(c"PEXPIREAT", *at);
            }
            Effect::HIncrBy(field, n) => {
                let now = match key.hash_get(field) {
                    None => Some(0),
                    Some(v) => redis_int(&v),
                };
                let sum = now.and_then(|v| v.checked_add(*n)).ok_or_else(Refused::hash_not_an_integer)?;
                key.hash_set(field, Decimal::new(sum).as_bytes());
                key.notify(REDISMODULE_NOTIFY_HASH, HINCRBY);
                key.replicate_bytes_int(c"HINCRBY", field, *n);
            }
            Effect::HDel(fields) => {
                if key.hash_delete(fields) {
                    key.notify(REDISMODULE_NOTIFY_HASH, HDEL);
                    let args: Vec<&[u8]> = fields.iter().map(Vec::as_slice).collect();
                    key.replicate(c"HDEL", &args);
                    // HDEL of the last fields (a refund's) deletes the key, and says so.
                    if key.kind() == Kind::Missing {
                        key.notify(REDISMODULE_NOTIFY_GENERIC, DEL);
                    }
                }
            }
            // Scores go out as `int_text` writes them: the integer part.
            Effect::ZAdd(members) if members.len() == 1 => {
                let (score, member) = &members[0];
                key.zadd(*score, member).then_some(()).ok_or_else(fail)?;
                key.notify(REDISMODULE_NOTIFY_ZSET, ZADD);
                key.replicate_int_bytes(c"ZADD", *score as i64, member);
            }
            Effect::ZAdd(members) => {
                let scores: Vec<Vec<u8>> = members.iter().map(|(score, _)| int_text(*score)).collect();
                let mut args: Vec<&[u8]> = Vec::with_capacity(members.len() * 2);
                for ((score, member), text) in members.iter().zip(&scores) {
                    key.zadd(*score, member).then_some(()).ok_or_else(fail)?;
                    args.push(text);
                    args.push(member);
                }
                key.notify(REDISMODULE_NOTIFY_ZSET, ZADD);
                key.replicate(c"ZADD", &args);
            }
            Effect::ZIncrBy(by, member) => {
                key.zincrby(*by, member).then_some(()).ok_or_else(fail)?;
                key.notify(REDISMODULE_NOTIFY_ZSET, ZINCR);
                key.replicate_int_bytes(c"ZINCRBY", *by as i64, member);
            }
            Effect::ZRemRangeByScore(min, max) => {
                let gone = key.zmembers(*min, *max);
                if !gone.is_empty() {
                    gone.iter().for_each(|m| key.zrem(m));
                    key.notify(REDISMODULE_NOTIFY_ZSET, ZREMRANGEBYSCORE);
                    key.replicate_int_int(c"ZREMRANGEBYSCORE", *min as i64, *max as i64);
                }
            }
            Effect::Del => {
                if key.kind() != Kind::Missing {
                    key.delete().then_some(()).ok_or_else(fail)?;
                    key.notify(REDISMODULE_NOTIFY_GENERIC, DEL);
                    key.replicate(c"DEL", &[]);
                }
            }
            // Replicated as the members it removed: ZREM names them exactly.
            Effect::ZRemTop(n) => {
                let gone = key.ztop_members((*n).max(0) as usize);
                if !gone.is_empty() {
                    gone.iter().for_each(|m| key.zrem(m));
                    key.notify(REDISMODULE_NOTIFY_ZSET, ZREMRANGEBYRANK);
                    let args: Vec<&[u8]> = gone.iter().map(Vec::as_slice).collect();
                    key.replicate(c"ZREM", &args);
                    if key.kind() == Kind::Missing {
                        key.notify(REDISMODULE_NOTIFY_GENERIC, DEL);
                    }
                }
            }
        }
        Ok(())
    }
}

impl Keyspace for Server<'_> {
    fn view<'v>(&'v self, key: &'v [u8]) -> Box<dyn View + 'v> {
        Box::new(KeyView { server: self, key })
    }

    fn apply(&mut self, name: &[u8], effects: &[Effect]) -> Result<(), Refused> {
        if effects.is_empty() {
            return Ok(());
        }
        self.with_key(name, true, |key| effects.iter().try_for_each(|effect| self.apply_one(key, effect)))
    }

    /// The server's own wall clock: this code runs in its process, and TIME reads the same.
    fn now_us(&self) -> f64 {
        ratelimit_core::store::wall_clock_us() as f64
    }
}
