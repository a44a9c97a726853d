//! The server module's commands (the decisions, adjust, their counted
//! forms, block, and the in-flight ones), parsed and decided without a server
//! (`ratelimit_core::command`, what `module/src/commands.rs` runs), on an
//! in-memory keyspace (`Store`, Redis's semantics) that first gets values
//! at its keys: the library's own states, and what another program may have
//! left there (strings, hashes, sorted sets that are no state of ours),
//! with and without expiries. Then a few calls in a row, each built from
//! the commands' grammar (key count, keys, algorithm and arguments per
//! member, cost, a test clock) and then bent (arguments replaced, added,
//! removed). Every choice is one byte of the input (`fuzz::Bytes`), so the
//! fuzzer's mutations move from one well-formed call to its neighbours.
//!
//! Checked on every call (a panic or a failed assert is a finding; nothing
//! is caught):
//! - an error answer (refused arguments or a refused key) leaves every key
//!   as it was: value and expiry;
//! - a batch's key that answers an error is as it was (when it is in the
//!   batch once);
//! - a peek writes nothing, whatever it answers;
//! - a call writes no key but its own (a counted call: and its minute's
//!   counters, which count its decisions: one per key of a batch that
//!   answered, one for a take or a compound);
//! - a denied take or compound writes no value (a fixed window that lost
//!   its expiry may get one back); an adjust (refund, charge, reserve)
//!   replies a record per member;
//! - every reply has its format's shape, and where the call's keys hold only
//!   what the library wrote, numbers the extension's decoder takes
//!   (`ratelimit_fuzz::replies`).
#![no_main]

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};

use libfuzzer_sys::fuzz_target;
use ratelimit_core::buckets::pack_state;
use ratelimit_core::command::{self, Call, Command, Counted};
use ratelimit_core::entries::{self, Limit, Member};
use ratelimit_core::keyspace::Keyspace;
use ratelimit_core::metrics;
use ratelimit_core::store::{Store, Value, Zset};
use ratelimit_core::{Algorithm, Effect};
use ratelimit_fuzz::{replies, Bytes, NUMBERS};

static NOW_US: AtomicI64 = AtomicI64::new(0);
fn clock() -> i64 {
    NOW_US.load(Ordering::Relaxed)
}

const START_US: i64 = 1_700_000_000_000_000;
const KEYS: [&[u8]; 4] = [b"k0", b"k1", b"k2", b"k3"];
/// Each key's block key (lock-out), beside it.
const BLOCKS: [&[u8]; 4] = [b"k0!lockout", b"k1!lockout", b"k2!lockout", b"k3!lockout"];
/// A counted call's counters' base (its minute's key is `m:<minute>`).
const BASE: &[u8] = b"m";
const ALGORITHMS: [&[u8]; 8] =
    [b"fixed_window", b"sliding_log", b"sliding_blocks", b"token_bucket", b"leaky_bucket", b"gcra", b"anchored_window", b"calendar_window"];

/// A number argument: mostly one of `NUMBERS`, else a small integer.
fn number(b: &mut Bytes) -> Vec<u8> {
    match b.next() {
        n if n < 192 => NUMBERS[n as usize % NUMBERS.len()].to_vec(),
        n => (n - 192).to_string().into_bytes(),
    }
}

/// Any argument: a key, an algorithm's name, a number, or raw bytes.
fn token(b: &mut Bytes) -> Vec<u8> {
    match b.next() % 4 {
        0 => KEYS[b.next() as usize % KEYS.len()].to_vec(),
        1 => ALGORITHMS[b.next() as usize % ALGORITHMS.len()].to_vec(),
        2 => number(b),
        _ => b.short(12).to_vec(),
    }
}

/// A value another program (or the library) may have left at a key.
fn planted(b: &mut Bytes) -> Option<Value> {
    let now = clock() as f64;
    Some(match b.next() % 8 {
        0 => return None,
        1 => Value::Str(number(b)),
        2 => Value::Str(pack_state(f64::from(b.next()) / 4.0, now - f64::from(b.next()) * 1e5)),
        3 => Value::Str(pack_state(f64::from_bits(b.u64()), f64::from_bits(b.u64()))),
        4 => Value::Str(b.short(20).to_vec()),
        // A TAT around now, as GCRA writes one.
        5 => Value::Str(((now as i64) + i64::from(b.next()) * 10_000 - 1_000_000).to_string().into_bytes()),
        // Redis holds no empty hash or sorted set: it deletes the key.
        6 => Value::Hash((0..1 + b.next() % 3).map(|_| (number(b), number(b))).collect()),
        _ => {
            let mut z = Zset::default();
            for _ in 0..1 + b.next() % 4 {
                let score = match b.next() % 3 {
                    0 => now - f64::from(b.next()) * 1e4,
                    1 => -f64::from(b.next()),
                    _ => f64::from_bits(b.u64()),
                };
                z.add(if score.is_nan() { 0.0 } else { score }, number(b));
            }
            Value::Zset(z)
        }
    })
}

