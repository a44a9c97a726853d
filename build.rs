//! Emits the `phpXX` cfg flags for the PHP found on this machine. Our own code
//! does not test them, but the code ext-php-rs's `#[php_class]` macro expands
//! into our crate does (`#[cfg(php82)]` around how a class registers its
//! properties), so the flags must be set when this crate compiles.
use ext_php_rs_build::{emit_check_cfg, emit_php_cfg_flags, find_php, ApiVersion, PHPInfo};

fn main() -> anyhow::Result<()> {
    println!("cargo:rerun-if-env-changed=PHP");
    let php = find_php()?;
    let info = PHPInfo::get(&php)?;
    let version: ApiVersion = info.zend_version()?.try_into()?;
    emit_check_cfg();
    emit_php_cfg_flags(version);
    Ok(())
}
