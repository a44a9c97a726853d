//! Opening one connection to one server (TCP, TLS or a unix socket) with a
//! call's timeouts and credentials, and saying why it failed. The pool opens
//! its single-server and cluster connections with it, and the sentinel code
//! its questions to sentinels and its master connections.

use std::time::Duration;

use ::redis::{Client, Connection, ConnectionAddr, IntoConnectionInfo, RedisConnectionInfo, RedisError, RedisResult};

use super::target::{Address, Tls};

/// Connection and reply timeouts for one call, from the ini settings or the
/// connection argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    pub connect: Duration,
    pub reply: Duration,
}

/// The settings of a connection to one server: its db and credentials.
pub fn settings(db: i64, username: Option<&String>, password: Option<&String>) -> RedisConnectionInfo {
    let mut settings = RedisConnectionInfo::default().set_db(db).set_skip_set_lib_name();
    if let Some(u) = username {
        settings = settings.set_username(u);
    }
    if let Some(p) = password {
        settings = settings.set_password(p);
    }
    settings
}

/// Why one server could not be connected to: its TLS settings (unreadable
/// files, found before any I/O), or redis-rs's error.
pub enum OpenError {
    Setup(String),
    Redis(RedisError),
}

/// One connection to a single server (TCP, TLS over TCP, or a unix socket),
/// with the call's timeouts. Over TLS the handshake, certificate checks
/// included, happens here, before AUTH.
pub fn open_single(
    address: &Address,
    tls: Option<&Tls>,
    settings: RedisConnectionInfo,
    timeouts: Timeouts,
) -> std::result::Result<Connection, OpenError> {
    let client = match (address, tls) {
        (Address::Tcp { host, port }, Some(tls)) => super::tls::client(host, *port, tls, settings).map_err(|e| OpenError::Setup(e.0))?,
        (address, _) => {
            let addr = match address {
                Address::Tcp { host, port } => ConnectionAddr::Tcp(host.clone(), *port),
                Address::Unix { path } => ConnectionAddr::Unix(path.into()),
                Address::Cluster { .. } | Address::Sentinel(_) => unreachable!("a single server"),
            };
            addr.into_connection_info().and_then(|info| Client::open(info.set_redis_settings(settings))).map_err(OpenError::Redis)?
        }
    };
    let connect = || -> RedisResult<Connection> {
        let conn = client.get_connection_with_timeout(timeouts.connect)?;
        conn.set_read_timeout(Some(timeouts.reply))?;
        conn.set_write_timeout(Some(timeouts.reply))?;
        Ok(conn)
    };
    connect().map_err(OpenError::Redis)
}

/// `describe`, and over TLS the certificate problem said plainly.
pub fn cause(e: &RedisError, tls: Option<&Tls>) -> String {
    let text = describe(e);
    match tls {
        Some(_) => super::tls::describe(&text).unwrap_or(text),
        None => text,
    }
}

/// A one-line cause: redis-rs's text, with the common cases said plainly.
pub fn describe(e: &RedisError) -> String {
    if e.is_timeout() {
        format!("timed out ({e})")
    } else if e.is_connection_refusal() {
        "connection refused".to_string()
    } else if e.kind() == ::redis::ErrorKind::Parse {
        format!("the server did not answer as Redis does ({e})")
    } else if let Some(code) = e.code() {
        // An error reply: the server's own words ("WRONGTYPE Operation against a key …"),
        // without the " script: <sha>, on @user_script:<line>." Redis adds to
        // an error raised inside one of our scripts: it names our code, not the cause.
        match e.detail().map(|d| d.split(" script: ").next().unwrap_or(d)) {
            Some(detail) => format!("{code} {detail}"),
            None => code.to_string(),
        }
    } else {
        e.to_string()
    }
}
