//! How what Redis and the user said is told back to a PHP developer:
//! failures in plain words, never an `os error` number or a Rust type's name
//! (`plain`), and user input (a DSN, a password, a key prefix) shown without
//! its secrets, at a readable length (`redact`). Uses no other room.
pub mod plain;
pub mod redact;
