//! An in-memory keyspace with Redis's semantics for what the algorithms
//! read and write (strings, hashes, sorted sets, millisecond expiries on
//! the wall clock): the `memory://` target's store, and the stand-in for a
//! server in this crate's own tests. Not shared between processes.
//!
//! Expired keys are dropped when touched, and all of them in a sweep
//! whenever the keyspace has doubled since the last one, so a store that
//! sees many ids once stays bounded by the live ones.

use std::collections::{BTreeSet, HashMap};

use crate::effect::Effect;
use crate::keyspace::Keyspace;
use crate::numbers::redis_int;
use crate::view::{Read, Refused, View};

/// A stored value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Str(Vec<u8>),
    Hash(HashMap<Vec<u8>, Vec<u8>>),
    Zset(Zset),
}

/// A sorted set: members by score, then by member bytes, as Redis orders them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Zset {
    scores: HashMap<Vec<u8>, f64>,
    order: BTreeSet<(Score, Vec<u8>)>,
}

/// An f64 ordered totally (scores are never NaN).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Score(f64);
impl Eq for Score {}
impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Score {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

impl Zset {
    pub fn add(&mut self, score: f64, member: Vec<u8>) {
        if let Some(old) = self.scores.insert(member.clone(), score) {
            self.order.remove(&(Score(old), member.clone()));
        }
        self.order.insert((Score(score), member));
    }

    /// Scores above `edge`, lowest first.
    fn above(&self, edge: f64) -> impl Iterator<Item = f64> + '_ {
        self.order.iter().map(|(s, _)| s.0).skip_while(move |&s| s <= edge)
    }

    /// (member, score) lowest first: what ZRANGE … WITHSCORES lists.
    pub fn entries(&self) -> impl Iterator<Item = (&[u8], f64)> {
        self.order.iter().map(|(s, m)| (m.as_slice(), s.0))
    }

    pub fn len(&self) -> usize {
        self.scores.len()
    }

    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }
}

#[derive(Debug, Clone, PartialEq)]
struct Entry {
    value: Value,
    /// Wall-clock ms; `None`: no expiry.
    expires_at: Option<i64>,
}

#[derive(Clone)]
pub struct Store {
    keys: HashMap<Vec<u8>, Entry>,
    swept_at_len: usize,
    clock: fn() -> i64,
}

/// Whether a key whose expiry is the instant `at` (ms) lives at `now_ms`:
/// through that whole millisecond, as in Redis (a key is expired once the
/// time is greater than its expiry; PTTL answers 0 in its last millisecond).
/// One millisecond less would let a log or a bucket that expires its key
/// after a whole number of ms forget its state up to 1 ms early.
fn alive(at: i64, now_ms: i64) -> bool {
    at >= now_ms
}

/// PTTL of `entry` (a live one, or none) at `now` (ms).
fn pttl_at(entry: Option<&Entry>, now: i64) -> i64 {
    match entry {
        None => -2,
        Some(Entry { expires_at: None, .. }) => -1,
        Some(Entry { expires_at: Some(at), .. }) => at - now,
    }
}

/// Microseconds of the wall clock (what Redis's TIME reads).
pub fn wall_clock_us() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_micros() as i64)
}

impl Default for Store {
    fn default() -> Self {
        Store::with_clock(wall_clock_us)
    }
}

impl Store {
    /// A store on another clock (µs), for tests.
    pub fn with_clock(clock: fn() -> i64) -> Self {
        Store { keys: HashMap::new(), swept_at_len: 0, clock }
    }

    fn now_ms(&self) -> i64 {
        (self.clock)().div_euclid(1000)
    }

    fn live(&self, key: &[u8]) -> Option<&Entry> {
        self.live_at(key, self.now_ms())
    }

    /// The entry at `key` if it lives at `now` (ms): one lookup, one clock read.
    fn live_at(&self, key: &[u8], now: i64) -> Option<&Entry> {
        self.keys.get(key).filter(|e| e.expires_at.is_none_or(|at| alive(at, now)))
    }

    /// The live value at `key`.
    pub fn value(&self, key: &[u8]) -> Option<&Value> {
        self.live(key).map(|e| &e.value)
    }

    /// PTTL: ms left, -1 without expiry, -2 missing.
    pub fn pttl(&self, key: &[u8]) -> i64 {
        let now = self.now_ms();
        pttl_at(self.live_at(key, now), now)
    }

    /// SET/HSET/ZADD of a whole value without expiry: what another program
    /// may have left at a key (tests plant foreign values with it).
    pub fn insert(&mut self, key: &[u8], value: Value) {
        self.keys.insert(key.to_vec(), Entry { value, expires_at: None });
    }

