//! What `var_dump()` / `print_r()` / `var_export()` / `json_encode()` show of a
//! limiter: its class, its key prefix (with `ratelimit.key_prefix`), its
//! policy numbers as the constructor received them, and `remaining`. Never
//! the connection, whose DSN, array or phpredis object may carry a password.
//!
//! The engine asks an object's `get_debug_info` handler. PHP's own handler
//! would call the `__debugInfo()` method, and ext-php-rs's wrapper of that
//! method throws on an object whose constructor never ran
//! (`newInstanceWithoutConstructor()`, a subclass that skips
//! `parent::__construct()`), which `var_dump()` turns into a fatal error. So
//! each limiter class gets a handler of ours (`install`, at MINIT) that reads
//! the Rust object directly: a constructed limiter shows the table above, an
//! unconstructed one its plain properties, as PHP shows any object.
//! `__debugInfo()` stays callable and gives the same table.

use std::ffi::c_int;

use ext_php_rs::boxed::ZBox;
use ext_php_rs::exception::PhpException;
use ext_php_rs::ffi::{zend_object, HashTable};
use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendClassObject, ZendHashTable, Zval};
use ext_php_rs::zend::ExecutorGlobals;

use crate::php::args::given_numbers::{GivenNumbers, Number};
use crate::php::classes::shared::remaining::LimiterClass;
use crate::php::classes::shared::state::LimiterState;

/// `__debugInfo()` called from PHP: the table of the object the method runs on.
pub fn debug_info(state: &LimiterState, policy: &GivenNumbers) -> PhpResult<ZBox<ZendHashTable>> {
    debug_table(this_class(), state, policy)
}

/// The table, for a limiter of class `class` (a subclass's own name).
fn debug_table(class: String, state: &LimiterState, policy: &GivenNumbers) -> PhpResult<ZBox<ZendHashTable>> {
    let fail = |e: ext_php_rs::error::Error| PhpException::from(e.to_string());
    let mut info = ZendHashTable::new();
    info.insert("class", class).map_err(fail)?;
    if policy.members().is_empty() {
        add_key_and_policy(&mut info, state.limiter().key(b"").unwrap_or_default(), policy).map_err(fail)?;
    } else {
        // A compound: each member as it shows on its own (not the first member's prefix alone).
        let mut members = ZendHashTable::new();
        for m in policy.members() {
            let mut member = ZendHashTable::new();
            member.insert("class", m.class.as_str()).map_err(fail)?;
            add_key_and_policy(&mut member, m.key_prefix.clone(), &m.policy).map_err(fail)?;
            members.push(member).map_err(fail)?;
        }
        info.insert("members", members).map_err(fail)?;
    }
    info.insert("remaining", state.remaining()).map_err(fail)?;
    Ok(info)
}

/// `keyPrefix` (binary-safe, as stored, with `ratelimit.key_prefix`) and `policy`.
fn add_key_and_policy(table: &mut ZendHashTable, key_prefix: Vec<u8>, policy: &GivenNumbers) -> ext_php_rs::error::Result<()> {
    let mut key = Zval::new();
    key.set_binary(key_prefix);
    table.insert("keyPrefix", key)?;
    let mut numbers = ZendHashTable::new();
    for (name, n) in policy.numbers() {
        match *n {
            Number::Int(i) => numbers.insert(*name, i),
            Number::Float(f) => numbers.insert(*name, f),
        }?;
    }
    table.insert("policy", numbers)
}

/// The class of `$this` in the running method: a subclass's own name.
fn this_class() -> String {
    let globals = ExecutorGlobals::get();
    // SAFETY: the frame of the running method outlives this call; only read.
    unsafe { globals.current_execute_data.as_ref() }.and_then(|ex| ex.This.object()).and_then(|o| o.get_class_name().ok()).unwrap_or_default()
}

/// Puts our `get_debug_info` handler into the object handlers of class `T`
/// (MINIT, before any object exists). ext-php-rs keeps one handler table per
/// class and checks an object's handler pointer to recognise its objects, so
/// the table is changed in place rather than replaced.
pub fn install<T: LimiterClass>() {
    let handlers = T::get_metadata().handlers() as *const ext_php_rs::zend::ZendObjectHandlers as *mut ext_php_rs::zend::ZendObjectHandlers;
    // SAFETY: written once at MINIT, single-threaded, before any object of
    // the class exists; the engine only reads the table afterwards.
    unsafe { std::ptr::addr_of_mut!((*handlers).get_debug_info).write_volatile(Some(get_debug_info::<T>)) };
}

/// The engine's `get_debug_info`: our table (a temporary the engine frees)
/// for a constructed limiter; otherwise the object's properties table (owned
/// by the object), as PHP shows an object that has no `__debugInfo()`.
unsafe extern "C" fn get_debug_info<T: LimiterClass>(object: *mut zend_object, is_temp: *mut c_int) -> *mut HashTable {
    // Runs inside the engine: a panic must not unwind into it.
    let described = std::panic::catch_unwind(|| {
        // SAFETY: the engine passes a live object of class T (or a subclass).
        let std_object = unsafe { object.as_ref() }?;
        let limiter = ZendClassObject::<T>::from_zend_obj(std_object)?; // None: never constructed
        let class = std_object.get_class_name().ok()?;
        debug_table(class, limiter.state(), limiter.policy()).ok()
    });
    // SAFETY: the engine's out-parameter and the object's own handlers.
    unsafe {
        match described {
            Ok(Some(table)) => {
                *is_temp = 1;
                table.into_raw()
            }
            _ => {
                *is_temp = 0;
                match (*(*object).handlers).get_properties {
                    Some(properties) => properties(object),
                    None => ext_php_rs::ffi::zend_std_get_properties(object),
                }
            }
        }
    }
}
