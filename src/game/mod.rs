//! The game being played: who plays, the history of moves, and the systems that apply move,
//! undo and redo requests to it. The state around the game lives in small resources (the piece
//! picked up, the hint, the status line, the score view), each removed when the game screen is
//! left. Everything else (board entities, HUD, CPU) reacts to the messages written here.

use bevy::prelude::*;
use qi_core::any::{AnyMove, AnyPosition, GameHistory};
use qi_core::{Cell, GameKind, GameResult, Side, Square};

use crate::AppSet;
use crate::screens::Screen;

pub fn plugin(app: &mut App) {
    app.add_message::<MoveRequest>()
        .add_message::<MovePlayed>()
        .add_message::<UndoRequest>()
        .add_message::<RedoRequest>()
        .add_message::<BoardReset>()
        .add_message::<GameEvent>()
        .add_message::<ResignRequest>()
        .add_message::<Status>()
        .add_message::<ConfirmScoring>()
        .init_resource::<Selection>()
        .init_resource::<Hint>()
        .init_resource::<StatusLine>()
        .init_resource::<ScoreView>()
        .add_systems(
            Update,
            (apply_move_requests, apply_resignations, apply_undo_redo)
                .chain()
                .in_set(AppSet::Apply)
                .run_if(in_state(Screen::Playing)),
        )
        .add_systems(
            Update,
            (clear_on_change, update_status_line)
                .chain()
                .in_set(AppSet::Present),
        )
        .add_systems(OnExit(Screen::Playing), clear_game_state);
}

/// Who plays one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Player {
    Human,
    Cpu {
        level: u8,
    },
    /// The opponent of an online game: its moves come over the network.
    Remote,
}

impl Player {
    pub fn is_cpu(self) -> bool {
        matches!(self, Player::Cpu { .. })
    }

    pub fn is_remote(self) -> bool {
        matches!(self, Player::Remote)
    }
}

/// The options a game was started with.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSetup {
    pub kind: GameKind,
    /// The start position in the game's text form (`None`: the standard start).
    pub start_text: Option<String>,
    pub players: [Player; 2],
    pub names: [String; 2],
    /// The game clock's time control (`None`: no clock).
    pub clock: Option<qi_core::clock::TimeControl>,
}

impl MatchSetup {
    pub fn start_position(&self) -> Result<AnyPosition, String> {
        match &self.start_text {
            Some(t) => AnyPosition::from_text(self.kind, t).map_err(|e| e.to_string()),
            None => AnyPosition::start(self.kind).map_err(|e| e.to_string()),
        }
    }
}

/// The game in progress.
#[derive(Resource, Clone, Debug)]
pub struct Match {
    pub setup: MatchSetup,
    pub history: GameHistory,
    /// Seconds the game has been played (paused time not counted).
    pub elapsed: f32,
    /// The game changed since it was last saved in a slot.
    pub dirty: bool,
    /// The result when it is not the position's own (Go after the dead stones are confirmed).
    pub final_result: Option<GameResult>,
    /// A record being replayed: only the replay controls move the board.
    pub replay: Option<crate::replay::ReplayState>,
    /// Moves wait: an online game whose opponent is away, or a game whose clock is not
    /// running yet.
    pub hold: bool,
    /// A local game's clock (made when the game starts, if its setup has a time control).
    pub clock: Option<qi_core::clock::GameClock>,
}

impl Match {
    pub fn new(setup: MatchSetup) -> Result<Match, String> {
        let start = setup.start_position()?;
        Ok(Match::with_history(setup, GameHistory::new(start)))
    }

    /// A game that goes on from a history (a loaded save or record).
    pub fn with_history(setup: MatchSetup, history: GameHistory) -> Match {
        let setup_clock = setup.clock;
        Match {
            history,
            setup,
            elapsed: 0.0,
            dirty: false,
            final_result: None,
            replay: None,
            hold: false,
            clock: setup_clock.map(qi_core::clock::GameClock::new),
        }
    }