/// One call's arguments: the grammar's, then bent.
fn call_args(b: &mut Bytes, command: Command) -> Vec<Vec<u8>> {
    // n keys from the `first`-th on: distinct (a batch's repeats come from bends).
    let (n, first) = (1 + (b.next() % 4) as usize, b.next() as usize);
    let counted = command.counted();
    // Decisions: the keys, then their block keys; block: block keys only.
    let decides = command != Command::Block;
    let mut args = vec![command.name().as_bytes().to_vec(), ((1 + decides as usize) * n + counted as usize).to_string().into_bytes()];
    if decides {
        for i in 0..n {
            args.push(KEYS[(first + i) % KEYS.len()].to_vec());
        }
    }
    for i in 0..n {
        args.push(BLOCKS[(first + i) % BLOCKS.len()].to_vec());
    }
    if counted {
        // The base, then the counting arguments: a name, dry run, pending counts.
        args.push(BASE.to_vec());
        args.push([b"api".as_slice(), b"", b"x\0y"][b.next() as usize % 3].to_vec());
        args.push(if b.next() % 2 == 1 { b"1".to_vec() } else { b"0".to_vec() });
        args.push(match b.next() % 3 {
            0 => Vec::new(),
            1 => format!("{} {} {} {} {}", b.next(), b.next(), b.next(), b.next(), b.next()).into_bytes(),
            _ => token(b),
        });
    }
    if command == Command::Block {
        args.push(number(b));
        if b.next() % 2 == 1 {
            args.push((clock() + i64::from(b.next()) * 1000).to_string().into_bytes());
        }
    } else {
        let adjust = matches!(command, Command::Adjust | Command::AdjustCounted);
        let members = if adjust || matches!(command, Command::Compound | Command::CompoundPeek | Command::CompoundCounted) { n } else { 1 };
        for _ in 0..members {
            // The lockout in ms, then the algorithm.
            args.push(if b.next() % 2 == 1 { b"0".to_vec() } else { number(b) });
            let name = ALGORITHMS[b.next() as usize % ALGORITHMS.len()];
            args.push(name.to_vec());
            let nargs = match name {
                b"fixed_window" | b"token_bucket" | b"gcra" => 2,
                b"calendar_window" => 5,
                _ => 3,
            };
            for _ in 0..nargs {
                args.push(number(b));
            }
        }
        if adjust {
            args.push((b.next() % 3).to_string().into_bytes()); // refund, charge, reserve
        }
        args.push(number(b));
        if adjust {
            args.push(number(b)); // the longest wait
        }
        if b.next() % 2 == 1 {
            args.push((clock() + i64::from(b.next()) * 1000).to_string().into_bytes());
        }
    }
    for _ in 0..b.next() % 4 {
        let at = b.next() as usize % (args.len() + 1);
        match b.next() % 3 {
            0 if at < args.len() => args[at] = token(b),
            1 => args.insert(at, token(b)),
            _ if at > 0 && at < args.len() => {
                args.remove(at);
            }
            _ => {}
        }
    }
    args
}

/// A policy that wrote a key: an algorithm with its arguments, or a block (block(), a lockout).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Writer {
    Algorithm(Algorithm),
    Block,
    Inflight,
}

/// A member that always fits, at a key of its own.
const PARTNER: &[u8] = b"kx";

/// One decision also decided as a member of a compound, first and then
/// last, beside a member that always fits, on copies of the keyspace: the
/// compound answers as the decision alone does (allowed or not, or the
/// same refusal), and a refused one writes nothing. (So every path of one
/// decision is also tried where other members write around it.)
fn as_members(store: &Store, key: &[u8], block: &[u8], limit: &Limit, cost: f64, now: Option<f64>, peek: bool) {
    let alone = entries::decide(&mut store.clone(), key, block, limit, cost, now, peek);
    let partner = Limit { algo: Algorithm::parse(b"token_bucket", &[b"1099511627776", b"1000000"]).unwrap(), lockout_ms: 0.0 };
    let me = Member { key, block, limit: *limit };
    let other = Member { key: PARTNER, block: b"kx!lockout", limit: partner };
    for (at, members) in [[me.clone(), other.clone()], [other.clone(), me.clone()]].into_iter().enumerate() {
        let mut copy = store.clone();
        let before = copy.snapshot();
        match (entries::compound(&mut copy, &members, cost, now, peek), &alone) {
            // The partner always fits: the compound's outcome is the member's, and its own answer is the one alone.
            (Ok(both), Ok(one)) => {
                assert_eq!(both.allowed(), one.allowed(), "a member answers otherwise than alone");
                assert_eq!(&both.members[at], one, "a member's own answer differs from its answer alone");
            }
            (Err(e), Err(f)) => {
                assert_eq!(&e, f, "a member is refused otherwise than alone");
                assert_eq!(before, copy.snapshot(), "a refused compound wrote");
            }
            (both, one) => panic!("a member answers {both:?}, alone {one:?}"),
        }
    }
}

