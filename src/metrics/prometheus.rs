//! `RateLimitMetrics::prometheus()`: counts as Prometheus text exposition
//! format (version 0.0.4), one family per line group, limiters in byte order.
//!
//! `local()`'s counts only grow in a process, so they are counters:
//!   ratelimit_decisions_total{limiter, outcome}     outcome allowed | denied |
//!                                                   would_deny | error: every
//!                                                   consume is exactly one of them
//!   ratelimit_on_error_answers_total{limiter}       errors answered by on_error
//!   ratelimit_block_cache_answers_total{limiter}    denials (or would-denies)
//!                                                   answered from the block cache
//! `fleet()`'s are the last minutes' (they rise and fall), so they are gauges,
//! named `ratelimit_recent_*` without `_total`, with a `minutes` label.

use std::fmt::Write;

use crate::metrics::{Table, ALLOWED, BLOCK_CACHE, DENIED, ERRORS, ON_ERROR, WOULD_DENY};

/// The `outcome` label of each decision outcome (`OUTCOMES` indexes).
const DECISIONS: [(usize, &str); 4] = [(ALLOWED, "allowed"), (DENIED, "denied"), (WOULD_DENY, "would_deny"), (ERRORS, "error")];

/// A label value: `\`, `"` and newlines escaped; bytes that are not UTF-8
/// become U+FFFD (label values are UTF-8).
fn label(value: &[u8]) -> String {
    let text = String::from_utf8_lossy(value);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

/// The text for `table`: counters (`minutes` = 0, `local()`), or the gauges
/// of the last `minutes` minutes (`fleet()`).
pub fn render(table: &Table, minutes: i64) -> String {
    let (prefix, suffix, kind, window) = if minutes > 0 {
        ("ratelimit_recent_", "", "gauge", format!(",minutes=\"{minutes}\""))
    } else {
        ("ratelimit_", "_total", "counter", String::new())
    };
    let span = if minutes > 0 { format!(" in the last {minutes} minute(s), fleet-wide") } else { " in this process".to_string() };
    let mut out = String::new();
    let mut family = |name: &str, help: &str, samples: &mut dyn Iterator<Item = (String, u64)>| {
        let _ = writeln!(out, "# HELP {prefix}{name}{suffix} {help}{span}.");
        let _ = writeln!(out, "# TYPE {prefix}{name}{suffix} {kind}");
        for (labels, value) in samples {
            let _ = writeln!(out, "{prefix}{name}{suffix}{{{labels}{window}}} {value}");
        }
    };
    family(
        "decisions",
        "Rate-limit decisions by limiter (key prefix) and outcome",
        &mut table.iter().flat_map(|(name, c)| DECISIONS.iter().map(move |&(i, o)| (format!("limiter=\"{}\",outcome=\"{o}\"", label(name)), c[i]))),
    );
    family(
        "on_error_answers",
        "Redis failures answered by ratelimit.on_error instead of an exception",
        &mut table.iter().map(|(name, c)| (format!("limiter=\"{}\"", label(name)), c[ON_ERROR])),
    );
    family(
        "block_cache_answers",
        "Denials answered from the block cache without a round trip",
        &mut table.iter().map(|(name, c)| (format!("limiter=\"{}\"", label(name)), c[BLOCK_CACHE])),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_and_gauges() {
        let mut t = Table::new();
        t.insert(b"api".to_vec(), [5, 1, 0, 2, 1, 1]);
        t.insert(b"a\"b\\c\nd\xff".to_vec(), [1, 0, 0, 0, 0, 0]);
        let text = render(&t, 0);
        assert!(text.contains("# TYPE ratelimit_decisions_total counter\n"));
        assert!(text.contains("ratelimit_decisions_total{limiter=\"api\",outcome=\"error\"} 2\n"));
        assert!(text.contains("ratelimit_on_error_answers_total{limiter=\"api\"} 1\n"));
        assert!(text.contains("limiter=\"a\\\"b\\\\c\\nd\u{fffd}\""), "{text}");
        let recent = render(&t, 5);
        assert!(recent.contains("# TYPE ratelimit_recent_decisions gauge\n"));
        assert!(recent.contains("ratelimit_recent_decisions{limiter=\"api\",outcome=\"allowed\",minutes=\"5\"} 5\n"));
        assert!(render(&Table::new(), 0).lines().all(|l| l.starts_with('#')), "no limiter: the families' HELP and TYPE only");
    }
}
