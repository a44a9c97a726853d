//! `#[\SensitiveParameter]` on the `$connection` parameter of every limiter
//! constructor, as PHP 8.2 does for PDO's password: a stack trace (an uncaught
//! exception, `getTrace()`, `debug_backtrace()`) then shows a
//! `SensitiveParameterValue` instead of the DSN or array that may hold a password.
//!
//! ext-php-rs cannot declare parameter attributes, so they are added the way
//! PHP's own `zend_add_parameter_attribute()` does, once every class is
//! registered: from the engine's post-startup callback (`zend_post_startup_cb`),
//! which runs after all MINITs, before any request and before PHP-FPM forks.
//! The engine's callback slot and function are found by name at run time
//! (`engine::lookup`), since they are not among ext-php-rs's bindings.

use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicPtr, Ordering};

use ext_php_rs::class::RegisteredClass;
use ext_php_rs::ffi::{zend_function, zend_hash_str_find_ptr_lc, zend_string, HashTable};
use ext_php_rs::types::ZendStr;
use ext_php_rs::zend::ClassEntry;

use crate::php::classes::algorithms::{fixed_window, gcra, leaky_bucket, sliding_window, token_bucket};

/// The limiter classes (their constructors take `$connection` first), straight
/// from the registration: the class table is not searchable by name until the
/// first request. `binding_errors` recognises their methods by these too.
pub fn class_entries() -> [&'static ClassEntry; 5] {
    [
        fixed_window::FixedWindowRateLimiter::get_metadata().ce(),
        sliding_window::SlidingWindowRateLimiter::get_metadata().ce(),
        token_bucket::TokenBucketRateLimiter::get_metadata().ce(),
        leaky_bucket::LeakyBucketRateLimiter::get_metadata().ce(),
        gcra::GcraRateLimiter::get_metadata().ce(),
    ]
}

/// `ZEND_ATTRIBUTE_PERSISTENT`: the attribute lives as long as the internal function.
const ATTRIBUTE_PERSISTENT: u32 = 1;

type AddAttribute = unsafe extern "C" fn(*mut *mut HashTable, *mut zend_string, u32, u32, u32, u32) -> *mut c_void;
type PostStartup = unsafe extern "C" fn() -> c_int;

/// The post-startup callback that was installed before ours (opcache sets one).
static PREVIOUS: AtomicPtr<c_void> = AtomicPtr::new(std::ptr::null_mut());

/// Called at MINIT: chains our callback in front of the engine's.
pub fn install() {
    // SAFETY: `zend_post_startup_cb` is the engine's global function pointer;
    // MINIT runs single-threaded, before the engine reads it.
    unsafe {
        let slot = crate::php::engine::symbols::lookup(c"zend_post_startup_cb") as *mut Option<PostStartup>;
        if slot.is_null() {
            return;
        }
        PREVIOUS.store((*slot).map_or(std::ptr::null_mut(), |f| f as *mut c_void), Ordering::Release);
        *slot = Some(post_startup);
    }
}

unsafe extern "C" fn post_startup() -> c_int {
    // Outside any PHP call: a panic must not unwind into the engine.
    let _ = std::panic::catch_unwind(mark_connection_parameters);
    let previous = PREVIOUS.load(Ordering::Acquire);
    if previous.is_null() {
        0
    } else {
        // SAFETY: the pointer was read from the engine's callback slot.
        unsafe { std::mem::transmute::<*mut c_void, PostStartup>(previous)() }
    }
}

fn mark_connection_parameters() {
    // SAFETY: an exported engine function found by name, called with the arguments
    // `zend_add_parameter_attribute()` passes for an internal function; the
    // name is a persistent string we made, released once after the loop.
    unsafe {
        let add = crate::php::engine::symbols::lookup(c"zend_add_attribute");
        if add.is_null() {
            return;
        }
        let add: AddAttribute = std::mem::transmute::<*mut c_void, AddAttribute>(add);
        // Persistent, like the function it is attached to. The engine takes
        // a reference of its own for each attribute (zend_string_copy), so
        // ours is released below (valgrind found it lost: 48 bytes a process).
        let name = ZendStr::new("SensitiveParameter", true).into_raw() as *mut ZendStr as *mut zend_string;
        for ce in class_entries() {
            let ctor = zend_hash_str_find_ptr_lc(&ce.function_table, c"__construct".as_ptr(), "__construct".len()) as *mut zend_function;
            // Nothing else gives our constructors attributes: a table already
            // there means this ran before (a SAPI that starts modules twice).
            if ctor.is_null() || !(*ctor).common.attributes.is_null() {
                continue;
            }
            // Parameter attributes sit at offset (argument index + 1); $connection is argument 0.
            add(&mut (*ctor).common.attributes, name, 0, ATTRIBUTE_PERSISTENT, 1, 0);
        }
        ext_php_rs::ffi::ext_php_rs_zend_string_release(name);
    }
}
