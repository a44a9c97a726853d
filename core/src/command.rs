//! The server module's commands without the server: their arguments
//! read and checked (everything a client can send, not only what the
//! extension sends), and a parsed call run on any `Keyspace`. The module
//! (`module/src/commands.rs`) hands the server's arguments and keyspace to
//! these; the fuzz targets (`fuzz/`) hand them bytes and a `store::Store`.
//!
//!   RATELIMIT.TAKE          2 key block lockout_ms algorithm arg… cost [now_us]
//!   RATELIMIT.PEEK          2 key block lockout_ms algorithm arg… cost [now_us]  (read-only)
//!   RATELIMIT.TAKE_MANY     2n key… block… lockout_ms algorithm arg… cost [now_us]
//!   RATELIMIT.COMPOUND2      2n key… block… (lockout_ms algorithm arg…)×n cost [now_us]
//!   RATELIMIT.COMPOUND2_PEEK 2n key… block… (lockout_ms algorithm arg…)×n cost [now_us] (read-only)
//!   RATELIMIT.BLOCK         n block… ms [now_us]                   (block(): per key the µs left)
//!   RATELIMIT.TAKE_COUNTED, RATELIMIT.TAKE_MANY_COUNTED, RATELIMIT.COMPOUND2_COUNTED
//!                           take, take_many and compound with their decisions
//!                           counted in the same call (`ratelimit.metrics =
//!                           redis`): one more key (the counters' base, in the
//!                           same slot) after the keys, and the three counting
//!                           arguments (`metrics::Counting`) before the algorithm
//!   RATELIMIT.ADJUST        2n key… block… (lockout_ms algorithm arg…)×n mode units max_wait_us [now_us]
//!   RATELIMIT.ADJUST_COUNTED the same, counted as one decision (as above)
//!                           refund (mode 0), charge (1) or reserve (2,
//!                           one key: token or leaky bucket, GCRA) `units`
//!                           on every key (`Algorithm::adjust`); one entry
//!                           with a mode rather than three, so that each
//!                           algorithm's part of the three is reached from
//!                           one place in each language; replies a record
//!                           per key, as a compound does. `units`: a
//!                           booking's as a cost; a refund's and a charge's
//!                           up to 2^40 (a charge on an exact log up to
//!                           1,000: a member per unit); `max_wait_us`: a
//!                           reservation's longest wait, 0 to MAX_US (else 0).
//!                           Its block keys and lockouts are the decisions'
//!                           (below): a refund ignores a block; a charge,
//!                           booking or lease on a blocked id is denied,
//!                           taking nothing from any member; none of them
//!                           starts one. Mode 3 takes a lease (one key: token
//!                           bucket, GCRA, fixed window; `Algorithm::lease`):
//!                           up to `units` (1 to 2^40), at least the asking
//!                           call's cost, sent in the `max_wait_us` slot (1 to
//!                           the policy's `max_cost` and to `units`); its
//!                           record's 4th double is the units taken (0 when denied)
//!   RATELIMIT.INFLIGHT_ACQUIRE 1 key max ttl_us token waiting [now_us]  (in-flight limits,
//!   RATELIMIT.INFLIGHT_RELEASE 1 key token [now_us]              `concurrency`:
//!   RATELIMIT.INFLIGHT_RENEW   1 key ttl_us token [now_us]       what each replies
//!   RATELIMIT.INFLIGHT_COUNT   1 key [now_us]      (read-only)   is said there)
//!
//! Lock-out (`lockout`): every decision command's decided keys are followed
//! by their block keys (key k's at n + k), and each limiter's arguments
//! start with its lockout in ms (0: none; at most 10 years); the block is
//! read before the algorithm (`entries`).
//!
//! `algorithm` and its arguments: `Algorithm::parse`, which refuses what
//! the extension never sends (the ranges its constructors check). `cost` is
//! a whole number from 1 to `MAX_COUNT` and at most every algorithm's
//! `max_cost` (what its policy can ever take, as the extension checks); `now_us` (tests only) replaces the server's clock, a whole
//! number of µs up to `MAX_NOW_US`. No block key is a decided key (a
//! denial's lock-out would write it). A compound's keys, decided and block,
//! are distinct (the members of a `CompoundRateLimiter` have distinct key
//! prefixes): one key twice would be checked twice against the same state
//! and then take twice.
//! What cannot be read is refused before any key is touched.
//!
//! The compounds are named `compound2…`: their reply changed (every
//! member's own answer, where `compound…` replied one combined answer), and
//! a new name is what keeps the two from being misread across versions. An
//! extension that meets a server whose module predates the change gets
//! "unknown command" and decides that connection's calls with its own Lua
//! library instead (`redis::script`, `Fix::DropModule`); an older extension
//! meeting this module does the same with its `compound`.

use crate::algorithm::{Adjust, Algorithm, MAX_COUNT, MAX_LOG_COST, MAX_MS, MAX_US};
use crate::answer::batch_reply;
use crate::concurrency::{self, InflightOp, Waiting};
use crate::entries::{self, Limit, Member};
use crate::keyspace::Keyspace;
use crate::metrics::{self, Counting};
use crate::numbers::{lua_tonumber, redis_int};
use crate::view::Refused;

/// The latest instant a test may inject: 2^52 µs (the year 2112), so that
/// an instant plus the longest durations stays below 2^53, where doubles
/// are exact.
pub const MAX_NOW_US: f64 = 4_503_599_627_370_496.0;

/// Which of the commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Take,
    Peek,
    TakeMany,
    Compound,
    CompoundPeek,
    TakeCounted,
    TakeManyCounted,
    CompoundCounted,
    Adjust,
    AdjustCounted,
    InflightAcquire,
    InflightRelease,
    InflightRenew,
    InflightCount,
    Block,
}

