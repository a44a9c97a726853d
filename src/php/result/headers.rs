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
//!   A compound's decision lists one item per member, in member order, each
//!   with that member's own q, r and t (`Policies`), as the draft lets one
//!   response carry several policies: `RateLimit-Policy: "0";q=3, "1";q=10`.
//!   The combined numbers (the `x` style's, the result's properties) mix
//!   members (q and r of one, t of another): no real policy has them.

use std::sync::Arc;

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

/// A compound's decision as the IETF fields show it: one policy per member.
#[derive(Debug, Clone, PartialEq)]
pub struct Policies {
    /// The members' names (`policy_names`), shared by every result of one compound.
    pub names: Arc<[String]>,
    /// Each member's own decision, in member order.
    pub each: Vec<Outcome>,
}

/// Whether `name` can be an sf-string (RFC 8941 3.3.3: printable ASCII).
fn sf_printable(name: &[u8]) -> bool {
    name.iter().all(|b| (0x20..=0x7e).contains(b))
}

/// The policy names of a compound's members, from their keys in the
/// `$limiters` array (an integer key in decimal): `"0"`, `"1"`, … for a
/// list, the developer's own labels for `['second' => …, 'minute' => …]`.
/// Not the members' key prefixes: those may carry a client's identity (the
/// Laravel drop-in's are its limiter keys, often a user id or an IP), which
/// a response must not echo, and they would name one policy differently for
/// every client. Array keys are unique, so the names are; when any key
/// cannot be an sf-string (bytes outside printable ASCII), every member is
/// named by its 0-based position instead, so the names stay unique.
pub fn policy_names(keys: Vec<Vec<u8>>) -> Arc<[String]> {
    let mut sorted: Vec<&Vec<u8>> = keys.iter().collect();
    sorted.sort_unstable();
    let unique = sorted.windows(2).all(|w| w[0] != w[1]);
    if unique && keys.iter().all(|k| sf_printable(k)) {
        keys.into_iter().map(|k| String::from_utf8_lossy(&k).into_owned()).collect()
    } else {
        (0..keys.len()).map(|i| i.to_string()).collect()
    }
}

/// `name` as an sf-string: quoted, with `"` and `\` escaped.
fn sf_string(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 2);
    out.push('"');
    for c in name.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// The IETF fields' values: `RateLimit-Policy`'s and `RateLimit`'s lists,
/// an item per policy.
fn ietf_lists(o: &Outcome, policies: Option<&Policies>) -> (String, String) {
    let items: Vec<(String, &Outcome)> = match policies {
        Some(p) => p.names.iter().map(|n| sf_string(n)).zip(&p.each).collect(),
        None => vec![(sf_string(IETF_POLICY), o)],
    };
    let policy: Vec<String> = items.iter().map(|(name, m)| format!("{name};q={}", m.limit)).collect();
    let rate: Vec<String> = items.iter().map(|(name, m)| format!("{name};r={};t={}", m.remaining.max(0), ceil_seconds(m.reset_after()))).collect();
    (policy.join(", "), rate.join(", "))
}

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

