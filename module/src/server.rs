//! The server's keyspace as the core reads and writes it: every read and
//! write is the command the Lua library would call, through RedisModule_Call,
//! so Redis and Valkey apply their own semantics (types, expiries, keyspace
//! events). Writes carry the `!` flag: the written state goes to replicas and
//! the AOF as those commands (Redis turns relative expiries into instants
//! there since 7.0), never the module command itself, which a replica or an
//! AOF replay would run on another clock.

use ratelimit_core::entries::Keyspace;
use ratelimit_core::numbers::{int_text, lua_tonumber};
use ratelimit_core::view::{Read, Refused, View};
use ratelimit_core::Effect;
use redis_module::{CallOptions, CallOptionsBuilder, CallReply, CallResult, Context};

/// One command's reply as the core reads it.
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

    fn int(self) -> Read<i64> {
        match self {
            Reply::Int(n) => Ok(n),
            _ => Err(Refused("ERR ratelimit: an integer reply was expected".into())),
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

    fn number(self) -> Read<Option<f64>> {
        Ok(self.bytes()?.and_then(|b| lua_tonumber(&b)))
    }
}

pub struct Server<'a> {
    ctx: &'a Context,
    read: CallOptions,
    write: CallOptions,
}

impl<'a> Server<'a> {
    pub fn new(ctx: &'a Context) -> Self {
        // No "E" flag (errors as replies): Redis 6 refuses flags it does not
        // know, and an error reply comes back as one without it anyway.
        Server { ctx, read: CallOptionsBuilder::new().build(), write: CallOptionsBuilder::new().replicate().build() }
    }

    fn call(&self, options: &CallOptions, command: &str, args: &[&[u8]]) -> Read<Reply> {
        Reply::from_call(self.ctx.call_ext::<_, CallResult>(command, options, args))
    }
}

/// One key, read with the commands lua/algorithms/*.lua read it with.
struct KeyView<'s, 'a> {
    server: &'s Server<'a>,
    key: &'s [u8],
}

impl KeyView<'_, '_> {
    fn read(&self, command: &str, rest: &[&[u8]]) -> Read<Reply> {
        let mut args = Vec::with_capacity(rest.len() + 1);
        args.push(self.key);
        args.extend_from_slice(rest);
        self.server.call(&self.server.read, command, &args)
    }
}

/// "(edge": a score bound that excludes `edge`.
fn above(edge: f64) -> Vec<u8> {
    [b"(".as_slice(), &int_text(edge)].concat()
}

impl View for KeyView<'_, '_> {
    fn get(&self) -> Read<Option<Vec<u8>>> {
        self.read("GET", &[])?.bytes()
    }

    fn pttl_ms(&self) -> i64 {
        self.read("PTTL", &[]).and_then(Reply::int).unwrap_or(-2)
    }

    /// PEXPIRETIME where the server has it (Redis >= 7, Valkey); else the
    /// server's clock plus PTTL, read between two TIMEs of the same
    /// millisecond, as lua/algorithms/fixed_window.lua does.
    fn expiry_at_ms(&self) -> i64 {
        if let Ok(Reply::Int(at)) = self.read("PEXPIRETIME", &[]) {
            return at;
        }
        let ms = |r: Read<Reply>| -> Option<i64> {
            let parts = r.ok()?.list().ok()?;
            let mut it = parts.into_iter().map(|p| p.bytes().ok().flatten().and_then(|b| lua_tonumber(&b)));
            Some((it.next()?? * 1000.0 + (it.next()?? / 1000.0).floor()) as i64)
        };
        loop {
            let before = ms(self.server.call(&self.server.read, "TIME", &[]));
            let left = self.pttl_ms();
            let after = ms(self.server.call(&self.server.read, "TIME", &[]));
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

    fn hgetall(&self) -> Read<Vec<(Vec<u8>, Vec<u8>)>> {
        let flat = self.read("HGETALL", &[])?.list()?;
        let mut fields = Vec::with_capacity(flat.len() / 2);
        let mut it = flat.into_iter();
        while let (Some(f), Some(v)) = (it.next(), it.next()) {
            fields.push((f.bytes()?.unwrap_or_default(), v.bytes()?.unwrap_or_default()));
        }
        Ok(fields)
    }

    fn zcount_above(&self, edge: f64) -> Read<i64> {
        self.read("ZCOUNT", &[&above(edge), b"+inf"])?.int()
    }

    fn zmax_score(&self) -> Read<Option<f64>> {
        let last = self.read("ZRANGE", &[b"-1", b"-1", b"WITHSCORES"])?.list()?;
        last.into_iter().nth(1).map_or(Ok(None), Reply::number)
    }

    fn znth_score_above(&self, edge: f64, offset: i64) -> Read<Option<f64>> {
        let offset = offset.to_string();
        let nth = self.read("ZRANGEBYSCORE", &[&above(edge), b"+inf", b"WITHSCORES", b"LIMIT", offset.as_bytes(), b"1"])?.list()?;
        nth.into_iter().nth(1).map_or(Ok(None), Reply::number)
    }

    fn zscore(&self, member: &[u8]) -> Read<Option<f64>> {
        self.read("ZSCORE", &[member])?.number()
    }
}

impl Keyspace for Server<'_> {
    fn view<'v>(&'v self, key: &'v [u8]) -> Box<dyn View + 'v> {
        Box::new(KeyView { server: self, key })
    }

    fn apply(&mut self, key: &[u8], effects: &[Effect]) -> Result<(), Refused> {
        for effect in effects {
            let ints: Vec<Vec<u8>>;
            let (command, args): (&str, Vec<&[u8]>) = match effect {
                Effect::SetPx(v, ms) => {
                    ints = vec![ms.to_string().into_bytes()];
                    ("SET", vec![key, v, b"PX", &ints[0]])
                }
                Effect::Set(v) => ("SET", vec![key, v]),
                Effect::IncrBy(n) => {
                    ints = vec![n.to_string().into_bytes()];
                    ("INCRBY", vec![key, &ints[0]])
                }
                Effect::PExpire(ms) => {
                    ints = vec![ms.to_string().into_bytes()];
                    ("PEXPIRE", vec![key, &ints[0]])
                }
                Effect::PExpireAt(at) => {
                    ints = vec![at.to_string().into_bytes()];
                    ("PEXPIREAT", vec![key, &ints[0]])
                }
                Effect::HIncrBy(field, n) => {
                    ints = vec![n.to_string().into_bytes()];
                    ("HINCRBY", vec![key, field, &ints[0]])
                }
                Effect::HDel(fields) => ("HDEL", std::iter::once(key).chain(fields.iter().map(Vec::as_slice)).collect()),
                Effect::ZAdd(members) => {
                    ints = members.iter().map(|(score, _)| int_text(*score)).collect();
                    let mut args = vec![key];
                    for ((_, member), score) in members.iter().zip(&ints) {
                        args.push(score);
                        args.push(member);
                    }
                    ("ZADD", args)
                }
                Effect::ZIncrBy(by, member) => {
                    ints = vec![int_text(*by)];
                    ("ZINCRBY", vec![key, &ints[0], member])
                }
                Effect::ZRemRangeByScore(min, max) => {
                    ints = vec![int_text(*min), int_text(*max)];
                    ("ZREMRANGEBYSCORE", vec![key, &ints[0], &ints[1]])
                }
            };
            self.call(&self.write, command, &args)?;
        }
        Ok(())
    }

    /// The server's own wall clock: this code runs in its process, and TIME reads the same.
    fn now_us(&self) -> f64 {
        ratelimit_core::store::wall_clock_us() as f64
    }
}
