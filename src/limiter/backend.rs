//! Where a limiter's decisions are made: a Redis target's pooled
//! connections (the Lua library decides there), or a `memory://` store in
//! this process (the core decides, as the Lua library would).

use std::sync::Arc;

use crate::memory::MemoryTarget;
use crate::redis::pool::TargetConnections;

#[derive(Clone)]
pub enum Backend {
    Redis(Arc<TargetConnections>),
    Memory(Arc<MemoryTarget>),
}

impl Backend {
    /// Whether both decide in the same place (one connection slot, one store).
    pub fn same(&self, other: &Backend) -> bool {
        match (self, other) {
            (Backend::Redis(a), Backend::Redis(b)) => Arc::ptr_eq(a, b),
            (Backend::Memory(a), Backend::Memory(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    pub fn is_cluster(&self) -> bool {
        matches!(self, Backend::Redis(conns) if conns.is_cluster())
    }
}
