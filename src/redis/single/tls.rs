//! TLS for the shared connection (`wire`, `mux`): rustls over a TCP socket
//! that one thread reads while another writes. The socket itself is read and
//! written without a lock; rustls's state (which decrypts what was read and
//! encrypts what is written, in order) is behind one, held only to hand it
//! bytes or take bytes from it, never while waiting for the server to send.
//!
//! The client is configured as redis-rs configures its own TLS connections
//! (`tls::client`): the CA file, or the system's trust store without one; a
//! client certificate and key when given; `verify_peer=0` verifies nothing
//! and sends no server name. The errors are redis-rs's, word for word, so a
//! certificate that does not verify is told the same way on either kind of
//! connection (`plain::plain_failure`). One difference: the handshake is made when
//! the connection opens, within the connect timeout, where redis-rs makes it
//! with the first command.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;

use ::redis::{ErrorKind, RedisError, RedisResult};
use parking_lot::Mutex;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{ClientConfig, ClientConnection, DigitallySignedStruct, RootCertStore, SignatureScheme};

use crate::redis::target::Tls;
use crate::redis::words::plain::OpenError;

pub struct TlsStream {
    tcp: TcpStream,
    tls: Mutex<ClientConnection>,
}

/// TLS over `tcp` to `host` with `config`, the handshake done (`tcp` has
/// the time left for it as its timeouts).
pub fn connect(tcp: TcpStream, host: &str, config: Arc<ClientConfig>) -> RedisResult<TlsStream> {
    let name = ServerName::try_from(host)?.to_owned();
    let mut conn = ClientConnection::new(config, name)?;
    let mut io = &tcp;
    while conn.is_handshaking() {
        conn.complete_io(&mut io)?;
    }
    Ok(TlsStream { tls: Mutex::new(conn), tcp })
}

impl TlsStream {
    pub fn tcp(&self) -> &TcpStream {
        &self.tcp
    }

    /// Plaintext the server sent: what rustls has already decrypted, else
    /// what the next bytes from the socket (read without the lock) give.
    #[inline(never)]
    pub fn read(&self, buf: &mut [u8]) -> io::Result<usize> {
        let mut raw = [0u8; 16 * 1024];
        loop {
            {
                let mut tls = self.tls.lock();
                match tls.reader().read(buf) {
                    Ok(n) => return Ok(n),
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                    Err(e) => return Err(e),
                }
            }
            let n = (&self.tcp).read(&mut raw)?;
            if n == 0 {
                return Ok(0);
            }
            let mut tls = self.tls.lock();
            let mut rest = &raw[..n];
            while !rest.is_empty() {
                tls.read_tls(&mut rest)?;
                tls.process_new_packets().map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
            }
            // A message after the handshake may want an answer (a key update).
            while tls.wants_write() {
                tls.write_tls(&mut &self.tcp)?;
            }
        }
    }

    /// Encrypts `buf` and sends it, under the lock: records leave in order.
    /// rustls takes at most its buffer limit (64 KiB) of plaintext before
    /// its records are sent, so a longer command (the library's FUNCTION
    /// LOAD, a large batch) is handed over in pieces, each sent before the next.
    pub fn write_all(&self, buf: &[u8]) -> io::Result<()> {
        let mut tls = self.tls.lock();
        let mut rest = buf;
        while !rest.is_empty() {
            let n = tls.writer().write(rest)?;
            rest = &rest[n..];
            let flushed = tls.wants_write();
            while tls.wants_write() {
                tls.write_tls(&mut &self.tcp)?;
            }
            if n == 0 && !flushed {
                return Err(io::Error::new(io::ErrorKind::WriteZero, "TLS took no more plaintext"));
            }
        }
        while tls.wants_write() {
            tls.write_tls(&mut &self.tcp)?;
        }
        Ok(())
    }
}

