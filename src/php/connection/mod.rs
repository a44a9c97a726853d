//! The `$connection` argument (docs/api.md, "The connection argument") → where
//! the limiter decides (a pool `Target`'s connections, or a `memory://` store) plus
//! optional per-limiter timeouts. Accepts a phpredis `Redis` object (only its
//! settings are read; its socket is never used), a phpredis `RedisCluster`
//! object (`phpredis_cluster`), a DSN string (`memory://name` included), a
//! phpredis-style config array, or null for `ratelimit.redis_url`.

pub mod parts;
mod phpredis_cluster;

use ext_php_rs::types::{ZendObject, Zval};
use ext_php_rs::zend::ClassEntry;

use crate::backend::memory;
use crate::backend::Backend;
use crate::error::{Error, Result};
use crate::php::args::php_value::type_name;
use crate::php::args::php_value::{PhpArray, PhpValue};
use crate::php::args::values;
use crate::php::connection::parts::{apply_auth, call, credentials, seconds, TimeoutOverrides};
use crate::php::ini::settings;
use crate::redis::pool;
use crate::redis::target::dsn::parse_dsn;
use crate::redis::target::dsn_parts::is_tls_scheme;
use crate::redis::target::sentinel;
use crate::redis::target::{Address, Target, Tls, DEFAULT_PORT};
use crate::redis::words::redact::shown;

/// Where a limiter with this `$connection` argument decides (`null`: the
/// `ratelimit.redis_url` setting), and the timeouts it asked for.
pub fn resolve(connection: Option<&Zval>) -> Result<(Backend, TimeoutOverrides)> {
    let given = connection.map(Zval::dereference).filter(|z| !z.is_null());
    let dsn = match given {
        None => Some(settings::redis_url()),
        Some(z) => z.str().map(str::to_string),
    };
    if let Some(name) = dsn.as_deref().and_then(memory::parse_dsn) {
        return Ok((Backend::Memory(memory::target(&name?)), TimeoutOverrides::default()));
    }
    let (target, timeouts) = match (given, dsn) {
        (_, Some(dsn)) => (parse_dsn(&dsn)?, TimeoutOverrides::default()),
        (Some(z), None) => resolve_target(z)?,
        (None, None) => unreachable!("no argument reads the setting"),
    };
    // TLS files that cannot be read: a ValueError now, not a failure at call time.
    if let Some(tls) = &target.tls {
        tls.check_files()?;
    }
    Ok((Backend::Redis(pool::connections(target)), timeouts))
}

/// A `$connection` that is not a DSN string: an array or a phpredis object.
fn resolve_target(z: &Zval) -> Result<(Target, TimeoutOverrides)> {
    if z.is_string() {
        return Err(Error::value("connection", "must be a valid UTF-8 DSN"));
    }
    if let Some(array) = z.array() {
        return from_array::<Zval>(array);
    }
    if let Some(object) = z.object() {
        if is_a(object, "Redis") {
            return from_phpredis(z);
        }
        if is_a(object, "RedisCluster") {
            return crate::php::connection::phpredis_cluster::read(z);
        }
    }
    Err(Error::type_error("connection", format!("must be of type Redis|RedisCluster|array|string|null, {} given", type_name(z))))
}

/// Whether `object` is a phpredis `class` or of a subclass of it.
fn is_a(object: &ZendObject, class: &str) -> bool {
    object.get_class_name().is_ok_and(|n| n.eq_ignore_ascii_case(class)) || ClassEntry::try_find(class).is_some_and(|ce| object.instance_of(ce))
}

/// Names the array entry in an error about it: "$connection port must be …".
fn entry<T>(name: &str, r: Result<T>) -> Result<T> {
    r.map_err(|e| e.in_entry(name))
}

