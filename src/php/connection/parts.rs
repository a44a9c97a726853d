//! What the forms of `$connection` share: timeouts given in seconds,
//! phpredis's `auth` value, and reading a phpredis object by calling its
//! methods. `connection` (every form) and `phpredis_cluster` (a
//! `RedisCluster` object) both use them.

use std::time::Duration;

use ext_php_rs::convert::IntoZvalDyn;
use ext_php_rs::types::Zval;

use crate::error::{Error, Result};
use crate::php::args::php_value::{PhpArray, PhpValue};
use crate::php::args::values;
use crate::redis::target::Target;

/// Timeouts the connection argument asked for; the ini settings fill the rest.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TimeoutOverrides {
    pub connect: Option<Duration>,
    pub reply: Option<Duration>,
}

pub fn seconds<V: PhpValue + ?Sized>(param: &str, z: &V) -> Result<Option<Duration>> {
    if z.dereference().is_null() {
        return Ok(None);
    }
    let s = values::float(param, z)?;
    if !s.is_finite() || s < 0.0 {
        return Err(Error::value(param, "must be a finite number of seconds >= 0"));
    }
    // phpredis uses 0 for "no timeout": we keep the ini value instead of waiting forever.
    Ok((s > 0.0).then(|| Duration::from_micros((s * 1e6).round().max(1.0) as u64)))
}

/// `auth` as phpredis takes it: "pass", ["pass"], ["user", "pass"] or ["user" => …, "pass" => …];
/// null or false for none. Sets the target's credentials (every caller's target has none yet).
pub fn apply_auth<V: PhpValue + ?Sized>(target: &mut Target, auth: &V) -> Result<()> {
    (target.username, target.password) = credentials(auth)?;
    Ok(())
}

/// (user, password) of an `auth` value (see `apply_auth`); an empty user or
/// string password counts as none.
pub fn credentials<V: PhpValue + ?Sized>(auth: &V) -> Result<(Option<String>, Option<String>)> {
    let auth = auth.dereference();
    if auth.is_null() || auth.bool() == Some(false) {
        return Ok((None, None));
    }
    if let Some(p) = auth.str() {
        return Ok((None, Some(p.to_string()).filter(|p| !p.is_empty())));
    }
    let Some(a) = auth.array() else {
        return Err(Error::type_error("connection", format!("auth must be of type string|array, {} given", auth.type_name())));
    };
    let text = |z: Option<&V>| -> Result<Option<String>> {
        match z.map(V::dereference).filter(|z| !z.is_null()) {
            None => Ok(None),
            Some(z) => z.str().map(|s| Some(s.to_string())).ok_or_else(|| Error::value("connection", "auth entries must be strings")),
        }
    };
    let (user, pass) = match (a.get("user"), a.get("pass").or_else(|| a.get("password"))) {
        (u, Some(p)) => (text(u)?, text(Some(p))?),
        _ if a.len() >= 2 => (text(a.get_index(0))?, text(a.get_index(1))?),
        _ => (None, text(a.get_index(0))?),
    };
    Ok((user.filter(|u| !u.is_empty()), pass))
}

/// `$object->method(...args)` on a phpredis object of class `class` (named
/// in errors). What it throws stays pending: see below.
pub fn call(object: &Zval, class: &str, method: &str, args: Vec<&dyn IntoZvalDyn>) -> Result<Zval> {
    let out = object.try_call_method(method, args);
    if ext_php_rs::zend::ExecutorGlobals::has_exception() {
        // PHP code ran and threw (or called exit()): it stays pending, and
        // `php::pending` lets it through, or chains it as our `previous`
        // when it is phpredis's own "not connected".
        return Err(Error::value("connection", format!("is a {class} object that could not be read: {class}::{method}() threw")));
    }
    out.map_err(|e| Error::value("connection", format!("could not read {class}::{method}(): {e}")))
}
