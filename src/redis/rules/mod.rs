//! What every call to Redis obeys, whatever its connection: what a failed
//! call allows, decided once (`retry`), the one time bound of a call and its
//! timeouts (`time`), and failures told in plain words (`plain`). Every other
//! room of `redis/` uses these; they use none of them but `target`.
pub mod plain;
pub mod retry;
pub mod time;
