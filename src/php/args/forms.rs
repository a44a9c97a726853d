//! The two constructor forms every limiter class accepts (docs/api.md, "Building a limiter"):
//! - long, the blog-post limiters' style: `($connection, string $keyPrefix, …numbers)`;
//! - short: `(string $key, …numbers)` on the default connection.
//!
//! Which one (`choose`): a first argument that cannot be a key (null, an
//! array, an object but a `Stringable`) is a connection (long form); a second
//! argument that is not a string is the short form's first number; one that is
//! a string no number reads is the long form's key prefix; a numeric string
//! (`new FixedWindowRateLimiter('api', '60', 5)`, values from the environment)
//! is the short form's when the first argument is no DSN (no "://") or only
//! the short form takes that many arguments, the long form's key prefix
//! otherwise. The PHP
//! signature is the long form's, so named arguments use the long names; the
//! short form's positions are mapped onto long names here, and its own names
//! are the ones its error messages show.

use ext_php_rs::exception::PhpException;
use ext_php_rs::types::Zval;

use crate::error::{Error, Result};
use crate::php::args::values;
use crate::php::engine::exceptions::in_call;

/// One constructor form: per position, the name users see and the long-form
/// parameter it fills.
pub struct Form {
    pub slots: &'static [(&'static str, &'static str)],
    /// How many leading positions are required.
    pub required: usize,
}

pub struct Signature {
    pub class: &'static str,
    pub long: Form,
    pub short: Form,
}

/// The constructor's arguments, read by long-form parameter name.
pub struct ConstructorArgs<'a> {
    sig: &'static Signature,
    short: bool,
    connection: Option<&'a Zval>,
    values: Vec<(&'static str, &'a Zval)>,
}

impl Signature {
    /// Sorts the PHP arguments (positions of the long signature) into a form.
    ///
    /// In the short form, the arguments given one after the other from the
    /// first are positional (short positions); one found after a gap was passed
    /// by name, so it sits at its long-form position and is read by that name:
    /// `new FixedWindowRateLimiter('k', 60, limit: 10)` arrives as
    /// `['k', 60, -, 10]` and means key 'k', window 60, limit 10.
    pub fn read<'a>(&'static self, given: &[Option<&'a Zval>]) -> Result<ConstructorArgs<'a>> {
        let short = self.choose(given);
        let form = if short { &self.short } else { &self.long };
        let function = format!("{}::__construct", self.class);
        // A null number is an omitted optional argument (PHP fills skipped ones with null).
        let first_number = if short { 1 } else { 2 };
        let present = |i: usize| given.get(i).copied().flatten().filter(|z| i < first_number || !z.dereference().is_null());
        let mut slots: Vec<Option<&'a Zval>> = vec![None; form.slots.len()];
        if short {
            let positional = (0..given.len()).find(|&i| present(i).is_none()).unwrap_or(given.len());
            if positional > form.slots.len() {
                return Err(self.too_many(&function, form, short, positional));
            }
            for (i, slot) in slots.iter_mut().enumerate().take(positional) {
                *slot = present(i);
            }
            for j in positional..given.len() {
                let Some(z) = present(j) else { continue };
                let long = self.long.slots[j].1;
                match form.slots.iter().position(|(_, l)| *l == long) {
                    Some(k) if slots[k].is_none() => slots[k] = Some(z),
                    Some(k) => {
                        return Err(Error::ArgumentCount(format!(
                            "{function}(): Argument #{} (${}) given twice, by position and as ${long}",
                            k + 1,
                            form.slots[k].0
                        )))
                    }
                    None => return Err(self.too_many(&function, form, short, j + 1)),
                }
            }
        } else {
            let count = (0..given.len()).rev().find(|&i| present(i).is_some()).map_or(0, |i| i + 1);
            if count > form.slots.len() {
                return Err(self.too_many(&function, form, short, count));
            }
            for (i, slot) in slots.iter_mut().enumerate() {
                *slot = present(i);
            }
        }
        let mut args = ConstructorArgs { sig: self, short, connection: None, values: Vec::new() };
        for (i, ((shown, long), value)) in form.slots.iter().zip(slots).enumerate() {
            match value {
                Some(z) if !short && i == 0 => args.connection = Some(z),
                Some(z) => args.values.push((long, z)),
                None if i < form.required => {
                    return Err(Error::ArgumentCount(format!(
                        "{function}(): Argument #{} (${shown}) of the {} form not passed; {}",
                        i + 1,
                        form_name(short),
                        self.both_forms()
                    )))
                }
                None => {}
            }
        }
        Ok(args)
    }

    /// Whether `given` is the short form (see the module's comment).
    fn choose(&self, given: &[Option<&Zval>]) -> bool {
        let value = |i: usize| given.get(i).copied().flatten().map(Zval::dereference).filter(|z| !z.is_null());
        let stringable = |z: &Zval| z.object().is_some_and(|o| o.instance_of(ext_php_rs::zend::ce::stringable()));
        if given.first().copied().flatten().map(Zval::dereference).is_some_and(|z| z.is_null() || z.is_array() || (z.is_object() && !stringable(z))) {
            return false;
        }
        let Some(second) = value(1).filter(|z| z.is_string()) else { return true };
        // A string no number reads can only be the long form's key prefix.
        if values::float("keyPrefix", second).is_err() {
            return false;
        }
        // A numeric string ('60' from the environment) is either: the count decides
        // where only one form takes that many positional arguments.
        // A first argument that no DSN spells (no "://") can only be the short form's key.
        if value(0).and_then(|z| z.zend_str()).is_some_and(|s| !s.as_bytes().windows(3).any(|w| w == b"://")) {
            return true;
        }
        let count = (0..given.len()).rev().find(|&i| value(i).is_some()).map_or(0, |i| i + 1);
        let contiguous = (0..count).all(|i| value(i).is_some());
        let fits = |f: &Form| (f.required..=f.slots.len()).contains(&count);
        contiguous && fits(&self.short) && !fits(&self.long)
    }

    fn too_many(&self, function: &str, form: &Form, short: bool, count: usize) -> Error {
        Error::ArgumentCount(format!(
            "{function}() expects at most {} arguments in the {} form, {count} given; {}",
            form.slots.len(),
            form_name(short),
            self.both_forms()
        ))
    }

    /// Both forms, for a call that fits neither.
    fn both_forms(&self) -> String {
        format!("the short form is ({}), the long form is ({})", self.names(&self.short), self.names(&self.long))
    }

    fn names(&self, form: &Form) -> String {
        form.slots.iter().map(|(n, _)| format!("${n}")).collect::<Vec<_>>().join(", ")
    }
}

fn form_name(short: bool) -> &'static str {
    if short {
        "short"
    } else {
        "long"
    }
}

