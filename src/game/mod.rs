//! The game being played: who plays, the history of moves, and the systems that apply move,
//! undo and redo requests to it. Everything else (board entities, HUD, CPU) reacts to the
//! messages written here.

use bevy::prelude::*;
use qi_core::any::{AnyMove, AnyPosition, GameHistory};
use qi_core::{Game, GameKind, Outcome, Side};

use crate::screens::Screen;

pub fn plugin(app: &mut App) {
    app.add_message::<MoveRequest>()
        .add_message::<MovePlayed>()
        .add_message::<UndoRequest>()
        .add_message::<RedoRequest>()
        .add_message::<BoardReset>()
        .add_message::<GameEvent>()
        .add_message::<ResignRequest>()
        .add_systems(
            Update,
            (apply_move_requests, apply_resignations, apply_undo_redo)
                .chain()
                .run_if(in_state(Screen::Playing)),
        );
}

/// Who plays one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Player {
    Human,
    Cpu { level: u8 },
}

impl Player {
    pub fn is_cpu(self) -> bool {
        matches!(self, Player::Cpu { .. })
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
    /// A line for the status bar: what just happened.
    pub status: String,
    /// Ataxx: the piece picked up, waiting for its target.
    pub selected: Option<qi_core::Square>,
    /// Seconds the game has been played (paused time not counted).
    pub elapsed: f32,
    /// The game changed since it was last saved.
    pub dirty: bool,
    /// A move the CPU suggested for the person to move (cleared by any move).
    pub hint: Option<AnyMove>,
    /// Go after two passes: the stones marked dead, while the players check them.
    pub dead_marking: Option<Vec<qi_core::Square>>,
    /// Go: the result once the dead stones are confirmed (`B+3.5`).
    pub final_result: Option<String>,
    /// A record being replayed: only the replay controls move the board.
    pub replay: Option<crate::replay::ReplayState>,
}

impl Match {
    pub fn new(setup: MatchSetup) -> Result<Match, String> {
        let start = setup.start_position()?;
        Ok(Match::with_history(setup, GameHistory::new(start)))
    }

    /// A game that goes on from a history (a loaded save or record).
    pub fn with_history(setup: MatchSetup, history: GameHistory) -> Match {
        Match {
            history,
            setup,
            status: String::new(),
            selected: None,
            elapsed: 0.0,
            dirty: false,
            hint: None,
            dead_marking: None,
            final_result: None,
            replay: None,
        }
    }

    pub fn position(&self) -> &AnyPosition {
        self.history.current()
    }

    pub fn kind(&self) -> GameKind {
        self.setup.kind
    }

    pub fn player_to_move(&self) -> Player {
        self.setup.players[self.position().side_to_move().index()]
    }

    pub fn is_over(&self) -> bool {
        self.position().outcome().is_some()
    }

    /// Go: the game ended by two passes and its dead stones are not confirmed yet.
    pub fn marking_dead(&self) -> bool {
        self.dead_marking.is_some() && self.final_result.is_none()
    }

    /// Go: the score with the stones marked dead counted as captured.
    pub fn marked_score(&self) -> Option<qi_core::go::ScoreDetail> {
        let go = self.position().as_go()?;
        Some(go.score_with_dead(self.dead_marking.as_deref().unwrap_or(&[])))
    }

    /// Whether a person is to move now (so clicks and typed moves count).
    pub fn human_to_move(&self) -> bool {
        !self.is_over() && self.replay.is_none() && self.player_to_move() == Player::Human
    }

    pub fn vs_cpu(&self) -> bool {
        self.setup.players.iter().any(|p| p.is_cpu())
            && self.setup.players.iter().any(|p| !p.is_cpu())
    }
}

/// The name each game gives its two sides.
pub fn side_name(kind: GameKind, side: Side) -> &'static str {
    match (kind, side) {
        (GameKind::Ataxx, Side::Black) => "Red",
        (GameKind::Ataxx, Side::White) => "Blue",
        (_, Side::Black) => "Black",
        (_, Side::White) => "White",
    }
}

