//! The few Zend engine calls and constants the PHP face needs beyond what
//! ext-php-rs binds: typed `readonly` property declarations, their slots in an
//! object's property table, and a method's parameter types.
//!
//! ext-php-rs 0.16 declares properties with `zend_declare_property` (untyped,
//! never readonly) and parameters with one type each (no unions). PHP's own
//! classes do what this module does: `zend_declare_typed_property` with
//! `ZEND_ACC_PUBLIC | ZEND_ACC_READONLY` at MINIT, values written straight into
//! the object's property table (`OBJ_PROP`), union types as a type mask (with
//! a class name, or a list of them) in the method's `zend_internal_arg_info`.
//! The engine's symbols are declared in `engine`.

use std::ffi::{c_int, CStr};

use ext_php_rs::ffi::{
    ext_php_rs_executor_globals, zend_class_constant, zend_class_entry, zend_function, zend_hash_str_find, zend_hash_str_find_ptr_lc, zend_object,
    zend_property_info, zend_string, zend_type,
};
use ext_php_rs::types::{ZendObject, ZendStr, Zval};
use ext_php_rs::zend::ClassEntry;

use crate::php::engine::symbols::zend_declare_typed_property;

// Zend/zend_type_info.h: one bit per type a value may have.
pub const MAY_BE_NULL: u32 = 1 << 1;
pub const MAY_BE_BOOL: u32 = (1 << 2) | (1 << 3);
pub const MAY_BE_LONG: u32 = 1 << 4;
pub const MAY_BE_DOUBLE: u32 = 1 << 5;
pub const MAY_BE_STRING: u32 = 1 << 6;
pub const MAY_BE_ARRAY: u32 = 1 << 7;
/// `static` (Zend/zend_types.h `IS_STATIC` = 15), for return types only.
const MAY_BE_STATIC: u32 = 1 << 15;
/// Zend/zend_types.h `_ZEND_TYPE_MASK`: the bits of a `zend_type` that describe
/// the type; the bits above are argument flags (by-reference, variadic).
const TYPE_MASK: u32 = (1 << 25) - 1;
/// Zend/zend_types.h `_ZEND_TYPE_NAME_BIT`: `ptr` holds a class name.
const TYPE_NAME_BIT: u32 = 1 << 24;
/// Zend/zend_types.h `_ZEND_TYPE_LIST_BIT`: `ptr` holds a `zend_type_list`.
const TYPE_LIST_BIT: u32 = 1 << 22;
/// Zend/zend_types.h `_ZEND_TYPE_UNION_BIT`: the list is a union (not an intersection).
const TYPE_UNION_BIT: u32 = 1 << 18;

// Zend/zend_compile.h access flags.
pub const ZEND_ACC_PUBLIC: u32 = 1 << 0;
pub const ZEND_ACC_READONLY: u32 = 1 << 7;
/// Zend/zend_types.h: a typed property never written since the object was made.
const IS_PROP_UNINIT: u32 = 1;

/// Declares `public readonly <mask> $name` on a class being registered (MINIT).
/// No default: the slot starts uninitialized, as PHP requires of a readonly
/// property, and the extension writes it when it makes the object.
pub fn declare_readonly(ce: &mut ClassEntry, name: &str, mask: u32) -> Result<(), String> {
    let mut undef = Zval::new();
    undef.u1.type_info = 0; // IS_UNDEF
    let name_str = ZendStr::new_interned(name, true).into_raw();
    let ty = zend_type { ptr: std::ptr::null_mut(), type_mask: mask };
    // SAFETY: `ce` is a class being registered (MINIT, one thread); the name
    // is an interned persistent string the class keeps; `undef` is copied.
    let info = unsafe {
        zend_declare_typed_property(ce, name_str, &raw mut undef, (ZEND_ACC_PUBLIC | ZEND_ACC_READONLY) as c_int, std::ptr::null_mut(), ty)
    };
    if info.is_null() {
        return Err(format!("{}::${name} could not be declared", ce.name().unwrap_or("?")));
    }
    Ok(())
}

/// The declared property `name` of `ce` (or of the class it inherits it from).
/// `ce` is a registered class (every caller passes an object's `ce`).
fn property_info(ce: *const zend_class_entry, name: &str) -> Option<&'static zend_property_info> {
    // SAFETY: `ce` is a registered class entry, alive until shutdown; the
    // lookup only reads its table.
    let found = unsafe { zend_hash_str_find(&raw const (*ce).properties_info, name.as_ptr().cast(), name.len()) };
    // SAFETY: null or a bucket of properties_info, whose values are
    // zend_property_info pointers that live as long as the class.
    unsafe { found.as_ref()?.value.ptr.cast::<zend_property_info>().as_ref() }
}

