//! What every limiter class entry gets at MINIT (its `Finish` step): the
//! readonly `?int $remaining` property, its `var_dump()` handler
//! (`debug_info`), its constructor's parameter types and the interface
//! methods' (`interface::declare_parameters`).
//!
//! The constructor takes two forms (see `forms`), so a parameter's type is the
//! union of what either form accepts at that position: `$keyPrefix` is the key
//! prefix of the long form or the first number of the short one (so
//! `string|float` or `string|int`); a number position that the short form may
//! leave out is nullable with default null (null means "not given"). The
//! Rust constructors take `&Zval`s and check every value themselves; these
//! types are what Reflection, the stubs and IDEs show, and what PHP code may
//! pass. `$connection` is `Redis|RedisCluster|array|string|int|float|null`: a
//! phpredis object, a config array, a DSN or null in the long form, the key in
//! the short one.

use std::ffi::CStr;

use ext_php_rs::zend::ClassEntry;

use crate::php::classes::shared::debug_info;
use crate::php::classes::shared::remaining::{self, LimiterClass};
use crate::php::engine::zend_api::{self, MAY_BE_ARRAY, MAY_BE_DOUBLE, MAY_BE_LONG, MAY_BE_NULL, MAY_BE_STRING};

pub const STRING_OR_FLOAT: u32 = MAY_BE_STRING | MAY_BE_DOUBLE;
pub const STRING_OR_INT: u32 = MAY_BE_STRING | MAY_BE_LONG;
pub const OPTIONAL_INT: u32 = MAY_BE_LONG | MAY_BE_NULL;
pub const OPTIONAL_FLOAT: u32 = MAY_BE_DOUBLE | MAY_BE_NULL;
pub const OPTIONAL_INT_OR_FLOAT: u32 = MAY_BE_LONG | MAY_BE_DOUBLE | MAY_BE_NULL;

/// One constructor parameter after `$connection`: its name (checked against
/// the registered one), its type, and its default when not null.
pub struct Param(pub &'static str, pub u32, pub Option<&'static CStr>);

/// `$connection`: the phpredis classes it reads (`connection`), and what else
/// either form takes first.
const CONNECTION_CLASSES: &[&str] = &["Redis", "RedisCluster"];
const CONNECTION: u32 = MAY_BE_ARRAY | MAY_BE_STRING | MAY_BE_LONG | MAY_BE_DOUBLE | MAY_BE_NULL;

/// `$remaining`, the debug-info handler, the type of `$connection`, then
/// those of parameters #2 onwards.
pub fn finish<T: LimiterClass>(ce: &mut ClassEntry, params: &[Param]) -> Result<(), String> {
    remaining::declare(ce)?;
    crate::php::classes::shared::dry_run::declare(ce)?;
    debug_info::install::<T>();
    crate::php::classes::shared::interface::declare_parameters(ce)?;
    crate::php::classes::shared::give_back::declare(ce)?;
    zend_api::set_parameter_type(ce, "__construct", 0, "connection", CONNECTION_CLASSES, CONNECTION, None)?;
    for (i, Param(name, mask, default)) in params.iter().enumerate() {
        zend_api::set_parameter(ce, "__construct", i + 1, name, *mask, *default)?;
    }
    Ok(())
}
