//! One connection shared by the threads of a process (a thread-safe PHP:
//! FrankenPHP, Apache's event MPM): every caller's command is pipelined behind
//! the others in flight, and the replies, which Redis sends in the order it
//! read the commands, are handed back in that order.
//! Concurrent callers' commands then often leave in one `write()` and their
//! replies come back in one `read()`, and Redis pays its per-request system
//! calls once per batch instead of once per decision (redis-rs's multiplexed
//! connection and ioredis's auto-pipelining do the same, with a task or an
//! event loop; here the callers' own threads do the I/O, so one caller alone
//! still makes a plain round trip, with no thread in between).
//!
//! How the threads share it:
//! - **Writing, in batches.** A caller queues its bytes and its place in the
//!   order under the state lock, in one step, so the order of the queue is the
//!   order on the wire. When nothing written is still waiting for its replies,
//!   it writes the queue at once (a caller alone makes a plain round trip);
//!   otherwise its command waits for the batch on its way, and the thread that
//!   reads that batch's last reply writes everything queued meanwhile in one
//!   `write()`. One batch at a time is what makes the batches: written as
//!   soon as each was ready, 16 threads' commands reached Redis 1.4 to a read
//!   (Redis then pays its per-request work per decision); held for the batch
//!   on its way, 3 to a read on a loaded 2-core machine, and Redis spent a
//!   third less CPU per decision. A command waits at most one round trip more.
//! - **Reading.** One waiting caller at a time reads (the reader lock): it
//!   reads what has arrived, copies each complete reply into the buffer of the
//!   call at the head of the order, wakes the callers whose replies are all
//!   there, and stops once its own are; then it wakes one caller still
//!   waiting, which reads next. The others sleep until woken or until their
//!   own deadline. Each caller makes its reply's values itself, in its own
//!   thread, from a buffer of its own: the reader does no more than it must
//!   (the next batch waits for it), and memory is allocated and freed by the
//!   same thread (allocated by the reader and freed by its owner, the values
//!   of 16 threads made the process grow by megabytes over a million decisions).
//! - **Timeouts.** Each call has its own deadline (its `ratelimit.timeout`).
//!   A caller that gives up leaves its place in the order: its replies, when
//!   they come, are read and dropped, never handed to anyone else. When no
//!   caller is left waiting on a connection whose replies are late, it is
//!   closed (as a connection of one caller is after a timeout), and the next
//!   call opens another.
//! - **Failures.** A broken stream (the server closed it, a reset, a reply
//!   that is not RESP) fails every call still waiting on it, each with its own
//!   error, and no call after: they see the connection broken and the pool
//!   opens another. Calls whose replies had all arrived keep them.
//!
//! A thread reaches a `Mux` only through the pool, which checks the process
//! incarnation first (`crate::fork`): a child never uses its parent's.

use std::collections::VecDeque;
use std::io;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::Thread;
use std::time::{Duration, Instant};

use ::redis::{ErrorKind, RedisError, RedisResult, Value};
use parking_lot::Mutex;

use crate::redis::rules::retry;
use crate::redis::rules::time::Timeouts;
use crate::redis::single::frames;
use crate::redis::single::wire::{self, Login, Stream};
use crate::redis::target::{Address, Tls};
use crate::redis::words::plain::OpenError;

/// Read in pieces of this size at least (a batch of replies of 16 callers is ~1 KiB).
const READ_CHUNK: usize = 16 * 1024;
/// A caller that gave up leaves a place whose reply is still to come. So many
/// of them on one connection means the server is not answering while callers
/// keep coming: it is closed rather than keep growing.
const MAX_ABANDONED: usize = 4096;

/// Where one call is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Status {
    /// Its caller waits for its replies.
    Waiting,
    /// Its caller gave up: its replies are read and dropped.
    Abandoned,
    /// Its replies are all there, for its caller to take.
    Ready,
    /// The connection broke before its replies were all there.
    Failed,
    /// Taken, or abandoned and answered: nothing is left of it.
    Gone,
}

