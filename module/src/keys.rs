//! One key through the module key API (RedisModule_OpenKey and the string,
//! hash and sorted-set calls on it). This is the fast path: a command run by
//! RedisModule_Call costs the server a fake client, an argv of new strings,
//! a command lookup and a reply object (about 1–2 µs each); the key API reads
//! and writes the value where it lives. Every function here is one server
//! call and its error; what a decision reads and writes, and how a write is
//! replicated, is `server.rs`'s.

use std::ffi::CStr;
use std::os::raw::{c_char, c_int, c_longlong, c_void};
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};

use redis_module::raw;
use redis_module::{Context, RedisString};

/// The type of the value a key holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Missing,
    String,
    Hash,
    Zset,
    Other,
}

/// A function of the module API, inside an `unsafe` block: Redis fills the
/// table at load time, and every function used here exists since Redis 6.0
/// except those read through `optional`.
macro_rules! api {
    ($name:ident) => {
        raw::$name.expect(concat!(stringify!($name), " is missing from this server"))
    };
}

/// A function Redis 6.0 lacks: `None` there (the caller takes another way).
macro_rules! optional {
    ($name:ident) => {
        // SAFETY: reads the API table's entry, which Redis filled before the module's OnLoad and never changes after.
        unsafe { raw::$name }
    };
}

pub fn has_scan_key() -> bool {
    optional!(RedisModule_ScanKey).is_some()
}

/// An open key, closed on drop (which also deletes a hash or sorted set that
/// a write left empty, as the commands do).
///
/// Invariant (what the SAFETY comments below rest on): `ptr` is what
/// RedisModule_OpenKey returned for `name` in the context of the running
/// command, closed only by `drop`. It is NULL only for a missing key opened
/// for reading; `kind()` says Missing for it, and the server (`server.rs`)
/// calls nothing else on a key before `kind()` has named the type that call
/// reads, and writes only to keys opened for writing, which are never NULL.
/// A `Key` borrows its command's context and never outlives the command;
/// Redis runs the commands on one thread.
pub struct Key<'c> {
    ctx: &'c Context,
    name: RedisString,
    ptr: *mut raw::RedisModuleKey,
    writable: bool,
}

impl<'c> Key<'c> {
    /// Opens the key `name`: the command's own argument string when given
    /// (retained, not copied), else a new string of those bytes.
    pub fn open(ctx: &'c Context, name: &[u8], given: Option<&RedisString>, write: bool) -> Self {
        let name = match given {
            Some(arg) => arg.safe_clone(ctx),
            None => RedisString::create_from_slice(ctx.get_raw(), name),
        };
        let mode = if write { raw::REDISMODULE_READ | raw::REDISMODULE_WRITE } else { raw::REDISMODULE_READ };
        // SAFETY: the command's context and a string it holds (retained or created for it); OpenKey returns NULL or a handle, closed in `drop`.
        let ptr = unsafe { api!(RedisModule_OpenKey)(ctx.get_raw(), name.inner, mode as c_int) };
        Key { ctx, name, ptr, writable: write }
    }

    pub fn writable(&self) -> bool {
        self.writable
    }

    pub fn name(&self) -> &RedisString {
        &self.name
    }

    pub fn kind(&self) -> Kind {
        if self.ptr.is_null() {
            return Kind::Missing;
        }
        // SAFETY: a handle of this key (the invariant on `Key`), not NULL here.
        match unsafe { api!(RedisModule_KeyType)(self.ptr) } as isize {
            raw::REDISMODULE_KEYTYPE_EMPTY => Kind::Missing,
            raw::REDISMODULE_KEYTYPE_STRING => Kind::String,
            raw::REDISMODULE_KEYTYPE_HASH => Kind::Hash,
            raw::REDISMODULE_KEYTYPE_ZSET => Kind::Zset,
            _ => Kind::Other,
        }
    }

    fn string(&self, s: &[u8]) -> RedisString {
        RedisString::create_from_slice(self.ctx.get_raw(), s)
    }

    // ---- strings ----

