//! TLS settings as redis-rs takes them, for the cluster's connections (a
//! single server's TLS is `single::tls`'s, on the same files; a failed
//! handshake said plainly is `plain::plain_failure`'s); rustls underneath either way (crypto by `ring`, which needs
//! only the C compiler the build already has; no OpenSSL).
//!
//! The CA, certificate and key files are read on every connect, so a renewed
//! certificate is used by the next connection without restarting PHP. A file
//! that cannot be read is a `RateLimiterException` naming the file, raised
//! before anything is sent.

use ::redis::{ClientTlsConfig, ConnectionAddr, TlsCertificates};

use crate::redis::target::Tls;
use crate::redis::words::redact::shown;

/// Why a TLS client could not be set up (a file, not the network).
pub struct SetupError(pub String);

fn read(what: &str, path: &str) -> Result<Vec<u8>, SetupError> {
    std::fs::read(path).map_err(|e| SetupError(crate::redis::words::plain::unreadable_tls_file(what, path, &e)))
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
