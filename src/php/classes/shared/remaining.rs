//! A limiter's `$remaining`: `public readonly ?int`, the remaining count after
//! the object's last call, null before any call and after `reset()`.
//!
//! PHP 8.2 has one way to tell Reflection and PHP code "you cannot write this
//! property": `readonly`. So the property is declared `public readonly ?int`
//! through the Zend API (see `zend_api`), starts null in the constructor, and
//! the extension, which the readonly rule does not bind, writes the new value
//! into the object's property table after each call. A write or unset from PHP
//! throws PHP's own readonly `Error`; reads are plain property reads. Unlike a
//! userland readonly property, the value changes between calls: the stubs say so.

use std::sync::atomic::{AtomicU32, Ordering};

use ext_php_rs::class::RegisteredClass;
use ext_php_rs::types::ZendClassObject;
use ext_php_rs::zend::ClassEntry;

use crate::php::classes::shared::state::LimiterState;
use crate::php::engine::zend_api::{self, MAY_BE_LONG, MAY_BE_NULL};

pub const NAME: &str = "remaining";

/// A limiter class: a `#[php_class]` that holds its `LimiterState` and the
/// policy numbers its constructor was given (for `debug_info`).
pub trait LimiterClass: RegisteredClass {
    fn state(&self) -> &LimiterState;
    fn policy(&self) -> &crate::php::args::given_numbers::GivenNumbers;
}

/// Where `$remaining` lives in every limiter object, found at MINIT so that a
/// call writes it without looking its name up. Each limiter class declares it
/// as its only property, so it has the same offset in all of them, and in any
/// subclass (a subclass's own properties come after its parent's). `UNKNOWN`
/// until declared; `BY_NAME` if two classes ever disagree (then each write
/// looks the name up, as before).
static OFFSET: AtomicU32 = AtomicU32::new(UNKNOWN);
const UNKNOWN: u32 = 0;
const BY_NAME: u32 = u32::MAX;

/// Declares the property on a limiter class (MINIT), and notes where it is.
pub fn declare(ce: &mut ClassEntry) -> Result<(), String> {
    zend_api::declare_readonly(ce, NAME, MAY_BE_LONG | MAY_BE_NULL)?;
    let here = zend_api::property_offset(ce, NAME).unwrap_or(BY_NAME);
    let _ = OFFSET.fetch_update(Ordering::AcqRel, Ordering::Acquire, |known| match known {
        UNKNOWN => Some(here),
        same if same == here => None,
        _ => Some(BY_NAME),
    });
    Ok(())
}

/// Sets `$remaining` to null on the object being constructed; called by each
/// limiter constructor (of class `T`) once its arguments were accepted.
pub fn initialize<T: RegisteredClass>() {
    if let Some(this) = zend_api::this_object(T::get_metadata().ce()) {
        zend_api::write_property(this, NAME, |z| z.set_null());
    }
}

/// Runs one interface method on the limiter, then leaves its remaining count
/// (kept in `LimiterState`) in `$remaining`, whether the call succeeded or not.
pub fn after_call<T: LimiterClass, R>(object: &mut ZendClassObject<T>, call: impl FnOnce(&mut T) -> R) -> R {
    let result = call(&mut **object);
    publish(object);
    result
}

/// Copies the state's remaining count into the object's `$remaining`.
pub fn publish<T: LimiterClass>(object: &mut ZendClassObject<T>) {
    let remaining = object.state().remaining();
    let value = |z: &mut ext_php_rs::types::Zval| match remaining {
        Some(n) => z.set_long(n),
        None => z.set_null(),
    };
    match OFFSET.load(Ordering::Acquire) {
        UNKNOWN | BY_NAME => {
            zend_api::write_property(&mut object.std, NAME, value);
        }
        // SAFETY: the offset every limiter class (T is one) declared
        // `$remaining` at, which a subclass keeps.
        offset => unsafe { zend_api::write_slot(&mut object.std, offset, value) },
    }
}