    /// Every live key, with its value and its expiry (an instant in ms), in
    /// key order: what a test compares to tell whether a call wrote anything.
    pub fn snapshot(&self) -> Vec<(Vec<u8>, Value, Option<i64>)> {
        let mut live: Vec<_> = self.keys.keys().filter_map(|k| self.live(k).map(|e| (k.clone(), e.value.clone(), e.expires_at))).collect();
        live.sort_by(|a, b| a.0.cmp(&b.0));
        live
    }

    /// PERSIST: the key keeps its value and loses its expiry.
    pub fn persist(&mut self, key: &[u8]) {
        let now = self.now_ms();
        if let Some(e) = self.keys.get_mut(key).filter(|e| e.expires_at.is_none_or(|at| alive(at, now))) {
            e.expires_at = None;
        }
    }

    /// DEL: whether a live key was deleted.
    pub fn delete(&mut self, key: &[u8]) -> bool {
        let was = self.live(key).is_some();
        self.keys.remove(key);
        was
    }

    /// Live keys.
    pub fn len(&mut self) -> usize {
        self.sweep();
        self.keys.len()
    }

    pub fn is_empty(&mut self) -> bool {
        self.len() == 0
    }

    fn sweep(&mut self) {
        let now = self.now_ms();
        self.keys.retain(|_, e| e.expires_at.is_none_or(|at| alive(at, now)));
        self.swept_at_len = self.keys.len();
    }

    /// The live entry at `key` for writing, created by `make` when missing;
    /// WRONGTYPE when it holds another type (`is` tells the right one).
    fn entry(&mut self, key: &[u8], is: fn(&Value) -> bool, make: fn() -> Value) -> Result<&mut Entry, Refused> {
        let now = self.now_ms();
        if self.keys.get(key).is_some_and(|e| e.expires_at.is_some_and(|at| !alive(at, now))) {
            self.keys.remove(key);
        }
        let e = self.keys.entry(key.to_vec()).or_insert_with(|| Entry { value: make(), expires_at: None });
        if is(&e.value) {
            Ok(e)
        } else {
            Err(Refused::wrong_type())
        }
    }

    fn apply_one(&mut self, key: &[u8], effect: &Effect) -> Result<(), Refused> {
        let now = self.now_ms();
        match effect {
            Effect::SetPx(v, ms) => self.set(key, v, Some(now + ms)),
            Effect::Set(v) => self.set(key, v, None),
            Effect::IncrBy(n) => {
                let e = self.entry(key, |v| matches!(v, Value::Str(_)), || Value::Str(b"0".to_vec()))?;
                let Value::Str(s) = &mut e.value else { unreachable!() };
                let sum = redis_int(s).ok_or_else(Refused::not_an_integer)?.checked_add(*n).ok_or_else(Refused::not_an_integer)?;
                *s = sum.to_string().into_bytes();
            }
            Effect::PExpire(ms) => self.expire_at(key, now + ms, now),
            Effect::PExpireAt(at) => self.expire_at(key, *at, now),
            Effect::HIncrBy(field, n) => {
                let e = self.entry(key, |v| matches!(v, Value::Hash(_)), || Value::Hash(HashMap::new()))?;
                let Value::Hash(h) = &mut e.value else { unreachable!() };
                let old = h.get(field).map_or(Some(0), |v| redis_int(v)).ok_or_else(Refused::hash_not_an_integer)?;
                h.insert(field.clone(), old.checked_add(*n).ok_or_else(Refused::hash_not_an_integer)?.to_string().into_bytes());
            }
            Effect::HDel(fields) => {
                if let Some(Value::Hash(h)) = self.keys.get_mut(key).map(|e| &mut e.value) {
                    for f in fields {
                        h.remove(f);
                    }
                    if h.is_empty() {
                        self.keys.remove(key);
                    }
                }
            }
            Effect::ZAdd(members) => {
                let e = self.entry(key, |v| matches!(v, Value::Zset(_)), || Value::Zset(Zset::default()))?;
                let Value::Zset(z) = &mut e.value else { unreachable!() };
                for (score, member) in members {
                    z.add(*score, member.clone());
                }
            }
            Effect::ZIncrBy(by, member) => {
                let e = self.entry(key, |v| matches!(v, Value::Zset(_)), || Value::Zset(Zset::default()))?;
                let Value::Zset(z) = &mut e.value else { unreachable!() };
                let score = z.scores.get(member).copied().unwrap_or(0.0) + by;
                z.add(score, member.clone());
            }
            Effect::ZRemRangeByScore(min, max) => {
                if let Some(Value::Zset(z)) = self.keys.get_mut(key).map(|e| &mut e.value) {
                    let gone: Vec<(Score, Vec<u8>)> = z.order.iter().filter(|(s, _)| s.0 >= *min && s.0 <= *max).cloned().collect();
                    for (s, m) in gone {
                        z.order.remove(&(s, m.clone()));
                        z.scores.remove(&m);
                    }
                    if z.is_empty() {
                        self.keys.remove(key);
                    }
                }
            }
            Effect::Del => {
                self.keys.remove(key);
            }
            Effect::ZRemTop(n) => {
                if let Some(Value::Zset(z)) = self.keys.get_mut(key).map(|e| &mut e.value) {
                    for _ in 0..*n {
                        match z.order.pop_last() {
                            Some((_, m)) => z.scores.remove(&m),
                            None => break,
                        };
                    }
                    if z.is_empty() {
                        self.keys.remove(key);
                    }
                }
            }
        }
        Ok(())
    }

