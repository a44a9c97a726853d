//! Writes Redis commands in RESP straight into a reused buffer, so a decision
//! costs no allocation and no formatting machinery on the client side.

/// `*n\r\n`: a command of `n` parts follows.
pub fn array(buf: &mut Vec<u8>, n: usize) {
    buf.push(b'*');
    int_digits(buf, n as i64);
    buf.extend_from_slice(b"\r\n");
}

/// One part of a command: `$len\r\nbytes\r\n`.
pub fn bulk(buf: &mut Vec<u8>, bytes: &[u8]) {
    buf.push(b'$');
    int_digits(buf, bytes.len() as i64);
    buf.extend_from_slice(b"\r\n");
    buf.extend_from_slice(bytes);
    buf.extend_from_slice(b"\r\n");
}

/// One part made of several byte strings back to back (a name and its prefix).
pub fn bulk_parts(buf: &mut Vec<u8>, parts: &[&[u8]]) {
    buf.push(b'$');
    int_digits(buf, parts.iter().map(|p| p.len()).sum::<usize>() as i64);
    buf.extend_from_slice(b"\r\n");
    for p in parts {
        buf.extend_from_slice(p);
    }
    buf.extend_from_slice(b"\r\n");
}

/// The parts of one command this module wrote (`*n` then `$len` bulks),
/// for a client that takes parts rather than bytes (the cluster's routing).
pub fn parts(packed: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut rest = packed;
    let line = |r: &[u8]| -> Option<(usize, usize)> {
        let end = r.windows(2).position(|w| w == b"\r\n")?;
        Some((std::str::from_utf8(&r[1..end]).ok()?.parse().ok()?, end + 2))
    };
    let Some((n, skip)) = line(rest).filter(|_| rest.first() == Some(&b'*')) else { return out };
    rest = &rest[skip..];
    for _ in 0..n {
        let Some((len, skip)) = line(rest).filter(|_| rest.first() == Some(&b'$')) else { break };
        out.push(&rest[skip..skip + len]);
        rest = &rest[skip + len + 2..];
    }
    out
}

/// An integer part, in decimal as Redis reads it.
pub fn bulk_int(buf: &mut Vec<u8>, n: i64) {
    let mut digits = [0u8; 20];
    let len = digits_into(&mut digits, n.unsigned_abs());
    let neg = (n < 0) as usize;
    buf.push(b'$');
    int_digits(buf, (len + neg) as i64);
    buf.extend_from_slice(b"\r\n");
    if n < 0 {
        buf.push(b'-');
    }
    buf.extend_from_slice(&digits[20 - len..]);
    buf.extend_from_slice(b"\r\n");
}

/// Writes the decimal digits of `v` at the end of `tmp`; their count.
fn digits_into(tmp: &mut [u8; 20], mut v: u64) -> usize {
    let mut i = tmp.len();
    loop {
        i -= 1;
        tmp[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            return tmp.len() - i;
        }
    }
}

fn int_digits(buf: &mut Vec<u8>, n: i64) {
    let mut tmp = [0u8; 20];
    let len = digits_into(&mut tmp, n.unsigned_abs());
    if n < 0 {
        buf.push(b'-');
    }
    buf.extend_from_slice(&tmp[20 - len..]);
}

/// Several parts, each already a `bulk`: for arguments encoded once and sent on every call.
pub fn encode_all(parts: &[Vec<u8>]) -> Vec<u8> {
    let mut buf = Vec::new();
    for p in parts {
        bulk(&mut buf, p);
    }
    buf
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_reads_back_what_was_written() {
        let mut buf = Vec::new();
        array(&mut buf, 4);
        bulk(&mut buf, b"RATELIMIT.TAKE");
        bulk_int(&mut buf, 1);
        bulk(&mut buf, b"a\r\n$3\r\n{k}");
        bulk(&mut buf, b"");
        assert_eq!(parts(&buf), vec![b"RATELIMIT.TAKE".as_slice(), b"1", b"a\r\n$3\r\n{k}", b""]);
    }

    #[test]
    fn commands_are_resp() {
        let mut buf = Vec::new();
        array(&mut buf, 3);
        bulk(&mut buf, b"INCRBY");
        bulk(&mut buf, b"k\0{}");
        bulk_int(&mut buf, -120);
        assert_eq!(buf, b"*3\r\n$6\r\nINCRBY\r\n$4\r\nk\0{}\r\n$4\r\n-120\r\n");
        let mut buf = Vec::new();
        bulk_int(&mut buf, 0);
        bulk_int(&mut buf, i64::MIN);
        assert_eq!(buf, b"$1\r\n0\r\n$20\r\n-9223372036854775808\r\n");
        let mut buf = Vec::new();
        bulk_parts(&mut buf, &[b"ratelimit_", b"take"]);
        assert_eq!(buf, b"$14\r\nratelimit_take\r\n");
        assert_eq!(encode_all(&[b"1".to_vec(), b"".to_vec()]), b"$1\r\n1\r\n$0\r\n\r\n");
    }
}
