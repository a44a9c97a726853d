//! Registers the interface and the classes at MINIT.
//!
//! ext-php-rs's `ModuleBuilder::class` registers a class and gives no chance
//! to touch its entry afterwards, yet typed readonly properties and union
//! parameter types can only be added to a registered class entry, before any
//! object exists (see `zend_api`). So the module's startup registers them here
//! with ext-php-rs's own `ClassBuilder`, and each class's `Finish` step runs
//! on its entry right after `zend_register_internal_class_ex`.

use std::sync::Mutex;

use ext_php_rs::args::ArgInfoTables;
use ext_php_rs::builders::ClassBuilder;
use ext_php_rs::class::RegisteredClass;
use ext_php_rs::flags::ClassFlags;
use ext_php_rs::zend::ClassEntry;

/// What a class adds to its registered entry.
pub trait Finish: RegisteredClass {
    fn finish(ce: &mut ClassEntry) -> Result<(), String>;
}

/// The first error of a `Finish` step: the registration callback cannot return one.
static FINISH_ERROR: Mutex<Option<String>> = Mutex::new(None);

/// Registers an interface (`#[php_interface]`), then its `Finish` step.
pub fn interface<T: Finish>() -> Result<(), String> {
    unsupported::<T>()?;
    let mut builder = ClassBuilder::new(T::CLASS_NAME);
    for (method, flags) in T::method_builders() {
        builder = builder.method(method, flags);
    }
    builder.flags(ClassFlags::Interface).registration(finish::<T>).docs(T::DOC_COMMENTS).register().map_err(|e| format!("{}: {e}", T::CLASS_NAME))?;
    finish_error()
}

/// Registers a `#[php_class]` with its methods, interfaces and flags, then its `Finish` step.
pub fn class<T: Finish>() -> Result<(), String> {
    unsupported::<T>()?;
    let mut builder = ClassBuilder::new(T::CLASS_NAME);
    for (method, flags) in T::method_builders() {
        builder = builder.method(method, flags);
    }
    for interface in T::IMPLEMENTS {
        builder = builder.implements(*interface);
    }
    builder
        .flags(T::FLAGS)
        .object_override::<T>()
        .registration(finish::<T>)
        .docs(T::DOC_COMMENTS)
        .register()
        .map_err(|e| format!("{}: {e}", T::CLASS_NAME))?;
    finish_error()
}

/// The error the last `Finish` step left, if any.
fn finish_error() -> Result<(), String> {
    match FINISH_ERROR.lock().unwrap_or_else(|p| p.into_inner()).take() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// What this registrar does not carry over from a `#[php_class]`: refuse it
/// at startup rather than register a class that silently lacks it.
fn unsupported<T: RegisteredClass>() -> Result<(), String> {
    let what = if T::BUILDER_MODIFIER.is_some() {
        "a builder modifier"
    } else if T::EXTENDS.is_some() || (T::FLAGS.contains(ClassFlags::Interface) && !T::IMPLEMENTS.is_empty()) {
        "a parent class or interface"
    } else if !T::constants().is_empty() {
        "class constants"
    } else if T::get_metadata().all_properties().next().is_some() || !T::static_properties().is_empty() {
        "ext-php-rs properties (declare typed ones in its Finish step)"
    } else if !T::interface_implementations().is_empty() || !T::interface_method_implementations().is_empty() {
        "#[php_impl_interface] implementations"
    } else {
        return Ok(());
    };
    Err(format!("{}: php::register does not handle {what}", T::CLASS_NAME))
}

fn store<T: RegisteredClass>(ce: &'static mut ClassEntry, arg_info: ArgInfoTables) {
    T::get_metadata().set_ce(ce);
    T::get_metadata().set_arg_info(arg_info);
}

fn finish<T: Finish>(ce: &'static mut ClassEntry, arg_info: ArgInfoTables) {
    let ce_ptr: *mut ClassEntry = ce;
    // SAFETY: the entry is ours until MINIT returns (one thread, nothing else
    // reads it yet); the two borrows are used one after the other, never at once.
    store::<T>(unsafe { &mut *ce_ptr }, arg_info);
    // SAFETY: as above; `store` has returned.
    if let Err(e) = T::finish(unsafe { &mut *ce_ptr }) {
        FINISH_ERROR.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert(format!("{}: {e}", T::CLASS_NAME));
    }
}
