//! The bridge between the two homes of every algorithm: the Lua library (on
//! a real redis-server) and the Rust core (on a `memory://` store) replay the
//! same random sequences (consume, peek, reset, batches, compounds; costs;
//! a test clock that steps forward by µs to minutes and sometimes back;
//! now and then another program persisting a key or overwriting it with a
//! value the library never writes, which both must refuse alike) and
//! must give identical answers and leave identical state: the same bytes
//! (GET), the same hash fields (HGETALL), the same sorted-set members and
//! scores (ZRANGE WITHSCORES), expiries alike. Every sequence is seeded;
//! a failure names its seed and step.

mod support;

use std::collections::BTreeMap;

use ratelimit::limiter::compound::Compound;
use ratelimit::limiter::instance::Limiter;
use ratelimit::limiter::{fixed_window, gcra, leaky_bucket, sliding_window, token_bucket, Op, Outcome, Policy};
use ratelimit::memory;
use ratelimit_core::store::Value;
use support::OPTS;

const S: i64 = 1_000_000;
const SEQUENCES: u64 = 48;
const STEPS: usize = 120;
const IDS: [&[u8]; 3] = [b"a", b"b", b"c"];

/// xorshift64*: seeded, so a failing sequence can be replayed.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
}

/// A random policy of algorithm `which`, its keys living at least a second
/// (so no key expires on one side and not the other while a sequence runs).
fn policy(rng: &mut Rng, which: u64) -> Policy {
    let limit = rng.range(1, 12);
    match which {
        0 => fixed_window::policy(rng.pick(&[10.0, 30.0, 60.0]), limit),
        1 => sliding_window::policy(rng.pick(&[10.0, 20.0]), limit, 0),
        2 => sliding_window::policy(rng.pick(&[10.0, 20.0]), limit, rng.range(1, 8)),
        3 => token_bucket::policy(limit, rng.pick(&[0.1, 0.3, 0.7, 1.0])),
        4 => leaky_bucket::policy(limit, rng.pick(&[0.1, 0.5, 1.0]), rng.range(1, limit.min(3))),
        _ => gcra::policy(limit - 1, 1, rng.pick(&[1.0, 2.0, 3.5])),
    }
    .unwrap()
}

/// What a key holds, read the same way on both sides.
#[derive(Debug, PartialEq)]
enum State {
    Missing,
    Str(Vec<u8>),
    Hash(BTreeMap<Vec<u8>, Vec<u8>>),
    Zset(Vec<(Vec<u8>, f64)>),
}

fn redis_state(conn: &mut ::redis::Connection, key: &[u8]) -> (State, i64) {
    let kind: String = ::redis::cmd("TYPE").arg(key).query(conn).unwrap();
    let state = match kind.as_str() {
        "none" => State::Missing,
        "string" => State::Str(::redis::cmd("GET").arg(key).query(conn).unwrap()),
        "hash" => State::Hash(::redis::cmd("HGETALL").arg(key).query(conn).unwrap()),
        "zset" => {
            let pairs: Vec<(Vec<u8>, f64)> = ::redis::cmd("ZRANGE").arg(key).arg(0).arg(-1).arg("WITHSCORES").query(conn).unwrap();
            State::Zset(pairs)
        }
        other => panic!("{other} at {key:?}"),
    };
    (state, ::redis::cmd("PTTL").arg(key).query(conn).unwrap())
}

fn memory_state(store: &str, key: &[u8]) -> (State, i64) {
    memory::target(store).with_store(|s| {
        let state = match s.value(key) {
            None => State::Missing,
            Some(Value::Str(v)) => State::Str(v.clone()),
            Some(Value::Hash(h)) => State::Hash(h.iter().map(|(k, v)| (k.clone(), v.clone())).collect()),
            Some(Value::Zset(z)) => State::Zset(z.entries().map(|(m, s)| (m.to_vec(), s)).collect()),
        };
        (state, s.pttl(key))
    })
}

/// Expiries alike: both none, or both within a second of each other (each
/// side counts a relative expiry from its own instant of writing).
fn same_expiry(a: i64, b: i64) -> bool {
    (a < 0 || b < 0) && a == b || (a >= 0 && b >= 0 && (a - b).abs() <= 1000)
}

fn shown(r: &Result<Vec<Outcome>, ratelimit::error::Error>) -> String {
    match r {
        Ok(os) => os.iter().map(|o| format!("({} {} {} {} {})", o.allowed, o.remaining, o.retry_after_us, o.reset_after_us, o.delay_us)).collect(),
        // Without the target's name ("Redis at …: ", "memory://…: ").
        Err(e) => {
            let text = e.to_string();
            let code = ["ERR ", "WRONGTYPE "].iter().filter_map(|c| text.find(c)).min().unwrap_or(0);
            format!("error: {}", &text[code..])
        }
    }
}

