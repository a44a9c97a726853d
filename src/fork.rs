//! `fork()` and this process's shared state.
//!
//! Which incarnation of the process this is: a number bumped in the child of
//! every `fork()` by a `pthread_atfork` handler. The pool compares it with
//! the one a connection was opened under, so a child never reads replies
//! meant for its parent, without a `getpid()` system call on every decision.
//!
//! And a gate, for threaded processes: `fork()` copies only the thread that
//! calls it, so a lock another thread held at that instant (the pool's map, a
//! connection in the middle of a round trip, the block cache, a memory store)
//! would stay locked in the child for ever, and the child's first decision
//! would hang. Every piece of code that takes one of those locks does so
//! inside the gate (`enter`); `fork()` closes the gate and waits until no
//! thread is inside, so the child starts with every lock free. A `fork()`
//! waits for the round trips in flight at most (each bounded by the timeouts).

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Once;
use std::time::Duration;

static GENERATION: AtomicU32 = AtomicU32::new(0);
static REGISTER: Once = Once::new();
/// `pthread_atfork` failed (out of memory): ask the kernel every time instead.
static USE_PID: AtomicBool = AtomicBool::new(false);

/// The gate: how many threads are inside, and `CLOSED` while a `fork()` is
/// being prepared.
static GATE: AtomicU64 = AtomicU64::new(0);
const CLOSED: u64 = 1 << 63;

thread_local! {
    /// How deep this thread is inside the gate: only the outermost entry counts.
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// Proof that this thread is inside the gate; leaving is dropping it.
#[must_use]
pub struct Inside(());

impl Drop for Inside {
    fn drop(&mut self) {
        let depth = DEPTH.get() - 1;
        DEPTH.set(depth);
        if depth == 0 {
            GATE.fetch_sub(1, Ordering::Release);
        }
    }
}

/// Enters the gate before taking a lock of the shared state; waits while a
/// `fork()` is being prepared. Re-entering from inside costs nothing.
pub fn enter() -> Inside {
    register();
    let depth = DEPTH.get();
    if depth == 0 {
        let mut state = GATE.load(Ordering::Relaxed);
        loop {
            if state & CLOSED != 0 {
                std::thread::yield_now();
                state = GATE.load(Ordering::Relaxed);
                continue;
            }
            match GATE.compare_exchange_weak(state, state + 1, Ordering::Acquire, Ordering::Relaxed) {
                Ok(_) => break,
                Err(now) => state = now,
            }
        }
    }
    DEPTH.set(depth + 1);
    Inside(())
}

/// Before `fork()`: close the gate (one `fork()` at a time), then wait until
/// every thread inside has left.
extern "C" fn before_fork() {
    let mut state = GATE.load(Ordering::Relaxed);
    loop {
        if state & CLOSED != 0 {
            std::thread::sleep(Duration::from_micros(50));
            state = GATE.load(Ordering::Relaxed);
            continue;
        }
        match GATE.compare_exchange_weak(state, state | CLOSED, Ordering::Acquire, Ordering::Relaxed) {
            Ok(_) => break,
            Err(now) => state = now,
        }
    }
    // A thread that forks from inside the gate (none of ours does) counts
    // itself: wait for the others only.
    let own = u64::from(DEPTH.get() > 0);
    while GATE.load(Ordering::Acquire) & !CLOSED > own {
        std::thread::sleep(Duration::from_micros(50));
    }
}

extern "C" fn in_parent() {
    GATE.fetch_and(!CLOSED, Ordering::Release);
}

/// Only atomics here: the child of a threaded process may run nothing else
/// before it execs or returns to PHP.
extern "C" fn in_child() {
    GENERATION.fetch_add(1, Ordering::Relaxed);
    GATE.store(u64::from(DEPTH.get() > 0), Ordering::Release);
}

/// Registers the handlers, once, before the first connection or lock.
fn register() {
    REGISTER.call_once(|| {
        // SAFETY: registers handlers that only use atomics, sleep and yield;
        // the child's is async-signal-safe, as a handler run in the child of
        // fork() must be. glibc removes them when this library is unloaded.
        if unsafe { libc::pthread_atfork(Some(before_fork), Some(in_parent), Some(in_child)) } != 0 {
            USE_PID.store(true, Ordering::Relaxed);
        }
    });
}

/// This process's incarnation: different in a child after `fork()` than in
/// its parent. Registered before the first connection is opened, since every
/// connection is opened under a value read here.
pub fn generation() -> u32 {
    register();
    if USE_PID.load(Ordering::Relaxed) {
        return std::process::id();
    }
    GENERATION.load(Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gate_counts_a_thread_once_and_lets_it_leave() {
        // Other tests of this binary may be inside at the same moment: count
        // this thread's share only.
        let a = enter();
        assert_eq!(DEPTH.get(), 1);
        let b = enter();
        assert_eq!(DEPTH.get(), 2, "nested: the gate is not counted again");
        drop(b);
        drop(a);
        assert_eq!(DEPTH.get(), 0);
    }

    #[test]
    fn a_fork_waits_for_no_one_inside_and_the_child_decides() {
        let inside = enter();
        // SAFETY: fork in a test binary; the child only uses the gate and exits.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            // In the child: the gate is open, and this thread's own entry counted.
            let again = enter();
            drop(again);
            // SAFETY: _exit ends the child without running the parent's
            // atexit handlers or flushing its buffers twice.
            unsafe { libc::_exit(if GATE.load(Ordering::Relaxed) == 1 { 0 } else { 1 }) };
        }
        drop(inside);
        let mut status = 0;
        // SAFETY: waits for our own child; `status` outlives the call.
        assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
        assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "child status {status}");
    }
}
