//! A consume of a leased limiter: from this thread's lease when it holds
//! the cost (no round trip, `source` 'lease'); else one call that takes a
//! new lease (`Adjust::Lease`: up to the terms' units, at least the cost,
//! never more than is there) and answers the call from it. A lease too old
//! to spend goes back first. Concluded as any consume: dry run, `on_error`
//! (a take that failed is a failed call, answered by `on_error`, `local`
//! included, and holds nothing), the metrics, the block cache (a remembered
//! denial of the cost answers without a take).

use std::sync::Arc;
use std::time::Instant;

use crate::error::Result;
use crate::limiter::decide::adjust::Adjust;
use crate::limiter::decide::block_cache::with_cache;
use crate::limiter::decide::conclude::Conclude;
use crate::limiter::decide::instance::{CallOptions, Limiter};
use crate::limiter::lease::table::{self, Held};
use crate::limiter::lease::{counts, Terms};
use crate::limiter::{Algorithm, Outcome, Source};
use crate::metrics::Mode;

/// `consume($id, $cost)` on `limiter` under `terms`.
pub fn decide(limiter: &Arc<Limiter>, terms: Terms, id: &[u8], cost: i64, opts: CallOptions) -> Result<Outcome> {
    limiter.policy().check_cost(cost)?;
    let key = limiter.key(id)?;
    let conclude = Conclude {
        dry_run: opts.dry_run,
        on_error: opts.on_error,
        limit: limiter.limit(),
        counters: (opts.metrics != Mode::Off).then(|| limiter.counters()),
        metrics: opts.metrics,
    };
    let now = Instant::now();
    let mut held = table::take_out(limiter, &key);
    if held.as_ref().is_some_and(|h| h.aged(now)) {
        held.take().expect("aged").give_back(now);
    }
    match held {
        Some(mut h) if h.left >= cost => {
            h.left -= cost;
            h.counts.spent(cost);
            let answer = Outcome {
                remaining: h.answer.remaining + h.left,
                reset_after_us: h.reset_at.saturating_duration_since(now).as_micros() as i64,
                source: Source::Lease,
                ..h.answer
            };
            table::put(key, h);
            return conclude.one(Ok(answer), false);
        }
        // A lease holding less than the cost goes back first (its units
        // would otherwise sit idle), then a new one is taken for the cost.
        Some(h) => h.give_back(now),
        None => {}
    }
    take(limiter, terms, id, key, cost, opts, &conclude)
}

/// A new lease for a call of `cost` that this thread's lease (if any) could
/// not answer; `key` is `id`'s.
fn take(limiter: &Arc<Limiter>, terms: Terms, id: &[u8], key: Vec<u8>, cost: i64, opts: CallOptions, conclude: &Conclude) -> Result<Outcome> {
    let remote = limiter.backend().is_remote();
    if opts.block_cache > 0 && remote {
        if let Some(o) = with_cache(|c| c.lookup(&key, limiter.fingerprint(), cost, Instant::now())) {
            return conclude.one(Ok(o), true);
        }
    }
    let sent = Instant::now();
    let want = terms.units.max(cost);
    let mut o = limiter.adjust_at(id, Adjust::Lease(cost), want, opts, None)?;
    // The units taken ride in the delay (`Adjust::Lease`); only Redis or a
    // memory store lends (a local or `on_error` answer holds nothing).
    let granted = if o.allowed && !o.would_deny && matches!(o.source, Source::Redis | Source::Memory) { o.delay_us } else { 0 };
    o.delay_us = 0;
    if !o.allowed && remote && o.source == Source::Redis {
        with_cache(|c| c.remember(&key, limiter.fingerprint(), cost, &o, Instant::now(), opts.block_cache));
    }
    if granted < cost {
        return Ok(o);
    }
    let counts = counts::of(limiter.prefix());
    counts.leased(granted);
    counts.spent(cost);
    let left = granted - cost;
    // A fixed window's lease ends with its window, on the calendar or not.
    let window = matches!(limiter.policy().algorithm, Algorithm::FixedWindow | Algorithm::AnchoredWindow | Algorithm::CalendarWindow);
    let reset_at = sent + std::time::Duration::from_micros(o.reset_after_us.max(0) as u64);
    let held = Held {
        limiter: limiter.clone(),
        id: id.to_vec(),
        counts,
        left,
        taken: Instant::now(),
        max_age: terms.max_age,
        window_end: window.then_some(reset_at),
        answer: Outcome { remaining: o.remaining, ..o },
        reset_at,
        opts,
        generation: crate::fork::generation(),
    };
    table::put(key, held);
    Ok(Outcome { remaining: o.remaining + left, ..o })
}
