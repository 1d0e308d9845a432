//! `qi-relay`: pairs a host and a joiner by a short room code and forwards their frames, for
//! games across the internet where neither player can accept a connection.
//!
//! A client's first line says what it wants, as JSON; the relay answers with one line:
//!
//! ```text
//! → {"relay":1,"op":"host"}                               a new room
//! ← {"relay":1,"ok":"room","room":"K7M2QX","key":"…"}      wait for the joiner
//! → {"relay":1,"op":"host","room":"K7M2QX","key":"…"}     the host back after a drop
//! → {"relay":1,"op":"join","room":"K7M2QX"}
//! ← {"relay":1,"ok":"paired"}                              to both; from here on, every line is
//!                                                          forwarded as it is to the other
//! ← {"relay":1,"error":"no such room"}                     and the relay closes
//! ```
//!
//! Limits: a line of at most [`RelayConfig::max_frame`] bytes, at most
//! [`RelayConfig::frames_per_sec`] lines a second on average per connection (bursts of
//! [`RelayConfig::burst`]), a first line within [`RelayConfig::handshake_timeout`], silence
//! of at most [`RelayConfig::idle_timeout`] once paired, at most [`RelayConfig::max_connections`]
//! connections and [`RelayConfig::max_rooms`] rooms. A connection that breaks one is closed
//! (with its partner, who then reconnects). The relay reads no game message: the two
//! players' sessions check everything.

use std::collections::HashMap;
use std::io::{self, BufReader, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::frame::{Frame, read_frame};
use qi_core::net::protocol::MAX_FRAME_BYTES;
use qi_core::net::session::random_token;

/// The relay protocol's version (in every relay line).
pub const RELAY_VERSION: u32 = 1;
/// The port `qi-relay` listens on unless told otherwise.
pub const DEFAULT_RELAY_PORT: u16 = 7477;
/// Room codes use these (no 0/O, 1/I/L).
const CODE_CHARS: &[u8] = b"23456789ABCDEFGHJKMNPQRSTUVWXYZ";
pub const CODE_LEN: usize = 6;

/// Limits of a relay.
#[derive(Clone, Debug)]
pub struct RelayConfig {
    pub max_connections: usize,
    pub max_rooms: usize,
    pub max_frame: usize,
    pub frames_per_sec: u32,
    pub burst: u32,
    pub handshake_timeout: Duration,
    pub idle_timeout: Duration,
    /// How long a room with nobody in it is kept for its host to come back.
    pub room_ttl: Duration,
}

impl Default for RelayConfig {
    fn default() -> RelayConfig {
        RelayConfig {
            max_connections: 4096,
            max_rooms: 4096,
            max_frame: MAX_FRAME_BYTES,
            frames_per_sec: 20,
            burst: 200,
            handshake_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            room_ttl: Duration::from_secs(600),
        }
    }
}

/// A client's first line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RelayRequest {
    pub relay: u32,
    pub op: RelayOp,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RelayOp {
    Host,
    Join,
}

/// The relay's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RelayReply {
    pub relay: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ok: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl RelayReply {
    fn ok(what: &str) -> RelayReply {
        RelayReply {
            relay: RELAY_VERSION,
            ok: Some(what.into()),
            room: None,
            key: None,
            error: None,
        }
    }

    fn error(why: &str) -> RelayReply {
        RelayReply {
            relay: RELAY_VERSION,
            ok: None,
            room: None,
            key: None,
            error: Some(why.into()),
        }
    }
}

/// Counters of a running relay.
#[derive(Debug, Default)]
pub struct RelayStats {
    pub connections: AtomicUsize,
    pub connections_total: AtomicU64,
    pub rooms: AtomicUsize,
    pub paired: AtomicUsize,
    pub frames: AtomicU64,
    pub bytes: AtomicU64,
    /// Connections closed for breaking a limit or the handshake.
    pub refused: AtomicU64,
}

/// A snapshot of [`RelayStats`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatsSnapshot {
    pub connections: usize,
    pub connections_total: u64,
    pub rooms: usize,
    pub paired: usize,
    pub frames: u64,
    pub bytes: u64,
    pub refused: u64,
}

