//! The classes PHP code uses: one file per limiter class (its constructor
//! forms and parameters; the `RateLimiterInterface` methods come from
//! `rate_limiter_impl!` in `interface`), what every limiter class holds and
//! does (`state`), its `$remaining` property, `var_dump()` view and dry-run
//! copy, `withLease()`'s copy (`lease`), `refund()`/`charge()`/`reserve()`'s parameters (`give_back`), `#[\SensitiveParameter]` on their `$connection` (`sensitive`,
//! which also lists their class entries), and `RateLimitMetrics` (`metrics`).
pub mod compound;
pub mod concurrency;
mod debug_info;
mod dry_run;
pub mod fixed_window;
pub mod gcra;
mod give_back;
pub mod interface;
pub mod leaky_bucket;
mod lease;
mod limiter_class;
pub mod metrics;
mod remaining;
pub mod sensitive;
pub mod sliding_window;
mod state;
pub mod token_bucket;
