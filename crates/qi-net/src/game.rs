//! [`NetGame`]: an online game over TCP for the window to poll each frame. Background threads
//! connect, reconnect, read and write; the window calls [`NetGame::poll`] for what happened,
//! [`NetGame::send`] for the player's actions and [`NetGame::session`] to draw the board,
//! clocks and names. Nothing here blocks the caller for long (a lock held only by short
//! updates).

use std::io::{self, BufReader, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::discovery::{Advertisement, LanGameInfo};
use crate::frame::{Frame, read_frame};
use crate::relay::{self, RELAY_VERSION, RelayOp, RelayRequest};
use qi_core::any::AnyMove;
use qi_core::net::protocol::{MAX_FRAME_BYTES, Message, Setup, encode};
use qi_core::net::reason::LinkEnd;
use qi_core::net::session::{ActionError, Event, Session, SessionSave, Timing};

/// The port a LAN host listens on unless told otherwise.
pub const DEFAULT_GAME_PORT: u16 = 7476;
/// How long a connection attempt may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How often the background thread ticks the session (clocks, heartbeats).
const TICK: Duration = Duration::from_millis(100);
/// A write that cannot go out within this closes the link.
const WRITE_TIMEOUT: Duration = Duration::from_secs(5);

/// How a host lets its opponent in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HostVia {
    /// Listens on a TCP port (0: any free one); `advertise` lists the game on the LAN.
    Lan { port: u16, advertise: bool },
    /// Takes a room on a relay server (`host:port`); the room code is given to the joiner.
    Relay { server: String },
}

/// Where a joiner finds the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum JoinTarget {
    /// `host:port` (typed, or from LAN discovery).
    Address(String),
    /// A room code on a relay server (`host:port`).
    Room { server: String, code: String },
}

/// How to reach the game again (kept in the autosave).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reach {
    HostLan {
        port: u16,
        advertise: bool,
    },
    HostRelay {
        server: String,
        room: String,
        key: String,
    },
    Join(JoinTarget),
}

/// What an autosave keeps of an online game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NetSave {
    pub session: SessionSave,
    pub reach: Reach,
}

/// A player's action.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    Move(AnyMove),
    /// A move as text (`d3`, `pass`).
    MoveText(String),
    RequestUndo,
    AnswerUndo(bool),
    OfferDraw,
    AnswerDraw(bool),
    Resign,
    Chat(String),
}

/// What [`NetGame::poll`] reports.
#[derive(Clone, Debug, PartialEq)]
pub enum NetEvent {
    /// From the game (see [`Event`]).
    Game(Event),
    /// A LAN host listens here (give the joiner this port and one of the machine's addresses).
    Listening { addr: SocketAddr },
    /// A relay host's room code, to give the joiner.
    Room { code: String },
    /// Connecting (again) to the opponent, the host or the relay: `to` is `host:port`, and
    /// `room` the room code when a joiner goes through a relay.
    Connecting { to: String, room: Option<String> },
    /// A connection attempt or the link failed; it is tried again.
    ConnectionProblem { why: LinkProblem },
    /// The game cannot be reached (no such room, refused): nothing more is tried.
    Failed { why: LinkProblem },
    /// The LAN advertisement could not be made (the game can still be joined by address).
    AdvertiseFailed { why: String },
}

/// Why a link broke or a connection attempt failed, for the window to put in its words;
/// `Display` gives the English (for the log).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkProblem {
    /// The other end closed the connection.
    Closed,
    /// Reading from the connection failed.
    Broke { kind: io::ErrorKind, detail: String },
    /// Writing to the connection failed.
    CannotSend { kind: io::ErrorKind, detail: String },
    /// The name in `addr` (`host:port`) could not be resolved, or has no address.
    NoSuchHost { addr: String, detail: String },
    /// No address of `addr` took the connection (`kind`: refused, timed out, unreachable...).
    CannotConnect {
        addr: String,
        kind: io::ErrorKind,
        detail: String,
    },
    /// The relay server refused, in its own words (`no such room`, `wrong room key`...).
    RelaySays(String),
    /// The server does not answer as a Qi relay does.
    NotARelay { detail: String },
    /// The relay closed the connection.
    RelayClosed,
    /// The attempt was stopped (the game was closed).
    Stopped,
    /// The game's session ended the link (the opponent left, a protocol fault).
    Session(LinkEnd),
    /// A LAN host waits for its joiner: it never connects.
    LanHostWaits,
}

