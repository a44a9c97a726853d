//! What every place that decides shares, whoever it is (the Lua library on
//! Redis, the server module, a `memory://` store): the entry points and the
//! library's text (`library`), one call of an entry point in every form it
//! is spelled in (`call`), the one decoder of its reply (`reply`), and
//! commands written as RESP (`resp`). No I/O here.
pub mod call;
pub mod library;
pub mod reply;
pub mod resp;