/// The client's configuration, as redis-rs builds it (`create_rustls_config`
/// with the parameters of `retrieve_tls_certificates`), before anything is
/// sent: the files are read now (a renewed certificate is used by the next connection).
pub fn config(tls: &Tls) -> Result<Arc<ClientConfig>, OpenError> {
    let files = crate::redis::cluster::tls::certificates(tls).map_err(|e| OpenError::Setup(e.0))?;
    let (client, root) = match &files {
        Some(files) => parse(files).map_err(|e| OpenError::Setup(format!("the TLS files do not load: {e}")))?,
        None => (None, None),
    };
    let build = || -> RedisResult<ClientConfig> {
        let roots = match root {
            Some(roots) => roots,
            None => {
                let mut store = RootCertStore::empty();
                let mut found = rustls_native_certs::load_native_certs();
                if let Some(e) = found.errors.pop() {
                    return Err(e.into());
                }
                for cert in found.certs {
                    store.add(cert)?;
                }
                store
            }
        };
        let builder = ClientConfig::builder().with_root_certificates(roots);
        let mut config = match client {
            Some((chain, key)) => builder.with_client_auth_cert(chain, key).map_err(|e| {
                RedisError::from((ErrorKind::InvalidClientConfig, "Unable to build client with TLS parameters provided.", e.to_string()))
            })?,
            None => builder.with_no_client_auth(),
        };
        if !tls.verify_peer {
            let Some(provider) = rustls::crypto::CryptoProvider::get_default() else {
                return Err(RedisError::from((ErrorKind::InvalidClientConfig, "No crypto provider available for rustls")));
            };
            config.enable_sni = false;
            config.dangerous().set_certificate_verifier(Arc::new(NoVerification(provider.signature_verification_algorithms)));
        }
        Ok(config)
    };
    build().map(Arc::new).map_err(OpenError::Redis)
}

type ClientCert = (Vec<CertificateDer<'static>>, PrivateKeyDer<'static>);

/// The PEM files' certificates and key, as redis-rs reads them.
fn parse(files: &::redis::TlsCertificates) -> RedisResult<(Option<ClientCert>, Option<RootCertStore>)> {
    let client = match &files.client_tls {
        Some(c) => {
            let chain = CertificateDer::pem_slice_iter(&c.client_cert)
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| io::Error::other(format!("Unable to parse client certificate chain PEM: {e}")))?;
            let key = PrivateKeyDer::from_pem_slice(&c.client_key)
                .map_err(|e| io::Error::other(format!("Unable to extract private key from PEM file: {e}")))?;
            Some((chain, key))
        }
        None => None,
    };
    let root = match &files.root_cert {
        Some(pem) => {
            let mut store = RootCertStore::empty();
            for cert in CertificateDer::pem_slice_iter(pem) {
                let cert = cert.map_err(|e| io::Error::other(format!("Unable to parse root certificate PEM: {e}")))?;
                if store.add(cert).is_err() {
                    return Err(io::Error::other("Unable to parse TLS trust anchors").into());
                }
            }
            Some(store)
        }
        None => None,
    };
    Ok((client, root))
}

/// A handshake signature's check, as rustls asks it.
type Signature = Result<HandshakeSignatureValid, rustls::Error>;

/// `verify_peer=0`: any certificate is taken (the connection is still encrypted).
#[derive(Debug)]
struct NoVerification(rustls::crypto::WebPkiSupportedAlgorithms);

impl ServerCertVerifier for NoVerification {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    // rustls asks the same question once per protocol version: one answer.
    fn verify_tls12_signature(&self, _: &[u8], _: &CertificateDer<'_>, _: &DigitallySignedStruct) -> Signature {
        Ok(HandshakeSignatureValid::assertion())
    }

    fn verify_tls13_signature(&self, m: &[u8], c: &CertificateDer<'_>, d: &DigitallySignedStruct) -> Signature {
        self.verify_tls12_signature(m, c, d)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_schemes()
    }
}