/// A request to play a move (from a click, the move box, or the CPU).
#[derive(Message, Clone, Copy, Debug)]
pub struct MoveRequest(pub AnyMove);

/// A move was played: the board animates it.
#[derive(Message, Clone, Debug)]
pub struct MovePlayed {
    pub mv: AnyMove,
    pub before: AnyPosition,
    pub side: Side,
}

#[derive(Message, Clone, Copy, Debug, Default)]
pub struct UndoRequest;

/// Go: this side resigns (the person's Resign button, or the CPU finding the game lost).
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
    Over(Outcome),
}

fn apply_move_requests(
    mut requests: MessageReader<MoveRequest>,
    mut game: ResMut<Match>,
    mut played: MessageWriter<MovePlayed>,
    mut events: MessageWriter<GameEvent>,
) {
    for &MoveRequest(mv) in requests.read() {
        if game.is_over() {
            continue;
        }
        let before = game.position().clone();
        let text = before.move_to_text(mv);
        let side = before.side_to_move();
        match game.history.play(mv) {
            Ok(()) => {
                game.selected = None;
                game.hint = None;
                game.dirty = true;
                let kind = game.kind();
                let ply = game.history.ply();
                info!("qi: move {ply} {} {text}", side_name(kind, side));
                game.status = if before.move_squares(mv).to.is_none() {
                    format!("{} has no move and passes", side_name(kind, side))
                } else {
                    format!("{} played {text}", side_name(kind, side))
                };
                let flipped = before
                    .changes(mv)
                    .iter()
                    .filter(|(_, a, b)| matches!((a, b), (qi_core::Cell::Piece(x), qi_core::Cell::Piece(y)) if x != y))
                    .count();
                events.write(if flipped > 0 {
                    GameEvent::Captured
                } else {
                    GameEvent::Placed
                });
                played.write(MovePlayed { mv, before, side });
                if let Some(go) = game
                    .position()
                    .as_go()
                    .filter(|g| g.outcome().is_some() && g.resigned().is_none())
                {
                    // Two passes: the players now check which stones are dead, starting from the
                    // estimate.
                    let dead = go.estimate_dead();
                    info!("qi: marking dead stones ({} estimated dead)", dead.len());
                    game.dead_marking = Some(dead);
                    game.status =
                        "Both passed: click groups to mark them dead or alive, then Confirm".into();
                } else if let Some(outcome) = game.position().outcome() {
                    let [b, w] = game.position().piece_counts();
                    info!("qi: game over {outcome:?} {b}-{w}");
                    game.status = describe_outcome(&game, outcome);
                    events.write(GameEvent::Over(outcome));
                }
            }
            Err(e) => {
                info!("qi: illegal move {text}: {e}");
                game.status = format!("Illegal move: {e}");
                events.write(GameEvent::Illegal);
            }
        }
    }
}

fn apply_resignations(
    mut requests: MessageReader<ResignRequest>,
    mut game: ResMut<Match>,
    mut events: MessageWriter<GameEvent>,
) {
    for &ResignRequest(side) in requests.read() {
        resign(&mut game, side, &mut events);
    }
}

/// Go: `side` resigns; the other side wins `B+R`/`W+R`.
pub fn resign(game: &mut Match, side: Side, events: &mut MessageWriter<GameEvent>) {
    if game.is_over() || game.replay.is_some() || !game.history.resign(side) {
        return;
    }
    let winner = side.other();
    let result = format!("{}+R", if winner == Side::Black { "B" } else { "W" });
    info!(
        "qi: {} resigns; game over {result}",
        side_name(game.kind(), side)
    );
    game.status = format!(
        "{} resigns: {}",
        side_name(game.kind(), side),
        result_sentence(&result)
    );
    game.final_result = Some(result);
    game.dead_marking = None;
    game.dirty = true;
    events.write(GameEvent::Over(Outcome::Win(winner)));
}

