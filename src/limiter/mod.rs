//! Limiters as the PHP classes use them: each algorithm file validates its
//! parameters into a `Policy` (plain data: which algorithm, its arguments,
//! the limit, the largest cost; the arithmetic itself is in `core/` and
//! `lua/`); `instance::Limiter` builds a call's key and entry call, has its
//! `Backend` decide it and turns the answer into an `Outcome`; `compound`
//! does the same for several limits at once; `conclude` applies dry run,
//! `on_error` and the metrics; `block_cache` remembers denials; `lockout`
//! names the keys of blocked ids; `lease` answers a hot key's calls from
//! units taken ahead (`withLease()`).
//!
//! Nothing here touches a Zval or reads an ini setting: the PHP layer hands in
//! plain numbers, the full key prefix, the timeouts and the `on_error` policy.

pub mod adjust;
pub mod block_cache;
pub mod calendar;
pub mod compound;
mod conclude;
pub mod concurrency;
pub mod fixed_window;
pub mod gcra;
pub mod held;
pub mod instance;
pub mod leaky_bucket;
pub mod lease;
pub mod local;
pub mod lockout;
mod outcome;
pub mod params;
mod policy;
pub mod sliding_window;
pub mod token_bucket;

pub use outcome::{OnError, Outcome, Source};
pub use policy::{Algorithm, Op, Policy};
