//! Emits the `phpXX` cfg flags for the PHP found on this machine, so code can
//! use `#[cfg(php82)]` (readonly classes and other 8.2 features).
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