    /// The string's bytes (the key must hold a string).
    pub fn bytes(&self) -> Vec<u8> {
        let mut len = 0usize;
        // SAFETY: an open handle (not NULL: the caller found a string); StringDMA answers NULL for any other type, else the value's buffer and its length.
        let p = unsafe { api!(RedisModule_StringDMA)(self.ptr, &mut len, raw::REDISMODULE_READ as c_int) };
        if p.is_null() || len == 0 {
            return Vec::new();
        }
        // SAFETY: `len` bytes at `p`, the value's own buffer, unchanged until the key is written or closed: copied at once.
        unsafe { std::slice::from_raw_parts(p.cast::<u8>(), len) }.to_vec()
    }

    /// The string's length (the key must hold a string).
    pub fn len_string(&self) -> usize {
        // SAFETY: an open handle (the caller found a string).
        unsafe { api!(RedisModule_ValueLength)(self.ptr) }
    }

    /// Replaces the value with a string, dropping any expiry (as SET does).
    pub fn set_string(&self, value: &[u8]) -> bool {
        let s = self.string(value);
        // SAFETY: a handle opened for writing (the writes' keys are) and a string made for this call.
        unsafe { api!(RedisModule_StringSet)(self.ptr, s.inner) == raw::REDISMODULE_OK as c_int }
    }

    /// Rewrites the string in place, keeping its expiry (as INCRBY does).
    pub fn overwrite_string(&self, value: &[u8]) -> bool {
        // SAFETY: a handle opened for writing that holds a string (the caller checked); after StringTruncate to `value.len()`, StringDMA WRITE gives that many writable bytes, checked before the copy.
        unsafe {
            if api!(RedisModule_StringTruncate)(self.ptr, value.len()) != raw::REDISMODULE_OK as c_int {
                return false;
            }
            let mut len = 0usize;
            let p = api!(RedisModule_StringDMA)(self.ptr, &mut len, raw::REDISMODULE_WRITE as c_int);
            if p.is_null() || len != value.len() {
                return false;
            }
            ptr::copy_nonoverlapping(value.as_ptr(), p.cast::<u8>(), len);
        }
        true
    }

    /// Deletes the key (as DEL does).
    pub fn delete(&self) -> bool {
        // SAFETY: a handle opened for writing (the writes' keys are); deleting leaves it open on an empty key.
        unsafe { api!(RedisModule_DeleteKey)(self.ptr) == raw::REDISMODULE_OK as c_int }
    }

    // ---- expiries ----

    /// ms left, -1 without an expiry (the key must exist).
    pub fn ttl_ms(&self) -> i64 {
        // SAFETY: an open handle of an existing key (the caller checked `kind()`).
        unsafe { api!(RedisModule_GetExpire)(self.ptr) }
    }

    pub fn set_ttl_ms(&self, ms: i64) -> bool {
        // SAFETY: a handle opened for writing.
        unsafe { api!(RedisModule_SetExpire)(self.ptr, ms) == raw::REDISMODULE_OK as c_int }
    }

    /// The expiry as an instant in ms, -1 without one (`has_abs_expire`).
    pub fn expiry_at_ms(&self) -> Option<i64> {
        // SAFETY: an API function Redis gave (GetAbsExpire), on an open handle of an existing key (the caller checked).
        optional!(RedisModule_GetAbsExpire).map(|f| unsafe { f(self.ptr) })
    }

    /// Sets the expiry `ms` from now (SET PX, PEXPIRE). Where the server
    /// takes an instant (Redis >= 6.2, Valkey) it is set as one and returned,
    /// for the replicated command to carry the same instant (reading it back,
    /// GetAbsExpire, costs another lookup in the expires table); Redis 6.0
    /// (or a key that refused it): the duration, and `None`.
    pub fn expire_in_ms(&self, ms: i64) -> Option<i64> {
        if let Some(set_at) = optional!(RedisModule_SetAbsExpire) {
            // SAFETY: takes no arguments.
            let at = unsafe { api!(RedisModule_Milliseconds)() } + ms;
            // SAFETY: SetAbsExpire, given by Redis, on a handle opened for writing.
            if unsafe { set_at(self.ptr, at) } == raw::REDISMODULE_OK as c_int {
                return Some(at);
            }
        }
        self.set_ttl_ms(ms);
        None
    }

