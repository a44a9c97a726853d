//! A PHP array's entries with their keys as PHP has them: an integer, or a
//! binary-safe string. ext-php-rs's `(key, value)` iterator makes a string
//! key a Rust `String` and panics on one that is not UTF-8, which a PHP
//! array key may well be; every array whose keys the extension reads
//! (`consumeMany()`'s ids, a compound's members, metrics tables) reads them
//! here.

use ext_php_rs::types::array::Iter;
use ext_php_rs::types::{ZendHashTable, Zval};

/// An array key as PHP had it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Key {
    Index(i64),
    /// Binary-safe, as PHP's string keys are.
    Name(Vec<u8>),
}

impl Key {
    /// The key as an error message names it: `3`, or `"name"` (lossy where it is not UTF-8).
    pub fn shown(&self) -> String {
        match self {
            Key::Index(i) => i.to_string(),
            Key::Name(s) => format!("\"{}\"", String::from_utf8_lossy(s)),
        }
    }

    /// The key's bytes as PHP would make it a string (an integer in decimal).
    pub fn into_bytes(self) -> Vec<u8> {
        match self {
            Key::Index(i) => i.to_string().into_bytes(),
            Key::Name(s) => s,
        }
    }
}

/// The entries of `array` in order, with their keys.
pub fn entries(array: &ZendHashTable) -> impl Iterator<Item = (Key, &Zval)> {
    let mut raw = Iter::new(array);
    std::iter::from_fn(move || {
        let (key, value) = raw.next_zval()?;
        // The engine's keys are integers or strings, nothing else.
        let key = match key.long() {
            Some(i) => Key::Index(i),
            None => Key::Name(key.zend_str().map(|s| s.as_bytes().to_vec()).unwrap_or_default()),
        };
        Some((key, value))
    })
}
