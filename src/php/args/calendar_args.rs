//! The arguments of `FixedWindowRateLimiter::withAnchor()` and
//! `withCalendar()`: an anchor (Unix seconds as an int or a float, or a
//! `DateTimeInterface`) in whole ms, and a calendar unit and time zone.

use ext_php_rs::types::Zval;
use ext_php_rs::zend::ClassEntry;

use crate::error::{Error, Invalid, Kind, Result};
use crate::limiter::algorithms::calendar::Calendar;
use crate::limiter::decide::instance::Windows;
use crate::php::args::php_value::PhpValue;
use crate::php::args::values::{float_param, string_param};

/// `$anchor` in ms since the Unix epoch (rounded down to the ms).
pub fn anchor_ms(z: &Zval) -> Result<i64> {
    let seconds = match z.object() {
        Some(object) => {
            let is_date = ClassEntry::try_find("DateTimeInterface").is_some_and(|ce| object.instance_of(ce));
            if !is_date {
                let class = object.get_class_name().unwrap_or_default();
                return Err(Error::type_error("anchor", format!("must be of type DateTimeInterface|int|float, {class} given")));
            }
            // 'U.u': seconds and microseconds, exactly, whatever the object's time zone.
            let text = object.try_call_method("format", vec![&"U.u"]).ok().and_then(|v| v.string());
            text.and_then(|t| t.parse::<f64>().ok()).ok_or_else(|| Error::value("anchor", "could not be read as an instant"))?
        }
        // PHP's rules for a float (an int, a numeric string in coercive
        // mode), the union named in a TypeError.
        None => float_param("anchor", z).map_err(|e| match e {
            Error::Param { invalid: Invalid { kind: Kind::Type, .. }, .. } => {
                Error::type_error("anchor", format!("must be of type DateTimeInterface|int|float, {} given", z.type_name()))
            }
            other => other,
        })?,
    };
    if !seconds.is_finite() {
        return Err(Error::value("anchor", "must be a finite number of seconds"));
    }
    Ok((seconds * 1000.0).floor() as i64)
}

/// `$unit` and `$timeZone` ('UTC' when left out).
pub fn calendar(unit: &Zval, zone: Option<&Zval>) -> Result<Windows> {
    let unit = string_param("unit", unit)?;
    let zone = zone.map(|z| string_param("timeZone", z)).transpose()?.unwrap_or_else(|| b"UTC".to_vec());
    let text = |b: Vec<u8>, param: &str| String::from_utf8(b).map_err(|_| Error::value(param, "must be UTF-8"));
    Ok(Windows::Calendar(Calendar::new(&text(unit, "unit")?, &text(zone, "timeZone")?)?))
}