    pub fn set_expiry_at_ms(&self, at: i64) -> bool {
        if let Some(f) = optional!(RedisModule_SetAbsExpire) {
            // SAFETY: SetAbsExpire, given by Redis, on a handle opened for writing.
            return unsafe { f(self.ptr, at) == raw::REDISMODULE_OK as c_int };
        }
        // Redis 6.0: only a duration, which SetExpire adds to the clock as
        // it reads it then. Read between two readings of the same
        // millisecond, the instant it stores is exactly `at` (a millisecond
        // boundary in between made it `at` + 1: the replicated PEXPIREAT and
        // the Lua library said `at`).
        loop {
            // SAFETY: takes no arguments.
            let before = unsafe { api!(RedisModule_Milliseconds)() };
            let set = self.set_ttl_ms((at - before).max(0));
            // SAFETY: takes no arguments.
            if unsafe { api!(RedisModule_Milliseconds)() } == before {
                return set;
            }
        }
    }

    // ---- hashes ----

    /// Every field and value (`has_scan_key`).
    pub fn hash_pairs(&self) -> Vec<(Vec<u8>, Vec<u8>)> {
        unsafe extern "C" fn each(
            _key: *mut raw::RedisModuleKey,
            field: *mut raw::RedisModuleString,
            value: *mut raw::RedisModuleString,
            out: *mut c_void,
        ) {
            // SAFETY: `out` is the `pairs` vector `hash_pairs` passes to ScanKey, alive and borrowed by nothing else while ScanKey runs.
            let out = unsafe { &mut *out.cast::<Vec<(Vec<u8>, Vec<u8>)>>() };
            // SAFETY: the field and the value Redis hands the callback, valid while it runs.
            out.push((unsafe { text(field) }, unsafe { text(value) }));
        }
        let mut pairs = Vec::new();
        // SAFETY: an open handle of a hash (the caller checked `kind()`); the cursor is created, used and destroyed here; `each` gets `pairs` as its private data.
        unsafe {
            let cursor = api!(RedisModule_ScanCursorCreate)();
            while api!(RedisModule_ScanKey)(self.ptr, cursor, Some(each), (&mut pairs as *mut Vec<_>).cast()) != 0 {}
            api!(RedisModule_ScanCursorDestroy)(cursor);
        }
        pairs
    }

    pub fn hash_get(&self, field: &[u8]) -> Option<Vec<u8>> {
        let f = self.string(field);
        let mut value: *mut raw::RedisModuleString = ptr::null_mut();
        // SAFETY: a handle opened for writing (HashGet of a missing key sets NULL); the value HashGet returns is ours to free, freed after it is copied.
        unsafe {
            api!(RedisModule_HashGet)(self.ptr, raw::REDISMODULE_HASH_NONE as c_int, f.inner, &mut value as *mut _, ptr::null_mut::<c_void>());
            if value.is_null() {
                return None;
            }
            let bytes = text(value);
            api!(RedisModule_FreeString)(self.ctx.get_raw(), value);
            Some(bytes)
        }
    }

    pub fn hash_set(&self, field: &[u8], value: &[u8]) {
        let (f, v) = (self.string(field), self.string(value));
        // SAFETY: a handle opened for writing; the field and value strings outlive the call, which copies them.
        unsafe { api!(RedisModule_HashSet)(self.ptr, raw::REDISMODULE_HASH_NONE as c_int, f.inner, v.inner, ptr::null_mut::<c_void>()) };
    }