impl Command {
    pub const ALL: [Command; 15] = [
        Command::Take,
        Command::Peek,
        Command::TakeMany,
        Command::Compound,
        Command::CompoundPeek,
        Command::TakeCounted,
        Command::TakeManyCounted,
        Command::CompoundCounted,
        Command::Adjust,
        Command::AdjustCounted,
        Command::InflightAcquire,
        Command::InflightRelease,
        Command::InflightRenew,
        Command::InflightCount,
        Command::Block,
    ];

    /// The name the module registers it under (commands are case-blind:
    /// the extension sends it as is).
    pub fn name(self) -> &'static str {
        match self {
            Command::Take => "ratelimit.take",
            Command::Peek => "ratelimit.peek",
            Command::TakeMany => "ratelimit.take_many",
            Command::Compound => "ratelimit.compound2",
            Command::CompoundPeek => "ratelimit.compound2_peek",
            Command::TakeCounted => "ratelimit.take_counted",
            Command::TakeManyCounted => "ratelimit.take_many_counted",
            Command::CompoundCounted => "ratelimit.compound2_counted",
            Command::Adjust => "ratelimit.adjust",
            Command::AdjustCounted => "ratelimit.adjust_counted",
            Command::InflightAcquire => "ratelimit.inflight_acquire",
            Command::InflightRelease => "ratelimit.inflight_release",
            Command::InflightRenew => "ratelimit.inflight_renew",
            Command::InflightCount => "ratelimit.inflight_count",
            Command::Block => "ratelimit.block",
        }
    }

    /// The Lua library's entry point of the same arguments and reply
    /// (`lua/entries.lua`), which the extension calls where the server has
    /// no module: the command's name without `ratelimit.`.
    pub fn entry(self) -> &'static str {
        &self.name()["ratelimit.".len()..]
    }

    /// Whether it may write (the peeks never do).
    pub fn writes(self) -> bool {
        !matches!(self, Command::Peek | Command::CompoundPeek | Command::InflightCount)
    }

    /// Whether its decisions are counted: its last key is the counters'
    /// base and its arguments start with the counting ones.
    pub fn counted(self) -> bool {
        matches!(self, Command::TakeCounted | Command::TakeManyCounted | Command::CompoundCounted | Command::AdjustCounted)
    }
}

/// Why a call is refused before it runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bad {
    /// Too few or too many arguments (the server's own arity error).
    Arity,
    /// An error reply, worded as the module words it.
    Refused(Refused),
}

impl From<Refused> for Bad {
    fn from(r: Refused) -> Self {
        Bad::Refused(r)
    }
}

fn bad(what: &str) -> Bad {
    Bad::Refused(Refused(format!("ERR ratelimit: {what}")))
}

/// A counted call's own parts: the counters' base key and the counting
/// arguments (`metrics`).
#[derive(Debug, Clone, PartialEq)]
pub struct Counted<'a> {
    pub base: &'a [u8],
    pub counting: Counting<'a>,
}

/// A call read from its arguments, keys borrowed from them; `counted` is
/// `Some` for the counted commands only.
#[derive(Debug, Clone, PartialEq)]
pub enum Call<'a> {
    /// take (peek false) or peek.
    One {
        key: &'a [u8],
        block: &'a [u8],
        limit: Limit,
        cost: f64,
        now: Option<f64>,
        peek: bool,
        counted: Option<Counted<'a>>,
    },
    Many {
        keys: &'a [&'a [u8]],
        blocks: &'a [&'a [u8]],
        limit: Limit,
        cost: f64,
        now: Option<f64>,
        counted: Option<Counted<'a>>,
    },
    /// compound (peek false) or compound_peek.
    Compound {
        members: Vec<Member<'a>>,
        cost: f64,
        now: Option<f64>,
        peek: bool,
        counted: Option<Counted<'a>>,
    },
    /// adjust: refund, charge or reserve on every member's key.
    Adjust {
        members: Vec<Member<'a>>,
        mode: Adjust,
        units: f64,
        now: Option<f64>,
        counted: Option<Counted<'a>>,
    },
    /// An in-flight limit's operation on its key (`crate::concurrency`).
    Inflight {
        key: &'a [u8],
        op: InflightOp<'a>,
        now: Option<f64>,
    },
    /// block(): these block keys blocked for `ms`.
    Block {
        blocks: &'a [&'a [u8]],
        ms: f64,
        now: Option<f64>,
    },
}

/// An in-flight call's arguments after its one key (`rest`).
fn inflight<'a>(command: Command, key: &'a [u8], rest: &'a [&'a [u8]]) -> Result<Call<'a>, Bad> {
    let fixed = match command {
        Command::InflightAcquire => 4,
        Command::InflightRelease => 1,
        Command::InflightRenew => 2,
        _ => 0,
    };
    if rest.len() < fixed || rest.len() > fixed + 1 {
        return Err(Bad::Arity);
    }
    let ttl = |b: &[u8]| whole(b, 1.0, MAX_US).ok_or_else(|| bad("the ttl must be a whole number of µs from 1 to 10 years"));
    let token = |b: &'a [u8]| if b.is_empty() { Err(bad("a permit's token must not be empty")) } else { Ok(b) };
    let op = match command {
        Command::InflightAcquire => InflightOp::Acquire {
            max: whole(rest[0], 1.0, MAX_COUNT).ok_or_else(|| bad("max must be a whole number from 1 to 2^40"))?,
            ttl: ttl(rest[1])?,
            token: token(rest[2])?,
            waiting: lua_tonumber(rest[3]).and_then(Waiting::from_number).ok_or_else(|| bad("waiting must be 0, 1, 2 or 3"))?,
        },
        Command::InflightRelease => InflightOp::Release { token: token(rest[0])? },
        Command::InflightRenew => InflightOp::Renew { ttl: ttl(rest[0])?, token: token(rest[1])? },
        _ => InflightOp::Count,
    };
    let now = rest
        .get(fixed)
        .map(|n| whole(n, 0.0, MAX_NOW_US).ok_or_else(|| bad("now_us must be a whole number of microseconds from 0 to 2^52")))
        .transpose()?;
    Ok(Call::Inflight { key, op, now })
}

