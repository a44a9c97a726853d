//! Which breaker a call goes through (`breaker`): a single server's or a
//! Sentinel service's one; on a Redis Cluster, the breaker of the master its
//! key's slot is on (`cluster::owners`), so that one master that cannot
//! answer does not stop the calls to the others, beside the cluster's own
//! breaker, which a call over several masters (`consumeMany`, the fleet's
//! metrics), a connection that cannot open at all, and a call whose master
//! is not known yet go through.
//!
//! A keyed call checks the cluster's breaker and, once any master's breaker
//! has ever opened in this process, its master's (a slot's hash and a read
//! lock: nothing is looked up while no master has failed).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use parking_lot::RwLock;

use crate::redis::cluster::owners::{Node, Owners};
use crate::redis::pool::breaker::{Admit, Breaker, BreakerState};

#[derive(Default)]
pub struct Breakers {
    /// The target's own: all of it for a single server or a Sentinel service.
    whole: Breaker,
    /// A cluster's slot owners, as its connections last read them.
    owners: Arc<Owners>,
    /// A cluster's breaker per master, made when a call to it first fails.
    masters: RwLock<HashMap<Node, Arc<Breaker>>>,
    /// Whether any master's breaker was ever made (until then a call looks nothing up).
    any_master: AtomicBool,
}

/// The breaker a call went through, and whether it is the one probe.
pub struct Gate<'a> {
    /// The key the call is routed by (a cluster's calls over one slot).
    route: Option<&'a [u8]>,
    /// The master's breaker, when the call was checked against one.
    master: Option<(Node, Arc<Breaker>)>,
    /// Whether the call is the one probe of its master's breaker, of the target's own.
    probes_master: bool,
    probes_whole: bool,
}

/// A call an open breaker refused: for how long more, and where.
pub struct Refusal {
    pub left: Duration,
    /// The master whose breaker refused it; `None`: the target's own.
    pub master: Option<Node>,
    pub cause: String,
}

impl Gate<'_> {
    /// A failure that is not a routed call's (a connection that could not
    /// open): the target's own breaker.
    pub fn whole() -> Gate<'static> {
        Gate { route: None, master: None, probes_master: false, probes_whole: false }
    }

    /// Whether the call is the one probe of an open breaker.
    pub fn probes(&self) -> bool {
        self.probes_master || self.probes_whole
    }
}

impl Breakers {
    /// The slot owners the cluster connections of this target write (`ClusterLink`).
    pub fn owners(&self) -> Arc<Owners> {
        self.owners.clone()
    }

    /// Whether a call routed by `route` may go now (and whether it probes), or why not.
    #[inline]
    pub fn admit<'a>(&self, route: Option<&'a [u8]>) -> Result<Gate<'a>, Refusal> {
        let mut gate = Gate { route, master: None, probes_master: false, probes_whole: false };
        if let (Some(key), true) = (route, self.any_master.load(Ordering::Acquire)) {
            gate.master = self.master_of(key, false);
        }
        if let Some((node, breaker)) = &gate.master {
            match breaker.admit() {
                Admit::Go => {}
                Admit::Probe => gate.probes_master = true,
                Admit::Refuse { left } => return Err(Refusal { left, master: Some(node.clone()), cause: breaker.cause() }),
            }
        }
        match self.whole.admit() {
            Admit::Go => Ok(gate),
            Admit::Probe => {
                gate.probes_whole = true;
                Ok(gate)
            }
            Admit::Refuse { left } => {
                if let (true, Some((_, breaker))) = (gate.probes_master, &gate.master) {
                    breaker.release_probe();
                }
                Err(Refusal { left, master: None, cause: self.whole.cause() })
            }
        }
    }

    /// `key`'s master and its breaker (made when `make`), when the owners are known.
    #[cold]
    fn master_of(&self, key: &[u8], make: bool) -> Option<(Node, Arc<Breaker>)> {
        let node = self.owners.node_of(key)?;
        if let Some(b) = self.masters.read().get(&node) {
            return Some((node, b.clone()));
        }
        if !make {
            return None;
        }
        let breaker = self.masters.write().entry(node.clone()).or_default().clone();
        self.any_master.store(true, Ordering::Release);
        Some((node, breaker))
    }

    /// A call through `gate` could not reach the server: opens its master's
    /// breaker (a cluster's call routed by a key whose master is known), else
    /// the target's own. `target` and `cause` word the opening.
    pub fn trip(&self, gate: &Gate, interval: Duration, target: &str, cause: &str) {
        let master = gate.master.clone().or_else(|| gate.route.and_then(|key| self.master_of(key, true)));
        match master {
            Some(((host, port), breaker)) => {
                breaker.trip(interval, &format!("{target} (its master {host}:{port})"), cause);
            }
            None => {
                self.whole.trip(interval, target, cause);
            }
        }
    }

    /// A call through `gate` was answered: the breakers it went through close.
    #[inline]
    pub fn answered(&self, gate: &Gate) {
        if let Some((_, breaker)) = &gate.master {
            breaker.answered();
        }
        self.whole.answered();
    }

    /// A probe through `gate` that ended in a failure its breaker was not
    /// told of (a setup error): open for another interval.
    pub fn probe_failed(&self, gate: &Gate, interval: Duration, target: &str, cause: &str) {
        if let (true, Some(((host, port), breaker))) = (gate.probes_master, &gate.master) {
            if breaker.is_probing() {
                breaker.trip(interval, &format!("{target} (its master {host}:{port})"), cause);
            }
        }
        if gate.probes_whole && self.whole.is_probing() {
            self.whole.trip(interval, target, cause);
        }
    }

    /// Whether any of them is open (a cluster's masters included).
    pub fn any_open(&self) -> bool {
        self.whole.state().open_for.is_some() || self.masters.read().values().any(|b| b.state().open_for.is_some())
    }

    /// The target's own breaker, and each master's that was made, by address.
    pub fn state(&self) -> (BreakerState, Vec<(String, BreakerState)>) {
        let mut masters: Vec<(String, BreakerState)> =
            self.masters.read().iter().map(|((host, port), b)| (format!("{host}:{port}"), b.state())).collect();
        masters.sort_by(|a, b| a.0.cmp(&b.0));
        (self.whole.state(), masters)
    }
}
