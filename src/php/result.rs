//! `RateLimitResult`: one decision as PHP sees it, a final class with six
//! `public readonly` typed properties that PHP itself enforces.
//!
//! ext-php-rs cannot declare typed or readonly properties, so the class entry
//! gets them through the Zend API at MINIT (`declare`, via `zend_api`), and
//! every object has them written into its property table when it is made:
//! by `IntoZval for RateLimitResult` when a limiter returns a decision, by the
//! constructor when PHP code builds one (`new RateLimitResult(...)`, for
//! users' own tests). PHP then reads them like any declared property, and a
//! write or unset from PHP throws PHP's own `Error: Cannot modify readonly
//! property RateLimitResult::$allowed`. `clone` copies the Rust decision and
//! the property table.
//!
//! Two Rust types: `RateLimitResult` is the decision on its way to PHP (what
//! limiters return, so no code can hand PHP an object with empty properties);
//! `RateLimitResultObject` is the PHP class itself.
#![allow(non_snake_case)] // PHP parameter names are the Rust names, and PHP's are camelCase

use std::sync::OnceLock;

use ext_php_rs::boxed::ZBox;
use ext_php_rs::class::RegisteredClass;
use ext_php_rs::convert::IntoZval;
use ext_php_rs::exception::PhpException;
use ext_php_rs::flags::{ClassFlags, DataType};
use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendClassObject, ZendHashTable, ZendObject, Zval};
use ext_php_rs::zend::{ce, ClassEntry};

use super::exceptions::in_call;
use super::register::Finish;
use super::values;
use super::zend_api::{self, MAY_BE_BOOL, MAY_BE_DOUBLE, MAY_BE_LONG};
use crate::error::{Error, Result};
use crate::limiter::Outcome;
use crate::php::header_style_arg::StyleArg;
use crate::php::headers::{header_fields, HeaderValue};

pub const CLASS: &str = "RateLimitResult";

/// The properties, in declaration order, with their types.
const PROPERTIES: [(&str, u32); 6] = [
    ("allowed", MAY_BE_BOOL),
    ("limit", MAY_BE_LONG),
    ("remaining", MAY_BE_LONG),
    ("retryAfter", MAY_BE_DOUBLE),
    ("resetAfter", MAY_BE_DOUBLE),
    ("delay", MAY_BE_DOUBLE),
];

/// A decision on its way to PHP: becomes a `RateLimitResult` object with its
/// readonly properties set.
#[derive(Debug, Clone, PartialEq)]
pub struct RateLimitResult(Outcome);

impl RateLimitResult {
    pub fn new(outcome: Outcome) -> Self {
        RateLimitResult(outcome)
    }
}

impl IntoZval for RateLimitResult {
    const TYPE: DataType = DataType::object(CLASS);
    const NULLABLE: bool = false;

    fn set_zval(self, zv: &mut Zval, persistent: bool) -> ext_php_rs::error::Result<()> {
        let mut object: ZBox<ZendClassObject<RateLimitResultObject>> = ZendClassObject::new(RateLimitResultObject { outcome: self.0 });
        let outcome = object.outcome;
        fill(&mut object.std, &outcome);
        object.set_zval(zv, persistent)
    }
}

/// Where the six properties live in a RateLimitResult, in PROPERTIES order,
/// found once per process: the class is final, so every object has its
/// layout, and looking each name up again cost six hash lookups per result
/// (a consumeMany of 1,000 ids makes 1,000 results).
static OFFSETS: OnceLock<[u32; 6]> = OnceLock::new();

/// Writes the six properties of a new object.
fn fill(object: &mut ZendObject, o: &Outcome) {
    let at = OFFSETS.get_or_init(|| {
        PROPERTIES.map(|(name, _)| zend_api::property_offset(object.ce, name).expect("RateLimitResult declares its properties at MINIT"))
    });
    // SAFETY: the offsets are RateLimitResult's, and objects of no other class get here.
    unsafe {
        zend_api::write_slot(object, at[0], |z| z.set_bool(o.allowed));
        zend_api::write_slot(object, at[1], |z| z.set_long(o.limit));
        zend_api::write_slot(object, at[2], |z| z.set_long(o.remaining));
        zend_api::write_slot(object, at[3], |z| z.set_double(o.retry_after()));
        zend_api::write_slot(object, at[4], |z| z.set_double(o.reset_after()));
        zend_api::write_slot(object, at[5], |z| z.set_double(o.delay()));
    }
}

#[php_class]
#[php(name = "RateLimitResult")]
#[php(flags = ClassFlags::from_bits_truncate(ClassFlags::Final.bits() | ClassFlags::NoDynamicProperties.bits()))]
#[derive(Clone)]
pub struct RateLimitResultObject {
    outcome: Outcome,
}

