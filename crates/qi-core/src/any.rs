//! One type for "a position of any of the games", so that the app and the records can hold a
//! game without being generic: [`AnyPosition`] and [`AnyMove`] delegate to the [`Game`] impls.

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::ai::Cpu;
use crate::ataxx::{self, Ataxx};
use crate::game::{
    Cell, Game, GameKind, IllegalMove, MoveSquares, Outcome, ParseError, Side, Square,
};
use crate::go::{self, Go};
use crate::gomoku::{self, Gomoku};
use crate::reversi::{self, Reversi};
use crate::search::SearchInfo;

/// A position of one of the games.
#[derive(Clone, Debug, PartialEq)]
pub enum AnyPosition {
    Ataxx(Ataxx),
    Reversi(Reversi),
    Gomoku(Box<Gomoku>),
    Go(Box<Go>),
}

/// A move of one of the games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyMove {
    Ataxx(ataxx::Move),
    Reversi(reversi::Move),
    Gomoku(gomoku::Move),
    Go(go::Move),
}

/// Runs `$body` with `$p` bound to the concrete position.
macro_rules! with_pos {
    ($self:expr, $p:ident => $body:expr) => {
        match $self {
            AnyPosition::Ataxx($p) => $body,
            AnyPosition::Reversi($p) => $body,
            AnyPosition::Gomoku($p) => $body,
            AnyPosition::Go($p) => $body,
        }
    };
}

/// Runs `$body` with `$p` the concrete position and `$m` the move of the same game; a move of
/// another game gives `$mismatch`.
macro_rules! with_pos_move {
    ($self:expr, $mv:expr, $p:ident, $m:ident => $body:expr, $mismatch:expr) => {
        match ($self, $mv) {
            (AnyPosition::Ataxx($p), AnyMove::Ataxx($m)) => $body,
            (AnyPosition::Reversi($p), AnyMove::Reversi($m)) => $body,
            (AnyPosition::Gomoku($p), AnyMove::Gomoku($m)) => $body,
            (AnyPosition::Go($p), AnyMove::Go($m)) => $body,
            #[allow(unreachable_patterns)]
            _ => $mismatch,
        }
    };
}

impl AnyPosition {
    /// The standard start of a game.
    pub fn start(kind: GameKind) -> Result<AnyPosition, ParseError> {
        Ok(match kind {
            GameKind::Ataxx => AnyPosition::Ataxx(Ataxx::start()),
            GameKind::Reversi => AnyPosition::Reversi(Reversi::start()),
            GameKind::Gomoku => AnyPosition::Gomoku(Box::new(Gomoku::start())),
            GameKind::Go => AnyPosition::Go(Box::new(Go::start())),
        })
    }

    /// Reads a position of `kind` in that game's text form.
    pub fn from_text(kind: GameKind, text: &str) -> Result<AnyPosition, ParseError> {
        Ok(match kind {
            GameKind::Ataxx => AnyPosition::Ataxx(Ataxx::from_text(text)?),
            GameKind::Reversi => AnyPosition::Reversi(Reversi::from_text(text)?),
            GameKind::Gomoku => AnyPosition::Gomoku(Box::new(Gomoku::from_text(text)?)),
            GameKind::Go => AnyPosition::Go(Box::new(Go::from_text(text)?)),
        })
    }

    pub fn kind(&self) -> GameKind {
        match self {
            AnyPosition::Ataxx(_) => GameKind::Ataxx,
            AnyPosition::Reversi(_) => GameKind::Reversi,
            AnyPosition::Gomoku(_) => GameKind::Gomoku,
            AnyPosition::Go(_) => GameKind::Go,
        }
    }

    pub fn to_text(&self) -> String {
        with_pos!(self, p => p.to_text())
    }

    pub fn dimensions(&self) -> (u8, u8) {
        with_pos!(self, p => p.dimensions())
    }

    pub fn cell(&self, sq: Square) -> Cell {
        with_pos!(self, p => p.cell(sq))
    }

    pub fn side_to_move(&self) -> Side {
        with_pos!(self, p => p.side_to_move())
    }

    pub fn outcome(&self) -> Option<Outcome> {
        with_pos!(self, p => p.outcome())
    }

    pub fn piece_counts(&self) -> [u32; 2] {
        with_pos!(self, p => p.piece_counts())
    }

    pub fn hash(&self) -> u64 {
        with_pos!(self, p => p.hash())
    }

