//! The alpha-beta search shared by the two-player perfect-information games.
//!
//! Negamax with principal variation search, iterative deepening, a transposition table sized in
//! megabytes, and move ordering by hash move, killer moves, the history heuristic and a cheap
//! per-game ordering score. A game takes part by implementing [`Evaluator`] for it.
//!
//! Scores are from the side to move's view, in hundredths of a piece (100 = one piece or disc).
//! A decided game scores `MATE - ply` (won) or `-(MATE - ply)` (lost); see [`is_decided`].

pub mod ataxx;
pub mod tt;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::game::{Game, Outcome};
use tt::{Bound, Table};

/// The score of a won game at the root; a win found `n` plies deep scores `MATE - n`.
pub const MATE: i32 = 1_000_000;
/// Scores beyond ±`MATE_BOUND` are decided games.
pub const MATE_BOUND: i32 = MATE - 10_000;
pub(crate) const INF: i32 = MATE + 1;
const MAX_PLY: usize = 128;

/// The longest time any search is given. A longer budget (a huge `movetime`, a clock of
/// `u64::MAX` milliseconds or seconds from a protocol) is cut to this, so that no deadline
/// computation can overflow: a year is forever for one move.
pub const MAX_TIME: Duration = Duration::from_secs(365 * 24 * 3600);

/// The instant `budget` after `start`, the budget cut to [`MAX_TIME`]; never overflows (every
/// search and every protocol computes its deadline through this).
pub fn deadline_after(start: Instant, budget: Duration) -> Instant {
    let budget = budget.min(MAX_TIME);
    start
        .checked_add(budget)
        .or_else(|| start.checked_add(Duration::from_secs(3600)))
        .unwrap_or(start)
}

/// Whether a score says the game is decided (won or lost with best play).
pub fn is_decided(score: i32) -> bool {
    score.abs() > MATE_BOUND
}

/// What ends a search: whichever limit is reached first. No limit at all searches until the
/// stop flag is raised (or to the maximum depth).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock budget for this move.
    pub time: Option<Duration>,
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
}

impl Limits {
    pub fn movetime(t: Duration) -> Limits {
        Limits {
            time: Some(t),
            ..Limits::default()
        }
    }

    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }
}

/// A report on a running search, sent after each finished iteration (and once at the end).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// The last completed depth.
    pub depth: u32,
    /// Side to move's view, 100 = one piece; beyond ±[`MATE_BOUND`] a decided game.
    pub score: i32,
    pub nodes: u64,
    pub nps: u64,
    /// The principal variation in the game's move notation.
    pub pv: Vec<String>,
    pub elapsed: Duration,
    /// Whether an exact solver proved the score (Reversi's endgame), and how far.
    pub solved: Solved,
}

/// How far a search's score is proven.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Solved {
    /// A heuristic score (the evaluation, or a decided game in so many moves).
    #[default]
    No,
    /// The exact final margin, solved to the end of the game.
    Exact,
    /// Only who wins (or a draw) is proven; the score's size is the evaluation's.
    WinLossDraw,
}

/// The move chosen and how the search saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// `None` only when the position has no legal move (the game is over).
    pub best: Option<M>,
    pub score: i32,
    pub info: SearchInfo,
}

/// What [`Evaluator::frontier`] found: the node's value, the nodes visited below it and the
/// move that reached `beta`, if one did.
pub type Frontier<M> = (i32, u64, Option<M>);

