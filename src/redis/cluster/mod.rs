//! Redis Cluster: a key's slot and where a slot stands during a reshard
//! (`slot`), and TLS as redis-rs's cluster client takes it (`tls`).
pub mod slot;
pub mod tls;