    pub fn legal_moves(&self) -> Vec<AnyMove> {
        match self {
            AnyPosition::Ataxx(p) => {
                let mut v = Vec::new();
                p.legal_moves(&mut v);
                v.into_iter().map(AnyMove::Ataxx).collect()
            }
            AnyPosition::Reversi(p) => {
                let mut v = Vec::new();
                p.legal_moves(&mut v);
                v.into_iter().map(AnyMove::Reversi).collect()
            }
            AnyPosition::Gomoku(p) => {
                let mut v = Vec::new();
                p.legal_moves(&mut v);
                v.into_iter().map(AnyMove::Gomoku).collect()
            }
            AnyPosition::Go(p) => {
                let mut v = Vec::new();
                p.legal_moves(&mut v);
                v.into_iter().map(AnyMove::Go).collect()
            }
        }
    }

    pub fn is_legal(&self, mv: AnyMove) -> bool {
        with_pos_move!(self, mv, p, m => p.is_legal(m), false)
    }

    /// Plays a move after checking it.
    pub fn play(&mut self, mv: AnyMove) -> Result<(), IllegalMove> {
        with_pos_move!(self, mv, p, m => p.play(m), Err(IllegalMove("a move of another game".into())))
    }

    pub fn parse_move(&self, text: &str) -> Result<AnyMove, ParseError> {
        Ok(match self {
            AnyPosition::Ataxx(p) => AnyMove::Ataxx(p.parse_move(text)?),
            AnyPosition::Reversi(p) => AnyMove::Reversi(p.parse_move(text)?),
            AnyPosition::Gomoku(p) => AnyMove::Gomoku(p.parse_move(text)?),
            AnyPosition::Go(p) => AnyMove::Go(p.parse_move(text)?),
        })
    }

    pub fn move_to_text(&self, mv: AnyMove) -> String {
        with_pos_move!(self, mv, p, m => p.move_to_text(m), format!("{mv:?}"))
    }

    pub fn move_squares(&self, mv: AnyMove) -> MoveSquares {
        with_pos_move!(self, mv, p, m => p.move_squares(m), MoveSquares::default())
    }

    /// The pass, when it is the only legal move or otherwise legal.
    pub fn legal_pass(&self) -> Option<AnyMove> {
        match self {
            AnyPosition::Ataxx(p) => p.pass_move().filter(|m| p.is_legal(*m)).map(AnyMove::Ataxx),
            AnyPosition::Reversi(p) => p
                .pass_move()
                .filter(|m| p.is_legal(*m))
                .map(AnyMove::Reversi),
            AnyPosition::Gomoku(p) => p
                .pass_move()
                .filter(|m| p.is_legal(*m))
                .map(AnyMove::Gomoku),
            AnyPosition::Go(p) => p.pass_move().filter(|m| p.is_legal(*m)).map(AnyMove::Go),
        }
    }

    /// The Go position, for Go-only features (scoring, dead stones).
    pub fn as_go(&self) -> Option<&Go> {
        match self {
            AnyPosition::Go(p) => Some(p),
            _ => None,
        }
    }

    /// Go: stones captured by each side, `[black, white]`.
    pub fn captures(&self) -> Option<[u32; 2]> {
        match self {
            AnyPosition::Go(p) => Some(p.captures()),
            _ => None,
        }
    }

    /// Go: the area score now (every stone counted alive), e.g. `B+3.5`.
    pub fn area_result(&self) -> Option<String> {
        match self {
            AnyPosition::Go(p) => Some(p.area_score().result_text()),
            _ => None,
        }
    }

    /// Gomoku: the winning row, for the app to light up.
    pub fn winning_line(&self) -> Option<Vec<Square>> {
        match self {
            AnyPosition::Gomoku(p) => p.winning_line(),
            _ => None,
        }
    }

    /// Gomoku under renju with Black to move: the points Black may not play.
    pub fn forbidden_points(&self) -> Vec<Square> {
        match self {
            AnyPosition::Gomoku(p) if p.side_to_move() == Side::Black && p.outcome().is_none() => {
                p.forbidden_points().into_iter().map(|(sq, _)| sq).collect()
            }
            _ => Vec::new(),
        }
    }

    /// The squares whose piece changes side, appears or disappears when `mv` is played, with
    /// what stands there afterwards: for the app's animations. Works for every game by comparing
    /// the boards before and after.
    pub fn changes(&self, mv: AnyMove) -> Vec<(Square, Cell, Cell)> {
        let mut after = self.clone();
        if after.play(mv).is_err() {
            return Vec::new();
        }
        let (w, h) = self.dimensions();
        let mut out = Vec::new();
        for y in 0..h {
            for x in 0..w {
                let sq = Square::new(x, y);
                let (a, b) = (self.cell(sq), after.cell(sq));
                if a != b {
                    out.push((sq, a, b));
                }
            }
        }
        out
    }
}

