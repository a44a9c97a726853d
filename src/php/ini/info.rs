//! `php --ri ratelimit` / phpinfo(): a support line, the version and what
//! this build is (the PHP it was built for, the target, the glibc it was
//! linked against, where it was built and from which commit: build.rs's
//! `RL_BUILT_*`, so every .so says it of itself), the ini
//! table the way every PHP extension shows it (Directive / Local Value /
//! Master Value, from the engine's `display_ini_entries()`), the
//! connection pool, the block cache, the leases held and the decision metrics' totals of this process.

use ext_php_rs::zend::ModuleEntry;
use ext_php_rs::{info_table_end, info_table_header, info_table_row, info_table_start};

use crate::php::engine::symbols::display_ini_entries;
use crate::php::ini::settings;
use crate::redis::pool;

/// Called by the engine outside any PHP call: must not panic (it would abort).
/// `module` is the engine's own entry of this module, handed back to it.
#[allow(clippy::not_unsafe_ptr_arg_deref)]
pub extern "C" fn module_info(module: *mut ModuleEntry) {
    let _ = std::panic::catch_unwind(|| {
        info_table_start!();
        info_table_row!("ratelimit support", "enabled");
        info_table_row!("version", env!("CARGO_PKG_VERSION"));
        info_table_row!("build", env!("RL_BUILT_ORIGIN"));
        info_table_row!("commit", env!("RL_BUILT_COMMIT"));
        info_table_row!(
            "built for PHP",
            concat!(
                env!("RL_BUILT_PHP_VERSION"),
                ", API ",
                env!("RL_BUILT_PHP_API"),
                ", ",
                env!("RL_BUILT_PHP_TS"),
                ", ",
                env!("RL_BUILT_PHP_DEBUG")
            )
        );
        info_table_row!("target", env!("RL_BUILT_TARGET"));
        info_table_row!("built against glibc", concat!(env!("RL_BUILT_GLIBC"), " (needs none newer)"));
        info_table_row!("scripts", "fixed window, sliding window (log, blocks), token bucket, leaky bucket, gcra");
        info_table_end!();

        // SAFETY: the engine's own entry of this module, handed back to it.
        unsafe { display_ini_entries(module) };

        let slots = pool::state();
        let stats = pool::stats();
        info_table_start!();
        info_table_header!("Connection pool (this process)", "State");
        info_table_row!("max connections", stats.max_connections.to_string());
        info_table_row!("targets", slots.len().to_string());
        info_table_row!("open connections", slots.iter().map(|s| s.connections).sum::<usize>().to_string());
        info_table_row!("closed by the bound (least recently used)", stats.closed_by_bound.to_string());
        info_table_row!("dropped (no connection, no limiter)", stats.dropped.to_string());
        for s in &slots {
            let path = s.path.map(|p| format!(", decided by {p}")).unwrap_or_default();
            info_table_row!(
                s.target.as_str(),
                format!(
                    "{}, opened {} time(s), {} failure(s){path}; {}",
                    connections(s.connections),
                    s.opened,
                    s.failures,
                    breaker(&s.breaker, s.local_keys)
                )
            );
            // A cluster's masters a call failed to reach: each has its own breaker.
            for (master, b) in &s.masters {
                info_table_row!(format!("{} master {master}", s.target).as_str(), breaker(b, 0));
            }
        }
        info_table_row!("server module", if settings::server_module() { "auto (used where the server has it)" } else { "off (Lua only)" });
        for (name, keys) in crate::backend::memory::targets() {
            info_table_row!(format!("{}{name}", crate::backend::memory::SCHEME).as_str(), format!("in this process's memory, {keys} key(s)"));
        }
        info_table_end!();

        let (entries, hits) = crate::limiter::decide::block_cache::stats();
        info_table_start!();
        info_table_header!("Block cache (this process)", "State");
        info_table_row!("enabled", if settings::block_cache() > 0 { "yes" } else { "no" });
        info_table_row!("entries", entries.to_string());
        info_table_row!("hits", hits.to_string());
        info_table_end!();

        let (units, leases) = crate::limiter::lease::table::held_here();
        info_table_start!();
        info_table_header!("Leases (withLease)", "Units");
        info_table_row!("held by this thread", format!("{units} in {leases} lease(s)"));
        for (name, n) in crate::limiter::lease::counts::NAMES.iter().zip(crate::limiter::lease::counts::totals()) {
            info_table_row!(format!("{name} (this process)").as_str(), n.to_string());
        }
        info_table_end!();

        let counted = crate::metrics::local();
        let totals = crate::metrics::totals(&counted);
        info_table_start!();
        info_table_header!("Decision metrics (this process)", "Total");
        info_table_row!("mode", settings::metrics().name());
        info_table_row!("dry run (ratelimit.dry_run)", if settings::dry_run() { "on" } else { "off" });
        info_table_row!("limiters", counted.len().to_string());
        for (outcome, n) in crate::metrics::OUTCOMES.iter().zip(totals) {
            info_table_row!(*outcome, n.to_string());
        }
        info_table_end!();
    });
}

/// A target's breaker as phpinfo says it: "breaker closed", or "breaker
/// open for 0.412 s more", with its openings and what it holds locally
/// once it has opened.
fn breaker(b: &pool::breaker::BreakerState, local_keys: usize) -> String {
    let state = match b.open_for {
        None => "breaker closed".to_string(),
        Some(s) if s > 0.0 => format!("breaker open for {s:.3} s more"),
        Some(_) => "breaker open, one call trying the target again".to_string(),
    };
    if b.opens == 0 {
        return state;
    }
    let local = if local_keys > 0 { format!(", {local_keys} key(s) decided in this process") } else { String::new() };
    format!("{state} (opened {} time(s), {} call(s) refused{local})", b.opens, b.refused)
}

/// A target's connections as phpinfo says them: "open" for the one a
/// process without threads has, "N open" when threads use more lanes.
fn connections(n: usize) -> String {
    match n {
        0 => "closed".to_string(),
        1 => "open".to_string(),
        n => format!("{n} open (of {} for threads)", crate::redis::pool::multiplex::PLACES),
    }
}
