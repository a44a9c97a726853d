//! The two constructor forms every limiter class accepts (API.md):
//! - long, article 000 style: `($connection, string $keyPrefix, …numbers)`;
//! - short, article 004 style: `(string $key, …numbers)` on the default connection.
//!
//! Which one: when the second argument is a string, the first is the connection
//! (long form); otherwise the first argument is the key (short form). The PHP
//! signature is the long form's, so named arguments use the long names; the
//! short form's positions are mapped onto long names here, and its own names
//! are the ones its error messages show.

use ext_php_rs::types::Zval;

use super::exceptions::in_call;
use super::values;
use crate::error::{Error, Result};

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
pub struct Args<'a> {
    sig: &'static Signature,
    short: bool,
    connection: Option<&'a Zval>,
    values: Vec<(&'static str, &'a Zval)>,
}

impl Signature {
    /// Sorts the PHP arguments (positions of the long signature) into a form.
    pub fn read<'a>(&'static self, given: &[Option<&'a Zval>]) -> Result<Args<'a>> {
        let second_is_string = given.get(1).copied().flatten().is_some_and(|z| z.dereference().is_string());
        let (form, short) = if second_is_string { (&self.long, false) } else { (&self.short, true) };
        let count = given.iter().rposition(|z| z.is_some()).map_or(0, |i| i + 1);
        let function = format!("{}::__construct", self.class);
        if count > form.slots.len() {
            return Err(Error::ArgumentCount(format!(
                "{function}() expects at most {} arguments in the {} form ({}), {count} given",
                form.slots.len(),
                form_name(short),
                self.names(form)
            )));
        }
        let mut args = Args { sig: self, short, connection: None, values: Vec::new() };
        for (i, (shown, long)) in form.slots.iter().enumerate() {
            match given.get(i).copied().flatten() {
                Some(z) if !short && i == 0 => args.connection = Some(z),
                Some(z) => args.values.push((long, z)),
                None if i < form.required => {
                    return Err(Error::ArgumentCount(format!(
                        "{function}(): Argument #{} (${shown}) not passed; the {} form is ({})",
                        i + 1,
                        form_name(short),
                        self.names(form)
                    )))
                }
                None => {}
            }
        }
        Ok(args)
    }

    fn names(&self, form: &Form) -> String {
        form.slots.iter().map(|(n, _)| format!("${n}")).collect::<Vec<_>>().join(", ")
    }
}

fn form_name(short: bool) -> &'static str {
    if short { "short" } else { "long" }
}

impl<'a> Args<'a> {
    pub fn is_short(&self) -> bool {
        self.short
    }
    /// The connection argument; `None` in the short form (default connection).
    pub fn connection(&self) -> Option<&'a Zval> {
        self.connection
    }
    fn get(&self, long: &str) -> Option<&'a Zval> {
        self.values.iter().find(|(n, _)| *n == long).map(|(_, z)| *z)
    }
    fn shown(&self, long: &'static str) -> &'static str {
        let form = if self.short { &self.sig.short } else { &self.sig.long };
        form.slots.iter().find(|(_, l)| *l == long).map_or(long, |(s, _)| s)
    }
    pub fn bytes(&self, long: &'static str) -> Result<Vec<u8>> {
        let z = self.get(long).ok_or_else(|| Error::Type(format!("${} is required", self.shown(long))))?;
        values::bytes(long, z).map(|b| b.into_owned())
    }
    pub fn int(&self, long: &'static str) -> Result<i64> {
        let z = self.get(long).ok_or_else(|| Error::Type(format!("${} is required", self.shown(long))))?;
        values::int(long, z)
    }
    pub fn int_or(&self, long: &'static str, default: i64) -> Result<i64> {
        self.get(long).map_or(Ok(default), |z| values::int(long, z))
    }
    pub fn float(&self, long: &'static str) -> Result<f64> {
        let z = self.get(long).ok_or_else(|| Error::Type(format!("${} is required", self.shown(long))))?;
        values::float(long, z)
    }

    /// Puts an error raised while reading these arguments in PHP's words, with
    /// the position and name the caller used in this form.
    pub fn explain(&self, e: Error) -> Error {
        let form = if self.short { &self.sig.short } else { &self.sig.long };
        let function = format!("{}::__construct", self.sig.class);
        // Validation speaks long-form names; the short form's caller knows others.
        let renamed = e.map_message(|m| {
            for (s, l) in form.slots {
                if let Some(rest) = m.strip_prefix('$').and_then(|r| r.strip_prefix(*l)).filter(|r| r.starts_with(' ')) {
                    return format!("${s}{rest}");
                }
            }
            m
        });
        let shown: Vec<&str> = form.slots.iter().map(|(s, _)| *s).collect();
        in_call(renamed, &function, &shown)
    }
}
