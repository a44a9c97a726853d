//! The PHP face: what PHP code sees and passes. Converts Zvals to plain Rust
//! values, calls into `limiter`, and maps results and errors back to PHP.
pub mod binding_errors;
pub mod classes;
pub mod coercion;
pub mod connection;
pub mod connection_parts;
pub mod debug_info;
pub mod exceptions;
pub mod forms;
pub mod given_numbers;
pub mod header_style_arg;
pub mod headers;
pub mod id_list;
pub mod info;
pub mod ini_display;
pub mod interface;
pub mod limiter_class;
pub mod pending;
pub mod phpredis_cluster;
pub mod register;
pub mod remaining;
pub mod result;
pub mod sensitive;
pub mod state;
pub mod values;
pub mod zend_api;
