//! Everything that talks to Redis: where it is (`target`; a DSN's form:
//! `dsn`), opening one connection (`open`), the per-process connection pool
//! (`pool`, bounded by what the PHP layer sets: nothing here reads ini),
//! commands written as RESP (`resp`), the Lua script runner (`script`), the
//! text of every algorithm's script (`scripts`) and the fixed window's
//! scriptless fast path (`counter`); Redis Sentinel targets
//! (`sentinel_target`) and finding their master (`sentinel`); Redis Cluster's
//! slots (`cluster_slot`). Under threads a single server's connection is
//! shared by the process's threads (`mux`, over a socket of its own: `wire`,
//! over TLS `wire_tls`; `frames` reads its replies).
pub mod cluster_slot;
pub mod conn;
pub mod counter;
pub mod dsn;
pub mod frames;
pub mod mux;
pub mod open;
pub mod pool;
pub mod redact;
pub mod resp;
pub mod retry;
pub mod script;
pub mod scripts;
pub mod sentinel;
pub mod sentinel_target;
pub mod target;
pub mod tls;
pub mod wire;
pub mod wire_tls;
