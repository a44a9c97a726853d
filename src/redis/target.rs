//! Where a limiter's Redis lives: address, credentials and database. Pure data,
//! parsed from a DSN here; the PHP forms (array, phpredis object) are read in
//! `php::connection` and end up as the same `Target`.
//!
//! A `Target` is the key of the connection pool: two limiters with equal targets
//! share one connection. The TLS settings are part of it, so a limiter that
//! asks for TLS never gets a plain connection opened for another one.

use std::fmt;

use super::redact::{shown, shown_dsn};
pub use super::sentinel_target::Sentinels;
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

/// Parses `redis://[[user]:password@]host[:port][/db]`,
/// `rediss://…[?cafile=…&certfile=…&keyfile=…&verify_peer=0|1]` (TLS) and
/// `unix:///path/to/redis.sock[?db=N]`, and the cluster and Sentinel forms
/// (`redis-cluster://`, `redis-sentinel://`: `sentinel_target`). User,
/// password and file names may be percent-encoded.
pub fn parse_dsn(dsn: &str) -> Result<Target> {
    let Some((scheme, rest)) = dsn.split_once("://") else {
        return Err(bad_dsn(dsn, "expected redis://host[:port][/db], rediss://… or unix:///path"));
    };
    match scheme.to_ascii_lowercase().as_str() {
        "redis" => parse_tcp(dsn, rest, false),
        "unix" => parse_unix(dsn, rest),
        "redis-cluster" => parse_cluster(dsn, rest, false),
        "rediss-cluster" => parse_cluster(dsn, rest, true),
        s if is_tls_scheme(s) => parse_tcp(dsn, rest, true),
        "redis-sentinel" => super::sentinel_target::parse(dsn, rest, false),
        "rediss-sentinel" => super::sentinel_target::parse(dsn, rest, true),
        _ => Err(bad_dsn(dsn, "unknown scheme, expected redis://, rediss://, redis-cluster://, redis-sentinel:// or unix://")),
    }
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

fn parse_tcp(dsn: &str, rest: &str, tls: bool) -> Result<Target> {
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
fn parse_cluster(dsn: &str, rest: &str, tls: bool) -> Result<Target> {
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

fn parse_unix(dsn: &str, rest: &str) -> Result<Target> {
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The target of a DSN that must parse (also for `sentinel_target`'s tests).
    pub(crate) fn ok(dsn: &str) -> Target {
        parse_dsn(dsn).unwrap_or_else(|e| panic!("{dsn}: {e}"))
    }
    /// The ValueError message of a DSN that must not parse.
    pub(crate) fn err(dsn: &str) -> String {
        crate::error::value_error(parse_dsn(dsn))
    }

    #[test]
    fn host_port_and_defaults() {
        assert_eq!(ok("redis://127.0.0.1:6379"), Target::tcp("127.0.0.1", 6379));
        assert_eq!(ok("redis://cache"), Target::tcp("cache", 6379));
        assert_eq!(ok("redis://cache/"), Target::tcp("cache", 6379));
        assert_eq!(ok("REDIS://cache:7000"), Target::tcp("cache", 7000));
        assert_eq!(ok("redis://[::1]:6380"), Target::tcp("::1", 6380));
        assert_eq!(ok("redis://[::1]"), Target::tcp("::1", 6379));
    }

    #[test]
    fn credentials_and_db() {
        let t = ok("redis://alice:s%40cret@h:1/3");
        assert_eq!((t.username.as_deref(), t.password.as_deref(), t.db), (Some("alice"), Some("s@cret"), 3));
        let t = ok("redis://:pw@h");
        assert_eq!((t.username, t.password.as_deref()), (None, Some("pw")));
        let t = ok("redis://pw@h");
        assert_eq!((t.username, t.password.as_deref()), (None, Some("pw")));
        let t = ok("redis://user:p:w@h");
        assert_eq!((t.username.as_deref(), t.password.as_deref()), (Some("user"), Some("p:w")));
    }

    #[test]
    fn unix_sockets() {
        assert_eq!(ok("unix:///run/redis.sock"), Target::unix("/run/redis.sock"));
        let t = ok("unix:///tmp/r.sock?db=2");
        assert_eq!((t.address, t.db), (Address::Unix { path: "/tmp/r.sock".into() }, 2));
        assert!(err("unix://relative.sock").contains("absolute"));
        assert!(err("unix:///tmp/r.sock?x=1").contains("unknown query"));
    }

    #[test]
    fn malformed_dsns_are_value_errors_naming_connection() {
        for dsn in [
            "",
            "127.0.0.1:6379",
            "redis://",
            "redis://:6379",
            "redis://h:0",
            "redis://h:65536",
            "redis://h:abc",
            "redis://h:-1",
            "redis://h/x",
            "redis://h/-1",
            "http://h",
            "redis://h?db=1",
            "redis://[::1",
            "redis://a b",
            "redis://u:%zz@h",
            "rediss://h?x",
            "redis://a\0b",
            "unix:///tmp/a\0b",
        ] {
            assert!(err(dsn).starts_with("$connection "), "{dsn}");
        }
        assert!(err("redis://h:0").contains("port"));
        assert!(err("redis://:1").contains("missing host"));
        assert!(err("redis://h/x").contains("db"));
        assert!(err("ftp://h").contains("scheme"));
    }

    #[test]
    fn tls_schemes_and_options() {
        for dsn in ["rediss://:pw@127.0.0.1:6379", "REDISS://h", "tls://h:1", "ssl://h", "valkeys://h"] {
            let t = ok(dsn);
            assert_eq!(t.tls, Some(Tls::default()), "{dsn}");
            assert!(t.to_string().starts_with("rediss://"), "{t}");
        }
        let t = ok("rediss://u:pw@h:6380/2?cafile=/etc/ca.pem&certfile=/c%20c.pem&keyfile=/k.pem&verify_peer=1");
        let tls = t.tls.clone().unwrap();
        assert_eq!(
            (tls.cafile.as_deref(), tls.certfile.as_deref(), tls.keyfile.as_deref(), tls.verify_peer),
            (Some("/etc/ca.pem"), Some("/c c.pem"), Some("/k.pem"), true)
        );
        assert_eq!((t.db, t.password.as_deref()), (2, Some("pw")));
        assert!(!ok("rediss://h?verify_peer=0").tls.unwrap().verify_peer);
        assert!(ok("rediss://h?verify_peer=0").to_string().ends_with("verify_peer=0"));
        // The pool key tells TLS apart from plain TCP and one TLS setting from another.
        assert_ne!(ok("rediss://h"), ok("redis://h"));
        assert_ne!(ok("rediss://h"), ok("rediss://h?verify_peer=0"));
        assert_ne!(ok("rediss://h?cafile=/a"), ok("rediss://h?cafile=/b"));
        assert!(err("rediss://h?verify_peer=maybe").contains("verify_peer"));
        assert!(err("rediss://h?cafile=").contains("cafile"));
        assert!(err("rediss://h?certfile=/c.pem").contains("certfile and keyfile"));
        assert!(err("rediss://h?bogus=1").contains("unknown query"));
        assert!(err("redis://h?cafile=/a").contains("only for rediss://"));
        assert!(!err("rediss://:pw@h?bogus=1").contains("pw@"));
    }

    #[test]
    fn cluster_seeds() {
        let t = ok("redis-cluster://u:pw@10.0.0.1:7000,10.0.0.2:7001,[::1]:7002/");
        assert_eq!(t.address, Address::Cluster { seeds: vec![("10.0.0.1".into(), 7000), ("10.0.0.2".into(), 7001), ("::1".into(), 7002)] });
        assert_eq!((t.username.as_deref(), t.password.as_deref()), (Some("u"), Some("pw")));
        assert_eq!(t.to_string(), "redis-cluster://10.0.0.1:7000,10.0.0.2:7001,[::1]:7002 user u");
        assert_eq!(ok("redis-cluster://h:1,h:1"), ok("redis-cluster://h:1"));
        assert!(err("redis-cluster://h:1/2").contains("no db"));
        assert!(err("redis-cluster://h:1,,h:2").contains("missing host"));
        let t = ok("rediss-cluster://h:1,h:2?cafile=/ca.pem");
        assert_eq!(t.tls.as_ref().and_then(|t| t.cafile.as_deref()), Some("/ca.pem"));
        assert_eq!(t.to_string(), "rediss-cluster://h:1,h:2 cafile /ca.pem");
        assert!(err("redis-cluster://h:1?cafile=/ca.pem").contains("no db, path or query"));
    }

    #[test]
    fn display_escapes_nul_bytes() {
        let t = Target { address: Address::Tcp { host: "a\0b".into(), port: 1 }, username: Some("u\0".into()), password: None, db: 0, tls: None };
        assert_eq!(t.to_string(), "redis://a\\0b:1 user u\\0");
    }

    #[test]
    fn errors_and_display_never_show_the_password() {
        assert!(!err("redis://u:topsecret@h:0").contains("topsecret"));
        assert!(!err("redis://topsecretpw@127.0.0.1:0").contains("topsecretpw"));
        assert!(!err("unix:///tmp/x.sock?password=topsecret&bogus=1").contains("topsecret"));
        assert!(err(&format!("redis://{}:0", "h".repeat(1 << 20))).len() < 400);
        assert!(!format!("{}", ok("redis://u:topsecret@h")).contains("topsecret"));
        assert_eq!(format!("{}", ok("redis://u:pw@h:7/2")), "redis://h:7 db 2 user u");
    }
}
