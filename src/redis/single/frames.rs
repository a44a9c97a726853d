//! Replies read off a stream of bytes that may hold several of them, or part
//! of one: where the first complete reply ends, and its value as redis-rs
//! gives it. The shared connection (`mux`) reads a batch of replies for many
//! callers in one `read()` and hands each its own, so it must know where one
//! reply ends without waiting for more bytes.
//!
//! RESP2 (what a connection speaks unless it sends `HELLO 3`, which ours never
//! do), and RESP3's types too, since they frame the same way. The common
//! replies of a decision (a bulk string, an integer, `+OK`, nil) are built
//! here; anything else (errors, arrays) is handed to redis-rs's own parser,
//! so an error reply or a nested one reads exactly as on a redis-rs connection.

use ::redis::{ErrorKind, RedisError, RedisResult, Value};

/// A reply that no Redis sends: the stream is out of step, the connection unusable.
fn garbage(why: &'static str) -> RedisError {
    RedisError::from((ErrorKind::Parse, "the server did not answer as Redis does", why.to_string()))
}

/// The end of the line starting at `at` (the index of its `\r`), if it is all there.
fn line_end(buf: &[u8], at: usize) -> Option<usize> {
    let mut i = at;
    while i + 1 < buf.len() {
        if buf[i] == b'\r' && buf[i + 1] == b'\n' {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// The signed decimal between `from` and `to` (a length or a count).
fn number(buf: &[u8], from: usize, to: usize) -> RedisResult<i64> {
    std::str::from_utf8(&buf[from..to]).ok().and_then(|s| s.parse().ok()).ok_or_else(|| garbage("a length that is not a number"))
}

/// How many bytes the first complete reply in `buf` takes; `None` while it is
/// not all there yet.
pub fn reply_len(buf: &[u8]) -> RedisResult<Option<usize>> {
    let mut at = 0;
    // Values still to read: an aggregate adds its elements as it is read, so
    // a nested reply needs no recursion (and no depth limit here; redis-rs's
    // parser has its own).
    let mut need: u64 = 1;
    while need > 0 {
        let Some(&kind) = buf.get(at) else { return Ok(None) };
        let Some(end) = line_end(buf, at + 1) else { return Ok(None) };
        need -= 1;
        let next = end + 2;
        match kind {
            // A line: simple string, error, integer; RESP3 null, boolean, double, big number.
            b'+' | b'-' | b':' | b'_' | b'#' | b',' | b'(' => at = next,
            // Bulk string (-1: nil); RESP3 verbatim string and bulk error.
            b'$' | b'=' | b'!' => {
                let len = number(buf, at + 1, end)?;
                if len < 0 {
                    at = next;
                    continue;
                }
                let stop = next.checked_add(len as usize).and_then(|s| s.checked_add(2)).ok_or_else(|| garbage("a length too large"))?;
                if buf.len() < stop {
                    return Ok(None);
                }
                if &buf[stop - 2..stop] != b"\r\n" {
                    return Err(garbage("a bulk string longer than its length"));
                }
                at = stop;
            }
            // Array (-1: nil); RESP3 set, push: n values. Map, attribute: 2n (an attribute also precedes one).
            b'*' | b'~' | b'>' | b'%' | b'|' => {
                let n = number(buf, at + 1, end)?;
                if n > 0 {
                    let n = n as u64;
                    need += match kind {
                        b'%' => n * 2,
                        b'|' => n * 2 + 1,
                        _ => n,
                    };
                }
                at = next;
            }
            _ => return Err(garbage("a reply of no known type")),
        }
    }
    Ok(Some(at))
}

/// The value of one complete reply (`reply_len` bytes). An error reply is a
/// `Value::ServerError`, as a redis-rs connection hands it over.
pub fn value(frame: &[u8]) -> RedisResult<Value> {
    let body = &frame[1..frame.len().saturating_sub(2).max(1)];
    match frame.first() {
        Some(b'$') => {
            let end = line_end(frame, 1).ok_or_else(|| garbage("a cut reply"))?;
            if number(frame, 1, end)? < 0 {
                return Ok(Value::Nil);
            }
            Ok(Value::BulkString(frame[end + 2..frame.len() - 2].to_vec()))
        }
        Some(b':') => Ok(Value::Int(number(frame, 1, 1 + body.len())?)),
        Some(b'+') if body == b"OK" => Ok(Value::Okay),
        Some(b'+') => Ok(Value::SimpleString(String::from_utf8_lossy(body).into_owned())),
        _ => ::redis::parse_redis_value(frame),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_ends_where_redis_ends_it() {
        assert_eq!(reply_len(b"+OK\r\n").unwrap(), Some(5));
        assert_eq!(reply_len(b":-12\r\n:3\r\n").unwrap(), Some(6));
        assert_eq!(reply_len(b"$3\r\nabc\r\n+OK\r\n").unwrap(), Some(9));
        assert_eq!(reply_len(b"$-1\r\n").unwrap(), Some(5));
        assert_eq!(reply_len(b"*-1\r\n").unwrap(), Some(5));
        assert_eq!(reply_len(b"*0\r\n").unwrap(), Some(4));
        // A bulk string may hold CR LF and anything else.
        assert_eq!(reply_len(b"$4\r\n\r\n\r\n\r\n").unwrap(), Some(10));
        let nested = b"*2\r\n*2\r\n$1\r\na\r\n:1\r\n-ERR no\r\n";
        assert_eq!(reply_len(nested).unwrap(), Some(nested.len()));
        assert_eq!(reply_len(b"%1\r\n+k\r\n:1\r\n").unwrap(), Some(12));
    }

    #[test]
    fn a_reply_not_all_there_waits_for_more() {
        let whole = b"*3\r\n$5\r\nhello\r\n:42\r\n*1\r\n+OK\r\n";
        for cut in 0..whole.len() {
            assert_eq!(reply_len(&whole[..cut]).unwrap(), None, "cut at {cut}");
        }
        assert_eq!(reply_len(whole).unwrap(), Some(whole.len()));
    }

    #[test]
    fn garbage_is_an_error_not_a_wait() {
        assert!(reply_len(b"?what\r\n").is_err());
        assert!(reply_len(b"$x\r\n").is_err());
        assert!(reply_len(b"$2\r\nabc\r\n").is_err());
    }

    #[test]
    fn values_are_what_redis_rs_reads() {
        for frame in [
            &b"+OK\r\n"[..],
            b"+PONG\r\n",
            b":-7\r\n",
            b"$0\r\n\r\n",
            b"$3\r\na\r\n\r\n",
            b"$-1\r\n",
            b"*2\r\n$1\r\na\r\n:1\r\n",
            b"-ERR unknown command\r\n",
            b"-WRONGTYPE Operation against a key\r\n",
        ] {
            assert_eq!(value(frame).unwrap(), ::redis::parse_redis_value(frame).unwrap(), "{}", String::from_utf8_lossy(frame));
        }
    }
}
