//! `php --ri ratelimit` / phpinfo(): a support line, the version, the ini values
//! in force and the connection pool of this process.

use ext_php_rs::zend::ModuleEntry;
use ext_php_rs::{info_table_end, info_table_header, info_table_row, info_table_start};

use crate::redis::pool;
use crate::settings;

/// Called by the engine outside any PHP call: must not panic (it would abort).
pub extern "C" fn module_info(_module: *mut ModuleEntry) {
    let _ = std::panic::catch_unwind(|| {
        info_table_start!();
        info_table_row!("ratelimit support", "enabled");
        info_table_row!("version", env!("CARGO_PKG_VERSION"));
        info_table_row!("scripts", "fixed window, sliding window (log, blocks), token bucket, leaky bucket, gcra");
        info_table_end!();

        info_table_start!();
        info_table_header!("Directive", "Value in force");
        info_table_row!("ratelimit.redis_url", redact_url(&settings::redis_url()));
        info_table_row!("ratelimit.connect_timeout", format!("{}", settings::connect_timeout().as_secs_f64()));
        info_table_row!("ratelimit.timeout", format!("{}", settings::timeout().as_secs_f64()));
        info_table_row!("ratelimit.on_error", settings::on_error().name());
        // shown_bytes: a NUL byte would make the row's C string panic.
        info_table_row!("ratelimit.key_prefix", crate::redis::redact::shown_bytes(&settings::key_prefix()));
        info_table_end!();

        let slots = pool::state();
        let stats = pool::stats();
        info_table_start!();
        info_table_header!("Connection pool (this process)", "State");
        info_table_row!("max connections", stats.max_connections.to_string());
        info_table_row!("targets", slots.len().to_string());
        info_table_row!("open connections", slots.iter().filter(|s| s.connected).count().to_string());
        info_table_row!("closed by the bound (least recently used)", stats.closed_by_bound.to_string());
        info_table_row!("dropped (no connection, no limiter)", stats.dropped.to_string());
        for s in &slots {
            info_table_row!(
                s.target.as_str(),
                format!("{}, opened {} time(s), {} failure(s)", if s.connected { "open" } else { "closed" }, s.opened, s.failures)
            );
        }
        info_table_end!();
    });
}

fn redact_url(url: &str) -> String {
    crate::redis::target::parse_dsn(url).map(|t| t.to_string()).unwrap_or_else(|_| "(invalid)".into())
}