/// Where the declared property `name` lives in objects of `ce`: a byte
/// offset, the same for every object of the class, so it may be found once.
pub fn property_offset(ce: *const zend_class_entry, name: &str) -> Option<u32> {
    property_info(ce, name).map(|info| info.offset)
}

/// The slot at `offset` (`property_offset` of the object's class) in `object`'s
/// property table. Writing it directly is how the engine's own classes
/// initialise readonly properties: PHP code can never write them, the
/// extension always can.
///
/// # Safety
/// `offset` must come from `property_offset` of `object`'s own class.
unsafe fn slot_at(object: &mut ZendObject, offset: u32) -> &mut Zval {
    // SAFETY: a property's offset lies inside objects of its class (the
    // engine allocates properties_table for every declared one), and the
    // slot is borrowed no longer than `object`.
    unsafe { &mut *(object as *mut zend_object).byte_add(offset as usize).cast::<Zval>() }
}

/// The slot of the declared property `name` in `object`'s property table.
pub fn property_slot<'a>(object: &'a mut ZendObject, name: &str) -> Option<&'a mut Zval> {
    let offset = property_offset(object.ce, name)?;
    // SAFETY: the offset is of `object`'s own class.
    Some(unsafe { slot_at(object, offset) })
}

/// Writes `value` into the slot at `offset`, marking it initialized.
///
/// # Safety
/// `offset` must come from `property_offset` of `object`'s own class.
pub unsafe fn write_slot(object: &mut ZendObject, offset: u32, value: impl FnOnce(&mut Zval)) {
    // SAFETY: this function's contract.
    let slot = unsafe { slot_at(object, offset) };
    value(slot);
    // SAFETY: u2 of a property slot is its `extra` flags (zend_types.h Z_PROP_FLAG_P).
    unsafe { slot.u2.extra &= !IS_PROP_UNINIT };
}

/// Writes `value` into the property `name` of `object`, marking it initialized.
/// Returns false when the class declares no such property.
pub fn write_property(object: &mut ZendObject, name: &str, value: impl FnOnce(&mut Zval)) -> bool {
    let Some(offset) = property_offset(object.ce, name) else { return false };
    // SAFETY: the offset is of `object`'s own class.
    unsafe { write_slot(object, offset, value) };
    true
}

/// Whether the property `name` of `object` holds a value (a readonly property
/// that does may not be written again).
pub fn is_initialized(object: &mut ZendObject, name: &str) -> bool {
    // SAFETY: reading the type word of a live slot (0: IS_UNDEF).
    property_slot(object, name).is_some_and(|z| unsafe { z.u1.type_info } != 0)
}

/// The object whose method is running, `$this` of the innermost PHP call, if
/// it is an instance of `ce`. Inside an internal constructor it is the object
/// being constructed, which ext-php-rs does not hand to the Rust constructor.
pub fn this_object(ce: &ClassEntry) -> Option<&'static mut ZendObject> {
    // SAFETY: this thread's executor globals; the innermost frame is alive
    // while the call that asks runs, which is no longer than it needs it.
    let ex = unsafe { (*ext_php_rs_executor_globals()).current_execute_data.as_mut()? };
    ex.This.object_mut().filter(|this| this.instance_of(ce))
}

/// Whether `object`'s class has a method `name` (any case, inherited or its
/// own): to call a method that only some versions of a class have.
pub fn has_method(object: &ZendObject, name: &str) -> bool {
    // SAFETY: a live object's class and its function table; only read.
    !unsafe { zend_hash_str_find_ptr_lc(&raw const (*object.ce).function_table, name.as_ptr().cast(), name.len()) }.is_null()
}

/// The integer class constant `ce::name`, if the class declares one.
pub fn class_constant_int(ce: &ClassEntry, name: &str) -> Option<i64> {
    // SAFETY: a registered class's constants table; only read.
    let found = unsafe { zend_hash_str_find(&raw const ce.constants_table, name.as_ptr().cast(), name.len()) };
    // SAFETY: null or a bucket of constants_table, whose values are
    // zend_class_constant pointers that live as long as the class.
    let constant = unsafe { found.as_ref()?.value.ptr.cast::<zend_class_constant>().as_ref()? };
    constant.value.long()
}

/// Gives parameter `index` of method `method` (lower case) of `ce` the type
/// `mask` (MAY_BE_* bits, MAY_BE_NULL for nullable) and the default `default`
/// (PHP code as in a stub, e.g. `c"0.0"`; `None` keeps the current one).
/// `expect_name` guards against a parameter list that changed under it. Runs at MINIT,
/// after the class is registered: `zend_register_functions` has copied the
/// argument info into memory the engine owns, and reads it from there.
pub fn set_parameter(
    ce: &ClassEntry,
    method: &str,
    index: usize,
    expect_name: &str,
    mask: u32,
    default: Option<&'static CStr>,
) -> Result<(), String> {
    set_parameter_type(ce, method, index, expect_name, &[], mask, default)
}

