//! `ratelimit`: exact, atomic, distributed rate limiting on Redis for PHP.
//!
//! Data flows one way: PHP arguments (`php`) → validated policy (`limiter`) →
//! one EVALSHA on a pooled connection (`redis`) → `Outcome` → `RateLimitResult`.
//! This file is only the table of contents: the module, its ini entries, its
//! classes and its phpinfo.
#![cfg_attr(windows, feature(abi_vectorcall))]

pub mod error;
pub mod limiter;
pub mod php;
pub mod redis;
pub mod settings;

mod fuzz_tests;

use ext_php_rs::prelude::*;

use php::classes::fixed_window::FixedWindowRateLimiter;
use php::classes::leaky_bucket::LeakyBucketRateLimiter;
use php::classes::token_bucket::TokenBucketRateLimiter;
use php::classes::sliding_window::SlidingWindowRateLimiter;
use php::classes::gcra::GcraRateLimiter;
use php::interface::PhpInterfaceRateLimiterInterface;
use php::result::RateLimitResult;

/// MINIT: ini entries, the exception class, and the engine hooks that mark
/// `$connection` sensitive and reword the binding's own errors. Runs outside any PHP call, so a
/// panic is caught here and reported as a failed startup instead of an abort.
fn startup(_ty: i32, module_number: i32) -> i32 {
    let ok = std::panic::catch_unwind(|| {
        settings::register(module_number);
        php::sensitive::install();
        php::binding_errors::install();
        php::exceptions::register().is_ok()
    });
    if matches!(ok, Ok(true)) { 0 } else { -1 }
}

#[php_module]
#[php(startup = startup)]
pub fn get_module(module: ModuleBuilder) -> ModuleBuilder {
    module
        .interface::<PhpInterfaceRateLimiterInterface>()
        .class::<RateLimitResult>()
        .class::<FixedWindowRateLimiter>()
        .class::<TokenBucketRateLimiter>()
        .class::<LeakyBucketRateLimiter>()
        .class::<SlidingWindowRateLimiter>()
        .class::<GcraRateLimiter>()
        .info_function(php::info::module_info)
}