#[test]
fn lua_and_core_agree_on_random_sequences() {
    let Some(server) = support::start() else { return };
    let mut conn = server.connection().unwrap();
    let (secs, _): (i64, i64) = ::redis::cmd("TIME").query(&mut conn).unwrap();
    // An hour ahead of the server's clock: a fixed window's expiry instants
    // (PEXPIREAT on the test clock) stay in the future of the real one.
    let start = (secs / 60 + 61) * 60 * S;
    let mut failures = Vec::new();
    for seed in 1..=SEQUENCES {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let store = format!("differential-{start}-{seed}");
        // Three limiters of random algorithms, distinct prefixes: singly and as one compound.
        let policies: Vec<Policy> = (0..3)
            .map(|_| {
                let w = rng.below(6);
                policy(&mut rng, w)
            })
            .collect();
        let make = |p: &Policy, m: usize, on_redis: bool| {
            let name = format!("s{seed}m{m}");
            if on_redis {
                server.limiter(p.clone(), &name)
            } else {
                support::memory_limiter(p.clone(), &store, &name)
            }
        };
        let lua: Vec<std::sync::Arc<Limiter>> = policies.iter().enumerate().map(|(m, p)| make(p, m, true).into()).collect();
        let core: Vec<std::sync::Arc<Limiter>> = policies.iter().enumerate().map(|(m, p)| make(p, m, false).into()).collect();
        let lua_all = Compound::new(lua.clone()).unwrap();
        let core_all = Compound::new(core.clone()).unwrap();
        let mut now = start;
        for step in 0..STEPS {
            now += match rng.below(20) {
                0 => -rng.range(1, 5 * S),
                1..=4 => 0,
                5..=7 => rng.range(1, 1000),
                8..=13 => rng.range(1000, S),
                14..=18 => rng.range(S, 10 * S),
                _ => rng.range(10 * S, 120 * S),
            };
            let m = rng.below(3) as usize;
            let id = rng.pick(&IDS);
            let max_cost = lua[m].policy().max_cost.min(lua_all.members().iter().map(|l| l.policy().max_cost).min().unwrap());
            let cost = if rng.below(3) == 0 { rng.range(1, max_cost) } else { 1 };
            let (what, a, b) = match rng.below(13) {
                12 => {
                    // Another program at work on a key: both sides get the same.
                    let key = lua[m].key(id).unwrap();
                    let kind = rng.below(4);
                    let foreign = [b"x".to_vec(), f64::NAN.to_le_bytes().repeat(2), b"12".to_vec()][rng.below(3) as usize].clone();
                    let mut cmd = ::redis::cmd(if kind == 0 {
                        "PERSIST"
                    } else if kind == 1 {
                        "HSET"
                    } else {
                        "SET"
                    });
                    cmd.arg(&key);
                    if kind == 1 {
                        cmd.arg("not a slice").arg("1");
                    } else if kind > 1 {
                        cmd.arg(&foreign);
                    }
                    if kind == 1 {
                        ::redis::cmd("DEL").arg(&key).query::<()>(&mut conn).unwrap();
                    }
                    cmd.query::<()>(&mut conn).unwrap();
                    memory::target(&store).with_store(|s| match kind {
                        0 => s.persist(&key),
                        1 => s.insert(&key, Value::Hash([(b"not a slice".to_vec(), b"1".to_vec())].into_iter().collect())),
                        _ => s.insert(&key, Value::Str(foreign.clone())),
                    });
                    ("outside write", Ok(vec![]), Ok(vec![]))
                }
                0..=4 => (
                    "consume",
                    lua[m].decide_at(id, Op::Consume(cost), OPTS, Some(now)).map(|o| vec![o]),
                    core[m].decide_at(id, Op::Consume(cost), OPTS, Some(now)).map(|o| vec![o]),
                ),
                5 | 6 => (
                    "peek",
                    lua[m].decide_at(id, Op::Peek, OPTS, Some(now)).map(|o| vec![o]),
                    core[m].decide_at(id, Op::Peek, OPTS, Some(now)).map(|o| vec![o]),
                ),
                7 => ("reset", lua[m].reset(id, OPTS.timeouts).map(|_| vec![]), core[m].reset(id, OPTS.timeouts).map(|_| vec![])),
                8 | 9 => {
                    let ids: Vec<&[u8]> = (0..rng.range(1, 5)).map(|_| rng.pick(&IDS)).collect();
                    ("batch", lua[m].decide_many_at(&ids, cost, OPTS, Some(now)), core[m].decide_many_at(&ids, cost, OPTS, Some(now)))
                }
                10 => (
                    "compound",
                    lua_all.decide_at(id, Op::Consume(cost), OPTS, Some(now)).map(|o| vec![o]),
                    core_all.decide_at(id, Op::Consume(cost), OPTS, Some(now)).map(|o| vec![o]),
                ),
                _ => (
                    "compound peek",
                    lua_all.decide_at(id, Op::Peek, OPTS, Some(now)).map(|o| vec![o]),
                    core_all.decide_at(id, Op::Peek, OPTS, Some(now)).map(|o| vec![o]),
                ),
            };
            let at = format!("seed {seed} step {step} (+{} µs): {what} on member {m} ({:?}) cost {cost}", now - start, policies[m].script);
            if shown(&a) != shown(&b) {
                failures.push(format!("{at}: Lua {} / core {}", shown(&a), shown(&b)));
                break;
            }
            for (l, limiter) in lua.iter().enumerate() {
                for id in IDS {
                    let key = limiter.key(id).unwrap();
                    let (lua_state, lua_ttl) = redis_state(&mut conn, &key);
                    let (core_state, core_ttl) = memory_state(&store, &key);
                    if lua_state != core_state || !same_expiry(lua_ttl, core_ttl) {
                        failures.push(format!(
                            "{at}: key {} of member {l}: Lua {lua_state:?} PTTL {lua_ttl} / core {core_state:?} PTTL {core_ttl}",
                            String::from_utf8_lossy(&key)
                        ));
                    }
                }
            }
            if !failures.is_empty() {
                break;
            }
        }
        if failures.len() >= 5 {
            break;
        }
    }
    assert!(failures.is_empty(), "the Lua library and the core disagree:\n{}", failures.join("\n"));
}
