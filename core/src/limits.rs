//! The bounds every algorithm's arguments and state stay within, so that
//! the arithmetic stays exact in doubles and a call's work bounded
//! (`Algorithm::parse` checks them; a debt is bounded by them). Re-exported
//! by `algorithm`; a file of its own so that the algorithms' files read them
//! without importing `algorithm`, which imports them.

/// The largest count (limit, capacity, cost): 2^40, exact in doubles with
/// room to add (the extension's `params::MAX_COUNT`).
pub const MAX_COUNT: f64 = 1_099_511_627_776.0;
/// The longest duration, 10 years (the extension's `params::MAX_SECONDS`),
/// and in ms and µs.
pub const MAX_SECONDS: f64 = 315_360_000.0;
pub const MAX_MS: f64 = MAX_SECONDS * 1e3;
pub const MAX_US: f64 = MAX_SECONDS * 1e6;
/// The latest instant in ms a calendar window may start or end at (2^52 µs, the year 2112).
pub const MAX_INSTANT_MS: f64 = 4_503_599_627_370.0;
/// The most slices in a sliding window's hash (the extension's `MAX_BLOCKS`).
pub const MAX_BLOCKS: f64 = 1000.0;
/// The largest cost of an exact log (the extension's `MAX_LOG_COST`).
pub const MAX_LOG_COST: f64 = 1000.0;
