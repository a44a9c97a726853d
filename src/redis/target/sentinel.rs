//! A Redis Sentinel target: the sentinels to ask, the name of the master
//! they watch (the "service"), and the credentials of the sentinels
//! themselves. Pure data, parsed from
//!
//!   redis-sentinel://[[user]:password@]host[:port][,host[:port]…][/db]
//!       [?sentinel_user=…&sentinel_password=…]#service
//!
//! (`rediss-sentinel://` adds the TLS options of `rediss://` to the query;
//! they apply to the sentinels and to the master alike). The user, password
//! and db are the master's, as in `redis://`. A sentinel without a port is on
//! 26379, Sentinel's own default.
//!
//! Being part of the pool key, the target names the sentinels and the
//! service, never the address they answer: after a failover the same pool
//! slot connects again, asks again and finds the new master.

use crate::error::{Error, Result};
use crate::redis::target::dsn_parts::{bad_dsn, parse_db, percent_decode, set_credentials, split_host_port, split_userinfo, with_tls_query};
use crate::redis::target::{Sentinels, Target};
use crate::redis::words::redact::shown;

/// Sentinel's own default port.
pub const DEFAULT_SENTINEL_PORT: u16 = 26379;

/// What is wrong with a service name, worded by where it was given.
enum BadService {
    Missing,
    NotOneWord,
}

impl BadService {
    /// In a DSN the service is the part after `#`.
    fn in_dsn(&self) -> &'static str {
        match self {
            BadService::Missing => "names no service: the master's name goes after #, as in redis-sentinel://127.0.0.1:26379#mymaster",
            BadService::NotOneWord => NOT_ONE_WORD,
        }
    }

    /// In the array form the service is its own entry.
    fn in_array(&self) -> &'static str {
        match self {
            BadService::Missing => "service must name the master, as in redis-sentinel://127.0.0.1:26379#mymaster",
            BadService::NotOneWord => NOT_ONE_WORD,
        }
    }
}

const NOT_ONE_WORD: &str = "the service (the master's name) must be one word without spaces or control characters";

/// A service name as `sentinel monitor` takes it: one word.
fn check_service(service: &str) -> std::result::Result<(), BadService> {
    if service.is_empty() {
        return Err(BadService::Missing);
    }
    if service.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(BadService::NotOneWord);
    }
    Ok(())
}

/// The part of a `redis-sentinel://` or `rediss-sentinel://` DSN after `://`.
pub fn parse(dsn: &str, rest: &str, tls: bool) -> Result<Target> {
    // The service comes last (a URL fragment): a '#' in a password must be percent-encoded.
    let (rest, service) = rest.rsplit_once('#').unwrap_or((rest, ""));
    let service = percent_decode(dsn, service)?;
    check_service(&service).map_err(|why| bad_dsn(dsn, why.in_dsn()))?;
    let (rest, query) = rest.split_once('?').unwrap_or((rest, ""));
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    let (userinfo, nodes) = split_userinfo(authority);
    let mut sentinels = Sentinels { nodes: Vec::new(), service, username: None, password: None };
    for node in nodes.split(',') {
        let node = split_host_port(dsn, node, DEFAULT_SENTINEL_PORT)?;
        if !sentinels.nodes.contains(&node) {
            sentinels.nodes.push(node);
        }
    }
    // The sentinels' credentials are taken out of the query; the rest are TLS options.
    let mut tls_query = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        match name {
            "sentinel_user" | "sentinel_username" => sentinels.username = Some(percent_decode(dsn, value)?).filter(|u| !u.is_empty()),
            "sentinel_password" | "sentinel_pass" => sentinels.password = Some(percent_decode(dsn, value)?),
            _ if tls => tls_query.push(pair),
            _ => {
                return Err(bad_dsn(
                    dsn,
                    "unknown query parameter, expected sentinel_user or sentinel_password (TLS options need rediss-sentinel://)",
                ))
            }
        }
    }
    let mut target = Target::sentinel(sentinels);
    set_credentials(dsn, &mut target, userinfo)?;
    let path = path.strip_suffix('/').unwrap_or(path);
    if !path.is_empty() {
        target.db = parse_db(dsn, path)?;
    }
    with_tls_query(dsn, target, tls.then(|| tls_query.join("&")).as_deref())
}

/// The array form's `'sentinel' => ['host:port', …]` and `'service' => name`.
pub fn from_list(nodes: &[String], service: &str) -> Result<Target> {
    let mut sentinels = Sentinels { nodes: Vec::new(), service: service.to_string(), username: None, password: None };
    for text in nodes {
        // An entry is "host:port", "host" or "[v6]:port"; no DSN syntax inside.
        let node = (!text.contains(['/', '#', '?', ',']))
            .then(|| split_host_port(text, text, DEFAULT_SENTINEL_PORT).ok())
            .flatten()
            .ok_or_else(|| Error::value("connection", format!("sentinel entries must be \"host:port\" strings, \"{}\" given", shown(text))))?;
        if !sentinels.nodes.contains(&node) {
            sentinels.nodes.push(node);
        }
    }
    if sentinels.nodes.is_empty() {
        return Err(Error::value("connection", "sentinel must list at least one \"host:port\" sentinel"));
    }
    check_service(service).map_err(|why| Error::value("connection", why.in_array()))?;
    Ok(Target::sentinel(sentinels))
}
