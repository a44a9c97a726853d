//! Wake-ups for the waiters of an in-flight limit (`limiter::concurrency`):
//! a release wakes them, so a waiter blocks rather than polls. On Redis a
//! list beside the limiter's key (`wake_key`): a release pushes a token
//! (in one round trip, the list kept no longer than `max` and no longer-lived
//! than a lease),
//! a waiter takes one with BLPOP, which Redis serves to its blocked clients
//! in the order they blocked. A token pushed while nobody waits only makes
//! a later waiter try once more. In a `memory://` store, a condition
//! variable of the process (its stores are in this process only).

use std::time::{Duration, Instant};

use ::redis::Value;
use once_cell::sync::Lazy;
use parking_lot::{Condvar, Mutex};

use crate::backend::Backend;
use crate::error::Result;
use crate::redis::rules::time::Timeouts;

/// `memory://`: a count of releases, and waiters on it.
static RELEASES: Lazy<(Mutex<u64>, Condvar)> = Lazy::new(|| (Mutex::new(0), Condvar::new()));

/// The list a permit's waiters block on: the limiter's key and a suffix no
/// id's key ends with by chance (a NUL byte first). On a cluster the key's
/// hash tag is the id's, so the list lives in the same slot.
pub fn wake_key(key: &[u8]) -> Vec<u8> {
    [key, b"\0wake"].concat()
}

impl Backend {
    /// A mark taken before a try, so a release between the try and `wait` is not missed.
    pub fn wake_mark(&self) -> u64 {
        match self {
            Backend::Memory(_) => *RELEASES.0.lock(),
            Backend::Redis(_) => 0,
        }
    }

    /// A slot of `key` was freed: wake one waiter.
    pub fn wake(&self, key: &[u8], max: i64, ttl: Duration, timeouts: Timeouts) -> Result<()> {
        let conns = match self {
            Backend::Memory(_) => {
                *RELEASES.0.lock() += 1;
                RELEASES.1.notify_all();
                return Ok(());
            }
            Backend::Redis(conns) => conns,
        };
        let list = wake_key(key);
        // One round trip: the token, the list's lifetime, its length.
        let cmds = vec![
            ::redis::cmd("LPUSH").arg(&list).arg(1).clone(),
            ::redis::cmd("PEXPIRE").arg(&list).arg(ttl.as_millis().max(1) as u64).clone(),
            ::redis::cmd("LTRIM").arg(&list).arg(0).arg(max - 1).clone(),
        ];
        conns.run_routed(timeouts, Some(&list), |conn| conn.pipeline_by_key(cmds.clone())).map(|_| ())
    }

    /// Blocks until a release of `key` wakes this waiter or `wait` has
    /// passed; `mark` from `wake_mark` before the try that failed.
    pub fn wait(&self, key: &[u8], wait: Duration, mark: u64, timeouts: Timeouts) -> Result<()> {
        let conns = match self {
            Backend::Memory(_) => {
                let until = Instant::now() + wait;
                let mut releases = RELEASES.0.lock();
                while *releases == mark && !RELEASES.1.wait_until(&mut releases, until).timed_out() {}
                return Ok(());
            }
            Backend::Redis(conns) => conns,
        };
        let list = wake_key(key);
        // BLPOP's timeout is in seconds, 0 meaning forever: at least 1 ms.
        let seconds = format!("{:.3}", wait.as_secs_f64().max(0.001));
        let long = Timeouts { reply: timeouts.reply + wait, ..timeouts };
        conns.run_routed(long, Some(&list), |conn| {
            conn.req_command_for_key(::redis::cmd("BLPOP").arg(&list).arg(&seconds), &list).and_then(Value::extract_error)
        })?;
        Ok(())
    }
}
