//! The one error type of the extension. Each variant maps to exactly one PHP
//! exception class (see `php::exceptions`), so the mapping lives in one place.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A bad argument value: PHP `ValueError`. The message names the parameter.
    Value(String),
    /// An argument of the wrong type: PHP `TypeError`.
    Type(String),
    /// A required argument missing or too many given: PHP `ArgumentCountError`.
    ArgumentCount(String),
    /// Redis unreachable, timed out, refused or answered with an error:
    /// `RateLimiterException` (or the `ratelimit.on_error` policy).
    Redis(String),
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// `ValueError` for parameter `$name`: "$name must be ...".
    pub fn value(param: &str, must: impl fmt::Display) -> Self {
        Error::Value(format!("${param} {must}"))
    }
}

impl Error {
    /// The same kind of error with its message rewritten (Redis errors are kept as they are).
    pub fn map_message(self, f: impl FnOnce(String) -> String) -> Self {
        match self {
            Error::Value(m) => Error::Value(f(m)),
            Error::Type(m) => Error::Type(f(m)),
            redis => redis,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Value(m) | Error::Type(m) | Error::ArgumentCount(m) | Error::Redis(m) => f.write_str(m),
        }
    }
}