/// A CPU player for any game that has one, keeping its search tables between moves.
pub enum AnyCpu {
    Ataxx(Cpu<Ataxx>),
    Reversi(Cpu<Reversi>),
    Gomoku(Cpu<Gomoku>),
    Go(Box<crate::ai::go::GoCpu>),
}

impl AnyCpu {
    /// Whether there is a CPU player for `kind`.
    pub fn available(kind: GameKind) -> bool {
        matches!(
            kind,
            GameKind::Ataxx | GameKind::Reversi | GameKind::Gomoku | GameKind::Go
        )
    }

    /// The CPU for `kind` at `level` (1-6), with a 32 MB table.
    pub fn new(kind: GameKind, level: u8) -> Result<AnyCpu, ParseError> {
        Ok(match kind {
            GameKind::Ataxx => AnyCpu::Ataxx(Cpu::new(level, 32)),
            GameKind::Reversi => AnyCpu::Reversi(Cpu::new(level, 32)),
            GameKind::Gomoku => AnyCpu::Gomoku(Cpu::new(level, 32)),
            GameKind::Go => AnyCpu::Go(Box::new(crate::ai::go::GoCpu::new(level))),
        })
    }

    /// The CPU for `kind` at `level` searching with up to two threads when the machine has
    /// two cores (the Go CPU shares one tree between them; the other games search on one).
    pub fn with_cores(kind: GameKind, level: u8) -> Result<AnyCpu, ParseError> {
        let mut cpu = AnyCpu::new(kind, level)?;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        cpu.set_threads(cores.min(2));
        Ok(cpu)
    }

    /// The size of the random term `level` adds to its evaluation so that its play varies
    /// ([`crate::search::Evaluator::noise`], 100 = one piece or stone): 0 at full strength
    /// and for Go, whose levels differ by playouts. Gomoku's levels 1-3 add far more than a
    /// stone, so their search scores say nothing of the position.
    pub fn level_noise(kind: GameKind, level: u8) -> i32 {
        use crate::ai::Ai;
        use crate::search::Evaluator;
        match kind {
            GameKind::Ataxx => Ataxx::eval_for_level(level, 0).noise(),
            GameKind::Reversi => Reversi::eval_for_level(level, 0).noise(),
            GameKind::Gomoku => Gomoku::eval_for_level(level, 0).noise(),
            GameKind::Go => 0,
        }
    }

    /// The scale of `level`'s search scores as a logit, for the levels whose evaluation is
    /// fitted to game results: the searching side's winning chance is then
    /// `1 / (1 + e^(-score / scale))`. Gomoku's level 6 (and with it hints and analysis) scores
    /// by the learned pattern evaluation, 400 units a logit; its levels 1-5 score rows of
    /// stones, and the other games pieces, stones or (Go) a win rate of their own.
    pub fn level_logit_scale(kind: GameKind, level: u8) -> Option<f32> {
        use crate::ai::Ai;
        match kind {
            GameKind::Gomoku => Gomoku::eval_for_level(level, 0).logit_scale(),
            GameKind::Ataxx | GameKind::Reversi | GameKind::Go => None,
        }
    }

    /// The threads a search may use (the Go CPU only; the others search on one).
    pub fn set_threads(&mut self, n: usize) {
        if let AnyCpu::Go(c) = self {
            c.set_threads(n);
        }
    }

