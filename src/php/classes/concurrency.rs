//! `ConcurrencyLimiter` (`($connection, $keyPrefix, $max, $ttl)` or
//! `($key, $max, $ttl)`) and the `ConcurrencyPermit` its `acquire()` returns:
//! in-flight limits (`limiter::concurrency`). A permit is freed by
//! `release()`, when its object is destroyed, or at the request's end
//! (`limiter::concurrency::held`), whichever comes first; once only.
#![allow(non_snake_case)] // PHP parameter names are the Rust names, and PHP's are camelCase

use std::sync::Arc;
use std::time::{Duration, Instant};

use ext_php_rs::boxed::ZBox;
use ext_php_rs::convert::IntoZval;
use ext_php_rs::flags::{ClassFlags, DataType};
use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendClassObject, ZendStr, Zval};
use ext_php_rs::zend::ClassEntry;

use crate::error::{Error, Result};
use crate::limiter::concurrency::held::{self, Held};
use crate::limiter::concurrency::{Concurrency, Grant};
use crate::limiter::decide::instance::CallOptions;
use crate::limiter::decide::local::LocalShare;
use crate::limiter::OnError;
use crate::php::args::forms::{Form, Signature};
use crate::php::args::values::{self, Id};
use crate::php::connection;
use crate::php::connection::parts::TimeoutOverrides;
use crate::php::engine::exceptions::in_call;
use crate::php::engine::register::Finish;
use crate::php::engine::zend_api::{self, MAY_BE_BOOL, MAY_BE_DOUBLE, MAY_BE_LONG, MAY_BE_STRING};
use crate::php::ini::settings;
use crate::redis::pool::Timeouts;

static SIGNATURE: Signature = Signature {
    class: "ConcurrencyLimiter",
    long: Form { slots: &[("connection", "connection"), ("keyPrefix", "keyPrefix"), ("max", "max"), ("ttl", "ttl")], required: 4 },
    short: Form { slots: &[("key", "keyPrefix"), ("max", "max"), ("ttl", "ttl")], required: 3 },
};

#[php_class]
#[php(name = "ConcurrencyLimiter")]
#[php(flags = ClassFlags::from_bits_truncate(ClassFlags::Final.bits() | ClassFlags::NoDynamicProperties.bits()))]
pub struct ConcurrencyLimiter {
    limiter: Arc<Concurrency>,
    timeouts: TimeoutOverrides,
}

/// The settings in force for a call made now, with the connection's own timeouts.
fn options(t: TimeoutOverrides) -> CallOptions {
    CallOptions {
        timeouts: Timeouts { connect: t.connect.unwrap_or_else(settings::connect_timeout), reply: t.reply.unwrap_or_else(settings::timeout) },
        on_error: settings::on_error(),
        block_cache: 0,
        server_module: settings::server_module(),
        dry_run: settings::dry_run(),
        metrics: settings::metrics(),
        // An in-flight limit has no local answer (a permit is released
        // where it was taken): with on_error = local a failure is thrown.
        local: LocalShare::default(),
    }
}

#[php_impl]
impl ConcurrencyLimiter {
    #[php(optional = ttl)]
    pub fn __construct(connection: &Zval, keyPrefix: &Zval, max: &Zval, ttl: Option<&Zval>) -> PhpResult<Self> {
        let args = SIGNATURE.read(&[Some(connection), Some(keyPrefix), Some(max), ttl])?;
        let make = || -> Result<Self> {
            let (max, ttl) = (args.int("max")?, args.float("ttl")?);
            let key_prefix = args.bytes("keyPrefix")?;
            let (backend, timeouts) = connection::resolve(args.connection())?;
            let limiter = Concurrency::new(backend, &settings::key_prefix(), &key_prefix, max, ttl)?;
            Ok(ConcurrencyLimiter { limiter: Arc::new(limiter), timeouts })
        };
        make().map_err(|e| args.explain(e))
    }

