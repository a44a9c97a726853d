//! The PHP face: what PHP code sees and passes. Each room is one concern:
//! `classes` (the limiter classes, `RateLimitMetrics`, and what every
//! limiter class holds and does), `result` (`RateLimitResult` and its
//! headers), `args` (reading PHP values by PHP's own rules: parameters,
//! constructor forms, id lists), `connection` (the `$connection` argument in
//! every form), `ini` (the `ratelimit.*` settings), `engine` (the Zend
//! engine calls and registration beyond ext-php-rs), `exceptions` (the one
//! mapping from `Error` to PHP) and `info` (phpinfo). Zvals become plain
//! Rust values here and `limiter` decides; nothing here talks to Redis.
pub mod args;
pub mod classes;
pub mod connection;
pub mod engine;
pub mod exceptions;
pub mod info;
pub mod ini;
pub mod result;
