//! What a call cannot handle is refused whole, on a real redis-server: an
//! error reply, and no key written, on every path (the Lua library, the
//! server module, the `memory://` core). The findings of the fuzz targets
//! (fuzz/), each replayed here against the server:
//! - a compound whose first member's counter is text INCRBY refuses
//!   ("0x10", "1.5": Lua reads them as numbers) took from the other
//!   members first, then failed (fuzz/fuzz_targets/module_commands.rs);
//! - the module took any arguments a client sent: a cost of a million on an
//!   exact log (a member per unit), a window of 0, a bucket no rate empties,
//!   a test clock in the past, one key twice in a compound, a block key
//!   that is a decided key (a compound's denial wrote it).

mod support;

use std::sync::Arc;

use ratelimit::limiter::algorithms::{fixed_window, sliding_window, token_bucket};
use ratelimit::limiter::decide::compound::Compound;
use ratelimit::limiter::decide::instance::CallOptions;
use ratelimit::limiter::Op;
use ratelimit_core::store::Value;
use support::OPTS;

/// Every key the server holds, with its type, value and whether it expires.
fn keyspace(conn: &mut ::redis::Connection) -> Vec<(String, String, String)> {
    let mut keys: Vec<String> = ::redis::cmd("KEYS").arg("*").query(conn).unwrap();
    keys.sort();
    keys.into_iter()
        .map(|k| {
            let kind: String = ::redis::cmd("TYPE").arg(&k).query(conn).unwrap();
            let dump: Vec<u8> = ::redis::cmd("DUMP").arg(&k).query(conn).unwrap();
            let ttl: i64 = ::redis::cmd("PTTL").arg(&k).query(conn).unwrap();
            (k, kind, format!("{dump:?} expires {}", ttl >= 0))
        })
        .collect()
}

#[test]
fn a_compound_that_meets_a_foreign_counter_takes_nothing() {
    let Some(server) = support::start() else { return };
    let mut conn = server.connection().unwrap();
    let lua = CallOptions { server_module: false, ..OPTS };
    let paths = if support::server_module().is_some() { vec![("lua", lua), ("module", OPTS)] } else { vec![("lua", lua)] };
    for (path, opts) in paths {
        for foreign in ["0x10", "1.5", " 5", "05", "-9007199254740993"] {
            let name = |m: &str| format!("{path}-{}-{m}", foreign.trim());
            let fixed = Arc::new(server.limiter(fixed_window::policy(60.0, 100).unwrap(), &name("fixed")));
            let token = Arc::new(server.limiter(token_bucket::policy(10, 1.0).unwrap(), &name("token")));
            let log = Arc::new(server.limiter(sliding_window::policy(60.0, 10, 0).unwrap(), &name("log")));
            let both = Compound::new(vec![fixed.clone(), token, log]).unwrap();
            let _: () = ::redis::cmd("SET").arg(fixed.key(b"").unwrap()).arg(foreign).query(&mut conn).unwrap();
            let before = keyspace(&mut conn);
            let e = match both.decide(b"", Op::Consume(1), opts) {
                Ok(o) => panic!("{path}: {foreign:?} must be refused, got {o:?}, keys {:?}", keyspace(&mut conn)),
                Err(e) => e,
            };
            assert!(e.to_string().contains("ERR ratelimit: the key holds a value that is not a fixed-window counter"), "{path} {foreign:?}: {e}");
            assert_eq!(keyspace(&mut conn), before, "{path}: the refused compound wrote ({foreign:?})");
            // Alone, the same: refused before any write. (Cost 2: a cost of 1
            // takes the fixed window's scriptless path, INCRBY, which counts
            // on from any integer Redis reads, beyond 2^53 too.)
            assert!(fixed.decide(b"", Op::Consume(2), opts).is_err(), "{path} {foreign:?}");
            assert_eq!(keyspace(&mut conn), before, "{path}: the refused take wrote ({foreign:?})");
        }
    }
}

/// A module command, raw: its reply, or the error's text.
fn module_call(conn: &mut ::redis::Connection, args: &[&str]) -> Result<Vec<u8>, String> {
    let mut cmd = ::redis::cmd(args[0]);
    for a in &args[1..] {
        cmd.arg(*a);
    }
    cmd.query::<Vec<u8>>(conn).map_err(|e| e.to_string())
}

