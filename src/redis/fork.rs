//! Which incarnation of the process this is: a number bumped in the child of
//! every `fork()` by a `pthread_atfork` handler. The pool compares it with
//! the one a connection was opened under, so a child never reads replies
//! meant for its parent, without a `getpid()` system call on every decision.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Once;

static GENERATION: AtomicU32 = AtomicU32::new(0);
static REGISTER: Once = Once::new();
/// `pthread_atfork` failed (out of memory): ask the kernel every time instead.
static USE_PID: AtomicBool = AtomicBool::new(false);

extern "C" fn in_child() {
    GENERATION.fetch_add(1, Ordering::Relaxed);
}

/// This process's incarnation: different in a child after `fork()` than in
/// its parent. Registered before the first connection is opened, since every
/// connection is opened under a value read here.
pub fn generation() -> u32 {
    REGISTER.call_once(|| {
        // SAFETY: registers a handler that only bumps an atomic, which is
        // async-signal-safe, as a handler run in the child of fork() must be.
        // glibc removes it when this library is unloaded.
        if unsafe { libc::pthread_atfork(None, None, Some(in_child)) } != 0 {
            USE_PID.store(true, Ordering::Relaxed);
        }
    });
    if USE_PID.load(Ordering::Relaxed) {
        return std::process::id();
    }
    GENERATION.load(Ordering::Relaxed)
}
