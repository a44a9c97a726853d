//! A phpredis `RedisCluster` object as `$connection`: read through its PHP
//! methods (so a subclass that overrides them is asked, and what they throw is
//! handled as for a `Redis` object, `connection::call`), it becomes the same
//! `Target` a `redis-cluster://` DSN of its masters builds. The object's own
//! sockets are never used.
//!
//! What phpredis lets us read of it:
//! - the seeds: `_masters()`, the masters it knows as `[host, port]` pairs,
//!   sorted so that two objects of one cluster are one pool target whatever
//!   order phpredis keeps them in;
//! - the reply timeout: `getOption(OPT_READ_TIMEOUT)` when > 0 (its connect
//!   timeout is not readable: `ratelimit.connect_timeout` applies). phpredis 5
//!   has the constant on `RedisCluster`, phpredis 6 only on `Redis` (same
//!   value, and `RedisCluster::getOption` still answers it);
//! - the password: `getAuth()`, only where the class has that method (phpredis
//!   5.3 has none). Without it the cluster is used without AUTH, and a cluster
//!   that wants one answers NOAUTH, which `redis::pool` turns into a message
//!   saying to pass a DSN or array with the password instead;
//! - not its TLS settings (phpredis does not expose them): a TLS cluster is
//!   given as `rediss-cluster://` or the array form.

use ext_php_rs::types::Zval;
use ext_php_rs::zend::ClassEntry;

use crate::error::{Error, Result};
use crate::php::args::php_value::type_name;
use crate::php::connection::parts::{apply_auth, call, seconds, TimeoutOverrides};
use crate::php::engine::zend_api;
use crate::redis::target::dsn::parse_dsn;
use crate::redis::target::Target;
use crate::redis::words::redact::shown;

const CLASS: &str = "RedisCluster";

pub fn read(cluster: &Zval) -> Result<(Target, TimeoutOverrides)> {
    let seeds = seeds(&call(cluster, CLASS, "_masters", vec![])?)?;
    let mut target = parse_dsn(&format!("redis-cluster://{}", seeds.join(","))).map_err(|_| {
        Error::value("connection", format!("is a RedisCluster object whose _masters() are not host:port pairs: \"{}\"", shown(&seeds.join(","))))
    })?;
    let object = cluster.object().expect("resolve() passes objects only");
    if zend_api::has_method(object, "getAuth") {
        apply_auth(&mut target, &call(cluster, CLASS, "getAuth", vec![])?)?;
    }
    let option = ["RedisCluster", "Redis"]
        .iter()
        .find_map(|class| ClassEntry::try_find(class).and_then(|ce| zend_api::class_constant_int(ce, "OPT_READ_TIMEOUT")));
    let reply = match option {
        // As for a `Redis` object: a timeout that is not a number > 0 leaves the ini's.
        Some(option) => seconds("connection", &call(cluster, CLASS, "getOption", vec![&option])?).unwrap_or(None),
        None => None,
    };
    Ok((target, TimeoutOverrides { connect: None, reply }))
}

/// `_masters()`'s `[[host, port], …]` as sorted, distinct "host:port" seeds
/// (an IPv6 host in brackets, as a DSN writes it).
fn seeds(masters: &Zval) -> Result<Vec<String>> {
    let Some(list) = masters.array() else {
        return Err(Error::value("connection", format!("is a RedisCluster object whose _masters() answered {}, not an array", type_name(masters))));
    };
    if list.is_empty() {
        return Err(Error::value(
            "connection",
            "is a RedisCluster object that knows no masters (_masters() is empty: was it constructed?); construct it with the cluster's seeds first",
        ));
    }
    let mut seeds = Vec::new();
    for (_, pair) in list.iter() {
        let pair = pair.dereference().array();
        let host = pair.and_then(|p| p.get_index(0)).and_then(|h| h.dereference().str());
        let port = pair.and_then(|p| p.get_index(1)).and_then(|p| p.dereference().long());
        let (Some(host), Some(port)) = (host, port) else {
            return Err(Error::value("connection", "is a RedisCluster object whose _masters() are not [host, port] pairs"));
        };
        seeds.push(if host.contains(':') { format!("[{host}]:{port}") } else { format!("{host}:{port}") });
    }
    seeds.sort();
    seeds.dedup();
    Ok(seeds)
}
