//! One player's side of an online game, as a state machine with no socket in it.
//!
//! The transport feeds it what happens ([`Session::link_up`], [`Session::receive`] with each
//! frame, [`Session::link_down`], [`Session::tick`] now and then) and the player's actions
//! ([`Session::play`], [`Session::request_undo`], …); it answers with frames to send
//! ([`Session::take_outgoing`]), events for the window ([`Session::take_events`]) and, when the
//! link cannot go on, the reason to close it ([`Session::take_close`]). Every call takes the
//! time `now`, so the clocks, heartbeats and timeouts are tested without sleeping.
//!
//! Rules enforced here, on both sides: a move is applied only if it is the sender's turn, at
//! the ply both agree on, and legal; anything else is refused, logged as
//! [`Event::Refused`] and answered with an `error` message, never applied. The joiner only
//! ever acts for its own side: the side of a message is the side of the link it came on.

use std::collections::VecDeque;
use std::fmt;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::protocol::{
    MAX_CHAT_CHARS, MAX_NAME_CHARS, Message, ProtocolError, Resume, Setup, decode, encode,
};
use super::reason::{Admission, LinkEnd, Refusal};
use crate::any::{AnyMove, AnyPosition, GameHistory};
use crate::clock::GameClock;
use crate::game::Side;
use crate::result::{GameResult, Reason};

/// The save format of [`SessionSave`].
pub const SESSION_SAVE_VERSION: u32 = 1;
/// How many lines [`Session::log`] keeps.
const LOG_LINES: usize = 200;

/// Heartbeat and timeout settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// A ping is sent when nothing was sent for this long.
    pub heartbeat: Duration,
    /// A peer that sends nothing for this long is taken as gone: the link is closed.
    pub peer_timeout: Duration,
    /// The opponent's flag is claimed this long after their clock shows 0 (their own client
    /// should have said so first; the grace covers the message's way here).
    pub flag_grace: Duration,
}

impl Default for Timing {
    fn default() -> Timing {
        Timing {
            heartbeat: Duration::from_secs(2),
            peer_timeout: Duration::from_secs(10),
            flag_grace: Duration::from_secs(3),
        }
    }
}

/// Which end of the game this is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Role {
    /// Set the game up and waits for (or listens again for) the joiner.
    Host,
    Joiner,
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Before the first handshake: the host waits for a joiner, the joiner for the game.
    Connecting,
    Playing,
    /// The game started, but the link is down (or back and not yet resynced): the clocks are
    /// stopped, "waiting for the opponent…".
    Paused,
    /// The game has a result (chat still works while the link is up).
    Over,
}

/// What the window is told.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// The handshake is done the first time: the game starts.
    Joined {
        peer: String,
    },
    /// The link is back and the game resynced: it goes on.
    Resumed {
        peer: String,
    },
    /// The link dropped: paused, clocks stopped, waiting for the opponent.
    Waiting {
        why: String,
    },
    /// The opponent played `mv` (already in [`Session::history`]); `ply` moves were before it.
    OpponentMoved {
        ply: usize,
        mv: AnyMove,
        text: String,
    },
    /// The history was replaced by the host's on a resync; redraw from [`Session::history`].
    Resynced {
        ply: usize,
    },
    /// The opponent asks to take moves back to `ply`: answer with [`Session::answer_undo`].
    UndoRequested {
        ply: usize,
    },
    /// Moves were taken back to `ply` (either side's request, accepted).
    UndoDone {
        ply: usize,
    },
    UndoRefused,
    /// Answer with [`Session::answer_draw`].
    DrawOffered,
    DrawRefused,
    Chat {
        from: String,
        text: String,
    },
    GameOver(GameResult),
    /// A message of the opponent's was refused and not applied (the log says it too).
    Refused {
        why: Refusal,
    },
    /// The opponent refused one of ours, and why.
    PeerRefused {
        why: String,
    },
    /// A frame that cannot be read: the link is closed.
    ProtocolError(ProtocolError),
    /// The host refused us (game taken, wrong token): the link is closed.
    NotAdmitted {
        reason: Admission,
    },
    /// The opponent left for good.
    PeerLeft,
}

/// Why a player's action was not done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionError {
    /// Not started, paused (waiting for the opponent) or over.
    NotPlaying,
    NotYourTurn,
    Illegal(String),
    /// Your undo request is waiting for the answer.
    UndoPending,
    NothingToUndo,
    /// No offer or request to answer.
    NothingToAnswer,
    ChatTooLong,
    /// The link is down.
    Offline,
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionError::NotPlaying => f.write_str("the game is not being played"),
            ActionError::NotYourTurn => f.write_str("it is not your turn"),
            ActionError::Illegal(why) => write!(f, "illegal move: {why}"),
            ActionError::UndoPending => f.write_str("your undo request is waiting for an answer"),
            ActionError::NothingToUndo => f.write_str("you have no move to take back"),
            ActionError::NothingToAnswer => f.write_str("there is nothing to answer"),
            ActionError::ChatTooLong => {
                write!(f, "a chat message has at most {MAX_CHAT_CHARS} characters")
            }
            ActionError::Offline => f.write_str("the opponent is not connected"),
        }
    }
}

