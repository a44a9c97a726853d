//! A real `redis-server` for the integration tests: a free loopback port, a
//! temp dir, stopped (and the dir removed) when dropped, as redis-rs's own
//! tests do. No redis-server is a failure, not a skip: `make deps` installs
//! it, and CI must run these tests. Outside CI, RATELIMIT_SKIP_REDIS_TESTS=1
//! skips them on a machine without one.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The server binary (RATELIMIT_TEST_SERVER: redis-server, valkey-server, or
/// a wrapper running another release's), as the phpt harness takes it.
pub fn server_binary() -> String {
    std::env::var("RATELIMIT_TEST_SERVER").ok().filter(|s| !s.is_empty()).unwrap_or_else(|| "redis-server".to_string())
}

/// The project's server module (RATELIMIT_SERVER_MODULE, which `make test`
/// sets), loaded into every server these tests start. Without it the tests
/// that compare the module with the other paths fail in CI and say they
/// skipped elsewhere.
pub fn server_module() -> Option<String> {
    let module = std::env::var("RATELIMIT_SERVER_MODULE").ok().filter(|s| !s.is_empty());
    if module.is_none() && std::env::var("CI").is_ok() {
        panic!("RATELIMIT_SERVER_MODULE is not set: make test builds the module and sets it");
    }
    module
}

pub struct RedisServer {
    pub port: u16,
    child: Child,
    dir: PathBuf,
}

/// `None` only when skipping was asked for outside CI.
pub fn start() -> Option<RedisServer> {
    let skip = std::env::var("RATELIMIT_SKIP_REDIS_TESTS").is_ok_and(|v| v == "1") && std::env::var("CI").is_err();
    let binary = server_binary();
    if Command::new(&binary).arg("--version").output().is_err() {
        if skip {
            eprintln!("SKIPPED: no {binary} on PATH (RATELIMIT_SKIP_REDIS_TESTS=1)");
            return None;
        }
        panic!("{binary} is not on PATH: `make deps` installs redis-server (or RATELIMIT_SKIP_REDIS_TESTS=1 to skip outside CI)");
    }
    for _ in 0..5 {
        if let Some(server) = RedisServer::launch() {
            return Some(server);
        }
    }
    panic!("could not start {} on a free loopback port", server_binary());
}

impl RedisServer {
    fn launch() -> Option<Self> {
        let port = TcpListener::bind("127.0.0.1:0").ok()?.local_addr().ok()?.port();
        let dir = std::env::temp_dir().join(format!("ratelimit-cargo-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).ok()?;
        let child = Self::spawn(port, &dir)?;
        let mut server = RedisServer { port, child, dir };
        server.wait_ready().then_some(server)
    }

    fn spawn(port: u16, dir: &std::path::Path) -> Option<Child> {
        let mut command = Command::new(server_binary());
        if let Some(module) = server_module() {
            command.arg("--loadmodule").arg(module);
        }
        command
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .ok()
    }

    /// Whether the server answers PING within 5 s, or RATELIMIT_TEST_SLOW
    /// times that (a server under valgrind); false: it died, its port was taken.
    fn wait_ready(&mut self) -> bool {
        let slow = std::env::var("RATELIMIT_TEST_SLOW").ok().and_then(|s| s.parse::<u64>().ok()).unwrap_or(1).max(1);
        let deadline = Instant::now() + Duration::from_secs(5 * slow);
        while Instant::now() < deadline {
            if let Ok(mut conn) = self.connection() {
                if ::redis::cmd("PING").query::<String>(&mut conn).is_ok() {
                    return true;
                }
            }
            if self.child.try_wait().ok().flatten().is_some() {
                return false;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    /// Kills the server (its clients see their connections reset).
    #[allow(dead_code)]
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Stops the server for `d` (SIGSTOP, then SIGCONT): a stall on any
    /// release (a script spinning on TIME does not end on Redis >= 7.2, whose
    /// TIME in a script stands still). Connections still open, commands queue.
    #[allow(dead_code)]
    pub fn stall(&self, d: Duration) {
        let pid = self.child.id() as libc::pid_t;
        // SAFETY: signals to our own child process.
        unsafe { libc::kill(pid, libc::SIGSTOP) };
        std::thread::sleep(d);
        unsafe { libc::kill(pid, libc::SIGCONT) };
    }

    /// Starts it again on the same port, empty (a restart).
    #[allow(dead_code)]
    pub fn start_again(&mut self) {
        self.child = Self::spawn(self.port, &self.dir).expect("redis-server did not start again");
        assert!(self.wait_ready(), "redis-server did not start again on port {}", self.port);
    }

    /// A plain redis-rs connection, for looking at keys from outside.
    pub fn connection(&self) -> ::redis::RedisResult<::redis::Connection> {
        ::redis::Client::open(format!("redis://127.0.0.1:{}", self.port))?.get_connection_with_timeout(Duration::from_secs(2))
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

use ratelimit::backend::memory;
use ratelimit::backend::Backend;
use ratelimit::limiter::decide::instance::{CallOptions, Limiter};
use ratelimit::limiter::{OnError, Policy};
use ratelimit::redis::pool::{self, Timeouts};
use ratelimit::redis::target::Target;

/// Generous timeouts (a loaded machine) and errors thrown, not answered for.
pub const OPTS: CallOptions = CallOptions {
    timeouts: Timeouts { connect: Duration::from_secs(2), reply: Duration::from_secs(5) },
    on_error: OnError::Throw,
    block_cache: 0,
    server_module: true,
    dry_run: false,
    metrics: ratelimit::metrics::Mode::Off,
    local: ratelimit::limiter::decide::local::LocalShare { share: 0.1, keys: 10_000 },
};

impl RedisServer {
    /// A limiter on this server whose key for the id "" is `table:<name>`.
    #[allow(dead_code)] // each tests/*.rs compiles this module; not every one uses every helper
    pub fn limiter(&self, policy: Policy, name: &str) -> Limiter {
        let slot = pool::connections(Target::tcp("127.0.0.1", self.port));
        Limiter::new(policy, Backend::Redis(slot), b"table:", name.as_bytes()).unwrap()
    }

    /// A test clock's time zero, in µs: a whole minute an hour after the
    /// server's clock, so its instants are in the future (a fixed window
    /// writes PEXPIREAT instants, and Redis deletes a key whose instant has
    /// passed) and slices line up.
    #[allow(dead_code)] // each tests/*.rs compiles this module; not every one uses every helper
    pub fn test_clock_start_us(&self) -> i64 {
        let (secs, _): (i64, i64) = ::redis::cmd("TIME").query(&mut self.connection().unwrap()).unwrap();
        (secs / 60 + 61) * 60 * 1_000_000
    }

    /// Runs one command on the server and reads its reply as `T`.
    #[allow(dead_code)] // each tests/*.rs compiles this module; not every one uses every helper
    pub fn query<T: ::redis::FromRedisValue>(&self, args: &[&str]) -> T {
        let mut cmd = ::redis::cmd(args[0]);
        for a in &args[1..] {
            cmd.arg(*a);
        }
        cmd.query(&mut self.connection().unwrap()).unwrap_or_else(|e| panic!("{args:?}: {e}"))
    }
}

/// A limiter on the `memory://<store>` target whose key for the id "" is `table:<name>`.
#[allow(dead_code)]
pub fn memory_limiter(policy: Policy, store: &str, name: &str) -> Limiter {
    Limiter::new(policy, Backend::Memory(memory::target(store)), b"table:", name.as_bytes()).unwrap()
}
