//! The one error type of the extension. Errors are data: a bad argument carries
//! the name of its parameter and what it must be, so the PHP layer can say
//! which argument of which call was wrong (`php::engine::exceptions::in_call`) without
//! ever parsing a message. Each variant maps to one PHP exception class, in
//! one place (`php::engine::exceptions`).

use std::fmt;

/// Which PHP exception a bad argument becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The right type, a wrong value: `ValueError`.
    Value,
    /// A wrong type, or nothing where something is required: `TypeError`.
    Type,
}

/// What is wrong with a value, before we know which parameter it was given as
/// (a method's `$cost` is read before the method names it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    pub kind: Kind,
    /// The rest of the sentence after the parameter: "must be greater than 0".
    pub must: String,
}

impl Invalid {
    pub fn value(must: impl Into<String>) -> Self {
        Invalid { kind: Kind::Value, must: must.into() }
    }
    pub fn type_error(must: impl Into<String>) -> Self {
        Invalid { kind: Kind::Type, must: must.into() }
    }
    /// The error for parameter `$param`.
    pub fn of(self, param: impl Into<String>) -> Error {
        Error::Param { param: param.into(), invalid: self }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A bad argument: `$param must …`, a `ValueError` or `TypeError`.
    Param { param: String, invalid: Invalid },
    /// A required argument missing or too many given: PHP `ArgumentCountError`.
    /// The message is complete (it names the function itself).
    ArgumentCount(String),
    /// Redis unreachable, timed out, refused or answered with an error:
    /// `RateLimiterException` (or the `ratelimit.on_error` policy).
    Redis(String),
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// `ValueError` for parameter `$param`: "$param must be ...".
    pub fn value(param: impl Into<String>, must: impl fmt::Display) -> Self {
        Invalid::value(must.to_string()).of(param)
    }

    /// `TypeError` for parameter `$param`.
    pub fn type_error(param: impl Into<String>, must: impl fmt::Display) -> Self {
        Invalid::type_error(must.to_string()).of(param)
    }

    /// The parameter a bad-argument error is about.
    pub fn param(&self) -> Option<&str> {
        match self {
            Error::Param { param, .. } => Some(param),
            _ => None,
        }
    }

    /// The same error about parameter `to` instead of `from` (the short
    /// constructor form calls `$limit` what validation knows as `$maxRequests`).
    pub fn renamed(self, from: &str, to: &str) -> Self {
        match self {
            Error::Param { param, invalid } if param == from => Error::Param { param: to.to_string(), invalid },
            other => other,
        }
    }

    /// A bad-argument error about one entry of an array parameter:
    /// "$connection must be …" becomes "$connection port must be …".
    pub fn in_entry(self, entry: &str) -> Self {
        match self {
            Error::Param { param, invalid: Invalid { kind, must } } => {
                Error::Param { param, invalid: Invalid { kind, must: format!("{entry} {must}") } }
            }
            other => other,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Param { param, invalid } => write!(f, "${param} {}", invalid.must),
            Error::ArgumentCount(m) | Error::Redis(m) => f.write_str(m),
        }
    }
}

/// The message of a `ValueError`, for unit tests; anything else fails the test.
#[cfg(test)]
pub fn value_error<T: std::fmt::Debug>(r: Result<T>) -> String {
    match r {
        Err(e @ Error::Param { invalid: Invalid { kind: Kind::Value, .. }, .. }) => e.to_string(),
        other => panic!("expected ValueError, got {other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_errors_are_data() {
        let e = Error::value("window", "must be greater than 0");
        assert_eq!(e.param(), Some("window"));
        assert_eq!(e.to_string(), "$window must be greater than 0");
        assert_eq!(e.clone().renamed("window", "w").to_string(), "$w must be greater than 0");
        assert_eq!(e.clone().renamed("other", "w"), e);
        assert_eq!(Error::type_error("connection", "must be of type int").in_entry("port").to_string(), "$connection port must be of type int");
        assert_eq!(Error::Redis("down".into()).in_entry("port"), Error::Redis("down".into()));
        assert_eq!(Invalid::value("x").of("cost"), Error::value("cost", "x"));
    }
}
