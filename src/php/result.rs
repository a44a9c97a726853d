//! `RateLimitResult`: one decision as PHP sees it. Its properties are
//! getter-only, so a write from PHP throws (ext-php-rs words it "No setter
//! available"), and the class takes no dynamic properties.

use ext_php_rs::boxed::ZBox;
use ext_php_rs::flags::ClassFlags;
use ext_php_rs::prelude::*;
use ext_php_rs::types::ZendHashTable;

use crate::limiter::Outcome;
use crate::php::header_style_arg::StyleArg;
use crate::php::headers::{header_fields, HeaderValue};

#[php_class]
#[php(name = "RateLimitResult")]
#[php(flags = ClassFlags::from_bits_truncate(ClassFlags::Final.bits() | ClassFlags::NoDynamicProperties.bits()))]
pub struct RateLimitResult {
    outcome: Outcome,
}

impl RateLimitResult {
    pub fn new(outcome: Outcome) -> Self {
        RateLimitResult { outcome }
    }
}

#[php_impl]
impl RateLimitResult {
    /// Whether the request was accepted.
    #[php(getter)]
    pub fn get_allowed(&self) -> bool {
        self.outcome.allowed
    }
    /// Requests (units) the policy allows.
    #[php(getter)]
    pub fn get_limit(&self) -> i64 {
        self.outcome.limit
    }
    /// Units left after this call.
    #[php(getter)]
    pub fn get_remaining(&self) -> i64 {
        self.outcome.remaining
    }
    /// Seconds until this request's cost would fit; 0.0 when allowed.
    #[php(getter)]
    pub fn get_retry_after(&self) -> f64 {
        self.outcome.retry_after
    }
    /// Seconds until the key is back to its empty/full state.
    #[php(getter)]
    pub fn get_reset_after(&self) -> f64 {
        self.outcome.reset_after
    }
    /// Leaky bucket: seconds until this accepted request leaks out; else 0.0.
    #[php(getter)]
    pub fn get_delay(&self) -> f64 {
        self.outcome.delay
    }

    /// The rate-limit header fields of this decision, in `$style`:
    /// `"x"`: `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`
    /// (seconds from now, rounded up); `"ietf"`: `RateLimit-Policy` and `RateLimit`
    /// of draft-ietf-httpapi-ratelimit-headers-09. Both add `Retry-After` (whole
    /// seconds, at least 1) when denied. See `headers.rs`.
    #[php(defaults(style = "\"x\""))]
    pub fn headers(&self, style: StyleArg) -> PhpResult<ZBox<ZendHashTable>> {
        let style = style.style()?;
        let mut h = ZendHashTable::new();
        for (name, value) in header_fields(&self.outcome, style) {
            match value {
                HeaderValue::Int(i) => h.insert(name, i)?,
                HeaderValue::Text(t) => h.insert(name, t)?,
            }
        }
        Ok(h)
    }
}
