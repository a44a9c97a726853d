//! The classes PHP code uses. `algorithms/`: one file per limiter class of
//! an algorithm (its constructor forms and parameters, its own methods);
//! `shared/`: what every limiter class holds and does, written once (the
//! `RateLimiterInterface` methods, the state they forward to, `$remaining`,
//! `var_dump()`, `withDryRun()`, `withLease()`, `refund()`/`charge()`/
//! `reserve()`); here, the classes that stand beside them
//! (`CompoundRateLimiter`: `compound`, `ConcurrencyLimiter`: `concurrency`,
//! `RateLimitMetrics`: `metrics`) and `#[\SensitiveParameter]` on the
//! algorithm classes' `$connection` (`sensitive`, which also lists their
//! class entries). `algorithms` leans on `shared`, the files here on both,
//! never the other way.
pub mod algorithms;
pub mod compound;
pub mod concurrency;
pub mod metrics;
pub mod sensitive;
pub mod shared;