impl std::error::Error for ActionError {}

/// What an autosave keeps of an online game so that both players can resume it later.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionSave {
    pub version: u32,
    pub role: Role,
    pub me: Side,
    pub session: String,
    /// The joiner's token (the host checks it, the joiner shows it). `None`: no joiner yet.
    pub token: Option<String>,
    pub my_name: String,
    pub peer_name: Option<String>,
    pub setup: Setup,
    pub moves: Vec<String>,
    pub spent_ms: Vec<u64>,
    /// The clock as it stood, the current turn's time taken off.
    pub clock: Option<GameClock>,
    pub result: Option<GameResult>,
}

/// A hard-to-guess hex string of `bytes` bytes, from the OS-seeded hasher keys of the standard
/// library (no extra dependency; good enough to tell two players' games apart and keep a third
/// person from taking over a seat).
pub fn random_token(bytes: usize) -> String {
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hasher};
    let mut out = String::new();
    let mut i = 0u64;
    while out.len() < bytes * 2 {
        let mut h = RandomState::new().build_hasher();
        h.write_u64(i);
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0),
        );
        out.push_str(&format!("{:016x}", h.finish()));
        i += 1;
    }
    out.truncate(bytes * 2);
    out
}

/// A name as shown: control characters dropped, trimmed, at most [`MAX_NAME_CHARS`].
fn clean_name(name: &str) -> String {
    let s: String = name.chars().filter(|c| !c.is_control()).collect();
    let s = s.trim();
    let s: String = s.chars().take(MAX_NAME_CHARS).collect();
    if s.is_empty() { "?".to_string() } else { s }
}

/// One player's side of an online game. See the module documentation.
#[derive(Debug)]
pub struct Session {
    role: Role,
    me: Side,
    timing: Timing,
    my_name: String,
    peer_name: Option<String>,
    session_id: String,
    token: Option<String>,
    /// `None` for a joiner before the first welcome.
    setup: Option<Setup>,
    history: Option<GameHistory>,
    spent_ms: Vec<u64>,
    /// The clock at the start of the current turn; `turn_elapsed` is what the turn has used.
    base_clock: Option<GameClock>,
    turn_elapsed: Duration,
    last_tick: Option<Instant>,
    result: Option<GameResult>,
    phase: Phase,
    link_up: bool,
    /// The handshake on the current link is done.
    greeted: bool,
    undo_mine: Option<usize>,
    undo_theirs: Option<usize>,
    draw_mine: bool,
    draw_theirs: bool,
    last_recv: Option<Instant>,
    last_sent: Option<Instant>,
    pings: u64,
    outbox: Vec<String>,
    events: Vec<Event>,
    close: Option<LinkEnd>,
    log: VecDeque<String>,
}

impl Session {
    fn blank(role: Role, me: Side, my_name: &str, timing: Timing) -> Session {
        Session {
            role,
            me,
            timing,
            my_name: clean_name(my_name),
            peer_name: None,
            session_id: String::new(),
            token: None,
            setup: None,
            history: None,
            spent_ms: Vec::new(),
            base_clock: None,
            turn_elapsed: Duration::ZERO,
            last_tick: None,
            result: None,
            phase: Phase::Connecting,
            link_up: false,
            greeted: false,
            undo_mine: None,
            undo_theirs: None,
            draw_mine: false,
            draw_theirs: false,
            last_recv: None,
            last_sent: None,
            pings: 0,
            outbox: Vec::new(),
            events: Vec::new(),
            close: None,
            log: VecDeque::new(),
        }
    }

    /// A host's session for `setup`, waiting for its joiner.
    pub fn host(setup: Setup, my_name: &str, timing: Timing) -> Result<Session, String> {
        let start = AnyPosition::from_text(setup.game, &setup.start).map_err(|e| e.to_string())?;
        if let Some(c) = &setup.clock {
            c.check()?;
        }
        let mut s = Session::blank(Role::Host, setup.host_side, my_name, timing);
        s.session_id = random_token(8);
        s.base_clock = setup.clock.map(GameClock::new);
        s.history = Some(GameHistory::new(start));
        s.setup = Some(setup);
        Ok(s)
    }

    /// A joiner's session: it learns the game from the host's welcome.
    pub fn join(my_name: &str, timing: Timing) -> Session {
        Session::blank(Role::Joiner, Side::White, my_name, timing)
    }

