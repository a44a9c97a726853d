//! Everything that talks to Redis: where it is (`target`), the per-process
//! connection pool (`pool`) and the Lua script runner (`script`).
pub mod pool;
pub mod redact;
pub mod script;
pub mod target;
