//! `CompoundRateLimiter`: `(array $limiters)`, 1 to 16 limiters of any classes
//! on one connection target, decided as one: a call is accepted only when
//! every member accepts, and then every member takes it (one atomic script,
//! `lua/entries.lua`, `compound`); when one denies, none takes anything.

use ext_php_rs::convert::FromZval;
use ext_php_rs::flags::{ClassFlags, DataType};
use ext_php_rs::prelude::*;
use ext_php_rs::types::Zval;
use ext_php_rs::zend::ClassEntry;

use crate::error::Invalid;
use crate::php::args::array_entries::entries;
use crate::php::args::given_numbers::{GivenNumbers, Member};
use crate::php::args::php_value::type_name;
use crate::php::classes::algorithms::fixed_window::FixedWindowRateLimiter;
use crate::php::classes::algorithms::gcra::GcraRateLimiter;
use crate::php::classes::algorithms::leaky_bucket::LeakyBucketRateLimiter;
use crate::php::classes::algorithms::sliding_window::SlidingWindowRateLimiter;
use crate::php::classes::algorithms::token_bucket::TokenBucketRateLimiter;
use crate::php::classes::shared::interface::{rate_limiter_impl, rate_limiter_interface};
use crate::php::classes::shared::remaining::{self, LimiterClass};
use crate::php::classes::shared::state::LimiterState;
use crate::php::engine::exceptions::in_call;
use crate::php::engine::register::Finish;

const CLASS: &str = "CompoundRateLimiter";

/// The state and policy of a limiter object of one of our classes, if it is one.
fn state_of(z: &Zval) -> Option<(&LimiterState, &GivenNumbers)> {
    fn of<'a, T: LimiterClass>(z: &'a Zval) -> Option<(&'a LimiterState, &'a GivenNumbers)>
    where
        &'a T: FromZval<'a>,
    {
        <&T>::from_zval(z).map(|l| (l.state(), l.policy()))
    }
    of::<FixedWindowRateLimiter>(z)
        .or_else(|| of::<SlidingWindowRateLimiter>(z))
        .or_else(|| of::<TokenBucketRateLimiter>(z))
        .or_else(|| of::<LeakyBucketRateLimiter>(z))
        .or_else(|| of::<GcraRateLimiter>(z))
        .or_else(|| of::<CompoundRateLimiter>(z))
}

/// The `$limiters` argument: the members' states, what `var_dump()` shows
/// of them and their keys in the array (their names in the IETF header
/// fields), or what is wrong with it.
pub struct Members<'a>(std::result::Result<Parts<'a>, Invalid>);

/// The members' states, what `var_dump()` shows of them, their keys.
type Parts<'a> = (Vec<&'a LimiterState>, Vec<Member>, Vec<Vec<u8>>);

impl<'a> FromZval<'a> for Members<'a> {
    const TYPE: DataType = DataType::Array;
    fn from_zval(z: &'a Zval) -> Option<Self> {
        let z = z.dereference();
        let Some(array) = z.array() else {
            return Some(Members(Err(Invalid::type_error(format!("must be of type array, {} given", type_name(z))))));
        };
        let mut members = Vec::with_capacity(array.len());
        let mut shown = Vec::with_capacity(array.len());
        let mut keys = Vec::with_capacity(array.len());
        for (key, value) in entries(array) {
            match state_of(value.dereference()) {
                Some((state, policy)) => {
                    members.push(state);
                    shown.push(Member {
                        class: value.dereference().object().and_then(|o| o.get_class_name().ok()).unwrap_or_default(),
                        key_prefix: state.limiter().key(b"").unwrap_or_default(),
                        policy: policy.clone(),
                    });
                    keys.push(key.into_bytes());
                }
                None => {
                    let what = format!("must contain only rate limiters of this extension, {} given at key {}", type_name(value), key.shown());
                    return Some(Members(Err(Invalid::type_error(what))));
                }
            }
        }
        Some(Members(Ok((members, shown, keys))))
    }
}

#[php_class]
#[php(name = "CompoundRateLimiter")]
#[php(implements(ce = rate_limiter_interface, stub = "RateLimiterInterface"))]
#[php(flags = ClassFlags::Final)]
pub struct CompoundRateLimiter {
    state: LimiterState,
    /// No numbers of its own: its members', which `var_dump()` shows.
    policy: GivenNumbers,
}

rate_limiter_impl!(CompoundRateLimiter {
    /// All-or-nothing over `$limiters` (1 to 16, one connection target, distinct key prefixes).
    pub fn __construct(limiters: Members) -> PhpResult<Self> {
        let make = || -> crate::error::Result<(LimiterState, GivenNumbers)> {
            let (members, shown, keys) = limiters.0.map_err(|e| e.of("limiters"))?;
            Ok((LimiterState::compound(CLASS, &members, keys)?, GivenNumbers::compound(shown)))
        };
        let (state, policy) = make().map_err(|e| in_call(e, &format!("{CLASS}::__construct"), &["limiters"]))?;
        remaining::initialize::<Self>();
        Ok(CompoundRateLimiter { state, policy })
    }
});

impl Finish for CompoundRateLimiter {
    fn finish(ce: &mut ClassEntry) -> std::result::Result<(), String> {
        crate::php::classes::shared::debug_info::install::<Self>();
        crate::php::classes::shared::interface::declare_parameters(ce)?;
        crate::php::classes::shared::give_back::declare(ce)?;
        crate::php::classes::shared::dry_run::declare(ce)?;
        remaining::declare(ce)
    }
}