    pub fn position(&self) -> &AnyPosition {
        self.history.current()
    }

    pub fn kind(&self) -> GameKind {
        self.setup.kind
    }

    pub fn ui(&self) -> &'static dyn crate::games::GameUi {
        crate::games::ui_of(self.kind())
    }

    pub fn player_to_move(&self) -> Player {
        self.setup.players[self.position().side_to_move().index()]
    }

    /// The game has ended: by its rules, or by a result given from outside the position (a
    /// confirmed Go score, a flag, an online resignation or draw).
    pub fn is_over(&self) -> bool {
        self.final_result.is_some() || self.position().outcome().is_some()
    }

    /// The result of the finished game: the confirmed one, or the position's by its rules.
    /// `None` while the game goes on, and while Go's dead stones are being marked.
    pub fn result(&self) -> Option<GameResult> {
        self.final_result.or_else(|| {
            let pos = self.position();
            let scoring = pos
                .as_go()
                .is_some_and(|g| g.resigned().is_none() && pos.outcome().is_some());
            if scoring { None } else { GameResult::of(pos) }
        })
    }

    /// Whether a person is to move now (so clicks and typed moves count).
    pub fn human_to_move(&self) -> bool {
        !self.is_over()
            && self.replay.is_none()
            && !self.hold
            && self.player_to_move() == Player::Human
    }

    /// A game against an opponent over the network.
    pub fn is_online(&self) -> bool {
        self.setup.players.iter().any(|p| p.is_remote())
    }

    pub fn vs_cpu(&self) -> bool {
        self.setup.players.iter().any(|p| p.is_cpu())
            && self.setup.players.iter().any(|p| !p.is_cpu())
    }

    /// The side's name in this game (Red/Blue in Ataxx), in the player's language.
    pub fn side_name(&self, side: Side) -> String {
        side_name(self.kind(), side)
    }
}

/// The name each game gives its two sides, in the player's language.
pub fn side_name(kind: GameKind, side: Side) -> String {
    crate::games::ui_of(kind).side_name(side)
}

/// Ataxx: the piece picked up, waiting for its target.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq)]
pub struct Selection(pub Option<Square>);

/// A move the CPU suggested for the person to move (cleared by any change).
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq)]
pub struct Hint(pub Option<AnyMove>);

/// The status bar's line: what just happened. Written through [`Status`] messages.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct StatusLine(pub String);

/// A game's scoring phase takes the board's clicks (Go's dead-stone marking).
#[derive(Resource, Debug, Clone, Copy, Default)]
pub struct BoardClaimed;

/// The score while a game is being scored, for the side panel (Go after two passes).
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct ScoreView(pub Option<String>);

/// A new status line.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct Status(pub String);

/// The players agree on the score shown (Go's dead stones).
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct ConfirmScoring;

/// A request to play a move (from a click, the move box, or the CPU).
#[derive(Message, Clone, Copy, Debug)]
pub struct MoveRequest(pub AnyMove);

/// A move was played: the board animates its changes, computed once here.
#[derive(Message, Clone, Debug)]
pub struct MovePlayed {
    pub mv: AnyMove,
    pub before: AnyPosition,
    pub side: Side,
    /// Every square that changed: `(square, before, after)`.
    pub changes: Vec<(Square, Cell, Cell)>,
}

impl MovePlayed {
    pub fn new(before: AnyPosition, mv: AnyMove) -> MovePlayed {
        MovePlayed {
            mv,
            side: before.side_to_move(),
            changes: before.changes(mv),
            before,
        }
    }

    /// Pieces that changed colour (flips, captures by conversion) or left (captures).
    pub fn captured(&self) -> usize {
        self.changes
            .iter()
            .filter(|(_, a, b)| {
                matches!((a, b), (Cell::Piece(x), Cell::Piece(y)) if x != y)
                    || matches!((a, b), (Cell::Piece(x), Cell::Empty) if *x != self.side)
            })
            .count()
    }
}