    /// SET (with PX: `expires_at`): a decision's state replaced in place
    /// when the key is there (one lookup, no new key allocated).
    fn set(&mut self, key: &[u8], v: &[u8], expires_at: Option<i64>) {
        match self.keys.get_mut(key) {
            Some(e) => {
                match &mut e.value {
                    Value::Str(s) => {
                        s.clear();
                        s.extend_from_slice(v);
                    }
                    other => *other = Value::Str(v.to_vec()),
                }
                e.expires_at = expires_at;
            }
            None => {
                self.keys.insert(key.to_vec(), Entry { value: Value::Str(v.to_vec()), expires_at });
            }
        }
    }

    /// PEXPIRE/PEXPIREAT: an instant already reached deletes the key (as
    /// Redis does for one that is not in the future).
    fn expire_at(&mut self, key: &[u8], at: i64, now: i64) {
        if at <= now {
            self.keys.remove(key);
        } else if let Some(e) = self.keys.get_mut(key) {
            e.expires_at = Some(at);
        }
    }
}

impl Keyspace for Store {
    fn view<'a>(&'a self, key: &'a [u8]) -> Box<dyn View + 'a> {
        // One lookup at one instant for all a decision reads of the key.
        let now = self.now_ms();
        let live = self.live_at(key, now);
        Box::new(KeyView { value: live.map(|e| &e.value), pttl: pttl_at(live, now), expires_at: live.map(|e| e.expires_at) })
    }

    fn apply(&mut self, key: &[u8], effects: &[Effect]) -> Result<(), Refused> {
        for effect in effects {
            self.apply_one(key, effect)?;
        }
        if self.keys.len() > 2 * self.swept_at_len + 1024 {
            self.sweep();
        }
        Ok(())
    }

    fn now_us(&self) -> f64 {
        (self.clock)() as f64
    }
}

/// One key of a `Store`, as a decision reads it.
struct KeyView<'a> {
    value: Option<&'a Value>,
    pttl: i64,
    /// `None`: missing; `Some(None)`: no expiry.
    expires_at: Option<Option<i64>>,
}

impl KeyView<'_> {
    fn zset(&self) -> Read<Option<&Zset>> {
        match self.value {
            None => Ok(None),
            Some(Value::Zset(z)) => Ok(Some(z)),
            Some(_) => Err(Refused::wrong_type()),
        }
    }
}

