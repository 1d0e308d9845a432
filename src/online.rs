//! Online play in the window, over `qi_net::NetGame`: hosting and joining (asked for with
//! [`OnlineRequest`] by the Play online menu), each frame's network events turned into the
//! app's own messages (the opponent's move is a [`MoveRequest`] like the CPU's, an undo or a
//! resync a [`BoardReset`]), the player's own moves and actions sent to the opponent, and the
//! autosave of the online game after every change (`online.ron` beside the other saves), from
//! which both players can resume it.
//!
//! The game is a [`Match`] whose opponent is [`Player::Remote`]; the session in `NetGame` is
//! the authority: a local move it refuses is taken back at once.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use bevy::prelude::*;
use qi_core::net::Setup;
use qi_core::net::session::{Event, Phase, Role, Session};
use qi_core::{GameResult, Side};
use qi_net::{Action, HostVia, JoinTarget, NetEvent, NetGame, NetSave};

use crate::AppSet;
use crate::game::{
    BoardReset, GameEvent, Match, MatchSetup, MovePlayed, MoveRequest, Player, RedoRequest, Status,
    UndoRequest,
};
use crate::menus::LoadMatch;
use crate::saves::Store;
use crate::screens::Screen;

/// The autosave of the online game, beside the other saves.
pub const ONLINE_SAVE: &str = "online.ron";

mod outgoing;
mod texts;

pub use texts::{
    admission_text, connecting_text, link_end_text, link_problem_text, net_error_text,
    protocol_error_text, refusal_text,
};

use outgoing::{autosave_online, close_on_leaving, send_actions, send_own_moves};

pub fn plugin(app: &mut App) {
    app.add_message::<OnlineRequest>()
        .add_message::<OnlineAction>()
        .init_resource::<OnlineNotice>()
        .add_systems(Startup, check_online_save)
        .add_systems(Update, poll_network.in_set(AppSet::Input))
        .add_systems(
            Update,
            (handle_requests, send_actions)
                .chain()
                .in_set(AppSet::Apply),
        )
        .add_systems(
            Update,
            (send_own_moves, apply_result)
                .chain()
                .in_set(AppSet::Follow)
                .run_if(in_state(Screen::Playing)),
        )
        .add_systems(Update, autosave_online.in_set(AppSet::Present))
        .add_systems(OnExit(Screen::Playing), close_on_leaving);
}

/// What the Play online menu asks for.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum OnlineRequest {
    Host {
        setup: Setup,
        name: String,
        via: HostVia,
    },
    Join {
        name: String,
        target: JoinTarget,
    },
    /// Go on with the game in the online autosave.
    Resume,
    /// Stop hosting or joining (before the game started).
    Cancel,
}

/// A player's action in the online game (from the HUD).
#[derive(Message, Clone, Debug, PartialEq)]
pub struct OnlineAction(pub Action);

/// A message for the player on the Play online menu (a failed connection, a refusal); shown
/// until the player leaves that menu.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct OnlineNotice {
    pub text: Option<String>,
    /// An online autosave exists, and with whom: `(game, opponent)`.
    pub resumable: Option<(qi_core::GameKind, String)>,
}

/// A question from the opponent waiting for the player's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    Undo { ply: usize },
    Draw,
}

/// The online game being set up or played.
#[derive(Resource)]
pub struct Online {
    net: Mutex<NetGame>,
    pub role: Role,
    /// A LAN host's port.
    pub port: Option<u16>,
    /// Where the joiner finds a LAN host: this machine's address on its network, with the port.
    pub address: Option<String>,
    /// A relay host's room code.
    pub room: Option<String>,
    /// The connection as the player is told it (`None`: all is well).
    pub link: Option<String>,
    /// `link` tells of bad data from the network: kept over the connection problems that
    /// follow it (the link is closed after bad data), until the game starts or goes on.
    link_is_error: bool,
    pub peer: Option<String>,
    pub connected: bool,
    /// The game started (the first handshake is done).
    pub started: bool,
    pub question: Option<Question>,
    /// This player asked for an undo or offered a draw: waiting for the answer.
    pub asked: Option<Question>,
    /// The chat, oldest first: `(from, text)`.
    pub chat: Vec<(String, String)>,
    /// The game's record was written.
    recorded: bool,
    /// The session's result, given to the match once this frame's moves are on the board (the
    /// move that ended the game arrives in the same poll).
    result: Option<GameResult>,
}

impl Online {
    fn new(net: NetGame, role: Role) -> Online {
        Online {
            net: Mutex::new(net),
            role,
            port: None,
            address: None,
            room: None,
            link: None,
            link_is_error: false,
            peer: None,
            connected: false,
            started: false,
            question: None,
            asked: None,
            chat: Vec::new(),
            recorded: false,
            result: None,
        }
    }

