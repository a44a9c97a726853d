//! The rate-limiting algorithms as pure Rust, for every executor that is not
//! the Lua library: the Redis/Valkey module and the in-process `memory://`
//! store. A decision reads a key through `View` (what the Lua code reads
//! with GET, PTTL, HGETALL, ZCOUNT, …) and returns the `Effect`s to write, in
//! order; it performs no I/O and knows no PHP or Redis types.
//!
//! Each algorithm mirrors its twin in `lua/algorithms/` operation for
//! operation, in the same f64 arithmetic Lua uses, so both paths give the
//! same answers and write byte-identical state to the same keys: processes on
//! either path can share keys exactly. The differential test
//! (`tests/differential.rs` of the extension) replays random sequences
//! through both and compares answers and state bytes.
//!
//! Layout: `algorithm` (parsing the entries' arguments, dispatch), one file
//! per algorithm, `buckets` (what token and leaky bucket share), `numbers`
//! (Lua's and Redis's ways of reading numbers), `limits` (the bounds of
//! arguments and state), `keyspace` (what an executor
//! gives: its keys and its clock), `entries` (one key, a batch, a compound:
//! lua/entries.lua), `answer` (the reply bytes), `command` (the
//! server module's commands, parsed and run without a server), `store` (an
//! in-memory keyspace the entries run on), `metrics` (decision counters kept
//! in the keyspace: lua/metrics.lua), `concurrency` (in-flight limits:
//! lua/concurrency.lua), `lockout` (the blocks of block() and
//! withLockout(): lua/lockout.lua), `lease` (how many units a lease takes).

#![forbid(unsafe_code)]

pub mod algorithm;
pub mod answer;
pub mod buckets;
pub mod calendar_window;
pub mod command;
pub mod concurrency;
pub mod effect;
pub mod entries;
pub mod fixed_window;
pub mod gcra;
pub mod keyspace;
pub mod leaky_bucket;
pub mod lease;
pub mod limits;
pub mod lockout;
pub mod metrics;
pub mod numbers;
pub mod sliding_blocks;
pub mod sliding_log;
pub mod store;
pub mod token_bucket;
pub mod view;

pub use algorithm::Algorithm;
pub use answer::Answer;
pub use effect::Effect;
pub use view::{Refused, View};
