//! One class per algorithm: `FixedWindowRateLimiter`, `SlidingWindowRateLimiter`,
//! `TokenBucketRateLimiter`, `LeakyBucketRateLimiter`, `GcraRateLimiter`.
//! Each file holds what only its class has: the constructor's two forms and
//! parameters (validated by its policy in `limiter::algorithms`), the
//! parameter types Reflection shows, and its own methods (`withAnchor()`,
//! `reserve()`, `withLease()`, …). The interface's methods and everything
//! else they share come from `shared/` (`rate_limiter_impl!`).
pub mod fixed_window;
pub mod gcra;
pub mod leaky_bucket;
pub mod sliding_window;
pub mod token_bucket;