impl<'a> ConstructorArgs<'a> {
    /// The connection argument; `None` in the short form (default connection).
    pub fn connection(&self) -> Option<&'a Zval> {
        self.connection
    }
    /// The value given for long-form parameter `long`, if any.
    pub fn get(&self, long: &str) -> Option<&'a Zval> {
        self.values.iter().find(|(n, _)| *n == long).map(|(_, z)| *z)
    }
    fn shown(&self, long: &'static str) -> &'static str {
        let form = if self.short { &self.sig.short } else { &self.sig.long };
        form.slots.iter().find(|(_, l)| *l == long).map_or(long, |(s, _)| s)
    }
    pub fn bytes(&self, long: &'static str) -> Result<Vec<u8>> {
        let z = self.get(long).ok_or_else(|| Error::type_error(self.shown(long), "is required"))?;
        values::string_param(long, z)
    }
    pub fn int(&self, long: &'static str) -> Result<i64> {
        let z = self.get(long).ok_or_else(|| Error::type_error(self.shown(long), "is required"))?;
        values::int_param(long, z)
    }
    pub fn int_or(&self, long: &'static str, default: i64) -> Result<i64> {
        self.get(long).map_or(Ok(default), |z| values::int_param(long, z))
    }
    pub fn float(&self, long: &'static str) -> Result<f64> {
        let z = self.get(long).ok_or_else(|| Error::type_error(self.shown(long), "is required"))?;
        values::float_param(long, z)
    }

    /// The PHP exception for an error raised while reading or validating
    /// these arguments, in PHP's words, with the position and name the caller
    /// used in this form (validation speaks long-form names).
    pub fn explain(&self, e: Error) -> PhpException {
        let form = if self.short { &self.sig.short } else { &self.sig.long };
        let function = format!("{}::__construct", self.sig.class);
        let e = match form.slots.iter().find(|(_, l)| Some(*l) == e.param()) {
            Some((shown, long)) => e.renamed(long, shown),
            None => e,
        };
        // Reflection's `$connection` takes an int or a float too (the short form's key
        // in that position): say why one is refused here.
        let e = match e {
            Error::Param { param, invalid }
                if param == "connection"
                    && invalid.must.starts_with("must be of type Redis|")
                    && (invalid.must.ends_with(", int given") || invalid.must.ends_with(", float given")) =>
            {
                let must = invalid.must.replacen(", ", " in the long form (an int or float there is only the short form's key), ", 1);
                Error::Param { param, invalid: crate::error::Invalid { must, ..invalid } }
            }
            other => other,
        };
        let shown: Vec<&str> = form.slots.iter().map(|(s, _)| *s).collect();
        in_call(e, &function, &shown)
    }
}
