//! `$connection` as a phpredis-style array (`ratelimit::php::connection::
//! from_array`), read through the same code the extension runs on a zval,
//! here on a tree of plain values (`Php`: what a PHP array can hold, keys
//! normalised as PHP normalises them) built from the input: the keys the
//! reader knows (host, port, auth, scheme, ssl, context, cluster, sentinel,
//! …) and others, values of every type, arrays three deep.
//!
//! Checked (a panic or a failed assert is a finding):
//! - the answer is a target or a ValueError / TypeError naming
//!   `$connection`, whose message stays short;
//! - a password given under `auth`, `pass`, `password` or `sentinel_auth`
//!   never shows: not in the error, the target's Display or its Debug;
//! - a target is one a connection can be opened to: a port >= 1, a db >= 0,
//!   a host without NUL bytes, an absolute socket path; timeouts > 0.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ratelimit::error::Error;
use ratelimit::php::connection::from_array;
use ratelimit::php::args::php_value::{PhpArray, PhpValue};
use ratelimit::redis::target::{Address, Target};
use ratelimit_fuzz::{Bytes, NUMBERS};

const PASSWORD: &str = "Pw7Xq-secret-9Zk";

/// A PHP value.
#[derive(Debug)]
enum Php {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Vec<u8>),
    Array(Arr),
    Object(&'static str),
}

#[derive(Debug, Clone, PartialEq)]
enum Key {
    Int(i64),
    Str(String),
}

/// A PHP array: keys unique, in insertion order.
#[derive(Debug, Default)]
struct Arr(Vec<(Key, Php)>);

impl Arr {
    /// `$a[key] = value`: a decimal integer string key is an int key, and a
    /// key already there keeps its place.
    fn set(&mut self, key: Key, value: Php) {
        let key = match key {
            Key::Str(s) if s.parse::<i64>().is_ok_and(|n| n.to_string() == s) => Key::Int(s.parse().unwrap()),
            k => k,
        };
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = value,
            None => self.0.push((key, value)),
        }
    }
}

impl PhpValue for Php {
    type Array = Arr;
    fn dereference(&self) -> &Self {
        self
    }
    fn is_null(&self) -> bool {
        matches!(self, Php::Null)
    }
    fn is_string(&self) -> bool {
        matches!(self, Php::Str(_))
    }
    fn bool(&self) -> Option<bool> {
        match self {
            Php::Bool(b) => Some(*b),
            _ => None,
        }
    }
    fn long(&self) -> Option<i64> {
        match self {
            Php::Int(n) => Some(*n),
            _ => None,
        }
    }
    fn double(&self) -> Option<f64> {
        match self {
            Php::Float(f) => Some(*f),
            _ => None,
        }
    }
    fn str(&self) -> Option<&str> {
        match self {
            Php::Str(s) => std::str::from_utf8(s).ok(),
            _ => None,
        }
    }
    fn array(&self) -> Option<&Arr> {
        match self {
            Php::Array(a) => Some(a),
            _ => None,
        }
    }
    fn type_name(&self) -> String {
        match self {
            Php::Null => "null",
            Php::Bool(_) => "bool",
            Php::Int(_) => "int",
            Php::Float(_) => "float",
            Php::Str(_) => "string",
            Php::Array(_) => "array",
            Php::Object(class) => class,
        }
        .to_string()
    }
}

impl PhpArray for Arr {
    type Value = Php;
    fn get(&self, key: &str) -> Option<&Php> {
        self.0.iter().find(|(k, _)| *k == Key::Str(key.to_string())).map(|(_, v)| v)
    }
    fn get_index(&self, index: i64) -> Option<&Php> {
        self.0.iter().find(|(k, _)| *k == Key::Int(index)).map(|(_, v)| v)
    }
    fn values(&self) -> Box<dyn Iterator<Item = &Php> + '_> {
        Box::new(self.0.iter().map(|(_, v)| v))
    }
    fn len(&self) -> usize {
        self.0.len()
    }
}

const KEYS: [&str; 28] = [
    "host",
    "port",
    "auth",
    "user",
    "pass",
    "password",
    "scheme",
    "ssl",
    "tls",
    "context",
    "stream",
    "cafile",
    "ca_file",
    "local_cert",
    "certfile",
    "local_pk",
    "keyfile",
    "verify_peer",
    "cluster",
    "sentinel",
    "service",
    "sentinel_auth",
    "index",
    "database",
    "db",
    "timeout",
    "read_timeout",
    "0",
];
/// Where a value is a password: the `auth` or `sentinel_auth` string, or
/// their arrays' `pass` or `password` entry (a user name there is shown by
/// design, and an entry of a `cluster` list is a host whatever its key).
fn secret(parent: Option<&str>, key: &Key) -> bool {
    let Key::Str(key) = key else { return false };
    match parent {
        None => matches!(key.as_str(), "auth" | "sentinel_auth"),
        Some("auth" | "sentinel_auth") => matches!(key.as_str(), "pass" | "password"),
        Some(_) => false,
    }
}
const TEXTS: [&str; 22] = [
    "127.0.0.1",
    "localhost",
    "h",
    "[::1]",
    "::1",
    "/tmp/r.sock",
    "unix:///tmp/r.sock",
    "tls://h",
    "ssl://h",
    "tcp://h",
    "redis",
    "tls",
    "h:1",
    "h:0",
    "[::1]:6379",
    "10.0.0.1:7000",
    "mymaster",
    "my master",
    "",
    "a\0b",
    "/ca.pem",
    "default",
];

