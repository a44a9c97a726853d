//! The `ratelimit.*` ini settings: parsed once when set and read per thread
//! on the hot path (`settings`), shown without secrets by phpinfo
//! (`display`), and the warnings for values refused as a request starts
//! (`warnings`).
mod display;
pub mod settings;
pub mod warnings;