struct Call {
    /// Replies it expects, and has got.
    want: usize,
    got: usize,
    /// Their bytes (the caller's own buffer, `REPLIES`, lent for the call).
    raw: Vec<u8>,
    status: Status,
    waiter: Thread,
}

struct State {
    /// Bytes queued, not yet written; and the buffer the writer last wrote from.
    out: Vec<u8>,
    spare: Vec<u8>,
    writing: bool,
    /// Calls numbered below this one have been written (their bytes taken by a writer).
    written: u64,
    /// Calls in the order of their commands on the wire; `first` is the
    /// number of `calls[0]`, `next` the number of the call the next reply is for.
    calls: VecDeque<Call>,
    first: u64,
    next: u64,
    /// Calls whose caller is waiting for a reply (`Waiting`), and callers that gave up with replies to come.
    waiting: usize,
    abandoned: usize,
    /// Why the connection is unusable, once it is.
    broken: Option<RedisError>,
}

struct ReadSide {
    buf: Vec<u8>,
    /// Complete replies read and not yet handed out: (start, length) in `buf`.
    frames: Vec<(usize, usize)>,
    start: usize,
    end: usize,
    /// The read timeout set on the socket now.
    timeout: Duration,
}

/// One shared connection.
pub struct Mux {
    stream: Stream,
    state: Mutex<State>,
    read: Mutex<ReadSide>,
    /// Calls in flight (for the pool: an idle connection may be closed by the bound).
    in_flight: AtomicUsize,
    /// What the connection has learnt of its server (`Conn::module`): 0 not asked, 1 no, 2 yes.
    module: AtomicU8,
    /// Whether a peek found no function library on its server (`Conn::peeks_by_script`).
    peeks_by_script: AtomicBool,
    /// The database it selected.
    pub db: i64,
}

/// A call's place: its number in the order.
pub struct Ticket(u64);

impl Mux {
    /// The one way a single server's connection is opened: a socket to
    /// `address` (TCP, TLS when `tls` says, or unix) with its set-up done
    /// (`wire::open`), ready for callers to share.
    pub fn open(address: &Address, tls: Option<&Tls>, login: &Login, timeouts: Timeouts) -> Result<Arc<Mux>, OpenError> {
        wire::open(address, tls, login, timeouts).map(|stream| Arc::new(Mux::new(stream, login.db, timeouts.reply)))
    }

    /// A connection over `stream` (to database `db`), whose read timeout is `timeout` now.
    fn new(stream: Stream, db: i64, timeout: Duration) -> Mux {
        Mux {
            stream,
            state: Mutex::new(State {
                out: Vec::new(),
                spare: Vec::new(),
                writing: false,
                written: 0,
                calls: VecDeque::new(),
                first: 0,
                next: 0,
                waiting: 0,
                abandoned: 0,
                broken: None,
            }),
            read: Mutex::new(ReadSide { buf: vec![0; READ_CHUNK], frames: Vec::new(), start: 0, end: 0, timeout }),
            in_flight: AtomicUsize::new(0),
            module: AtomicU8::new(0),
            peeks_by_script: AtomicBool::new(false),
            db,
        }
    }

    pub fn is_broken(&self) -> bool {
        self.state.lock().broken.is_some()
    }

    pub fn in_flight(&self) -> usize {
        self.in_flight.load(Ordering::Relaxed)
    }

    pub fn module(&self) -> Option<bool> {
        match self.module.load(Ordering::Relaxed) {
            1 => Some(false),
            2 => Some(true),
            _ => None,
        }
    }

    pub fn peeks_by_script(&self) -> bool {
        self.peeks_by_script.load(Ordering::Relaxed)
    }

    /// Once learnt, for the connection's life (as on a connection of one's own).
    pub fn set_peeks_by_script(&self) {
        self.peeks_by_script.store(true, Ordering::Relaxed);
    }