impl LinkProblem {
    /// What a relay's reply or request failed with (`relay::read_reply`'s kinds).
    fn from_relay(e: io::Error) -> LinkProblem {
        match e.kind() {
            io::ErrorKind::InvalidData => LinkProblem::NotARelay {
                detail: e.to_string(),
            },
            io::ErrorKind::UnexpectedEof => LinkProblem::RelayClosed,
            kind => LinkProblem::Broke {
                kind,
                detail: e.to_string(),
            },
        }
    }
}

impl std::fmt::Display for LinkProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LinkProblem::Closed => write!(f, "the connection was closed"),
            LinkProblem::Broke { detail, .. } => write!(f, "the connection broke: {detail}"),
            LinkProblem::CannotSend { detail, .. } => write!(f, "cannot send: {detail}"),
            LinkProblem::NoSuchHost { addr, detail } => {
                write!(f, "cannot resolve {addr}: {detail}")
            }
            LinkProblem::CannotConnect { addr, detail, .. } => {
                write!(f, "cannot connect to {addr}: {detail}")
            }
            LinkProblem::RelaySays(why) => write!(f, "the relay says: {why}"),
            LinkProblem::NotARelay { detail } => write!(f, "not a relay: {detail}"),
            LinkProblem::RelayClosed => write!(f, "the relay closed the connection"),
            LinkProblem::Stopped => write!(f, "stopped"),
            LinkProblem::Session(why) => write!(f, "{why}"),
            LinkProblem::LanHostWaits => write!(f, "a LAN host does not connect"),
        }
    }
}

/// Why a game could not be set up.
#[derive(Debug)]
pub enum NetError {
    Setup(String),
    Io(io::Error),
}

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetError::Setup(why) => write!(f, "the game cannot be set up: {why}"),
            NetError::Io(e) => write!(f, "cannot listen: {e}"),
        }
    }
}

impl std::error::Error for NetError {}

impl From<io::Error> for NetError {
    fn from(e: io::Error) -> NetError {
        NetError::Io(e)
    }
}

enum Input {
    /// A link is up: its reader (with anything it already buffered).
    Link(BufReader<TcpStream>),
    Frame(u64, Vec<u8>),
    TooLong(u64, usize),
    Closed(u64, LinkProblem),
    /// A connection attempt failed (`fatal`: do not try again).
    ConnectFailed {
        why: LinkProblem,
        fatal: bool,
    },
    RoomCode {
        code: String,
        key: String,
    },
    Wake,
    Stop,
}

struct Shared {
    session: Mutex<Session>,
    stop: AtomicBool,
    reach: Mutex<Reach>,
    local_addr: Mutex<Option<SocketAddr>>,
}

/// An online game. See the module documentation.
pub struct NetGame {
    shared: Arc<Shared>,
    inbox: Sender<Input>,
    events: Receiver<NetEvent>,
    driver: Option<JoinHandle<()>>,
    acceptor: Option<JoinHandle<()>>,
    _advert: Option<Advertisement>,
}

impl NetGame {
    /// Hosts a game: listens (or takes a relay room) at once and waits for the joiner.
    pub fn host(setup: Setup, name: &str, via: HostVia) -> Result<NetGame, NetError> {
        NetGame::host_with(setup, name, via, Timing::default())
    }

