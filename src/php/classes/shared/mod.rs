//! What every limiter class holds and does, written once: the
//! `RateLimiterInterface` and the macro that gives a class its methods
//! (`interface`), all forwarding to what the object holds (`state`:
//! `LimiterState`); the readonly `$remaining` (`remaining`), the `var_dump()`
//! view (`debug_info`), the copies `withDryRun()` and `withLease()` make
//! (`dry_run`, `lease`), the parameters of `refund()`, `charge()` and
//! `reserve()` (`give_back`), and what a class entry gets at MINIT
//! (`limiter_class`). The algorithm classes and the compound use these; none
//! of these knows a class by name.
pub(super) mod debug_info;
pub(super) mod dry_run;
pub(super) mod give_back;
pub mod interface;
pub(super) mod lease;
pub(super) mod limiter_class;
pub(super) mod remaining;
pub(super) mod state;
