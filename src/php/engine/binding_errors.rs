//! One error comes from ext-php-rs's generated method wrappers, before any of
//! our code runs, in words that are not PHP's: a method called on an object
//! whose constructor never ran (a subclass that skips `parent::__construct()`,
//! `newInstanceWithoutConstructor()`): `Exception: Failed to retrieve
//! reference to `$this``. (Its other one, `Argument `$id` must not be null`,
//! never comes: `values::Id` and the like take a null to apply PHP's rule.)
//!
//! An exception hook (`zend_throw_exception_hook`, called for every throw)
//! recognises it when the running method belongs to one of our classes and
//! says it as PHP would: `Error: FixedWindowRateLimiter object was not
//! constructed …`, the binding's exception kept as `previous`.

use std::ffi::c_void;
use std::sync::atomic::{AtomicPtr, Ordering};

use ext_php_rs::exception::throw_with_code;
use ext_php_rs::ffi::{zend_object, zend_read_property, zend_throw_exception_hook, zval};
use ext_php_rs::types::Zval;
use ext_php_rs::zend::{ce, ExecutorGlobals};

use std::sync::OnceLock;

use ext_php_rs::zend::ClassEntry;

const NOT_CONSTRUCTED: &str = "Failed to retrieve reference to `$this`";

type Hook = unsafe extern "C" fn(*mut zend_object);

static PREVIOUS: AtomicPtr<c_void> = AtomicPtr::new(std::ptr::null_mut());

/// Our classes' entries, as `install` was given them (the classes are the
/// PHP face's, which builds on this room, not the other way round).
static OURS: OnceLock<fn() -> [&'static ClassEntry; 5]> = OnceLock::new();

/// Called at MINIT: chains our hook in front of any installed before
/// (Xdebug's); `ours` lists the classes whose methods the hook speaks for.
pub fn install(ours: fn() -> [&'static ClassEntry; 5]) {
    let _ = OURS.set(ours);
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

/// The class of the running method when it is one of ours. This runs for
/// every exception the application throws, so the common case (not ours) is
/// settled by comparing pointers, before any string is read.
fn our_method() -> Option<String> {
    let globals = ExecutorGlobals::get();
    // SAFETY: the frame of the running internal method and its function
    // entry are alive while it throws; only read.
    unsafe {
        let func = globals.current_execute_data.as_ref()?.func.as_ref()?;
        if func.type_ != INTERNAL_FUNCTION {
            return None;
        }
        let scope = func.common.scope.as_ref()?;
        if !OURS.get().is_some_and(|ours| ours().iter().any(|ours| std::ptr::eq(*ours, scope))) {
            return None;
        }
        Some(scope.name()?.to_string())
    }
}

/// # Safety
/// `ex` is null or a live exception object (the one being thrown).
unsafe fn rewrite(ex: *mut zend_object) {
    if ex.is_null() {
        return;
    }
    let Some(class) = our_method() else { return };
    // SAFETY: `ex` is live and not null (checked above).
    if unsafe { message_of(ex) }.as_deref() != Some(NOT_CONSTRUCTED) {
        return;
    }
    let this = object_class_of_frame().filter(|t| *t != class);
    let how = this.map(|t| format!(" ({t}::__construct() must call parent::__construct())")).unwrap_or_default();
    // Thrown while the binding's exception is pending: the engine makes it our `previous`.
    // (`throw_with_code`, not `PhpException::throw`, which never throws over a pending one.)
    let _ = throw_with_code(ce::error(), 0, &format!("{class} object was not constructed{how}"));
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
