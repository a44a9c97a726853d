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
/// helpers, the algorithms, the counters of `ratelimit.metrics = redis`, the lock-outs, the entries).
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
    include_str!("../../lua/algorithms/calendar_window.lua"),
    include_str!("../../lua/metrics.lua"),
    include_str!("../../lua/lockout.lua"),
    include_str!("../../lua/entries.lua"),
    include_str!("../../lua/concurrency.lua"),
);

/// An entry point of `lua/entries.lua` (and `lua/lockout.lua`'s `block`,
/// `lua/concurrency.lua`'s in-flight ones): the same as the server module's
/// commands, one table in core (`Command::entry` names the Lua
/// function, `Command::name` the module's command, with the same arguments
/// after the keys and the same reply; `Command::counted` ones count their
/// decisions in the same call, `lua/metrics.lua`).
pub use ratelimit_core::command::Command as Entry;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_module_command_has_its_lua_entry_point() {
        // The decision entries, in-flight's, and lock-out's `block` beside its helpers.
        let entries =
            concat!(include_str!("../../lua/entries.lua"), include_str!("../../lua/concurrency.lua"), include_str!("../../lua/lockout.lua"));
        for command in Entry::ALL {
            assert!(entries.contains(&format!("register('{}',", command.entry())), "{command:?}");
            // Registered `no-writes` exactly where the command writes nothing.
            let line = entries.lines().find(|l| l.starts_with(&format!("register('{}',", command.entry()))).unwrap();
            assert_eq!(line.ends_with(", true)"), !command.writes(), "{line}");
        }
    }
}
