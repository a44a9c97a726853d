//! Warnings for `ratelimit.*` values refused while a request is about to
//! start (`settings`, stage `ZEND_INI_STAGE_ACTIVATE`), given by that request.
//!
//! A php-fpm worker applies its pool's `php_admin_value[…]`/`php_value[…]`
//! right after it is forked, outside any request, and a warning raised then
//! reaches no log: the pool's typo would be dropped in silence, the very
//! thing the startup warning is for. So the warning waits here and the
//! worker's first request gives it (RINIT, `report`), as an `E_WARNING`
//! through the engine's own error machinery: the pool's log (`PHP message:
//! PHP Warning: ratelimit.on_error: …`), shown in the page only where
//! `display_startup_errors` and `display_errors` say so. A worker applies its
//! pool's values once, so it says so once; Apache applies its
//! `php_admin_value` as every request starts, and every request says it.

use std::cell::RefCell;

// Per thread, as the ini values they are about (`settings`).
thread_local! {
    static PENDING: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Keeps `message` for the next request to give.
pub fn defer(message: String) {
    PENDING.with_borrow_mut(|pending| pending.push(message));
}

/// RINIT: gives the warnings kept since the last request, once each.
pub fn report() {
    for message in PENDING.take() {
        ext_php_rs::error::php_error(&ext_php_rs::flags::ErrorType::Warning, &message);
    }
}
