//! The `$ids` argument of `consumeMany()`: an array of ids, read in order with
//! their keys (the answer has the same keys). Like `values::Id`, a wrong value
//! is kept and reported by the method with the parameter's name and the
//! entry's key.

use std::borrow::Cow;

use ext_php_rs::convert::FromZval;
use ext_php_rs::flags::DataType;
use ext_php_rs::types::Zval;

use crate::error::{Invalid, Result};
use crate::php::args::array_entries::entries;
pub use crate::php::args::array_entries::Key;
use crate::php::args::php_value::type_name;
use crate::php::args::values;

/// The most ids one `consumeMany()` call takes: a batch is one round trip,
/// and its work in Redis grows with its size.
pub const MAX_IDS: usize = 1000;

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
    for (key, value) in entries(array) {
        let id = values::bytes("ids", value)
            .map_err(|_| Invalid::type_error(format!("must contain only strings, {} given at key {}", type_name(value), key.shown())))?;
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
