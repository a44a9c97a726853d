//! What `var_dump()` / `print_r()` show of a limiter (`__debugInfo()`): its
//! class, its key prefix (with `ratelimit.key_prefix`), its policy numbers as
//! the constructor received them, and `remaining`. Never the connection, whose
//! DSN, array or phpredis object may carry a password.

use ext_php_rs::boxed::ZBox;
use ext_php_rs::exception::PhpException;
use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendHashTable, Zval};
use ext_php_rs::zend::ExecutorGlobals;

use super::forms::Signature;
use super::state::LimiterState;

/// A policy number as the constructor received it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Number {
    Int(i64),
    Float(f64),
}

/// The policy numbers given to a constructor, by long-form parameter name.
#[derive(Debug, Clone, Default)]
pub struct Policy(Vec<(&'static str, Number)>);

impl Policy {
    /// Read after the constructor validated the same arguments, so it cannot
    /// fail; a number that is integral is shown as an int.
    pub fn read(sig: &'static Signature, given: &[Option<&Zval>]) -> Self {
        let Ok(args) = sig.read(given) else { return Policy::default() };
        let numbers = sig
            .long
            .slots
            .iter()
            .map(|(_, long)| *long)
            .filter(|long| !matches!(*long, "connection" | "keyPrefix"))
            .filter_map(|long| match (args.int(long), args.float(long)) {
                (Ok(i), Ok(f)) if i as f64 == f => Some((long, Number::Int(i))),
                (_, Ok(f)) => Some((long, Number::Float(f))),
                _ => None,
            })
            .collect();
        Policy(numbers)
    }
}

pub fn debug_info(state: &LimiterState, policy: &Policy) -> PhpResult<ZBox<ZendHashTable>> {
    let fail = |e: ext_php_rs::error::Error| PhpException::from(e.to_string());
    let mut info = ZendHashTable::new();
    info.insert("class", this_class()).map_err(fail)?;
    let mut key_prefix = Zval::new();
    key_prefix.set_binary(state.limiter().key(b"").unwrap_or_default()); // binary-safe, as stored
    info.insert("keyPrefix", key_prefix).map_err(fail)?;
    let mut numbers = ZendHashTable::new();
    for (name, n) in &policy.0 {
        match *n {
            Number::Int(i) => numbers.insert(*name, i),
            Number::Float(f) => numbers.insert(*name, f),
        }
        .map_err(fail)?;
    }
    info.insert("policy", numbers).map_err(fail)?;
    info.insert("remaining", state.remaining()).map_err(fail)?;
    Ok(info)
}

/// The class of `$this` in the running method: a subclass's own name.
fn this_class() -> String {
    let globals = ExecutorGlobals::get();
    // SAFETY: the frame of the running method outlives this call; only read.
    unsafe { globals.current_execute_data.as_ref() }.and_then(|ex| ex.This.object()).and_then(|o| o.get_class_name().ok()).unwrap_or_default()
}