    fn net(&self) -> std::sync::MutexGuard<'_, NetGame> {
        self.net.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `f` on the session (names, clocks, phase).
    pub fn with_session<R>(&self, f: impl FnOnce(&Session) -> R) -> R {
        let net = self.net();
        let s = net.session();
        f(&s)
    }

    pub fn send(&self, action: Action) -> Result<(), String> {
        self.net().send(action).map_err(|e| e.to_string())
    }

    pub fn save(&self) -> Option<NetSave> {
        self.net().save()
    }

    /// Leaves for good (the opponent is told).
    fn leave(self) {
        let net = self.net.into_inner().unwrap_or_else(|e| e.into_inner());
        net.leave();
    }
}

/// The match the session describes: this player a person, the opponent remote.
pub fn match_of_session(s: &Session) -> Option<Match> {
    let setup = s.setup()?;
    let history = s.history()?.clone();
    let me = s.me();
    let mut players = [Player::Remote; 2];
    players[me.index()] = Player::Human;
    let mut names = [String::new(), String::new()];
    names[me.index()] = s.my_name().to_string();
    names[me.other().index()] = s.peer_name().unwrap_or("?").to_string();
    let ms = MatchSetup {
        kind: setup.game,
        start_text: Some(setup.start.clone()),
        players,
        names,
        clock: setup.clock,
    };
    let mut m = Match::with_history(ms, history);
    if let Some(r) = s.result()
        && m.result() != Some(r)
    {
        m.final_result = Some(r);
    }
    Some(m)
}

fn save_path(store: &Store) -> PathBuf {
    store.0.dir().join(ONLINE_SAVE)
}

fn read_online_save(store: &Store) -> Result<Option<NetSave>, String> {
    match qi_core::storage::read_text(&save_path(store))
        .map_err(|e| crate::saves::read_error_text(&e))?
    {
        None => Ok(None),
        Some(text) => qi_core::storage::from_ron(&text).map(Some),
    }
}

/// At start: is there an online game to resume?
fn check_online_save(store: Option<Res<Store>>, mut notice: ResMut<OnlineNotice>) {
    let Some(store) = store else { return };
    match read_online_save(&store) {
        Ok(Some(save)) if save.session.result.is_none() => {
            let peer = save.session.peer_name.clone().unwrap_or_default();
            notice.resumable = Some((save.session.setup.game, peer));
        }
        Ok(_) => {}
        Err(e) => warn!("qi: online autosave: {e}"),
    }
}

fn handle_requests(
    mut requests: MessageReader<OnlineRequest>,
    mut commands: Commands,
    online: Option<Res<Online>>,
    store: Option<Res<Store>>,
    mut notice: ResMut<OnlineNotice>,
) {
    let mut current = online.is_some();
    for r in requests.read() {
        if let OnlineRequest::Cancel = r {
            if current {
                info!("qi: online cancelled");
                commands.queue(|w: &mut World| {
                    if let Some(o) = w.remove_resource::<Online>() {
                        o.leave();
                    }
                });
                current = false;
            }
            continue;
        }
        if current {
            warn!("qi: online request ignored: a game is already set up");
            continue;
        }
        notice.text = None;
        let made = match r {
            OnlineRequest::Host { setup, name, via } => {
                info!("qi: online host {} via {via:?}", setup.game);
                NetGame::host(setup.clone(), name, via.clone())
                    .map(|n| Online::new(n, Role::Host))
                    .map_err(|e| {
                        let port = match via {
                            HostVia::Lan { port, .. } => Some(*port),
                            HostVia::Relay { .. } => None,
                        };
                        net_error_text(&e, port)
                    })
            }
            OnlineRequest::Join { name, target } => {
                info!("qi: online join {target:?}");
                Ok(Online::new(
                    NetGame::join(name, target.clone()),
                    Role::Joiner,
                ))
            }
            OnlineRequest::Resume => {
                let save = store
                    .as_ref()
                    .ok_or_else(|| t!("online-no-save-folder"))
                    .and_then(|s| read_online_save(s))
                    .and_then(|s| s.ok_or_else(|| t!("online-no-save")));
                save.and_then(|save| {
                    info!("qi: online resume {:?}", save.reach);
                    let role = save.session.role;
                    let port = match &save.reach {
                        qi_net::Reach::HostLan { port, .. } => Some(*port),
                        _ => None,
                    };
                    NetGame::resume(save, Default::default())
                        .map(|n| Online::new(n, role))
                        .map_err(|e| net_error_text(&e, port))
                })
            }
            OnlineRequest::Cancel => unreachable!(),
        };
        match made {
            Ok(o) => {
                commands.insert_resource(o);
                current = true;
            }
            Err(why) => {
                warn!("qi: online: {why}");
                notice.text = Some(t!("online-cannot-start", why = why));
            }
        }
    }
}