/// What a game supplies to the search: a static evaluation and cheap move ordering.
pub trait Evaluator: Clone + Send + Sync + 'static {
    type G: Game;

    /// The value of a position, from the side to move's view (100 = one piece). Called at the
    /// leaves of the search, also on positions that may be over.
    fn evaluate(&self, pos: &Self::G) -> i32;

    /// A cheap guess at how good a move is, for ordering (higher is searched first).
    fn move_order(&self, pos: &Self::G, mv: <Self::G as Game>::Move) -> i32;

    /// A dense index of a move for the history table, below [`Evaluator::move_keys`].
    fn move_key(&self, mv: <Self::G as Game>::Move) -> usize;

    fn move_keys(&self) -> usize;

    /// The size of the random term this evaluation adds so that weak levels vary their play
    /// (100 = one piece): 0 by default and at full strength. A search score is no evaluation
    /// of the position where the noise is larger than the differences it would show.
    fn noise(&self) -> i32 {
        0
    }

    /// The value of a finished game from the side to move's view, before the ply adjustment:
    /// by default `MATE` for a win, `-MATE` for a loss, 0 for a draw.
    fn terminal(&self, pos: &Self::G, outcome: Outcome) -> i32 {
        match outcome {
            Outcome::Draw => 0,
            Outcome::Win(s) if s == pos.side_to_move() => MATE,
            Outcome::Win(_) => -MATE,
        }
    }

    /// Late move reductions: whether a quiet late move (of `pos`, not yet played) may be
    /// searched shallower first.
    fn reducible(&self, _pos: &Self::G, _mv: <Self::G as Game>::Move) -> bool {
        false
    }

    /// A game's own search of a node one ply above the leaves: the fail-soft value (at
    /// `beta`) of its best move by the static evaluation, the nodes visited below it and the
    /// move that reached `beta` if one did, as the generic search would find them, but
    /// without making and unmaking each move, the hash, the table and the ordering by
    /// history. `killers` (the ply's killer moves, possibly illegal here) are tried first.
    /// `None` (the default): the generic search takes the node.
    fn frontier(
        &self,
        _pos: &Self::G,
        _beta: i32,
        _killers: &[Option<<Self::G as Game>::Move>; 2],
    ) -> Option<Frontier<<Self::G as Game>::Move>> {
        None
    }

    /// The transposition table is probed and written only at nodes at least this many plies
    /// from the leaves (1, the default: everywhere but the leaves). Nodes just above the
    /// leaves are the most numerous and their entries the least worth; skipping them spares
    /// a cache (and TLB) miss at each.
    fn table_min_depth(&self) -> i32 {
        1
    }

    /// ProbCut at a node `depth` plies from the leaves (not on the principal variation): a
    /// shallower depth and a margin; a null-window search that deep beyond the window by the
    /// margin cuts the node. `None` (the default): no ProbCut.
    fn probcut(&self, _depth: i32) -> Option<(i32, i32)> {
        None
    }

    /// Multi-ProbCut: the cut pairs tried in turn at a node `depth` plies from the leaves,
    /// `k` counting from 0, until `None`. By default the one pair of [`Evaluator::probcut`].
    fn probcut_try(&self, depth: i32, k: usize) -> Option<(i32, i32)> {
        if k == 0 { self.probcut(depth) } else { None }
    }

    /// ProbCut's gate at a node `depth` plies from the leaves: the upper cut is tried only when
    /// the static evaluation is at least `beta - gate`, the lower one only when it is at most
    /// `alpha + gate` (a probe far on the other side would fail). `None` (the default): both
    /// are always tried.
    fn probcut_gate(&self, _depth: i32) -> Option<i32> {
        None
    }

    /// Move ordering at a node `depth` plies from the leaves (higher first); by default
    /// [`Evaluator::move_order`]. A game may order by a costlier guess far from the leaves.
    fn move_order_at(&self, pos: &Self::G, mv: <Self::G as Game>::Move, depth: i32) -> i32 {
        let _ = depth;
        self.move_order(pos, mv)
    }

    /// Iterative deepening starts no new iteration once this share of the move's time is
    /// spent.
    fn iteration_share(&self) -> f64 {
        0.45
    }
}

type MoveOf<E> = <<E as Evaluator>::G as Game>::Move;

/// A reusable searcher: keep one per game and call [`Searcher::search`] for each move; its
/// transposition table and history carry over between moves.
pub struct Searcher<E: Evaluator> {
    pub eval: E,
    tt: Table<MoveOf<E>>,
    killers: Vec<[Option<MoveOf<E>>; 2]>,
    history: Vec<i32>,
    move_bufs: Vec<Vec<MoveOf<E>>>,
    score_bufs: Vec<Vec<i32>>,
    // the running search
    nodes: u64,
    start: Instant,
    deadline: Option<Instant>,
    node_limit: u64,
    stopped: bool,
    stop: Arc<AtomicBool>,
    /// Late move reductions on/off (on by default where the evaluator allows them).
    pub lmr: bool,
}