/// The constructor's parameters, in order.
const PARAMS: [&str; 6] = ["allowed", "limit", "remaining", "retryAfter", "resetAfter", "delay"];

/// A bool parameter read the way PHP's coercive mode reads one: scalars by
/// their truth value, anything else is a TypeError.
fn truth(param: &str, z: &Zval) -> Result<bool> {
    let z = z.dereference();
    if let Some(b) = z.bool() {
        return Ok(b);
    }
    if let Some(n) = z.long() {
        return Ok(n != 0);
    }
    if let Some(f) = z.double() {
        return Ok(f != 0.0);
    }
    if let Some(s) = z.zend_str() {
        return Ok(!(s.as_bytes().is_empty() || s.as_bytes() == b"0"));
    }
    Err(Error::type_error(param, format!("must be of type bool, {} given", values::type_name(z))))
}

/// Seconds: a finite float >= 0 (0.0 when the argument is omitted), kept in
/// whole microseconds as every decision is.
fn micros(param: &str, z: Option<&Zval>) -> Result<i64> {
    seconds(param, z).map(|s| (s * 1e6).round() as i64)
}

fn seconds(param: &str, z: Option<&Zval>) -> Result<f64> {
    let Some(z) = z else { return Ok(0.0) };
    let s = values::float(param, z)?;
    if !s.is_finite() {
        return Err(Error::value(param, "must be a finite number of seconds"));
    }
    if s < 0.0 {
        return Err(Error::value(param, "must be greater than or equal to 0"));
    }
    Ok(s)
}

/// What `new RateLimitResult(...)` checks: `$limit` >= 1, `0 <= $remaining <= $limit`,
/// times finite and >= 0. Types are read as PHP's coercive mode reads them.
fn outcome_of(allowed: &Zval, limit: &Zval, remaining: &Zval, retry: Option<&Zval>, reset: Option<&Zval>, delay: Option<&Zval>) -> Result<Outcome> {
    let allowed = truth("allowed", allowed)?;
    let limit = values::int("limit", limit)?;
    if limit < 1 {
        return Err(Error::value("limit", "must be greater than or equal to 1"));
    }
    let remaining = values::int("remaining", remaining)?;
    if !(0..=limit).contains(&remaining) {
        return Err(Error::value("remaining", format!("must be between 0 and $limit ({limit}), {remaining} given")));
    }
    Ok(Outcome {
        allowed,
        limit,
        remaining,
        retry_after_us: micros("retryAfter", retry)?,
        reset_after_us: micros("resetAfter", reset)?,
        delay_us: micros("delay", delay)?,
    })
}

#[php_impl]
impl RateLimitResultObject {
    /// A decision built by PHP code, for instance a test double of a limiter.
    #[php(optional = retryAfter)]
    pub fn __construct(
        allowed: &Zval,
        limit: &Zval,
        remaining: &Zval,
        retryAfter: Option<&Zval>,
        resetAfter: Option<&Zval>,
        delay: Option<&Zval>,
    ) -> PhpResult<Self> {
        let outcome = outcome_of(allowed, limit, remaining, retryAfter, resetAfter, delay)
            .map_err(|e| in_call(e, &format!("{CLASS}::__construct"), &PARAMS))?;
        let this = zend_api::this_object(RateLimitResultObject::get_metadata().ce())
            .ok_or_else(|| PhpException::from_message(format!("{CLASS}::__construct() called without an object")))?;
        // `$result->__construct(...)` again: PHP's answer to a second write.
        if zend_api::is_initialized(this, "allowed") {
            return Err(PhpException::new(format!("Cannot modify readonly property {CLASS}::$allowed"), 0, ce::error()));
        }
        fill(this, &outcome);
        Ok(RateLimitResultObject { outcome })
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

impl Finish for RateLimitResultObject {
    /// The six readonly properties, and the constructor's parameter types:
    /// `bool $allowed, int $limit, int $remaining, float $retryAfter = 0.0, ...`.
    fn finish(ce: &mut ClassEntry) -> std::result::Result<(), String> {
        for (name, mask) in PROPERTIES {
            zend_api::declare_readonly(ce, name, mask)?;
        }
        let types = [
            (MAY_BE_BOOL, None),
            (MAY_BE_LONG, None),
            (MAY_BE_LONG, None),
            (MAY_BE_DOUBLE, Some(c"0.0")),
            (MAY_BE_DOUBLE, Some(c"0.0")),
            (MAY_BE_DOUBLE, Some(c"0.0")),
        ];
        for (i, (name, (mask, default))) in PARAMS.iter().zip(types).enumerate() {
            zend_api::set_parameter(ce, "__construct", i, name, mask, default)?;
        }
        Ok(())
    }
}
