//! Everything that talks to Redis: where it is (`target`; a DSN's form:
//! `dsn`), opening one connection (`open`), the per-process connection pool
//! (`pool`, bounded by what the PHP layer sets: nothing here reads ini), one
//! connection of any shape (`conn`) and the rule of what may be sent again
//! (`retry`). One call of an entry point in every form (`entry_call`), the
//! one decoder of its reply (`reply`), the Lua library's text (`scripts`)
//! and the runner that calls it or the server module (`script`); the fixed
//! window's scriptless fast path (`counter`); commands written as RESP
//! (`resp`). Redis Sentinel targets (`sentinel_target`) and finding their
//! master (`sentinel`); Redis Cluster's slots (`cluster_slot`). A single
//! server's connection is our own socket (`wire`, over TLS `wire_tls`), its
//! replies read by `frames`, shared by a process's threads through `mux`.
pub mod cluster_slot;
pub mod conn;
mod connect;
pub mod counter;
pub mod dsn;
pub mod dsn_parts;
pub mod entry_call;
mod failure;
mod fallback;
pub mod frames;
mod held;
mod lanes;
pub mod multiplex;
pub mod mux;
pub mod open;
pub mod plain;
pub mod pool;
pub mod redact;
pub mod reply;
pub mod resp;
pub mod retry;
pub mod script;
pub mod scripts;
pub mod sentinel;
pub mod sentinel_target;
mod shared;
pub mod target;
pub mod tls;
pub mod wire;
pub mod wire_tls;
