//! How user input is shown back in a message: credentials replaced by `***`,
//! NUL bytes escaped (PHP cannot carry them in an exception message built
//! from a C string) and the whole cut to a readable length, so a 1 MB DSN
//! does not become a 1 MB message.

/// Inputs echoed in messages are cut after this many bytes, then "…".
pub const MAX_SHOWN: usize = 200;

/// `text` fit for a message: NUL bytes written as `\0`, cut to [`MAX_SHOWN`]
/// bytes (on a character boundary) plus "…".
pub fn shown(text: &str) -> String {
    let escaped = text.replace('\0', "\\0");
    if escaped.len() <= MAX_SHOWN {
        return escaped;
    }
    let mut end = MAX_SHOWN;
    while !escaped.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &escaped[..end])
}

/// The same as [`shown`], for bytes that may not be UTF-8.
pub fn shown_bytes(bytes: &[u8]) -> String {
    shown(&String::from_utf8_lossy(bytes))
}

/// A DSN (or anything a user meant as one) with its credentials replaced:
/// everything between `://` and the last `@` (the user name kept when a `:`
/// separates it from the password), and the value of any `password`, `pass`
/// or `auth` query parameter, or one whose name ends so (`sentinel_password`;
/// a `#service` after it goes too). Without `://`, everything before the last
/// `@` is taken as credentials.
pub fn redact_dsn(dsn: &str) -> String {
    let mut out = match (dsn.find("://"), dsn.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let creds = &dsn[s + 3..at];
            match creds.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &dsn[..s + 3], &dsn[at..]),
                None => format!("{}***{}", &dsn[..s + 3], &dsn[at..]),
            }
        }
        (None, Some(at)) => format!("***{}", &dsn[at..]),
        _ => dsn.to_string(),
    };
    if let Some(q) = out.find('?') {
        let (head, query) = out.split_at(q + 1);
        let query: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                // `sentinel_password` too: any name ending in one of these.
                Some((k, _)) if ["password", "pass", "auth"].iter().any(|c| k.to_ascii_lowercase().ends_with(c)) => format!("{k}=***"),
                _ => pair.to_string(),
            })
            .collect();
        out = format!("{head}{}", query.join("&"));
    }
    out
}

/// A DSN as error messages show it: redacted, then [`shown`].
pub fn shown_dsn(dsn: &str) -> String {
    shown(&redact_dsn(dsn))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_credential_form_is_redacted() {
        assert_eq!(redact_dsn("redis://topsecretpw@127.0.0.1:0"), "redis://***@127.0.0.1:0");
        assert_eq!(redact_dsn("redis://u:topsecret@h:0"), "redis://u:***@h:0");
        assert_eq!(redact_dsn("redis://:topsecret@h"), "redis://:***@h");
        assert_eq!(redact_dsn("redis://u:top@se/cret@h/x"), "redis://u:***@h/x");
        assert_eq!(redact_dsn("unix:///tmp/x.sock?password=topsecret&bogus=1"), "unix:///tmp/x.sock?password=***&bogus=1");
        assert_eq!(redact_dsn("unix:///tmp/x.sock?db=1&PASS=topsecret"), "unix:///tmp/x.sock?db=1&PASS=***");
        assert_eq!(redact_dsn("topsecret@127.0.0.1:6379"), "***@127.0.0.1:6379");
        assert_eq!(redact_dsn("redis://h:1/2"), "redis://h:1/2");
        assert_eq!(redact_dsn("redis-sentinel://h:1?sentinel_password=topsecret#m"), "redis-sentinel://h:1?sentinel_password=***");
    }

    #[test]
    fn shown_text_is_short_and_free_of_nul_bytes() {
        assert_eq!(shown("a\0b"), "a\\0b");
        let long = "x".repeat(1 << 20);
        let s = shown(&long);
        assert_eq!(s.len(), MAX_SHOWN + "…".len());
        assert!(s.ends_with('…'));
        // A multi-byte character across the cut is not split.
        let s = shown(&format!("{}é{}", "x".repeat(MAX_SHOWN - 1), "y".repeat(10)));
        assert_eq!(s, format!("{}…", "x".repeat(MAX_SHOWN - 1)));
        assert_eq!(shown_bytes(b"\xff\0"), "\u{fffd}\\0");
    }

    #[test]
    fn a_long_dsn_is_redacted_before_it_is_cut() {
        let dsn = format!("redis://u:topsecret@{}", "h".repeat(1 << 20));
        let s = shown_dsn(&dsn);
        assert!(!s.contains("topsecret"));
        assert!(s.len() <= MAX_SHOWN + 3);
    }
}