/// What the network says, turned into the app's messages.
#[derive(bevy::ecs::system::SystemParam)]
pub struct NetWriters<'w> {
    moves: MessageWriter<'w, MoveRequest>,
    resets: MessageWriter<'w, BoardReset>,
    status: MessageWriter<'w, Status>,
    loads: MessageWriter<'w, LoadMatch>,
    next_screen: ResMut<'w, NextState<Screen>>,
}

fn poll_network(
    mut commands: Commands,
    online: Option<ResMut<Online>>,
    game: Option<ResMut<Match>>,
    screen: Res<State<Screen>>,
    mut notice: ResMut<OnlineNotice>,
    out: NetWriters,
) {
    let NetWriters {
        mut moves,
        mut resets,
        mut status,
        mut loads,
        mut next_screen,
    } = out;
    let Some(mut online) = online else { return };
    let evs = online.net().poll();
    let mut game = game;
    let playing = *screen.get() == Screen::Playing;
    for ev in evs {
        match ev {
            NetEvent::Listening { addr } => {
                info!("qi: online listening on port {}", addr.port());
                online.port = Some(addr.port());
                online.address = lan_address().map(|ip| format!("{ip}:{}", addr.port()));
            }
            NetEvent::Room { code } => {
                info!("qi: online room {code}");
                online.room = Some(code);
                // the relay is reached: the room waits for the opponent
                if !online.link_is_error {
                    online.link = None;
                }
            }
            NetEvent::Connecting { to, room } => {
                info!("qi: online connecting to {to} (room {room:?})");
                if !online.link_is_error {
                    online.link = Some(connecting_text(&to, room.as_deref()));
                }
            }
            NetEvent::ConnectionProblem { why } => {
                info!("qi: online connection problem: {why}");
                if !online.link_is_error {
                    online.link = Some(t!(
                        "online-connection-problem",
                        why = link_problem_text(&why)
                    ));
                }
            }
            NetEvent::AdvertiseFailed { why } => {
                warn!("qi: online LAN advertisement failed: {why}");
            }
            NetEvent::Failed { why } => {
                warn!("qi: online failed: {why}");
                let text = t!("online-failed", why = link_problem_text(&why));
                if playing {
                    status.write(Status(text.clone()));
                }
                notice.text = Some(text);
                commands.remove_resource::<Online>();
                return;
            }
            NetEvent::Game(e) => match e {
                Event::Joined { peer } | Event::Resumed { peer } => {
                    info!("qi: online playing against {peer}");
                    online.peer = Some(peer.clone());
                    online.connected = true;
                    online.link = None;
                    online.link_is_error = false;
                    let fresh = !online.started;
                    online.started = true;
                    if let Some(g) = game.as_deref_mut().filter(|_| playing && !fresh) {
                        g.hold = false;
                        status.write(Status(t!("online-back", peer = peer)));
                    } else {
                        // the game starts (or goes on from an autosave): the board from the session
                        let m = online.with_session(match_of_session);
                        if let Some(m) = m {
                            notice.text = None;
                            let m = Box::new(m);
                            loads.write(LoadMatch(m));
                            status.write(Status(t!("online-started", peer = peer)));
                            NextState::set_if_neq(&mut *next_screen, Screen::Playing);
                        }
                    }
                }
                Event::Waiting { why } => {
                    info!("qi: online waiting for the opponent: {why}");
                    online.connected = false;
                    online.link = Some(t!("online-waiting"));
                    if let Some(g) = game.as_deref_mut() {
                        g.hold = true;
                    }
                    status.write(Status(t!("online-waiting")));
                }
                Event::OpponentMoved { ply, mv, text } => {
                    info!("qi: online opponent played {text} at ply {ply}");
                    online.question = None;
                    if let Some(g) = game.as_deref_mut() {
                        if g.history.ply() == ply && g.position().is_legal(mv) {
                            moves.write(MoveRequest(mv));
                        } else {
                            resync(&online, g, &mut resets);
                        }
                    }
                }
                Event::Resynced { ply } | Event::UndoDone { ply } => {
                    info!("qi: online history now at ply {ply}");
                    online.asked = None;
                    online.question = None;
                    if let Some(g) = game.as_deref_mut() {
                        resync(&online, g, &mut resets);
                        status.write(Status(t!("status-undone", n = ply)));
                    }
                }
                Event::UndoRequested { ply } => {
                    info!("qi: online undo requested to ply {ply}");
                    online.question = Some(Question::Undo { ply });
                    status.write(Status(t!("online-undo-asked-by")));
                }
                Event::DrawOffered => {
                    info!("qi: online draw offered");
                    online.question = Some(Question::Draw);
                    status.write(Status(t!("online-draw-offered-by")));
                }
                Event::UndoRefused => {
                    info!("qi: online undo refused");
                    online.asked = None;
                    status.write(Status(t!("online-undo-refused")));
                }
                Event::DrawRefused => {
                    info!("qi: online draw refused");
                    online.asked = None;
                    status.write(Status(t!("online-draw-refused")));
                }
                Event::Chat { from, text } => {
                    info!("qi: online chat from {from}: {text}");
                    online.chat.push((from, text));
                    let excess = online.chat.len().saturating_sub(50);
                    online.chat.drain(..excess);
                }
                Event::GameOver(result) => {
                    info!("qi: online game over {}", result.sgf());
                    online.question = None;
                    online.asked = None;
                    online.result = Some(result);
                }
                Event::Refused { why } => {
                    warn!("qi: online refused a message of the opponent's: {why}");
                    let text = t!("online-refused", why = refusal_text(&why));
                    if !online.started {
                        online.link = Some(text.clone());
                        online.link_is_error = true;
                    }
                    status.write(Status(text));
                }
                Event::PeerRefused { why } => {
                    warn!("qi: online the opponent refused ours: {why}");
                    status.write(Status(t!("online-peer-refused")));
                    if let Some(g) = game.as_deref_mut() {
                        resync(&online, g, &mut resets);
                    }
                }
                Event::ProtocolError(e) => {
                    warn!("qi: online protocol error: {e}");
                    let text = t!("online-bad-data", why = protocol_error_text(&e));
                    // before the game, the waiting panel says it; during it, the status line
                    online.link = Some(text.clone());
                    online.link_is_error = true;
                    status.write(Status(text));
                }
                Event::NotAdmitted { reason } => {
                    warn!("qi: online not admitted: {reason}");
                    let text = t!("online-not-admitted", why = admission_text(&reason));
                    notice.text = Some(text.clone());
                    status.write(Status(text));
                    commands.remove_resource::<Online>();
                    return;
                }
                Event::PeerLeft => {
                    info!("qi: online the opponent left");
                    online.connected = false;
                    online.link = Some(t!("online-peer-left"));
                    status.write(Status(t!("online-peer-left")));
                }
            },
        }
    }
}

