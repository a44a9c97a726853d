//! `withDryRun(bool $on = true): static` on every limiter class: a copy of
//! the limiter (the same connection target, keys, policy and `$remaining`;
//! the original unchanged) that is in dry run (`$on`) or enforces, whatever
//! `ratelimit.dry_run` says. A dry run decides, writes and counts as
//! enforcing would, and answers every denial as accepted with `wouldDeny`
//! (`limiter::decide::conclude`).
//!
//! The copy is an object of the original's own class, a user's subclass
//! included (`static`): its properties are copied as `clone` copies them
//! (`zend_objects_clone_members`), its Rust state is the original's with
//! the dry-run choice set. `clone` itself stays refused: a copy that only
//! differs in nothing is worth nothing.

use ext_php_rs::boxed::ZBox;
use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendClassObject, Zval};
use ext_php_rs::zend::ClassEntry;

use crate::php::args::values;
use crate::php::classes::shared::remaining::LimiterClass;
use crate::php::classes::shared::state::LimiterState;
use crate::php::engine::exceptions::in_call;
use crate::php::engine::zend_api::{self, MAY_BE_BOOL, MAY_BE_DOUBLE, MAY_BE_STRING};

/// `$on` as given (true when left out), read as PHP reads a bool.
pub fn on(class: &str, given: Option<&Zval>) -> PhpResult<bool> {
    given.map_or(Ok(true), |z| values::bool_param("on", z)).map_err(|e| in_call(e, &format!("{class}::withDryRun"), &["on"]))
}

/// The copy of `object` whose state `make` builds from the original's
/// (`LimiterState::with_dry_run`).
pub fn copy<T: LimiterClass>(object: &mut ZendClassObject<T>, make: impl FnOnce(&T) -> T) -> ZBox<ZendClassObject<T>> {
    let value = make(object);
    // SAFETY: initialized at once, before anything reads it; `ce` is the
    // original's class, `T`'s own or a subclass of it (it shares `T`'s handlers).
    let mut copy = unsafe { ZendClassObject::<T>::new_uninit(Some(&*object.std.ce)) };
    copy.initialize(value);
    // SAFETY: both are live objects of the same class.
    unsafe { ext_php_rs::ffi::zend_objects_clone_members(&raw mut copy.std, &raw mut object.std) };
    copy
}

/// What Reflection shows of the method (MINIT): `bool $on = true`, returning
/// `static`; and of the lock-out methods, which make copies the same way:
/// `block(string $id, float $seconds): void`, `unblock(string $id): void`,
/// `withLockout(float $seconds): static`.
pub fn declare(ce: &ClassEntry) -> Result<(), String> {
    zend_api::set_parameter(ce, "withdryrun", 0, "on", MAY_BE_BOOL, Some(c"true"))?;
    zend_api::set_return_static(ce, "withdryrun")?;
    zend_api::set_parameter(ce, "block", 0, "id", MAY_BE_STRING, None)?;
    zend_api::set_parameter(ce, "block", 1, "seconds", MAY_BE_DOUBLE, None)?;
    zend_api::set_parameter(ce, "unblock", 0, "id", MAY_BE_STRING, None)?;
    zend_api::set_parameter(ce, "withlockout", 0, "seconds", MAY_BE_DOUBLE, None)?;
    zend_api::set_return_static(ce, "withlockout")
}

/// The state of a copy: `state` with the dry-run choice `on`.
pub fn state(state: &LimiterState, on: bool) -> LimiterState {
    state.with_dry_run(on)
}
