//! Where a limiter's Redis lives: address, credentials and database. Pure
//! data: parsed from a DSN by `dsn`, from the array form by `php::connection`
//! (and `target::sentinel`), from a phpredis object there too; all end up as
//! the same `Target`.
//!
//! A `Target` is the key of the connection pool: two limiters with equal targets
//! share one connection. The TLS settings are part of it, so a limiter that
//! asks for TLS never gets a plain connection opened for another one.

pub mod dsn;
pub mod dsn_parts;
pub mod sentinel;

use std::fmt;

use crate::error::{Error, Result};
use crate::redis::words::redact::shown;

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
    /// A master found through Redis Sentinel (`target::sentinel`): the
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
                std::fs::File::open(path).map_err(|e| Error::value("connection", crate::redis::words::plain::unreadable_tls_file(what, path, &e)))?;
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
