//! Which breaker a call goes through (`breaker`): a single server's or a
//! Sentinel service's one; on a Redis Cluster, the breaker of the master its
//! key's slot is on (`cluster::owners`), so that one master that cannot
//! answer does not stop the calls to the others, beside the cluster's own
//! breaker, which a call over several masters (`consumeMany`, the fleet's
//! metrics), a connection that cannot open at all, and a call whose master
//! is not known yet go through.
//!
//! A keyed call checks the cluster's breaker and, once any master's breaker
//! has ever opened in this process, its master's (a slot's hash, two read
//! locks and a map lookup by the borrowed address, nothing copied: nothing
//! is looked up while no master has failed).

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
    masters: RwLock<HashMap<Node, Arc<Master>>>,
    /// Whether any master's breaker was ever made (until then a call looks nothing up).
    any_master: AtomicBool,
}

/// A cluster master's breaker, with the address it words its openings with.
pub struct Master {
    node: Node,
    breaker: Breaker,
}

impl Master {
    /// Opens this master's breaker, the opening worded with `target` and the master's address.
    fn trip(&self, interval: Duration, target: &str, cause: &str) {
        let (host, port) = &self.node;
        self.breaker.trip(interval, &format!("{target} (its master {host}:{port})"), cause);
    }
}

/// The breaker a call went through, and whether it is the one probe.
pub struct Gate<'a> {
    /// The key the call is routed by (a cluster's calls over one slot).
    route: Option<&'a [u8]>,
    /// The master's breaker, when the call was checked against one.
    master: Option<Arc<Master>>,
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
        if let Some(m) = &gate.master {
            match m.breaker.admit() {
                Admit::Go => {}
                Admit::Probe => gate.probes_master = true,
                Admit::Refuse { left } => return Err(Refusal { left, master: Some(m.node.clone()), cause: m.breaker.cause() }),
            }
        }
        match self.whole.admit() {
            Admit::Go => Ok(gate),
            Admit::Probe => {
                gate.probes_whole = true;
                Ok(gate)
            }
            Admit::Refuse { left } => {
                if let (true, Some(m)) = (gate.probes_master, &gate.master) {
                    m.breaker.release_probe();
                }
                Err(Refusal { left, master: None, cause: self.whole.cause() })
            }
        }
    }

    /// `key`'s master's breaker (made when `make`), when the owners are known.
    fn master_of(&self, key: &[u8], make: bool) -> Option<Arc<Master>> {
        let found = self.owners.with_node_of(key, |node| self.masters.read().get(node).cloned())?;
        if found.is_some() || !make {
            return found;
        }
        let node = self.owners.node_of(key)?;
        let master = self.masters.write().entry(node.clone()).or_insert_with(|| Arc::new(Master { node, breaker: Breaker::default() })).clone();
        self.any_master.store(true, Ordering::Release);
        Some(master)
    }

    /// A call through `gate` could not reach the server: opens its master's
    /// breaker (a cluster's call routed by a key whose master is known), else
    /// the target's own. `target` and `cause` word the opening.
    pub fn trip(&self, gate: &Gate, interval: Duration, target: &str, cause: &str) {
        let master = gate.master.clone().or_else(|| gate.route.and_then(|key| self.master_of(key, true)));
        match master {
            Some(m) => m.trip(interval, target, cause),
            None => {
                self.whole.trip(interval, target, cause);
            }
        }
    }

    /// A call through `gate` was answered: the breakers it went through close.
    #[inline]
    pub fn answered(&self, gate: &Gate) {
        if let Some(m) = &gate.master {
            m.breaker.answered();
        }
        self.whole.answered();
    }

    /// A probe through `gate` that ended in a failure its breaker was not
    /// told of (a setup error): open for another interval.
    pub fn probe_failed(&self, gate: &Gate, interval: Duration, target: &str, cause: &str) {
        if let (true, Some(m)) = (gate.probes_master, &gate.master) {
            if m.breaker.is_probing() {
                m.trip(interval, target, cause);
            }
        }
        if gate.probes_whole && self.whole.is_probing() {
            self.whole.trip(interval, target, cause);
        }
    }

    /// Whether any of them is open (a cluster's masters included).
    pub fn any_open(&self) -> bool {
        self.whole.state().open_for.is_some() || self.masters.read().values().any(|m| m.breaker.state().open_for.is_some())
    }

    /// The target's own breaker, and each master's that was made, by address.
    pub fn state(&self) -> (BreakerState, Vec<(String, BreakerState)>) {
        let mut masters: Vec<(String, BreakerState)> =
            self.masters.read().iter().map(|((host, port), m)| (format!("{host}:{port}"), m.breaker.state())).collect();
        masters.sort_by(|a, b| a.0.cmp(&b.0));
        (self.whole.state(), masters)
    }
}
