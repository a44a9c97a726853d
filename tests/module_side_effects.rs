//! What the server module leaves besides state: the keyspace events its
//! writes fire. The module writes through the key API, not by running
//! commands, so it fires the events itself; a subscriber must hear, key for
//! key, what it hears when the Lua library decides (`set`, `expire`,
//! `incrby`, `hincrby`, `hdel`, `zadd`, `zincr`, `zremrangebyscore`, and
//! a refund's `zremrangebyrank` and `del`), in
//! the same order. Runs on the server's own clock (no injected instant), as
//! production calls do.

mod support;

use std::collections::BTreeMap;
use std::time::Duration;

use ratelimit::limiter::algorithms::{fixed_window, gcra, leaky_bucket, sliding_window, token_bucket};
use ratelimit::limiter::decide::adjust::Adjust;
use ratelimit::limiter::decide::instance::CallOptions;
use ratelimit::limiter::{Op, Policy};
use support::OPTS;

fn policies() -> Vec<(&'static str, Policy)> {
    vec![
        ("fixed_window", fixed_window::policy(60.0, 5).unwrap()),
        ("sliding_log", sliding_window::policy(60.0, 5, 0).unwrap()),
        ("sliding_blocks", sliding_window::policy(60.0, 5, 6).unwrap()),
        ("token_bucket", token_bucket::policy(5, 1.0).unwrap()),
        ("leaky_bucket", leaky_bucket::policy(5, 1.0, 1).unwrap()),
        ("gcra", gcra::policy(4, 1, 1.0).unwrap()),
    ]
}

#[test]
fn module_fires_the_keyspace_events_of_the_lua_library() {
    let Some(server) = support::start() else { return };
    if support::server_module().is_none() {
        eprintln!("no RATELIMIT_SERVER_MODULE: nothing to compare");
        return;
    }
    server.query::<String>(&["CONFIG", "SET", "notify-keyspace-events", "KA"]);
    let mut listener = server.connection().unwrap();
    let mut pubsub = listener.as_pubsub();
    pubsub.psubscribe("__keyspace@0__:table:*").unwrap();
    pubsub.set_read_timeout(Some(Duration::from_millis(300))).unwrap();

    let lua = CallOptions { server_module: false, ..OPTS };
    for (name, policy) in policies() {
        for (path, opts) in [("lua", lua), ("module", OPTS)] {
            let limiter = server.limiter(policy.clone(), &format!("{name}-{path}"));
            // Costs of 2 keep a fixed window off its cost-1 counter path
            // (plain commands on either path). Accepted, accepted, a peek,
            // denied, accepted again (cost 1).
            for op in [Op::Consume(2), Op::Consume(2), Op::Peek, Op::Consume(5), Op::Consume(1)] {
                limiter.decide(b"", op, opts).unwrap_or_else(|e| panic!("{name} on {path}: {e}"));
            }
            // Given back, charged past the limit, given back whole (a log's
            // newest entries go, a bucket or a TAT back to its start is deleted).
            for (mode, units) in [(Adjust::Refund, 2), (Adjust::Charge, 3), (Adjust::Refund, 20)] {
                limiter.adjust_at(b"", mode, units, opts, None).unwrap_or_else(|e| panic!("{name} on {path}: {mode:?}: {e}"));
            }
        }
    }

    let mut heard: BTreeMap<String, Vec<String>> = BTreeMap::new();
    while let Ok(message) = pubsub.get_message() {
        let channel = message.get_channel_name().to_string();
        let key = channel.trim_start_matches("__keyspace@0__:table:").to_string();
        heard.entry(key).or_default().push(message.get_payload::<String>().unwrap());
    }
    let mut wrong = Vec::new();
    for (name, _) in policies() {
        let lua = heard.get(&format!("{name}-lua")).cloned().unwrap_or_default();
        let module = heard.get(&format!("{name}-module")).cloned().unwrap_or_default();
        assert!(!lua.is_empty(), "{name}: the Lua library's writes fired no event (is notify-keyspace-events on?)");
        if lua != module {
            wrong.push(format!("{name}: Lua fired {lua:?}, the module {module:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