impl<E: Evaluator> Searcher<E> {
    /// A searcher with a transposition table of about `hash_mb` megabytes.
    pub fn new(eval: E, hash_mb: usize) -> Searcher<E> {
        let keys = eval.move_keys();
        Searcher {
            eval,
            tt: Table::new(hash_mb),
            killers: vec![[None, None]; MAX_PLY + 1],
            history: vec![0; keys],
            move_bufs: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            score_bufs: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            nodes: 0,
            start: Instant::now(),
            deadline: None,
            node_limit: u64::MAX,
            stopped: false,
            stop: Arc::new(AtomicBool::new(false)),
            lmr: true,
        }
    }

    /// Resizes the transposition table (clearing it).
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.tt = Table::new(mb);
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
    }

    /// Nodes visited by the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Searches `pos` until a limit is reached or `stop` is raised, calling `on_info` after
    /// each completed iteration. Always returns a legal move when there is one.
    pub fn search(
        &mut self,
        pos: &E::G,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult<MoveOf<E>> {
        self.tt.allocate();
        self.start = Instant::now();
        self.deadline = limits.time.map(|t| deadline_after(self.start, t));
        self.node_limit = limits.nodes.unwrap_or(u64::MAX).max(1);
        self.nodes = 0;
        self.stopped = false;
        self.stop = stop.clone();
        self.tt.new_search();
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
        for h in &mut self.history {
            *h /= 8;
        }
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 4)
            .clamp(1, MAX_PLY as u32 - 4);

        let mut pos = pos.clone();
        let mut root: Vec<MoveOf<E>> = Vec::new();
        pos.legal_moves(&mut root);
        let mut info = SearchInfo::default();
        if root.is_empty() {
            let score = pos
                .outcome()
                .map(|o| self.eval.terminal(&pos, o))
                .unwrap_or(0);
            info.score = score;
            on_info(&info);
            return SearchResult {
                best: None,
                score,
                info,
            };
        }
        // Initial order: hash move, then the ordering score.
        let hash_move = self.tt.probe(pos.hash()).and_then(|e| e.mv);
        let mut keyed: Vec<(i32, MoveOf<E>)> = root
            .iter()
            .map(|&m| {
                let s = if Some(m) == hash_move {
                    i32::MAX
                } else {
                    self.eval.move_order(&pos, m)
                };
                (s, m)
            })
            .collect();
        keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
        root = keyed.into_iter().map(|(_, m)| m).collect();

        let mut best = root[0];
        let mut best_score = -INF;
        let mut depth = 1u32;
        loop {
            let (iter_best, iter_score, complete) = self.root_search(&mut pos, &mut root, depth);
            if let Some(m) = iter_best {
                best = m;
                best_score = iter_score;
            }
            if complete {
                // the best move goes first next time
                if let Some(i) = root.iter().position(|&m| m == best) {
                    let m = root.remove(i);
                    root.insert(0, m);
                }
                info = self.make_info(&pos, depth, best_score, best);
                on_info(&info);
            }
            if self.stopped || !complete {
                break;
            }
            if depth >= max_depth || root.len() == 1 && depth >= 1 && limits.depth.is_none() {
                break;
            }
            if is_decided(best_score) && depth as i32 > MATE - best_score.abs() + 2 {
                break;
            }
            if let Some(t) = limits.time.map(|t| t.min(MAX_TIME)) {
                // a new iteration costs several times the last one: don't start what can't end
                if self.start.elapsed() > t.mul_f64(self.eval.iteration_share()) {
                    break;
                }
            }
            depth += 1;
        }
        if best_score == -INF {
            best_score = 0;
        }
        let mut final_info = self.make_info(&pos, info.depth, best_score, best);
        final_info.depth = info.depth;
        on_info(&final_info);
        SearchResult {
            best: Some(best),
            score: best_score,
            info: final_info,
        }
    }

    fn make_info(&self, pos: &E::G, depth: u32, score: i32, best: MoveOf<E>) -> SearchInfo {
        let elapsed = self.start.elapsed();
        SearchInfo {
            depth,
            score,
            nodes: self.nodes,
            nps: (self.nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
            pv: self.pv(pos, best, depth as usize + 4),
            elapsed,
            solved: Default::default(),
        }
    }

    /// The principal variation: the best move, then the hash moves while they are legal.
    fn pv(&self, pos: &E::G, best: MoveOf<E>, max_len: usize) -> Vec<String> {
        let mut p = pos.clone();
        let mut out = vec![p.move_to_text(best)];
        p.make(best);
        let mut seen = vec![pos.hash(), p.hash()];
        while out.len() < max_len {
            let Some(m) = self.tt.probe(p.hash()).and_then(|e| e.mv) else {
                break;
            };
            if !p.is_legal(m) {
                break;
            }
            out.push(p.move_to_text(m));
            p.make(m);
            if seen.contains(&p.hash()) {
                break;
            }
            seen.push(p.hash());
        }
        out
    }

    /// One iteration at the root. Returns the best move whose search finished (if any), its
    /// score, and whether the whole iteration finished.
    fn root_search(
        &mut self,
        pos: &mut E::G,
        root: &mut [MoveOf<E>],
        depth: u32,
    ) -> (Option<MoveOf<E>>, i32, bool) {
        let mut alpha = -INF;
        let beta = INF;
        let mut best: Option<MoveOf<E>> = None;
        let d = depth as i32;
        for (i, &mv) in root.iter().enumerate() {
            self.nodes += 1;
            let undo = pos.make(mv);
            let score = if i == 0 {
                -self.pvs(pos, d - 1, 1, -beta, -alpha, true)
            } else {
                let s = -self.pvs(pos, d - 1, 1, -alpha - 1, -alpha, false);
                if s > alpha && !self.stopped {
                    -self.pvs(pos, d - 1, 1, -beta, -alpha, true)
                } else {
                    s
                }
            };
            pos.unmake(undo);
            if self.stopped {
                return (best, alpha, false);
            }
            if score > alpha {
                alpha = score;
                best = Some(mv);
            }
        }
        if let Some(b) = best {
            self.tt
                .store(pos.hash(), Some(b), to_tt(alpha, 0), d as i16, Bound::Exact);
        }
        (best, alpha, true)
    }

    #[inline]
    fn check_limits(&mut self) {
        if self.nodes >= self.node_limit || self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if let Some(d) = self.deadline
            && Instant::now() >= d
        {
            self.stopped = true;
        }
    }

    fn pvs(
        &mut self,
        pos: &mut E::G,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        is_pv: bool,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.stopped {
            return 0;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.eval.evaluate(pos);
        }
        if depth == 1
            && let Some((score, nodes, cut)) = self.eval.frontier(pos, beta, &self.killers[ply])
        {
            self.nodes += nodes;
            if let Some(mv) = cut {
                let killers = self.killers[ply];
                if Some(mv) != killers[0] {
                    self.killers[ply] = [Some(mv), killers[0]];
                }
            }
            return score;
        }
        let key = pos.hash();
        let mut hash_move = None;
        let use_tt = depth >= self.eval.table_min_depth();
        if use_tt && let Some(e) = self.tt.probe(key) {
            hash_move = e.mv;
            if !is_pv && e.depth as i32 >= depth {
                let s = from_tt(e.score, ply);
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }

        let mut cut_try = 0;
        while !is_pv && let Some((d, margin)) = self.eval.probcut_try(depth, cut_try) {
            cut_try += 1;
            // ProbCut: a shallow search far outside the window predicts the deep one
            let gate = self.eval.probcut_gate(depth);
            let stat = gate.map(|_| self.eval.evaluate(pos));
            let hi = beta.saturating_add(margin);
            let try_hi = match (gate, stat) {
                (Some(g), Some(e)) => e >= beta.saturating_sub(g),
                _ => true,
            };
            let try_lo = match (gate, stat) {
                (Some(g), Some(e)) => e <= alpha.saturating_add(g),
                _ => true,
            };
            if try_hi && hi < MATE_BOUND {
                let s = self.pvs(pos, d, ply, hi - 1, hi, false);
                if self.stopped {
                    return 0;
                }
                if s >= hi {
                    return beta;
                }
            }
            let lo = alpha.saturating_sub(margin);
            if try_lo && lo > -MATE_BOUND {
                let s = self.pvs(pos, d, ply, lo, lo + 1, false);
                if self.stopped {
                    return 0;
                }
                if s <= lo {
                    return alpha;
                }
            }
        }
        let mut moves = std::mem::take(&mut self.move_bufs[ply]);
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            self.move_bufs[ply] = moves;
            let o = pos.outcome().unwrap_or(Outcome::Draw);
            let t = self.eval.terminal(pos, o);
            return if t > MATE_BOUND {
                t - ply as i32
            } else if t < -MATE_BOUND {
                t + ply as i32
            } else {
                t
            };
        }
        let mut scores = std::mem::take(&mut self.score_bufs[ply]);
        scores.clear();
        let killers = self.killers[ply];
        for &m in moves.iter() {
            let s = if Some(m) == hash_move {
                1 << 30
            } else if Some(m) == killers[0] {
                1 << 25
            } else if Some(m) == killers[1] {
                (1 << 25) - 1
            } else {
                self.eval.move_order_at(pos, m, depth) * 1024
                    + self.history[self.eval.move_key(m)].min(1023)
            };
            scores.push(s);
        }

        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let n = moves.len();
        for i in 0..n {
            // selection sort step: bring the best remaining move to i
            let mut bi = i;
            for j in i + 1..n {
                if scores[j] > scores[bi] {
                    bi = j;
                }
            }
            moves.swap(i, bi);
            scores.swap(i, bi);
            let mv = moves[i];
            let reducible = self.lmr
                && depth >= 3
                && i >= 3
                && scores[i] < (1 << 25) - 1
                && self.eval.reducible(pos, mv);
            let undo = pos.make(mv);
            let score = if i == 0 {
                -self.pvs(pos, depth - 1, ply + 1, -beta, -alpha, is_pv)
            } else {
                let reduction = match reducible {
                    false => 0,
                    true if i >= 8 && depth >= 5 => 2,
                    true => 1,
                };
                let mut s = -self.pvs(
                    pos,
                    depth - 1 - reduction,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    false,
                );
                if s > alpha && reduction > 0 && !self.stopped {
                    s = -self.pvs(pos, depth - 1, ply + 1, -alpha - 1, -alpha, false);
                }
                if s > alpha && s < beta && is_pv && !self.stopped {
                    s = -self.pvs(pos, depth - 1, ply + 1, -beta, -alpha, true);
                }
                s
            };
            pos.unmake(undo);
            if self.stopped {
                self.move_bufs[ply] = moves;
                self.score_bufs[ply] = scores;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        if Some(mv) != hash_move && Some(mv) != killers[0] {
                            self.killers[ply] = [Some(mv), killers[0]];
                        }
                        let k = self.eval.move_key(mv);
                        self.history[k] += depth * depth;
                        if self.history[k] > 1 << 20 {
                            self.history.iter_mut().for_each(|h| *h /= 2);
                        }
                        break;
                    }
                }
            }
        }
        self.move_bufs[ply] = moves;
        self.score_bufs[ply] = scores;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if use_tt {
            self.tt
                .store(key, best_move, to_tt(best, ply), depth as i16, bound);
        }
        best
    }
}