type Writers = HashMap<Vec<u8>, Vec<Option<Writer>>>;

/// Whether every key of `keys` is missing, or was written only by this
/// call's own policy for it.
fn ours(writers: &Writers, before: &[(Vec<u8>, Value, Option<i64>)], policies: &[(&[u8], Writer)], keys: &[&[u8]]) -> bool {
    keys.iter().all(|k| {
        let mine = policies.iter().find(|(key, _)| key == k).map(|(_, w)| w);
        value_of(before, k).is_none() || writers.get(*k).is_none_or(|ws| ws.iter().all(|w| w.as_ref() == mine))
    })
}

fn expiry_of(snapshot: &[(Vec<u8>, Value, Option<i64>)], key: &[u8]) -> Option<i64> {
    snapshot.iter().find(|(k, _, _)| k == key).and_then(|(_, _, at)| *at)
}

/// allowed + denied + would_deny of the limiter `name` in the counters at `key`.
fn decisions(snapshot: &[(Vec<u8>, Value, Option<i64>)], key: &[u8], name: &[u8]) -> i128 {
    let Some(Value::Hash(fields)) = value_of(snapshot, key) else { return 0 };
    ["allowed", "denied", "would_deny"]
        .iter()
        .filter_map(|o| fields.get(&metrics::field(o, name)))
        .map(|v| std::str::from_utf8(v).unwrap().parse::<i128>().unwrap())
        .sum()
}

