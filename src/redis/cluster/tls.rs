//! TLS settings as redis-rs takes them, for the cluster's connections (a
//! single server's TLS is `wire_tls`'s, on the same files), and TLS failures
//! said plainly; rustls underneath either way (crypto by `ring`, which needs
//! only the C compiler the build already has; no OpenSSL).
//!
//! The CA, certificate and key files are read on every connect, so a renewed
//! certificate is used by the next connection without restarting PHP. A file
//! that cannot be read is a `RateLimiterException` naming the file, raised
//! before anything is sent.

use ::redis::{ClientTlsConfig, ConnectionAddr, TlsCertificates};

use crate::redis::target::redact::shown;
use crate::redis::target::Tls;

/// Why a TLS client could not be set up (a file, not the network).
pub struct SetupError(pub String);

fn read(what: &str, path: &str) -> Result<Vec<u8>, SetupError> {
    std::fs::read(path).map_err(|e| SetupError(crate::redis::plain::unreadable_tls_file(what, path, &e)))
}

/// The address of `host:port` over TLS as `tls` says.
pub fn addr(host: &str, port: u16, tls: &Tls) -> ConnectionAddr {
    // `insecure` is redis-rs's name for verify_peer=0: no chain, expiry or host name check.
    ConnectionAddr::TcpTls { host: host.to_string(), port, insecure: !tls.verify_peer, tls_params: None }
}

/// The CA and client certificate files, read now; `None` when there are none.
pub fn certificates(tls: &Tls) -> Result<Option<TlsCertificates>, SetupError> {
    let client_tls = match (&tls.certfile, &tls.keyfile) {
        (Some(cert), Some(key)) => Some(ClientTlsConfig { client_cert: read("client certificate", cert)?, client_key: read("client key", key)? }),
        _ => None,
    };
    let root_cert = tls.cafile.as_deref().map(|ca| read("CA file", ca)).transpose()?;
    // An empty trust store would fail every handshake as "unknown issuer": name the real cause.
    if let (Some(pem), Some(ca)) = (&root_cert, &tls.cafile) {
        if !pem.windows(27).any(|w| w == b"-----BEGIN CERTIFICATE-----") {
            return Err(SetupError(format!("the TLS CA file {} holds no PEM certificate", shown(ca))));
        }
    }
    if client_tls.is_none() && root_cert.is_none() {
        return Ok(None);
    }
    Ok(Some(TlsCertificates { client_tls, root_cert }))
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
    use crate::redis::cluster::tls::plain_failure;

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