/// The header fields for `o` in `style`, in the order they should be sent;
/// `policies`: a compound's members, each its own IETF item.
pub fn header_fields(o: &Outcome, policies: Option<&Policies>, style: HeaderStyle) -> Vec<(&'static str, HeaderValue)> {
    let mut fields = match style {
        HeaderStyle::X => vec![
            ("X-RateLimit-Limit", HeaderValue::Int(o.limit)),
            ("X-RateLimit-Remaining", HeaderValue::Int(o.remaining)),
            ("X-RateLimit-Reset", HeaderValue::Int(ceil_seconds(o.reset_after()))),
        ],
        HeaderStyle::Ietf => {
            let (policy, rate) = ietf_lists(o, policies);
            vec![("RateLimit-Policy", HeaderValue::Text(policy)), ("RateLimit", HeaderValue::Text(rate))]
        }
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
        Outcome {
            allowed,
            limit,
            remaining,
            retry_after_us: us(retry_after),
            reset_after_us: us(reset_after),
            delay_us: 0,
            would_deny: false,
            source: crate::limiter::Source::Redis,
        }
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
        let f = header_fields(&outcome(true, 10, 7, 0.0, 42.2), None, HeaderStyle::X);
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
        let f = header_fields(&outcome(false, 10, 0, 0.001, 9.5), None, HeaderStyle::X);
        assert_eq!(f.len(), 4);
        assert_eq!(f[2], ("X-RateLimit-Reset", HeaderValue::Int(10)));
        assert_eq!(f[3], ("Retry-After", HeaderValue::Int(1)));
        let f = header_fields(&outcome(false, 10, 0, 0.0, 0.0), None, HeaderStyle::X);
        assert_eq!(f[3], ("Retry-After", HeaderValue::Int(1)));
        let f = header_fields(&outcome(false, 10, 0, 2.0001, 3.0), None, HeaderStyle::X);
        assert_eq!(f[3], ("Retry-After", HeaderValue::Int(3)));
    }

    #[test]
    fn ietf_style_allowed() {
        let f = header_fields(&outcome(true, 100, 99, 0.0, 59.4), None, HeaderStyle::Ietf);
        assert_eq!(f, vec![("RateLimit-Policy", text("\"default\";q=100")), ("RateLimit", text("\"default\";r=99;t=60"))]);
    }

    #[test]
    fn ietf_style_denied_adds_retry_after() {
        let f = header_fields(&outcome(false, 5, 0, 12.3, 30.0), None, HeaderStyle::Ietf);
        assert_eq!(
            f,
            vec![("RateLimit-Policy", text("\"default\";q=5")), ("RateLimit", text("\"default\";r=0;t=30")), ("Retry-After", HeaderValue::Int(13)),]
        );
    }

    #[test]
    fn ietf_reset_of_an_empty_key_is_zero() {
        let f = header_fields(&outcome(true, 3, 3, 0.0, 0.0), None, HeaderStyle::Ietf);
        assert_eq!(f[1], ("RateLimit", text("\"default\";r=3;t=0")));
    }

    fn names(keys: &[&[u8]]) -> Vec<String> {
        policy_names(keys.iter().map(|k| k.to_vec()).collect()).to_vec()
    }

    #[test]
    fn a_compound_lists_every_member_with_its_own_numbers() {
        // 3 per second (denies, 1 s to its reset) and 10 per minute (7 left, 58.2 s): the
        // combined outcome mixes them (q and r of one, t of the other); the items do not.
        let second = outcome(false, 3, 0, 0.4, 0.4);
        let minute = outcome(true, 10, 7, 0.0, 58.2);
        let combined = outcome(false, 3, 0, 0.4, 58.2);
        let p = Policies { names: policy_names(vec![b"0".to_vec(), b"1".to_vec()]), each: vec![second, minute] };
        assert_eq!(
            header_fields(&combined, Some(&p), HeaderStyle::Ietf),
            vec![
                ("RateLimit-Policy", text("\"0\";q=3, \"1\";q=10")),
                ("RateLimit", text("\"0\";r=0;t=1, \"1\";r=7;t=59")),
                ("Retry-After", HeaderValue::Int(1)),
            ]
        );
        // Allowed: no Retry-After; the x style stays the combined one.
        let allowed = Outcome { allowed: true, retry_after_us: 0, ..combined };
        assert_eq!(header_fields(&allowed, Some(&p), HeaderStyle::Ietf).len(), 2);
        assert_eq!(header_fields(&allowed, Some(&p), HeaderStyle::X), header_fields(&allowed, None, HeaderStyle::X));
    }

    #[test]
    fn one_member_is_one_item_under_its_name() {
        let p = Policies { names: policy_names(vec![b"api".to_vec()]), each: vec![outcome(true, 5, 4, 0.0, 10.0)] };
        let f = header_fields(&p.each[0], Some(&p), HeaderStyle::Ietf);
        assert_eq!(f, vec![("RateLimit-Policy", text("\"api\";q=5")), ("RateLimit", text("\"api\";r=4;t=10"))]);
    }

    #[test]
    fn names_are_the_array_keys_as_sf_strings() {
        assert_eq!(names(&[b"0", b"1", b"2"]), ["0", "1", "2"]);
        assert_eq!(names(&[b"per second", b"per-minute", b"7"]), ["per second", "per-minute", "7"]);
        let p = Policies { names: policy_names(vec![b"a\"b".to_vec(), b"c\\d".to_vec()]), each: vec![outcome(true, 1, 1, 0.0, 0.0); 2] };
        let f = header_fields(&p.each[0], Some(&p), HeaderStyle::Ietf);
        assert_eq!(f[0], ("RateLimit-Policy", text(r#""a\"b";q=1, "c\\d";q=1"#)));
        // A key that cannot be an sf-string: every member by its position, so none collide.
        assert_eq!(names(&[b"1", "d\u{e9}bit".as_bytes()]), ["0", "1"]);
        assert_eq!(names(&[b"tab\there", b"x"]), ["0", "1"]);
        assert_eq!(names(&[b"x", b"x"]), ["0", "1"], "never two items of one name");
    }
}
