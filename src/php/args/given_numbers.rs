//! The policy numbers a limiter's constructor was given, by long-form
//! parameter name, as it received them (an integral number as an int): what
//! `var_dump()` and `__debugInfo()` show (`debug_info`).

use ext_php_rs::types::Zval;

use crate::php::args::forms::{ConstructorArgs, Signature};
use crate::php::args::values;

/// A policy number as the constructor received it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    Int(i64),
    Float(f64),
}

/// The policy numbers given to a constructor, by long-form parameter name;
/// for a `CompoundRateLimiter`, its members' instead.
#[derive(Debug, Clone, Default)]
pub struct GivenNumbers(Vec<(&'static str, Number)>, Vec<Member>);

/// A member of a compound as `var_dump()` shows it: its class, key prefix and policy.
#[derive(Debug, Clone)]
pub struct Member {
    pub class: String,
    pub key_prefix: Vec<u8>,
    pub policy: GivenNumbers,
}

impl GivenNumbers {
    /// Read after the constructor validated the same arguments, so it cannot
    /// fail; a number that is integral is shown as an int. Read quietly: the
    /// constructor already gave PHP's deprecations for them once.
    pub fn read(sig: &'static Signature, given: &[Option<&Zval>]) -> Self {
        let Ok(args) = sig.read(given) else { return GivenNumbers::default() };
        let numbers = sig
            .long
            .slots
            .iter()
            .map(|(_, long)| *long)
            .filter(|long| !matches!(*long, "connection" | "keyPrefix"))
            .filter_map(|long| number(&args, long).map(|n| (long, n)))
            .collect();
        GivenNumbers(numbers, Vec::new())
    }

    /// A compound's: its members'.
    pub fn compound(members: Vec<Member>) -> Self {
        GivenNumbers(Vec::new(), members)
    }

    pub fn members(&self) -> &[Member] {
        &self.1
    }

    pub fn numbers(&self) -> &[(&'static str, Number)] {
        &self.0
    }
}

/// A number as given, read without PHP's deprecations (the constructor read
/// it by the rules already): an integral one as an int.
fn number(args: &ConstructorArgs, long: &'static str) -> Option<Number> {
    let z = args.get(long)?;
    match (values::int(long, z), values::float(long, z)) {
        (Ok(i), Ok(f)) if i as f64 == f => Some(Number::Int(i)),
        (_, Ok(f)) => Some(Number::Float(f)),
        _ => None,
    }
}
