//! Property tests ("fuzzing" within `cargo test`, bounded by case counts):
//! the code that reads user input never panics and never hangs, whatever the
//! input, and accepts well-formed input exactly.
#![cfg(test)]

use proptest::prelude::*;

use crate::error::Error;
use crate::limiter::params;
use crate::redis::target::dsn::parse_dsn;
use crate::redis::target::Address;

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    /// Any string: a Target or a ValueError naming $connection, never a panic.
    #[test]
    fn any_dsn_is_a_target_or_a_value_error(s in any::<String>()) {
        match parse_dsn(&s) {
            Ok(_) => {}
            Err(e @ Error::Param { .. }) => prop_assert!(e.param() == Some("connection") && e.to_string().starts_with("$connection "), "{}", e),
            Err(other) => prop_assert!(false, "{:?}", other),
        }
    }

    /// Strings shaped like DSNs, where the interesting bugs are.
    #[test]
    fn dsn_shaped_strings_never_panic(s in "(redis|unix|rediss|http)://[a-z:@%/?=.\\[\\]0-9-]{0,40}") {
        let _ = parse_dsn(&s);
    }

    /// Well-formed DSNs round-trip their parts; the password never shows in Display.
    #[test]
    fn well_formed_dsns_parse_exactly(
        host in "[a-z][a-z0-9.-]{0,20}",
        port in 1u16..,
        db in 0i64..10000,
        user in "[a-z]{1,8}",
        pass in "[a-zA-Z0-9]{12,20}",
    ) {
        let t = parse_dsn(&format!("redis://{user}:{pass}@{host}:{port}/{db}")).unwrap();
        prop_assert_eq!(t.address.clone(), Address::Tcp { host: host.clone(), port });
        prop_assert_eq!(t.db, db);
        prop_assert_eq!(t.username.as_deref(), Some(user.as_str()));
        prop_assert_eq!(t.password.as_deref(), Some(pass.as_str()));
        prop_assert!(!t.to_string().contains(&pass));
    }

    /// Any float: microseconds > 0 or a ValueError naming the parameter.
    #[test]
    fn any_duration_is_positive_microseconds_or_a_value_error(bits in any::<u64>()) {
        let seconds = f64::from_bits(bits);
        match params::seconds_to_us("window", seconds) {
            Ok(us) => prop_assert!(us >= 1 && seconds > 0.0 && seconds.is_finite()),
            Err(e @ Error::Param { .. }) => prop_assert!(e.param() == Some("window"), "{}", e),
            Err(other) => prop_assert!(false, "{:?}", other),
        }
        let _ = params::seconds_to_ms("window", seconds);
        let _ = params::rate("rate", seconds);
    }

    /// Any integer: a count or a ValueError naming the parameter; costs likewise.
    #[test]
    fn any_count_or_cost_is_checked(n in any::<i64>(), max in 1i64..1_000_000) {
        match params::count("limit", n) {
            Ok(c) => prop_assert!((1..=params::MAX_COUNT).contains(&c)),
            Err(e @ Error::Param { .. }) => prop_assert!(e.param() == Some("limit"), "{}", e),
            Err(other) => prop_assert!(false, "{:?}", other),
        }
        prop_assert_eq!(params::check_cost(n, max, "the limit").is_ok(), n >= 1 && n <= max);
    }
}
