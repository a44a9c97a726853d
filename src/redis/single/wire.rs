//! A socket to one server that two threads can use at once, one writing
//! commands while another reads replies: what the shared connection (`mux`)
//! is built on. redis-rs's own connection keeps its socket to itself, so this
//! opens it: TCP (Nagle off, since commands of several callers follow each
//! other before the first reply is back), TLS over TCP (`single::tls`) or a unix
//! socket, then the same
//! set-up redis-rs does on a RESP2 connection (AUTH when there is a password,
//! SELECT when the db is not 0), with the same errors, so a caller cannot tell
//! which kind of connection refused it.

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream, ToSocketAddrs};
use std::os::fd::AsRawFd;
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

use ::redis::{ErrorKind, RedisError, RedisResult, ServerErrorKind, Value};

use crate::entry::resp;
use crate::redis::rules::time::Timeouts;
use crate::redis::single::frames;
use crate::redis::single::tls::TlsStream;
use crate::redis::target::{Address, Tls};
use crate::redis::words::plain::OpenError;

/// A connected socket. Reads and writes go through `&Stream`, so one thread
/// may read while another writes.
pub enum Stream {
    Tcp(TcpStream),
    Unix(UnixStream),
    Tls(Box<TlsStream>),
}

impl Stream {
    #[inline]
    pub fn read(&self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => (&*s).read(buf),
            Stream::Unix(s) => (&*s).read(buf),
            Stream::Tls(s) => s.read(buf),
        }
    }

    pub fn write_all(&self, buf: &[u8]) -> io::Result<()> {
        match self {
            Stream::Tcp(s) => (&*s).write_all(buf),
            Stream::Unix(s) => (&*s).write_all(buf),
            Stream::Tls(s) => s.write_all(buf),
        }
    }

    /// `None` blocks for ever; a zero duration is refused by the OS, so it is
    /// raised to a microsecond.
    pub fn set_read_timeout(&self, d: Duration) -> io::Result<()> {
        let d = Some(d.max(Duration::from_micros(1)));
        match self {
            Stream::Tcp(s) => s.set_read_timeout(d),
            Stream::Unix(s) => s.set_read_timeout(d),
            Stream::Tls(s) => s.tcp().set_read_timeout(d),
        }
    }

    pub fn set_write_timeout(&self, d: Duration) -> io::Result<()> {
        let d = Some(d.max(Duration::from_micros(1)));
        match self {
            Stream::Tcp(s) => s.set_write_timeout(d),
            Stream::Unix(s) => s.set_write_timeout(d),
            Stream::Tls(s) => s.tcp().set_write_timeout(d),
        }
    }

    /// Whether the server closed this connection while it was idle (a
    /// restart, its `timeout`, `CLIENT KILL`): asked before a command is
    /// written, so such a connection is replaced with nothing sent on it
    /// (`retry`). One non-blocking peek: the end of the stream or an error
    /// means closed; data or nothing to read yet means open (over TLS the
    /// server may have sent a session ticket that no one has read yet).
    pub fn closed_while_idle(&self) -> bool {
        let fd = match self {
            Stream::Tcp(s) => s.as_raw_fd(),
            Stream::Unix(s) => s.as_raw_fd(),
            Stream::Tls(s) => s.tcp().as_raw_fd(),
        };
        let mut byte = 0u8;
        // SAFETY: `fd` is this stream's open socket for the whole call (the
        // stream is borrowed), and `byte` is one writable byte that outlives it.
        let n = unsafe { libc::recv(fd, (&mut byte as *mut u8).cast(), 1, libc::MSG_PEEK | libc::MSG_DONTWAIT) };
        match n {
            0 => true,
            n if n > 0 => false,
            _ => !matches!(io::Error::last_os_error().kind(), io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted),
        }
    }

    /// Wakes a thread blocked reading or writing it (they see the end of the
    /// stream). Only for a socket this process opened: `shutdown` acts on the
    /// socket that a forked child shares with its parent, so a child never
    /// calls it on a connection it inherited (the pool never uses those).
    pub fn shutdown(&self) {
        let _ = match self {
            Stream::Tcp(s) => s.shutdown(Shutdown::Both),
            Stream::Unix(s) => s.shutdown(Shutdown::Both),
            Stream::Tls(s) => s.tcp().shutdown(Shutdown::Both),
        };
    }
}

/// Who to be once connected: the target's credentials and database, kept as plain values.
pub struct Login<'a> {
    pub db: i64,
    pub username: Option<&'a str>,
    pub password: Option<&'a str>,
}

