//! Replies as the extension reads them off the wire: any bytes through
//! redis-rs's RESP parser (the one its connections read with), then every
//! reader of a reply the extension has: an answer (take, peek, compound),
//! a batch's records and error texts (take_many), the
//! `Outcome` a policy makes of an answer, redis-cell's tuple, `COMMAND INFO`
//! for the module and for FCALL, `ROLE`, and a sentinel's master address.
//!
//! Checked (a panic or a failed assert is a finding):
//! - whatever a server sends, a reader answers a value or an error;
//! - a decoded answer has 2 to 5 integers; a batch has exactly one result
//!   per key, each an answer of 2 to 4 integers or an error;
//! - an `Outcome` made of any answer has remaining within 0..=limit, no
//!   negative time, and no retry when allowed; redis-cell's tuple has the
//!   limit, and a retry only when limited.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ratelimit::limiter::algorithms::gcra;
use ratelimit::limiter::Outcome;
use ratelimit::entry::reply::{functions_in, module_commands_in, Ints};
use ratelimit::redis::conn::role_in;
use ratelimit::redis::pool::sentinel::master_in;
use ratelimit_fuzz::Bytes;

fn check(o: &Outcome, limit: i64) {
    assert!((0..=limit).contains(&o.remaining), "{o:?}");
    assert!(o.retry_after_us >= 0 && o.reset_after_us >= 0 && o.delay_us >= 0, "{o:?}");
    assert!(!o.allowed || o.retry_after_us == 0, "{o:?}");
    let quantity = o.limit / 2;
    let tuple = gcra::cl_throttle(quantity, o);
    assert_eq!(tuple[1], o.limit);
    assert!(tuple[0] == 1 || tuple[3] == -1, "a retry when not limited: {tuple:?}");
    let _ = (o.retry_after(), o.reset_after(), o.delay());
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes::new(data);
    let limit = match b.next() {
        n if n < 200 => i64::from(n) + 1,
        _ => 1 << 40,
    };
    let n = 1 + (b.next() % 8) as usize;
    let wire = b.slice(data.len());
    let Ok(value) = ::redis::parse_redis_value(wire) else { return };
    if let Ok(ints) = Ints::from_value(value.clone()) {
        assert!(ints.as_slice().len() <= 5, "{ints:?}");
        if let Ok(o) = Outcome::from_reply(limit, ints.as_slice()) {
            check(&o, limit);
        }
    }
    if let Ok(records) = Ints::many_from_value(value.clone(), n) {
        assert_eq!(records.len(), n, "one result per key");
        for r in records {
            let Ok(ints) = r else { continue };
            assert!((2..=4).contains(&ints.as_slice().len()), "{ints:?}");
            if let Ok(o) = Outcome::from_reply(limit, ints.as_slice()) {
                check(&o, limit);
            }
        }
    }
    let _ = module_commands_in(vec![value.clone(), value.clone()]);
    let _ = functions_in(value.clone());
    let _ = role_in(&value);
    if let Ok(Some((host, port))) = master_in(value) {
        assert!(port >= 1, "{host}:{port}");
    }
});
