//! `RateLimitResult`: one decision as PHP sees it. Its properties are
//! getter-only, so a write from PHP throws (ext-php-rs words it "No setter
//! available"), and the class takes no dynamic properties.

use ext_php_rs::boxed::ZBox;
use ext_php_rs::flags::ClassFlags;
use ext_php_rs::prelude::*;
use ext_php_rs::types::ZendHashTable;

use crate::limiter::Outcome;

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

/// Whole seconds for HTTP headers, rounded up.
fn ceil_seconds(s: f64) -> i64 {
    s.ceil().max(0.0) as i64
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
        self.outcome.retry_after()
    }
    /// Seconds until the key is back to its empty/full state.
    #[php(getter)]
    pub fn get_reset_after(&self) -> f64 {
        self.outcome.reset_after()
    }
    /// Leaky bucket: seconds until this accepted request leaks out; else 0.0.
    #[php(getter)]
    pub fn get_delay(&self) -> f64 {
        self.outcome.delay()
    }

    /// `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` (seconds
    /// from now, rounded up) and, when denied, `Retry-After` (whole seconds, at least 1).
    pub fn headers(&self) -> PhpResult<ZBox<ZendHashTable>> {
        let o = &self.outcome;
        let mut h = ZendHashTable::new();
        h.insert("X-RateLimit-Limit", o.limit)?;
        h.insert("X-RateLimit-Remaining", o.remaining)?;
        h.insert("X-RateLimit-Reset", ceil_seconds(o.reset_after()))?;
        if !o.allowed {
            h.insert("Retry-After", ceil_seconds(o.retry_after()).max(1))?;
        }
        Ok(h)
    }
}
