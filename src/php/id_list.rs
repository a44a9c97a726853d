//! The `$ids` argument of `consumeMany()`: an array of ids, read in order with
//! their keys (the answer has the same keys). Like `values::Id`, a wrong value
//! is kept and reported by the method with the parameter's name and the
//! entry's key.

use std::borrow::Cow;

use ext_php_rs::convert::FromZval;
use ext_php_rs::flags::DataType;
use ext_php_rs::types::Zval;

use super::values::{self, type_name};
use crate::error::{Invalid, Result};

/// The most ids one `consumeMany()` call takes: a batch is one round trip,
/// and its work in Redis grows with its size.
pub const MAX_IDS: usize = 1000;

/// An array key as PHP had it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Key {
    Index(i64),
    /// Binary-safe, as PHP's string keys are.
    Name(Vec<u8>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdList(std::result::Result<Vec<(Key, Vec<u8>)>, Invalid>);

impl IdList {
    pub fn entries(self) -> Result<Vec<(Key, Vec<u8>)>> {
        self.0.map_err(|e| e.of("ids"))
    }
}

fn read(z: &Zval) -> std::result::Result<Vec<(Key, Vec<u8>)>, Invalid> {
    let z = z.dereference();
    let Some(array) = z.array() else {
        return Err(Invalid::type_error(format!("must be of type array, {} given", type_name(z))));
    };
    if array.len() > MAX_IDS {
        return Err(Invalid::value(format!("must hold at most {MAX_IDS} ids, {} given", array.len())));
    }
    let mut out = Vec::with_capacity(array.len());
    // The keys as raw zvals: ext-php-rs's (key, value) iterator makes a
    // string key a Rust `String` and panics on one that is not UTF-8, which
    // a PHP array key may well be (binary-safe, like the ids).
    let mut entries = array.iter();
    while let Some((key, value)) = entries.next_zval() {
        let key = match key.long() {
            Some(i) => Key::Index(i),
            None => {
                Key::Name(values::bytes("ids", &key).map_err(|_| Invalid::type_error(format!("has a key of type {}", type_name(&key))))?.into_owned())
            }
        };
        let id = values::bytes("ids", value).map_err(|_| {
            let shown = match &key {
                Key::Index(i) => i.to_string(),
                Key::Name(s) => format!("\"{}\"", String::from_utf8_lossy(s)),
            };
            Invalid::type_error(format!("must contain only strings, {} given at key {shown}", type_name(value)))
        })?;
        out.push((key, Cow::into_owned(id)));
    }
    Ok(out)
}

impl<'a> FromZval<'a> for IdList {
    const TYPE: DataType = DataType::Array;
    fn from_zval(z: &'a Zval) -> Option<Self> {
        Some(IdList(read(z)))
    }
}