/// A socket to `address` (TCP, TLS when `tls` says, or unix) with the
/// connection's set-up done, within the connect timeout (as redis-rs: the
/// TLS handshake and the set-up get what is left of it), then the reply
/// timeout on both directions. TLS files that cannot be used are an
/// `OpenError::Setup`, found before anything is sent.
pub fn open(address: &Address, tls: Option<&Tls>, login: &Login, timeouts: Timeouts) -> Result<Stream, OpenError> {
    let config = tls.map(crate::redis::single::tls::config).transpose()?;
    let started = Instant::now();
    let left = || -> RedisResult<Duration> {
        let left = timeouts.connect.checked_sub(started.elapsed()).filter(|d| !d.is_zero());
        left.ok_or_else(|| io::Error::new(io::ErrorKind::TimedOut, "Connection timed out").into())
    };
    let connect = || -> RedisResult<Stream> {
        let stream = match (address, config) {
            (Address::Tcp { host, port }, Some(config)) => {
                let tcp = connect_tcp(host, *port, timeouts.connect)?;
                tcp.set_read_timeout(Some(left()?))?;
                tcp.set_write_timeout(Some(left()?))?;
                Stream::Tls(Box::new(crate::redis::single::tls::connect(tcp, host, config)?))
            }
            (Address::Tcp { host, port }, None) => Stream::Tcp(connect_tcp(host, *port, timeouts.connect)?),
            (Address::Unix { path }, _) => Stream::Unix(UnixStream::connect(path)?),
            (Address::Cluster { .. } | Address::Sentinel(_), _) => unreachable!("a single server"),
        };
        stream.set_read_timeout(left()?)?;
        stream.set_write_timeout(left()?)?;
        set_up(&stream, login, true)?;
        stream.set_read_timeout(timeouts.reply)?;
        stream.set_write_timeout(timeouts.reply)?;
        Ok(stream)
    };
    connect().map_err(OpenError::Redis)
}

/// TCP to the first address `host` resolves to that accepts, as redis-rs connects.
fn connect_tcp(host: &str, port: u16, timeout: Duration) -> RedisResult<TcpStream> {
    if host == "0.0.0.0" || host == "::" {
        return Err(RedisError::from((ErrorKind::InvalidClientConfig, "Cannot connect to a wildcard address (0.0.0.0 or ::)")));
    }
    let mut last = None;
    for addr in (host, port).to_socket_addrs()? {
        match TcpStream::connect_timeout(&addr, timeout) {
            Ok(tcp) => {
                tcp.set_nodelay(true)?;
                return Ok(tcp);
            }
            Err(e) => last = Some(e),
        }
    }
    Err(match last {
        Some(e) => e.into(),
        None => RedisError::from((ErrorKind::InvalidClientConfig, "could not resolve to any addresses")),
    })
}

/// AUTH and SELECT in one round trip, their replies judged as redis-rs judges
/// them; AUTH again without the user name when the server is too old to take one.
fn set_up(stream: &Stream, login: &Login, with_username: bool) -> RedisResult<()> {
    let mut commands = Vec::new();
    let mut count = 0;
    if let Some(password) = login.password {
        let username = login.username.filter(|_| with_username);
        resp::array(&mut commands, 2 + usize::from(username.is_some()));
        resp::bulk(&mut commands, b"AUTH");
        if let Some(u) = username {
            resp::bulk(&mut commands, u.as_bytes());
        }
        resp::bulk(&mut commands, password.as_bytes());
        count += 1;
    }
    if login.db != 0 {
        resp::array(&mut commands, 2);
        resp::bulk(&mut commands, b"SELECT");
        resp::bulk_int(&mut commands, login.db);
        count += 1;
    }
    if count == 0 {
        return Ok(());
    }
    stream.write_all(&commands)?;
    let replies = read_replies(stream, count)?;
    let mut replies = replies.iter();
    if login.password.is_some() {
        match replies.next() {
            Some(Value::Okay) => {}
            Some(Value::ServerError(e)) => {
                let retry = e.details().is_some_and(|d| d.contains("wrong number of arguments for 'auth' command"));
                if retry && with_username && login.username.is_some() {
                    // Its SELECT reply, if any, was read: start again.
                    return set_up(stream, login, false);
                }
                return Err(RedisError::from((ErrorKind::AuthenticationFailed, "Password authentication failed")));
            }
            _ => {
                return Err(RedisError::from((
                    ErrorKind::Server(ServerErrorKind::ResponseError),
                    "Redis server refused to authenticate, returns Ok() != Value::Okay",
                )))
            }
        }
    }
    if login.db != 0 {
        if let Some(Value::ServerError(e)) = replies.next() {
            return Err(match e.details() {
                Some(d) => {
                    RedisError::from((ErrorKind::Server(ServerErrorKind::ResponseError), "Redis server refused to switch database", d.to_string()))
                }
                None => RedisError::from((ErrorKind::Server(ServerErrorKind::ResponseError), "Redis server refused to switch database")),
            });
        }
    }
    Ok(())
}

/// `n` replies, read one after another (the set-up, before the connection is shared).
fn read_replies(stream: &Stream, n: usize) -> RedisResult<Vec<Value>> {
    let mut buf = vec![0u8; 4096];
    let (mut start, mut end) = (0, 0);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        if let Some(len) = frames::reply_len(&buf[start..end])? {
            out.push(frames::value(&buf[start..start + len])?);
            start += len;
            continue;
        }
        if end == buf.len() {
            buf.copy_within(start..end, 0);
            end -= start;
            start = 0;
            if end == buf.len() {
                buf.resize(buf.len() * 2, 0);
            }
        }
        match stream.read(&mut buf[end..]) {
            Ok(0) => return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "the server closed the connection").into()),
            Ok(got) => end += got,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(out)
}