impl RelayStats {
    pub fn snapshot(&self) -> StatsSnapshot {
        StatsSnapshot {
            connections: self.connections.load(Ordering::Relaxed),
            connections_total: self.connections_total.load(Ordering::Relaxed),
            rooms: self.rooms.load(Ordering::Relaxed),
            paired: self.paired.load(Ordering::Relaxed),
            frames: self.frames.load(Ordering::Relaxed),
            bytes: self.bytes.load(Ordering::Relaxed),
            refused: self.refused.load(Ordering::Relaxed),
        }
    }
}

struct Waiting {
    id: u64,
    stream: TcpStream,
    pair: Sender<TcpStream>,
}

struct Room {
    key: String,
    waiting: Option<Waiting>,
    /// The two streams of the pair being forwarded (to cut a stale pair when the host is back).
    paired: Option<(TcpStream, TcpStream)>,
    last_active: Instant,
}

struct Shared {
    config: RelayConfig,
    rooms: Mutex<HashMap<String, Room>>,
    stats: Arc<RelayStats>,
    stop: AtomicBool,
    next_id: AtomicU64,
}

/// A running relay; dropping it (or [`Relay::stop`]) stops it.
pub struct Relay {
    addr: SocketAddr,
    shared: Arc<Shared>,
    accept: Option<JoinHandle<()>>,
}

