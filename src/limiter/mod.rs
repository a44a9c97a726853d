//! Limiters as the PHP classes use them, in rooms that lean one way
//! (`algorithms` → the two files here; `decide` → `algorithms`; `concurrency`
//! and `lease` → `decide`): `algorithms/` validates each algorithm's
//! parameters into a `Policy` (plain data: which algorithm, its arguments,
//! the limit, the largest cost; the arithmetic itself is in `core/` and
//! `lua/`); `decide/` is the decision path, a bound `Limiter` or a
//! `Compound` of several, from the key and the entry call to the concluded
//! answer, and the give-back modes (`adjust`); `concurrency/` is the
//! in-flight limit and the permits a request holds; `lease/` answers a hot
//! key's calls from units taken ahead (`withLease()`). What they all speak
//! lies here: the answer (`outcome`: `Outcome`, `Source`, `OnError`) and the
//! parameter checks every room shares (`params`).
//!
//! Nothing here touches a Zval or reads an ini setting: the PHP layer hands in
//! plain numbers, the full key prefix, the timeouts and the `on_error` policy.

pub mod algorithms;
pub mod concurrency;
pub mod decide;
pub mod lease;
mod outcome;
pub mod params;

pub use algorithms::{Algorithm, Op, Policy};
pub use outcome::{OnError, Outcome, Source};
