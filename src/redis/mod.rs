//! Everything that talks to Redis: where it is (`target`: DSNs, Sentinel
//! and cluster targets), the rules every call obeys (`rules`: what a failure
//! allows, the time bound), how failures and user input are told back
//! (`words`: plain words, redaction), the
//! per-process pool of each target's connections (`pool`: lanes, shared
//! connections, opening, Sentinel), a single server's socket and multiplexer
//! (`single`), a cluster's link and slots (`cluster`), one connection of
//! either shape (`conn`), the runner that decides an entry call on it
//! (`decide`, with what a refused call needs first: `fallback`). The call
//! form and the reply decoder it shares with `memory://` are in
//! `crate::entry`.
pub mod cluster;
pub mod conn;
pub mod decide;
mod fallback;
pub mod pool;
pub mod rules;
mod single;
pub mod target;
pub mod words;
