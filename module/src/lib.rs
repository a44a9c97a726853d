//! `ratelimit-redis.so`: the ratelimit algorithms as native commands of a
//! Redis (>= 6.0) or Valkey server (`loadmodule …/ratelimit-redis.so`). The
//! same core (`ratelimit_core`) decides as the extension's `memory://`
//! target, on the same keys and state bytes as the Lua library, so clients
//! on either path share keys exactly. The extension uses these commands
//! where the server has them (`ratelimit.server_module = auto`).
//!
//! Flags: the consuming commands are `write deny-oom` (refused whole, before
//! any write, when the server is out of memory, and on a read-only replica);
//! the peeks are `readonly` (they answer on replicas and under OOM).

mod commands;
mod keys;
mod server;

use redis_module::redis_module;

// The Rust heap is the C library's, not Redis's (RedisModule_Alloc): every
// allocation here is freed before the command returns (the module keeps no
// data of its own), so `used_memory` misses nothing that lasts, and a
// decision skips the allocator accounting Redis does per zmalloc, about a
// tenth of its time in `redis-benchmark` (token bucket 2.11 → 1.89 µs).

redis_module! {
    name: "ratelimit",
    // 2: the compounds' reply is every member's answer, under new names
    // (`ratelimit.compound2…`, ratelimit_core::command says why).
    // 3: every decision also reads its block keys (lock-out), and ratelimit.block.
    version: 3,
    allocator: (std::alloc::System, std::alloc::System),
    data_types: [],
    commands: [
        ["ratelimit.take", commands::take, "write deny-oom getkeys-api", 2, 2, 1, ""],
        ["ratelimit.peek", commands::peek, "readonly getkeys-api", 2, 2, 1, ""],
        ["ratelimit.take_many", commands::take_many, "write deny-oom getkeys-api", 2, 2, 1, ""],
        ["ratelimit.compound2", commands::compound_take, "write deny-oom getkeys-api", 2, 2, 1, ""],
        ["ratelimit.compound2_peek", commands::compound_peek, "readonly getkeys-api", 2, 2, 1, ""],
        ["ratelimit.take_counted", commands::take_counted, "write deny-oom getkeys-api", 2, 2, 1, ""],
        ["ratelimit.take_many_counted", commands::take_many_counted, "write deny-oom getkeys-api", 2, 2, 1, ""],
        ["ratelimit.compound2_counted", commands::compound_counted, "write deny-oom getkeys-api", 2, 2, 1, ""],
        ["ratelimit.adjust", commands::adjust, "write deny-oom getkeys-api", 2, 2, 1, ""],
        ["ratelimit.adjust_counted", commands::adjust_counted, "write deny-oom getkeys-api", 2, 2, 1, ""],
        ["ratelimit.inflight_acquire", commands::inflight_acquire, "write deny-oom getkeys-api", 2, 2, 1, ""],
        ["ratelimit.inflight_release", commands::inflight_release, "write getkeys-api", 2, 2, 1, ""],
        ["ratelimit.inflight_renew", commands::inflight_renew, "write deny-oom getkeys-api", 2, 2, 1, ""],
        ["ratelimit.inflight_count", commands::inflight_count, "readonly getkeys-api", 2, 2, 1, ""],
        ["ratelimit.block", commands::block, "write deny-oom getkeys-api", 2, 2, 1, ""],
    ],
}