/// A value at `key` of an array `depth` deep.
fn value(b: &mut Bytes, depth: u8, key: &str, secret: bool) -> Php {
    match b.next() % 9 {
        0 => Php::Null,
        1 => Php::Bool(b.next() % 2 == 1),
        2 => Php::Int(match b.next() {
            n if n < 128 => i64::from(n) - 2,
            n if n < 200 => 65_530 + i64::from(n - 128),
            _ => b.u64() as i64,
        }),
        3 => Php::Float(match b.next() % 4 {
            0 => f64::from(b.next()) / 4.0,
            1 => f64::from_bits(b.u64()),
            2 => -1.5,
            _ => 1e-7,
        }),
        4 if secret => Php::Str(PASSWORD.into()),
        4 | 5 => Php::Str(TEXTS[b.next() as usize % TEXTS.len()].into()),
        6 => Php::Str(NUMBERS[b.next() as usize % NUMBERS.len()].to_vec()),
        7 if depth < 3 => Php::Array(array(b, depth + 1, Some(key))),
        7 => Php::Object("Redis"),
        _ => {
            let raw = b.short(16).to_vec();
            // The fuzzer learns the password's bytes from the checks below:
            // where it puts them outside a password's place, they are no secret.
            if raw.windows(PASSWORD.len()).any(|w| w == PASSWORD.as_bytes()) {
                ELSEWHERE.set(true);
            }
            Php::Str(raw)
        }
    }
}

thread_local! {
    static ELSEWHERE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// An array `depth` deep, the value of `parent` (None: the top).
fn array(b: &mut Bytes, depth: u8, parent: Option<&str>) -> Arr {
    let mut a = Arr::default();
    for _ in 0..b.next() % 6 {
        let key = match b.next() {
            n if n < 200 => Key::Str(KEYS[n as usize % KEYS.len()].to_string()),
            n if n < 240 => Key::Int(i64::from(n % 4)),
            _ => Key::Str(String::from_utf8_lossy(b.short(8)).into_owned()),
        };
        let name = match &key {
            Key::Str(k) => k.clone(),
            Key::Int(_) => String::new(),
        };
        let v = value(b, depth, &name, secret(parent, &key));
        a.set(key, v);
    }
    a
}

fn check_target(t: &Target) {
    assert!(t.db >= 0, "db {}", t.db);
    match &t.address {
        Address::Tcp { host, port } => assert!(*port >= 1 && !host.is_empty() && !host.contains('\0'), "{host:?}:{port}"),
        Address::Unix { path } => assert!(!path.is_empty() && !path.contains('\0'), "{path:?}"),
        Address::Cluster { seeds } => assert!(!seeds.is_empty() && seeds.iter().all(|(h, p)| *p >= 1 && !h.is_empty())),
        Address::Sentinel(s) => assert!(!s.nodes.is_empty() && !s.service.is_empty()),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    ELSEWHERE.set(false);
    let a = array(&mut b, 0, None);
    let secret = if ELSEWHERE.get() { "\0no secret" } else { PASSWORD };
    if ratelimit_fuzz::show() {
        eprintln!("{a:?}");
    }
    match from_array::<Php>(&a) {
        Ok((target, timeouts)) => {
            check_target(&target);
            for d in [timeouts.connect, timeouts.reply].into_iter().flatten() {
                assert!(!d.is_zero(), "{timeouts:?}");
            }
            assert!(!target.to_string().contains(secret), "the password shows: {target}");
            assert!(!format!("{target:?}").contains(secret), "the password shows in Debug: {target:?}");
        }
        Err(e @ Error::Param { .. }) => {
            let message = e.to_string();
            assert_eq!(e.param(), Some("connection"), "{message}");
            assert!(message.starts_with("$connection "), "{message}");
            assert!(message.len() < 1024, "a message of {} bytes", message.len());
            assert!(!message.contains(secret), "the password shows: {message}");
        }
        Err(other) => panic!("not a ValueError or TypeError: {other:?}"),
    }
});
