//! The algorithms, as pure Rust. Each algorithm file validates its parameters
//! into a `Policy` (plain data: which script, its pre-encoded arguments, the
//! limit, the largest cost); `instance::Limiter` runs a policy on a pooled
//! connection and turns the script's reply into an `Outcome`.
//!
//! Nothing here touches a Zval or reads an ini setting: the PHP layer hands in
//! plain numbers, the full key prefix, the timeouts and the `on_error` policy.

pub mod block_cache;
pub mod compound;
pub mod conclude;
pub mod fixed_window;
pub mod gcra;
pub mod instance;
pub mod leaky_bucket;
pub mod outcome;
pub mod params;
pub mod policy;
pub mod sliding_window;
pub mod token_bucket;

pub use outcome::{OnError, Outcome};
pub use policy::{Algorithm, Op, Policy};
