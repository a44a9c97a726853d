//! The Lua text of every `Script`, loaded once per process and run with
//! EVALSHA (reloaded on NOSCRIPT, after a `SCRIPT FLUSH` or a restart).
//! Scripts that read the clock get `lua/clock.lua` in front of them.

use once_cell::sync::Lazy;

use super::script::LuaScript;
use crate::limiter::Script;

/// `clock_us()`, shared by the scripts that read TIME (Redis scripts cannot include one another).
macro_rules! with_clock {
    ($file:literal) => {
        concat!(include_str!("../../lua/clock.lua"), include_str!($file))
    };
}

static FIXED_WINDOW: Lazy<LuaScript> = Lazy::new(|| LuaScript::new(include_str!("../../lua/fixed_window.lua")));
static SLIDING_LOG: Lazy<LuaScript> = Lazy::new(|| LuaScript::new(with_clock!("../../lua/sliding_log.lua")));
static SLIDING_BLOCKS: Lazy<LuaScript> = Lazy::new(|| LuaScript::new(with_clock!("../../lua/sliding_blocks.lua")));
static TOKEN_BUCKET: Lazy<LuaScript> = Lazy::new(|| LuaScript::new(with_clock!("../../lua/token_bucket.lua")));
static LEAKY_BUCKET: Lazy<LuaScript> = Lazy::new(|| LuaScript::new(with_clock!("../../lua/leaky_bucket.lua")));
static GCRA: Lazy<LuaScript> = Lazy::new(|| LuaScript::new(with_clock!("../../lua/gcra.lua")));

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
