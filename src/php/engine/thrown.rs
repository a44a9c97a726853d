//! PHP code the extension calls (an overridden method of a phpredis subclass,
//! the `__toString()` of a Stringable id) may throw or call `exit()`. What it
//! raised is PHP's own answer and reaches the caller: it is never swallowed
//! nor replaced by an error of ours that hides it.

use ext_php_rs::exception::throw_with_code;
use ext_php_rs::zend::{ce, ClassEntry, ExecutorGlobals};

/// Whether PHP code raised something that must go to the caller instead of
/// our error (`class`, `message`):
/// - nothing pending → `false`: throw ours;
/// - phpredis's own `RedisException` (or `RedisClusterException`, which is
///   not a subclass of it) → ours is thrown here, with it as
///   `previous` (the engine chains a pending exception) → `true`;
/// - anything else (a user exception, `exit()`) → `true`: it propagates as
///   it is, and ours is not thrown (ext-php-rs never throws over a pending one).
pub fn defer_to_pending(class: &ClassEntry, message: &str) -> bool {
    let wrap = {
        let globals = ExecutorGlobals::get();
        let Some(pending) = globals.exception() else { return false };
        pending.instance_of(ce::throwable())
            && ["RedisException", "RedisClusterException"].iter().any(|c| ClassEntry::try_find(c).is_some_and(|redis| pending.instance_of(redis)))
    };
    if wrap {
        let _ = throw_with_code(class, 0, message);
    }
    true
}
