//! Numbers as the Lua library reads and writes them: Lua's `tonumber` on a
//! stored value or an argument, `string.format('%d', n)` for what it passes
//! to Redis, and Redis's own integer rule (INCRBY, HINCRBY).

/// Lua 5.1's `tonumber(s)` for the decimal text Redis values hold: optional
/// surrounding whitespace, then what C's `strtod` reads whole (a sign,
/// digits, a fraction, an exponent, `inf`, `nan`), or a hex integer `0x…`.
/// `None` where Lua answers nil. Text with a NUL byte is refused (Lua would
/// read up to it; the library never writes one).
pub fn lua_tonumber(s: &[u8]) -> Option<f64> {
    // The common case, plain digits (every argument and counter the
    // library writes): exact below 2^53, read without the float parser.
    if !s.is_empty() && s.len() <= 15 && s.iter().all(u8::is_ascii_digit) {
        return Some(s.iter().fold(0u64, |n, d| n * 10 + u64::from(d - b'0')) as f64);
    }
    let text = std::str::from_utf8(s).ok()?;
    let t = text.trim_matches(|c: char| matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r'));
    if t.is_empty() || t.contains('\0') {
        return None;
    }
    let (negative, digits) = match t.as_bytes()[0] {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    if let Some(hex) = digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        let v = u64::from_str_radix(hex, 16).ok()? as f64;
        return Some(if negative { -v } else { v });
    }
    // Rust's parser takes what strtod takes for decimal text, except a '+'
    // after the sign (handled above) and "nan(…)" forms.
    if digits.starts_with(['+', '-']) {
        return None;
    }
    let v: f64 = digits.parse().ok()?;
    Some(if negative { -v } else { v })
}

/// `string.format('%d', n)`: the integer part, as decimal text.
pub fn int_text(n: f64) -> Vec<u8> {
    (n as i64).to_string().into_bytes()
}

/// Redis's reading of a string as a 64-bit integer (INCRBY, HINCRBY): an
/// optional '-', digits without a leading zero (except "0"), nothing else.
pub fn redis_int(s: &[u8]) -> Option<i64> {
    let digits = s.strip_prefix(b"-").unwrap_or(s);
    if digits.is_empty() || s.len() > 20 || !digits.iter().all(u8::is_ascii_digit) || (digits[0] == b'0' && s.len() > 1) {
        return None;
    }
    std::str::from_utf8(s).ok()?.parse().ok()
}

/// A counter the library may have written (lua/library.lua's `is_counter`):
/// an integer as INCRBY and HINCRBY read one, below 2^53 in size, where
/// doubles count exactly. A check refuses anything else before any write,
/// so no INCRBY or HINCRBY fails after another write of the same call.
pub fn counter(s: &[u8]) -> Option<f64> {
    redis_int(s).filter(|n| n.unsigned_abs() < 1 << 53).map(|n| n as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lua_reads_numbers_as_strtod_does() {
        for (text, want) in [
            ("5", Some(5.0)),
            (" 5\n", Some(5.0)),
            ("-2.5", Some(-2.5)),
            ("1e3", Some(1000.0)),
            ("0x10", Some(16.0)),
            ("0.001", Some(0.001)),
            ("", None),
            ("5x", None),
            ("--5", None),
            ("+-5", None),
        ] {
            assert_eq!(lua_tonumber(text.as_bytes()), want, "{text:?}");
        }
        assert!(lua_tonumber(b"nan").unwrap().is_nan());
        assert_eq!(lua_tonumber(b"inf"), Some(f64::INFINITY));
    }

    #[test]
    fn redis_reads_integers_strictly() {
        assert_eq!(redis_int(b"42"), Some(42));
        assert_eq!(redis_int(b"-7"), Some(-7));
        assert_eq!(redis_int(b"0"), Some(0));
        for bad in [&b""[..], b"-", b"007", b"+1", b" 1", b"1.5", b"99999999999999999999"] {
            assert_eq!(redis_int(bad), None, "{:?}", String::from_utf8_lossy(bad));
        }
        assert_eq!(int_text(1_700_000_000_000_123.0), b"1700000000000123".to_vec());
    }
}
