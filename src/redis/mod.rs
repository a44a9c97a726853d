//! Everything that talks to Redis: where it is (`target`), the per-process
//! connection pool (`pool`), the Lua script runner (`script`) and the text of
//! every algorithm's script (`scripts`).
pub mod pool;
pub mod script;
pub mod scripts;
pub mod target;
