//! The `ratelimit.*` ini settings: parsed once when set and read per thread
//! on the hot path (`settings`), shown without secrets by phpinfo
//! (`display`), the warnings for values refused as a request starts
//! (`warnings`), and what `php --ri ratelimit` / phpinfo() shows of the
//! build, the settings and the pool (`info`).
mod display;
pub mod info;
pub mod settings;
pub mod warnings;
