//! The Lua library every decision runs, put together from `lua/` (Lua code in
//! Redis cannot include other files): the clock, the algorithm library, the
//! algorithms, then the entry points (`lua/entries.lua`).
//!
//! It is loaded once per server as a Redis Function library and called with
//! FCALL: the helpers and algorithm tables are built at load, not on every
//! call as an EVAL script's would be. The library's name and its functions'
//! names carry a hash of its text, so processes running two versions of the
//! extension against one Redis never replace each other's code. A Redis
//! without functions (< 7) runs the same text as one EVALSHA script, the
//! entry's name in ARGV[1].

use once_cell::sync::Lazy;

/// The library without its wrapper: what both forms share (the clock, the
/// helpers, the algorithms, the counters of `ratelimit.metrics = redis`, the entries).
const BODY: &str = concat!(
    include_str!("../../lua/clock.lua"),
    include_str!("../../lua/library.lua"),
    include_str!("../../lua/buckets.lua"),
    include_str!("../../lua/algorithms/fixed_window.lua"),
    include_str!("../../lua/algorithms/sliding_log.lua"),
    include_str!("../../lua/algorithms/sliding_blocks.lua"),
    include_str!("../../lua/algorithms/token_bucket.lua"),
    include_str!("../../lua/algorithms/leaky_bucket.lua"),
    include_str!("../../lua/algorithms/gcra.lua"),
    include_str!("../../lua/metrics.lua"),
    include_str!("../../lua/entries.lua"),
);

/// An entry point of `lua/entries.lua`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// One limiter, one key: decide and take.
    Take,
    /// One limiter, one key: decide, write nothing.
    Peek,
    /// One limiter, many keys of one slot, in order (consumeMany).
    TakeMany,
    /// A fixed window's cost-1 hit per key of one slot, in order (consumeMany).
    HitMany,
    /// Every member of a compound limiter, all or nothing.
    Compound,
    /// `Compound`, writing nothing.
    CompoundPeek,
    /// `Take`, `TakeMany` and `Compound` with their decisions counted in the
    /// same call (`ratelimit.metrics = redis`, `lua/metrics.lua`): the
    /// counters' base key after the keys, three counting arguments before the
    /// entry's own.
    TakeCounted,
    TakeManyCounted,
    CompoundCounted,
}

impl Entry {
    pub fn name(self) -> &'static str {
        match self {
            Entry::Take => "take",
            Entry::Peek => "peek",
            Entry::TakeMany => "take_many",
            Entry::HitMany => "hit_many",
            Entry::Compound => "compound",
            Entry::CompoundPeek => "compound_peek",
            Entry::TakeCounted => "take_counted",
            Entry::TakeManyCounted => "take_many_counted",
            Entry::CompoundCounted => "compound_counted",
        }
    }

    /// The server module's command for this entry (`module/src/commands.rs`:
    /// the same arguments after the keys, the same reply).
    pub fn module_command(self) -> &'static str {
        match self {
            Entry::Take => "RATELIMIT.TAKE",
            Entry::Peek => "RATELIMIT.PEEK",
            Entry::TakeMany => "RATELIMIT.TAKE_MANY",
            Entry::HitMany => "RATELIMIT.HIT_MANY",
            Entry::Compound => "RATELIMIT.COMPOUND",
            Entry::CompoundPeek => "RATELIMIT.COMPOUND_PEEK",
            Entry::TakeCounted => "RATELIMIT.TAKE_COUNTED",
            Entry::TakeManyCounted => "RATELIMIT.TAKE_MANY_COUNTED",
            Entry::CompoundCounted => "RATELIMIT.COMPOUND_COUNTED",
        }
    }

    /// False for the peeks: registered `no-writes` (`lua/as_function.lua`),
    /// called with FCALL_RO.
    pub fn writes(self) -> bool {
        !matches!(self, Entry::Peek | Entry::CompoundPeek)
    }
}

/// The library's two forms and the names to call it by.
pub struct Library {
    /// `FUNCTION LOAD` text.
    pub function_text: String,
    /// `ratelimit_<hash>_`: every function's name starts with it.
    pub function_prefix: String,
    /// `SCRIPT LOAD` text, and its SHA1 for EVALSHA.
    pub script_text: String,
    pub script_sha: String,
}

pub static LIBRARY: Lazy<Library> = Lazy::new(|| {
    let hash = ::redis::Script::new(BODY).get_hash()[..12].to_string();
    let function_prefix = format!("ratelimit_{hash}_");
    let function_text =
        format!("#!lua name=ratelimit_{hash}\nlocal PREFIX = '{function_prefix}'\n{}{BODY}", include_str!("../../lua/as_function.lua"));
    let script_text = format!("{}{BODY}{}", include_str!("../../lua/as_script.lua"), include_str!("../../lua/as_script_end.lua"));
    let script_sha = ::redis::Script::new(&script_text).get_hash().to_string();
    Library { function_text, function_prefix, script_text, script_sha }
});
