//! The `$style` argument of `RateLimitResult::headers()`. Like `values::Id`, a
//! wrong value is kept and reported by the method in PHP's own words (the
//! engine does not check an internal method's argument types, and
//! ext-php-rs's generic message would not name the parameter). A null reaches
//! `coerce` as for `values::Id` (`NULLABLE` for the binding only; Reflection
//! shows `string $style`).

use ext_php_rs::convert::{FromZval, StubLiteral};
use ext_php_rs::flags::DataType;
use ext_php_rs::types::Zval;

use ext_php_rs::exception::PhpException;

use crate::error::{Error, Result};
use crate::php::args::values::string_param;
use crate::php::engine::exceptions::in_call;
use crate::php::result::headers::HeaderStyle;

const METHOD: &str = "RateLimitResult::headers";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StyleArg(Result<Vec<u8>>);

impl StyleArg {
    /// The style asked for: a TypeError for a non-string, a ValueError for an unknown name.
    pub fn style(self) -> std::result::Result<HeaderStyle, PhpException> {
        let name = self.0.map_err(|e| in_call(e, METHOD, &["style"]))?;
        std::str::from_utf8(&name)
            .ok()
            .and_then(HeaderStyle::parse)
            .ok_or_else(|| in_call(Error::value("style", "must be \"x\" or \"ietf\""), METHOD, &["style"]))
    }
}

impl From<&str> for StyleArg {
    fn from(s: &str) -> Self {
        StyleArg(Ok(s.as_bytes().to_vec()))
    }
}

impl StubLiteral for StyleArg {
    fn stub_literal(&self) -> String {
        let s = self.0.as_deref().map(String::from_utf8_lossy).unwrap_or_default();
        format!("'{s}'")
    }
}

impl<'a> FromZval<'a> for StyleArg {
    const TYPE: DataType = DataType::String;
    const NULLABLE: bool = true;
    fn from_zval(z: &'a Zval) -> Option<Self> {
        Some(StyleArg(string_param("style", z)))
    }
    /// `headers()` declares `$style = 'x'`, which the binding uses instead.
    fn from_missing() -> Option<Self> {
        Some(StyleArg::from("x"))
    }
}
