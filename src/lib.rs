//! `ratelimit`: exact, atomic, distributed rate limiting on Redis for PHP.
//!
//! Data flows one way: PHP arguments (`php`) → validated policy (`limiter`) →
//! one entry call (`entry`) decided where the limiter's `backend` says: the
//! server module's command or the Lua library on a pooled connection
//! (`redis`), or a `memory://` store → `Outcome` → `RateLimitResult` (`php`).
//! This file is only the table of contents: the module, its ini entries, its
//! classes and its phpinfo.
#![cfg_attr(windows, feature(abi_vectorcall))]

pub mod backend;
pub mod entry;
pub mod error;
pub mod fork;
pub mod limiter;
pub mod metrics;
pub mod php;
pub mod redis;

mod fuzz_tests;

use ext_php_rs::prelude::*;

use php::classes::algorithms::fixed_window::FixedWindowRateLimiter;
use php::classes::algorithms::gcra::GcraRateLimiter;
use php::classes::algorithms::leaky_bucket::LeakyBucketRateLimiter;
use php::classes::algorithms::sliding_window::SlidingWindowRateLimiter;
use php::classes::algorithms::token_bucket::TokenBucketRateLimiter;
use php::classes::compound::CompoundRateLimiter;
use php::classes::metrics::RateLimitMetrics;
use php::classes::shared::interface::PhpInterfaceRateLimiterInterface;
use php::engine::register;
use php::result::RateLimitResultObject;

/// MINIT: ini entries, the exception class, the interface and the classes,
/// and the engine hooks that mark `$connection` sensitive and reword the
/// binding's own errors. The classes are registered here rather than with
/// `ModuleBuilder::class`, which leaves no way to declare their typed readonly
/// properties (see `php::register`). Runs outside any PHP call, so a panic is
/// caught here and reported as a failed startup instead of an abort.
fn startup(_ty: i32, module_number: i32) -> i32 {
    let ok = std::panic::catch_unwind(|| -> Result<(), String> {
        php::ini::settings::register(module_number);
        php::classes::sensitive::install();
        php::engine::binding_errors::install(php::classes::sensitive::class_entries);
        php::engine::exceptions::register().map_err(|e| e.to_string())?;
        register::interface::<PhpInterfaceRateLimiterInterface>()?;
        register::class::<RateLimitResultObject>()?;
        register::class::<FixedWindowRateLimiter>()?;
        register::class::<TokenBucketRateLimiter>()?;
        register::class::<LeakyBucketRateLimiter>()?;
        register::class::<SlidingWindowRateLimiter>()?;
        register::class::<GcraRateLimiter>()?;
        register::class::<CompoundRateLimiter>()?;
        register::class::<php::classes::concurrency::ConcurrencyLimiter>()?;
        register::class::<php::classes::concurrency::ConcurrencyPermit>()?;
        register::class::<RateLimitMetrics>()
    });
    match ok {
        Ok(Ok(())) => 0,
        Ok(Err(e)) => {
            ext_php_rs::error::php_error(&ext_php_rs::flags::ErrorType::CoreWarning, &format!("ratelimit: {e}"));
            -1
        }
        Err(_) => -1,
    }
}

/// RINIT: the warnings for `ratelimit.*` values refused as this request was
/// about to start, which the engine would have dropped (`ini_warnings`).
extern "C" fn request_startup(_ty: i32, _module_number: i32) -> i32 {
    let _ = std::panic::catch_unwind(php::ini::warnings::report);
    0
}

/// RSHUTDOWN: the permits this request still holds are freed (after a fatal
/// error, an uncaught exception, `exit()` or a timeout too: PHP runs it then),
/// and this thread's leases older than their `maxAge` go back.
extern "C" fn request_shutdown(_ty: i32, _module_number: i32) -> i32 {
    let _ = std::panic::catch_unwind(limiter::concurrency::held::release_all);
    let _ = std::panic::catch_unwind(limiter::lease::give_back_aged);
    0
}

/// The module's globals hold nothing; their shutdown is the one hook PHP
/// runs when a thread of a threaded (ZTS) server ends, on that thread (and
/// once at the process's end otherwise): this thread's leases go back then.
/// A byte, since PHP registers no globals of size 0 (and runs no hook for them).
#[derive(Default)]
struct ThreadEnd(#[allow(dead_code)] u8);

impl ext_php_rs::zend::ModuleGlobal for ThreadEnd {
    fn gshutdown(&mut self) {
        let _ = std::panic::catch_unwind(limiter::lease::give_back_all);
    }
}

static THREAD_END: ext_php_rs::zend::ModuleGlobals<ThreadEnd> = ext_php_rs::zend::ModuleGlobals::new();

#[php_module]
#[php(startup = startup)]
pub fn get_module(module: ModuleBuilder) -> ModuleBuilder {
    module
        .info_function(php::ini::info::module_info)
        .request_startup_function(request_startup)
        .request_shutdown_function(request_shutdown)
        .globals(&THREAD_END)
}