    pub fn host_with(
        setup: Setup,
        name: &str,
        via: HostVia,
        timing: Timing,
    ) -> Result<NetGame, NetError> {
        let session = Session::host(setup, name, timing).map_err(NetError::Setup)?;
        let reach = match via {
            HostVia::Lan { port, advertise } => Reach::HostLan { port, advertise },
            HostVia::Relay { server } => Reach::HostRelay {
                server,
                room: String::new(),
                key: String::new(),
            },
        };
        NetGame::start(session, reach)
    }

    /// Joins a game.
    pub fn join(name: &str, target: JoinTarget) -> NetGame {
        NetGame::join_with(name, target, Timing::default())
    }

    pub fn join_with(name: &str, target: JoinTarget, timing: Timing) -> NetGame {
        NetGame::start(Session::join(name, timing), Reach::Join(target))
            .expect("a joiner listens on nothing")
    }

    /// Resumes a game from its autosave (host or joiner), with the same opponent.
    pub fn resume(save: NetSave, timing: Timing) -> Result<NetGame, NetError> {
        let session = Session::from_save(save.session, timing).map_err(NetError::Setup)?;
        NetGame::start(session, save.reach)
    }

    fn start(session: Session, reach: Reach) -> Result<NetGame, NetError> {
        let (tx, rx) = mpsc::channel();
        let (etx, erx) = mpsc::channel();
        let shared = Arc::new(Shared {
            session: Mutex::new(session),
            stop: AtomicBool::new(false),
            reach: Mutex::new(reach.clone()),
            local_addr: Mutex::new(None),
        });
        let mut acceptor = None;
        let mut advert = None;
        if let Reach::HostLan { port, advertise } = reach {
            let listener = TcpListener::bind(("0.0.0.0", port))?;
            let addr = listener.local_addr()?;
            // The port really listened on goes into the autosave, so that a resumed host
            // listens where its joiner will look.
            *shared.reach.lock().unwrap() = Reach::HostLan {
                port: addr.port(),
                advertise,
            };
            *shared.local_addr.lock().unwrap() = Some(addr);
            let _ = etx.send(NetEvent::Listening { addr });
            if advertise {
                let s = shared.session.lock().unwrap();
                let info = LanGameInfo::of(&s, addr.port());
                drop(s);
                match Advertisement::start(&info) {
                    Ok(a) => advert = Some(a),
                    Err(why) => {
                        let _ = etx.send(NetEvent::AdvertiseFailed { why });
                    }
                }
            }
            let (tx2, sh2) = (tx.clone(), shared.clone());
            acceptor = Some(
                thread::Builder::new()
                    .name("qi-net-accept".into())
                    .spawn(move || accept_loop(listener, tx2, sh2))?,
            );
        }
        let (tx3, sh3) = (tx.clone(), shared.clone());
        let driver = thread::Builder::new()
            .name("qi-net-driver".into())
            .spawn(move || Driver::new(sh3, tx3, rx, etx).run())?;
        Ok(NetGame {
            shared,
            inbox: tx,
            events: erx,
            driver: Some(driver),
            acceptor,
            _advert: advert,
        })
    }

    /// Everything that happened since the last call (never blocks).
    pub fn poll(&self) -> Vec<NetEvent> {
        self.events.try_iter().collect()
    }

    /// The player's action; refused at once (nothing sent) when it cannot be done.
    pub fn send(&self, action: Action) -> Result<(), ActionError> {
        let now = Instant::now();
        let mut s = self.lock();
        let r = match action {
            Action::Move(mv) => s.play(mv, now),
            Action::MoveText(t) => s.play_text(&t, now),
            Action::RequestUndo => s.request_undo(now).map(|_| ()),
            Action::AnswerUndo(a) => s.answer_undo(a, now),
            Action::OfferDraw => s.offer_draw(now),
            Action::AnswerDraw(a) => s.answer_draw(a, now),
            Action::Resign => s.resign(now),
            Action::Chat(t) => s.chat(&t, now),
        };
        drop(s);
        let _ = self.inbox.send(Input::Wake);
        r
    }