/// The number of keys (`argv[1]`) of a call whose arguments are `args`
/// (`args[0]` the command's name): at least 1, and no more than there are
/// arguments after the count. The module also answers a keys-position
/// request with it.
pub fn key_count(args: &[&[u8]]) -> Result<usize, Bad> {
    let n = args.get(1).and_then(|a| redis_int(a)).ok_or(Bad::Arity)?;
    if n < 1 || n as u64 >= args.len() as u64 - 1 {
        return Err(Bad::Arity);
    }
    Ok(n as usize)
}

/// One algorithm and its arguments from the front of `rest`; the rest after them.
fn algorithm<'a>(rest: &'a [&'a [u8]]) -> Result<(Algorithm, &'a [&'a [u8]]), Bad> {
    let name = rest.first().ok_or(Bad::Arity)?;
    let n = Algorithm::nargs(name).ok_or_else(|| bad(&format!("no algorithm named {}", String::from_utf8_lossy(name))))?;
    let args = rest.get(1..1 + n).ok_or(Bad::Arity)?;
    Ok((Algorithm::parse(name, args)?, &rest[1 + n..]))
}

/// One limiter from the front of `rest`: its lockout in ms, its algorithm
/// and the algorithm's arguments; the rest after them.
fn limit<'a>(rest: &'a [&'a [u8]]) -> Result<(Limit, &'a [&'a [u8]]), Bad> {
    let lockout = rest.first().ok_or(Bad::Arity)?;
    let lockout_ms = whole(lockout, 0.0, MAX_MS).ok_or_else(|| bad("the lockout must be a whole number of ms from 0 to 315360000000"))?;
    let (algo, rest) = algorithm(&rest[1..])?;
    Ok((Limit { algo, lockout_ms }, rest))
}

/// Some of a call's keys.
type Keys<'a> = &'a [&'a [u8]];

/// Decided keys and their block keys: the two halves of `keys`. No block
/// key may be a decided key: a denial's lock-out writes its block key, and
/// would write a decided key's state (the fuzz target found a denied
/// compound that did). A batch's decided keys may repeat (one id twice).
fn halves<'a>(keys: &'a [&'a [u8]]) -> Result<(Keys<'a>, Keys<'a>), Bad> {
    if keys.is_empty() || !keys.len().is_multiple_of(2) {
        return Err(bad("every key must be followed by its block key (after all keys)"));
    }
    let (decided, blocks) = keys.split_at(keys.len() / 2);
    let collides = match decided {
        [key] => blocks[0] == *key, // a take: no allocation
        _ => {
            let mut sorted = decided.to_vec();
            sorted.sort_unstable();
            blocks.iter().any(|b| sorted.binary_search(b).is_ok())
        }
    };
    if collides {
        return Err(bad("decided and block keys must be distinct"));
    }
    Ok((decided, blocks))
}

/// A compound's or an adjust's members: each key with its block key (the
/// keys' second half) and its limit, read in turn from `rest`; all of them,
/// decided and block keys, must be distinct (two members on one key would
/// decide it twice; a block key that is a decided key `halves` refuses).
/// Returns what follows the last limit.
fn members<'a>(keys: &'a [&'a [u8]], mut rest: &'a [&'a [u8]]) -> Result<(Vec<Member<'a>>, &'a [&'a [u8]]), Bad> {
    let (keys, blocks) = halves(keys)?;
    let mut members = Vec::with_capacity(keys.len());
    for (key, block) in keys.iter().zip(blocks) {
        let (limit, after) = limit(rest)?;
        members.push(Member { key, block, limit });
        rest = after;
    }
    let mut sorted: Vec<&[u8]> = keys.iter().chain(blocks).copied().collect();
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return Err(bad("a compound's keys must be distinct"));
    }
    Ok((members, rest))
}

/// A whole number in `lo..=hi` (Lua's reading of decimal text).
fn whole(b: &[u8], lo: f64, hi: f64) -> Option<f64> {
    lua_tonumber(b).filter(|x| x.is_finite() && *x == x.floor() && (lo..=hi).contains(x))
}

/// `cost [now_us]`, the cost within what every algorithm of the call takes.
fn cost_and_clock(rest: &[&[u8]], algos: &mut dyn Iterator<Item = &Algorithm>) -> Result<(f64, Option<f64>), Bad> {
    let (cost, now) = match rest {
        [cost] => (cost, None),
        [cost, now] => (cost, Some(now)),
        _ => return Err(Bad::Arity),
    };
    let cost = whole(cost, 1.0, MAX_COUNT).ok_or_else(|| bad("the cost must be a whole number from 1 to 2^40"))?;
    if let Some(most) = algos.map(Algorithm::max_cost).reduce(f64::min).filter(|&most| cost > most) {
        return Err(bad(&format!("the cost must be at most {most}, what the policy can ever take")));
    }
    let now =
        now.map(|n| whole(n, 0.0, MAX_NOW_US).ok_or_else(|| bad("now_us must be a whole number of microseconds from 0 to 2^52"))).transpose()?;
    Ok((cost, now))
}

/// Reads a call of `command`; `args` are all of its arguments, its name first.
pub fn parse<'a>(command: Command, args: &'a [&'a [u8]]) -> Result<Call<'a>, Bad> {
    let n = key_count(args)?;
    let (keys, rest) = args[2..].split_at(n);
    if matches!(command, Command::InflightAcquire | Command::InflightRelease | Command::InflightRenew | Command::InflightCount) {
        return match keys {
            [key] => inflight(command, key, rest),
            _ => Err(bad("an in-flight call decides one key")),
        };
    }
    // A counted call: its last key is the counters' base, and the counting
    // arguments come first; the rest is read as the uncounted command's.
    let (keys, rest, counted) = if command.counted() {
        let (base, keys) = keys.split_last().ok_or(Bad::Arity)?;
        if keys.is_empty() {
            return Err(Bad::Arity);
        }
        let counting = Counting::parse(rest).ok_or(Bad::Arity)?;
        (keys, &rest[metrics::NARGS..], Some(Counted { base, counting }))
    } else {
        (keys, rest, None)
    };
    match command {
        Command::Take | Command::Peek | Command::TakeCounted => {
            let (keys, blocks) = halves(keys)?;
            let (limit, rest) = limit(rest)?;
            let (cost, now) = cost_and_clock(rest, &mut std::iter::once(&limit.algo))?;
            if keys.len() != 1 {
                return Err(bad("take and peek decide one key"));
            }
            Ok(Call::One { key: keys[0], block: blocks[0], limit, cost, now, peek: command == Command::Peek, counted })
        }
        Command::TakeMany | Command::TakeManyCounted => {
            let (keys, blocks) = halves(keys)?;
            let (limit, rest) = limit(rest)?;
            let (cost, now) = cost_and_clock(rest, &mut std::iter::once(&limit.algo))?;
            Ok(Call::Many { keys, blocks, limit, cost, now, counted })
        }
        Command::Block => {
            let (ms, now) = match rest {
                [ms] => (ms, None),
                [ms, now] => (ms, Some(now)),
                _ => return Err(Bad::Arity),
            };
            let ms = whole(ms, 1.0, MAX_MS).ok_or_else(|| bad("the block must be a whole number of ms from 1 to 315360000000"))?;
            let now = now
                .map(|n| whole(n, 0.0, MAX_NOW_US).ok_or_else(|| bad("now_us must be a whole number of microseconds from 0 to 2^52")))
                .transpose()?;
            Ok(Call::Block { blocks: keys, ms, now })
        }
        Command::InflightAcquire | Command::InflightRelease | Command::InflightRenew | Command::InflightCount => unreachable!("read above"),
        Command::Compound | Command::CompoundPeek | Command::CompoundCounted => {
            let (members, rest) = members(keys, rest)?;
            let (cost, now) = cost_and_clock(rest, &mut members.iter().map(|m| &m.limit.algo))?;
            Ok(Call::Compound { members, cost, now, peek: command == Command::CompoundPeek, counted })
        }
        Command::Adjust | Command::AdjustCounted => {
            let (members, rest) = members(keys, rest)?;
            if !(3..=4).contains(&rest.len()) {
                return Err(Bad::Arity);
            }
            let (mode, wait, tail) = (rest[0], rest[2], [rest[1]].into_iter().chain(rest.get(3).copied()).collect::<Vec<&[u8]>>());
            let wait = whole(wait, 0.0, MAX_US).ok_or_else(|| bad("max_wait_us must be a whole number of microseconds from 0 to 315360000000000"))?;
            let mode = match mode {
                b"0" => Adjust::Refund,
                b"1" => Adjust::Charge,
                b"2" => Adjust::Reserve(wait),
                b"3" => Adjust::Lease(wait),
                _ => return Err(bad("the mode must be 0 (refund), 1 (charge), 2 (reserve) or 3 (lease)")),
            };
            // A refund's units bound nothing (it gives back at most what was
            // used), nor a charge's (a debt is bounded by each algorithm)
            // but an exact log's work (a member per unit); a booking's are a cost's.
            let (units, now) = match mode {
                Adjust::Reserve(_) => cost_and_clock(&tail, &mut members.iter().map(|m| &m.limit.algo))?,
                _ => cost_and_clock(&tail, &mut std::iter::empty())?,
            };
            if mode == Adjust::Charge && units > MAX_LOG_COST && members.iter().any(|m| matches!(m.limit.algo, Algorithm::SlidingLog(_))) {
                return Err(bad(&format!("an exact log takes at most {MAX_LOG_COST} units per call")));
            }
            if !matches!(mode, Adjust::Lease(_)) && members.iter().any(|m| !mode.fits(&m.limit.algo)) {
                return Err(bad("reserve books on a token bucket, a leaky bucket or GCRA"));
            }
            if matches!(mode, Adjust::Reserve(_)) && members.len() != 1 {
                return Err(bad("reserve books on one key"));
            }
            if let Adjust::Lease(need) = mode {
                if members.len() != 1 || !mode.fits(&members[0].limit.algo) {
                    return Err(bad("a lease is taken on one key of a token bucket, GCRA or a fixed window"));
                }
                let most = members[0].limit.algo.max_cost().min(units);
                if !(1.0..=most).contains(&need) {
                    return Err(bad(&format!("a lease's cost must be a whole number from 1 to {most} (the policy's largest cost and the units)")));
                }
            }
            Ok(Call::Adjust { members, mode, units, now, counted })
        }
    }
}

/// Runs a parsed call on `ks`: the reply's bytes (lua/entries.lua's), or the
/// error a single-key call or a compound answers (a batch answers each key's
/// own error inside its reply).
pub fn run<K: Keyspace + ?Sized>(ks: &mut K, call: &Call) -> Result<Vec<u8>, Refused> {
    match call {
        Call::One { key, block, limit, cost, now, peek, counted } => {
            let answer = match counted {
                Some(c) => entries::take_counted(ks, key, block, c.base, &c.counting, limit, *cost, *now)?,
                None => entries::decide(ks, key, block, limit, *cost, *now, *peek)?,
            };
            let mut out = Vec::with_capacity(32);
            answer.write_to(&mut out);
            Ok(out)
        }
        Call::Many { keys, blocks, limit, cost, now, counted: None } => Ok(batch_reply(&entries::take_many(ks, keys, blocks, limit, *cost, *now))),
        Call::Many { keys, blocks, limit, cost, now, counted: Some(c) } => {
            Ok(batch_reply(&entries::take_many_counted(ks, keys, blocks, c.base, &c.counting, limit, *cost, *now)))
        }
        Call::Block { blocks, ms, now } => {
            let mut out = Vec::with_capacity(8 * blocks.len());
            crate::answer::doubles(&mut out, &entries::block(ks, blocks, *ms, *now)?);
            Ok(out)
        }
        Call::Compound { members, cost, now, peek, counted } => {
            let answer = match counted {
                Some(c) => entries::compound_counted(ks, members, c.base, &c.counting, *cost, *now)?,
                None => entries::compound(ks, members, *cost, *now, *peek)?,
            };
            let mut out = Vec::with_capacity(32 * members.len());
            answer.write_to(&mut out);
            Ok(out)
        }
        Call::Adjust { members, mode, units, now, counted } => {
            let answer = match counted {
                Some(c) => entries::adjust_counted(ks, members, c.base, &c.counting, *mode, *units, *now)?,
                None => entries::adjust(ks, members, *mode, *units, *now)?,
            };
            let mut out = Vec::with_capacity(32 * members.len());
            answer.write_to(&mut out);
            Ok(out)
        }
        Call::Inflight { key, op, now } => concurrency::run(ks, key, op, *now),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    fn args(s: &str) -> Vec<&[u8]> {
        s.split(' ').map(str::as_bytes).collect()
    }

    fn refusal(command: Command, s: &str) -> String {
        let a = args(s);
        match parse(command, &a) {
            Err(Bad::Refused(r)) => r.0,
            Err(Bad::Arity) => "arity".into(),
            Ok(call) => panic!("{s}: parsed as {call:?}"),
        }
    }

    #[test]
    fn keys_come_after_their_count() {
        for bad in ["x", "x 1", "x 0 k fixed_window", "x -1 k", "x 3 k fixed_window", "x 01 k fixed_window", "x +1 k a"] {
            assert_eq!(key_count(&args(bad)), Err(Bad::Arity), "{bad}");
        }
        assert_eq!(key_count(&args("x 2 a b c")), Ok(2));
    }

    #[test]
    fn what_the_extension_sends_parses() {
        let a = args("ratelimit.take 2 k b 0 fixed_window 1500 10 1 1700000000000000");
        let call = parse(Command::Take, &a).unwrap();
        assert!(matches!(call, Call::One { key: b"k", cost: 1.0, now: Some(_), peek: false, .. }), "{call:?}");
        let a = args("ratelimit.compound2 4 a b a! b! 0 sliding_log 1000000 5 1000 7 gcra 200000 1000000 3");
        assert!(
            matches!(parse(Command::Compound, &a).unwrap(), Call::Compound { ref members, cost: 3.0, .. } if members.len() == 2 && members[1].limit.lockout_ms == 7.0 && members[1].block == b"b!")
        );
    }

    #[test]
    fn what_it_cannot_handle_is_refused() {
        assert_eq!(refusal(Command::Take, "t 4 a b c d 0 fixed_window 1000 5 1"), "ERR ratelimit: take and peek decide one key");
        assert_eq!(refusal(Command::Take, "t 2 a b 0 nope 1"), "ERR ratelimit: no algorithm named nope");
        assert_eq!(refusal(Command::Take, "t 2 a b 0 fixed_window 1000 5"), "arity");
        assert_eq!(refusal(Command::Take, "t 2 a b 0 fixed_window 1000 5 1 2 3"), "arity");
        assert_eq!(refusal(Command::Take, "t 2 a b 0 fixed_window 1000 5 0"), "ERR ratelimit: the cost must be a whole number from 1 to 2^40");
        assert_eq!(refusal(Command::Take, "t 2 a b 0 fixed_window 1000 5 1.5"), "ERR ratelimit: the cost must be a whole number from 1 to 2^40");
        assert_eq!(
            refusal(Command::Take, "t 2 a b 0 sliding_log 1000000 5000 1000 1001"),
            "ERR ratelimit: the cost must be at most 1000, what the policy can ever take"
        );
        assert_eq!(
            refusal(Command::Take, "t 2 a b 0 fixed_window 1000 5 1 -1"),
            "ERR ratelimit: now_us must be a whole number of microseconds from 0 to 2^52"
        );
        assert_eq!(
            refusal(Command::Take, "t 2 a b 0 fixed_window 1000 5 1 1e300"),
            "ERR ratelimit: now_us must be a whole number of microseconds from 0 to 2^52"
        );
        assert_eq!(
            refusal(Command::Take, "t 2 a b 0 leaky_bucket 10 1 3 4"),
            "ERR ratelimit: the cost must be at most 3, what the policy can ever take"
        );
        assert_eq!(
            refusal(Command::Compound, "c 4 a b c d 0 fixed_window 1000 5 0 gcra 1000 3000 4"),
            "ERR ratelimit: the cost must be at most 3, what the policy can ever take"
        );
        assert_eq!(
            refusal(Command::Compound, "c 4 a a c d 0 fixed_window 1000 5 0 fixed_window 1000 5 1"),
            "ERR ratelimit: a compound's keys must be distinct"
        );
        // b's block key is a: a denial of b would write a's counter.
        assert_eq!(
            refusal(Command::Compound, "c 4 a b c a 0 fixed_window 1000 5 0 fixed_window 1000 5 1"),
            "ERR ratelimit: decided and block keys must be distinct"
        );
        // The same on a take and a batch (whose ids may repeat, their block keys with them).
        assert_eq!(refusal(Command::Take, "t 2 a a 1000 fixed_window 1000 5 1"), "ERR ratelimit: decided and block keys must be distinct");
        assert_eq!(refusal(Command::TakeMany, "t 4 a b b c 0 fixed_window 1000 5 1"), "ERR ratelimit: decided and block keys must be distinct");
        assert!(matches!(parse(Command::TakeMany, &args("t 4 a a c c 0 fixed_window 1000 5 1")), Ok(Call::Many { .. })));
        assert_eq!(refusal(Command::Compound, "c 4 a b c d 0 fixed_window 1000 5 0 1"), "ERR ratelimit: no algorithm named 1");
        assert_eq!(refusal(Command::Compound, "c 4 a b c d 0 fixed_window 1000 5"), "arity");
    }

    #[test]
    fn adjust_reads_a_mode_units_and_a_wait() {
        let a = args("ratelimit.adjust 4 a b a! b! 0 fixed_window 1000 5 0 gcra 1000 3000 0 7 0");
        assert!(
            matches!(parse(Command::Adjust, &a).unwrap(), Call::Adjust { mode: Adjust::Refund, units: 7.0, now: None, ref members, .. } if members.len() == 2)
        );
        let a = args("ratelimit.adjust 2 a a! 0 token_bucket 5 1 2 3 250000 1700000000000000");
        assert!(
            matches!(parse(Command::Adjust, &a).unwrap(), Call::Adjust { mode: Adjust::Reserve(w), units: 3.0, now: Some(_), .. } if w == 250000.0)
        );
        // A charge may take more than the limit; a booking may not.
        assert!(parse(Command::Adjust, &args("a 2 a a! 0 fixed_window 1000 5 1 9 0")).is_ok());
        assert_eq!(
            refusal(Command::Adjust, "a 2 a a! 0 token_bucket 5 1 2 9 0"),
            "ERR ratelimit: the cost must be at most 5, what the policy can ever take"
        );
        assert_eq!(
            refusal(Command::Adjust, "a 2 a a! 0 sliding_log 1000000 5 1000 1 1001 0"),
            "ERR ratelimit: an exact log takes at most 1000 units per call"
        );
        assert_eq!(
            refusal(Command::Adjust, "a 2 a a! 0 fixed_window 1000 5 2 1 0"),
            "ERR ratelimit: reserve books on a token bucket, a leaky bucket or GCRA"
        );
        assert_eq!(refusal(Command::Adjust, "a 4 a b a! b! 0 gcra 1000 3000 0 gcra 1000 3000 2 1 0"), "ERR ratelimit: reserve books on one key");
        assert_eq!(
            refusal(Command::Adjust, "a 4 a a a! b! 0 fixed_window 1000 5 0 fixed_window 1000 5 0 1 0"),
            "ERR ratelimit: a compound's keys must be distinct"
        );
        let a = args("ratelimit.adjust 2 a a! 0 gcra 1000 3000 3 50 2");
        assert!(matches!(parse(Command::Adjust, &a).unwrap(), Call::Adjust { mode: Adjust::Lease(n), units: 50.0, .. } if n == 2.0));
        assert_eq!(
            refusal(Command::Adjust, "a 2 a a! 0 sliding_log 1000000 5 1000 3 5 1"),
            "ERR ratelimit: a lease is taken on one key of a token bucket, GCRA or a fixed window"
        );
        assert_eq!(
            refusal(Command::Adjust, "a 4 a b a! b! 0 gcra 1000 3000 0 gcra 1000 3000 3 5 1"),
            "ERR ratelimit: a lease is taken on one key of a token bucket, GCRA or a fixed window"
        );
        for bad_need in ["0", "4", "51"] {
            assert!(refusal(Command::Adjust, &format!("a 2 a a! 0 gcra 1000 3000 3 50 {bad_need}")).contains("a lease's cost must be"), "{bad_need}");
        }
        assert_eq!(
            refusal(Command::Adjust, "a 2 a a! 0 gcra 1000 3000 4 1 0"),
            "ERR ratelimit: the mode must be 0 (refund), 1 (charge), 2 (reserve) or 3 (lease)"
        );
        assert_eq!(
            refusal(Command::Adjust, "a 2 a a! 0 gcra 1000 3000 0 1 -1"),
            "ERR ratelimit: max_wait_us must be a whole number of microseconds from 0 to 315360000000000"
        );
        assert_eq!(refusal(Command::Adjust, "a 2 a a! 0 gcra 1000 3000 0 1"), "arity");
        assert_eq!(
            refusal(Command::Adjust, "a 4 a a a! b! 0 gcra 1000 3000 0 gcra 1000 3000 0 1 0"),
            "ERR ratelimit: a compound's keys must be distinct"
        );
    }

    #[test]
    fn a_counted_call_has_its_base_last_and_its_counting_first() {
        let a = args("ratelimit.take_counted 3 k kb m:base api 1 0,2,0,0,7 0 fixed_window 1000 5 1");
        let call = parse(Command::TakeCounted, &a).unwrap();
        let counting = Counting { name: b"api", dry_run: true, pending: [0, 2, 0, 0, 7] };
        assert!(
            matches!(&call, Call::One { key: b"k", cost: 1.0, peek: false, counted: Some(Counted { base: b"m:base", counting: c }), .. } if *c == counting),
            "{call:?}"
        );
        let a = args("ratelimit.take_many_counted 5 a b a! b! m api 0 x 0 fixed_window 1000 5 1");
        assert!(
            matches!(parse(Command::TakeManyCounted, &a).unwrap(), Call::Many { keys, blocks, counted: Some(Counted { base: b"m", .. }), .. } if keys.len() == 2 && blocks == [b"a!", b"b!"])
        );
        let a = args("ratelimit.compound2_counted 5 a b a! b! m api 0 x 0 fixed_window 1000 5 0 gcra 1000 3000 1");
        assert!(matches!(parse(Command::CompoundCounted, &a).unwrap(), Call::Compound { ref members, counted: Some(_), .. } if members.len() == 2));
        // The base alone, or no room for the counting arguments: arity.
        assert_eq!(refusal(Command::TakeCounted, "t 1 m api 0 x 0 fixed_window 1000 5 1"), "arity");
        assert_eq!(refusal(Command::TakeCounted, "t 3 k kb m api 0"), "arity");
        assert_eq!(refusal(Command::TakeCounted, "t 5 a b c d m api 0 x 0 fixed_window 1000 5 1"), "ERR ratelimit: take and peek decide one key");
        assert_eq!(
            refusal(Command::CompoundCounted, "c 5 a a c d m api 0 x 0 fixed_window 1000 5 0 fixed_window 1000 5 1"),
            "ERR ratelimit: a compound's keys must be distinct"
        );
        // The same checks as the uncounted command's after the counting arguments.
        assert_eq!(
            refusal(Command::TakeManyCounted, "t 3 a b m api 0 x 0 sliding_log 1000000 5000 1000 1001"),
            "ERR ratelimit: the cost must be at most 1000, what the policy can ever take"
        );
    }

    #[test]
    fn a_counted_call_counts_what_it_decided() {
        let mut store = Store::with_clock(|| 1_000_000_000);
        let a = args("ratelimit.take_counted 3 k kb m api 0 x 0 fixed_window 1000 1 1");
        let call = parse(Command::TakeCounted, &a).unwrap();
        run(&mut store, &call).unwrap();
        run(&mut store, &call).unwrap();
        let key = metrics::key(b"m", metrics::minute(1_000_000_000.0));
        let view = store.view(&key);
        assert_eq!(view.hget(b"allowed:api").unwrap().as_deref(), Some(b"1".as_slice()));
        assert_eq!(view.hget(b"denied:api").unwrap().as_deref(), Some(b"1".as_slice()));
    }

    #[test]
    fn a_parsed_call_runs_on_a_store() {
        let mut store = Store::with_clock(|| 1_000_000_000);
        let a = args("ratelimit.take 2 k kb 0 token_bucket 2 1 1");
        let call = parse(Command::Take, &a).unwrap();
        let reply = run(&mut store, &call).unwrap();
        assert_eq!(reply, [1.0f64, 1_000_000.0].iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>());
    }

    fn doubles(xs: &[f64]) -> Vec<u8> {
        xs.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    #[test]
    fn a_compound_replies_every_members_own_record() {
        let mut store = Store::with_clock(|| 1_000_000_000);
        // 2 per second and 5 per minute: the third call is denied by the first member alone,
        // and the second, untouched, says what it has left.
        let a = args("ratelimit.compound2 4 s m sb mb 0 fixed_window 1000 2 0 fixed_window 60000 5 1");
        let call = parse(Command::Compound, &a).unwrap();
        assert_eq!(run(&mut store, &call).unwrap(), doubles(&[1.0, 1e6, 0.0, 0.0, 4.0, 6e7, 0.0, 0.0]));
        run(&mut store, &call).unwrap();
        assert_eq!(run(&mut store, &call).unwrap(), doubles(&[0.0, 1e6, 1e6, 0.0, 3.0, 6e7, 0.0, 0.0]));
        let a = args("ratelimit.compound2_peek 4 s m sb mb 0 fixed_window 1000 2 0 fixed_window 60000 5 1");
        assert_eq!(run(&mut store, &parse(Command::CompoundPeek, &a).unwrap()).unwrap(), doubles(&[0.0, 1e6, 1e6, 0.0, 3.0, 6e7, 0.0, 0.0]));
    }

    #[test]
    fn in_flight_calls_parse_and_refuse_what_they_cannot_use() {
        let a = args("ratelimit.inflight_acquire 1 k 4 1000000 tok 1 5");
        let op = InflightOp::Acquire { max: 4.0, ttl: 1e6, token: b"tok", waiting: Waiting::First };
        assert_eq!(parse(Command::InflightAcquire, &a).unwrap(), Call::Inflight { key: b"k", op, now: Some(5.0) });
        assert_eq!(refusal(Command::InflightAcquire, "a 1 k 0 1000 t 0"), "ERR ratelimit: max must be a whole number from 1 to 2^40");
        assert_eq!(refusal(Command::InflightAcquire, "a 1 k 1 1000 t 4"), "ERR ratelimit: waiting must be 0, 1, 2 or 3");
        assert_eq!(refusal(Command::InflightRenew, "r 1 k 0 t"), "ERR ratelimit: the ttl must be a whole number of µs from 1 to 10 years");
        assert_eq!(refusal(Command::InflightRelease, "r 2 k j t"), "ERR ratelimit: an in-flight call decides one key");
        assert_eq!(refusal(Command::InflightRelease, "r 1 k"), "arity");
        assert_eq!(refusal(Command::InflightCount, "c 1 k 1 2"), "arity");
        assert!(!Command::InflightCount.writes() && Command::InflightRelease.writes());
    }

    #[test]
    fn keys_come_with_their_block_keys_and_limits_with_their_lockout() {
        assert_eq!(
            refusal(Command::Take, "t 1 a 0 fixed_window 1000 5 1"),
            "ERR ratelimit: every key must be followed by its block key (after all keys)"
        );
        assert_eq!(
            refusal(Command::TakeMany, "t 3 a b c 0 fixed_window 1000 5 1"),
            "ERR ratelimit: every key must be followed by its block key (after all keys)"
        );
        assert_eq!(
            refusal(Command::Take, "t 2 a b -1 fixed_window 1000 5 1"),
            "ERR ratelimit: the lockout must be a whole number of ms from 0 to 315360000000"
        );
        assert_eq!(
            refusal(Command::Take, "t 2 a b fixed_window 1000 5 1"),
            "ERR ratelimit: the lockout must be a whole number of ms from 0 to 315360000000"
        );
        assert_eq!(refusal(Command::Block, "b 1 a 0"), "ERR ratelimit: the block must be a whole number of ms from 1 to 315360000000");
        assert_eq!(refusal(Command::Block, "b 1 a"), "arity");
        let a = args("ratelimit.block 2 a b 300 1000000");
        assert_eq!(parse(Command::Block, &a).unwrap(), Call::Block { blocks: &a[2..4], ms: 300.0, now: Some(1e6) });
    }

    #[test]
    fn a_block_denies_until_it_ends_and_a_lockout_blocks_on_a_denial() {
        let mut store = Store::with_clock(|| 1_000_000_000);
        let now = |ms: u64| format!("{}", 1_000_000_000 + ms * 1000);
        let take = |store: &mut Store, at: u64| {
            let a = format!("ratelimit.take 2 k kb 500 fixed_window 1000 1 1 {}", now(at));
            let a = args(&a);
            run(store, &parse(Command::Take, &a).unwrap()).unwrap()
        };
        assert_eq!(take(&mut store, 0), doubles(&[0.0, 1e6]));
        // Denied by the window: blocked for 500 ms (longer than the window's 1000 ms left? no: kept the longer).
        assert_eq!(take(&mut store, 1), doubles(&[0.0, 999_000.0, 999_000.0]));
        // The window ends at 1000 ms; the block at 501 ms.
        assert_eq!(take(&mut store, 400), doubles(&[0.0, 101_000.0, 101_000.0]), "blocked: the block's time left");
        let peek = format!("ratelimit.peek 2 k kb 500 fixed_window 1000 1 1 {}", now(450));
        let peek = args(&peek);
        assert_eq!(run(&mut store, &parse(Command::Peek, &peek).unwrap()).unwrap(), doubles(&[0.0, 51_000.0, 51_000.0]));
        // A block by hand, longer than the one there; a shorter one keeps it.
        let b = format!("ratelimit.block 1 kb 2000 {}", now(500));
        let b = args(&b);
        assert_eq!(run(&mut store, &parse(Command::Block, &b).unwrap()).unwrap(), doubles(&[2e6]));
        let b = format!("ratelimit.block 1 kb 10 {}", now(600));
        let b = args(&b);
        assert_eq!(run(&mut store, &parse(Command::Block, &b).unwrap()).unwrap(), doubles(&[1.9e6]));
        assert_eq!(take(&mut store, 2499), doubles(&[0.0, 1000.0, 1000.0]));
        assert_eq!(take(&mut store, 2500), doubles(&[0.0, 1e6]), "the block ended on time, and the window too");
    }

    #[test]
    fn a_compound_is_denied_by_any_members_block_and_locks_out_members_with_a_lockout() {
        let mut store = Store::with_clock(|| 1_000_000_000);
        let call = |store: &mut Store, s: &str| {
            let a = args(s);
            run(store, &parse(Command::Compound, &a).unwrap()).unwrap()
        };
        let c = "ratelimit.compound2 4 s m sb mb 0 fixed_window 1000 1 3000 fixed_window 60000 5 1 1000000000";
        assert_eq!(call(&mut store, c), doubles(&[0.0, 1e6, 0.0, 0.0, 4.0, 6e7, 0.0, 0.0]));
        // Denied by the first member: the second (lockout 3 s) is blocked, the first (none) is not.
        assert_eq!(call(&mut store, c), doubles(&[0.0, 1e6, 1e6, 0.0, 0.0, 6e7, 3e6, 0.0]));
        let b = args("ratelimit.block 1 mb 1 1000000000");
        assert_eq!(run(&mut store, &parse(Command::Block, &b).unwrap()).unwrap(), doubles(&[3e6]), "the longer block kept");
        // Blocked: denied with the block's time left, nothing taken, and no block made longer.
        assert_eq!(call(&mut store, c), doubles(&[0.0, 1e6, 1e6, 0.0, 0.0, 3e6, 3e6, 0.0]));
    }

    #[test]
    fn calendar_windows_are_picked_on_the_servers_clock() {
        // The store's own clock (its keys' expiry) before the test's instants.
        let mut store = Store::with_clock(|| 0);
        // Windows [0, 1000), [1000, 3000), [3000, 3500) ms; now 1500 ms: the middle one.
        let a = args("ratelimit.take 2 k kb 0 calendar_window 1 0 1000 3000 3500 1 1500000");
        assert_eq!(run(&mut store, &parse(Command::Take, &a).unwrap()).unwrap(), doubles(&[0.0, 1.5e6]));
        assert_eq!(run(&mut store, &parse(Command::Take, &a).unwrap()).unwrap(), doubles(&[0.0, 1.5e6, 1.5e6]));
        // A server clock outside the windows a client sent (a client clock a unit off) is refused.
        for now in ["3500000", "0"] {
            let a = format!("ratelimit.take 2 k2 kb2 0 calendar_window 1 1000 2000 3000 3500 1 {now}");
            let a = args(&a);
            let e = run(&mut store, &parse(Command::Take, &a).unwrap()).unwrap_err();
            assert!(e.0.contains("calendar windows the client sent"), "{e}");
        }
        // Edges out of order, or spanning more than three windows of 10 years: refused when read.
        assert_eq!(refusal(Command::Take, "t 2 k kb 0 calendar_window 1 0 1000 1000 3500 1"), "ERR ratelimit: bad arguments for calendar_window");
        let a = args("ratelimit.take 2 k3 kb3 0 anchored_window 1000 1 500 1 1700000");
        assert_eq!(run(&mut store, &parse(Command::Take, &a).unwrap()).unwrap(), doubles(&[0.0, 0.8e6]));
    }
}
