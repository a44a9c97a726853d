//! Redis Cluster: the connection that routes each command to its slot's
//! master and follows redirections and failovers (`link`), a key's slot and
//! where a slot stands during a reshard (`slot`), which master owns each
//! slot (`owners`: a breaker per master), and TLS as redis-rs's cluster
//! client takes it (`tls`).
pub mod link;
pub mod owners;
pub mod slot;
pub mod tls;