    /// Chooses a move for `pos` within `movetime`; `None` when the game is over, the stop flag
    /// was raised before any move was found, or `pos` is of another game.
    pub fn choose(
        &mut self,
        pos: &AnyPosition,
        movetime: Duration,
        stop: &Arc<AtomicBool>,
        seed: u64,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Option<AnyMove> {
        match (self, pos) {
            (AnyCpu::Ataxx(c), AnyPosition::Ataxx(p)) => c
                .choose(p, movetime, stop, seed, on_info)
                .best
                .map(AnyMove::Ataxx),
            (AnyCpu::Reversi(c), AnyPosition::Reversi(p)) => c
                .choose(p, movetime, stop, seed, on_info)
                .best
                .map(AnyMove::Reversi),
            (AnyCpu::Go(c), AnyPosition::Go(p)) => c
                .choose(p, movetime, stop, seed, on_info)
                .best
                .map(AnyMove::Go),
            (AnyCpu::Gomoku(c), AnyPosition::Gomoku(p)) => c
                .choose(p, movetime, stop, seed, on_info)
                .best
                .map(AnyMove::Gomoku),
            _ => None,
        }
    }

    /// Whether the last [`AnyCpu::choose`] found the game hopeless and the CPU resigns instead
    /// of playing its move (only the Go CPU resigns, as Go players do).
    pub fn resigns(&self) -> bool {
        match self {
            AnyCpu::Go(c) => c.resigns(),
            _ => false,
        }
    }
}

/// How often [`GameHistory`] (and GTP's undo list) keeps a whole position: every this many
/// plies. Any other position is rebuilt from the one kept before it by at most this many
/// moves, so memory grows with the game's length, not with its square (a Go position carries
/// its whole superko history: 20,000 positions of a 20,000-move game took 2.2 GB).
pub const CHECKPOINT_EVERY: usize = 64;

/// A game as it is played: the start position, the moves, and a cursor for undo and redo.
///
/// It keeps the moves (and their text), the position at the cursor and the one before it, and
/// a position every [`CHECKPOINT_EVERY`] plies; undo, redo, jumps and [`GameHistory::position_at`]
/// rebuild what they need from those.
#[derive(Clone, Debug)]
pub struct GameHistory {
    start: AnyPosition,
    moves: Vec<AnyMove>,
    /// `moves[i]` as text, in the position it was played in.
    texts: Vec<String>,
    /// How many of `moves` are played (the rest can be redone).
    cursor: usize,
    /// The position after `cursor` moves, and the one before it.
    current: AnyPosition,
    previous: Option<AnyPosition>,
    /// `checkpoints[k]` is the position after `(k + 1) * CHECKPOINT_EVERY` moves.
    checkpoints: Vec<AnyPosition>,
    /// Go: the side that resigned in the position at the end of the line.
    resigned: Option<Side>,
}

impl PartialEq for GameHistory {
    /// The same game: start, moves, cursor and resignation (the positions follow from them).
    fn eq(&self, o: &GameHistory) -> bool {
        self.start == o.start
            && self.moves == o.moves
            && self.cursor == o.cursor
            && self.resigned == o.resigned
    }
}

impl GameHistory {
    pub fn new(start: AnyPosition) -> GameHistory {
        GameHistory {
            current: start.clone(),
            start,
            moves: Vec::new(),
            texts: Vec::new(),
            cursor: 0,
            previous: None,
            checkpoints: Vec::new(),
            resigned: None,
        }
    }

    pub fn start(&self) -> &AnyPosition {
        &self.start
    }

    /// The position now.
    pub fn current(&self) -> &AnyPosition {
        &self.current
    }

    /// The moves played so far (not the undone ones).
    pub fn moves(&self) -> &[AnyMove] {
        &self.moves[..self.cursor]
    }

    pub fn ply(&self) -> usize {
        self.cursor
    }

    pub fn last_move(&self) -> Option<AnyMove> {
        self.cursor.checked_sub(1).map(|i| self.moves[i])
    }

    /// The position before the last move, if any.
    pub fn previous(&self) -> Option<&AnyPosition> {
        self.previous.as_ref()
    }

    /// Plays a move; the moves that could be redone are dropped.
    pub fn play(&mut self, mv: AnyMove) -> Result<(), IllegalMove> {
        let mut next = self.current.clone();
        next.play(mv)?;
        let text = self.current.move_to_text(mv);
        self.truncate();
        self.resigned = None;
        self.moves.push(mv);
        self.texts.push(text);
        self.cursor += 1;
        self.previous = Some(std::mem::replace(&mut self.current, next));
        if self.cursor.is_multiple_of(CHECKPOINT_EVERY) {
            self.checkpoints.push(self.current.clone());
        }
        Ok(())
    }

    pub fn can_undo(&self) -> bool {
        self.cursor > 0
    }

    pub fn can_redo(&self) -> bool {
        self.cursor < self.moves.len()
    }

    /// Takes back one move; returns it.
    pub fn undo(&mut self) -> Option<AnyMove> {
        if self.cursor == 0 {
            return None;
        }
        self.cursor -= 1;
        self.current = self
            .previous
            .take()
            .unwrap_or_else(|| self.rebuild(self.cursor));
        self.previous = self.cursor.checked_sub(1).map(|p| self.rebuild(p));
        Some(self.moves[self.cursor])
    }