fn host_target(param: &str, host: &str, port: Option<i64>) -> Result<Target> {
    if host.is_empty() {
        return Err(Error::value(param, "host must not be empty"));
    }
    if host.contains('\0') {
        return Err(Error::value(param, format!("host must not contain a NUL byte, \"{}\" given", shown(host))));
    }
    if host.starts_with('/') {
        return Ok(Target::unix(host));
    }
    if let Some(path) = host.strip_prefix("unix://") {
        // As the DSN form: `unix://` and a relative path name no socket.
        if !path.starts_with('/') {
            return Err(Error::value(
                param,
                format!("host unix:// needs an absolute socket path, as in unix:///run/redis.sock, \"{}\" given", shown(host)),
            ));
        }
        return Ok(Target::unix(path));
    }
    // phpredis's way to ask for TLS: "tls://host" (or "ssl://host").
    let (host, tls) = match host.split_once("://") {
        Some((scheme, rest)) if is_tls_scheme(scheme) => (rest, true),
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("tcp") => (rest, false),
        _ => (host, false),
    };
    if host.is_empty() {
        return Err(Error::value(param, "host must not be empty"));
    }
    let port = match port {
        None | Some(0) | Some(-1) => DEFAULT_PORT,
        Some(p) if (1..=65535).contains(&p) => p as u16,
        Some(p) => return Err(Error::value(param, format!("port must be 1..65535, {p} given"))),
    };
    let target = Target::tcp(host, port);
    if tls {
        return target.with_tls(Tls::default());
    }
    Ok(target)
}

/// The TLS an array asks for, phpredis's way: `'scheme' => 'tls'` (or
/// `tls://` before the host), with `'ssl' => ['cafile' => …, 'local_cert' => …,
/// 'local_pk' => …, 'verify_peer' => bool]` (also taken from `'context' =>
/// ['stream' => […]]`, phpredis's connect() context). Options without a TLS
/// scheme still mean TLS: connecting in clear text instead would send the
/// password unencrypted. An unknown scheme is an error rather than plain TCP.
/// An entry that asks for something: not absent, null, false or [].
fn given<V: PhpValue + ?Sized>(z: Option<&V>) -> Option<&V> {
    z.map(V::dereference).filter(|z| !(z.is_null() || z.bool() == Some(false) || z.array().is_some_and(|a| a.is_empty())))
}

fn tls_options<V: PhpValue + ?Sized>(a: &V::Array) -> Result<Option<Tls>> {
    let mut asked = false;
    if let Some(z) = a.get("scheme").map(V::dereference).filter(|z| !z.is_null()) {
        let Some(scheme) = z.str() else {
            return Err(Error::value("connection", format!("scheme must be a string, {} given", z.type_name())));
        };
        asked = is_tls_scheme(scheme);
        if !asked && !["", "tcp", "redis"].iter().any(|s| s.eq_ignore_ascii_case(scheme)) {
            return Err(Error::value("connection", format!("scheme must be \"tcp\", \"redis\" or \"tls\", \"{}\" given", shown(scheme))));
        }
    }
    let context = a.get("context").and_then(|z| z.dereference().array());
    let options =
        [a.get("ssl"), a.get("tls"), context.and_then(|c| c.get("stream")), context.and_then(|c| c.get("ssl"))].into_iter().find_map(given::<V>);
    if options.is_none() && !asked {
        return Ok(None);
    }
    let mut tls = Tls::default();
    if let Some(o) = options.and_then(V::array) {
        let file = |names: &[&str]| -> Result<Option<String>> {
            let Some((name, z)) = names.iter().find_map(|&n| o.get(n).map(|z| (n, z.dereference()))).filter(|(_, z)| !z.is_null()) else {
                return Ok(None);
            };
            match z.str() {
                Some(f) if !f.is_empty() && !f.contains('\0') => Ok(Some(f.to_string())),
                _ => Err(Error::value("connection", format!("ssl {name} must be a file name, {} given", z.type_name()))),
            }
        };
        tls.cafile = file(&["cafile", "ca_file"])?;
        tls.certfile = file(&["local_cert", "certfile"])?;
        tls.keyfile = file(&["local_pk", "keyfile"])?;
        if let Some(v) = o.get("verify_peer").map(V::dereference).filter(|z| !z.is_null()) {
            tls.verify_peer = match (v.bool(), v.long()) {
                (Some(b), _) => b,
                (_, Some(n @ (0 | 1))) => n == 1,
                _ => return Err(Error::type_error("connection", format!("ssl verify_peer must be of type bool, {} given", v.type_name()))),
            };
        }
    } else if let Some(v) = options.filter(|z| z.bool() != Some(true)) {
        return Err(Error::type_error("connection", format!("ssl must be of type array|bool, {} given", v.type_name())));
    }
    Ok(Some(tls))
}

