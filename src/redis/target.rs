//! Where a limiter's Redis lives: address, credentials and database. Pure data,
//! parsed from a DSN here (the single-server and cluster forms; `dsn` tells
//! the forms apart, `sentinel_target` parses Sentinel's); the PHP forms (array, phpredis object) are read in
//! `php::connection` and end up as the same `Target`.
//!
//! A `Target` is the key of the connection pool: two limiters with equal targets
//! share one connection. The TLS settings are part of it, so a limiter that
//! asks for TLS never gets a plain connection opened for another one.

use std::fmt;

use super::redact::{shown, shown_dsn};
use crate::error::{Error, Result};

pub const DEFAULT_PORT: u16 = 6379;

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Address {
    Tcp {
        host: String,
        port: u16,
    },
    Unix {
        path: String,
    },
    /// A Redis Cluster, found from these seed nodes (any of them will do; the
    /// slot map is asked of the first that answers).
    Cluster {
        seeds: Vec<(String, u16)>,
    },
    /// A master found through Redis Sentinel (`sentinel_target`): the
    /// connection goes to whichever server the sentinels name now.
    Sentinel(Sentinels),
}

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Sentinels {
    /// Asked in this order; the first that names the master is believed
    /// (the master's `ROLE` is checked all the same).
    pub nodes: Vec<(String, u16)>,
    /// The master's name, as in `sentinel monitor <name> …`.
    pub service: String,
    /// AUTH for the sentinels (their `requirepass` / ACL user), not the master's.
    pub username: Option<String>,
    pub password: Option<String>,
}

/// `redis-sentinel://h:1,h:2#service`: never the sentinels' password.
impl fmt::Display for Sentinels {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sentinel://")?;
        write_nodes(f, &self.nodes)?;
        write!(f, "#{}", shown(&self.service))
    }
}

impl fmt::Debug for Sentinels {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// TLS to a TCP address. The files are read when a connection is opened, so
/// a renewed certificate is picked up by the next connection.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Tls {
    /// PEM CA certificates the server's certificate must chain to; `None`: the
    /// system's trust store.
    pub cafile: Option<String>,
    /// PEM client certificate and its private key (both or neither).
    pub certfile: Option<String>,
    pub keyfile: Option<String>,
    /// `false` only when asked for explicitly: then neither the certificate
    /// chain nor the host name is checked (the traffic is still encrypted).
    pub verify_peer: bool,
}

impl Tls {
    /// Every file named can be opened now: a file that cannot be read is a
    /// mistake in the connection argument, a `ValueError` at construction,
    /// not a failure at call time (where `ratelimit.on_error = allow` would let
    /// every request through in silence). The files are still read at every
    /// connect (`tls::certificates`), so a renewed certificate is taken up.
    pub fn check_files(&self) -> Result<()> {
        for (what, file) in
            [("CA file (cafile)", &self.cafile), ("client certificate (certfile)", &self.certfile), ("client key (keyfile)", &self.keyfile)]
        {
            if let Some(path) = file {
                std::fs::File::open(path)
                    .map_err(|e| Error::value("connection", format!("cannot read the TLS {what} {}: {}", shown(path), super::open::plain_io(&e))))?;
            }
        }
        Ok(())
    }
}

impl Default for Tls {
    fn default() -> Self {
        Tls { cafile: None, certfile: None, keyfile: None, verify_peer: true }
    }
}

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Target {
    pub address: Address,
    pub username: Option<String>,
    pub password: Option<String>,
    pub db: i64,
    /// Only with `Address::Tcp`.
    pub tls: Option<Tls>,
}

impl Target {
    pub fn tcp(host: &str, port: u16) -> Self {
        Target { address: Address::Tcp { host: host.to_string(), port }, username: None, password: None, db: 0, tls: None }
    }
    pub fn unix(path: &str) -> Self {
        Target { address: Address::Unix { path: path.to_string() }, username: None, password: None, db: 0, tls: None }
    }

    pub fn cluster(seeds: Vec<(String, u16)>) -> Self {
        Target { address: Address::Cluster { seeds }, username: None, password: None, db: 0, tls: None }
    }

    pub fn sentinel(sentinels: Sentinels) -> Self {
        Target { address: Address::Sentinel(sentinels), username: None, password: None, db: 0, tls: None }
    }

    pub fn is_cluster(&self) -> bool {
        matches!(self.address, Address::Cluster { .. })
    }

    pub fn is_sentinel(&self) -> bool {
        matches!(self.address, Address::Sentinel(_))
    }

    /// Sets the TLS settings; a unix socket cannot carry TLS.
    pub fn with_tls(mut self, tls: Tls) -> Result<Self> {
        match self.address {
            Address::Unix { .. } => return Err(Error::value("connection", "asks for TLS on a unix socket, which has no TLS; use a TCP host")),
            Address::Cluster { .. } | Address::Tcp { .. } | Address::Sentinel(_) => {}
        }
        if tls.certfile.is_some() != tls.keyfile.is_some() {
            return Err(Error::value(
                "connection",
                "needs both a client certificate and its private key (certfile and keyfile, or local_cert and local_pk), or neither",
            ));
        }
        self.tls = Some(tls);
        Ok(self)
    }
}

