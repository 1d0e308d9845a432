//! The CPU players: per-game evaluations, difficulty levels 1-6 and the entry points the app
//! calls.
//!
//! Levels (both games): 1 = greedy (most pieces gained now; Ataxx prefers a clone on a tie),
//! 2 = a shallow alpha-beta on piece count (Ataxx, 2 plies) or the square-weight matrix
//! (Reversi, 3 plies), then deeper searches with the full evaluation; 6 = full strength. Weaker
//! levels add evaluation noise below one piece (tie-breaking only), never a random move. Ataxx
//! levels 2-5 are depth caps (2, 3, 4, 5) with no clock and level 6 searches at least 7 plies,
//! deeper while the move time allows (see [`ataxx`]). Reversi levels 3-6 solve the endgame
//! exactly from 8/12/16/24 empties.
//!
//! Measured with `qi-engine match` on a loaded 2-core machine (20 games a pairing, colours
//! alternating, random opening plies: 4 for Ataxx, 6 for Reversi), A's score against B:
//!
//! | pairing | Ataxx (depth caps) | Reversi (100 ms/move) |
//! |---|---|---|
//! | 2 vs 1 | 95% (19-1) | |
//! | 3 vs 2 | 100% (40-0, 40 games) | 95% (19-1) |
//! | 4 vs 3 | 90% (36-4, 40 games) | 90% (18-2) |
//! | 5 vs 4 | 90% (18-2) | 80% (16-4) |
//! | 6 vs 5 | 85% (17-3: at least depth 7 vs 5) | 85% (17-3) |
//!
//! Four random opening plies sometimes leave an Ataxx position that one side wipes out at once;
//! each opening is played with both colours, so such a pair scores 1-1.
//!
//! ```no_run
//! use std::sync::{Arc, atomic::AtomicBool};
//! use std::time::Duration;
//! use qi_core::{Game, ataxx::Ataxx, ai::Cpu};
//!
//! let stop = Arc::new(AtomicBool::new(false));
//! let mut cpu = Cpu::<Ataxx>::new(6, 64);
//! let r = cpu.choose(&Ataxx::start(), Duration::from_millis(500), &stop, 1, &mut |_info| {});
//! println!("{:?} {}", r.best, r.score);
//! ```

pub mod ataxx;
pub mod go;
pub mod gomoku;
pub mod reversi;
// The Reversi AI lives in its own folder like Go's and Gomoku's; its solver and pattern
// evaluation keep their paths.
pub use reversi::{endgame, patterns};

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::game::Game;
use crate::search::{Evaluator, Limits, SearchInfo, SearchResult, Searcher};

/// The levels the app offers: 1 (beginner) to 6 (full strength at the chosen time).
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=6;

/// A game the CPU can play.
pub trait Ai: Game {
    type Eval: Evaluator<G = Self>;

    /// The evaluation a level uses; `seed` picks its noise.
    fn eval_for_level(level: u8, seed: u64) -> Self::Eval;

    /// What a level may spend on a move when the player allows `movetime`.
    fn limits_for_level(level: u8, movetime: Duration) -> Limits;

    /// Level 1's greedy choice: the move that gains most pieces now (ties broken by `seed`).
    fn greedy_move(&self, seed: u64) -> Option<Self::Move>;

    /// Chooses a move at `level` (2 and up) with `searcher`, whose evaluation has been set for
    /// that level. Games override this to add an endgame solver.
    fn search_at_level(
        searcher: &mut Searcher<Self::Eval>,
        pos: &Self,
        level: u8,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult<Self::Move> {
        let _ = level;
        searcher.search(pos, limits, stop, on_info)
    }
}

/// A CPU player at one level, keeping its search tables between moves. `Send`: run
/// [`Cpu::choose`] on a worker thread and raise the stop flag to cancel it.
pub struct Cpu<G: Ai> {
    level: u8,
    searcher: Searcher<G::Eval>,
}

impl<G: Ai> Cpu<G> {
    /// A player at `level` (clamped to 1..=6) with a `hash_mb` megabyte transposition table.
    pub fn new(level: u8, hash_mb: usize) -> Cpu<G> {
        let level = level.clamp(*LEVELS.start(), *LEVELS.end());
        Cpu {
            level,
            searcher: Searcher::new(G::eval_for_level(level, 0), hash_mb),
        }
    }

    pub fn level(&self) -> u8 {
        self.level
    }

    pub fn set_level(&mut self, level: u8) {
        self.level = level.clamp(*LEVELS.start(), *LEVELS.end());
    }

    /// Forgets the previous game.
    pub fn new_game(&mut self) {
        self.searcher.clear();
    }

    /// Chooses a move for `pos` within `movetime` (less at low levels). `seed` varies the
    /// weaker levels' play; `on_info` hears about each finished iteration. Returns `best: None`
    /// only when the game is over.
    pub fn choose(
        &mut self,
        pos: &G,
        movetime: Duration,
        stop: &Arc<AtomicBool>,
        seed: u64,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult<G::Move> {
        if self.level == 1 {
            let best = pos.greedy_move(seed);
            let info = SearchInfo {
                depth: 1,
                pv: best.iter().map(|&m| pos.move_to_text(m)).collect(),
                ..SearchInfo::default()
            };
            on_info(&info);
            return SearchResult {
                best,
                score: 0,
                info,
            };
        }
        self.choose_tuned(pos, movetime, stop, seed, &mut |_| {}, on_info)
    }

    /// [`Cpu::choose`] with the level's evaluation changed by `tune` first (for matches that
    /// try evaluation changes).
    pub fn choose_tuned(
        &mut self,
        pos: &G,
        movetime: Duration,
        stop: &Arc<AtomicBool>,
        seed: u64,
        tune: &mut dyn FnMut(&mut G::Eval),
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult<G::Move> {
        if self.level == 1 {
            return self.choose(pos, movetime, stop, seed, on_info);
        }
        let mut eval = G::eval_for_level(self.level, seed);
        tune(&mut eval);
        self.searcher.eval = eval;
        let limits = G::limits_for_level(self.level, movetime);
        G::search_at_level(&mut self.searcher, pos, self.level, &limits, stop, on_info)
    }
}

/// One move at `level` for `pos` with a fresh 16 MB table: the simplest call for the app.
pub fn best_move_at_level<G: Ai>(
    pos: &G,
    level: u8,
    movetime: Duration,
    stop: &Arc<AtomicBool>,
    seed: u64,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult<G::Move> {
    Cpu::<G>::new(level, 16).choose(pos, movetime, stop, seed, on_info)
}

/// Picks uniformly among the moves with the top `key`, by `seed`.
pub(crate) fn pick_best<M: Copy>(
    moves: &[M],
    mut key: impl FnMut(M) -> i32,
    seed: u64,
) -> Option<M> {
    let mut best: Vec<M> = Vec::new();
    let mut top = i32::MIN;
    for &m in moves {
        let k = key(m);
        if k > top {
            top = k;
            best.clear();
        }
        if k == top {
            best.push(m);
        }
    }
    if best.is_empty() {
        return None;
    }
    let mut rng = crate::search::Rng::new(seed);
    Some(best[rng.below(best.len() as u64) as usize])
}