/// `'cluster' => ['host:port', …]`: the seed nodes of a Redis Cluster.
fn cluster_seeds<V: PhpValue + ?Sized>(z: &V) -> Result<Target> {
    let Some(list) = z.dereference().array() else {
        return Err(Error::type_error("connection", format!("cluster must be of type array, {} given", z.type_name())));
    };
    if list.is_empty() {
        return Err(Error::value("connection", "cluster must list at least one \"host:port\" seed node"));
    }
    let mut seeds = Vec::new();
    for node in list.values() {
        let Some(text) = node.dereference().str() else {
            return Err(Error::type_error("connection", format!("cluster entries must be \"host:port\" strings, {} given", node.type_name())));
        };
        seeds.push(text.to_string());
    }
    parse_dsn(&format!("redis-cluster://{}", seeds.join(",")))
        .map_err(|_| Error::value("connection", format!("cluster entries must be \"host:port\" strings, \"{}\" given", shown(&seeds.join(",")))))
}

/// `'sentinel' => ['host:port', …]` with `'service' => name` (the master's
/// name) and, for sentinels that want AUTH, `'sentinel_auth'` (as `auth`).
fn sentinel_target<V: PhpValue + ?Sized>(a: &V::Array, list: &V) -> Result<Target> {
    let Some(list) = list.dereference().array() else {
        return Err(Error::type_error("connection", format!("sentinel must be of type array, {} given", list.type_name())));
    };
    let mut nodes = Vec::new();
    for node in list.values() {
        let Some(text) = node.dereference().str() else {
            return Err(Error::type_error("connection", format!("sentinel entries must be \"host:port\" strings, {} given", node.type_name())));
        };
        nodes.push(text.to_string());
    }
    let service = match a.get("service").map(V::dereference).filter(|z| !z.is_null()) {
        None => String::new(),
        Some(z) => z
            .str()
            .map(str::to_string)
            .ok_or_else(|| Error::type_error("connection", format!("service must be of type string, {} given", z.type_name())))?,
    };
    let mut target = sentinel::from_list(&nodes, &service)?;
    if let Some(auth) = a.get("sentinel_auth") {
        // Read as `auth` is, for the sentinels' side of the target.
        let sentinel_credentials = credentials(auth).map_err(|e| match e {
            // "auth must be …" as "sentinel_auth must be …".
            Error::Param { param, mut invalid } => {
                invalid.must = format!("sentinel_{}", invalid.must);
                Error::Param { param, invalid }
            }
            other => other,
        })?;
        if let Address::Sentinel(s) = &mut target.address {
            (s.username, s.password) = sentinel_credentials;
        }
    }
    Ok(target)
}

/// `index` (or `database`, `db`): the database number, phpredis's way.
fn db_index<V: PhpValue + ?Sized>(a: &V::Array) -> Result<Option<i64>> {
    let Some(db) = a.get("index").or_else(|| a.get("database")).or_else(|| a.get("db")).filter(|z| !z.dereference().is_null()) else {
        return Ok(None);
    };
    let n = entry("database index", values::int("connection", db))?;
    if n < 0 {
        return Err(Error::value("connection", format!("database index must be >= 0, {n} given")));
    }
    Ok(Some(n))
}

fn timeout_overrides<V: PhpValue + ?Sized>(a: &V::Array) -> Result<TimeoutOverrides> {
    Ok(TimeoutOverrides {
        connect: a.get("timeout").map(|z| entry("timeout", seconds("connection", z))).transpose()?.flatten(),
        reply: a.get("read_timeout").map(|z| entry("read_timeout", seconds("connection", z))).transpose()?.flatten(),
    })
}