    /// The game as it stands, to draw it (history, clocks with [`Session::clock`], names,
    /// phase). Hold the guard briefly.
    pub fn session(&self) -> MutexGuard<'_, Session> {
        self.lock()
    }

    fn lock(&self) -> MutexGuard<'_, Session> {
        self.shared
            .session
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// What the autosave keeps; `None` before a joiner knows the game.
    pub fn save(&self) -> Option<NetSave> {
        let session = self.lock().save(Instant::now())?;
        let reach = self.shared.reach.lock().unwrap().clone();
        Some(NetSave { session, reach })
    }

    /// A LAN host's listening address.
    pub fn local_addr(&self) -> Option<SocketAddr> {
        *self.shared.local_addr.lock().unwrap()
    }

    /// A relay host's room code, once the relay gave it.
    pub fn room_code(&self) -> Option<String> {
        match &*self.shared.reach.lock().unwrap() {
            Reach::HostRelay { room, .. } if !room.is_empty() => Some(room.clone()),
            Reach::Join(JoinTarget::Room { code, .. }) => Some(code.clone()),
            _ => None,
        }
    }

    /// Leaves for good: tells the opponent and closes.
    pub fn leave(mut self) {
        self.lock().leave(Instant::now());
        let _ = self.inbox.send(Input::Wake);
        self.shutdown();
    }

    fn shutdown(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        let _ = self.inbox.send(Input::Stop);
        if let Some(t) = self.driver.take() {
            let _ = t.join();
        }
        if let Some(addr) = self.local_addr() {
            let mut a = addr;
            a.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
            let _ = TcpStream::connect_timeout(&a, Duration::from_secs(1));
        }
        if let Some(t) = self.acceptor.take() {
            let _ = t.join();
        }
    }
}

impl Drop for NetGame {
    /// Closes without a goodbye (as a crash would): the opponent waits for a resume.
    fn drop(&mut self) {
        self.shutdown();
    }
}

fn accept_loop(listener: TcpListener, inbox: Sender<Input>, shared: Arc<Shared>) {
    for conn in listener.incoming() {
        if shared.stop.load(Ordering::SeqCst) {
            break;
        }
        let Ok(mut stream) = conn else { continue };
        // A stranger cannot push a connected opponent out: while the opponent is there, a new
        // connection is refused (a returning opponent's old link times out first).
        if shared
            .session
            .lock()
            .map(|s| s.peer_connected())
            .unwrap_or(false)
        {
            let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
            // An error, not a refusal: the joiner may be the opponent coming back before its
            // old link timed out here, and must keep trying.
            let _ = stream.write_all(
                encode(&Message::Error {
                    text: "the host is connected to its opponent; try again later".into(),
                })
                .as_bytes(),
            );
            let _ = stream.shutdown(Shutdown::Both);
            continue;
        }
        if inbox.send(Input::Link(BufReader::new(stream))).is_err() {
            break;
        }
    }
}

struct Link {
    id: u64,
    writer: TcpStream,
}

struct Driver {
    shared: Arc<Shared>,
    inbox_tx: Sender<Input>,
    inbox: Receiver<Input>,
    events: Sender<NetEvent>,
    link: Option<Link>,
    next_id: u64,
    /// When to try connecting again (joiner, relay host); `None`: nothing to try.
    retry_at: Option<Instant>,
    backoff: Duration,
    connecting: bool,
    failed: bool,
}