/// This machine's address on its network (the one its traffic leaves from), found without
/// sending anything: a UDP socket "connected" to a documentation address only picks a route.
fn lan_address() -> Option<std::net::IpAddr> {
    let s = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    s.connect("192.0.2.1:9").ok()?;
    let ip = s.local_addr().ok()?.ip();
    (!ip.is_unspecified() && !ip.is_loopback()).then_some(ip)
}

/// The board from the session's history (after an undo, a resync, or a move that did not fit).
fn resync(online: &Online, g: &mut Match, resets: &mut MessageWriter<BoardReset>) {
    let fresh = online.with_session(|s| s.history().cloned().map(|h| (h, s.result())));
    if let Some((history, result)) = fresh {
        g.history = history;
        g.final_result = result.filter(|r| GameResult::of(g.position()) != Some(*r));
        g.dirty = true;
        resets.write(BoardReset);
    }
}

/// The game's end as the session has it (a flag, a resignation, a draw agreed, or the last
/// move), after the frame's moves were applied.
fn apply_result(
    online: Option<ResMut<Online>>,
    game: Option<ResMut<Match>>,
    mut status: MessageWriter<Status>,
    mut events: MessageWriter<GameEvent>,
) {
    let (Some(mut online), Some(mut game)) = (online, game) else {
        return;
    };
    if !game.is_online() {
        return;
    }
    if let Some(result) = online.result.take() {
        finish(&mut game, result, &mut status, &mut events);
    }
}

fn finish(
    g: &mut Match,
    result: GameResult,
    status: &mut MessageWriter<Status>,
    events: &mut MessageWriter<GameEvent>,
) {
    if g.result() == Some(result) {
        return;
    }
    g.final_result = Some(result);
    g.dirty = true;
    status.write(Status(crate::games::result_text(g.kind(), &result)));
    events.write(GameEvent::Over(result.outcome()));
}

/// The side this player has in the online game.
pub fn my_side(online: &Online) -> Side {
    online.with_session(|s| s.me())
}

/// The clocks of the online game now, if it has one.
pub fn clock_now(online: &Online) -> Option<qi_core::clock::GameClock> {
    online.with_session(|s| s.clock(Instant::now()))
}
