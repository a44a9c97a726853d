//! One file per limiter class: its constructor forms and its parameters; the
//! `RateLimiterInterface` methods come from `rate_limiter_impl!`.
pub mod compound;
pub mod fixed_window;
pub mod gcra;
pub mod leaky_bucket;
pub mod sliding_window;
pub mod token_bucket;