    /// Deletes fields; true when any existed.
    pub fn hash_delete(&self, fields: &[Vec<u8>]) -> bool {
        // The value that tells HashSet to delete the field (redis-module's constant).
        let delete = raw::REDISMODULE_HASH_DELETE.cast_mut();
        fields.iter().fold(false, |any, field| {
            let f = self.string(field);
            // SAFETY: a handle opened for writing; REDISMODULE_HASH_DELETE (1) as the value is HashSet's documented way to delete a field.
            let n = unsafe { api!(RedisModule_HashSet)(self.ptr, raw::REDISMODULE_HASH_NONE as c_int, f.inner, delete, ptr::null_mut::<c_void>()) };
            any | (n > 0)
        })
    }

    // ---- sorted sets ----

    pub fn len(&self) -> usize {
        // SAFETY: an open handle of a sorted set (the caller checked `kind()`).
        unsafe { api!(RedisModule_ValueLength)(self.ptr) }
    }

    /// Walks the members scored in [min, max] (`min` itself excluded when
    /// `min_excluded`), from the lowest or, `from_top`, the highest, while
    /// `visit` returns true.
    fn walk(&self, min: f64, max: f64, min_excluded: bool, from_top: bool, mut visit: impl FnMut(&Self) -> bool) {
        // SAFETY: an open handle of a sorted set or an empty key opened for writing (where the range start fails and nothing else runs); a range started here is stopped here.
        unsafe {
            let start = if from_top { api!(RedisModule_ZsetLastInScoreRange) } else { api!(RedisModule_ZsetFirstInScoreRange) };
            if start(self.ptr, min, max, min_excluded as c_int, 0) != raw::REDISMODULE_OK as c_int {
                return;
            }
            let step = if from_top { api!(RedisModule_ZsetRangePrev) } else { api!(RedisModule_ZsetRangeNext) };
            while api!(RedisModule_ZsetRangeEndReached)(self.ptr) == 0 {
                if !visit(self) || step(self.ptr) == 0 {
                    break;
                }
            }
            api!(RedisModule_ZsetRangeStop)(self.ptr);
        }
    }

    /// The member and score at the walk's position.
    fn current(&self) -> (Vec<u8>, f64) {
        let mut score = 0.0;
        // SAFETY: called from `walk`'s `visit`, inside a started range that has not ended; the element returned is ours to free, freed after it is copied.
        unsafe {
            let member = api!(RedisModule_ZsetRangeCurrentElement)(self.ptr, &mut score);
            let bytes = text(member);
            api!(RedisModule_FreeString)(self.ctx.get_raw(), member);
            (bytes, score)
        }
    }

    /// How many members score in [min, max].
    pub fn zcount(&self, min: f64, max: f64) -> usize {
        let mut n = 0;
        self.walk(min, max, false, false, |_| {
            n += 1;
            true
        });
        n
    }

    /// The score of the highest member.
    pub fn zmax_score(&self) -> Option<f64> {
        let mut found = None;
        self.walk(f64::NEG_INFINITY, f64::INFINITY, false, true, |k| {
            found = Some(k.current().1);
            false
        });
        found
    }

    /// The score of the `offset`-th member (from 0) scored above `edge`.
    pub fn znth_score_above(&self, edge: f64, offset: usize) -> Option<f64> {
        let (mut found, mut skip) = (None, offset);
        self.walk(edge, f64::INFINITY, true, false, |k| {
            if skip > 0 {
                skip -= 1;
                return true;
            }
            found = Some(k.current().1);
            false
        });
        found
    }

    /// The members scored in [min, max].
    pub fn zmembers(&self, min: f64, max: f64) -> Vec<Vec<u8>> {
        let mut members = Vec::new();
        self.walk(min, max, false, false, |k| {
            members.push(k.current().0);
            true
        });
        members
    }

    /// The `n` highest-ranked members, highest first (ZREMRANGEBYRANK -n -1's).
    pub fn ztop_members(&self, n: usize) -> Vec<Vec<u8>> {
        let mut members = Vec::with_capacity(n);
        self.walk(f64::NEG_INFINITY, f64::INFINITY, false, true, |k| {
            if members.len() >= n {
                return false;
            }
            members.push(k.current().0);
            true
        });
        members
    }

