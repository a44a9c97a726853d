//! Emits the `phpXX` cfg flags for the PHP found on this machine, and the
//! flags for the Zend struct layouts our own code reads, from that PHP's
//! `PHP_VERSION_ID`.
//!
//! The `phpXX` flags: our own code does not test them, but the code
//! ext-php-rs's `#[php_class]` macro expands into our crate does
//! (`#[cfg(php82)]` around how a class registers its properties), so the
//! flags must be set when this crate compiles.
//!
//! The layout flags, for the few places where src/php reaches into Zend
//! structs that ext-php-rs does not wrap (each use names its flag):
//! - `zend_arg_info_strings` (PHP >= 8.6, php-src #19022): a registered
//!   internal function's `arg_info` is `zend_arg_info`, whose `name` and
//!   `default_value` are `zend_string *` (before: `const char *`).
//! - `zend_ini_modified_bool` (PHP >= 8.6): `zend_ini_entry.modified` is a
//!   `bool` (before: `uint8_t`).
//! - `zend_parse_arg_weak_returns` (PHP >= 8.6): `zend_parse_arg_bool_weak`,
//!   `_double_weak` and `_str_weak` return what they read (a status, a double
//!   that is NaN on failure, a string that is NULL on failure) where they
//!   wrote it through a `dest` pointer and returned a `bool` before;
//!   `zend_parse_arg_long_weak` keeps its `dest`.
//!
//! And `php_zts` for a thread-safe PHP, as ext-php-rs sets it for itself: the
//! connection pool shares connections between the threads of such a PHP
//! (`redis::pool::THREADED`).
//!
//! The version is read from `php-config --vernum`, the same php-config whose
//! headers ext-php-rs's bindings are generated from (`PHP_CONFIG`, else
//! `php-config` on `PATH`), and checked against the `php` whose API version
//! chose the `phpXX` flags (`PHP`, else `php` on `PATH`; its `PHP_VERSION_ID`):
//! two different PHPs would give bindings of one and flags of the other, so
//! that is an error that says which two were found. (Only options every
//! php-config has: Debian's also knows `--phpapi`, PHP's own does not.)
use std::process::Command;

use anyhow::{bail, Context};
use ext_php_rs_build::{emit_check_cfg, emit_php_cfg_flags, find_php, ApiVersion, PHPInfo};

/// The first `PHP_VERSION_ID` of each layout flag.
const LAYOUT_FLAGS: &[(&str, u32)] = &[("zend_arg_info_strings", 80600), ("zend_ini_modified_bool", 80600), ("zend_parse_arg_weak_returns", 80600)];

fn main() -> anyhow::Result<()> {
    println!("cargo:rerun-if-env-changed=PHP");
    println!("cargo:rerun-if-env-changed=PHP_CONFIG");
    let php = find_php()?;
    let info = PHPInfo::get(&php)?;
    let api = info.zend_version()?;
    let version: ApiVersion = api.try_into()?;
    emit_check_cfg();
    emit_php_cfg_flags(version);
    if info.thread_safety()? {
        println!("cargo:rustc-cfg=php_zts");
    }

    let php_config = std::env::var("PHP_CONFIG").unwrap_or_else(|_| "php-config".to_string());
    let ask = |option: &str| -> anyhow::Result<String> {
        let out = Command::new(&php_config)
            .arg(option)
            .output()
            .with_context(|| format!("running `{php_config} {option}` (PHP_CONFIG names another php-config)"))?;
        if !out.status.success() {
            bail!("`{php_config} {option}` failed: {}", out.status);
        }
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let version_id: u32 = ask("--vernum")?.parse().context("php-config --vernum is not a number")?;
    let out = Command::new(&php).args(["-n", "-r", "echo PHP_VERSION_ID;"]).output().context("running php for its PHP_VERSION_ID")?;
    let php_id: u32 = String::from_utf8_lossy(&out.stdout).trim().parse().context("php's PHP_VERSION_ID is not a number")?;
    // The same minor release: the same API, the same struct layouts.
    if php_id / 100 != version_id / 100 {
        bail!(
            "{} (PHP {php_id}) and {php_config} (PHP {version_id}) belong to different PHPs: \
             give both, e.g. PHP=/usr/bin/php8.5 PHP_CONFIG=/usr/bin/php-config8.5",
            php.display()
        );
    }
    for (flag, since) in LAYOUT_FLAGS {
        println!("cargo:rustc-check-cfg=cfg({flag})");
        if version_id >= *since {
            println!("cargo:rustc-cfg={flag}");
        }
    }
    Ok(())
}
