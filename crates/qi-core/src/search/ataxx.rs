//! A search made for Ataxx: principal variation search on the bitboards with aspiration
//! windows, late-move reductions, a transposition table that keeps the best move, killer and
//! history ordering, and time management that spends the move's time.
//!
//! Moves are generated straight from the bitboards into per-ply buffers and ordered cheaply:
//! the hash move, the two killers, then the immediate gain (2 per captured piece counted by
//! popcount, 1 for a clone) less the holes a jump leaves, with the history score breaking ties.
//! Late quiet moves are searched shallower first (Ataxx has 20-100 moves a position, so this is
//! where the depth comes from); a reduced move that beats alpha is searched again at full
//! depth. Iterations after the fourth start with a window around the last score and widen it
//! when the score falls outside.
//!
//! Time: the search never passes the hard limit (the whole move time less a little) and starts
//! no iteration past the soft limit; an iteration stopped midway still counts the moves it
//! finished, searched best-first, so a late iteration can only improve the choice.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::tt::{Bound, Table};
use super::{Evaluator, Limits, MATE, SearchInfo, SearchResult, from_tt, to_tt};
use crate::ai::ataxx::AtaxxEval;
use crate::ataxx::{Ataxx, DOUBLES, HALFMOVE_LIMIT, Move, SINGLES, singles_of};
use crate::game::Game;

const INF: i32 = MATE + 1;
const MAX_PLY: usize = 96;
/// Half-width of the first aspiration window, hundredths of a piece.
const ASPIRATION: i32 = 60;

/// Tunable switches of the search (for matches between versions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AtaxxSearchOptions {
    pub lmr: bool,
    pub aspiration: bool,
    /// Null-move pruning (off: Ataxx endgames are full of zugzwang).
    pub null_move: bool,
    /// Fraction of the move time (per mille) after which no new iteration starts.
    pub soft_permille: u32,
}

impl Default for AtaxxSearchOptions {
    fn default() -> Self {
        AtaxxSearchOptions {
            lmr: true,
            aspiration: true,
            null_move: false,
            soft_permille: 550,
        }
    }
}

/// The Ataxx searcher: keep one per game; its table and history carry over between moves.
pub struct AtaxxSearcher {
    pub eval: AtaxxEval,
    pub options: AtaxxSearchOptions,
    tt: Table<Move>,
    killers: [[Move; 2]; MAX_PLY + 2],
    /// Per side, `from * 49 + to`.
    history: Vec<i32>,
    bufs: Vec<Vec<(i32, Move)>>,
    nodes: u64,
    start: Instant,
    hard: Option<Instant>,
    node_limit: u64,
    stopped: bool,
    stop: Arc<AtomicBool>,
}

#[inline(always)]
fn hist_index(side: usize, mv: Move) -> usize {
    side * 2401 + mv.from as usize * 49 + mv.to as usize
}

