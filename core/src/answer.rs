//! A decision's answer and the bytes the Lua library replies with
//! (lua/entries.lua): little-endian doubles, every number an integer below
//! 2^53. The module replies with the same bytes, so one client decoder
//! reads both.
//!   allowed                {remaining, reset_after_us}
//!   denied                 {remaining, reset_after_us, retry_after_us >= 1}
//!   allowed with a delay   {remaining, reset_after_us, 0, delay_us} (leaky bucket)

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Answer {
    pub remaining: f64,
    pub reset_us: f64,
    /// `None` when the cost fits; else at least 1.
    pub retry_us: Option<f64>,
    /// The leaky bucket's wait for an accepted request; else 0.
    pub delay_us: f64,
}

impl Answer {
    /// A retry below 1 µs is 1: a denial always says to wait.
    pub fn new(remaining: f64, reset_us: f64, retry_us: Option<f64>, delay_us: f64) -> Self {
        Answer { remaining, reset_us, retry_us: retry_us.map(|r| r.max(1.0)), delay_us }
    }

    pub fn allowed(&self) -> bool {
        self.retry_us.is_none()
    }

    /// The reply of `take`/`peek`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        let parts: &[f64] = match self.retry_us {
            Some(retry) => &[self.remaining, self.reset_us, retry],
            None if self.delay_us > 0.0 => &[self.remaining, self.reset_us, 0.0, self.delay_us],
            None => &[self.remaining, self.reset_us],
        };
        doubles(out, parts);
    }

    /// A batch record (`take_many`'s, and each member's in a compound's
    /// reply): always 4 doubles {remaining, reset, retry or 0, delay}.
    pub fn write_record(&self, out: &mut Vec<u8>) {
        doubles(out, &[self.remaining, self.reset_us, self.retry_us.unwrap_or(0.0), self.delay_us]);
    }
}

pub fn doubles(out: &mut Vec<u8>, xs: &[f64]) {
    for x in xs {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

/// A batch reply: per key a record, a failed key's {-1, byte length of its
/// error, 0, 0}; then the failed keys' error texts, in order.
pub fn batch_reply(answers: &[Result<Answer, crate::Refused>]) -> Vec<u8> {
    records_reply(answers, |a, out| a.write_record(out))
}

fn records_reply<T>(results: &[Result<T, crate::Refused>], record: impl Fn(&T, &mut Vec<u8>)) -> Vec<u8> {
    let mut out = Vec::with_capacity(32 * results.len());
    let mut errors = Vec::new();
    for a in results {
        match a {
            Ok(a) => record(a, &mut out),
            Err(e) => {
                doubles(&mut out, &[-1.0, e.0.len() as f64, 0.0, 0.0]);
                errors.extend_from_slice(e.0.as_bytes());
            }
        }
    }
    out.extend_from_slice(&errors);
    out
}