    /// One of `$max` slots of `$id`, waiting up to `$maxWait` seconds for one
    /// to free; null when none does.
    #[php(optional = id, defaults(id = "\"\""))]
    pub fn acquire(&self, id: Id, maxWait: Option<&Zval>) -> PhpResult<Option<NewPermit>> {
        let opts = options(self.timeouts);
        let run = || -> Result<Option<(Vec<u8>, Grant)>> {
            let id = id.bytes()?;
            let wait = maxWait.map(|z| values::float_param("maxWait", z)).transpose()?.unwrap_or(0.0);
            Ok(self.limiter.acquire(&id, wait, opts)?.map(|g| (id, g)))
        };
        let Some((id, grant)) = run().map_err(|e| in_call(e, "ConcurrencyLimiter::acquire", &["id", "maxWait"]))? else {
            return Ok(None);
        };
        if grant.held {
            held::hold(grant.token.clone(), Held { limiter: self.limiter.clone(), key: grant.key.clone(), opts });
        }
        let ttl = self.limiter.ttl();
        Ok(Some(NewPermit(ConcurrencyPermit { limiter: self.limiter.clone(), id, grant, ttl, expires: Instant::now() + ttl })))
    }

    /// Private, so `ReflectionClass::isCloneable()` is false and `clone`
    /// fails: the limiter has nothing worth copying.
    #[php(vis = "private")]
    pub fn __clone(&mut self) {}

    /// Permits held now for `$id`.
    #[php(defaults(id = "\"\""))]
    pub fn in_flight(&self, id: Id) -> PhpResult<i64> {
        let run = || -> Result<i64> { self.limiter.in_flight(&id.bytes()?, options(self.timeouts)) };
        run().map_err(|e| in_call(e, "ConcurrencyLimiter::inFlight", &["id"]))
    }

    /// Deletes `$id`'s permits: every slot free again.
    #[php(defaults(id = "\"\""))]
    pub fn reset(&self, id: Id) -> PhpResult<()> {
        let run = || -> Result<()> { self.limiter.reset(&id.bytes()?, options(self.timeouts).timeouts) };
        run().map_err(|e| in_call(e, "ConcurrencyLimiter::reset", &["id"]))
    }
}

impl Finish for ConcurrencyLimiter {
    fn finish(ce: &mut ClassEntry) -> std::result::Result<(), String> {
        use crate::php::classes::shared::limiter_class::{OPTIONAL_INT_OR_FLOAT, STRING_OR_INT};
        use crate::php::engine::zend_api::{MAY_BE_ARRAY, MAY_BE_NULL};
        let connection = MAY_BE_ARRAY | MAY_BE_STRING | MAY_BE_LONG | MAY_BE_DOUBLE | MAY_BE_NULL;
        zend_api::set_parameter_type(ce, "__construct", 0, "connection", &["Redis", "RedisCluster"], connection, None)?;
        zend_api::set_parameter(ce, "__construct", 1, "keyPrefix", STRING_OR_INT, None)?;
        zend_api::set_parameter(ce, "__construct", 2, "max", MAY_BE_LONG | MAY_BE_DOUBLE, None)?;
        zend_api::set_parameter(ce, "__construct", 3, "ttl", OPTIONAL_INT_OR_FLOAT, None)?;
        for method in ["acquire", "inflight", "reset"] {
            zend_api::set_parameter(ce, method, 0, "id", MAY_BE_STRING, None)?;
        }
        zend_api::set_parameter(ce, "acquire", 1, "maxWait", MAY_BE_DOUBLE, Some(c"0.0"))
    }
}

/// One slot taken (`ConcurrencyLimiter::acquire()`).
#[php_class]
#[php(name = "ConcurrencyPermit")]
#[php(flags = ClassFlags::from_bits_truncate(ClassFlags::Final.bits() | ClassFlags::NoDynamicProperties.bits()))]
pub struct ConcurrencyPermit {
    limiter: Arc<Concurrency>,
    id: Vec<u8>,
    grant: Grant,
    ttl: Duration,
    /// When the lease ends, as this process reckons it (granted or renewed + ttl).
    expires: Instant,
}

/// The readonly properties, with their types.
const PERMIT_PROPERTIES: [(&str, u32); 3] = [("id", MAY_BE_STRING), ("remaining", MAY_BE_LONG), ("wouldDeny", MAY_BE_BOOL)];