#[derive(Message, Clone, Copy, Debug, Default)]
pub struct UndoRequest;

/// This side resigns (the person's Resign button, or the CPU finding the game lost).
#[derive(Message, Clone, Copy, Debug)]
pub struct ResignRequest(pub Side);

#[derive(Message, Clone, Copy, Debug, Default)]
pub struct RedoRequest;

/// The position changed other than by one move (new game, undo, redo, load): the board is
/// rebuilt from it.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct BoardReset;

/// Things the sound and the HUD react to.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEvent {
    Placed,
    Captured,
    Illegal,
    Over(qi_core::Outcome),
}

fn apply_move_requests(
    mut requests: MessageReader<MoveRequest>,
    mut game: ResMut<Match>,
    mut played: MessageWriter<MovePlayed>,
    mut events: MessageWriter<GameEvent>,
    mut status: MessageWriter<Status>,
) {
    for &MoveRequest(mv) in requests.read() {
        if game.is_over() {
            continue;
        }
        let before = game.position().clone();
        let text = before.move_to_text(mv);
        let side = before.side_to_move();
        let name = game.side_name(side);
        match game.history.play(mv) {
            Ok(()) => {
                game.dirty = true;
                let ply = game.history.ply();
                // the log keeps the core's English names, whatever the window's language
                info!("qi: move {ply} {} {text}", game.kind().side_name(side));
                let m = MovePlayed::new(before, mv);
                status.write(Status(if m.before.move_squares(mv).to.is_none() {
                    if m.before.legal_moves().len() == 1 {
                        t!("status-no-move-passes", side = name)
                    } else {
                        t!("status-passes", side = name)
                    }
                } else {
                    t!("status-played", n = ply, side = name, mv = text.as_str())
                }));
                events.write(if m.captured() > 0 {
                    GameEvent::Captured
                } else {
                    GameEvent::Placed
                });
                played.write(m);
                if let Some(result) = game.result() {
                    info!("qi: game over {}", result.sgf());
                    status.write(Status(crate::games::result_text(game.kind(), &result)));
                    events.write(GameEvent::Over(result.outcome()));
                }
            }
            Err(e) => {
                info!("qi: illegal move {text}: {e}");
                // the words a click on the square would get, in the window's language
                status.write(Status(crate::games::refusal(&before, mv)));
                events.write(GameEvent::Illegal);
            }
        }
    }
}

fn apply_resignations(
    mut requests: MessageReader<ResignRequest>,
    mut game: ResMut<Match>,
    mut events: MessageWriter<GameEvent>,
    mut status: MessageWriter<Status>,
) {
    for &ResignRequest(side) in requests.read() {
        // an online game's resignation goes to the opponent (crate::online)
        if game.is_online() {
            continue;
        }
        if let Some(text) = resign(&mut game, side) {
            status.write(Status(text));
            if let Some(r) = game.result() {
                events.write(GameEvent::Over(r.outcome()));
            }
        }
    }
}

/// `side` resigns (Go); returns the status line, `None` when it cannot.
pub fn resign(game: &mut Match, side: Side) -> Option<String> {
    if game.is_over() || game.replay.is_some() || !game.history.resign(side) {
        return None;
    }
    let result = GameResult::win(side.other(), qi_core::Reason::Resignation);
    info!(
        "qi: {} resigns; game over {}",
        game.kind().side_name(side),
        result.sgf()
    );
    game.dirty = true;
    Some(t!(
        "status-resigns",
        side = game.side_name(side),
        result = crate::games::result_text(game.kind(), &result)
    ))
}

