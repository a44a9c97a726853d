//! A single server's connection: our own socket (`wire`, over TLS `tls`),
//! the RESP reader (`frames`), and the connection the threads of a process
//! may share, each caller's command pipelined behind the others' (`mux`).
mod frames;
pub mod mux;
mod tls;
pub mod wire;