    pub fn set_module(&self, module: bool) {
        self.module.store(1 + u8::from(module), Ordering::Relaxed);
    }

    /// Sends `packed` (`want` commands) and waits until `deadline` at most for
    /// their replies, in order. Error replies are values (`Value::ServerError`),
    /// as on a redis-rs connection; the error is the connection's or the timeout.
    pub fn call(&self, packed: &[u8], want: usize, deadline: Instant) -> RedisResult<Vec<Value>> {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
        let result = self.send(packed, want).and_then(|ticket| self.wait(ticket, deadline));
        self.in_flight.fetch_sub(1, Ordering::Relaxed);
        result
    }

    /// Queues the call and its bytes; writes the queue if no one else is.
    fn send(&self, packed: &[u8], want: usize) -> RedisResult<Ticket> {
        let mut state = self.state.lock();
        if state.broken.is_some() {
            // Nothing was sent: the pool opens another connection and sends it there.
            return Err(retry::not_sent_error("the connection was closed"));
        }
        // Idle: the server may have closed it meanwhile (a restart, its idle
        // timeout). Found now, nothing is sent on it: the pool opens another
        // and sends the command there. Found after the write, the command's
        // fate would be unknown and the call could not be retried.
        if state.calls.is_empty() && self.stream.closed_while_idle() {
            let e = retry::not_sent_error("the server closed the connection while it was idle");
            self.break_with(&mut state, e.clone());
            return Err(e);
        }
        let ticket = state.first + state.calls.len() as u64;
        let mut raw = REPLIES.take();
        // Room for a decision's replies, allocated here, by the thread that frees it.
        raw.reserve(512);
        state.calls.push_back(Call { want, got: 0, raw, status: Status::Waiting, waiter: std::thread::current() });
        state.waiting += 1;
        state.out.extend_from_slice(packed);
        // Written now when nothing is on its way; else with the next batch.
        if state.writing || state.next < state.written {
            return Ok(Ticket(ticket));
        }
        self.flush(&mut state);
        Ok(Ticket(ticket))
    }

    /// Writes the queue until it is empty (others may add to it meanwhile).
    fn flush(&self, state: &mut parking_lot::MutexGuard<'_, State>) {
        state.writing = true;
        loop {
            let spare = std::mem::take(&mut state.spare);
            let mut batch = std::mem::replace(&mut state.out, spare);
            state.written = state.first + state.calls.len() as u64;
            let written = parking_lot::MutexGuard::unlocked(state, || self.stream.write_all(&batch));
            batch.clear();
            state.spare = batch;
            if let Err(e) = written {
                // Part of a command may have left: the stream is out of step.
                state.writing = false;
                self.break_with(state, e.into());
                return;
            }
            if state.out.is_empty() {
                state.writing = false;
                return;
            }
        }
    }

    /// Waits for the replies of `ticket`: reads them (and others') when no
    /// one else is reading, else sleeps until woken or the deadline.
    fn wait(&self, ticket: Ticket, deadline: Instant) -> RedisResult<Vec<Value>> {
        loop {
            if let Some(done) = self.collect(&ticket) {
                return done;
            }
            if let Some(mut read) = self.read.try_lock() {
                let done = self.read_until(&ticket, deadline, &mut read);
                drop(read);
                self.hand_over_reading();
                match done {
                    Some(done) => return done,
                    None => continue,
                }
            }
            let now = Instant::now();
            if now >= deadline {
                return self.give_up(&ticket);
            }
            std::thread::park_timeout(deadline - now);
        }
    }

    /// The call's outcome once it has one: its replies, or the connection's error.
    fn collect(&self, ticket: &Ticket) -> Option<RedisResult<Vec<Value>>> {
        let mut state = self.state.lock();
        let i = (ticket.0 - state.first) as usize;
        let call = &mut state.calls[i];
        let done = match call.status {
            Status::Ready => Ok((std::mem::take(&mut call.raw), call.want)),
            Status::Failed => Err(state.broken.clone().unwrap_or_else(|| io::Error::from(io::ErrorKind::BrokenPipe).into())),
            _ => return None,
        };
        state.calls[i].status = Status::Gone;
        pop_gone(&mut state);
        drop(state);
        Some(done.and_then(|(raw, want)| values(raw, want)))
    }

