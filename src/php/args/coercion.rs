//! PHP's own parameter rules for a declared scalar type, from the engine
//! itself: whether the calling file declared `strict_types=1`
//! (`ZEND_ARG_USES_STRICT_TYPES()`), and in coercive mode the engine's own
//! conversions (`zend_parse_arg_*_weak`, the functions PHP's internal
//! functions use), so every coercion, deprecation ("Implicit conversion from
//! float 1.5 to int loses precision", "Passing null to parameter #2 ($cost)
//! of type int is deprecated") and string form of a float (`precision`) is
//! exactly PHP's, on every PHP version. The engine's symbols: `engine`.

use ext_php_rs::ffi::{zend_string, zval, ZEND_ACC_STRICT_TYPES};
use ext_php_rs::flags::DataType;
use ext_php_rs::types::{ZendStr, Zval};
use ext_php_rs::zend::{ExecuteData, ExecutorGlobals};

use crate::error::Invalid;
use crate::php::engine::symbols::{zend_parse_arg_long_weak, zval_get_string_func};

/// `zend_parse_arg_double_weak`, `zend_parse_arg_bool_weak` and
/// `zend_parse_arg_str_weak` in one form on every PHP: the value, or None
/// (a null string) when PHP's rules do not take `arg`.
///
/// # Safety (every function)
/// `arg` is a live zval the caller owns, inside a running internal call (a
/// null's deprecation names that call's parameter); the string given
/// belongs to `arg` and lives as long as it does.
mod weak {
    use super::*;
    use crate::php::engine::symbols::{zend_parse_arg_bool_weak, zend_parse_arg_double_weak, zend_parse_arg_str_weak};

    #[cfg(not(zend_parse_arg_weak_returns))]
    pub unsafe fn double(arg: *mut zval, arg_num: u32) -> Option<f64> {
        let mut f = 0f64;
        // SAFETY: the caller's `arg` (see above); the destination is a local.
        unsafe { zend_parse_arg_double_weak(arg, &raw mut f, arg_num) }.then_some(f)
    }

    #[cfg(zend_parse_arg_weak_returns)]
    pub unsafe fn double(arg: *mut zval, arg_num: u32) -> Option<f64> {
        // SAFETY: the caller's `arg` (see above).
        Some(unsafe { zend_parse_arg_double_weak(arg, arg_num) }).filter(|f| !f.is_nan())
    }

    #[cfg(not(zend_parse_arg_weak_returns))]
    pub unsafe fn bool(arg: *mut zval, arg_num: u32) -> Option<bool> {
        let mut b = false;
        // SAFETY: the caller's `arg` (see above); the destination is a local.
        unsafe { zend_parse_arg_bool_weak(arg, &raw mut b, arg_num) }.then_some(b)
    }

    #[cfg(zend_parse_arg_weak_returns)]
    pub unsafe fn bool(arg: *mut zval, arg_num: u32) -> Option<bool> {
        // SAFETY: the caller's `arg` (see above).
        match unsafe { zend_parse_arg_bool_weak(arg, arg_num) } {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }

    #[cfg(not(zend_parse_arg_weak_returns))]
    pub unsafe fn str(arg: *mut zval, arg_num: u32) -> *mut zend_string {
        let mut s: *mut zend_string = std::ptr::null_mut();
        // SAFETY: the caller's `arg` (see above); the destination is a local.
        if unsafe { zend_parse_arg_str_weak(arg, &raw mut s, arg_num) } {
            s
        } else {
            std::ptr::null_mut()
        }
    }

    #[cfg(zend_parse_arg_weak_returns)]
    pub unsafe fn str(arg: *mut zval, arg_num: u32) -> *mut zend_string {
        // SAFETY: the caller's `arg` (see above).
        unsafe { zend_parse_arg_str_weak(arg, arg_num) }
    }
}

/// A scalar type a parameter declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scalar {
    Int,
    Float,
    Bool,
    String,
}

impl Scalar {
    fn name(self) -> &'static str {
        match self {
            Scalar::Int => "int",
            Scalar::Float => "float",
            Scalar::Bool => "bool",
            Scalar::String => "string",
        }
    }
}

/// A parameter's value after PHP's rules for its declared type.
#[derive(Debug, Clone, PartialEq)]
pub enum Coerced {
    Int(i64),
    Float(f64),
    Bool(bool),
    String(Vec<u8>),
}