/// A permit on its way to PHP: an object with its readonly properties set.
pub struct NewPermit(ConcurrencyPermit);

impl IntoZval for NewPermit {
    const TYPE: DataType = DataType::object("ConcurrencyPermit");
    const NULLABLE: bool = false;

    fn set_zval(self, zv: &mut Zval, persistent: bool) -> ext_php_rs::error::Result<()> {
        let (id, remaining, would_deny) = (self.0.id.clone(), self.0.grant.remaining, self.0.grant.would_deny);
        let mut object: ZBox<ZendClassObject<ConcurrencyPermit>> = ZendClassObject::new(self.0);
        zend_api::write_property(&mut object.std, "id", |z| z.set_zend_string(ZendStr::new(&id, false)));
        zend_api::write_property(&mut object.std, "remaining", |z| z.set_long(remaining));
        zend_api::write_property(&mut object.std, "wouldDeny", |z| z.set_bool(would_deny));
        object.set_zval(zv, persistent)
    }
}

impl ConcurrencyPermit {
    /// A failure the settings answer: thrown with `throw`; with `allow` or
    /// `deny` the permit's lease ends it on the server.
    fn answer(&self, r: Result<()>, method: &str) -> PhpResult<()> {
        match r {
            Err(Error::Redis(_)) if options(TimeoutOverrides::default()).on_error != OnError::Throw => Ok(()),
            other => other.map_err(|e| in_call(e, method, &[])),
        }
    }
}

#[php_impl]
impl ConcurrencyPermit {
    /// Made by `ConcurrencyLimiter::acquire()` only.
    #[php(vis = "private")]
    pub fn __construct() -> PhpResult<Self> {
        Err("a ConcurrencyPermit is made by ConcurrencyLimiter::acquire() only".into())
    }

    /// Private, so `clone` fails: two objects of one permit would free one slot twice.
    #[php(vis = "private")]
    pub fn __clone(&mut self) {}

    /// Frees the slot (a second call does nothing).
    pub fn release(&mut self) -> PhpResult<()> {
        let r = held::release(&self.grant.token).map(|_| ());
        self.expires = Instant::now();
        self.answer(r, "ConcurrencyPermit::release")
    }

    /// The lease again `$ttl` from now. A permit released, or whose lease
    /// ended (its slot may be someone else's now), throws.
    pub fn renew(&mut self) -> PhpResult<()> {
        let Some(opts) = held::options(&self.grant.token) else {
            if self.grant.held {
                return Err(in_call(Error::Redis("the permit was released".into()), "ConcurrencyPermit::renew", &[]));
            }
            // Not counted (a dry run's would-be denial, an on_error answer): nothing to renew.
            self.expires = Instant::now() + self.ttl;
            return Ok(());
        };
        let r = self.limiter.renew(&self.grant.key, &self.grant.token, opts).and_then(|live| match live {
            true => Ok(()),
            false => Err(Error::Redis("the permit's lease had ended, so its slot may be someone else's".into())),
        });
        if r.is_ok() {
            self.expires = Instant::now() + self.ttl;
        }
        self.answer(r, "ConcurrencyPermit::renew")
    }

    /// Seconds until the lease ends (0.0 once released or ended).
    pub fn expires_in(&self) -> f64 {
        if self.grant.held && !held::holds(&self.grant.token) {
            return 0.0;
        }
        self.expires.saturating_duration_since(Instant::now()).as_secs_f64()
    }
}

impl Drop for ConcurrencyPermit {
    /// A permit destroyed while held frees its slot (errors dropped: its lease ends it).
    fn drop(&mut self) {
        if self.grant.held {
            let _ = held::release(&self.grant.token);
        }
    }
}

impl Finish for ConcurrencyPermit {
    fn finish(ce: &mut ClassEntry) -> std::result::Result<(), String> {
        for (name, mask) in PERMIT_PROPERTIES {
            zend_api::declare_readonly(ce, name, mask)?;
        }
        Ok(())
    }
}