fn apply_undo_redo(
    mut undo: MessageReader<UndoRequest>,
    mut redo: MessageWriter<BoardReset>,
    mut redos: MessageReader<RedoRequest>,
    mut game: ResMut<Match>,
    mut status: MessageWriter<Status>,
) {
    // an online game's undo is a request to the opponent (crate::online)
    if game.is_online() {
        undo.clear();
        redos.clear();
        return;
    }
    let mut changed = false;
    for _ in undo.read() {
        let (did, text) = undo_for_player(&mut game);
        changed |= did;
        status.write(Status(text));
    }
    for _ in redos.read() {
        let (did, text) = redo_for_player(&mut game);
        changed |= did;
        status.write(Status(text));
    }
    if changed {
        game.final_result = None;
        game.dirty = true;
        info!("qi: position now at ply {}", game.history.ply());
        redo.write(BoardReset);
    }
}

/// Whether [`undo_for_player`] has anything to take back: a move (against the CPU, a move
/// of the person's, not only the CPU's first ones), or a resignation (which may come before
/// the first move).
pub fn can_undo_for_player(game: &Match) -> bool {
    resigned(game) || (game.history.can_undo() && game.history.ply() > cpu_moves_first(game))
}

/// How many moves the CPU played from the start before a person's first move (0 unless the
/// CPU moves first): against the CPU, Undo never goes back past them, since they would only
/// be played again.
fn cpu_moves_first(game: &Match) -> usize {
    if !game.vs_cpu() {
        return 0;
    }
    let mut pos = game.history.start().clone();
    let mut n = 0;
    for &mv in game.history.moves() {
        if !game.setup.players[pos.side_to_move().index()].is_cpu() || pos.play(mv).is_err() {
            break;
        }
        n += 1;
    }
    n
}

fn resigned(game: &Match) -> bool {
    game.position()
        .as_go()
        .is_some_and(|g| g.resigned().is_some())
}

/// Takes back one move; against the CPU, back to the human's last turn (so the human moves
/// next). Returns whether anything was undone, and the status line.
pub fn undo_for_player(game: &mut Match) -> (bool, String) {
    if resigned(game) {
        game.history.clear_resignation();
        return (true, t!("status-resignation-undone"));
    }
    if !can_undo_for_player(game) {
        return (false, t!("status-nothing-to-undo"));
    }
    if game.vs_cpu() {
        let start_ply = game.history.ply();
        // Undo until a human is to move and at least one human move was taken back.
        loop {
            if game.history.undo().is_none() {
                break;
            }
            if game.player_to_move() == Player::Human {
                break;
            }
        }
        if game.player_to_move() != Player::Human {
            // Only CPU moves before the human's first: replay them.
            while game.history.ply() < start_ply && game.player_to_move() != Player::Human {
                game.history.redo();
            }
        }
    } else {
        game.history.undo();
    }
    (true, t!("status-undone", n = game.history.ply()))
}

/// Plays again what was undone: against the CPU, up to the human's next turn.
pub fn redo_for_player(game: &mut Match) -> (bool, String) {
    if !game.history.can_redo() {
        return (false, t!("status-nothing-to-redo"));
    }
    game.history.redo();
    if game.vs_cpu() {
        while game.history.can_redo() && game.player_to_move() != Player::Human {
            game.history.redo();
        }
    }
    (true, t!("status-redone", n = game.history.ply()))
}

/// The selection and the hint belong to one position: any move or reset drops them.
fn clear_on_change(
    mut played: MessageReader<MovePlayed>,
    mut resets: MessageReader<BoardReset>,
    mut selection: ResMut<Selection>,
    mut hint: ResMut<Hint>,
) {
    if played.read().count() + resets.read().count() > 0 {
        if selection.0.is_some() {
            selection.0 = None;
        }
        if hint.0.is_some() {
            hint.0 = None;
        }
    }
}

fn update_status_line(mut messages: MessageReader<Status>, mut line: ResMut<StatusLine>) {
    if let Some(Status(text)) = messages.read().last() {
        line.0 = text.clone();
    }
}

fn clear_game_state(
    mut selection: ResMut<Selection>,
    mut hint: ResMut<Hint>,
    mut line: ResMut<StatusLine>,
    mut view: ResMut<ScoreView>,
) {
    *selection = Selection::default();
    *hint = Hint::default();
    *line = StatusLine::default();
    *view = ScoreView::default();
}