    pub fn zscore(&self, member: &[u8]) -> Option<f64> {
        let m = self.string(member);
        let mut score = 0.0;
        // SAFETY: an open handle of a sorted set (the caller checked); the member string outlives the call.
        (unsafe { api!(RedisModule_ZsetScore)(self.ptr, m.inner, &mut score) } == raw::REDISMODULE_OK as c_int).then_some(score)
    }

    pub fn zadd(&self, score: f64, member: &[u8]) -> bool {
        let m = self.string(member);
        // SAFETY: a handle opened for writing; the member string outlives the call, which copies it.
        unsafe { api!(RedisModule_ZsetAdd)(self.ptr, score, m.inner, ptr::null_mut()) == raw::REDISMODULE_OK as c_int }
    }

    pub fn zincrby(&self, by: f64, member: &[u8]) -> bool {
        let m = self.string(member);
        let mut new = 0.0;
        // SAFETY: a handle opened for writing; the member string outlives the call, which copies it.
        unsafe { api!(RedisModule_ZsetIncrby)(self.ptr, by, m.inner, ptr::null_mut(), &mut new) == raw::REDISMODULE_OK as c_int }
    }

    pub fn zrem(&self, member: &[u8]) {
        let m = self.string(member);
        let mut deleted = 0;
        // SAFETY: a handle opened for writing; the member string outlives the call.
        unsafe { api!(RedisModule_ZsetRem)(self.ptr, m.inner, &mut deleted) };
    }

    /// Sends `command key args…` to replicas and the AOF
    /// (RedisModule_Replicate), the key as the string already held, the rest
    /// copied. The typed forms below pass their arguments to Redis as they
    /// are (no string made here): the writes of one decision take those.
    pub fn replicate(&self, command: &CStr, args: &[&[u8]]) {
        let mut argv: Vec<*mut raw::RedisModuleString> = Vec::with_capacity(args.len() + 1);
        argv.push(self.name.inner);
        // SAFETY: the command's context; every argv entry is a live string (the key's, or created here and freed after Replicate, which keeps its own references).
        unsafe {
            for a in args {
                argv.push(api!(RedisModule_CreateString)(ptr::null_mut(), a.as_ptr().cast(), a.len()));
            }
            api!(RedisModule_Replicate)(self.ctx.get_raw(), command.as_ptr(), c"v".as_ptr(), argv.as_mut_ptr(), argv.len());
            for &a in &argv[1..] {
                api!(RedisModule_FreeString)(ptr::null_mut(), a);
            }
        }
    }

    /// `command key n`: one integer after the key (PEXPIREAT, PEXPIRE, INCRBY).
    pub fn replicate_int(&self, command: &CStr, n: i64) {
        // SAFETY: the command's context, the format "sl" matching the arguments: the key's string and a long long.
        unsafe { api!(RedisModule_Replicate)(self.ctx.get_raw(), command.as_ptr(), c"sl".as_ptr(), self.name.inner, n as c_longlong) };
    }

    /// `command key a b`: two integers (ZREMRANGEBYSCORE min max).
    pub fn replicate_int_int(&self, command: &CStr, a: i64, b: i64) {
        // SAFETY: the command's context, the format "sll" matching the arguments.
        unsafe {
            api!(RedisModule_Replicate)(self.ctx.get_raw(), command.as_ptr(), c"sll".as_ptr(), self.name.inner, a as c_longlong, b as c_longlong)
        };
    }

    /// `command key n bytes` (ZADD score member, ZINCRBY by member).
    pub fn replicate_int_bytes(&self, command: &CStr, n: i64, b: &[u8]) {
        // SAFETY: the command's context, the format "slb" matching the arguments (a buffer and its length for "b").
        unsafe {
            api!(RedisModule_Replicate)(
                self.ctx.get_raw(),
                command.as_ptr(),
                c"slb".as_ptr(),
                self.name.inner,
                n as c_longlong,
                b.as_ptr().cast::<c_char>(),
                b.len(),
            )
        };
    }