    /// The deadline passed: the call leaves its place (its replies will be
    /// dropped); unless they arrived meanwhile.
    fn give_up(&self, ticket: &Ticket) -> RedisResult<Vec<Value>> {
        if let Some(done) = self.collect(ticket) {
            return done;
        }
        let mut state = self.state.lock();
        let i = (ticket.0 - state.first) as usize;
        state.calls[i].status = Status::Abandoned;
        state.waiting -= 1;
        state.abandoned += 1;
        // No one waits any more while replies are late: the server is stalled
        // or gone. Close it, as a connection of one caller is after a timeout.
        if state.waiting == 0 || state.abandoned > MAX_ABANDONED {
            self.break_with(&mut state, io::Error::new(io::ErrorKind::TimedOut, "no reply within the timeout").into());
        }
        Err(io::Error::new(io::ErrorKind::TimedOut, "no reply within the timeout").into())
    }

    /// Reads replies and hands them out until `ticket`'s are all there (its
    /// outcome), the deadline passes (its timeout), or the connection breaks
    /// (`None`: `collect` then finds the call failed).
    fn read_until(&self, ticket: &Ticket, deadline: Instant, read: &mut ReadSide) -> Option<RedisResult<Vec<Value>>> {
        loop {
            // Every complete reply already read, handed out in one go.
            loop {
                match frames::reply_len(&read.buf[read.start..read.end]) {
                    Ok(Some(len)) => {
                        read.frames.push((read.start, len));
                        read.start += len;
                    }
                    Ok(None) => break,
                    Err(e) => return self.fail_reading(e),
                }
            }
            if !read.frames.is_empty() {
                let handed = self.hand_out(read);
                read.frames.clear();
                if let Err(e) = handed {
                    return self.fail_reading(e);
                }
            }
            if let Some(done) = self.collect(ticket) {
                return Some(done);
            }
            let now = Instant::now();
            if now >= deadline {
                return Some(self.give_up(ticket));
            }
            // The socket's read timeout is the reader's time left (set only
            // when it would wait too long, so a run of calls with the same
            // timeout sets it once).
            let left = deadline - now;
            if read.timeout > left + Duration::from_millis(1) {
                if let Err(e) = self.stream.set_read_timeout(left) {
                    return self.fail_reading(e.into());
                }
                read.timeout = left;
            }
            if read.start == read.end {
                read.start = 0;
                read.end = 0;
            } else if read.buf.len() - read.end < READ_CHUNK / 4 {
                // Room for the rest: move what is there to the front, or grow for a long reply.
                read.buf.copy_within(read.start..read.end, 0);
                read.end -= read.start;
                read.start = 0;
                if read.buf.len() - read.end < READ_CHUNK / 4 {
                    let len = read.buf.len() * 2;
                    read.buf.resize(len, 0);
                }
            }
            let end = read.end;
            match self.stream.read(&mut read.buf[end..]) {
                Ok(0) => return self.fail_reading(io::Error::new(io::ErrorKind::UnexpectedEof, "the server closed the connection").into()),
                Ok(n) => read.end += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => {
                    // The socket's timeout was shorter than this reader's time left
                    // (set for an earlier reader): wait the rest.
                    read.timeout = Duration::ZERO;
                    let left = deadline.saturating_duration_since(Instant::now());
                    if !left.is_zero() {
                        if let Err(e) = self.stream.set_read_timeout(left) {
                            return self.fail_reading(e.into());
                        }
                        read.timeout = left;
                    }
                }
                Err(e) => return self.fail_reading(e.into()),
            }
        }
    }

