//! One file per algorithm (`fixed_window`, `sliding_window`, `token_bucket`,
//! `leaky_bucket`, `gcra`), each checking its PHP parameters and building a
//! `Policy` (`policy`: the algorithm as plain data, what every call sends
//! besides the key and the cost), and the fixed window's windows on the
//! calendar (`calendar`: `withAnchor()`, `withCalendar()`). No I/O and no
//! arithmetic of a decision here (that is `core/` and `lua/`): to change what
//! an algorithm accepts, open its file; to change how it is run, `decide/`.

pub mod calendar;
pub mod fixed_window;
pub mod gcra;
pub mod leaky_bucket;
mod policy;
pub mod sliding_window;
pub mod token_bucket;

pub use policy::{Algorithm, Op, Policy};