impl Relay {
    /// Listens on `bind` (`127.0.0.1:0` for any free port) and serves in background threads.
    pub fn start(bind: SocketAddr, config: RelayConfig) -> io::Result<Relay> {
        let listener = TcpListener::bind(bind)?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Shared {
            config,
            rooms: Mutex::new(HashMap::new()),
            stats: Arc::new(RelayStats::default()),
            stop: AtomicBool::new(false),
            next_id: AtomicU64::new(1),
        });
        let s = shared.clone();
        let accept = thread::Builder::new()
            .name("qi-relay-accept".into())
            .spawn(move || accept_loop(listener, s))?;
        Ok(Relay {
            addr,
            shared,
            accept: Some(accept),
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn stats(&self) -> Arc<RelayStats> {
        self.shared.stats.clone()
    }

    /// Stops accepting and closes every connection.
    pub fn stop(&mut self) {
        if self.shared.stop.swap(true, Ordering::SeqCst) {
            return;
        }
        // Wake the accept loop.
        let _ = TcpStream::connect_timeout(&wake_addr(self.addr), Duration::from_secs(1));
        if let Some(t) = self.accept.take() {
            let _ = t.join();
        }
        let mut rooms = self.shared.rooms.lock().unwrap_or_else(|e| e.into_inner());
        for (_, room) in rooms.drain() {
            if let Some(w) = room.waiting {
                let _ = w.stream.shutdown(Shutdown::Both);
            }
            if let Some((a, b)) = room.paired {
                let _ = a.shutdown(Shutdown::Both);
                let _ = b.shutdown(Shutdown::Both);
            }
        }
    }

    /// Serves until the process ends (for the `qi-relay` binary).
    pub fn wait(mut self) {
        if let Some(t) = self.accept.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.stop();
    }
}

fn wake_addr(addr: SocketAddr) -> SocketAddr {
    let mut a = addr;
    if a.ip().is_unspecified() {
        a.set_ip(if a.is_ipv4() {
            std::net::Ipv4Addr::LOCALHOST.into()
        } else {
            std::net::Ipv6Addr::LOCALHOST.into()
        });
    }
    a
}

fn accept_loop(listener: TcpListener, shared: Arc<Shared>) {
    for conn in listener.incoming() {
        if shared.stop.load(Ordering::SeqCst) {
            break;
        }
        let Ok(stream) = conn else { continue };
        let stats = &shared.stats;
        stats.connections_total.fetch_add(1, Ordering::Relaxed);
        if stats.connections.load(Ordering::Relaxed) >= shared.config.max_connections {
            stats.refused.fetch_add(1, Ordering::Relaxed);
            let mut s = stream;
            let _ = s.set_write_timeout(Some(Duration::from_secs(1)));
            let _ = send_reply(&mut s, &RelayReply::error("the relay is full"));
            // What the client already sent is read away, so that closing sends a FIN (and
            // the client reads the reason) rather than a reset.
            let _ = s.shutdown(Shutdown::Write);
            if s.set_nonblocking(true).is_ok() {
                let mut sink = [0u8; 1024];
                while matches!(io::Read::read(&mut s, &mut sink), Ok(n) if n > 0) {}
            }
            continue;
        }
        stats.connections.fetch_add(1, Ordering::Relaxed);
        let s = shared.clone();
        let spawned = thread::Builder::new()
            .name("qi-relay-conn".into())
            .stack_size(128 * 1024)
            .spawn(move || {
                handle(stream, &s);
                s.stats.connections.fetch_sub(1, Ordering::Relaxed);
            });
        if spawned.is_err() {
            shared.stats.connections.fetch_sub(1, Ordering::Relaxed);
            shared.stats.refused.fetch_add(1, Ordering::Relaxed);
        }
    }
}

fn send_reply(s: &mut TcpStream, r: &RelayReply) -> io::Result<()> {
    let mut line = serde_json::to_string(r).expect("a reply serialises");
    line.push('\n');
    s.write_all(line.as_bytes())
}

fn new_code() -> String {
    let t = random_token(CODE_LEN);
    t.as_bytes()
        .chunks(2)
        .take(CODE_LEN)
        .map(|c| {
            let v = u8::from_str_radix(std::str::from_utf8(c).unwrap_or("0"), 16).unwrap_or(0);
            CODE_CHARS[v as usize % CODE_CHARS.len()] as char
        })
        .collect()
}

/// A room code as typed: upper case, spaces and dashes dropped.
pub fn normalise_code(code: &str) -> String {
    code.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

fn handle(mut stream: TcpStream, shared: &Arc<Shared>) {
    let cfg = &shared.config;
    let _ = stream.set_nodelay(true);
    let _ = stream.set_write_timeout(Some(Duration::from_secs(10)));
    let _ = stream.set_read_timeout(Some(cfg.handshake_timeout));
    let Ok(read_half) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::with_capacity(4096, read_half);
    let mut buf = Vec::new();
    let request = match read_frame(&mut reader, &mut buf, 1024) {
        Ok(Frame::Line(l)) => serde_json::from_slice::<RelayRequest>(&l).ok(),
        _ => None,
    };
    let refuse = |stream: &mut TcpStream, why: &str| {
        shared.stats.refused.fetch_add(1, Ordering::Relaxed);
        let _ = send_reply(stream, &RelayReply::error(why));
        let _ = stream.shutdown(Shutdown::Both);
    };
    let Some(req) = request else {
        return refuse(&mut stream, "not a relay request");
    };
    if req.relay != RELAY_VERSION {
        return refuse(&mut stream, "another relay protocol version");
    }
    match req.op {
        RelayOp::Host => host(stream, reader, req, shared),
        RelayOp::Join => join(stream, reader, req, shared),
    }
}

fn host(
    mut stream: TcpStream,
    reader: BufReader<TcpStream>,
    req: RelayRequest,
    shared: &Arc<Shared>,
) {
    let cfg = &shared.config;
    let id = shared.next_id.fetch_add(1, Ordering::Relaxed);
    let (tx, rx) = mpsc::channel();
    let Ok(waiting_stream) = stream.try_clone() else {
        return;
    };
    let waiting = Waiting {
        id,
        stream: waiting_stream,
        pair: tx,
    };
    let (code, key) = {
        let mut rooms = shared.rooms.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        rooms.retain(|_, r| {
            r.waiting.is_some() || r.paired.is_some() || now - r.last_active < cfg.room_ttl
        });
        let reclaim = match (&req.room, &req.key) {
            (Some(code), Some(key)) => {
                let code = normalise_code(code);
                let full = rooms.len() >= cfg.max_rooms;
                match rooms.get_mut(&code) {
                    Some(room) if room.key == *key => {
                        // The host is back: whatever was left of the old pair or wait goes.
                        if let Some((a, b)) = room.paired.take() {
                            let _ = a.shutdown(Shutdown::Both);
                            let _ = b.shutdown(Shutdown::Both);
                        }
                        if let Some(w) = room.waiting.take() {
                            let _ = w.stream.shutdown(Shutdown::Both);
                        }
                        room.waiting = Some(waiting);
                        room.last_active = now;
                        Ok((code, key.clone()))
                    }
                    Some(_) => Err("wrong room key"),
                    None if full => Err("the relay has no room left"),
                    None => {
                        // The relay restarted: the room is made again under its code.
                        rooms.insert(
                            code.clone(),
                            Room {
                                key: key.clone(),
                                waiting: Some(waiting),
                                paired: None,
                                last_active: now,
                            },
                        );
                        Ok((code, key.clone()))
                    }
                }
            }
            (None, None) if rooms.len() >= cfg.max_rooms => Err("the relay has no room left"),
            (None, None) => {
                let mut code = new_code();
                while rooms.contains_key(&code) {
                    code = new_code();
                }
                let key = random_token(16);
                rooms.insert(
                    code.clone(),
                    Room {
                        key: key.clone(),
                        waiting: Some(waiting),
                        paired: None,
                        last_active: now,
                    },
                );
                Ok((code, key))
            }
            _ => Err("a room needs both its code and its key"),
        };
        shared.stats.rooms.store(rooms.len(), Ordering::Relaxed);
        match reclaim {
            Ok(ck) => ck,
            Err(why) => {
                drop(rooms);
                shared.stats.refused.fetch_add(1, Ordering::Relaxed);
                let _ = send_reply(&mut stream, &RelayReply::error(why));
                let _ = stream.shutdown(Shutdown::Both);
                return;
            }
        }
    };
    let mut reply = RelayReply::ok("room");
    reply.room = Some(code.clone());
    reply.key = Some(key);
    if send_reply(&mut stream, &reply).is_err() {
        forget_waiting(shared, &code, id);
        return;
    }
    // Wait for the joiner, watching that the host is still there.
    let peer = loop {
        if shared.stop.load(Ordering::SeqCst) {
            forget_waiting(shared, &code, id);
            return;
        }
        match rx.recv_timeout(Duration::from_millis(500)) {
            Ok(peer) => break peer,
            Err(RecvTimeoutError::Disconnected) => return,
            Err(RecvTimeoutError::Timeout) => {
                if !still_there(&stream) && forget_waiting(shared, &code, id) {
                    return;
                }
            }
        }
    };
    forward(reader, peer, stream, shared, &code);
}

/// Whether a waiting host's connection is open and quiet (it must send nothing before the pair).
fn still_there(stream: &TcpStream) -> bool {
    let mut b = [0u8; 1];
    if stream.set_nonblocking(true).is_err() {
        return false;
    }
    let r = stream.peek(&mut b);
    let _ = stream.set_nonblocking(false);
    matches!(r, Err(ref e) if e.kind() == io::ErrorKind::WouldBlock)
}

/// Drops the room's wait if it is still `id`'s; `false` when a joiner already took it.
fn forget_waiting(shared: &Shared, code: &str, id: u64) -> bool {
    let mut rooms = shared.rooms.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(room) = rooms.get_mut(code)
        && room.waiting.as_ref().is_some_and(|w| w.id == id)
    {
        room.waiting = None;
        room.last_active = Instant::now();
        return true;
    }
    false
}

fn join(
    mut stream: TcpStream,
    reader: BufReader<TcpStream>,
    req: RelayRequest,
    shared: &Arc<Shared>,
) {
    let code = normalise_code(req.room.as_deref().unwrap_or(""));
    let taken = {
        let mut rooms = shared.rooms.lock().unwrap_or_else(|e| e.into_inner());
        match rooms.get_mut(&code) {
            None => Err("no such room"),
            Some(room) => match room.waiting.take() {
                None if room.paired.is_some() => Err("the room's game is on; try again shortly"),
                None => Err("the host is not in the room; try again shortly"),
                Some(w) => {
                    if let (Ok(a), Ok(b)) = (w.stream.try_clone(), stream.try_clone()) {
                        room.paired = Some((a, b));
                    }
                    room.last_active = Instant::now();
                    Ok(w)
                }
            },
        }
    };
    let w = match taken {
        Ok(w) => w,
        Err(why) => {
            shared.stats.refused.fetch_add(1, Ordering::Relaxed);
            let _ = send_reply(&mut stream, &RelayReply::error(why));
            let _ = stream.shutdown(Shutdown::Both);
            return;
        }
    };
    let mut host_stream = w.stream;
    let paired = RelayReply::ok("paired");
    let ok =
        send_reply(&mut host_stream, &paired).is_ok() && send_reply(&mut stream, &paired).is_ok();
    let handed = ok
        && stream
            .try_clone()
            .is_ok_and(|copy| w.pair.send(copy).is_ok());
    match handed {
        true => {
            shared.stats.paired.fetch_add(1, Ordering::Relaxed);
            forward(reader, host_stream, stream, shared, &code);
            shared.stats.paired.fetch_sub(1, Ordering::Relaxed);
        }
        _ => {
            let _ = host_stream.shutdown(Shutdown::Both);
            let _ = stream.shutdown(Shutdown::Both);
            unpair(shared, &code);
        }
    }
}

fn unpair(shared: &Shared, code: &str) {
    let mut rooms = shared.rooms.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(room) = rooms.get_mut(code) {
        room.paired = None;
        room.last_active = Instant::now();
    }
}

/// Forwards lines from `from` (read through `reader`) to `to` until either end stops or a
/// limit is broken; then closes both.
fn forward(
    mut reader: BufReader<TcpStream>,
    mut to: TcpStream,
    from: TcpStream,
    shared: &Arc<Shared>,
    code: &str,
) {
    let cfg = &shared.config;
    let _ = from.set_read_timeout(Some(cfg.idle_timeout));
    let _ = reader.get_ref().set_read_timeout(Some(cfg.idle_timeout));
    let mut buf = Vec::new();
    let mut tokens = cfg.burst as f64;
    let mut last = Instant::now();
    let mut out = Vec::with_capacity(256);
    loop {
        let line = match read_frame(&mut reader, &mut buf, cfg.max_frame) {
            Ok(Frame::Line(l)) => l,
            Ok(Frame::TooLong(_)) => {
                shared.stats.refused.fetch_add(1, Ordering::Relaxed);
                break;
            }
            Ok(Frame::Eof) | Err(_) => break,
        };
        let now = Instant::now();
        tokens =
            (tokens + (now - last).as_secs_f64() * cfg.frames_per_sec as f64).min(cfg.burst as f64);
        last = now;
        if tokens < 1.0 {
            shared.stats.refused.fetch_add(1, Ordering::Relaxed);
            break;
        }
        tokens -= 1.0;
        out.clear();
        out.extend_from_slice(&line);
        out.push(b'\n');
        if to.write_all(&out).is_err() {
            break;
        }
        shared.stats.frames.fetch_add(1, Ordering::Relaxed);
        shared
            .stats
            .bytes
            .fetch_add(out.len() as u64, Ordering::Relaxed);
    }
    let _ = from.shutdown(Shutdown::Both);
    let _ = to.shutdown(Shutdown::Both);
    unpair(shared, code);
}

/// Sends the client's first line.
pub fn request(stream: &mut TcpStream, req: &RelayRequest) -> io::Result<()> {
    let mut line = serde_json::to_string(req).expect("a request serialises");
    line.push('\n');
    stream.write_all(line.as_bytes())
}

/// Reads one relay reply.
pub fn read_reply(reader: &mut BufReader<TcpStream>) -> io::Result<RelayReply> {
    let mut buf = Vec::new();
    match read_frame(reader, &mut buf, 4096)? {
        Frame::Line(l) => serde_json::from_slice(&l)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("not a relay: {e}"))),
        Frame::TooLong(_) => Err(io::Error::new(io::ErrorKind::InvalidData, "not a relay")),
        Frame::Eof => Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the relay closed the connection",
        )),
    }
}
