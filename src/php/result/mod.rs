//! `RateLimitResult`: one decision as PHP sees it, a final class with eight
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

pub mod headers;
mod style_arg;

use std::sync::{Arc, OnceLock};

use ext_php_rs::boxed::ZBox;
use ext_php_rs::class::RegisteredClass;
use ext_php_rs::convert::IntoZval;
use ext_php_rs::exception::PhpException;
use ext_php_rs::flags::{ClassFlags, DataType};
use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendClassObject, ZendHashTable, ZendObject, ZendStr, Zval};
use ext_php_rs::zend::{ce, ClassEntry};

use crate::error::{Error, Result};
use crate::limiter::decide::compound::Decision;
use crate::limiter::{Outcome, Source};
use crate::php::args::values;
use crate::php::engine::exceptions::in_call;
use crate::php::engine::register::Finish;
use crate::php::engine::zend_api::{self, MAY_BE_BOOL, MAY_BE_DOUBLE, MAY_BE_LONG, MAY_BE_STRING};
use crate::php::result::headers::{header_fields, HeaderValue, Policies};
use crate::php::result::style_arg::StyleArg;

pub const CLASS: &str = "RateLimitResult";

/// The properties, in declaration order, with their types.
const PROPERTIES: [(&str, u32); 8] = [
    ("allowed", MAY_BE_BOOL),
    ("limit", MAY_BE_LONG),
    ("remaining", MAY_BE_LONG),
    ("retryAfter", MAY_BE_DOUBLE),
    ("resetAfter", MAY_BE_DOUBLE),
    ("delay", MAY_BE_DOUBLE),
    ("wouldDeny", MAY_BE_BOOL),
    ("source", MAY_BE_STRING),
];

/// A decision on its way to PHP: becomes a `RateLimitResult` object with its
/// readonly properties set (and, for a compound's, its members' own
/// decisions, which `headers('ietf')` lists one by one).
#[derive(Debug, Clone, PartialEq)]
pub struct RateLimitResult {
    outcome: Outcome,
    policies: Option<Policies>,
}

impl RateLimitResult {
    pub fn new(outcome: Outcome) -> Self {
        RateLimitResult { outcome, policies: None }
    }

    /// A compound's decision; `names`: its members' in the IETF fields.
    pub fn compound(d: Decision, names: &Arc<[String]>) -> Self {
        RateLimitResult { outcome: d.outcome, policies: Some(Policies { names: names.clone(), each: d.members }) }
    }

    pub fn outcome(&self) -> &Outcome {
        &self.outcome
    }
}

impl IntoZval for RateLimitResult {
    const TYPE: DataType = DataType::object(CLASS);
    const NULLABLE: bool = false;

    fn set_zval(self, zv: &mut Zval, persistent: bool) -> ext_php_rs::error::Result<()> {
        let outcome = self.outcome;
        let mut object: ZBox<ZendClassObject<RateLimitResultObject>> =
            ZendClassObject::new(RateLimitResultObject { outcome, policies: self.policies });
        fill(&mut object.std, &outcome);
        object.set_zval(zv, persistent)
    }
}

/// Where the seven properties live in a RateLimitResult, in PROPERTIES order,
/// found once per process: the class is final, so every object has its
/// layout, and looking each name up again cost six hash lookups per result
/// (a consumeMany of 1,000 ids makes 1,000 results).
static OFFSETS: OnceLock<[u32; 8]> = OnceLock::new();