/// Shown by `php --ri`, `var_dump()` and in error messages: never the
/// password, and no NUL byte (PHP could not carry it).
impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scheme = if self.tls.is_some() { "rediss" } else { "redis" };
        match &self.address {
            Address::Tcp { host, port } if host.contains(':') => write!(f, "{scheme}://[{}]:{port}", shown(host))?,
            Address::Tcp { host, port } => write!(f, "{scheme}://{}:{port}", shown(host))?,
            Address::Unix { path } => write!(f, "unix://{}", shown(path))?,
            Address::Cluster { seeds } => {
                write!(f, "{scheme}-cluster://")?;
                write_nodes(f, seeds)?;
            }
            Address::Sentinel(sentinels) => write!(f, "{scheme}-{sentinels}")?,
        }
        if self.db != 0 {
            write!(f, " db {}", self.db)?;
        }
        if let Some(user) = &self.username {
            write!(f, " user {}", shown(user))?;
        }
        if let Address::Sentinel(Sentinels { username: Some(user), .. }) = &self.address {
            write!(f, " sentinel user {}", shown(user))?;
        }
        if let Some(tls) = &self.tls {
            if let Some(ca) = &tls.cafile {
                write!(f, " cafile {}", shown(ca))?;
            }
            if let Some(cert) = &tls.certfile {
                write!(f, " certfile {}", shown(cert))?;
            }
            if !tls.verify_peer {
                write!(f, " verify_peer=0")?;
            }
        }
        Ok(())
    }
}

/// `host:port,[v6]:port,…` as a DSN writes them.
pub(super) fn write_nodes(f: &mut fmt::Formatter<'_>, nodes: &[(String, u16)]) -> fmt::Result {
    for (i, (host, port)) in nodes.iter().enumerate() {
        let sep = if i == 0 { "" } else { "," };
        if host.contains(':') {
            write!(f, "{sep}[{}]:{port}", shown(host))?;
        } else {
            write!(f, "{sep}{}:{port}", shown(host))?;
        }
    }
    Ok(())
}

impl fmt::Debug for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

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

pub(super) fn parse_tcp(dsn: &str, rest: &str, tls: bool) -> Result<Target> {
    let (rest, query) = match rest.split_once('?') {
        Some((r, q)) if tls => (r, Some(q)),
        _ => (rest, None),
    };
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, ""),
    };
    if authority.contains('?') || path.contains('?') || path.contains('#') || authority.contains('#') || query.is_some_and(|q| q.contains('#')) {
        return Err(bad_dsn(dsn, "query strings are only for rediss:// (TLS options); put the db in the path"));
    }
    let (userinfo, hostport) = match authority.rfind('@') {
        Some(i) => (Some(&authority[..i]), &authority[i + 1..]),
        None => (None, authority),
    };
    let (host, port) = split_host_port(dsn, hostport, DEFAULT_PORT)?;
    let mut target = Target::tcp(&host, port);
    if let Some(info) = userinfo {
        let (user, pass) = match info.split_once(':') {
            Some((u, p)) => (u, Some(p)),
            None => ("", Some(info)), // "redis://secret@host": phpredis-style password only
        };
        if !user.is_empty() {
            target.username = Some(percent_decode(dsn, user)?);
        }
        if let Some(p) = pass {
            target.password = Some(percent_decode(dsn, p)?);
        }
    }
    if !path.is_empty() {
        target.db = parse_db(dsn, path)?;
    }
    if tls {
        let options = parse_tls_query(dsn, query.unwrap_or(""))?;
        target = target.with_tls(options).map_err(|_| bad_dsn(dsn, "certfile and keyfile go together"))?;
    }
    Ok(target)
}

/// `redis-cluster://[[user]:password@]host:port[,host:port…]`: seed nodes; no db
/// (a cluster has only db 0). `rediss-cluster://` is TLS to every node, with
/// the query of `rediss://`.
pub(super) fn parse_cluster(dsn: &str, rest: &str, tls: bool) -> Result<Target> {
    let (rest, query) = match rest.split_once('?') {
        Some((r, q)) if tls => (r, Some(q)),
        _ => (rest, None),
    };
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    if rest.contains('/') || rest.contains('?') || rest.contains('#') || query.is_some_and(|q| q.contains('#')) {
        return Err(bad_dsn(dsn, "a cluster has no db, path or query: redis-cluster://host:port[,host:port…]"));
    }
    let (userinfo, nodes) = match rest.rfind('@') {
        Some(i) => (Some(&rest[..i]), &rest[i + 1..]),
        None => (None, rest),
    };
    let mut seeds = Vec::new();
    for node in nodes.split(',') {
        let (host, port) = split_host_port(dsn, node, DEFAULT_PORT)?;
        if !seeds.contains(&(host.clone(), port)) {
            seeds.push((host, port));
        }
    }
    let mut target = Target::cluster(seeds);
    if let Some(info) = userinfo {
        let (user, pass) = info.split_once(':').unwrap_or(("", info));
        if !user.is_empty() {
            target.username = Some(percent_decode(dsn, user)?);
        }
        target.password = Some(percent_decode(dsn, pass)?);
    }
    if tls {
        let options = parse_tls_query(dsn, query.unwrap_or(""))?;
        target = target.with_tls(options).map_err(|_| bad_dsn(dsn, "certfile and keyfile go together"))?;
    }
    Ok(target)
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

pub(super) fn parse_unix(dsn: &str, rest: &str) -> Result<Target> {
    let (path, query) = match rest.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (rest, None),
    };
    if !path.starts_with('/') || path.len() < 2 {
        return Err(bad_dsn(dsn, "unix:// needs an absolute socket path, as in unix:///run/redis.sock"));
    }
    if path.contains('\0') {
        return Err(bad_dsn(dsn, "the socket path contains a NUL byte"));
    }
    let mut target = Target::unix(path);
    for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
        match pair.split_once('=') {
            Some(("db", v)) => target.db = parse_db(dsn, v)?,
            Some(("user", v)) => target.username = Some(percent_decode(dsn, v)?),
            Some(("password", v)) | Some(("pass", v)) => target.password = Some(percent_decode(dsn, v)?),
            _ => return Err(bad_dsn(dsn, "unknown query parameter, expected db, user or password")),
        }
    }
    Ok(target)
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
