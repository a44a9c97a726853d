//! What a decision may read of its key: the reads the Lua library makes
//! (GET, PTTL, PEXPIRETIME, HGETALL, and the sorted-set reads of the sliding
//! log), answered by an executor from its own keyspace. A read of a key that
//! holds another type is refused as Redis refuses it (WRONGTYPE).

/// An error reply, worded as Redis or the Lua library words it, so every
/// executor fails a call with the same text ("WRONGTYPE …", "ERR ratelimit: …").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused(pub String);

impl Refused {
    pub fn wrong_type() -> Self {
        Refused("WRONGTYPE Operation against a key holding the wrong kind of value".into())
    }

    /// The library's refusal of a value it never writes (library.lua's `refuse`).
    pub fn foreign(what: &str) -> Self {
        Refused(format!("ERR ratelimit: the key holds {what}"))
    }

    pub fn not_an_integer() -> Self {
        Refused("ERR value is not an integer or out of range".into())
    }

    pub fn hash_not_an_integer() -> Self {
        Refused("ERR hash value is not an integer".into())
    }
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub type Read<T> = Result<T, Refused>;

/// One key, as a decision reads it. Scores and times are f64 as Lua holds them.
pub trait View {
    /// GET: the string, `None` when the key is missing.
    fn get(&self) -> Read<Option<Vec<u8>>>;
    /// PTTL: ms left, -1 without expiry, -2 missing.
    fn pttl_ms(&self) -> i64;
    /// PEXPIRETIME: the expiry as an instant in ms, -1 without expiry, -2 missing.
    /// Read only with an injected clock (tests).
    fn expiry_at_ms(&self) -> i64;
    /// HGETALL: field, value pairs (any order).
    fn hgetall(&self) -> Read<Vec<(Vec<u8>, Vec<u8>)>>;
    /// HGET: one field's value, `None` when the field or the key is missing
    /// (the decision counters' read, `metrics`; an executor may answer it
    /// without reading the whole hash).
    fn hget(&self, field: &[u8]) -> Read<Option<Vec<u8>>> {
        Ok(self.hgetall()?.into_iter().find(|(f, _)| f == field).map(|(_, v)| v))
    }
    /// ZCOUNT key (edge +inf: members scored above `edge`.
    fn zcount_above(&self, edge: f64) -> Read<i64>;
    /// The score of ZRANGE key -1 -1 WITHSCORES (the highest), `None` when empty.
    fn zmax_score(&self) -> Read<Option<f64>>;
    /// The score of ZRANGEBYSCORE key (edge +inf LIMIT offset 1.
    fn znth_score_above(&self, edge: f64, offset: i64) -> Read<Option<f64>>;
    /// ZSCORE.
    fn zscore(&self, member: &[u8]) -> Read<Option<f64>>;
}
