//! The one time bound: a call's replies are waited for until its deadline,
//! in all, whatever the number of round trips or redirections in between
//! (`Deadline`: its `ratelimit.timeout` from its start, plus the time spent
//! opening a connection when it opened one), and the two timeouts a call
//! is given (`Timeouts`, from the ini settings or the connection argument).

use std::io;
use std::time::{Duration, Instant};

use ::redis::RedisError;

/// Connection and reply timeouts for one call, from the ini settings or the
/// connection argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    pub connect: Duration,
    pub reply: Duration,
}

/// When a call must have its replies.
#[derive(Clone, Copy, Debug)]
pub struct Deadline(Instant);

impl Deadline {
    /// `reply` from now: the call's `ratelimit.timeout`.
    pub fn after(reply: Duration) -> Deadline {
        Deadline(Instant::now() + reply)
    }

    /// Later by `d`: the time a connection took to open (the bound is the
    /// reply timeout plus the connect timeout when a call opens one).
    pub fn extend(&mut self, d: Duration) {
        self.0 += d;
    }

    pub fn instant(&self) -> Instant {
        self.0
    }

    /// The time left; zero once passed.
    pub fn left(&self) -> Duration {
        self.0.saturating_duration_since(Instant::now())
    }

    /// The timeout error of a call with no time left for another round trip.
    pub fn passed() -> RedisError {
        io::Error::new(io::ErrorKind::TimedOut, "no reply within the timeout").into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_counts_down_and_can_be_extended() {
        let mut d = Deadline::after(Duration::from_millis(50));
        assert!(d.left() <= Duration::from_millis(50));
        d.extend(Duration::from_secs(10));
        assert!(d.left() > Duration::from_secs(9));
        assert!(Deadline::after(Duration::ZERO).left().is_zero());
        assert!(Deadline::passed().is_timeout());
    }
}
