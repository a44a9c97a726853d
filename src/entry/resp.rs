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

/// `n` in decimal, no more.
pub(super) fn int_digits(buf: &mut Vec<u8>, n: i64) {
    let mut tmp = [0u8; 20];
    let len = digits_into(&mut tmp, n.unsigned_abs());
    if n < 0 {
        buf.push(b'-');
    }
    buf.extend_from_slice(&tmp[20 - len..]);
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
