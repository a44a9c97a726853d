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
//!
//! And what `php --ri ratelimit` says of the build (src/php/ini/info.rs), as
//! `RL_BUILT_*` variables of the compilation, so that every .so names what
//! it is: the PHP it was built for (version, PHP API, NTS/ZTS, debug), the
//! target (arch-os-libc, as PIE names its pre-packaged binaries), the glibc
//! it was linked against (it needs none newer), where it was built
//! (`RATELIMIT_BUILD_ORIGIN`, which make dist sets, else a source build; and
//! the build system's name) and the commit (`RATELIMIT_COMMIT`, which make
//! dist gives its copy of the checkout, else the checkout's `git` HEAD, `+`
//! when the tree differed from it, else "unknown").
use std::path::Path;
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
    emit_build_identity(&info)?;
    Ok(())
}

/// The `RL_BUILT_*` variables src/php/ini/info.rs shows (see the top of this file).
fn emit_build_identity(info: &PHPInfo) -> anyhow::Result<()> {
    let built = |name: &str, value: &str| println!("cargo:rustc-env=RL_BUILT_{name}={value}");
    built("PHP_VERSION", info.version()?);
    built("PHP_API", &info.zend_version()?.to_string());
    built("PHP_TS", if info.thread_safety()? { "ZTS" } else { "NTS" });
    built("PHP_DEBUG", if info.debug()? { "debug" } else { "non-debug" });

    let cfg = |key: &str| std::env::var(format!("CARGO_CFG_TARGET_{key}")).unwrap_or_default();
    let (arch, os, env) = (cfg("ARCH"), cfg("OS"), cfg("ENV"));
    let libc = match env.as_str() {
        "gnu" => "glibc",
        "" => "unknown",
        other => other,
    };
    built("TARGET", &format!("{arch}-{os}-{libc}"));
    // The glibc linked against: the host's, for a native build (the only
    // kind this project makes); a cross build says it does not know.
    let native = std::env::var("TARGET").ok() == std::env::var("HOST").ok();
    let glibc = Command::new("getconf")
        .arg("GNU_LIBC_VERSION")
        .output()
        .ok()
        .filter(|out| native && env == "gnu" && out.status.success())
        .and_then(|out| String::from_utf8_lossy(&out.stdout).trim().strip_prefix("glibc ").map(str::to_string));
    built("GLIBC", glibc.as_deref().unwrap_or("unknown"));

    println!("cargo:rerun-if-env-changed=RATELIMIT_BUILD_ORIGIN");
    let origin = std::env::var("RATELIMIT_BUILD_ORIGIN").unwrap_or_else(|_| "source build".to_string());
    let system = std::fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|release| release.lines().find_map(|l| l.strip_prefix("PRETTY_NAME=").map(|v| v.trim_matches('"').to_string())))
        .unwrap_or_else(|| os.clone());
    built("ORIGIN", &format!("{origin}, on {system}"));
    built("COMMIT", &commit());
    Ok(())
}

/// `RATELIMIT_COMMIT`, else the checkout's short HEAD (with `+` when the
/// tracked files differ from it, as scripts/dist.bash writes it), else "unknown".
fn commit() -> String {
    println!("cargo:rerun-if-env-changed=RATELIMIT_COMMIT");
    if let Ok(given) = std::env::var("RATELIMIT_COMMIT") {
        return given;
    }
    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".to_string());
    let git = |args: &[&str]| Command::new("git").arg("-C").arg(&dir).args(args).output().ok().filter(|out| out.status.success());
    let text = |out: std::process::Output| String::from_utf8_lossy(&out.stdout).trim().to_string();
    let Some(head) = git(&["rev-parse", "--short", "HEAD"]).map(text) else {
        return "unknown".to_string();
    };
    // Run again when HEAD moves (a commit, a checkout) or the sources
    // change (the tree then differs from HEAD, or no longer does); the
    // crate compiles again then anyway. Only paths that exist: cargo runs a
    // build script whose watched path is missing every time.
    let mut watched = vec![git(&["rev-parse", "--path-format=absolute", "--git-path", "HEAD"]).map(text)];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]).map(text) {
        watched.push(git(&["rev-parse", "--path-format=absolute", "--git-path", &branch]).map(text));
        watched.push(git(&["rev-parse", "--path-format=absolute", "--git-path", "packed-refs"]).map(text));
    }
    for sources in ["src", "core/src", "lua", "Cargo.toml", "Cargo.lock"] {
        watched.push(Some(format!("{dir}/{sources}")));
    }
    for path in watched.into_iter().flatten().filter(|p| Path::new(p).exists()) {
        println!("cargo:rerun-if-changed={path}");
    }
    let dirty = git(&["diff", "--quiet", "HEAD"]).is_none();
    format!("{head}{}", if dirty { "+" } else { "" })
}