/// `set_parameter` with class names in the union too (`Redis|RedisCluster|array|...`).
/// One name is a `zend_type` holding that name plus type bits, as PHP 8.2's own
/// `ZEND_TYPE_INIT_CLASS_MASK` makes. Several names are a `zend_type_list`,
/// built as PHP 8.2's `zend_register_functions` builds one from an arginfo
/// class name "A|B": one entry per name, the list in `malloc`ed memory (the
/// engine's `zend_type_release(type, persistent = 1)` at shutdown `free`s it,
/// and it is not marked arena-allocated), flagged as a union. The names are
/// interned, persistent strings, which `zend_type_release` leaves alone.
pub fn set_parameter_type(
    ce: &ClassEntry,
    method: &str,
    index: usize,
    expect_name: &str,
    class_names: &[&str],
    mask: u32,
    default: Option<&'static CStr>,
) -> Result<(), String> {
    let class = ce.name().unwrap_or("?");
    // SAFETY: a registered class's function table; only read.
    let found = unsafe { zend_hash_str_find(&raw const ce.function_table, method.as_ptr().cast(), method.len()) };
    // SAFETY: null or a bucket whose value is the class's zend_function,
    // which MINIT (one thread, nothing else reads it yet) may change.
    let function = unsafe { found.as_ref().and_then(|z| z.value.ptr.cast::<zend_function>().as_mut()) }
        .ok_or_else(|| format!("{class}::{method}() is not registered"))?;
    // SAFETY: the methods of our classes are internal functions (their
    // union's `internal_function` member).
    let internal = unsafe { &mut function.internal_function };
    if index >= internal.num_args as usize || internal.arg_info.is_null() {
        return Err(format!("{class}::{method}() has no parameter #{}", index + 1));
    }
    // SAFETY: `index` < num_args, the length of the non-null arg_info array.
    let arg = unsafe { &mut *internal.arg_info.add(index) };
    // SAFETY: an entry of a registered internal function's arg_info.
    let name = unsafe { parameter_name(arg) };
    if name != expect_name {
        return Err(format!("{class}::{method}() parameter #{} is ${name}, not ${expect_name}", index + 1));
    }
    if arg.type_.type_mask & (TYPE_NAME_BIT | TYPE_LIST_BIT) != 0 || !arg.type_.ptr.is_null() {
        return Err(format!("{class}::{method}() parameter ${name} already names a class"));
    }
    arg.type_.type_mask = (arg.type_.type_mask & !TYPE_MASK) | (mask & TYPE_MASK);
    match class_names {
        [] => {}
        [one] => {
            arg.type_.ptr = class_name(one).cast();
            arg.type_.type_mask |= TYPE_NAME_BIT;
        }
        many => {
            arg.type_.ptr = class_list(many)?.cast();
            arg.type_.type_mask |= TYPE_LIST_BIT | TYPE_UNION_BIT;
        }
    }
    if let Some(default) = default {
        // SAFETY: an entry of a registered internal function's arg_info, at MINIT.
        unsafe { set_parameter_default(arg, default) };
    }
    Ok(())
}

/// Declares the return type of method `method` (lower case) of `ce` as
/// `static` (a method that returns a copy of `$this`, of its class: a
/// subclass's object for a subclass). The return type is the entry before
/// `arg_info` (`zend_register_functions` points past it); the class name
/// the binding put there is an interned, persistent string the engine never
/// frees, so it is only forgotten. At MINIT, after the class is registered.
pub fn set_return_static(ce: &ClassEntry, method: &str) -> Result<(), String> {
    let class = ce.name().unwrap_or("?");
    // SAFETY: a registered class's function table; only read.
    let found = unsafe { zend_hash_str_find(&raw const ce.function_table, method.as_ptr().cast(), method.len()) };
    // SAFETY: null or a bucket whose value is the class's zend_function,
    // which MINIT (one thread, nothing else reads it yet) may change.
    let function = unsafe { found.as_ref().and_then(|z| z.value.ptr.cast::<zend_function>().as_mut()) }
        .ok_or_else(|| format!("{class}::{method}() is not registered"))?;
    // SAFETY: the methods of our classes are internal functions (their
    // union's `internal_function` member).
    let internal = unsafe { &mut function.internal_function };
    const HAS_RETURN_TYPE: u32 = 1 << 13; // Zend/zend_compile.h ZEND_ACC_HAS_RETURN_TYPE
    if internal.arg_info.is_null() || internal.fn_flags & HAS_RETURN_TYPE == 0 {
        return Err(format!("{class}::{method}() declares no return type to replace"));
    }
    // SAFETY: a function with ZEND_ACC_HAS_RETURN_TYPE has its return type
    // in the entry before a non-null arg_info (zend_register_functions).
    let ret = unsafe { &mut *internal.arg_info.sub(1) };
    ret.type_.ptr = std::ptr::null_mut();
    ret.type_.type_mask = (ret.type_.type_mask & !TYPE_MASK) | MAY_BE_STATIC;
    Ok(())
}

