//! DSNs as `$connection`, `ratelimit.redis_url` or a cluster / Sentinel
//! list give them: `ratelimit::redis::target::dsn::parse_dsn` and the `memory://`
//! form, on any text, and on text that carries a password where a DSN puts
//! one (`scheme://user:PASSWORD@…`, the rest anything).
//!
//! Checked (a panic or a failed assert is a finding):
//! - the answer is a target or a ValueError naming `$connection`, whose
//!   message stays short (an input of any length is cut);
//! - the password never shows: not in the error, nor in the target as
//!   phpinfo, `php --ri` and errors show it (Display), nor in its Debug;
//! - a target is what a DSN can name: a port >= 1, a db >= 0, no NUL byte
//!   in a host, at least one cluster seed or sentinel.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ratelimit::error::Error;
use ratelimit::redis::target::dsn::parse_dsn;
use ratelimit::redis::target::{Address, Target};
use ratelimit_fuzz::Bytes;

const PASSWORD: &str = "Pw7Xq-secret-9Zk";
const SCHEMES: [&str; 10] =
    ["redis", "rediss", "unix", "redis-cluster", "rediss-cluster", "redis-sentinel", "rediss-sentinel", "tls", "memory", "http"];

fn check_target(t: &Target) {
    assert!(t.db >= 0, "db {}", t.db);
    match &t.address {
        Address::Tcp { host, port } => assert!(*port >= 1 && !host.is_empty() && !host.contains('\0'), "{host:?}:{port}"),
        Address::Unix { path } => assert!(path.starts_with('/') && !path.contains('\0'), "{path:?}"),
        Address::Cluster { seeds } => assert!(!seeds.is_empty() && seeds.iter().all(|(h, p)| *p >= 1 && !h.is_empty())),
        Address::Sentinel(s) => assert!(!s.nodes.is_empty() && !s.service.is_empty()),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let mode = b.next();
    let rest = String::from_utf8_lossy(b.slice(data.len())).into_owned();
    let (dsn, secret) = if mode % 2 == 0 {
        (rest.clone(), None)
    } else {
        // A user of letters and digits, then the password, then anything.
        let user: String = rest.chars().take((mode / 2 % 8) as usize).filter(char::is_ascii_alphanumeric).collect();
        let tail: String = rest.chars().skip((mode / 2 % 8) as usize).collect();
        let scheme = SCHEMES[(mode / 16) as usize % SCHEMES.len()];
        (format!("{scheme}://{user}:{PASSWORD}@{tail}"), Some(PASSWORD).filter(|_| !tail.contains(PASSWORD)))
    };
    if let Some(name) = ratelimit::backend::memory::parse_dsn(&dsn) {
        match name {
            Ok(name) => assert!(name.bytes().all(|c| c.is_ascii_alphanumeric() || b"_-.".contains(&c)), "{name:?}"),
            Err(e) => assert_eq!(e.param(), Some("connection")),
        }
        return;
    }
    match parse_dsn(&dsn) {
        Ok(t) => {
            check_target(&t);
            if let Some(secret) = secret {
                assert!(!t.to_string().contains(secret), "the password shows: {t}");
                assert!(!format!("{t:?}").contains(secret), "the password shows in Debug: {t:?}");
            }
        }
        Err(e @ Error::Param { .. }) => {
            let message = e.to_string();
            assert_eq!(e.param(), Some("connection"), "{message}");
            assert!(message.starts_with("$connection "), "{message}");
            assert!(message.len() < 1024, "a message of {} bytes", message.len());
            if let Some(secret) = secret {
                assert!(!message.contains(secret), "the password shows: {message}");
            }
        }
        Err(other) => panic!("not a ValueError: {other:?}"),
    }
});
