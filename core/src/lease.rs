//! Leases (the `adjust` entry's mode 3; lua/entries.lua's `lease` is the
//! twin): one atomic step that takes up to `want` units of a token bucket,
//! GCRA or a fixed window for a process to spend without a round trip each,
//! never more than is there. What is there is `check`'s remaining: a token
//! bucket's whole tokens, how many GCRA emission intervals fit in the
//! tolerance now, a fixed window's limit less its count. The size adapts: at
//! most a quarter of what is left (`LEASE_SHARE`), so a limit that runs low
//! is not locked in idle leases, and never less than the cost of the call
//! that asked (`need`), which must fit; when it does not, nothing is taken
//! and the answer is that cost's denial.

use crate::algorithm::Algorithm;
use crate::answer::Answer;
use crate::effect::Effect;
use crate::view::{Read, View};

/// A lease takes at most 1 / LEASE_SHARE of what is left.
pub const LEASE_SHARE: f64 = 4.0;

/// The units a lease takes when `available` are left: `want` at most, a
/// quarter of what is left at most, and never less than `need` (which the
/// caller has checked fits: `need <= available`).
pub fn size(want: f64, need: f64, available: f64) -> f64 {
    want.min((available / LEASE_SHARE).floor()).max(need)
}

impl Algorithm {
    /// Takes `size(want, need, what is left)` in one commit when `need`
    /// fits: that commit's answer, its delay slot holding the units taken.
    /// Else the denial of `need` (explained, and repaired as a consume's),
    /// taking nothing.
    pub fn lease(&self, view: &dyn View, want: f64, need: f64, now: f64, injected: bool, effects: &mut Vec<Effect>) -> Read<Answer> {
        let c = self.check(view, need, now, injected)?;
        if !c.fits {
            let (reset, retry) = self.explain(view, need, now, &c)?;
            self.repair(&c, effects);
            return Ok(Answer::new(c.remaining, reset, Some(retry), 0.0));
        }
        let grant = size(want, need, c.remaining);
        let c = self.check(view, grant, now, injected)?;
        let (remaining, reset, _) = self.commit(view, grant, now, c, effects)?;
        Ok(Answer::new(remaining, reset, None, grant))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithm::Adjust;
    use crate::entries::{adjust, Limit, Member};
    use crate::store::Store;
    use crate::{fixed_window, gcra, token_bucket};

    #[test]
    fn the_size_is_up_to_want_at_most_a_quarter_of_what_is_left_and_at_least_the_cost() {
        // (want, need, available) -> units taken
        for (want, need, available, taken) in [
            (50.0, 1.0, 1000.0, 50.0),
            (50.0, 1.0, 200.0, 50.0),
            (50.0, 1.0, 199.0, 49.0),
            (50.0, 1.0, 40.0, 10.0),
            (50.0, 1.0, 3.0, 1.0),
            (50.0, 1.0, 1.0, 1.0),
            (50.0, 5.0, 8.0, 5.0),
            (10.0, 10.0, 10.0, 10.0),
        ] {
            assert_eq!(size(want, need, available), taken, "size({want}, {need}, {available})");
        }
    }

    /// A lease of `want` for a call of cost `need` at `now`: (remaining, reset, retry, units taken).
    fn lease(s: &mut Store, algo: Algorithm, want: f64, need: f64, now: f64) -> (f64, f64, Option<f64>, f64) {
        let member = Member { key: b"k", block: b"k!", limit: Limit { algo, lockout_ms: 0.0 } };
        let a = adjust(s, &[member], Adjust::Lease(need), want, Some(now)).unwrap().members[0];
        (a.remaining, a.reset_us, a.retry_us, a.delay_us)
    }

    #[test]
    fn a_token_bucket_lends_its_whole_tokens_never_more() {
        let tb = Algorithm::TokenBucket(token_bucket::Params { capacity: 100.0, rate: 10.0 });
        let mut s = Store::with_clock(|| 1_000_000_000_000);
        let t0 = 1_000_000_000_000.0;
        // (at, want, need) -> (remaining, reset µs, retry, taken)
        let table = [
            (t0, 50.0, 1.0, (75.0, 2_500_000.0, None, 25.0)),
            (t0, 50.0, 1.0, (57.0, 4_300_000.0, None, 18.0)),
            (t0, 50.0, 1.0, (43.0, 5_700_000.0, None, 14.0)),
            (t0, 5.0, 1.0, (38.0, 6_200_000.0, None, 5.0)),
            (t0, 50.0, 38.0, (0.0, 10_000_000.0, None, 38.0)),
            (t0, 50.0, 1.0, (0.0, 10_000_000.0, Some(100_000.0), 0.0)),
            (t0 + 250_000.0, 50.0, 2.0, (0.0, 9_950_000.0, None, 2.0)),
        ];
        for (i, (at, want, need, expected)) in table.into_iter().enumerate() {
            assert_eq!(lease(&mut s, tb, want, need, at), expected, "row {i}");
        }
    }

    #[test]
    fn gcra_lends_what_fits_in_the_burst_now() {
        // 10 per second (interval 100 ms), a burst of 20 (tolerance 21 intervals).
        let g = Algorithm::Gcra(gcra::Params { interval: 100_000.0, tolerance: 2_100_000.0 });
        let mut s = Store::with_clock(|| 1_000_000_000_000);
        let t0 = 1_000_000_000_000.0;
        let table = [
            (t0, 50.0, 1.0, (16.0, 500_000.0, None, 5.0)),
            (t0, 50.0, 1.0, (12.0, 900_000.0, None, 4.0)),
            (t0, 50.0, 12.0, (0.0, 2_100_000.0, None, 12.0)),
            (t0, 50.0, 1.0, (0.0, 2_100_000.0, Some(100_000.0), 0.0)),
            (t0 + 100_000.0, 50.0, 1.0, (0.0, 2_100_000.0, None, 1.0)),
        ];
        for (i, (at, want, need, expected)) in table.into_iter().enumerate() {
            assert_eq!(lease(&mut s, g, want, need, at), expected, "row {i}");
        }
    }

    #[test]
    fn a_fixed_window_lends_what_its_window_has_left() {
        let fw = Algorithm::FixedWindow(fixed_window::Params { window: 1000.0, limit: 100.0 });
        let mut s = Store::with_clock(|| 1_000_000_000_000);
        let t0 = 1_000_000_000_000.0;
        let table = [
            (t0, 50.0, 1.0, (75.0, 1_000_000.0, None, 25.0)),
            (t0 + 100_000.0, 50.0, 1.0, (57.0, 900_000.0, None, 18.0)),
            (t0 + 100_000.0, 50.0, 57.0, (0.0, 900_000.0, None, 57.0)),
            (t0 + 200_000.0, 50.0, 1.0, (0.0, 800_000.0, Some(800_000.0), 0.0)),
            // The next window: a lease never reaches into it before it opens.
            (t0 + 1_000_000.0, 50.0, 1.0, (75.0, 1_000_000.0, None, 25.0)),
        ];
        for (i, (at, want, need, expected)) in table.into_iter().enumerate() {
            assert_eq!(lease(&mut s, fw, want, need, at), expected, "row {i}");
        }
    }
}
