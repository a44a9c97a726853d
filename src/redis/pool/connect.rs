//! Opening a target's connection: a single server's socket (`wire`) under
//! a `mux`, the master the sentinels name now, or a Redis Cluster's client
//! (redis-rs, told never to send a command again itself: `conn::ClusterLink`
//! follows the redirections).

use std::sync::atomic::Ordering;
use std::sync::Arc;

use ::redis::ConnectionAddr;

use crate::error::{Error, Result};
use crate::redis::conn::{ClusterLink, Conn};
use crate::redis::pool::breakers::Gate;
use crate::redis::pool::places::LaneConn;
use crate::redis::pool::TargetConnections;
use crate::redis::rules::time::Deadline;
use crate::redis::rules::time::Timeouts;
use crate::redis::single::mux::Mux;
use crate::redis::target::Address;
use crate::redis::words::plain::{cause, OpenError};

impl TargetConnections {
    pub(super) fn connect(&self, generation: u32, timeouts: Timeouts) -> Result<LaneConn> {
        if let Address::Cluster { seeds } = &self.target.address {
            return self.connect_cluster(generation, timeouts, seeds);
        }
        // A single server, or the master the sentinels name now: our own socket either way.
        let (mux, confirmed) = self.connect_shared(timeouts)?;
        Ok(LaneConn { generation, conn: Conn::single(mux, Deadline::after(timeouts.reply)), reply_timeout: timeouts.reply, confirmed })
    }

    /// A shared connection to the server, or to the master the sentinels name
    /// now (and when they named it).
    pub(super) fn connect_shared(&self, timeouts: Timeouts) -> Result<(Arc<Mux>, Option<crate::redis::pool::sentinel::Confirmed>)> {
        let login = crate::redis::single::wire::Login {
            db: self.target.db,
            username: self.target.username.as_deref(),
            password: self.target.password.as_deref(),
        };
        let tls = self.target.tls.as_ref();
        if let Address::Sentinel(sentinels) = &self.target.address {
            let open = |host: &str, port| {
                let address = Address::Tcp { host: host.to_string(), port };
                match Mux::open(&address, tls, &login, timeouts) {
                    Ok(mux) => Ok(mux),
                    Err(OpenError::Setup(why)) => Err(why),
                    Err(OpenError::Redis(e)) => Err(cause(&e, tls.is_some())),
                }
            };
            let role = |mux: &mut Arc<Mux>| crate::redis::conn::role_of(&mut Conn::single(mux.clone(), Deadline::after(timeouts.reply)));
            return match crate::redis::pool::sentinel::connect_master(&self.target, sentinels, timeouts, open, role) {
                Ok((mux, confirmed)) => {
                    self.opened.fetch_add(1, Ordering::Relaxed);
                    Ok((mux, Some(confirmed)))
                }
                Err(why) => {
                    self.failures.fetch_add(1, Ordering::Relaxed);
                    Err(Error::Redis(format!("Redis at {}: {why}", self.target)))
                }
            };
        }
        match Mux::open(&self.target.address, tls, &login, timeouts) {
            Ok(mux) => {
                self.opened.fetch_add(1, Ordering::Relaxed);
                Ok((mux, None))
            }
            Err(OpenError::Setup(why)) => {
                self.failures.fetch_add(1, Ordering::Relaxed);
                Err(Error::Redis(format!("Redis at {}: {why}", self.target)))
            }
            Err(OpenError::Redis(e)) => Err(self.fail_to_open(&e, &Gate::whole())),
        }
    }

    /// A cluster connection: the slot map is read from the first seed that
    /// answers; nodes are connected as commands need them. redis-rs sends
    /// nothing again by itself (`retries(0)`: it would also resend a command
    /// that timed out); `conn::ClusterLink` follows the redirections and
    /// failovers, sending again only what did not run (`retry`).
    pub(super) fn connect_cluster(&self, generation: u32, timeouts: Timeouts, seeds: &[(String, u16)]) -> Result<LaneConn> {
        let tls = self.target.tls.as_ref();
        let nodes: Vec<ConnectionAddr> = seeds
            .iter()
            .map(|(h, p)| match tls {
                Some(tls) => crate::redis::cluster::tls::addr(h, *p, tls),
                None => ConnectionAddr::Tcp(h.clone(), *p),
            })
            .collect();
        let mut builder =
            ::redis::cluster::ClusterClientBuilder::new(nodes).connection_timeout(timeouts.connect).response_timeout(timeouts.reply).retries(0);
        if let Some(tls) = tls {
            // Every node the slot map names is reached with the same TLS settings.
            builder = builder.tls(if tls.verify_peer { ::redis::TlsMode::Secure } else { ::redis::TlsMode::Insecure });
            match crate::redis::cluster::tls::certificates(tls) {
                Ok(Some(certs)) => builder = builder.certs(certs),
                Ok(None) => {}
                Err(e) => {
                    self.failures.fetch_add(1, Ordering::Relaxed);
                    return Err(Error::Redis(format!("Redis at {}: {}", self.target, e.0)));
                }
            }
        }
        if let Some(u) = &self.target.username {
            builder = builder.username(u);
        }
        if let Some(p) = &self.target.password {
            builder = builder.password(p);
        }
        match builder.build().and_then(|client| Ok((client.get_connection()?, client))) {
            Ok((conn, client)) => {
                self.opened.fetch_add(1, Ordering::Relaxed);
                let link = ClusterLink::new(conn, client, timeouts.reply, self.breakers.owners());
                Ok(LaneConn {
                    generation,
                    conn: Conn::cluster(link, Deadline::after(timeouts.reply)),
                    reply_timeout: timeouts.reply,
                    confirmed: None,
                })
            }
            Err(e) => Err(self.fail_to_open(&e, &Gate::whole())),
        }
    }
}