#[test]
fn so_does_the_memory_target() {
    for foreign in ["0x10", "1.5"] {
        let store = format!("refusals-{foreign}");
        let fixed = Arc::new(support::memory_limiter(fixed_window::policy(60.0, 100).unwrap(), &store, "fixed"));
        let token = Arc::new(support::memory_limiter(token_bucket::policy(10, 1.0).unwrap(), &store, "token"));
        let both = Compound::new(vec![fixed.clone(), token]).unwrap();
        let target = ratelimit::backend::memory::target(&store);
        target.with_store(|s| s.insert(&fixed.key(b"").unwrap(), Value::Str(foreign.as_bytes().to_vec())));
        let before = target.with_store(|s| s.snapshot());
        assert!(both.decide(b"", Op::Consume(1), OPTS).is_err(), "{foreign:?}");
        assert_eq!(target.with_store(|s| s.snapshot()), before, "the refused compound wrote ({foreign:?})");
    }
}

#[test]
fn the_module_refuses_what_the_extension_never_sends() {
    let Some(server) = support::start() else { return };
    if support::server_module().is_none() {
        eprintln!("no RATELIMIT_SERVER_MODULE: nothing to ask");
        return;
    }
    let mut conn = server.connection().unwrap();
    let cases: &[(&[&str], &str)] = &[
        // A million members in one call of an exact log.
        (&["RATELIMIT.TAKE", "2", "k", "b", "0", "sliding_log", "60000000", "1099511627776", "60000", "1000000"], "the cost must be at most 1000"),
        (&["RATELIMIT.TAKE", "2", "k", "b", "0", "fixed_window", "0", "5", "1"], "bad arguments for fixed_window"),
        (&["RATELIMIT.TAKE", "2", "k", "b", "0", "fixed_window", "1000", "5.5", "1"], "bad arguments for fixed_window"),
        (&["RATELIMIT.TAKE", "2", "k", "b", "0", "token_bucket", "1000", "0.000001", "1"], "bad arguments for token_bucket"),
        (&["RATELIMIT.TAKE", "2", "k", "b", "0", "sliding_blocks", "60000000", "10", "10", "1"], "bad arguments for sliding_blocks"),
        (&["RATELIMIT.TAKE", "2", "k", "b", "0", "gcra", "1000", "999", "1"], "bad arguments for gcra"),
        (&["RATELIMIT.TAKE", "2", "k", "b", "0", "leaky_bucket", "1000000", "3", "1000000", "1000000"], "the cost must be at most 1,"),
        (&["RATELIMIT.TAKE", "2", "k", "b", "0", "token_bucket", "10", "1", "1", "-5"], "now_us must be a whole number"),
        (
            &["RATELIMIT.COMPOUND2", "4", "k", "k", "b", "c", "0", "fixed_window", "1000", "5", "0", "fixed_window", "1000", "5", "1"],
            "keys must be distinct",
        ),
        (
            &["RATELIMIT.COMPOUND2", "4", "k", "j", "b", "k", "0", "fixed_window", "1000", "5", "0", "fixed_window", "1000", "5", "1"],
            "keys must be distinct",
        ),
        // A take whose block key is its key: a denial's lock-out would write its counter.
        (&["RATELIMIT.TAKE", "2", "k", "k", "1000", "fixed_window", "1000", "5", "1"], "decided and block keys must be distinct"),
        // A key without its block key, a lockout of no whole ms, a block of none.
        (&["RATELIMIT.TAKE", "1", "k", "0", "fixed_window", "1000", "5", "1"], "followed by its block key"),
        (&["RATELIMIT.TAKE", "2", "k", "b", "0.5", "fixed_window", "1000", "5", "1"], "the lockout must be a whole number"),
        (&["RATELIMIT.BLOCK", "1", "b", "0"], "the block must be a whole number"),
    ];
    for (args, want) in cases {
        let got = module_call(&mut conn, args).expect_err(&format!("{args:?} must be refused"));
        assert!(got.contains(want), "{args:?}: {got}");
        assert_eq!(keyspace(&mut conn), vec![], "{args:?} wrote");
    }
}
