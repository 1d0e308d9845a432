//! Qi's online play over the network: [`NetGame`] (TCP, direct on a LAN or through a relay,
//! reconnecting by itself), the [`relay`] server behind `qi-relay`, and LAN [`discovery`] by
//! multicast DNS. The protocol and the session state machine, which check everything the
//! opponent sends, are in `qi_core::net`; the clocks in `qi_core::clock`.
//!
//! A window uses it like this, every frame:
//!
//! ```no_run
//! use qi_core::net::{Setup, session::Event};
//! use qi_core::{GameKind, Side};
//! use qi_net::{Action, HostVia, NetEvent, NetGame};
//!
//! let setup = Setup {
//!     game: GameKind::Reversi,
//!     start: qi_core::any::AnyPosition::start(GameKind::Reversi).unwrap().to_text(),
//!     host_side: Side::Black,
//!     clock: None,
//! };
//! let game = NetGame::host(setup, "Ann", HostVia::Lan { port: 0, advertise: true }).unwrap();
//! // each frame:
//! for ev in game.poll() {
//!     match ev {
//!         NetEvent::Listening { addr } => println!("waiting on port {}", addr.port()),
//!         NetEvent::Game(Event::Joined { peer }) => println!("{peer} joined"),
//!         NetEvent::Game(Event::OpponentMoved { text, .. }) => println!("they played {text}"),
//!         _ => {}
//!     }
//! }
//! if let Err(e) = game.send(Action::MoveText("d3".into())) {
//!     println!("{e}");
//! }
//! let s = game.session();
//! let _board = s.history().map(|h| h.current().clone());
//! ```

//! What the window does with each [`NetEvent`]:
//!
//! - `Listening { addr }` / `Room { code }`: show the port or the room code to give the other
//!   player. `Connecting`, `ConnectionProblem { why }`: a status line (it keeps trying);
//!   `Failed { why }`: nothing more is tried (wrong room code): say why, back to the menu.
//!   `why` is a [`LinkProblem`] (refused, no such host, the relay's answer...), to be put in
//!   the window's words.
//! - `Game(Joined)`: the game starts (the joiner learns its colour from
//!   [`qi_core::net::Session::me`] and the game from `setup()`/`history()`).
//! - `Game(OpponentMoved)`, `Game(UndoDone)`, `Game(Resynced)`: redraw from `history()`, and
//!   autosave ([`NetGame::save`], kept as RON like the other saves).
//! - `Game(Waiting)`: "waiting for the opponent…", clocks stopped; `Game(Resumed)`: go on.
//! - `Game(UndoRequested)`, `Game(DrawOffered)`: ask the player, answer with
//!   [`Action::AnswerUndo`] / [`Action::AnswerDraw`]; `UndoRefused`, `DrawRefused`: say so.
//! - `Game(GameOver(result))`: the typed result (`Reason::Time` for a flag).
//! - `Game(Chat)`, `Game(Refused)` / `Game(PeerRefused)` / `Game(ProtocolError)` (log them),
//!   `Game(NotAdmitted)`, `Game(PeerLeft)`.
//!
//! The clocks to show are `session().clock(Instant::now())`.

pub mod discovery;
pub mod frame;
pub mod game;
pub mod relay;

pub use game::{
    Action, DEFAULT_GAME_PORT, HostVia, JoinTarget, LinkProblem, NetError, NetEvent, NetGame,
    NetSave, Reach,
};
pub use relay::{DEFAULT_RELAY_PORT, Relay, RelayConfig};
