//! The `memory://[name]` target: decisions in this process's memory, by the
//! same algorithms as on Redis (`ratelimit_core`, which mirrors the Lua
//! library and is tested against it), for applications' unit tests without a
//! server and for single-process workers. A call is the server module's
//! command (`EntryCall` spelled as the module's words), run by the module's
//! own code (`ratelimit_core::command`) on this process's store, and its
//! reply read by the one decoder (`entry::reply`). Each name is one store, shared by
//! every limiter (and thread) of the process that names it, never by other
//! processes; the wall clock stands in for the server's.

use std::collections::HashMap;
use std::sync::Arc;

use once_cell::sync::Lazy;
use parking_lot::Mutex;
use ratelimit_core::command;
use ratelimit_core::store::Store;
use ratelimit_core::Refused;

use crate::entry::call::{EntryCall, Flat, Form};
use crate::entry::reply::Ints;
use crate::error::{Error, Result};

/// The scheme of a memory target's DSN.
pub const SCHEME: &str = "memory://";

/// One named store.
pub struct MemoryTarget {
    name: String,
    store: Mutex<Store>,
}

static TARGETS: Lazy<Mutex<HashMap<String, Arc<MemoryTarget>>>> = Lazy::new(Default::default);

thread_local! {
    /// The call being run, spelled as the module's words; one call at a time per thread.
    static WORDS: std::cell::RefCell<Flat> = std::cell::RefCell::new(Flat::default());
}

/// The name in `memory://name` (letters, digits, `_`, `-`, `.`; may be
/// empty), or `None` when `dsn` is not a memory DSN.
pub fn parse_dsn(dsn: &str) -> Option<Result<String>> {
    let name = dsn.strip_prefix(SCHEME)?;
    if name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')) {
        Some(Ok(name.to_string()))
    } else {
        Some(Err(Error::value(
            "connection",
            format!("must be memory:// or memory://name with a name of letters, digits, '_', '-' and '.', {dsn:?} given"),
        )))
    }
}

/// The store named `name`, created on first use; the same one every time after.
pub fn target(name: &str) -> Arc<MemoryTarget> {
    let _inside = crate::fork::enter();
    TARGETS
        .lock()
        .entry(name.to_string())
        .or_insert_with(|| Arc::new(MemoryTarget { name: name.to_string(), store: Mutex::new(Store::default()) }))
        .clone()
}

impl MemoryTarget {
    /// A refusal, named as a Redis target's failures are ("Redis at …: ").
    fn failed(&self, e: Refused) -> Error {
        Error::Redis(format!("{SCHEME}{}: {}", self.name, e.0))
    }
}

/// `c` spelled as the server module's command and parsed by the module's
/// own code, handed to `run` (on some store).
fn run_with<K: AsRef<[u8]>>(
    c: &EntryCall<K>,
    run: impl FnOnce(&command::Call) -> std::result::Result<Vec<u8>, Refused>,
) -> std::result::Result<Vec<u8>, Refused> {
    WORDS.with_borrow_mut(|flat| {
        flat.clear();
        c.spell(Form::Module, flat);
        flat.with_words(|words| {
            // The extension's own calls always parse; this says which one did not.
            let call = command::parse(c.entry, words).map_err(|bad| match bad {
                command::Bad::Refused(r) => r,
                command::Bad::Arity => Refused(format!("ERR wrong number of arguments for '{}' command", c.entry.name())),
            })?;
            run(&call)
        })
    })
}

/// One decision on `store`, a store that is not a `memory://` target's (a
/// Redis target's local store, `limiter::decide::local`), as `MemoryTarget::decide` makes it.
pub fn decide_on<K: AsRef<[u8]>>(store: &mut Store, c: &EntryCall<K>) -> Result<Ints> {
    let failed = |e: Refused| Error::Redis(format!("in this process: {}", e.0));
    let bytes = run_with(c, |call| command::run(store, call)).map_err(failed)?;
    Ints::from_bytes(&bytes).ok_or_else(|| failed(Refused(format!("unexpected reply {bytes:?}"))))
}

/// Every store this process has, by name, with its live keys (for `php --ri`).
pub fn targets() -> Vec<(String, usize)> {
    let _inside = crate::fork::enter();
    let mut all: Vec<(String, usize)> = TARGETS.lock().values().map(|t| (t.name.clone(), t.store.lock().len())).collect();
    all.sort();
    all
}

impl MemoryTarget {
    pub fn name(&self) -> &str {
        &self.name
    }

    /// `c` as the server module would run it, on this store: its reply's
    /// bytes, or the error a single-key call or a compound answers.
    fn run<K: AsRef<[u8]>>(&self, c: &EntryCall<K>) -> std::result::Result<Vec<u8>, Refused> {
        run_with(c, |call| self.with_store(|store| command::run(store, call)))
    }

    /// One decision (take, peek, a compound, and the counted ones).
    #[inline(always)]
    pub fn decide<K: AsRef<[u8]>>(&self, c: &EntryCall<K>) -> Result<Ints> {
        let bytes = self.run(c).map_err(|e| self.failed(e))?;
        Ints::from_bytes(&bytes).ok_or_else(|| self.failed(Refused(format!("unexpected reply {bytes:?}"))))
    }

    /// `take_many` (or `take_many_counted`, its last key the counters'
    /// base): one decision per key, in order, at one instant, as one step
    /// (no other thread's decision comes between them), each standing alone.
    pub fn decide_many<K: AsRef<[u8]>>(&self, c: &EntryCall<K>) -> Result<Vec<Result<Ints>>> {
        let bytes = self.run(c).map_err(|e| self.failed(e))?;
        // The decided keys, then their block keys (then the counters' base).
        let n = (c.keys.len() - usize::from(c.entry.counted())) / 2;
        let records = Ints::many_from_bytes(&bytes, n).ok_or_else(|| self.failed(Refused(format!("unexpected reply {bytes:?}"))))?;
        Ok(records.into_iter().map(|r| r.map_err(|text| self.failed(Refused(String::from_utf8_lossy(text).into_owned())))).collect())
    }

    /// DEL.
    pub fn delete(&self, keys: &[&[u8]]) {
        self.with_store(|store| {
            for key in keys {
                store.delete(key);
            }
        });
    }

    /// The store itself (decisions; tests and phpinfo look at what they left),
    /// locked inside the fork gate (`crate::fork`).
    pub fn with_store<T>(&self, f: impl FnOnce(&mut Store) -> T) -> T {
        let _inside = crate::fork::enter();
        f(&mut self.store.lock())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        assert_eq!(parse_dsn("memory://").unwrap().unwrap(), "");
        assert_eq!(parse_dsn("memory://tests-1.a_b").unwrap().unwrap(), "tests-1.a_b");
        assert!(parse_dsn("redis://localhost").is_none());
        assert!(parse_dsn("memory://a/b").unwrap().unwrap_err().to_string().contains("must be memory://"));
    }

    #[test]
    fn one_store_per_name() {
        assert!(Arc::ptr_eq(&target("same"), &target("same")));
        assert!(!Arc::ptr_eq(&target("same"), &target("other")));
    }
}
