//! The Lua text of every `Script`, put together from `lua/` (Redis scripts
//! cannot include one another): the clock, the algorithm library's
//! conventions, the algorithm(s), then the main part that runs them (one
//! limiter: `single.lua`; several at once: `compound.lua`). Each text is
//! loaded once per server and run with EVALSHA (reloaded on NOSCRIPT).

use once_cell::sync::Lazy;

use super::script::LuaScript;
use crate::limiter::Script;

/// The single-limiter script of `lua/algorithms/<name>.lua`, after `extra` (helpers it needs).
macro_rules! single {
    ($name:literal $(, $extra:literal)*) => {
        concat!(
            include_str!("../../lua/clock.lua"),
            include_str!("../../lua/library.lua"),
            $(include_str!(concat!("../../lua/", $extra)),)*
            include_str!(concat!("../../lua/algorithms/", $name, ".lua")),
            "local ALGO = ALGORITHMS.", $name, "\n",
            include_str!("../../lua/single.lua"),
        )
    };
}

static FIXED_WINDOW: Lazy<LuaScript> = Lazy::new(|| LuaScript::new(single!("fixed_window")));
static SLIDING_LOG: Lazy<LuaScript> = Lazy::new(|| LuaScript::new(single!("sliding_log")));
static SLIDING_BLOCKS: Lazy<LuaScript> = Lazy::new(|| LuaScript::new(single!("sliding_blocks")));
static TOKEN_BUCKET: Lazy<LuaScript> = Lazy::new(|| LuaScript::new(single!("token_bucket", "buckets.lua")));
static LEAKY_BUCKET: Lazy<LuaScript> = Lazy::new(|| LuaScript::new(single!("leaky_bucket", "buckets.lua")));
static GCRA: Lazy<LuaScript> = Lazy::new(|| LuaScript::new(single!("gcra")));
static COMPOUND: Lazy<LuaScript> = Lazy::new(|| {
    LuaScript::new(concat!(
        include_str!("../../lua/clock.lua"),
        include_str!("../../lua/library.lua"),
        include_str!("../../lua/buckets.lua"),
        include_str!("../../lua/algorithms/fixed_window.lua"),
        include_str!("../../lua/algorithms/sliding_log.lua"),
        include_str!("../../lua/algorithms/sliding_blocks.lua"),
        include_str!("../../lua/algorithms/token_bucket.lua"),
        include_str!("../../lua/algorithms/leaky_bucket.lua"),
        include_str!("../../lua/algorithms/gcra.lua"),
        include_str!("../../lua/compound.lua"),
    ))
});

/// The script deciding for one limiter of `script`'s algorithm.
pub fn lua(script: Script) -> &'static LuaScript {
    match script {
        Script::FixedWindow => &FIXED_WINDOW,
        Script::SlidingLog => &SLIDING_LOG,
        Script::SlidingBlocks => &SLIDING_BLOCKS,
        Script::TokenBucket => &TOKEN_BUCKET,
        Script::LeakyBucket => &LEAKY_BUCKET,
        Script::Gcra => &GCRA,
    }
}

/// The script deciding for several limiters at once (`lua/compound.lua`).
pub fn compound() -> &'static LuaScript {
    &COMPOUND
}

/// The name `compound.lua` knows an algorithm by (`ALGORITHMS.<name>`).
pub fn algorithm_name(script: Script) -> &'static str {
    match script {
        Script::FixedWindow => "fixed_window",
        Script::SlidingLog => "sliding_log",
        Script::SlidingBlocks => "sliding_blocks",
        Script::TokenBucket => "token_bucket",
        Script::LeakyBucket => "leaky_bucket",
        Script::Gcra => "gcra",
    }
}