    /// Plays again the move undone last; returns it.
    pub fn redo(&mut self) -> Option<AnyMove> {
        if !self.can_redo() {
            return None;
        }
        let mv = self.moves[self.cursor];
        let next = self.step(&self.current, self.cursor);
        self.cursor += 1;
        self.previous = Some(std::mem::replace(&mut self.current, next));
        Some(mv)
    }

    /// Every move of the line, the undone ones (that [`GameHistory::redo`] would play) included.
    pub fn all_moves(&self) -> &[AnyMove] {
        &self.moves
    }

    /// [`GameHistory::all_moves`] as text.
    pub fn all_move_texts(&self) -> Vec<String> {
        self.texts.clone()
    }

    /// Moves the cursor to `ply` (clamped to the line's length): the replay screen's "jump to
    /// move". Nothing is dropped, so a later [`GameHistory::redo`] or jump goes forward again.
    pub fn go_to(&mut self, ply: usize) {
        let ply = ply.min(self.moves.len());
        if ply == self.cursor {
            return;
        }
        if ply == self.cursor + 1 {
            self.redo();
            return;
        }
        if ply + 1 == self.cursor {
            self.undo();
            return;
        }
        match ply.checked_sub(1) {
            None => {
                self.previous = None;
                self.current = self.rebuild(0);
            }
            Some(p) => {
                let before = self.rebuild(p);
                self.current = self.step(&before, p);
                self.previous = Some(before);
            }
        }
        self.cursor = ply;
    }

    /// Go: `side` resigns in the position now (the moves after it are dropped). Returns false
    /// for the other games, which have no resignation in their rules here.
    pub fn resign(&mut self, side: Side) -> bool {
        self.truncate();
        match &mut self.current {
            AnyPosition::Go(g) => {
                g.resign(side);
                self.resigned = Some(side);
                true
            }
            _ => false,
        }
    }

    /// Takes back a resignation in the position now (undo after a resignation).
    pub fn clear_resignation(&mut self) {
        if let AnyPosition::Go(g) = &mut self.current {
            g.clear_resignation();
            if self.cursor == self.moves.len() {
                self.resigned = None;
            }
        }
    }

    /// Drops the moves after the cursor (that [`GameHistory::redo`] would play): the replay's
    /// "play from here".
    pub fn truncate(&mut self) {
        if self.cursor < self.moves.len() {
            // the end of the line changes: a resignation there goes with it
            self.resigned = None;
        }
        self.moves.truncate(self.cursor);
        self.texts.truncate(self.cursor);
        self.checkpoints.truncate(self.cursor / CHECKPOINT_EVERY);
    }

    /// The position after `ply` moves of the line (clamped to its length): borrowed for the
    /// start, the position now and the one before it, rebuilt (from the nearest position kept)
    /// for the others.
    pub fn position_at(&self, ply: usize) -> Cow<'_, AnyPosition> {
        let ply = ply.min(self.moves.len());
        if ply == self.cursor {
            Cow::Borrowed(&self.current)
        } else if ply + 1 == self.cursor
            && let Some(p) = &self.previous
        {
            Cow::Borrowed(p)
        } else if ply == 0 {
            Cow::Borrowed(&self.start)
        } else {
            Cow::Owned(self.rebuild(ply))
        }
    }

    /// The moves played so far, as text.
    pub fn move_texts(&self) -> Vec<String> {
        self.texts[..self.cursor].to_vec()
    }

    /// `pos` (the position after `ply` moves) with the line's next move played, and the end's
    /// resignation when that is where it arrives.
    fn step(&self, pos: &AnyPosition, ply: usize) -> AnyPosition {
        let mut next = pos.clone();
        // every move of the line was legal where it was played
        let played = next.play(self.moves[ply]);
        debug_assert!(played.is_ok(), "move {} of the line", ply + 1);
        self.mark_end(&mut next, ply + 1);
        next
    }

    /// The position after `ply` moves, replayed from the last position kept at or before it.
    fn rebuild(&self, ply: usize) -> AnyPosition {
        let k = (ply / CHECKPOINT_EVERY).min(self.checkpoints.len());
        let (mut pos, from) = match k.checked_sub(1) {
            Some(i) => (self.checkpoints[i].clone(), k * CHECKPOINT_EVERY),
            None => (self.start.clone(), 0),
        };
        for &mv in &self.moves[from..ply] {
            let played = pos.play(mv);
            debug_assert!(played.is_ok());
        }
        self.mark_end(&mut pos, ply);
        pos
    }

