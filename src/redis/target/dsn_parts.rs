//! The pieces every DSN form shares (`dsn`, `target::sentinel`): host and
//! port, credentials, the db, percent-decoding, the TLS options of the query,
//! and the error that names the DSN (without its password).

use crate::error::{Error, Result};
use crate::redis::target::{Target, Tls};
use crate::redis::words::redact::shown_dsn;

pub(super) fn bad_dsn(dsn: &str, why: &str) -> Error {
    Error::value("connection", format!("is not a valid Redis DSN ({why}): \"{}\"", shown_dsn(dsn)))
}

/// The schemes phpredis, Predis, Laravel and redis-rs use to ask for TLS.
pub fn is_tls_scheme(scheme: &str) -> bool {
    ["rediss", "tls", "ssl", "valkeys"].iter().any(|t| t.eq_ignore_ascii_case(scheme))
}

/// The query of a `rediss://` DSN: the TLS options, named as phpredis's and
/// redis-cli's (`cafile`, `certfile`/`local_cert`, `keyfile`/`local_pk`, `verify_peer`).
pub(super) fn parse_tls_query(dsn: &str, query: &str) -> Result<Tls> {
    let mut tls = Tls::default();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let file = || -> Result<Option<String>> {
            let v = percent_decode(dsn, value)?;
            if v.is_empty() || v.contains('\0') {
                return Err(bad_dsn(dsn, &format!("{name} must be a file name")));
            }
            Ok(Some(v))
        };
        match name {
            "cafile" | "ca_file" => tls.cafile = file()?,
            "certfile" | "local_cert" => tls.certfile = file()?,
            "keyfile" | "local_pk" => tls.keyfile = file()?,
            "verify_peer" => {
                tls.verify_peer = match value.to_ascii_lowercase().as_str() {
                    "1" | "true" | "yes" | "on" => true,
                    "0" | "false" | "no" | "off" => false,
                    _ => return Err(bad_dsn(dsn, "verify_peer must be 0 or 1")),
                }
            }
            _ => return Err(bad_dsn(dsn, "unknown query parameter, expected cafile, certfile, keyfile or verify_peer")),
        }
    }
    Ok(tls)
}

pub(super) fn split_host_port(dsn: &str, hostport: &str, default_port: u16) -> Result<(String, u16)> {
    let (host, port) = if let Some(v6) = hostport.strip_prefix('[') {
        let Some(end) = v6.find(']') else { return Err(bad_dsn(dsn, "unclosed [ in IPv6 host")) };
        let after = &v6[end + 1..];
        let port = match after.strip_prefix(':') {
            Some(p) => Some(p),
            None if after.is_empty() => None,
            None => return Err(bad_dsn(dsn, "unexpected text after IPv6 host")),
        };
        (&v6[..end], port)
    } else {
        match hostport.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (hostport, None),
        }
    };
    if host.is_empty() {
        return Err(bad_dsn(dsn, "missing host"));
    }
    if host.chars().any(|c| c.is_whitespace() || c.is_control() || c == '/' || c == '@') {
        return Err(bad_dsn(dsn, "invalid host"));
    }
    let port = match port {
        None => default_port,
        Some(p) => match p.parse::<u16>() {
            Ok(n) if n > 0 && p.bytes().all(|b| b.is_ascii_digit()) => n,
            _ => return Err(bad_dsn(dsn, "port must be 1..65535")),
        },
    };
    Ok((host.to_string(), port))
}

pub(super) fn parse_db(dsn: &str, s: &str) -> Result<i64> {
    match s.parse::<i64>() {
        Ok(n) if n >= 0 && s.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
        _ => Err(bad_dsn(dsn, "db must be a non-negative integer")),
    }
}

pub(super) fn percent_decode(dsn: &str, s: &str) -> Result<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok());
            match hex {
                Some(b) => {
                    out.push(b);
                    i += 3;
                }
                None => return Err(bad_dsn(dsn, "bad percent-encoding")),
            }
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| bad_dsn(dsn, "credentials are not valid UTF-8"))
}

/// `user:password@rest` → (`Some("user:password")`, `rest`); the last `@`
/// counts, so a password may hold one.
pub(super) fn split_userinfo(authority: &str) -> (Option<&str>, &str) {
    match authority.rfind('@') {
        Some(i) => (Some(&authority[..i]), &authority[i + 1..]),
        None => (None, authority),
    }
}

/// The user and password of a DSN's `user:password`, or `password` alone
/// (phpredis's `redis://secret@host`), percent-decoded.
pub(super) fn set_credentials(dsn: &str, target: &mut Target, userinfo: Option<&str>) -> Result<()> {
    if let Some(info) = userinfo {
        let (user, pass) = info.split_once(':').unwrap_or(("", info));
        if !user.is_empty() {
            target.username = Some(percent_decode(dsn, user)?);
        }
        target.password = Some(percent_decode(dsn, pass)?);
    }
    Ok(())
}

/// `target` with the TLS options of `query` when the scheme asked for TLS
/// (`Some`, maybe empty); as it is otherwise.
pub(super) fn with_tls_query(dsn: &str, target: Target, query: Option<&str>) -> Result<Target> {
    match query {
        Some(query) => {
            let options = parse_tls_query(dsn, query)?;
            target.with_tls(options).map_err(|_| bad_dsn(dsn, "certfile and keyfile go together"))
        }
        None => Ok(target),
    }
}
