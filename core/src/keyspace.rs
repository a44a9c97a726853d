//! Where the keys live: what an executor (the server module, the `memory://`
//! store) gives the entry points and the decision counters. A file of its
//! own because both `entries` and `metrics` run on it: in either of them it
//! tied the two to each other.

use crate::effect::Effect;
use crate::view::{Refused, View};

/// Where the keys live: an executor's keyspace.
pub trait Keyspace {
    /// The key as a decision reads it.
    fn view<'a>(&'a self, key: &'a [u8]) -> Box<dyn View + 'a>;
    /// Writes a decision's effects, in order.
    fn apply(&mut self, key: &[u8], effects: &[Effect]) -> Result<(), Refused>;
    /// The server's clock in µs (what TIME reads).
    fn now_us(&self) -> f64;
}
