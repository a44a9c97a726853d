//! Every symbol this extension takes from the PHP binary beyond what
//! ext-php-rs binds, in one place. Most are linked when PHP loads the
//! extension (`ZEND_API`/`PHPAPI` functions, declared below as the headers of
//! PHP 8.2 declare them, with the one change of PHP 8.6 behind
//! `zend_parse_arg_weak_returns`, set by build.rs); a few are looked up by
//! name at run time (`lookup`): engine globals (`spl_ce_RuntimeException`,
//! `zend_post_startup_cb`) and functions only some callers need, so the
//! extension still loads where one is missing.

use std::ffi::{c_char, c_int, c_void, CStr};

use ext_php_rs::ffi::{zend_class_entry, zend_module_entry, zend_property_info, zend_string, zend_type, zval};

extern "C" {
    /// Zend/zend_API.h: a typed property of a class being registered.
    pub fn zend_declare_typed_property(
        ce: *mut zend_class_entry,
        name: *mut zend_string,
        default: *mut zval,
        access_type: c_int,
        doc_comment: *mut zend_string,
        ty: zend_type,
    ) -> *mut zend_property_info;
    /// main/php_ini.h: the "Directive / Local Value / Master Value" table of phpinfo().
    pub fn display_ini_entries(module: *mut zend_module_entry);
    /// main/php.h: text written for an HTML phpinfo(), escaped.
    pub fn php_html_puts(s: *const c_char, len: usize);
    /// main/php_output.h: text written to the output as is.
    pub fn php_output_write(s: *const c_char, len: usize) -> usize;
    /// Zend/zend_operators.h: `(string) $value`, a new reference.
    pub fn zval_get_string_func(op: *mut zval) -> *mut zend_string;
    /// main/php.h: a line for the error log (`error_log`, or the SAPI's log),
    /// past any user error handler; `syslog_type` as syslog's (4: LOG_WARNING).
    pub fn php_log_err_with_severity(message: *const c_char, syslog_type: c_int);
    /// Zend/zend_ini.h: an ini setting's value as an integer (`INI_INT`).
    pub fn zend_ini_long(name: *const c_char, name_length: usize, orig: c_int) -> i64;
}

// Zend/zend_API.h, the weak-mode conversions of a parameter (ZEND_FASTCALL is
// the plain C convention on 64-bit Linux). Each converts a value that is not
// already of the type; `_str_weak` converts `arg` in place, so the string it
// gives belongs to `arg`.
extern "C" {
    pub fn zend_parse_arg_long_weak(arg: *mut zval, dest: *mut i64, arg_num: u32) -> bool;
}

// Before PHP 8.6: the value through `dest`, success as the answer.
#[cfg(not(zend_parse_arg_weak_returns))]
extern "C" {
    pub fn zend_parse_arg_double_weak(arg: *mut zval, dest: *mut f64, arg_num: u32) -> bool;
    pub fn zend_parse_arg_bool_weak(arg: *mut zval, dest: *mut bool, arg_num: u32) -> bool;
    pub fn zend_parse_arg_str_weak(arg: *mut zval, dest: *mut *mut zend_string, arg_num: u32) -> bool;
}

// PHP 8.6: the value as the answer; a failure is `ZPP_PARSE_BOOL_STATUS_ERROR`
// (2, of a C enum: an int), NaN, NULL.
#[cfg(zend_parse_arg_weak_returns)]
extern "C" {
    pub fn zend_parse_arg_double_weak(arg: *mut zval, arg_num: u32) -> f64;
    pub fn zend_parse_arg_bool_weak(arg: *mut zval, arg_num: u32) -> c_int;
    pub fn zend_parse_arg_str_weak(arg: *mut zval, arg_num: u32) -> *mut zend_string;
}

extern "C" {
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
}

/// The address of the symbol `name` in the PHP binary or anything it loaded
/// (RTLD_DEFAULT, null on glibc), or null when there is none.
pub fn lookup(name: &CStr) -> *mut c_void {
    // SAFETY: dlsym only looks the name up.
    unsafe { dlsym(std::ptr::null_mut(), name.as_ptr()) }
}
