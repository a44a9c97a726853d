//! Finding the master of a Redis Sentinel service, each time the pool opens
//! a connection for a `redis-sentinel://` target:
//!
//! 1. ask the sentinels in turn `SENTINEL GET-MASTER-ADDR-BY-NAME service`
//!    (the one that answered last time first); the first that names an
//!    address is believed (a sentinel that cannot be reached, or does not
//!    know the service, is passed over);
//! 2. connect to that address as to a single server (credentials, db, TLS,
//!    timeouts of the target) and check that `ROLE` says master: right after
//!    a failover a sentinel may still name the old master, now a replica.
//!    Then ask again, a few times; a replica is never written to.
//!
//! The connection is then an ordinary single-server one, and the pool treats
//! it so (scripts, NOSCRIPT, fork, timeouts). When the master dies or is
//! demoted, the pool drops the connection (an I/O error, or the READONLY a
//! demoted master answers a write with), and its next connect comes back here.

use std::collections::HashMap;
use std::time::Duration;

use ::redis::{Client, Connection, ConnectionAddr, IntoConnectionInfo, RedisConnectionInfo, RedisError, RedisResult, Value};
use once_cell::sync::Lazy;
use parking_lot::Mutex;

use super::pool::{describe, Timeouts};
use super::redact::shown;
use super::target::{Sentinels, Target, Tls};

/// How many times a master that says it is a replica is asked about again,
/// and the pause before each new question (sentinels update one another
/// within ~100 ms of a promotion).
const ROUNDS: usize = 3;
const REASK_PAUSE: Duration = Duration::from_millis(100);

/// A connection to the current master of `sentinels.service`, or why there is none.
pub fn connect_master(target: &Target, sentinels: &Sentinels, timeouts: Timeouts) -> Result<Connection, String> {
    let tls = target.tls.as_ref();
    let mut why = String::new();
    for round in 0..ROUNDS {
        if round > 0 {
            std::thread::sleep(REASK_PAUSE);
        }
        let (host, port) = ask(sentinels, tls, timeouts)?;
        let master = format!("{}:{port}", shown(&host));
        let mut settings = RedisConnectionInfo::default().set_db(target.db).set_skip_set_lib_name();
        if let Some(u) = &target.username {
            settings = settings.set_username(u);
        }
        if let Some(p) = &target.password {
            settings = settings.set_password(p);
        }
        let mut conn = open(&host, port, tls, settings, timeouts).map_err(|e| format!("the master {master} the sentinels named: {e}"))?;
        match role(&mut conn) {
            Ok(role) if role == "master" => return Ok(conn),
            Ok(role) => {
                let role = if role == "slave" { "replica" } else { role.as_str() };
                why = format!("the sentinels named {master} as master, but it is a {role} (a failover is under way); asked {ROUNDS} times")
            }
            Err(e) => return Err(format!("the master {master} the sentinels named: {}", cause(&e, tls))),
        }
    }
    Err(why)
}

/// Per process, the sentinel of each set that answered last: it is asked
/// first next time, so one that hangs costs its timeout once, not on every
/// reconnect. A handful of sets at most; the map is cleared if it ever grows.
static ANSWERED_LAST: Lazy<Mutex<HashMap<Sentinels, usize>>> = Lazy::new(Default::default);
const ANSWERED_LAST_MAX: usize = 256;

/// The address the first sentinel that knows the service gives for its master.
fn ask(sentinels: &Sentinels, tls: Option<&Tls>, timeouts: Timeouts) -> Result<(String, u16), String> {
    let mut failures = Vec::new();
    let mut unknown = 0;
    let n = sentinels.nodes.len();
    let first = ANSWERED_LAST.lock().get(sentinels).copied().unwrap_or(0);
    for i in (0..n).map(|k| (first + k) % n) {
        let (host, port) = &sentinels.nodes[i];
        // A sentinel has no databases: no SELECT, whatever the master's db.
        let mut settings = RedisConnectionInfo::default().set_skip_set_lib_name();
        if let Some(u) = &sentinels.username {
            settings = settings.set_username(u);
        }
        if let Some(p) = &sentinels.password {
            settings = settings.set_password(p);
        }
        let answer = open(host, *port, tls, settings, timeouts).and_then(|mut conn| {
            ::redis::cmd("SENTINEL")
                .arg("GET-MASTER-ADDR-BY-NAME")
                .arg(&sentinels.service)
                .query::<Option<(String, String)>>(&mut conn)
                .map_err(|e| cause(&e, tls))
        });
        match answer {
            Ok(Some((master, master_port))) => match master_port.parse::<u16>() {
                Ok(master_port) if master_port > 0 => {
                    let mut answered = ANSWERED_LAST.lock();
                    if answered.len() >= ANSWERED_LAST_MAX {
                        answered.clear();
                    }
                    answered.insert(sentinels.clone(), i);
                    return Ok((master, master_port));
                }
                _ => failures.push(format!("{}:{port} named the port \"{}\"", shown(host), shown(&master_port))),
            },
            Ok(None) => unknown += 1,
            Err(e) => failures.push(format!("{}:{port}: {e}", shown(host))),
        }
    }
    let service = shown(&sentinels.service);
    Err(match (unknown, failures.is_empty()) {
        (0, _) => format!("no sentinel answered ({})", failures.join("; ")),
        (_, true) => format!("no sentinel knows the service \"{service}\" (not a master name they monitor)"),
        (n, false) => format!("no sentinel knows the service \"{service}\" ({n} answered they do not; {})", failures.join("; ")),
    })
}

/// One connection to `host:port`, plain or TLS, with the call's timeouts.
fn open(host: &str, port: u16, tls: Option<&Tls>, settings: RedisConnectionInfo, timeouts: Timeouts) -> Result<Connection, String> {
    let client = match tls {
        Some(tls) => super::tls::client(host, port, tls, settings).map_err(|e| e.0)?,
        None => ConnectionAddr::Tcp(host.to_string(), port)
            .into_connection_info()
            .and_then(|info| Client::open(info.set_redis_settings(settings)))
            .map_err(|e| cause(&e, None))?,
    };
    let connect = || -> RedisResult<Connection> {
        let conn = client.get_connection_with_timeout(timeouts.connect)?;
        conn.set_read_timeout(Some(timeouts.reply))?;
        conn.set_write_timeout(Some(timeouts.reply))?;
        Ok(conn)
    };
    connect().map_err(|e| cause(&e, tls))
}

/// The first word of `ROLE`: master, slave (a replica) or sentinel.
fn role(conn: &mut Connection) -> RedisResult<String> {
    let reply: Value = ::redis::cmd("ROLE").query(conn)?;
    let first = match &reply {
        Value::Array(items) => items.first(),
        _ => None,
    };
    Ok(match first {
        Some(Value::BulkString(b)) => String::from_utf8_lossy(b).into_owned(),
        Some(Value::SimpleString(s)) => s.clone(),
        _ => "server that does not answer ROLE as Redis does".to_string(),
    })
}

fn cause(e: &RedisError, tls: Option<&Tls>) -> String {
    let text = describe(e);
    match tls {
        Some(_) => super::tls::describe(&text).unwrap_or(text),
        None => text,
    }
}
