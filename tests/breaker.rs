//! The breaker and the local answer against a real redis-server that is
//! killed and restarted: while the target cannot answer, no call waits, and
//! `on_error = local` decides in the process for its share; once it answers
//! again, Redis decides and the local state is gone.

mod support;

use std::time::{Duration, Instant};

use ratelimit::limiter::algorithms::fixed_window;
use ratelimit::limiter::decide::instance::CallOptions;
use ratelimit::limiter::{OnError, Op, Source};
use ratelimit::redis::pool::{self, breaker, Timeouts};
use ratelimit::redis::target::Target;

#[test]
fn an_unreachable_server_is_not_tried_again_for_the_retry_interval_and_local_answers_take_its_place() {
    let Some(mut server) = support::start() else { return };
    breaker::set_retry_interval(Duration::from_millis(300));
    let l = server.limiter(fixed_window::policy(60.0, 1000).unwrap(), "breaker");
    let short = Timeouts { connect: Duration::from_millis(200), reply: Duration::from_millis(200) };
    let throw = CallOptions { timeouts: short, ..support::OPTS };
    let local = CallOptions { on_error: OnError::Local, ..throw };
    let consume = |opts| l.decide(b"", Op::Consume(1), opts);
    assert_eq!(consume(local).unwrap().source, Source::Redis);

    server.kill();
    let first = consume(throw).unwrap_err().to_string();
    assert!(first.contains("connection") && !first.contains("circuit breaker"), "{first}");
    assert!(breaker::take_opened().is_some_and(|w| w.contains("could not be reached")), "the opening is told once");
    let started = Instant::now();
    let refused = consume(throw).unwrap_err().to_string();
    assert!(started.elapsed() < Duration::from_millis(50), "refused at once");
    assert!(refused.contains("not tried, the circuit breaker is open for 0."), "{refused}");
    assert_eq!(breaker::take_opened(), None);

    // Local answers: 10 % of 1,000, then denied, never a network wait.
    let started = Instant::now();
    let admitted = (0..150).map(|_| consume(local).unwrap()).filter(|o| o.allowed).count();
    assert_eq!(admitted, 100);
    assert!(started.elapsed() < Duration::from_millis(100), "no call waited: {:?}", started.elapsed());
    let o = consume(local).unwrap();
    assert_eq!((o.source, o.allowed, o.limit, o.remaining), (Source::Local, false, 1000, 0));
    let target = pool::state().into_iter().find(|t| t.target == Target::tcp("127.0.0.1", server.port).to_string()).unwrap();
    assert_eq!((target.breaker.opens, target.local_keys), (1, 1));
    assert!(target.breaker.open_for.is_some());

    server.start_again();
    std::thread::sleep(Duration::from_millis(370)); // past the interval and its jitter
    let back = consume(local).unwrap();
    assert_eq!((back.source, back.allowed, back.remaining), (Source::Redis, true, 999), "Redis decides from what it holds");
    let target = pool::state().into_iter().find(|t| t.target == Target::tcp("127.0.0.1", server.port).to_string()).unwrap();
    assert_eq!((target.breaker.open_for, target.local_keys), (None, 0), "closed, the local state dropped");
}