/// A phpredis-style config array (public for the fuzz target that feeds it
/// any array, fuzz/fuzz_targets/connection_arrays.rs).
pub fn from_array<V: PhpValue + ?Sized>(a: &V::Array) -> Result<(Target, TimeoutOverrides)> {
    let tls = tls_options::<V>(a)?;
    if let Some(list) = a.get("sentinel").filter(|z| !z.dereference().is_null()) {
        let mut target = sentinel_target::<V>(a, list)?;
        if let Some(tls) = tls {
            target = target.with_tls(tls)?;
        }
        if let Some(auth) = a.get("auth") {
            apply_auth(&mut target, auth)?;
        }
        target.db = db_index::<V>(a)?.unwrap_or(0);
        return Ok((target, timeout_overrides::<V>(a)?));
    }
    if let Some(cluster) = a.get("cluster").filter(|z| !z.dereference().is_null()) {
        let mut target = cluster_seeds(cluster)?;
        if let Some(tls) = tls {
            target = target.with_tls(tls)?;
        }
        if let Some(auth) = a.get("auth") {
            apply_auth(&mut target, auth)?;
        }
        return Ok((target, timeout_overrides::<V>(a)?));
    }
    let host = match a.get("host").map(V::dereference) {
        None => "127.0.0.1".to_string(),
        Some(z) if z.is_null() => "127.0.0.1".to_string(),
        Some(z) => {
            z.str().map(str::to_string).ok_or_else(|| Error::value("connection", format!("host must be a string, {} given", z.type_name())))?
        }
    };
    let port = a.get("port").filter(|z| !z.dereference().is_null()).map(|z| entry("port", values::int("connection", z))).transpose()?;
    let mut target = host_target("connection", &host, port)?;
    if let Some(tls) = tls {
        // Options here replace the defaults a tls:// host gave.
        target = Target { tls: None, ..target }.with_tls(tls)?;
    }
    if let Some(auth) = a.get("auth") {
        apply_auth(&mut target, auth)?;
    }
    if let Some(n) = db_index::<V>(a)? {
        target.db = n;
    }
    Ok((target, timeout_overrides::<V>(a)?))
}

fn from_phpredis(redis: &Zval) -> Result<(Target, TimeoutOverrides)> {
    if !call(redis, "Redis", "isConnected", vec![])?.is_true() {
        return Err(Error::value("connection", "is a Redis object that is not connected; call connect() first"));
    }
    let host = call(redis, "Redis", "getHost", vec![])?;
    let host = host.str().ok_or_else(|| Error::value("connection", "is a Redis object without a host"))?.to_string();
    let port = call(redis, "Redis", "getPort", vec![])?.long();
    let mut target = host_target("connection", &host, port)?;
    apply_auth(&mut target, &call(redis, "Redis", "getAuth", vec![])?)?;
    target.db = call(redis, "Redis", "getDbNum", vec![])?.long().unwrap_or(0).max(0);
    let timeouts = TimeoutOverrides {
        connect: seconds("connection", &call(redis, "Redis", "getTimeout", vec![])?).unwrap_or(None),
        reply: seconds("connection", &call(redis, "Redis", "getReadTimeout", vec![])?).unwrap_or(None),
    };
    Ok((target, timeouts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_names_a_socket_by_an_absolute_path() {
        assert_eq!(host_target("connection", "/run/r.sock", None).unwrap(), Target::unix("/run/r.sock"));
        assert_eq!(host_target("connection", "unix:///run/r.sock", None).unwrap(), Target::unix("/run/r.sock"));
        // Found by fuzz/fuzz_targets/connection_arrays.rs: ['host' => 'unix://'] was a target
        // with an empty socket path, which only failed when a call connected.
        for host in ["unix://", "unix://r.sock"] {
            let e = host_target("connection", host, None).unwrap_err();
            assert!(e.to_string().starts_with("$connection host unix:// needs an absolute socket path"), "{host}: {e}");
        }
    }
}
