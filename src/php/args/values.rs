//! Reading PHP values. A parameter (`int_param`, `float_param`,
//! `bool_param`, `string_param`, `Id`, `Int`) follows PHP's own rules for its
//! declared type, strict or coercive as the caller declared (`coercion`).
//! A value inside an array (a connection array's port, an id of
//! `consumeMany()`) has no declared type: `int`, `float` and `bytes` read it
//! as coercive mode would a parameter, without the engine's deprecations.

use std::borrow::Cow;

use ext_php_rs::convert::{FromZval, StubLiteral};
use ext_php_rs::flags::DataType;
use ext_php_rs::types::Zval;

use crate::error::{Invalid, Result};
use crate::php::args::coercion::{coerce, Coerced, Scalar};
use crate::php::args::php_value::PhpValue;

fn wrong_type<V: PhpValue + ?Sized>(expected: &str, z: &V) -> Invalid {
    Invalid::type_error(format!("must be of type {expected}, {} given", z.type_name()))
}

fn numeric_str<V: PhpValue + ?Sized>(z: &V) -> Option<f64> {
    let s = z.str()?.trim_matches(|c: char| c.is_ascii_whitespace());
    if s.is_empty() || s.bytes().any(|b| !(b.is_ascii_digit() || b"+-.eE".contains(&b))) {
        return None;
    }
    s.parse::<f64>().ok()
}

/// An int parameter's value; the error does not know the parameter's name yet.
fn int_value<V: PhpValue + ?Sized>(z: &V) -> std::result::Result<i64, Invalid> {
    let z = z.dereference();
    if let Some(n) = z.long() {
        return Ok(n);
    }
    let f = z.double().or_else(|| numeric_str(z)).ok_or_else(|| wrong_type("int", z))?;
    if f.is_finite() && f.fract() == 0.0 && f.abs() < 9.2e18 {
        Ok(f as i64)
    } else if !f.is_finite() || f.abs() >= 9.2e18 {
        Err(Invalid::value("must be a finite integer"))
    } else {
        Err(Invalid::value(format!("must be a whole number, {f} given")))
    }
}

fn bytes_value(z: &Zval) -> std::result::Result<Cow<'_, [u8]>, Invalid> {
    let z = z.dereference();
    if let Some(s) = z.zend_str() {
        return Ok(Cow::Borrowed(s.as_bytes()));
    }
    if let Some(n) = z.long() {
        return Ok(Cow::Owned(n.to_string().into_bytes()));
    }
    if let Some(f) = z.double() {
        return Ok(Cow::Owned(crate::php::args::coercion::float_string(f)));
    }
    // A `Stringable` object, through `__toString()`, where a string parameter would take one.
    if z.object().is_some_and(|o| o.instance_of(ext_php_rs::zend::ce::stringable())) && !crate::php::args::coercion::caller_is_strict() {
        return coerce(Scalar::String, z).map(|c| match c {
            Coerced::String(s) => Cow::Owned(s),
            _ => Cow::Borrowed(&b""[..]),
        });
    }
    Err(wrong_type("string", z))
}

/// A bool parameter, by PHP's rules for the caller's mode.
pub fn bool_param(param: &str, z: &Zval) -> Result<bool> {
    match coerce(Scalar::Bool, z).map_err(|e| e.of(param))? {
        Coerced::Bool(b) => Ok(b),
        _ => unreachable!("coerce answers the type asked for"),
    }
}

/// An int parameter, by PHP's rules for the caller's mode.
pub fn int_param(param: &str, z: &Zval) -> Result<i64> {
    int_arg(z).map_err(|e| e.of(param))
}

fn int_arg(z: &Zval) -> std::result::Result<i64, Invalid> {
    match coerce(Scalar::Int, z)? {
        Coerced::Int(n) => Ok(n),
        _ => unreachable!("coerce answers the type asked for"),
    }
}