/// Writes the eight properties of a new object.
fn fill(object: &mut ZendObject, o: &Outcome) {
    let at = OFFSETS.get_or_init(|| {
        PROPERTIES.map(|(name, _)| zend_api::property_offset(object.ce, name).expect("RateLimitResult declares its properties at MINIT"))
    });
    // SAFETY: the offsets are RateLimitResult's, and objects of no other class get here;
    // `$source`'s string is one of SOURCE_NAMES, permanent interned strings (see below).
    unsafe {
        zend_api::write_slot(object, at[0], |z| z.set_bool(o.allowed));
        zend_api::write_slot(object, at[1], |z| z.set_long(o.limit));
        zend_api::write_slot(object, at[2], |z| z.set_long(o.remaining));
        zend_api::write_slot(object, at[3], |z| z.set_double(o.retry_after()));
        zend_api::write_slot(object, at[4], |z| z.set_double(o.reset_after()));
        zend_api::write_slot(object, at[5], |z| z.set_double(o.delay()));
        zend_api::write_slot(object, at[6], |z| z.set_bool(o.would_deny));
        zend_api::write_slot(object, at[7], |z| match SOURCE_NAMES.get() {
            // A permanent interned string made at MINIT (`intern_source_names`): never freed,
            // never refcounted (set_zend_string marks the zval interned), shared by threads.
            Some(names) => z.set_zend_string(ZBox::from_raw(names[o.source as usize] as *mut ZendStr)),
            None => {
                let _ = z.set_string(o.source.name(), false);
            }
        });
    }
}

/// The five `$source` values as permanent interned strings, made once at
/// MINIT: a result's `source` is then a pointer written into its slot, with
/// no allocation per result (addresses kept as `usize`, which is `Sync`).
static SOURCE_NAMES: OnceLock<[usize; Source::ALL.len()]> = OnceLock::new();

/// Makes `SOURCE_NAMES`; at MINIT, where the engine's interned strings are permanent.
fn intern_source_names() {
    SOURCE_NAMES.get_or_init(|| Source::ALL.map(|s| ZendStr::new_interned(s.name(), true).into_raw() as usize));
}

#[php_class]
#[php(name = "RateLimitResult")]
#[php(flags = ClassFlags::from_bits_truncate(ClassFlags::Final.bits() | ClassFlags::NoDynamicProperties.bits()))]
#[derive(Clone)]
pub struct RateLimitResultObject {
    outcome: Outcome,
    /// A compound's members, each its own IETF item; `None` for one limiter's
    /// decision and for one built by PHP code.
    policies: Option<Policies>,
}

/// The constructor's parameters, in order.
const PARAMS: [&str; 8] = ["allowed", "limit", "remaining", "retryAfter", "resetAfter", "delay", "wouldDeny", "source"];

/// Seconds: a finite float >= 0 (0.0 when the argument is omitted), kept in
/// whole microseconds as every decision is.
fn micros(param: &str, z: Option<&Zval>) -> Result<i64> {
    seconds(param, z).map(|s| (s * 1e6).round() as i64)
}

fn seconds(param: &str, z: Option<&Zval>) -> Result<f64> {
    let Some(z) = z else { return Ok(0.0) };
    let s = values::float_param(param, z)?;
    if !s.is_finite() {
        return Err(Error::value(param, "must be a finite number of seconds"));
    }
    if s < 0.0 {
        return Err(Error::value(param, "must be greater than or equal to 0"));
    }
    Ok(s)
}

/// The numbers of `new RateLimitResult(...)` after `$allowed`, as given.
struct Given<'a> {
    limit: &'a Zval,
    remaining: &'a Zval,
    retry: Option<&'a Zval>,
    reset: Option<&'a Zval>,
    delay: Option<&'a Zval>,
    would_deny: Option<&'a Zval>,
    source: Option<&'a Zval>,
}

