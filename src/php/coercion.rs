//! The parts of PHP's parameter coercion that depend on the caller: whether
//! the calling file declared `strict_types=1`, and `Stringable` objects, which
//! a `string` parameter accepts in coercive mode only (through `__toString()`).

use ext_php_rs::ffi::ZEND_ACC_STRICT_TYPES;
use ext_php_rs::types::Zval;
use ext_php_rs::zend::{ce, ExecutorGlobals};

use crate::error::Invalid;

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

/// A `Stringable` object's string, as coercive mode passes it to a `string`
/// parameter; `None` when `z` is not such an object or the caller is strict.
/// An exception thrown by `__toString()` stays pending and propagates.
pub fn stringable(z: &Zval) -> Option<std::result::Result<Vec<u8>, Invalid>> {
    let object = z.object().filter(|o| o.instance_of(ce::stringable()))?;
    if caller_is_strict() {
        return None;
    }
    let out = object.try_call_method("__toString", vec![]);
    if ExecutorGlobals::has_exception() {
        return Some(Err(Invalid::type_error("could not be converted to string: __toString() threw")));
    }
    Some(match out.ok().as_ref().and_then(|s| s.zend_str()) {
        Some(s) => Ok(s.as_bytes().to_vec()),
        None => Err(Invalid::type_error("could not be converted to string: __toString() returned no string")),
    })
}
