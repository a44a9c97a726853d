//! What the readers of plain PHP values (`values`, `connection`,
//! `connection_parts`) read of a value and of an array, as two traits: the
//! engine's `Zval` and `ZendHashTable` implement them, and so does the
//! tree of plain Rust values the fuzz target of `$connection` arrays builds
//! (fuzz/fuzz_targets/connection_arrays.rs), which has no PHP to make zvals.
//! Each method answers as the `Zval` method of the same name does; PHP's name
//! for a value's type (`type_name`) is here too, so this module needs none
//! of its readers.

use ext_php_rs::flags::DataType;
use ext_php_rs::types::{ZendHashTable, Zval};

pub trait PhpValue {
    type Array: PhpArray<Value = Self> + ?Sized;
    /// The value a reference points to (itself when it is none).
    fn dereference(&self) -> &Self;
    fn is_null(&self) -> bool;
    fn is_string(&self) -> bool;
    /// `Some` for a bool only.
    fn bool(&self) -> Option<bool>;
    /// `Some` for an int only.
    fn long(&self) -> Option<i64>;
    /// `Some` for a float only.
    fn double(&self) -> Option<f64>;
    /// `Some` for a string that is UTF-8.
    fn str(&self) -> Option<&str>;
    fn array(&self) -> Option<&Self::Array>;
    /// PHP's name for its type, as in "string given".
    fn type_name(&self) -> String;
}

pub trait PhpArray {
    type Value: PhpValue + ?Sized;
    /// The entry of a string key.
    fn get(&self, key: &str) -> Option<&Self::Value>;
    /// The entry of an int key.
    fn get_index(&self, index: i64) -> Option<&Self::Value>;
    /// The entries' values, in order.
    fn values(&self) -> Box<dyn Iterator<Item = &Self::Value> + '_>;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl PhpValue for Zval {
    type Array = ZendHashTable;
    fn dereference(&self) -> &Self {
        Zval::dereference(self)
    }
    fn is_null(&self) -> bool {
        Zval::is_null(self)
    }
    fn is_string(&self) -> bool {
        Zval::is_string(self)
    }
    fn bool(&self) -> Option<bool> {
        Zval::bool(self)
    }
    fn long(&self) -> Option<i64> {
        Zval::long(self)
    }
    fn double(&self) -> Option<f64> {
        Zval::double(self)
    }
    fn str(&self) -> Option<&str> {
        Zval::str(self)
    }
    fn array(&self) -> Option<&ZendHashTable> {
        Zval::array(self)
    }
    fn type_name(&self) -> String {
        type_name(self)
    }
}

impl PhpArray for ZendHashTable {
    type Value = Zval;
    fn get(&self, key: &str) -> Option<&Zval> {
        ZendHashTable::get(self, key)
    }
    fn get_index(&self, index: i64) -> Option<&Zval> {
        ZendHashTable::get_index(self, index)
    }
    fn values(&self) -> Box<dyn Iterator<Item = &Zval> + '_> {
        Box::new(self.iter().map(|(_, v)| v))
    }
    fn len(&self) -> usize {
        ZendHashTable::len(self)
    }
}

/// PHP's name for the type of a value, as in "string given".
pub fn type_name(z: &Zval) -> String {
    let z = z.dereference();
    match z.get_type() {
        DataType::Null | DataType::Undef => "null".into(),
        DataType::False | DataType::True | DataType::Bool => "bool".into(),
        DataType::Long => "int".into(),
        DataType::Double => "float".into(),
        DataType::String => "string".into(),
        DataType::Array => "array".into(),
        // An anonymous class's name goes on after a NUL byte; PHP shows the part before.
        DataType::Object(_) => {
            z.object().and_then(|o| o.get_class_name().ok()).map_or_else(|| "object".into(), |n| n.split('\0').next().unwrap_or("").to_string())
        }
        _ => "resource".into(),
    }
}
