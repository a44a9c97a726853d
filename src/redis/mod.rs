//! Everything that talks to Redis: where it is (`target`: DSNs, Sentinel
//! and cluster targets, redaction), the per-process pool of each target's
//! connections (`pool`: lanes, shared connections, opening, Sentinel), a
//! single server's socket and multiplexer (`single`), a cluster's slots
//! (`cluster`), one connection of either shape (`conn`), the one rule of
//! what a failed call allows (`retry`), the runner that decides an entry
//! call there (`decide`, with what a refused call needs first: `fallback`),
//! the fixed window's scriptless pipeline (`counter`), and failures said
//! plainly (`open`, `plain`). The call form and the reply decoder it
//! shares with `memory://` are in `crate::entry`.
pub mod cluster;
pub mod conn;
pub mod counter;
pub mod decide;
mod fallback;
mod plain;
pub mod pool;
pub mod retry;
mod single;
pub mod target;
pub mod time;
