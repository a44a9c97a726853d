//! Two errors come from ext-php-rs's generated method wrappers, before any of
//! our code runs, in words that are not PHP's:
//! - a method called on an object whose constructor never ran (a subclass
//!   that skips `parent::__construct()`, `newInstanceWithoutConstructor()`):
//!   `Exception: Failed to retrieve reference to `$this``;
//! - `null` for `$id` or `$cost`: `TypeError: Argument `$id` must not be null`.
//!
//! An exception hook (`zend_throw_exception_hook`, called for every throw)
//! recognises them when the running method belongs to one of our classes and
//! says them as PHP would: `Error: FixedWindowRateLimiter object was not
//! constructed …` (the binding's exception kept as `previous`), and
//! `…::consume(): Argument #1 ($id) must be of type string, null given`.
//! (PHP's coercive mode would take a null `string` with a deprecation notice;
//! the binding refuses it before we are called, so it is a TypeError in both modes.)

use std::ffi::{c_char, c_void};
use std::sync::atomic::{AtomicPtr, Ordering};

use ext_php_rs::exception::throw_with_code;
use ext_php_rs::ffi::{zend_class_entry, zend_object, zend_read_property, zend_throw_exception_hook, zval};
use ext_php_rs::types::{ZendObject, ZendStr, Zval};
use ext_php_rs::zend::{ce, ExecutorGlobals};

use super::sensitive::class_entries;

const NOT_CONSTRUCTED: &str = "Failed to retrieve reference to `$this`";

type Hook = unsafe extern "C" fn(*mut zend_object);
type UpdateString = unsafe extern "C" fn(*mut zend_class_entry, *mut zend_object, *const c_char, usize, *const c_char, usize);

static PREVIOUS: AtomicPtr<c_void> = AtomicPtr::new(std::ptr::null_mut());

/// Called at MINIT: chains our hook in front of any installed before (Xdebug's).
pub fn install() {
    // SAFETY: the engine's global hook pointer, written single-threaded at MINIT.
    unsafe {
        PREVIOUS.store(zend_throw_exception_hook.map_or(std::ptr::null_mut(), |f| f as *mut c_void), Ordering::Release);
        zend_throw_exception_hook = Some(hook);
    }
}

unsafe extern "C" fn hook(ex: *mut zend_object) {
    // Runs inside the engine's throw: a panic must not unwind into it.
    // SAFETY: `ex` is the exception the engine is throwing, alive for this call.
    let _ = std::panic::catch_unwind(|| unsafe { rewrite(ex) });
    let previous = PREVIOUS.load(Ordering::Acquire);
    if !previous.is_null() {
        // SAFETY: read from the engine's hook slot at install time.
        unsafe { std::mem::transmute::<*mut c_void, Hook>(previous)(ex) }
    }
}

/// `ZEND_INTERNAL_FUNCTION`: a function written in C (or Rust), like our methods.
const INTERNAL_FUNCTION: u8 = 1;

/// The running method when it is one of ours: (class, method, its arg names).
/// This runs for every exception the application throws, so the common case
/// (not ours) is settled by comparing pointers, before any string is read.
fn our_method() -> Option<(String, String, Vec<String>)> {
    let globals = ExecutorGlobals::get();
    // SAFETY: the frame of the running internal method and its function
    // entry are alive while it throws; only read.
    unsafe {
        let func = globals.current_execute_data.as_ref()?.func.as_ref()?;
        if func.type_ != INTERNAL_FUNCTION {
            return None;
        }
        let scope = func.common.scope.as_ref()?;
        if !class_entries().iter().any(|ours| std::ptr::eq(*ours, scope)) {
            return None;
        }
        let class = scope.name()?.to_string();
        let method = (func.common.function_name as *const ZendStr).as_ref()?.as_str().ok()?.to_string();
        let args = func.internal_function.arg_info;
        let names = (0..func.common.num_args as usize).filter_map(|i| args.add(i).as_ref()).map(|a| super::zend_api::parameter_name(a)).collect();
        Some((class, method, names))
    }
}

/// # Safety
/// `ex` is null or a live exception object (the one being thrown).
unsafe fn rewrite(ex: *mut zend_object) {
    // SAFETY: null or live (this function's contract); ZendObject is zend_object.
    let Some(object) = (unsafe { (ex as *const ZendObject).as_ref() }) else { return };
    let Some((class, method, args)) = our_method() else { return };
    // SAFETY: `ex` is live and not null (checked above).
    let Some(message) = (unsafe { message_of(ex) }) else { return };
    let is_null_arg = message.strip_prefix("Argument `$").and_then(|r| r.strip_suffix("` must not be null"));
    if message != NOT_CONSTRUCTED && is_null_arg.is_none() {
        return;
    }
    if message == NOT_CONSTRUCTED {
        let this = object_class_of_frame().filter(|t| *t != class);
        let how = this.map(|t| format!(" ({t}::__construct() must call parent::__construct())")).unwrap_or_default();
        // Thrown while the binding's exception is pending: the engine makes it our `previous`.
        // (`throw_with_code`, not `PhpException::throw`, which never throws over a pending one.)
        let _ = throw_with_code(ce::error(), 0, &format!("{class} object was not constructed{how}"));
    } else if let Some(name) = is_null_arg {
        if !object.instance_of(ce::type_error()) {
            return;
        }
        let Some(position) = args.iter().position(|a| a == name) else { return };
        let ty = if name == "id" { "string" } else { "int" };
        let text = format!("{class}::{method}(): Argument #{} (${name}) must be of type {ty}, null given", position + 1);
        // SAFETY: `ex` is live and not null (checked above).
        unsafe { set_message(ex, &text) };
    }
}

/// The class of `$this` in the running frame (a subclass's own name).
fn object_class_of_frame() -> Option<String> {
    let globals = ExecutorGlobals::get();
    // SAFETY: the running frame; only read.
    unsafe { globals.current_execute_data.as_ref() }?.This.object()?.get_class_name().ok()
}

/// # Safety
/// `ex` is a live exception object.
unsafe fn message_of(ex: *mut zend_object) -> Option<String> {
    let mut rv = Zval::new();
    // SAFETY: a live exception object; scope = its own class, so the
    // protected `message` is readable; silent, so a missing one is no notice.
    let z = unsafe { zend_read_property((*ex).ce, ex, c"message".as_ptr(), "message".len(), true, &mut rv as *mut Zval as *mut zval) };
    // SAFETY: the property's slot or `rv`, both alive until `rv` drops at the
    // end of this function (after the string is copied); Zval is zval.
    unsafe { (z as *const Zval).as_ref() }?.str().map(str::to_string)
}

/// # Safety
/// `ex` is a live exception object.
unsafe fn set_message(ex: *mut zend_object, text: &str) {
    // SAFETY: an exported engine function found by name, called as PHP's own code does.
    unsafe {
        let f = super::engine::lookup(c"zend_update_property_stringl");
        if f.is_null() {
            return;
        }
        let update = std::mem::transmute::<*mut c_void, UpdateString>(f);
        update((*ex).ce, ex, c"message".as_ptr(), "message".len(), text.as_ptr() as *const c_char, text.len());
    }
}