    /// Puts the resignation back on the position at the end of the line.
    fn mark_end(&self, pos: &mut AnyPosition, ply: usize) {
        if ply == self.moves.len()
            && let (Some(side), AnyPosition::Go(g)) = (self.resigned, pos)
        {
            g.resign(side);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The eval bar reads a winning chance from Gomoku's level 6 alone.
    #[test]
    fn only_gomokus_learned_evaluation_scores_in_logits() {
        let scale = AnyCpu::level_logit_scale(GameKind::Gomoku, 6).expect("level 6");
        assert_eq!(scale, crate::ai::gomoku::patterns::SCALE as f32);
        for level in 1..=5 {
            assert_eq!(AnyCpu::level_logit_scale(GameKind::Gomoku, level), None);
        }
        for kind in [GameKind::Ataxx, GameKind::Reversi, GameKind::Go] {
            assert_eq!(AnyCpu::level_logit_scale(kind, 6), None, "{kind:?}");
        }
    }

    /// The levels' noise as the app reads it: the tables' values, none at full strength.
    #[test]
    fn level_noise_is_the_levels_own() {
        for kind in [
            GameKind::Ataxx,
            GameKind::Reversi,
            GameKind::Gomoku,
            GameKind::Go,
        ] {
            assert_eq!(AnyCpu::level_noise(kind, 6), 0, "{kind:?}");
        }
        // below a piece in Ataxx and Reversi: it only breaks ties
        assert_eq!(AnyCpu::level_noise(GameKind::Ataxx, 2), 10);
        assert_eq!(AnyCpu::level_noise(GameKind::Reversi, 2), 5);
        // Gomoku's weak levels play partly at random
        assert_eq!(AnyCpu::level_noise(GameKind::Gomoku, 2), 10_000);
        assert_eq!(AnyCpu::level_noise(GameKind::Gomoku, 3), 600);
        assert_eq!(AnyCpu::level_noise(GameKind::Gomoku, 4), 50);
    }

    #[test]
    fn history_undo_redo() {
        let mut h = GameHistory::new(AnyPosition::start(GameKind::Reversi).unwrap());
        let d3 = h.current().parse_move("d3").unwrap();
        h.play(d3).unwrap();
        let c3 = h.current().parse_move("c3").unwrap();
        h.play(c3).unwrap();
        assert_eq!(h.move_texts(), vec!["d3", "c3"]);
        let after = h.current().clone();
        assert_eq!(h.undo(), Some(c3));
        assert_eq!(h.undo(), Some(d3));
        assert_eq!(h.undo(), None);
        assert_eq!(h.current(), &AnyPosition::start(GameKind::Reversi).unwrap());
        assert_eq!(h.redo(), Some(d3));
        assert_eq!(h.redo(), Some(c3));
        assert_eq!(h.current(), &after);
        h.undo();
        let e3 = h.current().parse_move("e3").unwrap();
        h.play(e3).unwrap();
        assert!(!h.can_redo(), "a new move drops the redo list");
        assert_eq!(h.move_texts(), vec!["d3", "e3"]);
        let bad = h.current().parse_move("a1").unwrap();
        assert!(h.play(bad).is_err());
        assert_eq!(h.ply(), 2);
    }

    /// Positions where every game's level 6 searches for seconds (not the first move, which
    /// some levels answer from rules alone).
    fn busy(kind: GameKind) -> AnyPosition {
        match kind {
            // a quiet opening: with a three on the board (an earlier choice) the faster search
            // found the forced line before the stop
            GameKind::Gomoku => {
                let mut p = AnyPosition::start(kind).unwrap();
                for t in ["h8", "i9", "i7", "g9"] {
                    let m = p.parse_move(t).unwrap();
                    p.play(m).unwrap();
                }
                p
            }
            GameKind::Go => AnyPosition::from_text(
                kind,
                "9 7 b ........./........./..X...O../........./....X..../........./..O...X../........./.........",
            )
            .unwrap(),
            _ => AnyPosition::start(kind).unwrap(),
        }
    }

    /// Runs a level-6 search of `pos` with a minute to think on another thread, raises the stop
    /// flag 40 ms in, and returns the move and how long the search took to return after the
    /// flag went up. The search must still have been running then. (150 ms until session 18:
    /// Gomoku's level 6, bound by its node budget, then often finished the busy position in
    /// 100-150 ms.)
    fn stopped_mid_search(kind: GameKind, pos: &AnyPosition) -> (Option<AnyMove>, Duration) {
        let stop = Arc::new(AtomicBool::new(false));
        std::thread::scope(|s| {
            let flag = stop.clone();
            let search = s.spawn(move || {
                let mut cpu = AnyCpu::new(kind, 6).unwrap();
                let mv = cpu.choose(pos, Duration::from_secs(60), &flag, 1, &mut |_| {});
                (mv, std::time::Instant::now())
            });
            std::thread::sleep(Duration::from_millis(40));
            assert!(
                !search.is_finished(),
                "{kind}: the search ended before the stop"
            );
            let raised = std::time::Instant::now();
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            let (mv, ended) = search.join().unwrap();
            (mv, ended.saturating_duration_since(raised))
        })
    }

    /// Every game's CPU returns a legal move, and stops within 50 ms of the stop flag raised by
    /// another thread in the middle of a search that would run for seconds (one try in three
    /// must, for a busy machine).
    #[test]
    fn any_cpu_returns_a_legal_move_and_honours_stop() {
        for kind in GameKind::ALL {
            let pos = busy(kind);
            let mut times = Vec::new();
            for _ in 0..3 {
                let (mv, took) = stopped_mid_search(kind, &pos);
                let mv = mv.unwrap_or_else(|| panic!("{kind}: no move"));
                assert!(pos.is_legal(mv), "{kind}");
                times.push(took);
                if took <= Duration::from_millis(50) {
                    break;
                }
            }
            eprintln!("{kind}: stopped {times:?} after the flag");
            assert!(
                times.iter().any(|&t| t <= Duration::from_millis(50)),
                "{kind}: stopped after {times:?}"
            );
        }
        for kind in GameKind::ALL {
            assert_eq!(
                AnyCpu::available(kind),
                AnyCpu::new(kind, 1).is_ok(),
                "{kind}"
            );
        }
        let gomoku = AnyPosition::start(GameKind::Gomoku).unwrap();
        let mut cpu = AnyCpu::new(GameKind::Reversi, 3).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        assert_eq!(
            cpu.choose(&gomoku, Duration::from_millis(10), &stop, 1, &mut |_| {}),
            None,
            "a move of another game is never returned"
        );
    }

    #[test]
    fn any_cpu_uses_up_to_two_cores() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut cpu = AnyCpu::with_cores(GameKind::Go, 2).unwrap();
        match &cpu {
            AnyCpu::Go(c) => assert_eq!(c.threads(), cores.min(2)),
            _ => unreachable!(),
        }
        let pos = AnyPosition::start(GameKind::Go).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let mv = cpu
            .choose(&pos, Duration::from_secs(30), &stop, 1, &mut |_| {})
            .unwrap();
        assert!(pos.is_legal(mv));
        cpu.set_threads(1);
        match &cpu {
            AnyCpu::Go(c) => assert_eq!(c.threads(), 1),
            _ => unreachable!(),
        }
    }

    /// The history as it was before it kept checkpoints: a whole position per ply. The test
    /// below holds the real one to it.
    struct Model {
        positions: Vec<AnyPosition>,
        moves: Vec<AnyMove>,
        cursor: usize,
    }

    impl Model {
        fn play(&mut self, mv: AnyMove) -> bool {
            let mut next = self.positions[self.cursor].clone();
            if next.play(mv).is_err() {
                return false;
            }
            self.moves.truncate(self.cursor);
            self.positions.truncate(self.cursor + 1);
            self.moves.push(mv);
            self.positions.push(next);
            self.cursor += 1;
            true
        }

        fn truncate(&mut self) {
            self.moves.truncate(self.cursor);
            self.positions.truncate(self.cursor + 1);
        }
    }

    /// Random sequences of plays, undos, redos, jumps, truncations and (Go) resignations on
    /// lines several checkpoints long: the history that keeps a position every
    /// `CHECKPOINT_EVERY` plies answers exactly as one that keeps them all.
    #[test]
    fn history_with_checkpoints_equals_one_with_every_position() {
        for (kind, start) in [
            (
                GameKind::Reversi,
                AnyPosition::start(GameKind::Reversi).unwrap(),
            ),
            (
                GameKind::Go,
                AnyPosition::from_text(
                    GameKind::Go,
                    &format!("7 0.5 b {}", ["......."; 7].join("/")),
                )
                .unwrap(),
            ),
            (
                GameKind::Ataxx,
                AnyPosition::start(GameKind::Ataxx).unwrap(),
            ),
        ] {
            let mut rng = crate::search::Rng::new(kind as u64 + 5);
            let mut h = GameHistory::new(start.clone());
            let mut m = Model {
                positions: vec![start.clone()],
                moves: Vec::new(),
                cursor: 0,
            };
            let mut longest = 0;
            for step in 0..3000 {
                let op = rng.below(100);
                let what = if op < 75 {
                    let pos = m.positions[m.cursor].clone();
                    let mut legal = pos.legal_moves();
                    // passes mostly left out, so that Go games go on
                    let pass = pos.legal_pass();
                    if legal.len() > 1 && rng.below(20) != 0 {
                        legal.retain(|&mv| Some(mv) != pass);
                    }
                    if legal.is_empty() {
                        "nothing".to_string()
                    } else {
                        let mv = legal[rng.below(legal.len() as u64) as usize];
                        assert_eq!(h.play(mv).is_ok(), m.play(mv), "{kind} step {step}");
                        format!("play {}", pos.move_to_text(mv))
                    }
                } else if op < 85 {
                    let want = (m.cursor > 0).then(|| {
                        m.cursor -= 1;
                        m.moves[m.cursor]
                    });
                    assert_eq!(h.undo(), want, "{kind} step {step}");
                    "undo".into()
                } else if op < 93 {
                    let want = (m.cursor < m.moves.len()).then(|| {
                        m.cursor += 1;
                        m.moves[m.cursor - 1]
                    });
                    assert_eq!(h.redo(), want, "{kind} step {step}");
                    "redo".into()
                } else if op < 96 {
                    let ply = rng.below(m.moves.len() as u64 + 3) as usize;
                    h.go_to(ply);
                    m.cursor = ply.min(m.moves.len());
                    format!("go_to {ply}")
                } else if op < 97 {
                    h.truncate();
                    m.truncate();
                    "truncate".into()
                } else if kind == GameKind::Go && rng.below(3) == 0 {
                    if let AnyPosition::Go(g) = &mut m.positions[m.cursor] {
                        g.clear_resignation();
                    }
                    h.clear_resignation();
                    "clear_resignation".into()
                } else if kind == GameKind::Go {
                    let side = if rng.below(2) == 0 {
                        Side::Black
                    } else {
                        Side::White
                    };
                    m.truncate();
                    if let AnyPosition::Go(g) = &mut m.positions[m.cursor] {
                        g.resign(side);
                    }
                    assert!(h.resign(side));
                    format!("resign {side:?}")
                } else {
                    "nothing".into()
                };
                longest = longest.max(m.moves.len());
                let at = format!("{kind} step {step} ({what})");
                assert_eq!(h.ply(), m.cursor, "{at}");
                assert_eq!(h.current(), &m.positions[m.cursor], "{at}");
                assert_eq!(
                    h.previous(),
                    m.cursor.checked_sub(1).map(|p| &m.positions[p]),
                    "{at}"
                );
                assert_eq!(h.moves(), &m.moves[..m.cursor], "{at}");
                assert_eq!(h.all_moves(), &m.moves[..], "{at}");
                assert_eq!(
                    h.last_move(),
                    m.cursor.checked_sub(1).map(|p| m.moves[p]),
                    "{at}"
                );
                assert_eq!(h.can_undo(), m.cursor > 0, "{at}");
                assert_eq!(h.can_redo(), m.cursor < m.moves.len(), "{at}");
                let texts: Vec<String> = (0..m.moves.len())
                    .map(|i| m.positions[i].move_to_text(m.moves[i]))
                    .collect();
                assert_eq!(h.all_move_texts(), texts, "{at}");
                assert_eq!(h.move_texts(), texts[..m.cursor], "{at}");
                let ply = rng.below(m.moves.len() as u64 + 2) as usize;
                assert_eq!(
                    *h.position_at(ply),
                    m.positions[ply.min(m.moves.len())],
                    "{at}: position_at({ply})"
                );
            }
            // the lines crossed checkpoints (a Reversi game ends before the first)
            let want = if kind == GameKind::Reversi {
                40
            } else {
                CHECKPOINT_EVERY + 16
            };
            assert!(longest > want, "{kind}: lines of {longest} moves at most");
        }
    }

    #[test]
    fn changes_list_flips_and_placements() {
        let p = AnyPosition::start(GameKind::Reversi).unwrap();
        let mv = p.parse_move("d3").unwrap();
        let ch = p.changes(mv);
        assert_eq!(ch.len(), 2); // d3 placed, d4 flipped
        let a = AnyPosition::start(GameKind::Ataxx).unwrap();
        let jump = a.parse_move("g1e3").unwrap();
        assert_eq!(a.changes(jump).len(), 2); // g1 emptied, e3 filled
    }
}
