//! Reading PHP values the way PHP's own coercive (non-strict) typing does:
//! an int parameter takes an int, an integral float or a numeric string; a
//! float parameter takes an int, a float or a numeric string; a string
//! parameter takes a string, an int, a float or a `Stringable` object (not
//! under `strict_types`). Anything else is a TypeError.

use std::borrow::Cow;

use ext_php_rs::convert::{FromZval, StubLiteral};
use ext_php_rs::flags::DataType;
use ext_php_rs::types::Zval;

use super::php_value::PhpValue;
use crate::error::{Error, Invalid, Result};

/// PHP's name for the type of a value, as in "string given".
pub fn type_name(z: &Zval) -> String {
    let z = z.dereference();
    match z.get_type() {
        DataType::Null | DataType::Undef => "null".into(),
        DataType::False | DataType::True | DataType::Bool => "bool".into(),
        DataType::Long => "int".into(),
        DataType::Double => "float".into(),
        DataType::String => "string".into(),
        DataType::Array => "array".into(),
        // An anonymous class's name goes on after a NUL byte; PHP shows the part before.
        DataType::Object(_) => {
            z.object().and_then(|o| o.get_class_name().ok()).map_or_else(|| "object".into(), |n| n.split('\0').next().unwrap_or("").to_string())
        }
        _ => "resource".into(),
    }
}

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
        return Ok(Cow::Owned(php_float_string(f).into_bytes()));
    }
    if let Some(s) = super::coercion::stringable(z) {
        return s.map(Cow::Owned);
    }
    Err(wrong_type("string", z))
}

/// A bool parameter read the way PHP's coercive mode reads one: scalars by
/// their truth value, anything else is a TypeError.
pub fn boolean(param: &str, z: &Zval) -> Result<bool> {
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
    Err(Error::type_error(param, format!("must be of type bool, {} given", type_name(z))))
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

/// PHP's string form of a float (precision 17, shortest round trip).
fn php_float_string(f: f64) -> String {
    if f.is_nan() {
        "NAN".into()
    } else if f.is_infinite() {
        if f > 0.0 {
            "INF".into()
        } else {
            "-INF".into()
        }
    } else if f.fract() == 0.0 && f.abs() < 1e15 {
        format!("{}", f as i64)
    } else {
        format!("{f}")
    }
}

/// The `$id` argument of the limiter methods: binary-safe bytes. The engine
/// does not check an internal method's argument types, so a wrong type is
/// kept here and reported by the method, in PHP's words and with its name.
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
    fn from_zval(z: &'a Zval) -> Option<Self> {
        // Under strict_types a `string` parameter takes strings only, as PHP's own do.
        if !z.dereference().is_string() && super::coercion::caller_is_strict() {
            return Some(Id(Err(wrong_type("string", z))));
        }
        Some(Id(bytes_value(z).map(Cow::into_owned)))
    }
}

/// An int argument (`$cost`, `$quantity`) with PHP's coercion; like `Id`, a
/// wrong value is kept for the method to report under the parameter's name.
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
    fn from_zval(z: &'a Zval) -> Option<Self> {
        Some(Int(int_value(z)))
    }
}
