//! The PHP face: what PHP code sees and passes. Each room is one concern:
//! `classes` (the limiter classes, `RateLimitMetrics`, and what every
//! limiter class holds and does), `result` (`RateLimitResult` and its
//! headers), `args` (reading PHP values by PHP's own rules: parameters,
//! constructor forms, id lists), `connection` (the `$connection` argument in
//! every form), `ini` (the `ratelimit.*` settings and phpinfo), and `engine`
//! (the Zend engine calls and registration beyond ext-php-rs, and the one
//! mapping from `Error` to PHP exceptions). Zvals become plain Rust values
//! here and `limiter` decides; nothing here talks to Redis. The rooms build
//! on each other in one direction: `engine`, then `args`, `result` and
//! `ini`, then `connection`, then `classes`, which uses them all.
pub mod args;
pub mod classes;
pub mod connection;
pub mod engine;
pub mod ini;
pub mod result;
