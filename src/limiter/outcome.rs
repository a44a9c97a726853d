//! One decision, and the answer `ratelimit.on_error` gives instead of one.

use crate::error::{Error, Result};

/// A decision, in the units of the policy. Times are whole microseconds, as
/// the scripts measure them; `RateLimitResult` shows them as float seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    pub allowed: bool,
    pub limit: i64,
    pub remaining: i64,
    /// Until this request's cost would fit; 0 when allowed.
    pub retry_after_us: i64,
    /// Until the key is back to its empty/full state.
    pub reset_after_us: i64,
    /// Leaky bucket: until this accepted request leaks out; else 0.
    pub delay_us: i64,
    /// Dry run: enforcing would have denied this request, which `allowed`
    /// accepts (the other fields are the real decision's). False otherwise.
    pub would_deny: bool,
    /// What decided it (`RateLimitResult::$source`).
    pub source: Source,
}

/// What decided an answer: `RateLimitResult::$source`, and what the metrics
/// count answers by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Source {
    /// Redis (the Lua library or the server module).
    #[default]
    Redis = 0,
    /// A `memory://` target.
    Memory = 1,
    /// The block cache (`ratelimit.block_cache`).
    Cache = 2,
    /// This process, for its share of the limit (`ratelimit.on_error = local`).
    Local = 3,
    /// `ratelimit.on_error = allow` or `deny`.
    OnError = 4,
    /// This process's lease (`withLease()`): units already taken in Redis.
    Lease = 5,
}

impl Source {
    /// Every source, in the order of their numbers.
    pub const ALL: [Source; 6] = [Source::Redis, Source::Memory, Source::Cache, Source::Local, Source::OnError, Source::Lease];

    /// As PHP reads it (`$result->source`).
    pub fn name(self) -> &'static str {
        match self {
            Source::Redis => "redis",
            Source::Memory => "memory",
            Source::Cache => "cache",
            Source::Local => "local",
            Source::OnError => "on_error",
            Source::Lease => "lease",
        }
    }

    pub fn parse(s: &str) -> Option<Source> {
        Source::ALL.into_iter().find(|x| x.name() == s)
    }
}

fn seconds(us: i64) -> f64 {
    us as f64 / 1e6
}

impl Outcome {
    /// Every script replies with integers (Redis truncates Lua numbers, and
    /// microseconds keep the precision), as few as the answer needs:
    /// `{remaining, reset_after_us}` allowed, `{remaining, reset_after_us, retry_after_us}`
    /// denied, `{remaining, reset_after_us, 0, delay_us}` allowed with a delay.
    pub fn from_reply(limit: i64, reply: &[i64]) -> Result<Outcome> {
        let (allowed, remaining, reset_us, retry_us, delay_us) = match *reply {
            [remaining, reset] => (true, remaining, reset, 0, 0),
            [remaining, reset, retry] => (false, remaining, reset, retry, 0),
            [remaining, reset, 0, delay] => (true, remaining, reset, 0, delay),
            _ => return Err(Error::Redis(format!("unexpected script reply {reply:?}"))),
        };
        Ok(Outcome {
            allowed,
            limit,
            remaining: remaining.clamp(0, limit),
            retry_after_us: retry_us.max(0),
            reset_after_us: reset_us.max(0),
            delay_us: delay_us.max(0),
            would_deny: false,
            source: Source::Redis,
        })
    }

    /// The answer `ratelimit.on_error` gives when Redis failed: `None` means throw.
    /// allow: as if nothing was used yet; deny: as if the policy were exhausted.
    pub fn on_error(policy: OnError, limit: i64) -> Option<Outcome> {
        let nothing = Outcome {
            allowed: true,
            limit,
            remaining: limit,
            retry_after_us: 0,
            reset_after_us: 0,
            delay_us: 0,
            would_deny: false,
            source: Source::OnError,
        };
        match policy {
            OnError::Throw | OnError::Local => None,
            OnError::Allow => Some(nothing),
            OnError::Deny => Some(Outcome { allowed: false, remaining: 0, retry_after_us: 1_000_000, reset_after_us: 1_000_000, ..nothing }),
        }
    }

