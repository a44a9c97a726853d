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

use std::fmt;

use super::redact::shown;
use super::target::{bad_dsn, parse_db, parse_tls_query, percent_decode, split_host_port, write_nodes, Target};
use crate::error::{Error, Result};

/// Sentinel's own default port.
pub const DEFAULT_SENTINEL_PORT: u16 = 26379;

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
    let (userinfo, nodes) = match authority.rfind('@') {
        Some(i) => (Some(&authority[..i]), &authority[i + 1..]),
        None => (None, authority),
    };
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
    if let Some(info) = userinfo {
        let (user, pass) = info.split_once(':').unwrap_or(("", info));
        if !user.is_empty() {
            target.username = Some(percent_decode(dsn, user)?);
        }
        target.password = Some(percent_decode(dsn, pass)?);
    }
    let path = path.strip_suffix('/').unwrap_or(path);
    if !path.is_empty() {
        target.db = parse_db(dsn, path)?;
    }
    if tls {
        let options = parse_tls_query(dsn, &tls_query.join("&"))?;
        target = target.with_tls(options).map_err(|_| bad_dsn(dsn, "certfile and keyfile go together"))?;
    }
    Ok(target)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::redis::target::tests::{err, ok};
    use crate::redis::target::{Address, Tls};

    fn sentinels(t: &Target) -> &Sentinels {
        match &t.address {
            Address::Sentinel(s) => s,
            other => panic!("not a sentinel target: {other:?}"),
        }
    }

    #[test]
    fn nodes_service_and_default_port() {
        let t = ok("redis-sentinel://10.0.0.1:26380,10.0.0.2,[::1]:5000#mymaster");
        let s = sentinels(&t);
        assert_eq!(s.nodes, vec![("10.0.0.1".into(), 26380), ("10.0.0.2".into(), 26379), ("::1".into(), 5000)]);
        assert_eq!(s.service, "mymaster");
        assert_eq!((t.username.as_ref(), t.password.as_ref(), t.db, t.tls.as_ref()), (None, None, 0, None));
        assert_eq!(t.to_string(), "redis-sentinel://10.0.0.1:26380,10.0.0.2:26379,[::1]:5000#mymaster");
        assert_eq!(ok("REDIS-SENTINEL://h:1,h:1#m"), ok("redis-sentinel://h:1#m"));
        assert_eq!(sentinels(&ok("redis-sentinel://h#my%2Dmaster")).service, "my-master");
    }

    #[test]
    fn master_credentials_db_and_sentinel_credentials() {
        let t = ok("redis-sentinel://alice:s%40cret@h:1,h:2/3?sentinel_user=sam&sentinel_password=p%23w#mymaster");
        assert_eq!((t.username.as_deref(), t.password.as_deref(), t.db), (Some("alice"), Some("s@cret"), 3));
        let s = sentinels(&t);
        assert_eq!((s.username.as_deref(), s.password.as_deref()), (Some("sam"), Some("p#w")));
        let shown = t.to_string();
        assert_eq!(shown, "redis-sentinel://h:1,h:2#mymaster db 3 user alice sentinel user sam");
        assert!(!format!("{t:?}").contains("p#w") && !format!("{t:?}").contains("s@cret"));
        // Password only, and a raw '#' in it (the service is what follows the last '#').
        let t = ok("redis-sentinel://pw#1@h:1/#m");
        assert_eq!((t.username, t.password.as_deref(), t.db), (None, Some("pw#1"), 0));
        assert_eq!(sentinels(&ok("redis-sentinel://h:1?sentinel_pass=x#m")).password.as_deref(), Some("x"));
    }

    #[test]
    fn the_pool_key_is_the_sentinel_set_not_an_address() {
        assert_ne!(ok("redis-sentinel://h:1#a"), ok("redis-sentinel://h:1#b"));
        assert_ne!(ok("redis-sentinel://h:1#a"), ok("redis-sentinel://h:1/1#a"));
        assert_ne!(ok("redis-sentinel://h:1#a"), ok("redis-sentinel://h:1?sentinel_password=x#a"));
        assert_ne!(ok("redis-sentinel://h:1#a"), ok("rediss-sentinel://h:1#a"));
        assert_ne!(ok("redis-sentinel://h:1#a"), ok("redis://h:1"));
        assert!(ok("redis-sentinel://h:1#a").is_sentinel() && !ok("redis-sentinel://h:1#a").is_cluster());
    }

    #[test]
    fn tls_options_apply_to_sentinels_and_master() {
        let t = ok("rediss-sentinel://:pw@h:1,h:2?cafile=/ca.pem&sentinel_password=sp&verify_peer=0#m");
        let tls = t.tls.clone().unwrap();
        assert_eq!((tls.cafile.as_deref(), tls.verify_peer), (Some("/ca.pem"), false));
        assert_eq!(sentinels(&t).password.as_deref(), Some("sp"));
        assert_eq!(t.to_string(), "rediss-sentinel://h:1,h:2#m cafile /ca.pem verify_peer=0");
        assert_eq!(ok("rediss-sentinel://h#m").tls, Some(Tls::default()));
        assert!(err("rediss-sentinel://h?certfile=/c.pem#m").contains("certfile and keyfile"));
        assert!(err("rediss-sentinel://h?bogus=1#m").contains("unknown query"));
        assert!(err("redis-sentinel://h?cafile=/ca.pem#m").contains("need rediss-sentinel://"));
    }

    #[test]
    fn malformed_sentinel_dsns_are_value_errors_naming_connection() {
        for dsn in [
            "redis-sentinel://h:1",
            "redis-sentinel://h:1#",
            "redis-sentinel://h:1#my master",
            "redis-sentinel://h:1#m\0",
            "redis-sentinel://#m",
            "redis-sentinel://h:1,,h:2#m",
            "redis-sentinel://h:0#m",
            "redis-sentinel://h:1/x#m",
            "redis-sentinel://h:1?x=1#m",
            "redis-sentinel://h:1#%zz",
        ] {
            assert!(err(dsn).starts_with("$connection is not a valid Redis DSN"), "{dsn}: {}", err(dsn));
        }
        assert!(err("redis-sentinel://h:1").contains("names no service"));
        assert!(err("redis-sentinel://h:1#my master").contains("one word"));
        assert!(err("redis-sentinel://#m").contains("missing host"));
        assert!(err("redis-sentinel://h:1/x#m").contains("db"));
        assert!(!err("redis-sentinel://u:topsecret@h:0#m").contains("topsecret"));
        assert!(!err("redis-sentinel://h:0?sentinel_password=topsecret#m").contains("topsecret"));
    }

    #[test]
    fn array_form_lists() {
        let t = from_list(&["127.0.0.1:26379".into(), "[::1]".into(), "127.0.0.1:26379".into()], "mymaster").unwrap();
        assert_eq!(t, ok("redis-sentinel://127.0.0.1:26379,[::1]:26379#mymaster"));
        let e =
            |nodes: &[&str], service: &str| crate::error::value_error(from_list(&nodes.iter().map(|s| s.to_string()).collect::<Vec<_>>(), service));
        assert!(e(&[], "m").contains("at least one"));
        assert!(e(&["h:1"], "").contains("service must name the master"));
        assert!(e(&["h:1"], "a b").contains("one word"));
        for bad in ["h:0", "h:x", "", "redis://h:1", "h:1,h:2", "h:1#m", "a b:1"] {
            assert!(e(&[bad], "m").contains("sentinel entries must be \"host:port\""), "{bad}");
        }
    }
}
