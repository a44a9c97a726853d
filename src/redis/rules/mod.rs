//! What every call to Redis obeys, whatever its connection: what a failed
//! call allows, decided once (`retry`), and the one time bound of a call and
//! its timeouts (`time`). Every other room of `redis/` uses these; they use
//! no other room.
pub mod retry;
pub mod time;