impl Driver {
    fn new(
        shared: Arc<Shared>,
        inbox_tx: Sender<Input>,
        inbox: Receiver<Input>,
        events: Sender<NetEvent>,
    ) -> Driver {
        let active = !matches!(*shared.reach.lock().unwrap(), Reach::HostLan { .. });
        Driver {
            shared,
            inbox_tx,
            inbox,
            events,
            link: None,
            next_id: 1,
            retry_at: active.then(Instant::now),
            backoff: Duration::from_millis(250),
            connecting: false,
            failed: false,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Session> {
        self.shared
            .session
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    fn run(mut self) {
        loop {
            if self.shared.stop.load(Ordering::SeqCst) {
                self.flush(Instant::now());
                break;
            }
            let now = Instant::now();
            if !self.connecting
                && self.link.is_none()
                && !self.failed
                && self.retry_at.is_some_and(|t| now >= t)
            {
                self.connect();
            }
            match self.inbox.recv_timeout(TICK) {
                Ok(Input::Stop) | Err(RecvTimeoutError::Disconnected) => {
                    self.flush(Instant::now());
                    break;
                }
                Ok(input) => self.input(input),
                Err(RecvTimeoutError::Timeout) => {}
            }
            let now = Instant::now();
            self.lock().tick(now);
            self.flush(now);
        }
        if let Some(link) = self.link.take() {
            let _ = link.writer.shutdown(Shutdown::Both);
        }
    }

    fn input(&mut self, input: Input) {
        let now = Instant::now();
        match input {
            Input::Link(reader) => {
                self.connecting = false;
                self.backoff = Duration::from_millis(250);
                self.open(reader, now);
            }
            Input::Frame(id, bytes) if self.is_current(id) => self.lock().receive(&bytes, now),
            Input::TooLong(id, n) if self.is_current(id) => self.lock().frame_too_large(n, now),
            Input::Closed(id, why) if self.is_current(id) => {
                self.drop_link(why, now);
            }
            Input::Frame(..) | Input::TooLong(..) | Input::Closed(..) => {}
            Input::ConnectFailed { why, fatal } => {
                self.connecting = false;
                if fatal {
                    self.failed = true;
                    let _ = self.events.send(NetEvent::Failed { why });
                } else {
                    let _ = self.events.send(NetEvent::ConnectionProblem { why });
                    self.schedule_retry(now);
                }
            }
            Input::RoomCode { code, key } => {
                let mut reach = self.shared.reach.lock().unwrap();
                if let Reach::HostRelay { room, key: k, .. } = &mut *reach {
                    let new = *room != code;
                    *room = code.clone();
                    *k = key;
                    if new {
                        let _ = self.events.send(NetEvent::Room { code });
                    }
                }
            }
            Input::Wake | Input::Stop => {}
        }
    }

    fn is_current(&self, id: u64) -> bool {
        self.link.as_ref().is_some_and(|l| l.id == id)
    }

    fn schedule_retry(&mut self, now: Instant) {
        if matches!(*self.shared.reach.lock().unwrap(), Reach::HostLan { .. }) {
            return;
        }
        self.retry_at = Some(now + self.backoff);
        self.backoff = (self.backoff * 2).min(Duration::from_secs(4));
    }

    fn open(&mut self, reader: BufReader<TcpStream>, now: Instant) {
        if let Some(old) = self.link.take() {
            let _ = old.writer.shutdown(Shutdown::Both);
            self.lock().link_down(now, "replaced by a new connection");
        }
        let Ok(writer) = reader.get_ref().try_clone() else {
            return;
        };
        let _ = writer.set_nodelay(true);
        let _ = writer.set_write_timeout(Some(WRITE_TIMEOUT));
        let id = self.next_id;
        self.next_id += 1;
        let tx = self.inbox_tx.clone();
        let spawned = thread::Builder::new()
            .name("qi-net-read".into())
            .spawn(move || read_loop(reader, id, tx));
        if spawned.is_err() {
            let _ = writer.shutdown(Shutdown::Both);
            return;
        }
        self.link = Some(Link { id, writer });
        self.lock().link_up(now);
    }

    fn drop_link(&mut self, why: LinkProblem, now: Instant) {
        if let Some(link) = self.link.take() {
            let _ = link.writer.shutdown(Shutdown::Both);
        }
        let over = {
            let mut s = self.lock();
            s.link_down(now, &why.to_string());
            s.result().is_some()
        };
        let _ = self.events.send(NetEvent::ConnectionProblem { why });
        if !over {
            self.schedule_retry(now);
        }
    }

    /// Sends what the session has to send, closes what it wants closed, passes its events on.
    fn flush(&mut self, now: Instant) {
        let (out, close, events) = {
            let mut s = self.lock();
            (s.take_outgoing(), s.take_close(), s.take_events())
        };
        let mut write_error = None;
        if let Some(link) = &mut self.link {
            for frame in &out {
                if let Err(e) = link.writer.write_all(frame.as_bytes()) {
                    write_error = Some(LinkProblem::CannotSend {
                        kind: e.kind(),
                        detail: e.to_string(),
                    });
                    break;
                }
            }
        }
        for e in events {
            let fatal = matches!(e, Event::NotAdmitted { .. } | Event::PeerLeft);
            let _ = self.events.send(NetEvent::Game(e));
            if fatal {
                self.failed = true;
            }
        }
        if let Some(why) = close.map(LinkProblem::Session).or(write_error) {
            self.drop_link(why, now);
        }
    }

    /// Starts a connection attempt in its own thread (a relay host may wait long for its
    /// joiner there).
    fn connect(&mut self) {
        self.connecting = true;
        self.retry_at = None;
        let reach = self.shared.reach.lock().unwrap().clone();
        let first = {
            let s = self.lock();
            s.setup().is_none() || s.phase() == qi_core::net::Phase::Connecting
        };
        let tx = self.inbox_tx.clone();
        let shared = self.shared.clone();
        let (to, room) = match &reach {
            Reach::HostLan { .. } => return,
            Reach::HostRelay { server, .. } => (server.clone(), None),
            Reach::Join(JoinTarget::Address(a)) => (a.clone(), None),
            Reach::Join(JoinTarget::Room { server, code }) => (server.clone(), Some(code.clone())),
        };
        let _ = self.events.send(NetEvent::Connecting { to, room });
        let _ = thread::Builder::new()
            .name("qi-net-connect".into())
            .spawn(move || {
                let input = match attempt(&reach, &shared, &tx, first) {
                    Ok(reader) => Input::Link(reader),
                    Err((why, fatal)) => Input::ConnectFailed { why, fatal },
                };
                let _ = tx.send(input);
            });
    }
}

fn read_loop(mut reader: BufReader<TcpStream>, id: u64, tx: Sender<Input>) {
    let mut buf = Vec::new();
    loop {
        let input = match read_frame(&mut reader, &mut buf, MAX_FRAME_BYTES) {
            Ok(Frame::Line(l)) => Input::Frame(id, l),
            Ok(Frame::TooLong(n)) => {
                let _ = tx.send(Input::TooLong(id, n));
                return;
            }
            Ok(Frame::Eof) => Input::Closed(id, LinkProblem::Closed),
            Err(e) => Input::Closed(
                id,
                LinkProblem::Broke {
                    kind: e.kind(),
                    detail: e.to_string(),
                },
            ),
        };
        let last = matches!(input, Input::Closed(..));
        if tx.send(input).is_err() || last {
            return;
        }
    }
}

fn connect_to(addr: &str) -> Result<TcpStream, LinkProblem> {
    let addrs: Vec<SocketAddr> = addr
        .to_socket_addrs()
        .map_err(|e| LinkProblem::NoSuchHost {
            addr: addr.to_string(),
            detail: e.to_string(),
        })?
        .collect();
    let mut last = LinkProblem::NoSuchHost {
        addr: addr.to_string(),
        detail: "no address".into(),
    };
    for a in addrs {
        match TcpStream::connect_timeout(&a, CONNECT_TIMEOUT) {
            Ok(s) => {
                let _ = s.set_nodelay(true);
                return Ok(s);
            }
            Err(e) => {
                last = LinkProblem::CannotConnect {
                    addr: a.to_string(),
                    kind: e.kind(),
                    detail: e.to_string(),
                }
            }
        }
    }
    Err(last)
}

/// One connection attempt: a direct connection, or a relay room taken or joined (and, for the
/// host, the wait for the joiner). `Err((why, fatal))`.
fn attempt(
    reach: &Reach,
    shared: &Shared,
    tx: &Sender<Input>,
    first: bool,
) -> Result<BufReader<TcpStream>, (LinkProblem, bool)> {
    let relay_err = |e: io::Error| (LinkProblem::from_relay(e), false);
    match reach {
        Reach::HostLan { .. } => Err((LinkProblem::LanHostWaits, true)),
        Reach::Join(JoinTarget::Address(addr)) => {
            connect_to(addr).map(BufReader::new).map_err(|e| (e, false))
        }
        Reach::Join(JoinTarget::Room { server, code }) => {
            let mut s = connect_to(server).map_err(|e| (e, false))?;
            let req = RelayRequest {
                relay: RELAY_VERSION,
                op: RelayOp::Join,
                room: Some(code.clone()),
                key: None,
            };
            relay::request(&mut s, &req).map_err(relay_err)?;
            let _ = s.set_read_timeout(Some(CONNECT_TIMEOUT));
            let mut reader = BufReader::new(s.try_clone().map_err(relay_err)?);
            let reply = relay::read_reply(&mut reader).map_err(relay_err)?;
            if let Some(why) = reply.error {
                // A wrong code is final before the game started; later the host may be away.
                let fatal = first && why == "no such room";
                return Err((LinkProblem::RelaySays(why), fatal));
            }
            let _ = s.set_read_timeout(None);
            Ok(reader)
        }
        Reach::HostRelay { server, room, key } => {
            let mut s = connect_to(server).map_err(|e| (e, false))?;
            let req = RelayRequest {
                relay: RELAY_VERSION,
                op: RelayOp::Host,
                room: (!room.is_empty()).then(|| room.clone()),
                key: (!key.is_empty()).then(|| key.clone()),
            };
            relay::request(&mut s, &req).map_err(relay_err)?;
            let _ = s.set_read_timeout(Some(CONNECT_TIMEOUT));
            let mut reader = BufReader::new(s.try_clone().map_err(relay_err)?);
            let reply = relay::read_reply(&mut reader).map_err(relay_err)?;
            if let Some(why) = reply.error {
                let fatal = why == "wrong room key";
                return Err((LinkProblem::RelaySays(why), fatal));
            }
            let (Some(code), Some(key)) = (reply.room, reply.key) else {
                let detail = "the relay gave no room".into();
                return Err((LinkProblem::NotARelay { detail }, false));
            };
            let _ = tx.send(Input::RoomCode { code, key });
            // Wait for the joiner, a second at a time so that a stop is seen.
            let _ = s.set_read_timeout(Some(Duration::from_secs(1)));
            let mut buf = Vec::new();
            loop {
                if shared.stop.load(Ordering::SeqCst) {
                    return Err((LinkProblem::Stopped, true));
                }
                match read_frame(&mut reader, &mut buf, 4096) {
                    Ok(Frame::Line(l)) => {
                        let r: relay::RelayReply = serde_json::from_slice(&l).map_err(|e| {
                            let detail = e.to_string();
                            (LinkProblem::NotARelay { detail }, false)
                        })?;
                        if r.ok.as_deref() == Some("paired") {
                            break;
                        }
                        let why = r.error.unwrap_or_default();
                        return Err((LinkProblem::RelaySays(why), false));
                    }
                    Ok(Frame::TooLong(_)) => {
                        let detail = "a reply too long".into();
                        return Err((LinkProblem::NotARelay { detail }, false));
                    }
                    Ok(Frame::Eof) => return Err((LinkProblem::RelayClosed, false)),
                    Err(e)
                        if matches!(
                            e.kind(),
                            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                        ) => {}
                    Err(e) => return Err(relay_err(e)),
                }
            }
            let _ = s.set_read_timeout(None);
            Ok(reader)
        }
    }
}
