//! Reading what PHP code passes, by PHP's own rules: a declared scalar
//! parameter, strict or coercive as the caller declared (`coercion`,
//! `values`), the two constructor forms (`forms`), the numbers a
//! constructor was given (`given_numbers`, for `var_dump()`), the `$ids` of
//! `consumeMany()` (`id_list`, over `array_entries`), and the two traits
//! (`php_value`) through which the readers see a Zval or a test's value.
pub mod array_entries;
pub mod calendar_args;
mod coercion;
pub mod forms;
pub mod given_numbers;
pub mod id_list;
pub mod php_value;
pub mod values;
