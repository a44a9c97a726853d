//! The `RateLimiterInterface` interface every limiter class implements, and the macro
//! that writes a class's `#[php_impl]` block: its own items (constructor,
//! extra methods) plus the interface methods, all forwarding to the class's
//! `state: LimiterState`, so the five classes share one implementation.
//!
//! The methods are not implemented through `#[php_impl_interface]`, because
//! that does not carry the parameter defaults (`$id = ''`, `$cost = 1`) to the
//! class and PHP then rejects the class as incompatible with the interface.

use ext_php_rs::class::RegisteredClass;
use ext_php_rs::prelude::*;
use ext_php_rs::zend::ClassEntry;

use super::result::RateLimitResult;
use super::values::{Id, Int};

#[php_interface]
#[php(name = "RateLimiterInterface")]
pub trait RateLimiterInterface {
    /// Takes `cost` units for `id` if they fit; false (and nothing taken) otherwise.
    #[php(defaults(id = "\"\"", cost = 1))]
    fn is_allowed(&mut self, id: Id, cost: Int) -> PhpResult<bool>;

    /// The same as `isAllowed()`, under the name some articles use.
    #[php(defaults(id = "\"\"", cost = 1))]
    fn access(&mut self, id: Id, cost: Int) -> PhpResult<bool>;

    /// Like `isAllowed()`, with the whole decision.
    #[php(defaults(id = "\"\"", cost = 1))]
    fn consume(&mut self, id: Id, cost: Int) -> PhpResult<RateLimitResult>;

    /// The state of `id`: would a request of cost 1 fit now? Nothing is consumed.
    #[php(defaults(id = "\"\""))]
    fn peek(&mut self, id: Id) -> PhpResult<RateLimitResult>;

    /// Deletes the key of `id`.
    #[php(defaults(id = "\"\""))]
    fn reset(&mut self, id: Id) -> PhpResult<()>;
}

/// The interface's class entry, for `#[php(implements(ce = …))]` on the classes.
pub fn rate_limiter_interface() -> &'static ClassEntry {
    PhpInterfaceRateLimiterInterface::get_metadata().ce()
}

/// Writes the `#[php_impl]` block of a limiter class: the given items, then
/// the `RateLimiterInterface` methods and the `$remaining` property.
#[macro_export]
macro_rules! rate_limiter_impl {
    ($class:ident { $($items:tt)* }) => {
        #[::ext_php_rs::php_impl]
        impl $class {
            $($items)*

            /// What `var_dump()` shows: class, key prefix, policy, remaining; never a password.
            #[php(name = "__debugInfo")]
            pub fn debug_info(&self) -> ::ext_php_rs::prelude::PhpResult<::ext_php_rs::boxed::ZBox<::ext_php_rs::types::ZendHashTable>> {
                $crate::php::debug_info::debug_info(&self.state, &self.policy)
            }

            /// Takes `cost` units for `id` if they fit; false (and nothing taken) otherwise.
            #[php(defaults(id = "\"\"", cost = 1))]
            pub fn is_allowed(&mut self, id: $crate::php::values::Id, cost: $crate::php::values::Int) -> ::ext_php_rs::prelude::PhpResult<bool> {
                self.state.is_allowed("isAllowed", id, cost)
            }

            /// The same as `isAllowed()`.
            #[php(defaults(id = "\"\"", cost = 1))]
            pub fn access(&mut self, id: $crate::php::values::Id, cost: $crate::php::values::Int) -> ::ext_php_rs::prelude::PhpResult<bool> {
                self.state.is_allowed("access", id, cost)
            }

            /// Like `isAllowed()`, with the whole decision.
            #[php(defaults(id = "\"\"", cost = 1))]
            pub fn consume(&mut self, id: $crate::php::values::Id, cost: $crate::php::values::Int) -> ::ext_php_rs::prelude::PhpResult<$crate::php::result::RateLimitResult> {
                self.state.consume(id, cost)
            }

            /// Would a request of cost 1 fit now? Nothing is consumed.
            #[php(defaults(id = "\"\""))]
            pub fn peek(&mut self, id: $crate::php::values::Id) -> ::ext_php_rs::prelude::PhpResult<$crate::php::result::RateLimitResult> {
                self.state.peek(id)
            }

            /// Deletes the key of `id`.
            #[php(defaults(id = "\"\""))]
            pub fn reset(&mut self, id: $crate::php::values::Id) -> ::ext_php_rs::prelude::PhpResult<()> {
                self.state.reset(id)
            }

            /// The remaining count after this object's last call; null before any.
            #[php(getter)]
            pub fn get_remaining(&self) -> Option<i64> {
                self.state.remaining()
            }
        }
    };
}