/// What `new RateLimitResult(...)` checks: `$limit` >= 1, `0 <= $remaining <= $limit`,
/// times finite and >= 0, `$wouldDeny` only with `$allowed` (a dry run's
/// answer). Types are read as PHP's coercive mode reads them.
fn outcome_of(allowed: &Zval, given: Given) -> Result<Outcome> {
    let Given { limit, remaining, retry, reset, delay, would_deny, source } = given;
    let source = match source {
        Some(z) => {
            let name = values::string_param("source", z)?;
            std::str::from_utf8(&name)
                .ok()
                .and_then(Source::parse)
                .ok_or_else(|| Error::value("source", "must be one of 'redis', 'memory', 'cache', 'local' or 'on_error'"))?
        }
        None => Source::Redis,
    };
    let allowed = values::bool_param("allowed", allowed)?;
    let would_deny = match would_deny {
        Some(z) => values::bool_param("wouldDeny", z)?,
        None => false,
    };
    if would_deny && !allowed {
        return Err(Error::value("wouldDeny", "must be false when $allowed is false (only a dry run's accepted request would have been denied)"));
    }
    let limit = values::int_param("limit", limit)?;
    if limit < 1 {
        return Err(Error::value("limit", "must be greater than or equal to 1"));
    }
    let remaining = values::int_param("remaining", remaining)?;
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
        would_deny,
        source,
    })
}

#[php_impl]
impl RateLimitResultObject {
    /// A decision built by PHP code, for instance a test double of a limiter.
    #[php(optional = retryAfter)]
    #[allow(clippy::too_many_arguments)] // PHP's constructor: one Rust parameter per PHP one
    pub fn __construct(
        allowed: &Zval,
        limit: &Zval,
        remaining: &Zval,
        retryAfter: Option<&Zval>,
        resetAfter: Option<&Zval>,
        delay: Option<&Zval>,
        wouldDeny: Option<&Zval>,
        source: Option<&Zval>,
    ) -> PhpResult<Self> {
        let given = Given { limit, remaining, retry: retryAfter, reset: resetAfter, delay, would_deny: wouldDeny, source };
        let outcome = outcome_of(allowed, given).map_err(|e| in_call(e, &format!("{CLASS}::__construct"), &PARAMS))?;
        let this = zend_api::this_object(RateLimitResultObject::get_metadata().ce())
            .ok_or_else(|| PhpException::from_message(format!("{CLASS}::__construct() called without an object")))?;
        // `$result->__construct(...)` again: PHP's answer to a second write.
        if zend_api::is_initialized(this, "allowed") {
            return Err(PhpException::new(format!("Cannot modify readonly property {CLASS}::$allowed"), 0, ce::error()));
        }
        fill(this, &outcome);
        Ok(RateLimitResultObject { outcome, policies: None })
    }

    /// The rate-limit header fields of this decision, in `$style`:
    /// `"x"`: `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`
    /// (seconds from now, rounded up); `"ietf"`: `RateLimit-Policy` and `RateLimit`
    /// of draft-ietf-httpapi-ratelimit-headers-09 (a compound's: an item per
    /// member, each its own numbers). Both add `Retry-After` (whole seconds, at
    /// least 1) when denied. See `headers.rs`.
    #[php(defaults(style = "\"x\""))]
    pub fn headers(&self, style: StyleArg) -> PhpResult<ZBox<ZendHashTable>> {
        let style = style.style()?;
        let mut h = ZendHashTable::new();
        for (name, value) in header_fields(&self.outcome, self.policies.as_ref(), style) {
            match value {
                HeaderValue::Int(i) => h.insert(name, i)?,
                HeaderValue::Text(t) => h.insert(name, t)?,
            }
        }
        Ok(h)
    }
}

impl Finish for RateLimitResultObject {
    /// The eight readonly properties, and the constructor's parameter types:
    /// `bool $allowed, int $limit, int $remaining, float $retryAfter = 0.0, ..., bool $wouldDeny = false,
    /// string $source = 'redis'`.
    fn finish(ce: &mut ClassEntry) -> std::result::Result<(), String> {
        intern_source_names();
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
            (MAY_BE_BOOL, Some(c"false")),
            (MAY_BE_STRING, Some(c"'redis'")),
        ];
        for (i, (name, (mask, default))) in PARAMS.iter().zip(types).enumerate() {
            zend_api::set_parameter(ce, "__construct", i, name, mask, default)?;
        }
        // `string $style = 'x'`, not nullable (see `header_style_arg`).
        zend_api::set_parameter(ce, "headers", 0, "style", MAY_BE_STRING, None)
    }
}