    pub fn retry_after(&self) -> f64 {
        seconds(self.retry_after_us)
    }
    pub fn reset_after(&self) -> f64 {
        seconds(self.reset_after_us)
    }
    pub fn delay(&self) -> f64 {
        seconds(self.delay_us)
    }
}

/// What a call does when Redis fails (`ratelimit.on_error`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnError {
    Throw = 0,
    Allow = 1,
    Deny = 2,
    /// Decided in this process for a share of the limit (`limiter::decide::local`);
    /// when even that cannot answer, the failure is thrown.
    Local = 3,
}

impl OnError {
    pub fn parse(s: &str) -> Option<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "throw" => Some(OnError::Throw),
            "allow" => Some(OnError::Allow),
            "deny" => Some(OnError::Deny),
            "local" => Some(OnError::Local),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            OnError::Throw => "throw",
            OnError::Allow => "allow",
            OnError::Deny => "deny",
            OnError::Local => "local",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reply_keeps_microseconds_and_shows_seconds() {
        let o = Outcome::from_reply(10, &[7, 2_500_000, 0, 125_000]).unwrap();
        assert_eq!(
            o,
            Outcome {
                allowed: true,
                limit: 10,
                remaining: 7,
                retry_after_us: 0,
                reset_after_us: 2_500_000,
                delay_us: 125_000,
                would_deny: false,
                source: crate::limiter::Source::Redis
            }
        );
        assert_eq!((o.retry_after(), o.reset_after(), o.delay()), (0.0, 2.5, 0.125));
        let o = Outcome::from_reply(10, &[0, 60_000_000, 1_000]).unwrap();
        assert_eq!((o.allowed, o.retry_after(), o.reset_after(), o.delay()), (false, 0.001, 60.0, 0.0));
        let o = Outcome::from_reply(10, &[4, 9]).unwrap();
        assert_eq!((o.allowed, o.remaining, o.reset_after_us, o.retry_after_us), (true, 4, 9, 0));
    }

    #[test]
    fn reply_clamps_nonsense_and_rejects_wrong_shapes() {
        let o = Outcome::from_reply(10, &[11, -1]).unwrap();
        assert_eq!((o.remaining, o.reset_after_us, o.delay_us), (10, 0, 0));
        for bad in [&[][..], &[1], &[1, 2, 3, 4], &[1, 2, 3, 4, 5]] {
            assert!(matches!(Outcome::from_reply(10, bad), Err(Error::Redis(_))), "{bad:?}");
        }
    }

    #[test]
    fn on_error_policies() {
        assert_eq!(Outcome::on_error(OnError::Throw, 5), None);
        let allow = Outcome::on_error(OnError::Allow, 5).unwrap();
        assert_eq!((allow.allowed, allow.remaining, allow.retry_after()), (true, 5, 0.0));
        let deny = Outcome::on_error(OnError::Deny, 5).unwrap();
        assert_eq!((deny.allowed, deny.remaining, deny.retry_after(), deny.reset_after()), (false, 0, 1.0, 1.0));
    }

    #[test]
    fn on_error_accepts_the_four_policies_only() {
        assert_eq!(OnError::parse("throw"), Some(OnError::Throw));
        assert_eq!(OnError::parse("ALLOW"), Some(OnError::Allow));
        assert_eq!(OnError::parse(" deny "), Some(OnError::Deny));
        assert_eq!(OnError::parse("Local"), Some(OnError::Local));
        assert_eq!(OnError::parse("ignore"), None);
        assert_eq!(OnError::parse(""), None);
        assert_eq!(OnError::Deny.name(), "deny");
    }
}