/// A registered internal function's argument info, as the engine keeps it
/// once `zend_register_functions` has copied it: PHP 8.6 converts it to
/// `zend_arg_info` (names and defaults as `zend_string *`), earlier PHPs keep
/// `zend_internal_arg_info` (`const char *`). build.rs sets the flag from the
/// PHP version whose headers the bindings come from.
#[cfg(zend_arg_info_strings)]
pub type RegisteredArgInfo = ext_php_rs::ffi::zend_arg_info;
#[cfg(not(zend_arg_info_strings))]
pub type RegisteredArgInfo = ext_php_rs::ffi::zend_internal_arg_info;

/// The parameter name of `arg` ("" when it has none).
///
/// # Safety
/// `arg` is an entry of a registered internal function's `arg_info`.
pub unsafe fn parameter_name(arg: &RegisteredArgInfo) -> String {
    #[cfg(zend_arg_info_strings)]
    // SAFETY: null or the zend_string the engine keeps with the function.
    let name = unsafe { arg.name.cast_const().as_ref() }.map(|s| String::from_utf8_lossy(s.as_bytes()).into_owned());
    #[cfg(not(zend_arg_info_strings))]
    // SAFETY: a non-null name is a NUL-terminated string of the arginfo.
    let name = (!arg.name.is_null()).then(|| unsafe { CStr::from_ptr(arg.name) }.to_string_lossy().into_owned());
    name.unwrap_or_default()
}

/// Gives `arg` the default `default` (PHP code, as Reflection shows it).
/// Before 8.6 the engine reads the C string in place (ours is `'static`).
/// From 8.6 it is a `zend_string` the engine releases with the function at
/// shutdown: an interned, persistent one, whose release is a no-op; the one it
/// replaces (if the binding gave any) is released here, as the engine would.
///
/// # Safety
/// `arg` is an entry of a registered internal function's `arg_info`, at MINIT.
unsafe fn set_parameter_default(arg: &mut RegisteredArgInfo, default: &'static CStr) {
    #[cfg(zend_arg_info_strings)]
    // SAFETY: the default the engine holds is a zend_string it owns (released
    // here as it would be); the new one is interned and persistent.
    unsafe {
        if !arg.default_value.is_null() {
            ext_php_rs::ffi::ext_php_rs_zend_string_release(arg.default_value);
        }
        arg.default_value = ZendStr::new_interned(default.to_bytes(), true).into_raw().cast();
    }
    #[cfg(not(zend_arg_info_strings))]
    {
        arg.default_value = default.as_ptr();
    }
}

/// A class name as the engine keeps it in a type: interned and persistent.
fn class_name(name: &str) -> *mut zend_string {
    ZendStr::new_interned(name, true).into_raw()
}

/// Zend/zend_types.h `zend_type_list`: a count, then that many types (C's
/// `types[1]` with the rest allocated after it, `ZEND_TYPE_LIST_SIZE`).
#[repr(C)]
struct TypeList {
    num_types: u32,
    types: [zend_type; 1],
}

/// A `zend_type_list` of class names, in memory that lives as long as the
/// module and is released by the engine with `free` (see `set_parameter_type`).
fn class_list(names: &[&str]) -> Result<*mut TypeList, String> {
    let size = std::mem::size_of::<TypeList>() + (names.len() - 1) * std::mem::size_of::<zend_type>();
    // SAFETY: malloc of the list's size; null is checked below.
    let list = unsafe { libc::malloc(size) }.cast::<TypeList>();
    if list.is_null() {
        return Err("out of memory for a parameter type".to_string());
    }
    // SAFETY: `list` holds a TypeList and names.len() - 1 more zend_types
    // (`size`), so entries 0..names.len() are inside it; written, not read.
    unsafe {
        (*list).num_types = names.len() as u32;
        let types = (&raw mut (*list).types).cast::<zend_type>();
        for (i, name) in names.iter().enumerate() {
            types.add(i).write(zend_type { ptr: class_name(name).cast(), type_mask: TYPE_NAME_BIT });
        }
    }
    Ok(list)
}
