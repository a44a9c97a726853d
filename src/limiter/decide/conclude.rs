//! The last step of every decision: what the caller is answered, and what is
//! counted. A decision (or a block-cache answer, or a Redis failure) becomes
//! the call's answer:
//! - dry run (`ratelimit.dry_run`, `withDryRun()`): a denial is answered as
//!   accepted with `would_deny`, its numbers the real decision's; Redis
//!   holds what enforcing would have left (a denied request took nothing),
//!   since the decision itself was made as always;
//! - a Redis failure: the `on_error` answer (dry run applies to a deny answer
//!   too: a dry run never denies), or the failure when it says throw (or
//!   local, and this process could not decide either: `local::or_local`
//!   made its local answers before this);
//! - the counters (`ratelimit.metrics`): one event per consume, and the
//!   answer's source (`Source`); peeks pass no counters and are not counted.

use crate::error::{Error, Result};
use crate::limiter::outcome::{OnError, Outcome, Source};
use crate::metrics::{Counters, Event, Mode};

/// How the answers of one call are concluded.
#[derive(Clone, Copy)]
pub struct Conclude<'a> {
    pub dry_run: bool,
    pub on_error: OnError,
    pub limit: i64,
    /// The counters of a consume (`None`: a peek, or metrics off).
    pub counters: Option<&'a Counters>,
    /// `ratelimit.metrics`: with `redis`, what Redis did not count itself
    /// (block-cache answers, failures) is kept to be sent with a later call.
    pub metrics: Mode,
}

impl Conclude<'_> {
    /// Dry run's reading of a decision, and its event.
    fn read(&self, mut o: Outcome, cached: bool) -> (Outcome, Event) {
        let event = match (o.allowed, self.dry_run) {
            (true, _) => Event::Allowed,
            (false, false) => Event::Denied { cached },
            (false, true) => {
                o.allowed = true;
                o.would_deny = true;
                Event::WouldDeny { cached }
            }
        };
        (o, event)
    }

    /// The answer to one call. `cached`: the block cache answered.
    pub fn one(&self, decided: Result<Outcome>, cached: bool) -> Result<Outcome> {
        let (answer, event) = match decided {
            Ok(o) => {
                let o = if cached { Outcome { source: Source::Cache, ..o } } else { o };
                let (o, event) = self.read(o, cached);
                (Ok(o), event)
            }
            Err(Error::Redis(cause)) => match Outcome::on_error(self.on_error, self.limit) {
                Some(o) => (Ok(self.read(o, false).0), Event::Failed { answered: true }),
                None => (Err(Error::Redis(cause)), Event::Failed { answered: false }),
            },
            // Not a decision (bad arguments): nothing to count.
            Err(e) => return Err(e),
        };
        if let Some(c) = self.counters {
            let source = answer.as_ref().ok().map(|o| o.source);
            // What Redis did not decide, it did not count: a local answer is sent later too.
            let unsent = self.metrics == Mode::Redis
                && (source == Some(Source::Local)
                    || !matches!(event, Event::Allowed | Event::Denied { cached: false } | Event::WouldDeny { cached: false }));
            c.record(event, unsent);
            if let Some(source) = source {
                c.record_source(source as usize);
            }
        }
        answer
    }

    /// `one` for a batch of `n` calls: each call's own failure is concluded
    /// alone; a failed round trip fails every call. With throw, the first
    /// failure is the batch's error (every call is counted first).
    pub fn batch(&self, decided: Result<Vec<Result<Outcome>>>, n: usize) -> Result<Vec<Outcome>> {
        let each: Vec<Result<Outcome>> = match decided {
            Ok(each) => each.into_iter().map(|r| self.one(r, false)).collect(),
            Err(Error::Redis(cause)) => (0..n).map(|_| self.one(Err(Error::Redis(cause.clone())), false)).collect(),
            Err(e) => return Err(e),
        };
        each.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn denied() -> Outcome {
        Outcome {
            allowed: false,
            limit: 5,
            remaining: 0,
            retry_after_us: 2_000_000,
            reset_after_us: 3_000_000,
            delay_us: 0,
            would_deny: false,
            source: crate::limiter::Source::Redis,
        }
    }

    fn conclude(dry_run: bool, on_error: OnError) -> Conclude<'static> {
        Conclude { dry_run, on_error, limit: 5, counters: None, metrics: Mode::Off }
    }

    #[test]
    fn a_dry_run_accepts_what_it_would_deny_with_the_real_numbers() {
        let o = conclude(true, OnError::Throw).one(Ok(denied()), false).unwrap();
        assert_eq!(o, Outcome { allowed: true, would_deny: true, ..denied() });
        assert_eq!(conclude(false, OnError::Throw).one(Ok(denied()), false).unwrap(), denied());
        let deny = conclude(true, OnError::Deny).one(Err(Error::Redis("down".into())), false).unwrap();
        assert!(deny.allowed && deny.would_deny, "on_error=deny in a dry run: never a denial");
        assert!(conclude(true, OnError::Throw).one(Err(Error::Redis("down".into())), false).is_err(), "a failure still throws");
    }

    #[test]
    fn failures_are_answered_by_the_policy() {
        let down = || Err(Error::Redis("down".into()));
        let ok = Outcome::on_error(OnError::Allow, 5).unwrap();
        assert_eq!(conclude(false, OnError::Throw).one(Ok(ok), false), Ok(ok));
        assert_eq!(conclude(false, OnError::Throw).one(down(), false), down());
        assert!(!conclude(false, OnError::Deny).one(down(), false).unwrap().allowed);
        let bad = Err(Error::value("cost", "must be"));
        assert_eq!(conclude(false, OnError::Allow).one(bad.clone(), false), bad);
        assert_eq!(conclude(false, OnError::Allow).batch(Ok(vec![Ok(ok), down()]), 2).unwrap().len(), 2);
        assert_eq!(conclude(false, OnError::Throw).batch(Ok(vec![Ok(ok), down()]), 2), Err(Error::Redis("down".into())));
        assert_eq!(conclude(false, OnError::Deny).batch(Err(Error::Redis("down".into())), 3).unwrap().len(), 3);
    }

    #[test]
    fn events_are_counted_and_what_redis_lacks_is_kept() {
        let c = crate::metrics::counters(b"conclude-test");
        let redis = Conclude { counters: Some(&c), metrics: Mode::Redis, ..conclude(true, OnError::Allow) };
        redis.one(Ok(denied()), true).unwrap();
        redis.one(Ok(denied()), false).unwrap();
        redis.one(Ok(Outcome { allowed: true, ..denied() }), false).unwrap();
        redis.batch(Err(Error::Redis("down".into())), 2).unwrap();
        assert!(redis.one(Err(Error::value("cost", "bad")), false).is_err());
        assert_eq!(c.snapshot(), [1, 0, 2, 2, 2, 1], "allowed, denied, would_deny, errors, on_error, block_cache");
        assert_eq!(c.take_unsent(), [0, 1, 2, 2, 1], "the cached would-deny and the failures; Redis counted the rest");
    }
}