/// "Red wins 30-19" and the like.
pub fn describe_outcome(game: &Match, outcome: Outcome) -> String {
    let kind = game.kind();
    if let Some(result) = &game.final_result {
        return result_sentence(result);
    }
    let [b, w] = game.position().piece_counts();
    match outcome {
        Outcome::Win(side) => {
            let (a, c) = if side == Side::Black { (b, w) } else { (w, b) };
            format!("{} wins {a}-{c}", side_name(kind, side))
        }
        Outcome::Draw => format!("Draw {b}-{w}"),
    }
}

fn apply_undo_redo(
    mut undo: MessageReader<UndoRequest>,
    mut redo: MessageReader<RedoRequest>,
    mut game: ResMut<Match>,
    mut reset: MessageWriter<BoardReset>,
) {
    let mut changed = false;
    for _ in undo.read() {
        if undo_for_player(&mut game) {
            changed = true;
        }
    }
    for _ in redo.read() {
        if redo_for_player(&mut game) {
            changed = true;
        }
    }
    if changed {
        game.selected = None;
        game.hint = None;
        game.dead_marking = None;
        game.final_result = None;
        game.dirty = true;
        info!("qi: position now at ply {}", game.history.ply());
        reset.write(BoardReset);
    }
}

/// Whether [`undo_for_player`] has anything to take back: a move, or a resignation (which
/// may come before the first move).
pub fn can_undo_for_player(game: &Match) -> bool {
    game.history.can_undo() || resigned(game)
}

fn resigned(game: &Match) -> bool {
    game.position()
        .as_go()
        .is_some_and(|g| g.resigned().is_some())
}

/// Takes back one move; against the CPU, back to the human's last turn (so the human moves
/// next). Returns whether anything was undone.
pub fn undo_for_player(game: &mut Match) -> bool {
    if resigned(game) {
        game.history.clear_resignation();
        game.status = "Resignation taken back".into();
        return true;
    }
    if !game.history.can_undo() {
        game.status = "Nothing to undo".into();
        return false;
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
    game.status = format!("Undone: back to move {}", game.history.ply());
    true
}

/// Plays again what was undone: against the CPU, up to the human's next turn.
pub fn redo_for_player(game: &mut Match) -> bool {
    if !game.history.can_redo() {
        game.status = "Nothing to redo".into();
        return false;
    }
    game.history.redo();
    if game.vs_cpu() {
        while game.history.can_redo() && game.player_to_move() != Player::Human {
            game.history.redo();
        }
    }
    game.status = format!("Redone: move {}", game.history.ply());
    true
}

/// `B+3.5` as "Black wins by 3.5", `W+R` as "White wins by resignation".
pub fn result_sentence(result: &str) -> String {
    let (who, rest) = match result.split_once('+') {
        Some(("B", r)) => ("Black", r),
        Some(("W", r)) => ("White", r),
        _ => return result.to_string(),
    };
    if rest == "R" {
        format!("{who} wins by resignation")
    } else {
        format!("{who} wins by {rest} ({result})")
    }
}

/// Go: a click on a stone while marking toggles its whole group dead or alive.
pub fn toggle_dead_at(game: &mut Match, sq: qi_core::Square) -> bool {
    let Some(go) = game.position().as_go().cloned() else {
        return false;
    };
    let Some(dead) = game.dead_marking.as_mut() else {
        return false;
    };
    let changed = go.toggle_dead_group(dead, sq);
    if changed {
        if let Some(score) = game.marked_score() {
            game.status = format!("Score with the marked stones dead: {}", score.result_text());
        }
    }
    changed
}

/// Go: the players agree on the dead stones; the game ends with that score.
pub fn confirm_dead_stones(game: &mut Match) {
    if let Some(score) = game.marked_score() {
        let text = score.result_text();
        info!("qi: game over {text} (dead stones confirmed)");
        game.status = result_sentence(&text);
        game.final_result = Some(text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_sentences() {
        assert_eq!(result_sentence("B+3.5"), "Black wins by 3.5 (B+3.5)");
        assert_eq!(result_sentence("W+R"), "White wins by resignation");
        assert_eq!(result_sentence("Draw"), "Draw");
    }
}
