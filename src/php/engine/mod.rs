//! What the extension takes from the PHP binary beyond ext-php-rs: the
//! engine's own symbols (`symbols`, the one place they are declared or
//! looked up), typed readonly properties and parameter types (`zend_api`),
//! registering the interface and classes at MINIT (`register`), the
//! binding's own errors in PHP's words (`binding_errors`), the one mapping
//! from `Error` to PHP exceptions and `RateLimiterException` (`exceptions`),
//! an exception thrown by PHP code the extension called (`thrown`), and lines
//! for the error log past user error handlers (`log`). The
//! bottom room of `php/`: it uses no other (the classes it speaks for are
//! handed in at MINIT).
pub mod binding_errors;
pub mod exceptions;
pub mod log;
pub mod register;
pub mod symbols;
pub mod thrown;
pub mod zend_api;
