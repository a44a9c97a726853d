//! What a decision writes to its key, in order: the commands the Lua library
//! calls, as data. An executor applies them to its keyspace (the module also
//! replicates them, with their expiries as instants); the state they leave is
//! what the Lua code leaves.

#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// SET key value PX ms (replaces any value and expiry).
    SetPx(Vec<u8>, i64),
    /// SET key value, keeping no expiry (followed by `PExpireAt`).
    Set(Vec<u8>),
    /// INCRBY key n (the value is known to be an integer when emitted).
    IncrBy(i64),
    /// PEXPIRE key ms.
    PExpire(i64),
    /// PEXPIREAT key instant-ms (injected clocks only).
    PExpireAt(i64),
    /// HINCRBY key field n.
    HIncrBy(Vec<u8>, i64),
    /// HDEL key field….
    HDel(Vec<Vec<u8>>),
    /// ZADD key score member… (scores are integers below 2^53).
    ZAdd(Vec<(f64, Vec<u8>)>),
    /// ZINCRBY key n member.
    ZIncrBy(f64, Vec<u8>),
    /// ZREMRANGEBYSCORE key min max (both inclusive).
    ZRemRangeByScore(f64, f64),
    /// ZREMRANGEBYRANK key -n -1: the n highest-ranked members (a log's
    /// newest entries, which a refund gives back).
    ZRemTop(i64),
    /// DEL key: a refund that leaves the empty/full state, which a missing key says.
    Del,
}