impl AtaxxSearcher {
    pub fn new(eval: AtaxxEval, hash_mb: usize) -> AtaxxSearcher {
        AtaxxSearcher {
            eval,
            options: AtaxxSearchOptions::default(),
            tt: Table::new(hash_mb),
            killers: [[Move::PASS; 2]; MAX_PLY + 2],
            history: vec![0; 2 * 2401],
            bufs: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(128)).collect(),
            nodes: 0,
            start: Instant::now(),
            hard: None,
            node_limit: u64::MAX,
            stopped: false,
            stop: Arc::new(AtomicBool::new(false)),
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
        self.killers = [[Move::PASS; 2]; MAX_PLY + 2];
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Searches until a limit is reached or `stop` is raised; see [`Self::search_min_depth`].
    pub fn search(
        &mut self,
        pos: &Ataxx,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult<Move> {
        self.search_min_depth(pos, limits, 1, stop, on_info)
    }

    /// Searches `pos`: the time limit is the move's whole budget (iterations stop at
    /// [`AtaxxSearchOptions::soft_permille`] of it), but `min_depth` is completed whatever the
    /// clock says. Always returns a legal move when there is one (the pass when it is the only
    /// one).
    pub fn search_min_depth(
        &mut self,
        pos: &Ataxx,
        limits: &Limits,
        min_depth: u32,
        stop: &Arc<AtomicBool>,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult<Move> {
        self.tt.allocate();
        self.start = Instant::now();
        self.nodes = 0;
        self.stopped = false;
        self.stop = stop.clone();
        self.node_limit = limits.nodes.unwrap_or(u64::MAX).max(1);
        self.tt.new_search();
        self.killers = [[Move::PASS; 2]; MAX_PLY + 2];
        for h in &mut self.history {
            *h /= 8;
        }
        let (soft, hard) = match limits.time {
            Some(t) => {
                // a little room for the answer to reach the other side
                let safety = Duration::from_millis(3).min(t / 10);
                let hard = t.saturating_sub(safety).max(Duration::from_millis(1));
                (
                    Some(t.mul_f64(self.options.soft_permille as f64 / 1000.0)),
                    Some(hard),
                )
            }
            None => (None, None),
        };
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 4)
            .clamp(1, MAX_PLY as u32 - 4);

        let mut pos = *pos;
        let mut root: Vec<(i32, Move)> = Vec::new();
        let mut info = SearchInfo::default();
        if pos.is_over() {
            info.score = match pos.outcome() {
                Some(o) => self.eval.terminal(&pos, o),
                None => 0,
            };
            on_info(&info);
            return SearchResult {
                best: None,
                score: info.score,
                info,
            };
        }
        let hash_move = self.tt.probe(pos.hash()).and_then(|e| e.mv);
        self.gen_moves(&pos, 0, hash_move, &mut root);
        if root.is_empty() {
            // no piece move, but the game goes on: the pass is the only move
            info.depth = 1;
            info.pv = vec![pos.move_to_text(Move::PASS)];
            on_info(&info);
            return SearchResult {
                best: Some(Move::PASS),
                score: 0,
                info,
            };
        }
        root.sort_by_key(|a| std::cmp::Reverse(a.0));
        let mut root: Vec<Move> = root.into_iter().map(|(_, m)| m).collect();
        let mut best = root[0];
        let mut best_score = 0;
        let mut depth = 1u32;
        loop {
            // only the clock may stop the iterations below min_depth
            self.hard = if depth <= min_depth {
                None
            } else {
                hard.map(|h| crate::search::deadline_after(self.start, h))
            };
            let (mv, score, complete) = self.aspiration(&mut pos, &mut root, depth, best_score);
            if let Some(m) = mv {
                best = m;
                best_score = score;
            }
            if complete {
                if let Some(i) = root.iter().position(|&m| m == best) {
                    let m = root.remove(i);
                    root.insert(0, m);
                }
                info = self.make_info(&pos, depth, best_score, best);
                on_info(&info);
            }
            if self.stopped || !complete || depth >= max_depth {
                break;
            }
            if root.len() == 1 && limits.depth.is_none() {
                break;
            }
            if super::is_decided(best_score) && depth as i32 > MATE - best_score.abs() + 2 {
                break;
            }
            if depth >= min_depth
                && let Some(s) = soft
                && self.start.elapsed() > s
            {
                break;
            }
            depth += 1;
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

    /// One iteration with an aspiration window around `prev`: (best move found, its score,
    /// whether the iteration finished).
    fn aspiration(
        &mut self,
        pos: &mut Ataxx,
        root: &mut [Move],
        depth: u32,
        prev: i32,
    ) -> (Option<Move>, i32, bool) {
        if !self.options.aspiration || depth < 5 || super::is_decided(prev) {
            return self.root_search(pos, root, depth, -INF, INF);
        }
        let mut w = ASPIRATION;
        let (mut alpha, mut beta) = (prev - w, prev + w);
        loop {
            let (mv, score, complete) = self.root_search(pos, root, depth, alpha, beta);
            if !complete {
                // a move that beat alpha is trustworthy even in a cut-short window
                return (mv.filter(|_| score > alpha), score, false);
            }
            if score <= alpha {
                alpha = (alpha - w * 2).max(-INF);
                beta = (alpha + beta) / 2 + w;
            } else if score >= beta {
                beta = (beta + w * 2).min(INF);
            } else {
                return (mv, score, true);
            }
            w *= 3;
            if w > 2000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    fn root_search(
        &mut self,
        pos: &mut Ataxx,
        root: &mut [Move],
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> (Option<Move>, i32, bool) {
        let orig_alpha = alpha;
        let mut best: Option<Move> = None;
        let mut best_score = -INF;
        let d = depth as i32;
        for (i, &mv) in root.iter().enumerate() {
            self.nodes += 1;
            let child = after(pos, mv);
            let score = if i == 0 {
                -self.pvs(&child, d - 1, 1, -beta, -alpha, true)
            } else {
                let s = -self.pvs(&child, d - 1, 1, -alpha - 1, -alpha, false);
                if s > alpha && s < beta && !self.stopped {
                    -self.pvs(&child, d - 1, 1, -beta, -alpha, true)
                } else {
                    s
                }
            };
            if self.stopped {
                return (best, best_score, false);
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best = Some(mv);
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if best.is_none() {
            // failed low: keep the first (last best) move as the answer
            best = Some(root[0]);
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score <= orig_alpha {
            Bound::Upper
        } else {
            Bound::Exact
        };
        self.tt
            .store(pos.hash(), best, to_tt(best_score, 0), d as i16, bound);
        (best, best_score, true)
    }

    #[inline]
    fn check_limits(&mut self) {
        if self.nodes >= self.node_limit || self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if let Some(h) = self.hard
            && Instant::now() >= h
        {
            self.stopped = true;
        }
    }

    /// The piece moves of the side to move with their ordering keys (clones first).
    #[inline]
    fn gen_moves(
        &self,
        pos: &Ataxx,
        ply: usize,
        hash_move: Option<Move>,
        out: &mut Vec<(i32, Move)>,
    ) {
        out.clear();
        let side = pos.side.index();
        let us = pos.pieces[side];
        let them = pos.pieces[1 - side];
        let empty = pos.empty();
        let killers = self.killers[ply.min(MAX_PLY)];
        let key = |mv: Move, base: i32| -> i32 {
            if Some(mv) == hash_move {
                1 << 30
            } else if mv == killers[0] {
                1 << 26
            } else if mv == killers[1] {
                (1 << 26) - 1
            } else {
                base * 4096 + self.history[hist_index(side, mv)].min(4095)
            }
        };
        let mut clones = singles_of(us) & empty;
        while clones != 0 {
            let to = clones.trailing_zeros() as u8;
            clones &= clones - 1;
            let near = SINGLES[to as usize];
            let base = 8 * (near & them).count_ones() as i32 + (near & us).count_ones() as i32 + 6;
            let mv = Move::clone_to(to);
            out.push((key(mv, base), mv));
        }
        let mut bb = us;
        while bb != 0 {
            let from = bb.trailing_zeros() as u8;
            bb &= bb - 1;
            let holes = (SINGLES[from as usize] & us).count_ones() as i32;
            let mut jumps = DOUBLES[from as usize] & empty;
            while jumps != 0 {
                let to = jumps.trailing_zeros() as u8;
                jumps &= jumps - 1;
                let near = SINGLES[to as usize];
                // the piece leaves `from`, so its own square no longer supports `to`
                let base = 8 * (near & them).count_ones() as i32
                    + ((near & us) & !(1u64 << from)).count_ones() as i32
                    - 2 * holes;
                let mv = Move::jump(from, to);
                out.push((key(mv, base), mv));
            }
        }
    }

    fn pvs(
        &mut self,
        pos: &Ataxx,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        is_pv: bool,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.stopped {
            return 0;
        }
        let side = pos.side.index();
        let us = pos.pieces[side];
        let them = pos.pieces[1 - side];
        if them == 0 {
            return MATE - ply as i32;
        }
        if us == 0 {
            return -(MATE - ply as i32);
        }
        if pos.halfmove >= HALFMOVE_LIMIT {
            return 0;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.eval.evaluate(pos);
        }
        // mate distance pruning
        alpha = alpha.max(-(MATE - ply as i32));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let key = pos.hash();
        let mut hash_move = None;
        if let Some(e) = self.tt.probe(key) {
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

        let mut moves = std::mem::take(&mut self.bufs[ply]);
        self.gen_moves(pos, ply, hash_move, &mut moves);
        if moves.is_empty() {
            self.bufs[ply] = moves;
            let opp = pos.side.other();
            if !pos.has_moves(opp) {
                // nobody can move: the pieces decide
                let diff = us.count_ones() as i32 - them.count_ones() as i32;
                return match diff.signum() {
                    1 => MATE - ply as i32,
                    -1 => -(MATE - ply as i32),
                    _ => 0,
                };
            }
            let child = after(pos, Move::PASS);
            return -self.pvs(&child, depth - 1, ply + 1, -beta, -alpha, is_pv);
        }

        if self.options.null_move
            && !is_pv
            && depth >= 3
            && pos.empty().count_ones() > 12
            && !super::is_decided(beta)
            && self.eval.evaluate(pos) >= beta
        {
            let child = after(pos, Move::PASS);
            let s = -self.pvs(&child, depth - 3, ply + 1, -beta, -beta + 1, false);
            if self.stopped {
                self.bufs[ply] = moves;
                return 0;
            }
            if s >= beta && !super::is_decided(s) {
                self.bufs[ply] = moves;
                return s;
            }
        }

        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let n = moves.len();
        for i in 0..n {
            let mut bi = i;
            for j in i + 1..n {
                if moves[j].0 > moves[bi].0 {
                    bi = j;
                }
            }
            moves.swap(i, bi);
            let (order, mv) = moves[i];
            let child = after(pos, mv);
            let score = if i == 0 {
                -self.pvs(&child, depth - 1, ply + 1, -beta, -alpha, is_pv)
            } else {
                let mut r = 0;
                if self.options.lmr && depth >= 3 && i >= 2 && order < (1 << 26) - 1 {
                    let caps = SINGLES[mv.to as usize] & them != 0;
                    r = if i < 6 {
                        1
                    } else if i < 12 {
                        (depth / 3).max(1)
                    } else {
                        (depth / 2).max(1)
                    };
                    if caps || is_pv {
                        r -= 1;
                    }
                    r = r.min(depth - 2).max(0);
                }
                let mut s = -self.pvs(&child, depth - 1 - r, ply + 1, -alpha - 1, -alpha, false);
                if s > alpha && r > 0 && !self.stopped {
                    s = -self.pvs(&child, depth - 1, ply + 1, -alpha - 1, -alpha, false);
                }
                if s > alpha && s < beta && is_pv && !self.stopped {
                    s = -self.pvs(&child, depth - 1, ply + 1, -beta, -alpha, true);
                }
                s
            };
            if self.stopped {
                self.bufs[ply] = moves;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        let k = self.killers[ply];
                        if mv != k[0] {
                            self.killers[ply] = [mv, k[0]];
                        }
                        let h = &mut self.history[hist_index(side, mv)];
                        *h += depth * depth;
                        if *h > 1 << 20 {
                            self.history.iter_mut().for_each(|h| *h /= 2);
                        }
                        break;
                    }
                }
            }
        }
        self.bufs[ply] = moves;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, to_tt(best, ply), depth as i16, bound);
        best
    }

    fn make_info(&self, pos: &Ataxx, depth: u32, score: i32, best: Move) -> SearchInfo {
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

    /// The best move, then the hash moves while they are legal.
    fn pv(&self, pos: &Ataxx, best: Move, max_len: usize) -> Vec<String> {
        let mut p = *pos;
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
}

#[inline(always)]
fn after(pos: &Ataxx, mv: Move) -> Ataxx {
    let mut c = *pos;
    c.make(mv);
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::matches::random_opening;
    use crate::search::{MATE_BOUND, Rng};

    #[test]
    fn returns_legal_moves_and_finds_a_wipe_out() {
        let stop = Arc::new(AtomicBool::new(false));
        let mut s = AtaxxSearcher::new(AtaxxEval::default(), 4);
        let mut rng = Rng::new(5);
        for plies in [0, 3, 8, 20, 40, 70] {
            let p: Ataxx = random_opening(plies, &mut rng);
            let r = s.search(&p, &Limits::depth(4), &stop, &mut |_| {});
            let m = r.best.expect("a move");
            assert!(p.is_legal(m), "{} in {}", p.move_to_text(m), p.to_text());
        }
        // x takes the last o piece at once
        let p = Ataxx::from_text("7/7/7/3o3/7/2x4/7 x 0 1").unwrap();
        let r = s.search(&p, &Limits::depth(3), &stop, &mut |_| {});
        assert!(r.score > MATE_BOUND, "{}", r.score);
        let mut q = p;
        q.make(r.best.unwrap());
        assert_eq!(q.pieces[1], 0);
    }

    #[test]
    fn a_forced_pass_is_returned() {
        // x is walled in by o pieces and blocked squares: it can only pass
        let p = Ataxx::from_text("xoooooo/ooooooo/ooooooo/7/7/7/7 x 0 1").unwrap();
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        assert_eq!(moves, vec![Move::PASS]);
        let stop = Arc::new(AtomicBool::new(false));
        let mut s = AtaxxSearcher::new(AtaxxEval::default(), 1);
        let r = s.search(&p, &Limits::depth(3), &stop, &mut |_| {});
        assert_eq!(r.best, Some(Move::PASS));
    }

    #[test]
    fn the_time_is_kept() {
        let stop = Arc::new(AtomicBool::new(false));
        let mut s = AtaxxSearcher::new(AtaxxEval::default(), 4);
        let p: Ataxx = random_opening(10, &mut Rng::new(9));
        let t = Instant::now();
        let r = s.search(
            &p,
            &Limits::movetime(Duration::from_millis(60)),
            &stop,
            &mut |_| {},
        );
        assert!(p.is_legal(r.best.unwrap()));
        assert!(
            t.elapsed() < Duration::from_millis(200),
            "{:?}",
            t.elapsed()
        );
        assert!(r.info.depth >= 2, "{}", r.info.depth);
    }
}