/// A mate score stored in the table counts from the stored node, not the root.
pub(crate) fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_tt`].
pub(crate) fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The core's random generator (SplitMix64), for noise and openings.
pub use crate::rng::Rng;

/// Mixes a position hash with a seed into noise in `-amp..=amp`, the same for the same
/// position and seed (so transposition table entries stay consistent).
#[inline]
pub fn hash_noise(hash: u64, seed: u64, amp: i32) -> i32 {
    if amp <= 0 {
        return 0;
    }
    let (_, v) = crate::zobrist::splitmix64(hash ^ seed);
    (v % (2 * amp as u64 + 1)) as i32 - amp
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Ai;
    use crate::reversi::Reversi;

    /// The table is written in full before the search starts its clock, not at the first
    /// store inside the search (where it cost the app's first CPU move of a game 90 ms and
    /// showed 15 k nodes a second for 2 M): even a search that stores nothing allocates it.
    #[test]
    fn the_table_is_allocated_before_the_clock_starts() {
        let over = Reversi::from_text(&format!("{} X", "X".repeat(64))).unwrap();
        assert!(over.outcome().is_some());
        let mut s = Searcher::new(Reversi::eval_for_level(4, 0), 1);
        assert!(!s.tt.is_allocated());
        let r = s.search(
            &over,
            &Limits {
                time: None,
                depth: Some(3),
                nodes: None,
            },
            &Arc::new(AtomicBool::new(false)),
            &mut |_| {},
        );
        assert_eq!(r.best, None);
        assert!(s.tt.is_allocated());
    }
}