impl View for KeyView<'_> {
    fn get(&self) -> Read<Option<Vec<u8>>> {
        match self.value {
            None => Ok(None),
            Some(Value::Str(s)) => Ok(Some(s.clone())),
            Some(_) => Err(Refused::wrong_type()),
        }
    }

    fn pttl_ms(&self) -> i64 {
        self.pttl
    }

    fn expiry_at_ms(&self) -> i64 {
        match self.expires_at {
            None => -2,
            Some(None) => -1,
            Some(Some(at)) => at,
        }
    }

    fn hgetall(&self) -> Read<Vec<(Vec<u8>, Vec<u8>)>> {
        match self.value {
            None => Ok(Vec::new()),
            Some(Value::Hash(h)) => Ok(h.iter().map(|(k, v)| (k.clone(), v.clone())).collect()),
            Some(_) => Err(Refused::wrong_type()),
        }
    }

    fn zcount_above(&self, edge: f64) -> Read<i64> {
        Ok(self.zset()?.map_or(0, |z| z.above(edge).count() as i64))
    }

    fn zmax_score(&self) -> Read<Option<f64>> {
        Ok(self.zset()?.and_then(|z| z.order.last().map(|(s, _)| s.0)))
    }

    fn znth_score_above(&self, edge: f64, offset: i64) -> Read<Option<f64>> {
        Ok(self.zset()?.and_then(|z| z.above(edge).nth(offset.max(0) as usize)))
    }

    fn zscore(&self, member: &[u8]) -> Read<Option<f64>> {
        Ok(self.zset()?.and_then(|z| z.scores.get(member).copied()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::sync::atomic::{AtomicI64, Ordering};

    static NOW_US: AtomicI64 = AtomicI64::new(1_000_000_000);
    fn clock() -> i64 {
        NOW_US.load(Ordering::Relaxed)
    }
    fn advance(us: i64) {
        NOW_US.fetch_add(us, Ordering::Relaxed);
    }

    #[test]
    fn keys_expire_on_the_clock_and_are_swept() {
        let mut s = Store::with_clock(clock);
        s.apply(b"k", &[Effect::SetPx(b"v".to_vec(), 10)]).unwrap();
        assert_eq!((s.pttl(b"k"), s.value(b"k")), (10, Some(&Value::Str(b"v".to_vec()))));
        advance(11_000);
        assert_eq!((s.pttl(b"k"), s.value(b"k")), (-2, None));
        for i in 0..3000u32 {
            s.apply(&i.to_le_bytes(), &[Effect::SetPx(vec![], 1)]).unwrap();
        }
        advance(2_000);
        assert_eq!(s.len(), 0, "a sweep drops every expired key");
    }

    #[test]
    fn a_key_lives_through_the_millisecond_of_its_expiry() {
        // Found by fuzz/core_arithmetic: a 1 ms log written at x.730 ms was
        // gone at (x+1).000 ms, and took a third unit of a limit of 2
        // within 730 µs. Redis keeps such a key until (x+1).999 ms.
        static NOW: AtomicI64 = AtomicI64::new(5_000_730);
        let mut s = Store::with_clock(|| NOW.load(Ordering::Relaxed));
        s.apply(b"k", &[Effect::SetPx(b"v".to_vec(), 1)]).unwrap();
        NOW.fetch_add(270, Ordering::Relaxed);
        assert_eq!((s.pttl(b"k"), s.value(b"k")), (0, Some(&Value::Str(b"v".to_vec()))), "its last millisecond");
        NOW.fetch_add(1000, Ordering::Relaxed);
        assert_eq!((s.pttl(b"k"), s.value(b"k")), (-2, None), "the millisecond after");
        s.apply(b"k", &[Effect::SetPx(b"v".to_vec(), 5), Effect::PExpireAt(NOW.load(Ordering::Relaxed).div_euclid(1000))]).unwrap();
        assert_eq!(s.value(b"k"), None, "an expiry at the current millisecond deletes, as PEXPIREAT does");
    }

    #[test]
    fn writes_keep_redis_types_and_integer_rules() {
        let mut s = Store::with_clock(clock);
        s.apply(b"h", &[Effect::HIncrBy(b"1".to_vec(), 2), Effect::HIncrBy(b"1".to_vec(), 3)]).unwrap();
        assert_eq!(s.value(b"h"), Some(&Value::Hash([(b"1".to_vec(), b"5".to_vec())].into_iter().collect())));
        assert_eq!(s.apply(b"h", &[Effect::IncrBy(1)]).unwrap_err(), Refused::wrong_type());
        s.insert(b"n", Value::Str(b"1.5".to_vec()));
        assert_eq!(s.apply(b"n", &[Effect::IncrBy(1)]).unwrap_err(), Refused::not_an_integer());
        s.apply(b"z", &[Effect::ZAdd(vec![(5.0, b"b".to_vec()), (5.0, b"a".to_vec()), (1.0, b"c".to_vec())]), Effect::ZIncrBy(-2.0, vec![])])
            .unwrap();
        let Some(Value::Zset(z)) = s.value(b"z") else { panic!() };
        let order: Vec<(&[u8], f64)> = z.entries().collect();
        assert_eq!(order, [(&b""[..], -2.0), (b"c", 1.0), (b"a", 5.0), (b"b", 5.0)], "by score, then by member");
        s.apply(b"z", &[Effect::ZRemRangeByScore(0.0, 5.0)]).unwrap();
        assert_eq!(s.value(b"z").map(|v| matches!(v, Value::Zset(z) if z.len() == 1)), Some(true));
        s.apply(b"z", &[Effect::PExpire(0)]).unwrap();
        assert_eq!(s.value(b"z"), None, "an expiry already passed deletes");
    }
}