    /// A session from an autosave, to resume the game with the same opponent (paused until
    /// the link is up and the two sides have resynced).
    pub fn from_save(save: SessionSave, timing: Timing) -> Result<Session, String> {
        if save.version > SESSION_SAVE_VERSION {
            return Err(format!(
                "saved by a newer Qi (online save format {})",
                save.version
            ));
        }
        let history = replay(&save.setup, &save.moves)?;
        let mut s = Session::blank(save.role, save.me, &save.my_name, timing);
        s.peer_name = save.peer_name;
        s.session_id = save.session;
        s.token = save.token;
        s.spent_ms = save.spent_ms;
        s.spent_ms.resize(history.ply(), 0);
        s.base_clock = save.clock;
        s.history = Some(history);
        s.setup = Some(save.setup);
        s.result = save.result;
        s.phase = if s.result.is_some() {
            Phase::Over
        } else if s.token.is_some() {
            Phase::Paused
        } else {
            Phase::Connecting
        };
        if let Some(c) = &mut s.base_clock {
            c.pause();
        }
        Ok(s)
    }

    // --- what the window reads ---

    pub fn role(&self) -> Role {
        self.role
    }

    /// The side this player plays (a joiner's is known after the welcome).
    pub fn me(&self) -> Side {
        self.me
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn my_name(&self) -> &str {
        &self.my_name
    }

    pub fn peer_name(&self) -> Option<&str> {
        self.peer_name.as_deref()
    }

    /// Whether the link to the opponent is up and greeted.
    pub fn peer_connected(&self) -> bool {
        self.link_up && self.greeted
    }

    pub fn session_id(&self) -> &str {
        &self.session_id
    }

    pub fn setup(&self) -> Option<&Setup> {
        self.setup.as_ref()
    }

    pub fn history(&self) -> Option<&GameHistory> {
        self.history.as_ref()
    }

    /// Thinking time of each move played, in ms.
    pub fn spent_ms(&self) -> &[u64] {
        &self.spent_ms
    }

    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// The opponent's pending undo request (the ply it goes back to).
    pub fn undo_requested(&self) -> Option<usize> {
        self.undo_theirs
    }

    pub fn draw_offered(&self) -> bool {
        self.draw_theirs
    }

    /// Whose turn it is, when a game is on.
    pub fn to_move(&self) -> Option<Side> {
        self.history.as_ref().map(|h| h.current().side_to_move())
    }

    /// The clock as it stands at `now` (the current turn's time taken off), for showing.
    pub fn clock(&self, now: Instant) -> Option<GameClock> {
        let mut c = self.base_clock.clone()?;
        let extra = match (self.counting(), self.last_tick) {
            (true, Some(t)) => now.saturating_duration_since(t),
            _ => Duration::ZERO,
        };
        c.advance(self.turn_elapsed + extra);
        Some(c)
    }

    /// The last lines of the session's log (refused messages, protocol errors, links).
    pub fn log(&self) -> impl Iterator<Item = &str> {
        self.log.iter().map(|s| s.as_str())
    }

    /// What an autosave keeps; `None` for a joiner before the welcome.
    pub fn save(&self, now: Instant) -> Option<SessionSave> {
        let history = self.history.as_ref()?;
        Some(SessionSave {
            version: SESSION_SAVE_VERSION,
            role: self.role,
            me: self.me,
            session: self.session_id.clone(),
            token: self.token.clone(),
            my_name: self.my_name.clone(),
            peer_name: self.peer_name.clone(),
            setup: self.setup.clone()?,
            moves: history.move_texts(),
            spent_ms: self.spent_ms.clone(),
            clock: self.clock(now).map(|mut c| {
                c.pause();
                c
            }),
            result: self.result,
        })
    }

    /// Frames to send, in order.
    pub fn take_outgoing(&mut self) -> Vec<String> {
        std::mem::take(&mut self.outbox)
    }

    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// `Some(why)` once: the transport must close the link (and then call
    /// [`Session::link_down`], which the session has already done for itself).
    pub fn take_close(&mut self) -> Option<LinkEnd> {
        self.close.take()
    }

    // --- what the transport tells ---

    /// A link to the opponent is up (connected, or connected again). The joiner says hello.
    pub fn link_up(&mut self, now: Instant) {
        self.account(now);
        self.link_up = true;
        self.greeted = false;
        self.last_recv = Some(now);
        self.note("link up");
        if self.role == Role::Joiner {
            let resume = self.token.as_ref().map(|t| Resume {
                session: self.session_id.clone(),
                token: t.clone(),
                ply: self.history.as_ref().map_or(0, |h| h.ply() as u32),
            });
            self.send(
                Message::Hello {
                    name: self.my_name.clone(),
                    resume,
                },
                now,
            );
        }
    }

    /// The link dropped: the game pauses until it is back.
    pub fn link_down(&mut self, now: Instant, why: &str) {
        self.account(now);
        if !self.link_up {
            return;
        }
        self.link_up = false;
        self.greeted = false;
        self.note(&format!("link down: {why}"));
        // Offers and requests do not outlive the link.
        self.undo_mine = None;
        self.undo_theirs = None;
        self.draw_mine = false;
        self.draw_theirs = false;
        if self.phase == Phase::Playing {
            self.phase = Phase::Paused;
            self.events.push(Event::Waiting {
                why: why.to_string(),
            });
        }
    }

    /// Time passes: clocks (and flags), heartbeats, the opponent's silence.
    pub fn tick(&mut self, now: Instant) {
        self.account(now);
        if !self.link_up {
            return;
        }
        if let Some(last) = self.last_recv
            && now.saturating_duration_since(last) >= self.timing.peer_timeout
        {
            let after = self.timing.peer_timeout;
            self.fail(now, LinkEnd::PeerSilent { after });
            return;
        }
        if self.phase == Phase::Playing {
            self.check_flags(now);
        }
        let quiet = self
            .last_sent
            .is_none_or(|t| now.saturating_duration_since(t) >= self.timing.heartbeat);
        if quiet {
            self.pings += 1;
            self.send(Message::Ping { n: self.pings }, now);
        }
    }

    /// One frame from the opponent.
    pub fn receive(&mut self, frame: &[u8], now: Instant) {
        self.account(now);
        if !self.link_up {
            return;
        }
        self.last_recv = Some(now);
        match decode(frame) {
            Ok(msg) => self.handle(msg, now),
            Err(e) => self.bad_frame(e, now),
        }
    }

    /// The transport dropped a frame of `bytes` bytes, more than
    /// [`super::protocol::MAX_FRAME_BYTES`], without keeping it: the same as receiving it.
    pub fn frame_too_large(&mut self, bytes: usize, now: Instant) {
        self.account(now);
        if self.link_up {
            self.bad_frame(ProtocolError::TooLarge { bytes }, now);
        }
    }

    fn bad_frame(&mut self, e: ProtocolError, now: Instant) {
        self.note(&format!("protocol error: {e}"));
        self.events.push(Event::ProtocolError(e.clone()));
        let text = e.to_string();
        self.send(Message::Error { text }, now);
        self.fail(now, LinkEnd::BadData(e));
    }

    // --- the player's actions ---

    /// Plays this player's move.
    pub fn play(&mut self, mv: AnyMove, now: Instant) -> Result<(), ActionError> {
        self.account(now);
        self.can_act()?;
        if self.undo_mine.is_some() {
            return Err(ActionError::UndoPending);
        }
        let history = self.history.as_ref().ok_or(ActionError::NotPlaying)?;
        if history.current().side_to_move() != self.me {
            return Err(ActionError::NotYourTurn);
        }
        if !history.current().is_legal(mv) {
            return Err(ActionError::Illegal(history.current().move_to_text(mv)));
        }
        let text = history.current().move_to_text(mv);
        let ply = history.ply();
        let spent = self.turn_elapsed;
        if let Some(c) = &mut self.base_clock
            && c.press(spent).is_err()
        {
            self.time_out(self.me, now);
            return Err(ActionError::NotPlaying);
        }
        self.apply_move(mv, spent);
        self.send(
            Message::Move {
                ply: ply as u32,
                mv: text,
                spent_ms: spent.as_millis() as u64,
            },
            now,
        );
        self.check_end(now);
        Ok(())
    }

    /// Plays this player's move given as text (`d3`, `pass`).
    pub fn play_text(&mut self, text: &str, now: Instant) -> Result<(), ActionError> {
        self.can_act()?;
        let mv = self
            .history
            .as_ref()
            .ok_or(ActionError::NotPlaying)?
            .current()
            .parse_move(text)
            .map_err(|e| ActionError::Illegal(e.to_string()))?;
        self.play(mv, now)
    }

    /// Asks the opponent to take back moves, to the last position where this player was to move.
    pub fn request_undo(&mut self, now: Instant) -> Result<usize, ActionError> {
        self.account(now);
        self.can_act()?;
        if self.undo_mine.is_some() {
            return Err(ActionError::UndoPending);
        }
        let h = self.history.as_ref().ok_or(ActionError::NotPlaying)?;
        let current = h.ply();
        // Back past the opponent's replies to this player's last move.
        let target = (current.saturating_sub(3)..current)
            .rev()
            .find(|&p| h.position_at(p).side_to_move() == self.me)
            .ok_or(ActionError::NothingToUndo)?;
        self.undo_mine = Some(target);
        self.send(Message::UndoRequest { ply: target as u32 }, now);
        Ok(target)
    }

    /// Answers the opponent's undo request.
    pub fn answer_undo(&mut self, accept: bool, now: Instant) -> Result<(), ActionError> {
        self.account(now);
        self.can_act()?;
        let ply = self
            .undo_theirs
            .take()
            .ok_or(ActionError::NothingToAnswer)?;
        self.send(
            Message::UndoReply {
                ply: ply as u32,
                accept,
            },
            now,
        );
        if accept {
            self.apply_undo(ply);
        }
        Ok(())
    }

    pub fn offer_draw(&mut self, now: Instant) -> Result<(), ActionError> {
        self.account(now);
        self.can_act()?;
        self.draw_mine = true;
        self.send(Message::DrawOffer, now);
        Ok(())
    }

    pub fn answer_draw(&mut self, accept: bool, now: Instant) -> Result<(), ActionError> {
        self.account(now);
        self.can_act()?;
        if !self.draw_theirs {
            return Err(ActionError::NothingToAnswer);
        }
        self.draw_theirs = false;
        self.send(Message::DrawReply { accept }, now);
        if accept {
            self.finish(GameResult::draw(Reason::Agreement), now);
        }
        Ok(())
    }

    pub fn resign(&mut self, now: Instant) -> Result<(), ActionError> {
        self.account(now);
        self.can_act()?;
        self.send(Message::Resign, now);
        self.finish(GameResult::win(self.me.other(), Reason::Resignation), now);
        Ok(())
    }

    /// A chat message (while the opponent is connected, game over or not).
    pub fn chat(&mut self, text: &str, now: Instant) -> Result<(), ActionError> {
        if !self.peer_connected() {
            return Err(ActionError::Offline);
        }
        if text.chars().count() > MAX_CHAT_CHARS {
            return Err(ActionError::ChatTooLong);
        }
        self.send(
            Message::Chat {
                text: text.to_string(),
            },
            now,
        );
        Ok(())
    }

    /// Leaves for good: tells the opponent and asks the transport to close.
    pub fn leave(&mut self, now: Instant) {
        if self.link_up {
            self.send(Message::Bye, now);
        }
        self.fail(now, LinkEnd::Left);
    }

    // --- inside ---

    fn can_act(&self) -> Result<(), ActionError> {
        match self.phase {
            Phase::Playing if self.link_up => Ok(()),
            Phase::Playing | Phase::Paused => Err(ActionError::Offline),
            _ => Err(ActionError::NotPlaying),
        }
    }

    /// Whether the current turn's time is running.
    fn counting(&self) -> bool {
        self.phase == Phase::Playing
            && self.link_up
            && self.result.is_none()
            && self.base_clock.is_some()
    }

    /// Adds the time since the last call to the current turn (while it counts).
    fn account(&mut self, now: Instant) {
        if self.counting()
            && let Some(t) = self.last_tick
        {
            self.turn_elapsed += now.saturating_duration_since(t);
        }
        self.last_tick = Some(now);
    }

    fn note(&mut self, line: &str) {
        if self.log.len() == LOG_LINES {
            self.log.pop_front();
        }
        self.log.push_back(line.to_string());
    }

    fn send(&mut self, msg: Message, now: Instant) {
        self.outbox.push(encode(&msg));
        self.last_sent = Some(now);
    }

    /// Refuses a message of the opponent's: logged, told to them, not applied.
    fn refuse(&mut self, why: Refusal, now: Instant) {
        self.note(&format!("refused: {why}"));
        let text = why.to_string();
        self.events.push(Event::Refused { why });
        self.send(Message::Error { text }, now);
    }

    /// The link cannot go on.
    fn fail(&mut self, now: Instant, why: LinkEnd) {
        let text = why.to_string();
        if self.close.is_none() {
            self.close = Some(why);
        }
        self.link_down(now, &text);
    }

    fn peer_side(&self) -> Side {
        self.me.other()
    }

    fn apply_move(&mut self, mv: AnyMove, spent: Duration) {
        if let Some(h) = &mut self.history {
            h.play(mv).expect("checked legal");
        }
        self.spent_ms.push(spent.as_millis() as u64);
        self.turn_elapsed = Duration::ZERO;
    }

    fn apply_undo(&mut self, ply: usize) {
        let Some(h) = &mut self.history else { return };
        h.go_to(ply);
        h.truncate();
        self.spent_ms.truncate(ply);
        let side = h.current().side_to_move();
        // The interrupted turn's time is not charged (both sides then agree on the clocks).
        self.turn_elapsed = Duration::ZERO;
        if let Some(c) = &mut self.base_clock {
            c.start(side);
        }
        self.undo_mine = None;
        self.undo_theirs = None;
        self.events.push(Event::UndoDone { ply });
        self.note(&format!("moves taken back to ply {ply}"));
    }

    fn finish(&mut self, result: GameResult, _now: Instant) {
        if self.result.is_some() {
            return;
        }
        self.result = Some(result);
        self.phase = Phase::Over;
        self.undo_mine = None;
        self.undo_theirs = None;
        self.draw_mine = false;
        self.draw_theirs = false;
        if let Some(c) = &mut self.base_clock {
            c.advance(self.turn_elapsed);
            c.stop();
        }
        self.turn_elapsed = Duration::ZERO;
        self.note(&format!("game over: {}", result.sgf()));
        self.events.push(Event::GameOver(result));
    }

    /// The game's end by its rules, after a move.
    fn check_end(&mut self, now: Instant) {
        if let Some(r) = self
            .history
            .as_ref()
            .and_then(|h| GameResult::of(h.current()))
        {
            self.finish(r, now);
        }
    }

    fn time_out(&mut self, side: Side, now: Instant) {
        let ply = self.history.as_ref().map_or(0, |h| h.ply()) as u32;
        self.send(Message::Flag { side, ply }, now);
        self.finish(GameResult::win(side.other(), Reason::Time), now);
    }

    /// This player's flag falls at 0; the opponent's is claimed after the grace.
    fn check_flags(&mut self, now: Instant) {
        let (Some(c), Some(side)) = (&self.base_clock, self.to_move()) else {
            return;
        };
        let used = if side == self.me {
            self.turn_elapsed
        } else {
            self.turn_elapsed.saturating_sub(self.timing.flag_grace)
        };
        let mut c = c.clone();
        if c.advance(used).is_some() {
            self.time_out(side, now);
        }
    }

    /// Whether this player's clock, the grace added, has run out on the current turn.
    fn out_of_time_within_grace(&self) -> bool {
        let Some(c) = &self.base_clock else {
            return false;
        };
        let mut c = c.clone();
        c.advance(self.turn_elapsed + self.timing.flag_grace)
            .is_some()
    }

    fn handle(&mut self, msg: Message, now: Instant) {
        match msg {
            Message::Ping { n } => self.send(Message::Pong { n }, now),
            Message::Pong { .. } => {}
            Message::Hello { name, resume } => self.on_hello(name, resume, now),
            Message::Welcome {
                session,
                token,
                name,
                setup,
                moves,
                spent_ms,
                clock,
                result,
            } => self.on_welcome(
                session, token, name, setup, moves, spent_ms, clock, result, now,
            ),
            Message::Refuse { reason } => {
                self.note(&format!("not admitted: {reason}"));
                let reason = Admission::from_wire(&reason);
                self.events.push(Event::NotAdmitted {
                    reason: reason.clone(),
                });
                self.fail(now, LinkEnd::HostRefused(reason));
            }
            Message::Error { text } => {
                self.note(&format!("the opponent refused: {text}"));
                self.events.push(Event::PeerRefused { why: text });
            }
            Message::Bye => {
                self.events.push(Event::PeerLeft);
                self.fail(now, LinkEnd::PeerLeft);
            }
            other if !self.greeted => {
                self.refuse(Refusal::BeforeHandshake { kind: other.kind() }, now);
            }
            Message::Chat { text } => {
                if text.chars().count() > MAX_CHAT_CHARS {
                    self.refuse(Refusal::ChatTooLong, now);
                } else {
                    let from = self.peer_name.clone().unwrap_or_default();
                    self.events.push(Event::Chat { from, text });
                }
            }
            other if self.phase != Phase::Playing => {
                self.refuse(Refusal::NotOn { kind: other.kind() }, now);
            }
            Message::Move { ply, mv, spent_ms } => self.on_move(ply, &mv, spent_ms, now),
            Message::UndoRequest { ply } => {
                let ply = ply as usize;
                let h = self.history.as_ref().expect("playing");
                if self.undo_theirs.is_some() {
                    self.refuse(Refusal::SecondUndoRequest, now);
                } else if ply >= h.ply() || h.ply() - ply > 3 {
                    self.refuse(Refusal::UndoTooFar { ply, at: h.ply() }, now);
                } else if h.position_at(ply).side_to_move() != self.peer_side() {
                    self.refuse(Refusal::UndoNotTheirTurn { ply }, now);
                } else {
                    self.undo_theirs = Some(ply);
                    self.events.push(Event::UndoRequested { ply });
                }
            }
            Message::UndoReply { ply, accept } => {
                if self.undo_mine != Some(ply as usize) {
                    self.refuse(Refusal::UndoAnswerNotAsked { ply }, now);
                } else if !accept {
                    self.undo_mine = None;
                    self.events.push(Event::UndoRefused);
                } else {
                    self.apply_undo(ply as usize);
                }
            }
            Message::DrawOffer => {
                self.draw_theirs = true;
                self.events.push(Event::DrawOffered);
            }
            Message::DrawReply { accept } => {
                if !self.draw_mine {
                    self.refuse(Refusal::DrawAnswerNoOffer, now);
                } else {
                    self.draw_mine = false;
                    if accept {
                        self.finish(GameResult::draw(Reason::Agreement), now);
                    } else {
                        self.events.push(Event::DrawRefused);
                    }
                }
            }
            Message::Resign => {
                self.finish(GameResult::win(self.me, Reason::Resignation), now);
            }
            Message::Flag { side, ply } => {
                let current = self.history.as_ref().map_or(0, |h| h.ply());
                if self.base_clock.is_none() {
                    self.refuse(Refusal::FlagWithoutClock, now);
                } else if ply as usize != current || self.to_move() != Some(side) {
                    self.refuse(Refusal::FlagNotToMove { side, ply }, now);
                } else if side == self.me && !self.out_of_time_within_grace() {
                    // The opponent says this player's time ran out, but this player's own
                    // clock still has more than the grace: not believed.
                    self.refuse(Refusal::FlagMineRunning, now);
                } else {
                    self.finish(GameResult::win(side.other(), Reason::Time), now);
                }
            }
        }
    }

    fn on_move(&mut self, ply: u32, text: &str, spent_ms: u64, now: Instant) {
        let peer = self.peer_side();
        let h = self.history.as_ref().expect("playing");
        let pos = h.current();
        if pos.side_to_move() != peer {
            return self.refuse(Refusal::OutOfTurn { mv: text.into() }, now);
        }
        if ply as usize != h.ply() {
            let at = h.ply();
            return self.refuse(
                Refusal::WrongPly {
                    mv: text.into(),
                    ply,
                    at,
                },
                now,
            );
        }
        let mv = match pos.parse_move(text) {
            Ok(mv) if pos.is_legal(mv) => mv,
            Ok(_) => return self.refuse(Refusal::Illegal { mv: text.into() }, now),
            Err(e) => {
                let why = e.to_string();
                return self.refuse(
                    Refusal::Unreadable {
                        mv: text.into(),
                        why,
                    },
                    now,
                );
            }
        };
        let spent = Duration::from_millis(spent_ms);
        if let Some(c) = &mut self.base_clock
            && c.press(spent).is_err()
        {
            // Played after their time ran out: their flag fell.
            self.time_out(peer, now);
            return;
        }
        let text = pos.move_to_text(mv);
        self.apply_move(mv, spent);
        // A move answers nothing pending of the mover's.
        self.events.push(Event::OpponentMoved {
            ply: ply as usize,
            mv,
            text,
        });
        self.check_end(now);
    }

    fn on_hello(&mut self, name: String, resume: Option<Resume>, now: Instant) {
        if self.role != Role::Host {
            return self.refuse(Refusal::HelloToJoiner, now);
        }
        if self.greeted {
            return self.refuse(Refusal::SecondHello, now);
        }
        let name = clean_name(&name);
        // Before any move, a joiner without a token may (again) take the seat: the one who
        // joined first may have lost the welcome, and nothing of the game is theirs yet.
        let unplayed = self.result.is_none() && self.history.as_ref().is_some_and(|h| h.ply() == 0);
        let admitted = match (&resume, &self.token) {
            (None, None) => {
                self.token = Some(random_token(16));
                true
            }
            (None, Some(_)) if unplayed => {
                self.token = Some(random_token(16));
                self.phase = Phase::Connecting;
                true
            }
            (Some(r), Some(t)) => r.session == self.session_id && &r.token == t,
            (None, Some(_)) => false,
            (Some(_), None) => false,
        };
        if !admitted {
            let reason = if resume.is_some() {
                Admission::NotYourGame
            } else {
                Admission::GameFull
            };
            self.note(&format!("refused {name}: {reason}"));
            self.send(
                Message::Refuse {
                    reason: reason.to_string(),
                },
                now,
            );
            self.fail(now, LinkEnd::RefusedJoiner(reason));
            return;
        }
        let first = self.phase == Phase::Connecting;
        self.peer_name = Some(name.clone());
        self.greeted = true;
        // The turn's time so far goes into the clock both sides start again from.
        if let Some(c) = &mut self.base_clock {
            let paused = c.is_paused();
            c.resume();
            c.advance(self.turn_elapsed);
            if paused {
                c.pause();
            }
        }
        self.turn_elapsed = Duration::ZERO;
        let h = self.history.as_ref().expect("a host has its game");
        let welcome = Message::Welcome {
            session: self.session_id.clone(),
            token: self.token.clone().expect("admitted"),
            name: self.my_name.clone(),
            setup: self.setup.clone().expect("a host has its setup"),
            moves: h.move_texts(),
            spent_ms: self.spent_ms.clone(),
            clock: self.base_clock.clone(),
            result: self.result,
        };
        self.send(welcome, now);
        self.start_or_resume(first, name, now);
    }

    /// The handshake is done on both sides: the game starts or goes on.
    fn start_or_resume(&mut self, first: bool, peer: String, now: Instant) {
        self.greeted = true;
        self.last_tick = Some(now);
        if self.result.is_some() {
            self.phase = Phase::Over;
        } else {
            self.phase = Phase::Playing;
            let side = self.to_move();
            if let (Some(c), Some(side)) = (&mut self.base_clock, side) {
                if c.turn().is_none() {
                    c.start(side);
                }
                c.resume();
            }
        }
        self.note(&format!(
            "{} {peer}",
            if first {
                "playing with"
            } else {
                "resumed with"
            }
        ));
        self.events.push(if first {
            Event::Joined { peer }
        } else {
            Event::Resumed { peer }
        });
    }

    #[allow(clippy::too_many_arguments)]
    fn on_welcome(
        &mut self,
        session: String,
        token: String,
        name: String,
        setup: Setup,
        moves: Vec<String>,
        spent_ms: Vec<u64>,
        clock: Option<GameClock>,
        result: Option<GameResult>,
        now: Instant,
    ) {
        if self.role != Role::Joiner || self.greeted {
            return self.refuse(Refusal::UnexpectedWelcome, now);
        }
        let resuming = self.token.is_some();
        if resuming && (self.token.as_deref() != Some(&token) || self.session_id != session) {
            self.events.push(Event::NotAdmitted {
                reason: Admission::AnotherGame,
            });
            return self.fail(now, LinkEnd::HostRefused(Admission::AnotherGame));
        }
        if setup.clock.is_some() != clock.is_some() {
            return self.bad_welcome("its clock does not match its setup".into(), now);
        }
        let history = match replay(&setup, &moves) {
            Ok(h) => h,
            Err(e) => return self.bad_welcome(e, now),
        };
        let mut spent_ms = spent_ms;
        spent_ms.resize(history.ply(), 0);
        let me = setup.host_side.other();
        // My move the host never got: played again after the resync.
        let mine = self.history.as_ref().and_then(|h| {
            let (theirs, ours) = (moves.len(), h.ply());
            let mine_pending = ours == theirs + 1
                && h.move_texts()[..theirs] == moves[..]
                && h.position_at(theirs).side_to_move() == me;
            mine_pending.then(|| {
                (
                    h.move_texts()[theirs].clone(),
                    self.spent_ms.get(theirs).copied().unwrap_or(0),
                )
            })
        });
        let same = self
            .history
            .as_ref()
            .is_some_and(|h| h.move_texts() == moves);
        self.session_id = session;
        self.token = Some(token);
        self.peer_name = Some(clean_name(&name));
        self.me = me;
        self.setup = Some(setup);
        self.history = Some(history);
        self.spent_ms = spent_ms;
        self.base_clock = clock;
        if let Some(c) = &mut self.base_clock {
            c.pause();
        }
        self.turn_elapsed = Duration::ZERO;
        self.result = result;
        let peer = self.peer_name.clone().unwrap_or_default();
        self.start_or_resume(!resuming, peer, now);
        if resuming && !same {
            let ply = self.history.as_ref().map_or(0, |h| h.ply());
            self.events.push(Event::Resynced { ply });
        }
        if let Some((text, spent)) = mine
            && self.phase == Phase::Playing
        {
            self.note(&format!("playing again {text}, which the host did not get"));
            self.turn_elapsed = Duration::from_millis(spent);
            if let Err(e) = self.play_text(&text, now) {
                self.note(&format!("could not play {text} again: {e}"));
            }
        }
    }

    fn bad_welcome(&mut self, why: String, now: Instant) {
        let end = LinkEnd::BadWelcome(why);
        let text = end.to_string();
        self.note(&text);
        self.events
            .push(Event::ProtocolError(ProtocolError::Invalid(text)));
        self.fail(now, end);
    }
}

/// The game of `setup` with `moves` played, each checked by the rules.
fn replay(setup: &Setup, moves: &[String]) -> Result<GameHistory, String> {
    let start = AnyPosition::from_text(setup.game, &setup.start)
        .map_err(|e| format!("start position: {e}"))?;
    if let Some(c) = &setup.clock {
        c.check()?;
    }
    let mut h = GameHistory::new(start);
    for (i, text) in moves.iter().enumerate() {
        let mv = h
            .current()
            .parse_move(text)
            .map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
        h.play(mv)
            .map_err(|e| format!("move {} '{text}' is illegal: {e}", i + 1))?;
    }
    Ok(h)
}
