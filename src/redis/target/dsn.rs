//! A connection DSN as a `Target`: which form it is, by its scheme, and the
//! forms of one server over TCP, TLS or a unix socket and of a cluster (a
//! master behind Redis Sentinel: `target::sentinel`; what all forms share:
//! `dsn_parts`).

use crate::error::Result;
use crate::redis::target::dsn_parts::{
    bad_dsn, is_tls_scheme, parse_db, percent_decode, set_credentials, split_host_port, split_userinfo, with_tls_query,
};
use crate::redis::target::sentinel;
use crate::redis::target::{Target, DEFAULT_PORT};

/// Parses `redis://[[user]:password@]host[:port][/db]`,
/// `rediss://…[?cafile=…&certfile=…&keyfile=…&verify_peer=0|1]` (TLS) and
/// `unix:///path/to/redis.sock[?db=N]`, and the cluster and Sentinel forms
/// (`redis-cluster://`, `redis-sentinel://`: `target::sentinel`). User,
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
        "redis-sentinel" => sentinel::parse(dsn, rest, false),
        "rediss-sentinel" => sentinel::parse(dsn, rest, true),
        _ => Err(bad_dsn(dsn, "unknown scheme, expected redis://, rediss://, redis-cluster://, redis-sentinel:// or unix://")),
    }
}

/// A TLS form's query (its options, maybe none: `Some("")`) split off `rest`;
/// `None` without TLS, where a `?` stays in `rest` (and is refused there).
fn tls_query(rest: &str, tls: bool) -> (&str, Option<&str>) {
    match rest.split_once('?') {
        Some((r, q)) if tls => (r, Some(q)),
        _ if tls => (rest, Some("")),
        _ => (rest, None),
    }
}

/// `redis://` and the TLS schemes, after `://`.
fn parse_tcp(dsn: &str, rest: &str, tls: bool) -> Result<Target> {
    let (rest, query) = tls_query(rest, tls);
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, ""),
    };
    if authority.contains('?') || path.contains('?') || path.contains('#') || authority.contains('#') || query.is_some_and(|q| q.contains('#')) {
        return Err(bad_dsn(dsn, "query strings are only for rediss:// (TLS options); put the db in the path"));
    }
    let (userinfo, hostport) = split_userinfo(authority);
    let (host, port) = split_host_port(dsn, hostport, DEFAULT_PORT)?;
    let mut target = Target::tcp(&host, port);
    set_credentials(dsn, &mut target, userinfo)?;
    if !path.is_empty() {
        target.db = parse_db(dsn, path)?;
    }
    with_tls_query(dsn, target, query)
}

/// `redis-cluster://[[user]:password@]host:port[,host:port…]`: seed nodes; no db
/// (a cluster has only db 0). `rediss-cluster://` is TLS to every node, with
/// the query of `rediss://`.
fn parse_cluster(dsn: &str, rest: &str, tls: bool) -> Result<Target> {
    let (rest, query) = tls_query(rest, tls);
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    if rest.contains('/') || rest.contains('?') || rest.contains('#') || query.is_some_and(|q| q.contains('#')) {
        return Err(bad_dsn(dsn, "a cluster has no db, path or query: redis-cluster://host:port[,host:port…]"));
    }
    let (userinfo, nodes) = split_userinfo(rest);
    let mut seeds = Vec::new();
    for node in nodes.split(',') {
        let (host, port) = split_host_port(dsn, node, DEFAULT_PORT)?;
        if !seeds.contains(&(host.clone(), port)) {
            seeds.push((host, port));
        }
    }
    let mut target = Target::cluster(seeds);
    set_credentials(dsn, &mut target, userinfo)?;
    with_tls_query(dsn, target, query)
}

/// `unix:///path/to/redis.sock[?db=N&user=…&password=…]`, after `://`.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::redis::target::sentinel::*;
    use crate::redis::target::*;

    /// The target of a DSN that must parse.
    fn ok(dsn: &str) -> Target {
        parse_dsn(dsn).unwrap_or_else(|e| panic!("{dsn}: {e}"))
    }
    /// The ValueError message of a DSN that must not parse.
    fn err(dsn: &str) -> String {
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

    // The Sentinel forms (`target::sentinel`).

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