    /// `command key bytes n` (HINCRBY field n).
    pub fn replicate_bytes_int(&self, command: &CStr, b: &[u8], n: i64) {
        // SAFETY: the command's context, the format "sbl" matching the arguments (a buffer and its length for "b").
        unsafe {
            api!(RedisModule_Replicate)(
                self.ctx.get_raw(),
                command.as_ptr(),
                c"sbl".as_ptr(),
                self.name.inner,
                b.as_ptr().cast::<c_char>(),
                b.len(),
                n as c_longlong,
            )
        };
    }

    /// `SET key value <unit> n` (PXAT or PX): the bucket states' one write.
    pub fn replicate_set(&self, value: &[u8], unit: &'static Word, n: i64) {
        // SAFETY: the command's context, the format "sbsl" matching the arguments; `unit.string()` lives for the server's life.
        unsafe {
            api!(RedisModule_Replicate)(
                self.ctx.get_raw(),
                c"SET".as_ptr(),
                c"sbsl".as_ptr(),
                self.name.inner,
                value.as_ptr().cast::<c_char>(),
                value.len(),
                unit.string(),
                n as c_longlong,
            )
        };
    }

    /// Tells keyspace-event subscribers what a command would have told them.
    pub fn notify(&self, class: c_int, event: &'static std::ffi::CStr) {
        // SAFETY: the command's context and the key's string; the event name is a static C string.
        unsafe { api!(RedisModule_NotifyKeyspaceEvent)(self.ctx.get_raw(), class, event.as_ptr(), self.name.inner) };
    }
}

impl Drop for Key<'_> {
    fn drop(&mut self) {
        if !self.ptr.is_null() {
            // SAFETY: a handle OpenKey returned, closed once (here).
            unsafe { api!(RedisModule_CloseKey)(self.ptr) };
        }
    }
}

/// A constant word of a replicated command (SET's PXAT or PX), made once as
/// a server string and kept for the server's life: passed as such, Redis
/// takes a reference, where a C string is made into a new string object and
/// freed again on every call.
pub struct Word {
    text: &'static CStr,
    made: AtomicPtr<raw::RedisModuleString>,
}

pub static PXAT: Word = Word::new(c"PXAT");
pub static PX: Word = Word::new(c"PX");

impl Word {
    const fn new(text: &'static CStr) -> Self {
        Word { text, made: AtomicPtr::new(ptr::null_mut()) }
    }

    /// Made on first use; commands run on the server's main thread only.
    fn string(&self) -> *mut raw::RedisModuleString {
        let made = self.made.load(Ordering::Relaxed);
        if !made.is_null() {
            return made;
        }
        // No context: a string no command's automatic memory frees.
        // SAFETY: no context (a string no command frees); the text is a static C string of that length.
        let made = unsafe { api!(RedisModule_CreateString)(ptr::null_mut(), self.text.as_ptr(), self.text.to_bytes().len()) };
        self.made.store(made, Ordering::Relaxed);
        made
    }
}

/// The bytes of a server string.
///
/// # Safety
/// `s` is a live server string.
unsafe fn text(s: *const raw::RedisModuleString) -> Vec<u8> {
    let mut len = 0usize;
    // SAFETY: a live server string (this function's contract).
    let p = unsafe { api!(RedisModule_StringPtrLen)(s, &mut len) };
    if p.is_null() {
        return Vec::new();
    }
    // SAFETY: `len` bytes at `p`, the string's own buffer, valid while it lives: copied at once.
    unsafe { std::slice::from_raw_parts(p.cast::<u8>(), len) }.to_vec()
}

/// An integer's decimal text, formatted without allocating.
pub struct Decimal {
    buf: [u8; 20],
    start: usize,
}

impl Decimal {
    pub fn new(n: i64) -> Self {
        // Digits from the right; i64::MIN is 19 digits and a sign.
        let (mut buf, mut start, mut rest) = ([0u8; 20], 20, n.unsigned_abs());
        loop {
            start -= 1;
            buf[start] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        if n < 0 {
            start -= 1;
            buf[start] = b'-';
        }
        Decimal { buf, start }
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[self.start..]
    }
}