/// Whether the code calling the running internal function declared
/// `strict_types=1` (the engine's `ZEND_ARG_USES_STRICT_TYPES()`).
pub fn caller_is_strict() -> bool {
    let globals = ExecutorGlobals::get();
    // SAFETY: the engine keeps the frames and their functions alive while
    // the internal function they called runs; we only read their flags.
    unsafe {
        let Some(current) = globals.current_execute_data.as_ref() else { return false };
        let Some(caller) = current.prev_execute_data.as_ref() else { return false };
        caller.func.as_ref().is_some_and(|f| f.common.fn_flags & ZEND_ACC_STRICT_TYPES != 0)
    }
}

/// The position (from 1) of `z` among the arguments of the running call, or
/// 0 when it is not one of them. The engine's deprecation for a null names the
/// parameter at that position.
fn position(z: &Zval) -> u32 {
    let globals = ExecutorGlobals::get();
    // SAFETY: the running call's frame, alive while it runs; its arguments
    // are `num_args` zvals after the frame (ZEND_CALL_ARG), only compared.
    unsafe {
        let Some(ex) = globals.current_execute_data.cast::<ExecuteData>().as_ref() else { return 0 };
        let given = ex.This.u2.num_args;
        let declared = ex.func.as_ref().map_or(0, |f| f.common.num_args);
        (0..given.min(declared)).find(|&i| ex.zend_call_arg(i as usize).is_some_and(|a| std::ptr::eq(a, z))).map_or(0, |i| i + 1)
    }
}

fn wrong_type(expected: Scalar, z: &Zval) -> Invalid {
    Invalid::type_error(format!("must be of type {}, {} given", expected.name(), crate::php::args::php_value::type_name(z)))
}

/// `z` as a parameter declared `ty` receives it: in strict mode only that type
/// (an int for a float too); otherwise PHP's coercions, with its deprecations.
/// A value no rule takes is a TypeError, in PHP's words.
pub fn coerce(ty: Scalar, z: &Zval) -> Result<Coerced, Invalid> {
    let z = z.dereference();
    match (ty, z.get_type()) {
        (Scalar::Int, DataType::Long) => return Ok(Coerced::Int(z.long().unwrap_or_default())),
        (Scalar::Float, DataType::Double) => return Ok(Coerced::Float(z.double().unwrap_or_default())),
        (Scalar::Float, DataType::Long) => return Ok(Coerced::Float(z.long().unwrap_or_default() as f64)),
        (Scalar::Bool, DataType::True | DataType::False | DataType::Bool) => return Ok(Coerced::Bool(z.bool().unwrap_or_default())),
        (Scalar::String, DataType::String) => return Ok(Coerced::String(z.zend_str().map(|s| s.as_bytes().to_vec()).unwrap_or_default())),
        _ => {}
    }
    if caller_is_strict() {
        return Err(wrong_type(ty, z));
    }
    let arg_num = position(z);
    if z.is_null() && arg_num == 0 {
        // Not an argument of this call: the engine could not name it.
        return Err(wrong_type(ty, z));
    }
    // The engine converts in place: a copy of the value (its own reference), released after.
    let mut copy = z.shallow_clone();
    let arg: *mut zval = &raw mut copy;
    // SAFETY: `arg` is a live zval this function owns, inside the running
    // call; the destination is a local; the string is read while `copy` lives.
    let taken = unsafe {
        match ty {
            Scalar::Int => {
                let mut n = 0i64;
                zend_parse_arg_long_weak(arg, &raw mut n, arg_num).then_some(Coerced::Int(n))
            }
            Scalar::Float => weak::double(arg, arg_num).map(Coerced::Float),
            Scalar::Bool => weak::bool(arg, arg_num).map(Coerced::Bool),
            // The string the copy now holds: read before the copy goes.
            Scalar::String => weak::str(arg, arg_num).cast::<ZendStr>().as_ref().map(|s| Coerced::String(s.as_bytes().to_vec())),
        }
    };
    drop(copy);
    if ExecutorGlobals::has_exception() {
        // A deprecation an error handler turned into an exception, or a
        // __toString() that threw: it stays pending and propagates.
        return Err(Invalid::type_error(format!("could not be converted to {}", ty.name())));
    }
    taken.ok_or_else(|| wrong_type(ty, z))
}

/// PHP's `(string)` of a float, under this request's `precision`: the
/// engine's own conversion ("0.3" for 0.1 + 0.2, "1.0E+20", "-0").
pub fn float_string(f: f64) -> Vec<u8> {
    let mut z = Zval::new();
    z.set_double(f);
    // SAFETY: a double zval; the engine returns a new string reference, released here.
    unsafe {
        let s = zval_get_string_func(&raw mut z);
        let bytes = s.cast::<ZendStr>().as_ref().map(|s| s.as_bytes().to_vec()).unwrap_or_default();
        if !s.is_null() {
            ext_php_rs::ffi::ext_php_rs_zend_string_release(s);
        }
        bytes
    }
}
