//! Failures in plain words: why opening a connection failed (`cause`), a
//! client error (`plain_cause`), an operating system's text (`plain_io`): what
//! a PHP developer can act on, never an `os error` number or a Rust type's name.

use ::redis::RedisError;

use crate::redis::words::redact::shown;

/// A TLS file (`what`: "CA file (cafile)", …) at `path` that cannot be read.
pub fn unreadable_tls_file(what: &str, path: &str, e: &std::io::Error) -> String {
    format!("cannot read the TLS {what} {}: {}", shown(path), plain_io(e))
}

/// An I/O error in plain words.
pub fn plain_io(e: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    match e.kind() {
        K::ConnectionRefused => "connection refused".to_string(),
        K::ConnectionReset => "the server reset the connection".to_string(),
        K::ConnectionAborted | K::BrokenPipe | K::UnexpectedEof => "the server closed the connection".to_string(),
        K::TimedOut | K::WouldBlock => "timed out".to_string(),
        K::NotFound => "no such file".to_string(),
        K::PermissionDenied => "permission denied".to_string(),
        _ => plain(&e.to_string(), ""),
    }
}

/// redis-rs's and the OS's text without their internals: " - Io" (an error
/// kind's Rust name), "(os error 111)", and their capitalised OS phrases.
pub fn plain(text: &str, kind: &str) -> String {
    let mut out = text.to_string();
    for internal in [format!(" - {kind}:"), format!(" - {kind}")] {
        if !kind.is_empty() {
            out = out.replacen(&internal, if internal.ends_with(':') { ":" } else { "" }, 1);
        }
    }
    // " - Io: …" of an error nested in the text (a cluster's list of node errors).
    out = out.replace(" - Io: ", ": ");
    while let Some(at) = out.find(" (os error ") {
        let end = out[at..].find(')').map_or(out.len(), |e| at + e + 1);
        out.replace_range(at..end, "");
    }
    for (os, words) in [
        ("It failed to check startup nodes.", "no cluster node answered"),
        ("Connection refused", "connection refused"),
        ("Connection reset by peer", "the server reset the connection"),
        ("Resource temporarily unavailable", "timed out"),
        ("No such file or directory", "no such file"),
    ] {
        out = out.replace(os, words);
    }
    out
}

/// Why one server could not be connected to: its TLS settings (unreadable
/// files, found before any I/O), or the connection's error.
pub enum OpenError {
    Setup(String),
    Redis(RedisError),
}

/// `plain_cause`, and over TLS the certificate problem said plainly.
pub fn cause(e: &RedisError, over_tls: bool) -> String {
    let text = plain_cause(e);
    match over_tls {
        true => plain_failure(&text).unwrap_or(text),
        false => text,
    }
}

/// A one-line cause in plain words: what a PHP developer can act on, never a
/// Rust type name, a parser's internals or an `os error` number.
pub fn plain_cause(e: &RedisError) -> String {
    use ::redis::ErrorKind;
    if e.is_timeout() {
        return "timed out".to_string();
    }
    if e.is_connection_refusal() {
        return "connection refused".to_string();
    }
    match e.kind() {
        // Bytes that are not RESP: an HTTP server, an SSH daemon, a TLS port spoken to in plain text.
        ErrorKind::Parse => return "not a Redis server (its answer is not the Redis protocol)".to_string(),
        ErrorKind::AuthenticationFailed => return "authentication failed (wrong user name or password)".to_string(),
        _ => {}
    }
    if let Some(code) = e.code() {
        // An error reply: the server's own words ("WRONGTYPE Operation against a key …"),
        // without the " script: <sha>, on @user_script:<line>." Redis adds to
        // an error raised inside one of our scripts: it names our code, not the cause.
        return match e.detail().map(|d| d.split(" script: ").next().unwrap_or(d)) {
            Some(detail) => format!("{code} {detail}"),
            None => code.to_string(),
        };
    }
    if let Some(io) = std::error::Error::source(e).and_then(|s| s.downcast_ref::<std::io::Error>()) {
        return plain_io(io);
    }
    plain(&e.to_string(), &format!("{:?}", e.kind()))
}

