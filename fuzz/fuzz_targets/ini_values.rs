//! Every `ratelimit.*` ini entry given any bytes, as php.ini, `-d`,
//! `ini_set()` and a per-directory setting hand them to its `on_modify`
//! hook (`ratelimit::php::ini::settings::apply`), several in a row.
//!
//! Checked (a panic or a failed assert is a finding):
//! - a value that is refused changes no setting at all;
//! - a value that is taken gives what the entry promises: timeouts finite,
//!   > 0 and at most a day; a block cache of 1 to 10 million entries; 1 to
//!   65536 connections; a URL that is a DSN the extension accepts, kept as
//!   given; the key prefix byte for byte.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ratelimit::redis::pool;
use ratelimit::php::ini::settings;
use ratelimit_fuzz::Bytes;

/// Every setting as the hot path reads it.
#[derive(Debug, Clone, PartialEq)]
struct Seen {
    redis_url: String,
    connect_timeout: std::time::Duration,
    timeout: std::time::Duration,
    on_error: &'static str,
    key_prefix: Vec<u8>,
    block_cache: usize,
    max_connections: usize,
    server_module: bool,
}

fn seen() -> Seen {
    Seen {
        redis_url: settings::redis_url(),
        connect_timeout: settings::connect_timeout(),
        timeout: settings::timeout(),
        on_error: settings::on_error().name(),
        key_prefix: settings::key_prefix(),
        block_cache: settings::block_cache(),
        max_connections: pool::max_connections(),
        server_module: settings::server_module(),
    }
}

/// Values near what each entry takes.
const NEAR: [&[u8]; 16] = [
    b"1",
    b"0",
    b"on",
    b"off",
    b"auto",
    b"throw",
    b"allow",
    b" deny ",
    b"0.25",
    b"86400",
    b"86400.001",
    b"1e-7",
    b"65536",
    b"10000000",
    b"redis://127.0.0.1:6379/2",
    b"memory://x",
];

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    // The block cache on, so its size shows in `block_cache()`.
    assert!(settings::apply(5, b"1"));
    while !b.is_empty() {
        let entry = b.next() as usize % settings::ENTRIES;
        let value = match b.next() {
            n if n < 64 => NEAR[n as usize % NEAR.len()].to_vec(),
            n => b.short(n as usize % 48).to_vec(),
        };
        let before = seen();
        if !settings::apply(entry, &value) {
            assert_eq!(before, seen(), "a refused value changed a setting (entry {entry}, {value:?})");
            continue;
        }
        let now = seen();
        let text = String::from_utf8_lossy(&value);
        match entry {
            // Blank (an ini line "${RATELIMIT_REDIS_URL}" with that variable unset): the default.
            0 if text.trim().is_empty() => assert_eq!(now.redis_url, settings::DEFAULT_REDIS_URL, "a blank URL means the default"),
            0 => assert_eq!(now.redis_url.as_bytes(), value, "the URL is kept as given"),
            1 | 2 => {
                let d = if entry == 1 { now.connect_timeout } else { now.timeout };
                assert!(d > std::time::Duration::ZERO && d <= std::time::Duration::from_secs(86_400), "{d:?} from {text:?}");
            }
            4 => assert_eq!(now.key_prefix, value),
            // (0 while ratelimit.block_cache is off.)
            6 => assert!(now.block_cache == 0 || (1..=10_000_000).contains(&now.block_cache), "{} from {text:?}", now.block_cache),
            7 => assert!((1..=65_536).contains(&now.max_connections), "{} from {text:?}", now.max_connections),
            _ => {}
        }
        if entry == 0 {
            let url = now.redis_url;
            assert!(ratelimit::backend::memory::parse_dsn(&url).map_or_else(|| ratelimit::redis::target::dsn::parse_dsn(&url).is_ok(), |m| m.is_ok()), "{url:?}");
        }
    }
});
