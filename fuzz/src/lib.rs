//! What the fuzz targets share: reading an input one choice at a time,
//! numbers at every bound the code checks, and the checks every reply of
//! the library and the module must pass.

/// Whether to print what each step does (RATELIMIT_FUZZ_SHOW=1, when
/// running one input to see what a finding is).
pub fn show() -> bool {
    std::env::var_os("RATELIMIT_FUZZ_SHOW").is_some()
}

/// An input read one choice at a time; past its end every choice is 0, so
/// any input is a complete one and a longer one only chooses more.
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data }
    }

    pub fn next(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    /// Up to `n` bytes as they are.
    pub fn slice(&mut self, n: usize) -> &'a [u8] {
        let (taken, rest) = self.data.split_at(n.min(self.data.len()));
        self.data = rest;
        taken
    }

    /// A byte string of at most `max` bytes (its length chosen first).
    pub fn short(&mut self, max: usize) -> &'a [u8] {
        let n = self.next() as usize % (max + 1);
        self.slice(n)
    }

    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.next(), self.next(), self.next(), self.next()])
    }

    pub fn u64(&mut self) -> u64 {
        u64::from(self.u32()) | (u64::from(self.u32()) << 32)
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
}

/// Numbers as decimal text at and around every bound the commands and the
/// algorithms check (counts to 2^40, durations to 10 years in ms and µs,
/// slices of 1 ms, 2^52 and 2^53), and text Lua reads as a number where
/// Redis does not read an integer.
pub const NUMBERS: [&[u8]; 40] = [
    b"0",
    b"1",
    b"2",
    b"3",
    b"5",
    b"10",
    b"12",
    b"100",
    b"999",
    b"1000",
    b"1001",
    b"60000",
    b"100000",
    b"333333",
    b"1000000",
    b"60000000",
    b"-1",
    b"-5",
    b"1.5",
    b"0.5",
    b"0.001",
    b"1e-7",
    b" 5",
    b"05",
    b"1e3",
    b"0x10",
    b"+3",
    b"-0",
    b"1099511627776",
    b"1099511627777",
    b"315360000",
    b"315360000000",
    b"315360000000000",
    b"315360000000001",
    b"4503599627370496",
    b"9007199254740993",
    b"-9007199254740993",
    b"1e308",
    b"inf",
    b"nan",
];

/// The checks of reply bytes (lua/entries.lua's formats). Their shape is
/// checked always; their numbers (`numbers` true) where the keys hold what
/// the library wrote: then every number is what the extension's decoder
/// takes (src/redis/script.rs: a finite whole double), below 2^53 as
/// answer.rs promises, remaining and times never negative, a denial's
/// retry at least 1 µs. (A value another program left, that no check
/// refuses, may give any number: the decoder refuses what it cannot read.)
pub mod replies {
    /// One decoded answer.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct Answer {
        pub remaining: f64,
        pub reset: f64,
        pub retry: f64,
        pub delay: f64,
        pub allowed: bool,
    }

    pub fn doubles(reply: &[u8]) -> Vec<f64> {
        assert!(reply.len() % 8 == 0, "a reply of {} bytes", reply.len());
        reply.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().unwrap())).collect()
    }

    fn whole(xs: &[f64], reply: &[u8]) {
        for x in xs {
            assert!(x.is_finite() && x.fract() == 0.0 && x.abs() < 9_007_199_254_740_992.0, "not a whole double below 2^53: {x} in {reply:?}");
        }
    }

    fn read(xs: &[f64], reply: &[u8], numbers: bool) -> Answer {
        let a = match *xs {
            [remaining, reset] => Answer { remaining, reset, retry: 0.0, delay: 0.0, allowed: true },
            [remaining, reset, retry] => Answer { remaining, reset, retry, delay: 0.0, allowed: false },
            [remaining, reset, 0.0, delay] if delay > 0.0 => Answer { remaining, reset, retry: 0.0, delay, allowed: true },
            _ => panic!("not an answer: {xs:?}"),
        };
        if numbers {
            whole(xs, reply);
            assert!(a.remaining >= 0.0 && a.reset >= 0.0, "negative remaining or reset: {xs:?}");
            assert!(a.allowed || a.retry >= 1.0, "a denial without a retry: {xs:?}");
        }
        a
    }

    /// take's and peek's reply: {remaining, reset}, {remaining, reset,
    /// retry >= 1} or {remaining, reset, 0, delay > 0}.
    pub fn answer(reply: &[u8], numbers: bool) -> Answer {
        read(&doubles(reply), reply, numbers)
    }

    /// A compound's reply: every member's answer as a batch record
    /// {remaining, reset, retry or 0, delay}, in member order (never an error
    /// record: a refused compound replies an error).
    pub fn compound(reply: &[u8], n: usize, numbers: bool) -> Vec<Answer> {
        assert_eq!(reply.len(), 32 * n, "{} bytes for a compound of {n}", reply.len());
        doubles(reply)
            .chunks_exact(4)
            .map(|r| match *r {
                [_, _, 0.0, 0.0] => read(&r[..2], reply, numbers),
                [_, _, 0.0, _] => read(r, reply, numbers),
                [_, _, _, delay] => {
                    assert!(!numbers || delay == 0.0, "a member both denied and delayed: {r:?}");
                    read(&r[..3], reply, numbers)
                }
                _ => unreachable!("chunks of 4"),
            })
            .collect()
    }

    /// A batch's records, then its error texts: per key whether it failed.
    /// `hits`: hit_many's records {ms left, count, 0, 0}, whose count goes
    /// on from whatever integer the key held (a negative one too).
    pub fn records(reply: &[u8], n: usize, hits: bool, numbers: bool) -> Vec<bool> {
        assert!(reply.len() >= 32 * n, "{} bytes for {n} records", reply.len());
        let xs = doubles(&reply[..32 * n]);
        let mut texts = 0usize;
        let failed = xs
            .chunks_exact(4)
            .map(|r| {
                if r[0] == -1.0 {
                    assert!(r[1] >= 1.0 && r[1].fract() == 0.0 && r[2] == 0.0 && r[3] == 0.0, "an error record that is not one: {r:?}");
                    texts += r[1] as usize;
                    return true;
                }
                if numbers {
                    whole(r, reply);
                    let signed = if hits { &r[..1] } else { r };
                    assert!(signed.iter().all(|&x| x >= 0.0), "a negative number in a record: {r:?}");
                    assert!(r[2] == 0.0 || r[3] == 0.0, "a record both denied and delayed: {r:?}");
                }
                false
            })
            .collect();
        assert_eq!(reply.len(), 32 * n + texts, "records and error texts do not add up");
        failed
    }
}
