//! The decision path, from a policy to the answer PHP gets: a limiter bound
//! to its target (`instance`: the key, the block cache, the entry call, the
//! answer as an `Outcome`) and several decided as one (`compound`); where a
//! blocked id's block key lives (`lockout`); denials remembered in process
//! memory (`block_cache`); the answer of `on_error = local` (`local`); the
//! last step of every decision, dry run, `on_error` and the metrics
//! (`conclude`); and giving back, charging and booking ahead (`adjust`: the
//! modes of the `adjust` entry and their argument checks, which a limiter, a
//! compound and a lease all call through). One room, because each of these
//! is a step of the same call and they call each other.

pub mod adjust;
pub mod block_cache;
pub mod compound;
pub(super) mod conclude;
pub mod instance;
pub mod local;
pub mod lockout;