    /// Gives each reply read (`read.frames`) to the call it answers, in
    /// order; wakes the callers whose replies are all there.
    fn hand_out(&self, read: &ReadSide) -> RedisResult<()> {
        let mut state = self.state.lock();
        let me = std::thread::current().id();
        for &(start, len) in &read.frames {
            let i = state.next.wrapping_sub(state.first) as usize;
            let Some(call) = state.calls.get_mut(i) else {
                return Err(RedisError::from((ErrorKind::Parse, "the server did not answer as Redis does", "a reply to no command".to_string())));
            };
            call.got += 1;
            if call.status == Status::Waiting {
                call.raw.extend_from_slice(&read.buf[start..start + len]);
            }
            if call.got < call.want {
                continue;
            }
            match call.status {
                Status::Waiting => {
                    call.status = Status::Ready;
                    if call.waiter.id() != me {
                        call.waiter.unpark();
                    }
                    state.waiting -= 1;
                }
                _ => {
                    call.status = Status::Gone;
                    state.abandoned -= 1;
                }
            }
            state.next += 1;
        }
        pop_gone(&mut state);
        if !state.writing && state.next >= state.written && !state.out.is_empty() && state.broken.is_none() {
            self.flush(&mut state);
        }
        Ok(())
    }

    /// The reader found the stream broken: every waiting call fails.
    fn fail_reading(&self, e: RedisError) -> Option<RedisResult<Vec<Value>>> {
        self.break_with(&mut self.state.lock(), e);
        None
    }

    /// After reading: wake a caller still waiting, to read next (it may find
    /// another already reading, who then wakes it when its replies are there).
    fn hand_over_reading(&self) {
        let state = self.state.lock();
        if state.waiting == 0 {
            return;
        }
        let me = std::thread::current().id();
        let from = state.next.wrapping_sub(state.first) as usize;
        if let Some(call) = state.calls.iter().skip(from).find(|c| c.status == Status::Waiting && c.waiter.id() != me) {
            call.waiter.unpark();
        }
    }

    /// The connection is unusable: say why to every call still waiting and to
    /// every later one, and wake whoever is blocked on the socket.
    fn break_with(&self, state: &mut State, e: RedisError) {
        if state.broken.is_none() {
            state.broken = Some(e);
            self.stream.shutdown();
        }
        let from = state.next.wrapping_sub(state.first) as usize;
        for call in state.calls.iter_mut().skip(from) {
            match call.status {
                Status::Waiting => {
                    call.status = Status::Failed;
                    call.waiter.unpark();
                }
                Status::Abandoned => call.status = Status::Gone,
                _ => {}
            }
        }
        state.waiting = 0;
        state.abandoned = 0;
        state.next = state.first + state.calls.len() as u64;
        pop_gone(state);
    }
}

thread_local! {
    /// The buffer a thread's replies arrive in, lent to its call and given back
    /// when the call is over (its capacity stays with the thread).
    static REPLIES: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// The `want` replies in `raw` (complete, as the reader framed them), read in
/// the caller's thread; `raw` goes back to the thread for its next call.
fn values(mut raw: Vec<u8>, want: usize) -> RedisResult<Vec<Value>> {
    let mut out = Vec::with_capacity(want);
    let mut at = 0;
    let mut result = Ok(());
    while out.len() < want {
        match frames::reply_len(&raw[at..]) {
            Ok(Some(len)) => match frames::value(&raw[at..at + len]) {
                Ok(v) => {
                    out.push(v);
                    at += len;
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            },
            _ => {
                result = Err(RedisError::from((ErrorKind::Parse, "the server did not answer as Redis does", "a cut reply".to_string())));
                break;
            }
        }
    }
    raw.clear();
    REPLIES.set(raw);
    result.map(|()| out)
}

/// Drops the calls at the front that nothing is left of.
fn pop_gone(state: &mut State) {
    while state.calls.front().is_some_and(|c| c.status == Status::Gone) {
        state.calls.pop_front();
        state.first += 1;
    }
}