/// A float parameter, by PHP's rules for the caller's mode.
pub fn float_param(param: &str, z: &Zval) -> Result<f64> {
    match coerce(Scalar::Float, z).map_err(|e| e.of(param))? {
        Coerced::Float(f) => Ok(f),
        _ => unreachable!("coerce answers the type asked for"),
    }
}

/// A string parameter, by PHP's rules for the caller's mode.
pub fn string_param(param: &str, z: &Zval) -> Result<Vec<u8>> {
    string_arg(z).map_err(|e| e.of(param))
}

fn string_arg(z: &Zval) -> std::result::Result<Vec<u8>, Invalid> {
    match coerce(Scalar::String, z)? {
        Coerced::String(s) => Ok(s),
        _ => unreachable!("coerce answers the type asked for"),
    }
}

pub fn int<V: PhpValue + ?Sized>(param: &str, z: &V) -> Result<i64> {
    int_value(z).map_err(|e| e.of(param))
}

pub fn float<V: PhpValue + ?Sized>(param: &str, z: &V) -> Result<f64> {
    let z = z.dereference();
    z.double().or_else(|| z.long().map(|n| n as f64)).or_else(|| numeric_str(z)).ok_or_else(|| wrong_type("float", z).of(param))
}

pub fn bytes<'a>(param: &str, z: &'a Zval) -> Result<Cow<'a, [u8]>> {
    bytes_value(z).map_err(|e| e.of(param))
}

/// The `$id` argument of the limiter methods: binary-safe bytes. The engine
/// does not check an internal method's argument types, so a wrong type is
/// kept here and reported by the method, in PHP's words and with its name.
///
/// `NULLABLE` for the binding only: ext-php-rs refuses a null for a
/// non-nullable parameter with a default before we see it, where PHP's own
/// functions take it in coercive mode (a deprecation, then `""` or `0`) and
/// refuse it in strict mode; `coerce` does exactly that. The parameter
/// Reflection shows is not nullable (`interface::declare_parameters`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Id(std::result::Result<Vec<u8>, Invalid>);

impl Id {
    pub fn bytes(self) -> Result<Vec<u8>> {
        self.0.map_err(|e| e.of("id"))
    }
}

impl From<&str> for Id {
    fn from(s: &str) -> Self {
        Id(Ok(s.as_bytes().to_vec()))
    }
}

impl StubLiteral for Id {
    fn stub_literal(&self) -> String {
        let s = self.0.as_deref().map(String::from_utf8_lossy).unwrap_or_default();
        format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
    }
}

impl<'a> FromZval<'a> for Id {
    const TYPE: DataType = DataType::String;
    const NULLABLE: bool = true;
    fn from_zval(z: &'a Zval) -> Option<Self> {
        Some(Id(string_arg(z)))
    }
    /// Every method declares `$id = ''`, which the binding uses instead.
    fn from_missing() -> Option<Self> {
        Some(Id::from(""))
    }
}

/// An int argument (`$cost`, `$quantity`) with PHP's coercion; like `Id`, a
/// wrong value is kept for the method to report under the parameter's name,
/// and a null reaches `coerce` (`NULLABLE` for the binding only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Int(std::result::Result<i64, Invalid>);

impl Int {
    pub fn value(self, param: &str) -> Result<i64> {
        self.0.map_err(|e| e.of(param))
    }
}

impl From<i64> for Int {
    fn from(n: i64) -> Self {
        Int(Ok(n))
    }
}

impl StubLiteral for Int {
    fn stub_literal(&self) -> String {
        self.0.as_ref().map(i64::to_string).unwrap_or_default()
    }
}

impl<'a> FromZval<'a> for Int {
    const TYPE: DataType = DataType::Long;
    const NULLABLE: bool = true;
    fn from_zval(z: &'a Zval) -> Option<Self> {
        Some(Int(int_arg(z)))
    }
    /// Every method declares `$cost = 1` (`$quantity = 1`), which the binding uses instead.
    fn from_missing() -> Option<Self> {
        Some(Int::from(1))
    }
}
