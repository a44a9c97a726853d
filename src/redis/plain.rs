//! Operating system and client error texts in plain words: what a PHP
//! developer can act on, never an `os error` number or a Rust type's name.

use super::redact::shown;

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