/// The cause of a failed TLS handshake in plain words, from rustls's error
/// text (whose Rust names, `UnknownIssuer`, are not repeated); `None` when it
/// is not one.
pub fn plain_failure(text: &str) -> Option<String> {
    let why = if text.contains("UnknownIssuer") || text.contains("BadSignature") {
        "the server's certificate does not verify: it is not signed by a trusted CA (cafile)"
    // rustls names the error (`Expired`) or, with the times it compared,
    // words it ("certificate expired: verification time …"): a validity
    // that ended before it began gives the first, an ordinary one the second.
    } else if text.contains("Expired") || text.contains("certificate expired") {
        "the server's certificate has expired"
    } else if text.contains("NotValidYet") || text.contains("certificate not valid yet") {
        "the server's certificate is not valid yet"
    } else if text.contains("not valid for name") || text.contains("NotValidForName") {
        "the server's certificate is for another host name"
    } else if text.contains("CertificateRequired") {
        "the server requires a client certificate (certfile and keyfile)"
    } else if text.contains("KeyMismatch") {
        "the client key (keyfile) is not the client certificate's"
    } else if text.contains("alert") && ["Certificate", "UnknownCA", "AccessDenied"].iter().any(|a| text.contains(a)) {
        "the server rejected the client certificate"
    } else if text.contains("invalid peer certificate") {
        "the server's certificate does not verify"
    } else if text.contains("corrupt message") || text.contains("InvalidContentType") {
        "the server did not answer in TLS (a plain, non-TLS port?)"
    } else {
        return None;
    };
    Some(format!("TLS handshake failed: {why}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::redis::ErrorKind;

    #[test]
    fn causes_are_plain_words() {
        let io = |kind, text: &str| RedisError::from(std::io::Error::new(kind, text.to_string()));
        assert_eq!(plain_cause(&io(std::io::ErrorKind::WouldBlock, "Resource temporarily unavailable (os error 11)")), "timed out");
        assert_eq!(plain_cause(&io(std::io::ErrorKind::ConnectionRefused, "Connection refused (os error 111)")), "connection refused");
        assert_eq!(
            plain_cause(&io(std::io::ErrorKind::ConnectionReset, "Connection reset by peer (os error 104)")),
            "the server reset the connection"
        );
        assert_eq!(
            plain_cause(&RedisError::from((ErrorKind::AuthenticationFailed, "Password authentication failed"))),
            "authentication failed (wrong user name or password)"
        );
        assert_eq!(plain_cause(&RedisError::from((ErrorKind::Parse, "Parse error"))), "not a Redis server (its answer is not the Redis protocol)");
        let nested = RedisError::from((
            ErrorKind::Io,
            "It failed to check startup nodes.",
            "Failed to connect to each cluster node (127.0.0.1:7000: Connection refused (os error 111))".to_string(),
        ));
        assert_eq!(plain_cause(&nested), "no cluster node answered: Failed to connect to each cluster node (127.0.0.1:7000: connection refused)");
        let text = plain_cause(&nested);
        assert!(!text.contains("os error") && !text.contains(" - Io"), "{text}");
    }

    #[test]
    fn expiry_is_told_in_either_of_rustls_forms() {
        let named = "invalid peer certificate: Expired";
        let worded = "invalid peer certificate: certificate expired: verification time 1795558956 (UNIX), but certificate is not valid after 1795472556 (86400 seconds ago)";
        for text in [named, worded] {
            assert!(plain_failure(text).unwrap().contains("has expired"), "{text}");
        }
        let early = "invalid peer certificate: certificate not valid yet: verification time 1 (UNIX), but certificate is not valid before 2 (1 seconds in the future)";
        assert!(plain_failure(early).unwrap().contains("not valid yet"));
        assert!(plain_failure("invalid peer certificate: NotValidYet").unwrap().contains("not valid yet"));
        assert_eq!(plain_failure("connection refused"), None);
        // rustls's own names are not repeated to the PHP developer.
        let unknown = plain_failure("invalid peer certificate: UnknownIssuer").unwrap();
        assert!(!unknown.contains("UnknownIssuer") && unknown.contains("not signed by a trusted CA"), "{unknown}");
    }
}