fn value_of<'a>(snapshot: &'a [(Vec<u8>, Value, Option<i64>)], key: &[u8]) -> Option<&'a Value> {
    snapshot.iter().find(|(k, _, _)| k == key).map(|(_, v, _)| v)
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    NOW_US.store(START_US + i64::from(b.u32()), Ordering::Relaxed);
    let mut store = Store::with_clock(clock);
    // Who wrote each key: None for another program (planted), else the
    // policies (algorithm and arguments) of the calls that wrote it.
    let mut writers: Writers = HashMap::new();
    for key in KEYS {
        if let Some(value) = planted(&mut b) {
            store.insert(key, value);
            writers.insert(key.to_vec(), vec![None]);
            if b.next() % 2 == 1 {
                store.apply(key, &[Effect::PExpire(1 + i64::from(b.next()) * 100)]).unwrap();
            }
        }
    }
    for _ in 0..1 + b.next() % 4 {
        NOW_US.fetch_add(i64::from(b.next()) * i64::from(b.next()) * 100, Ordering::Relaxed);
        let command = Command::ALL[b.next() as usize % Command::ALL.len()];
        let args = call_args(&mut b, command);
        let argv: Vec<&[u8]> = args.iter().map(Vec::as_slice).collect();

        let Ok(call) = command::parse(command, &argv) else {
            continue; // nothing ran, so nothing can have changed
        };
        // A test's clock stands for the server's: the keyspace's expiries
        // follow it too (a window's expiry is an instant on that clock).
        if let Call::One { now: Some(now), .. }
        | Call::Many { now: Some(now), .. }
        | Call::Compound { now: Some(now), .. }
        | Call::Adjust { now: Some(now), .. }
        | Call::Block { now: Some(now), .. }
        | Call::Inflight { now: Some(now), .. } = call
        {
            NOW_US.store(now as i64, Ordering::Relaxed);
        }
        let before = store.snapshot();
        if let Call::One { key, block, limit, cost, now, peek, .. } = &call {
            as_members(&store, key, block, limit, *cost, *now, *peek);
        }
        if ratelimit_fuzz::show() {
            eprintln!("keys: {before:?}\ncall: {:?}", argv.iter().map(|a| String::from_utf8_lossy(a)).collect::<Vec<_>>());
        }
        let result = command::run(&mut store, &call);
        let after = store.snapshot();
        let reply = match result {
            Err(e) => {
                assert_eq!(before, after, "{} answered {:?} and changed keys", command.name(), e.0);
                continue;
            }
            Ok(reply) => reply,
        };
        // Numbers are checked where each key of the call holds only what
        // the library wrote for this call's own policy. Another policy on
        // the same key (a limiter reconfigured in place) reads the state as
        // its own: a sliding window whose slices became longer reads old
        // slice numbers as slices centuries ahead (fuzz/README.md).
        let policies: Vec<(&[u8], Writer)> = match &call {
            Call::One { key, block, limit, .. } => vec![(*key, Writer::Algorithm(limit.algo)), (*block, Writer::Block)],
            Call::Many { keys, blocks, limit, .. } => {
                keys.iter().map(|k| (*k, Writer::Algorithm(limit.algo))).chain(blocks.iter().map(|b| (*b, Writer::Block))).collect()
            }
            Call::Compound { members, .. } | Call::Adjust { members, .. } => {
                members.iter().flat_map(|m| [(m.key, Writer::Algorithm(m.limit.algo)), (m.block, Writer::Block)]).collect()
            }
            Call::Block { blocks, .. } => blocks.iter().map(|b| (*b, Writer::Block)).collect(),
            Call::Inflight { key, .. } => vec![(*key, Writer::Inflight)],
        };
        let ours = |keys: &[&[u8]]| ours(&writers, &before, &policies, keys);
        // Only the call's own keys change, and a counted call's counters.
        let counted = match &call {
            Call::One { counted, .. } | Call::Many { counted, .. } | Call::Compound { counted, .. } | Call::Adjust { counted, .. } => {
                counted.as_ref()
            }
            Call::Block { .. } | Call::Inflight { .. } => None,
        };
        let counters = counted.map(|Counted { base, .. }| metrics::key(base, metrics::minute(clock() as f64)));
        for (key, ..) in before.iter().chain(&after) {
            if value_of(&before, key) != value_of(&after, key) || expiry_of(&before, key) != expiry_of(&after, key) {
                assert!(
                    policies.iter().any(|(k, _)| k == key) || counters.as_deref() == Some(key.as_slice()),
                    "{} changed a key not its own: {:?}",
                    command.name(),
                    String::from_utf8_lossy(key)
                );
            }
        }
        // What the counters say was decided, before and after; a counted
        // call adds its decisions and the pending denials it carried.
        let decided = |snapshot: &[(Vec<u8>, Value, Option<i64>)]| match (counted, &counters) {
            (Some(c), Some(key)) => decisions(snapshot, key, c.counting.name),
            _ => 0,
        };
        let carried = counted.map_or(0, |c| i128::from(c.counting.pending[0]) + i128::from(c.counting.pending[1]));
        // Counts near 2^63 may overflow HINCRBY, which refuses: the decision
        // stands uncounted (as the Lua code's pcall leaves it), so the
        // counters are checked with counts far from that only.
        let exact = carried < 1 << 50;
        let added = decided(&after) - decided(&before);
        match &call {
            Call::One { key, peek, .. } => {
                let allowed = replies::answer(&reply, ours(&[key])).allowed;
                if counted.is_some() && exact {
                    assert_eq!(added, 1 + carried, "a counted take's counters");
                }
                if *peek {
                    assert_eq!(before, after, "a peek wrote");
                } else if !allowed {
                    assert_eq!(value_of(&before, key), value_of(&after, key), "a denied take wrote a value");
                }
            }
            Call::Compound { members, peek, .. } => {
                let each = replies::compound(&reply, members.len(), ours(&members.iter().map(|m| m.key).collect::<Vec<_>>()));
                let allowed = each.iter().all(|a| a.allowed);
                if counted.is_some() && exact {
                    assert_eq!(added, 1 + carried, "a counted compound's counters");
                }
                if *peek {
                    assert_eq!(before, after, "a compound peek wrote");
                } else if !allowed {
                    for m in members {
                        assert_eq!(value_of(&before, m.key), value_of(&after, m.key), "a denied compound wrote a value");
                    }
                }
            }
            // Refunds and charges write whatever they answer; a refused booking writes nothing.
            Call::Adjust { members, .. } => {
                replies::compound(&reply, members.len(), ours(&members.iter().map(|m| m.key).collect::<Vec<_>>()));
                if counted.is_some() && exact {
                    assert_eq!(added, 1 + carried, "a counted adjust's counters");
                }
            }
            Call::Block { blocks, .. } => assert_eq!(reply.len(), 8 * blocks.len(), "block replies one double per key"),
            // An in-flight call: only its own key changes (checked above).
            Call::Inflight { .. } => {}
            Call::Many { keys, .. } => {
                let failed = replies::records(&reply, keys.len(), false, ours(keys));
                if counted.is_some() && exact {
                    assert_eq!(added, failed.iter().filter(|f| !**f).count() as i128 + carried, "a counted batch's counters");
                }
                for (i, failed) in failed.into_iter().enumerate() {
                    if failed && keys.iter().filter(|k| **k == keys[i]).count() == 1 {
                        assert_eq!(value_of(&before, keys[i]), value_of(&after, keys[i]), "a batch's failed key changed");
                    }
                }
            }
        }
        for (key, writer) in &policies {
            if value_of(&before, key).is_none() {
                writers.remove(*key);
            }
            if value_of(&before, key) != value_of(&after, key) {
                writers.entry(key.to_vec()).or_default().push(Some(*writer));
            }
        }
    }
});
