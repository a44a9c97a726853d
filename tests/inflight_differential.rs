//! In-flight limits in their three homes agree: the Lua library (on a real
//! redis-server), the server module (the same server, when `make test` loaded
//! it) and the core in process (a `memory://` store) replay the same random
//! sequences of acquire (waiters counted in and out), release, renew and
//! count (a small pool of permit tokens, a test clock that steps forward past leases) and must give the
//! same replies and leave the same sorted set (members and scores) with the
//! same expiry. Every sequence is seeded; a failure names its seed and step.

mod support;

use ratelimit::backend::{memory, Backend};
use ratelimit::entry::call::{EntryCall, PolicyArgs};
use ratelimit::entry::library::Entry;
use ratelimit::redis::pool;
use ratelimit::redis::target::Target;
use ratelimit_core::store::Value;
use support::OPTS;

const SEQUENCES: u64 = 24;
const STEPS: usize = 80;

struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n
    }
}

#[derive(Debug, PartialEq)]
struct State(Vec<(Vec<u8>, f64)>, i64);

fn redis_state(conn: &mut ::redis::Connection, key: &[u8]) -> State {
    let pairs: Vec<(Vec<u8>, f64)> = ::redis::cmd("ZRANGE").arg(key).arg(0).arg(-1).arg("WITHSCORES").query(conn).unwrap();
    State(pairs, ::redis::cmd("PTTL").arg(key).query(conn).unwrap())
}

fn memory_state(store: &str, key: &[u8]) -> State {
    memory::target(store).with_store(|s| match s.value(key) {
        None => State(vec![], s.pttl(key)),
        Some(Value::Zset(z)) => State(z.entries().map(|(m, s)| (m.to_vec(), s)).collect(), s.pttl(key)),
        Some(other) => panic!("{other:?}"),
    })
}

/// Both the same members and scores, and expiries within a second (each
/// side counts a relative expiry from its own instant of writing).
fn same(a: &State, b: &State) -> bool {
    a.0 == b.0 && ((a.1 < 0 || b.1 < 0) && a.1 == b.1 || (a.1 >= 0 && b.1 >= 0 && (a.1 - b.1).abs() <= 1000))
}

#[test]
fn lua_module_and_core_agree_on_in_flight_sequences() {
    let Some(server) = support::start() else { return };
    let module = support::server_module().is_some();
    let mut conn = server.connection().unwrap();
    let redis = Backend::Redis(pool::connections(Target::tcp("127.0.0.1", server.port)));
    let start = server.test_clock_start_us();
    for seed in 1..=SEQUENCES {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let store = format!("inflight-{seed}");
        let memory_side = Backend::Memory(memory::target(&store));
        // (name, backend, module allowed, key)
        let mut sides = vec![
            ("Lua", redis.clone(), false, format!("inflight:{seed}:lua").into_bytes()),
            ("core", memory_side, true, format!("inflight:{seed}:core").into_bytes()),
        ];
        if module {
            sides.push(("module", redis.clone(), true, format!("inflight:{seed}:module").into_bytes()));
        }
        let max = 1 + rng.below(4) as i64;
        let mut now = start;
        for step in 0..STEPS {
            // Leases of 10 to 30 s on the test clock (the keys' real TTLs outlive the test).
            now += match rng.below(4) {
                0 => 0,
                1 => rng.below(1000) as i64,
                2 => rng.below(5_000_000) as i64,
                _ => rng.below(25_000_000) as i64,
            };
            let ttl = (10 + rng.below(21) as i64) * 1_000_000;
            let token = format!("t{}", rng.below(6)).into_bytes();
            let (entry, words) = match rng.below(7) {
                0..=2 => {
                    let waiting = rng.below(4).to_string().into_bytes();
                    (Entry::InflightAcquire, vec![max.to_string().into_bytes(), ttl.to_string().into_bytes(), token, waiting])
                }
                3 | 4 => (Entry::InflightRelease, vec![token]),
                5 => (Entry::InflightRenew, vec![ttl.to_string().into_bytes(), token]),
                _ => (Entry::InflightCount, vec![]),
            };
            let args = PolicyArgs::new(words);
            let mut answers = Vec::new();
            for (name, backend, server_module, key) in &sides {
                let call = EntryCall { entry, keys: &[key.as_slice()], counting: &[], args: &args, per_call: &[now] };
                let reach = ratelimit::backend::Reach { timeouts: OPTS.timeouts, server_module: *server_module };
                let reply = backend.decide(&call, reach).map(|i| i.as_slice().to_vec()).map_err(|e| e.to_string());
                let state = match backend {
                    Backend::Memory(_) => memory_state(&store, key),
                    Backend::Redis(_) => redis_state(&mut conn, key),
                };
                answers.push((name, reply, state));
            }
            for other in &answers[1..] {
                let at = format!("seed {seed} step {step} {entry:?}: {} against {}", other.0, answers[0].0);
                assert_eq!(other.1, answers[0].1, "{at}");
                assert!(same(&other.2, &answers[0].2), "{at}: {:?} against {:?}", other.2, answers[0].2);
            }
            // Never more than max live permits.
            if let Ok(reply) = &answers[0].1 {
                if entry == Entry::InflightCount {
                    assert!(reply[0] <= max, "seed {seed} step {step}: {} live of {max}", reply[0]);
                }
            }
        }
    }
}
