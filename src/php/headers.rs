//! HTTP rate-limit headers for one decision, in the styles
//! `RateLimitResult::headers()` offers. Pure Rust: from an `Outcome` and a
//! style to an ordered list of (field name, value), so it is unit-tested
//! without PHP.
//!
//! - `x`: the de-facto `X-RateLimit-Limit`, `X-RateLimit-Remaining`,
//!   `X-RateLimit-Reset` (seconds from now), plus `Retry-After` when denied.
//! - `ietf`: the fields of the IETF httpapi working group's
//!   draft-ietf-httpapi-ratelimit-headers-09 (syntax of -08, kept in -09):
//!   `RateLimit-Policy: "default";q=<limit>` and
//!   `RateLimit: "default";r=<remaining>;t=<seconds until reset>`, both
//!   Structured Field lists of one item named by an sf-string, plus
//!   `Retry-After` when denied. The `w` (window) parameter is optional in the
//!   draft and left out: a decision does not know the policy's window.

use crate::limiter::Outcome;

/// Which set of header fields to produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeaderStyle {
    X,
    Ietf,
}

impl HeaderStyle {
    /// The style named by `headers()`'s `$style` argument; `None` for any other name.
    pub fn parse(name: &str) -> Option<HeaderStyle> {
        match name {
            "x" => Some(HeaderStyle::X),
            "ietf" => Some(HeaderStyle::Ietf),
            _ => None,
        }
    }
}

/// A field value: the `x` style has always given PHP integers, the IETF
/// fields are structured text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeaderValue {
    Int(i64),
    Text(String),
}

/// The policy's name in the IETF fields; one limiter is one policy.
const IETF_POLICY: &str = "default";

/// Whole seconds for HTTP headers, rounded up (a client that waits the
/// rounded-down value would come back too early).
fn ceil_seconds(s: f64) -> i64 {
    s.ceil().max(0.0) as i64
}

/// `Retry-After` is whole seconds and at least 1: a denied client told "0"
/// would retry at once and be denied again.
fn retry_after(o: &Outcome) -> i64 {
    ceil_seconds(o.retry_after()).max(1)
}

/// The header fields for `o` in `style`, in the order they should be sent.
pub fn header_fields(o: &Outcome, style: HeaderStyle) -> Vec<(&'static str, HeaderValue)> {
    let mut fields = match style {
        HeaderStyle::X => vec![
            ("X-RateLimit-Limit", HeaderValue::Int(o.limit)),
            ("X-RateLimit-Remaining", HeaderValue::Int(o.remaining)),
            ("X-RateLimit-Reset", HeaderValue::Int(ceil_seconds(o.reset_after()))),
        ],
        HeaderStyle::Ietf => vec![
            ("RateLimit-Policy", HeaderValue::Text(format!("\"{IETF_POLICY}\";q={}", o.limit))),
            ("RateLimit", HeaderValue::Text(format!("\"{IETF_POLICY}\";r={};t={}", o.remaining.max(0), ceil_seconds(o.reset_after())))),
        ],
    };
    if !o.allowed {
        fields.push(("Retry-After", HeaderValue::Int(retry_after(o))));
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(allowed: bool, limit: i64, remaining: i64, retry_after: f64, reset_after: f64) -> Outcome {
        let us = |s: f64| (s * 1e6).round() as i64;
        Outcome { allowed, limit, remaining, retry_after_us: us(retry_after), reset_after_us: us(reset_after), delay_us: 0, would_deny: false }
    }

    fn text(s: &str) -> HeaderValue {
        HeaderValue::Text(s.to_string())
    }

    #[test]
    fn styles_by_name() {
        assert_eq!(HeaderStyle::parse("x"), Some(HeaderStyle::X));
        assert_eq!(HeaderStyle::parse("ietf"), Some(HeaderStyle::Ietf));
        assert_eq!(HeaderStyle::parse("X"), None);
        assert_eq!(HeaderStyle::parse(""), None);
        assert_eq!(HeaderStyle::parse("draft"), None);
    }

    #[test]
    fn x_style_allowed_has_no_retry_after() {
        let f = header_fields(&outcome(true, 10, 7, 0.0, 42.2), HeaderStyle::X);
        assert_eq!(
            f,
            vec![
                ("X-RateLimit-Limit", HeaderValue::Int(10)),
                ("X-RateLimit-Remaining", HeaderValue::Int(7)),
                ("X-RateLimit-Reset", HeaderValue::Int(43)),
            ]
        );
    }

    #[test]
    fn x_style_denied_adds_retry_after_rounded_up_at_least_one() {
        let f = header_fields(&outcome(false, 10, 0, 0.001, 9.5), HeaderStyle::X);
        assert_eq!(f.len(), 4);
        assert_eq!(f[2], ("X-RateLimit-Reset", HeaderValue::Int(10)));
        assert_eq!(f[3], ("Retry-After", HeaderValue::Int(1)));
        let f = header_fields(&outcome(false, 10, 0, 0.0, 0.0), HeaderStyle::X);
        assert_eq!(f[3], ("Retry-After", HeaderValue::Int(1)));
        let f = header_fields(&outcome(false, 10, 0, 2.0001, 3.0), HeaderStyle::X);
        assert_eq!(f[3], ("Retry-After", HeaderValue::Int(3)));
    }

    #[test]
    fn ietf_style_allowed() {
        let f = header_fields(&outcome(true, 100, 99, 0.0, 59.4), HeaderStyle::Ietf);
        assert_eq!(f, vec![("RateLimit-Policy", text("\"default\";q=100")), ("RateLimit", text("\"default\";r=99;t=60"))]);
    }

    #[test]
    fn ietf_style_denied_adds_retry_after() {
        let f = header_fields(&outcome(false, 5, 0, 12.3, 30.0), HeaderStyle::Ietf);
        assert_eq!(
            f,
            vec![("RateLimit-Policy", text("\"default\";q=5")), ("RateLimit", text("\"default\";r=0;t=30")), ("Retry-After", HeaderValue::Int(13)),]
        );
    }

    #[test]
    fn ietf_reset_of_an_empty_key_is_zero() {
        let f = header_fields(&outcome(true, 3, 3, 0.0, 0.0), HeaderStyle::Ietf);
        assert_eq!(f[1], ("RateLimit", text("\"default\";r=3;t=0")));
    }
}
