//! The exact Reversi endgame solver: the final disc difference with best play.
//!
//! Scores are from the side to move's view by the World Othello Federation rule (empty squares
//! go to the winner), so they are always even, from -64 to 64. The solver is a principal
//! variation search on bitboards with:
//! - fastest-first move ordering (fewest opponent replies first, corners counted twice) and the
//!   hash move, at 7 empties and more;
//! - parity ordering (moves into regions with an odd number of empties first) below that, where
//!   it walks the empty squares directly instead of computing mobility;
//! - a transposition table of bounds at 8 empties and more;
//! - a stability cut: discs that can never be turned bound the score from above.
//!
//! The search honours a stop flag and a deadline; a stopped search returns `None`.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::reversi::{PASS, Reversi, flips, mobility};

const CORNERS: u64 = 0x8100_0000_0000_0081;
const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;
const RANK_1: u64 = 0xFF;
const RANK_8: u64 = 0xFF00_0000_0000_0000;
const NOT_A: u64 = !FILE_A;
const NOT_H: u64 = !FILE_H;
const BORDER: u64 = FILE_A | FILE_H | RANK_1 | RANK_8;

/// Below this many empties the solver walks empty squares without a table.
const SHALLOW: u32 = 6;
/// From this many empties the table is used.
const TT_MIN_EMPTIES: u32 = 8;

/// The 15 diagonals (a1-h8 direction) and 15 anti-diagonals (h1-a8 direction).
const DIAGS: [u64; 30] = {
    let mut t = [0u64; 30];
    let mut sq = 0;
    while sq < 64 {
        let (x, y) = (sq % 8, sq / 8);
        t[7 + x - y] |= 1 << sq;
        t[15 + x + y] |= 1 << sq;
        sq += 1;
    }
    t
};

/// The quadrant masks for parity.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// Squares in the order the shallow search tries them within a parity class: corners first,
/// then edges and inner squares, X- and C-squares last.
const SQUARE_ORDER: [u8; 64] = {
    // a priority per square, lower first
    const PRI: [u8; 64] = [
        0, 4, 1, 2, 2, 1, 4, 0, //
        4, 5, 3, 3, 3, 3, 5, 4, //
        1, 3, 2, 2, 2, 2, 3, 1, //
        2, 3, 2, 9, 9, 2, 3, 2, //
        2, 3, 2, 9, 9, 2, 3, 2, //
        1, 3, 2, 2, 2, 2, 3, 1, //
        4, 5, 3, 3, 3, 3, 5, 4, //
        0, 4, 1, 2, 2, 1, 4, 0, //
    ];
    let mut out = [0u8; 64];
    let mut n = 0;
    let mut p = 0;
    while p <= 9 {
        let mut sq = 0;
        while sq < 64 {
            if PRI[sq] == p {
                out[n] = sq as u8;
                n += 1;
            }
            sq += 1;
        }
        p += 1;
    }
    out
};

/// The final score of a finished game (nobody can move), side to move's view.
#[inline(always)]
pub fn final_score(p: u64, o: u64) -> i32 {
    let pc = p.count_ones() as i32;
    let oc = o.count_ones() as i32;
    let e = 64 - pc - oc;
    let d = pc - oc;
    match d.cmp(&0) {
        std::cmp::Ordering::Greater => d + e,
        std::cmp::Ordering::Less => d - e,
        std::cmp::Ordering::Equal => 0,
    }
}

/// Discs of `o` that can never be turned (a sound underestimate): in each of the four line
/// directions a disc must sit in a full line, on the edge, or next to a stable disc of its
/// own colour.
pub fn stable_discs(o: u64, p: u64) -> u64 {
    let filled = o | p;
    // full rows and columns
    let mut r = filled;
    r &= r >> 4;
    r &= r >> 2;
    r &= r >> 1;
    let full_h = (r & FILE_A) * 0xFF;
    let mut c = filled;
    c &= c >> 32;
    c &= c >> 16;
    c &= c >> 8;
    let full_v = (c & 0xFF) * FILE_A;
    let mut full_d1 = 0;
    let mut full_d2 = 0;
    for i in 0..15 {
        if filled & DIAGS[i] == DIAGS[i] {
            full_d1 |= DIAGS[i];
        }
        if filled & DIAGS[15 + i] == DIAGS[15 + i] {
            full_d2 |= DIAGS[15 + i];
        }
    }
    let h0 = full_h | FILE_A | FILE_H;
    let v0 = full_v | RANK_1 | RANK_8;
    let d10 = full_d1 | BORDER;
    let d20 = full_d2 | BORDER;
    let mut st = o & h0 & v0 & d10 & d20;
    if st == 0 {
        return 0;
    }
    loop {
        let h = h0 | ((st << 1) & NOT_A) | ((st >> 1) & NOT_H);
        let v = v0 | (st << 8) | (st >> 8);
        let d1 = d10 | ((st << 9) & NOT_A) | ((st >> 9) & NOT_H);
        let d2 = d20 | ((st << 7) & NOT_H) | ((st >> 7) & NOT_A);
        let next = st | (o & h & v & d1 & d2);
        if next == st {
            return st;
        }
        st = next;
    }
}

/// The least alpha at which computing stability can cut, by number of empties.
#[inline(always)]
fn stability_threshold(empties: u32) -> i32 {
    // an upper bound of 64 - 2 * stable is only below alpha when alpha is high; with few
    // stable discs in play early, the check is skipped unless alpha is near the top
    match empties {
        0..=6 => 99,
        7..=12 => 2 * empties as i32 + 6,
        _ => (2 * empties as i32 + 8).min(60),
    }
}

#[derive(Clone, Copy, Default)]
struct Entry {
    p: u64,
    o: u64,
    lower: i8,
    upper: i8,
    mv: u8,
    used: bool,
}

/// An endgame solver with its own table; reuse it between positions.
pub struct Solver {
    table: Vec<Entry>,
    pub nodes: u64,
    stop: Option<Arc<AtomicBool>>,
    deadline: Option<Instant>,
    stopped: bool,
}

#[inline(always)]
fn table_hash(p: u64, o: u64) -> u64 {
    let h = p.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ o.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(31);
    h ^ (h >> 29)
}

/// An exact result: the best move (`PASS` if the side must pass, `None` if the game is over)
/// and the final disc difference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    pub best: Option<u8>,
    pub score: i32,
}

impl Solver {
    /// A solver whose table takes about `mb` megabytes.
    pub fn new(mb: usize) -> Solver {
        let n = (mb.max(1) * 1024 * 1024 / std::mem::size_of::<Entry>()).max(1024);
        Solver {
            table: vec![Entry::default(); n],
            nodes: 0,
            stop: None,
            deadline: None,
            stopped: false,
        }
    }

    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|e| *e = Entry::default());
    }

    /// Solves `pos` exactly, or returns `None` if `stop` was raised or `deadline` passed first.
    pub fn solve(
        &mut self,
        pos: &Reversi,
        stop: Option<&Arc<AtomicBool>>,
        deadline: Option<Instant>,
    ) -> Option<Solution> {
        self.solve_window(pos, -64, 64, stop, deadline)
    }

    /// Solves with a window: the score is exact when it lies strictly inside `(alpha, beta)`,
    /// else a bound on the side the window was left.
    pub fn solve_window(
        &mut self,
        pos: &Reversi,
        alpha: i32,
        beta: i32,
        stop: Option<&Arc<AtomicBool>>,
        deadline: Option<Instant>,
    ) -> Option<Solution> {
        self.nodes = 0;
        self.stop = stop.cloned();
        self.deadline = deadline;
        self.stopped = false;
        let (p, o) = (pos.own(), pos.opp());
        let moves = mobility(p, o);
        if moves == 0 {
            if mobility(o, p) == 0 {
                return Some(Solution {
                    best: None,
                    score: final_score(p, o),
                });
            }
            let s = -self.search(o, p, -beta, -alpha, false);
            return (!self.stopped).then_some(Solution {
                best: Some(PASS),
                score: s,
            });
        }
        let empties = 64 - (p | o).count_ones();
        let mut list = self.ordered_moves(p, o, moves, None);
        let mut best = list[0].1;
        let mut a = alpha;
        let mut best_score = -65;
        for (i, &(_, sq)) in list.iter().enumerate() {
            let f = flips(p, o, sq);
            let (np, no) = (p | f | (1u64 << sq), o & !f);
            let s = if i == 0 {
                -self.search(no, np, -beta, -a, false)
            } else {
                let s = -self.search(no, np, -a - 1, -a, false);
                if s > a && s < beta && !self.stopped {
                    -self.search(no, np, -beta, -a, false)
                } else {
                    s
                }
            };
            if self.stopped {
                return None;
            }
            if s > best_score {
                best_score = s;
                best = sq;
                if s > a {
                    a = s;
                    if a >= beta {
                        break;
                    }
                }
            }
        }
        let _ = empties;
        list.clear();
        Some(Solution {
            best: Some(best),
            score: best_score,
        })
    }

    /// Moves of `p` in fastest-first order (the hash move first): (key, square).
    fn ordered_moves(
        &self,
        p: u64,
        o: u64,
        mut moves: u64,
        hash_move: Option<u8>,
    ) -> Vec<(i32, u8)> {
        let mut list = Vec::with_capacity(moves.count_ones() as usize);
        while moves != 0 {
            let sq = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            list.push((self.order_key(p, o, sq, hash_move), sq));
        }
        list.sort_unstable_by_key(|&(k, _)| k);
        list
    }

    #[inline(always)]
    fn order_key(&self, p: u64, o: u64, sq: u8, hash_move: Option<u8>) -> i32 {
        if Some(sq) == hash_move {
            return -100_000;
        }
        let f = flips(p, o, sq);
        let (np, no) = (p | f | (1u64 << sq), o & !f);
        let empties = 64 - (np | no).count_ones();
        if empties >= SORT_SEARCH_EMPTIES {
            // the opponent's value after a shallow search: lower first
            let d = if empties >= 20 {
                3
            } else if empties >= 15 {
                2
            } else {
                1
            };
            return sort_search(no, np, d, -INF_SORT, INF_SORT);
        }
        let m = mobility(no, np);
        let mut k = (m.count_ones() + (m & CORNERS).count_ones()) as i32 * 16;
        if (1u64 << sq) & CORNERS != 0 {
            k -= 8;
        }
        k
    }

    #[inline(always)]
    fn check(&mut self) {
        if self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.stopped = true;
        }
    }

    /// The value of the position with `p` to move against `o`, within `(alpha, beta)`.
    fn search(&mut self, p: u64, o: u64, mut alpha: i32, mut beta: i32, passed: bool) -> i32 {
        let empties = 64 - (p | o).count_ones();
        if empties <= SHALLOW {
            return self.shallow(p, o, alpha, beta, empties, false);
        }
        self.nodes += 1;
        if self.nodes & 4095 == 0 {
            self.check();
        }
        if self.stopped {
            return 0;
        }
        // stability cut
        if alpha >= stability_threshold(empties) {
            let upper = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            if upper <= alpha {
                return upper;
            }
            if upper < beta {
                beta = upper;
            }
        }
        let moves = mobility(p, o);
        if moves == 0 {
            if passed {
                return final_score(p, o);
            }
            return -self.search(o, p, -beta, -alpha, true);
        }
        let use_tt = empties >= TT_MIN_EMPTIES;
        let mut hash_move = None;
        let idx = (table_hash(p, o) as u128 * self.table.len() as u128 >> 64) as usize;
        if use_tt {
            let e = self.table[idx];
            if e.used && e.p == p && e.o == o {
                let (lo, hi) = (e.lower as i32, e.upper as i32);
                if lo >= beta {
                    return lo;
                }
                if hi <= alpha {
                    return hi;
                }
                if lo == hi {
                    return lo;
                }
                alpha = alpha.max(lo);
                beta = beta.min(hi);
                hash_move = Some(e.mv);
            }
        }
        let orig_alpha = alpha;
        let mut best = -65;
        let mut best_move = 0u8;
        if moves & (moves - 1) == 0 {
            // a single move: no ordering needed
            let sq = moves.trailing_zeros() as u8;
            let f = flips(p, o, sq);
            best = -self.search(o & !f, p | f | (1u64 << sq), -beta, -alpha, false);
            best_move = sq;
        } else {
            let list = self.ordered_moves(p, o, moves, hash_move);
            for (i, &(_, sq)) in list.iter().enumerate() {
                let f = flips(p, o, sq);
                let (np, no) = (p | f | (1u64 << sq), o & !f);
                let s = if i == 0 {
                    -self.search(no, np, -beta, -alpha, false)
                } else {
                    let s = -self.search(no, np, -alpha - 1, -alpha, false);
                    if s > alpha && s < beta && !self.stopped {
                        -self.search(no, np, -beta, -alpha, false)
                    } else {
                        s
                    }
                };
                if self.stopped {
                    return 0;
                }
                if s > best {
                    best = s;
                    best_move = sq;
                    if s > alpha {
                        alpha = s;
                        if s >= beta {
                            break;
                        }
                    }
                }
            }
        }
        if self.stopped {
            return 0;
        }
        if use_tt {
            let e = &mut self.table[idx];
            let (mut lo, mut hi) = (-64i8, 64i8);
            if e.used && e.p == p && e.o == o {
                lo = e.lower;
                hi = e.upper;
            }
            if best >= beta {
                lo = lo.max(best as i8);
            } else if best > orig_alpha {
                lo = best as i8;
                hi = best as i8;
            } else {
                hi = hi.min(best as i8);
            }
            *e = Entry {
                p,
                o,
                lower: lo,
                upper: hi,
                mv: best_move,
                used: true,
            };
        }
        best
    }

    /// Few empties: walk the empty squares in parity order, no table.
    fn shallow(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        empties: u32,
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        let empty = !(p | o);
        if empties == 1 {
            return last1(p, o, empty.trailing_zeros() as u8);
        }
        // parity: squares in quadrants with an odd number of empties first
        let mut odd = 0u64;
        for q in QUADRANTS {
            if (empty & q).count_ones() & 1 == 1 {
                odd |= q;
            }
        }
        let mut best = -65;
        for class in [empty & odd, empty & !odd] {
            if class == 0 {
                continue;
            }
            for &sq in SQUARE_ORDER.iter() {
                if class & (1u64 << sq) == 0 {
                    continue;
                }
                let f = flips(p, o, sq);
                if f == 0 {
                    continue;
                }
                let (np, no) = (p | f | (1u64 << sq), o & !f);
                let s = -self.shallow(no, np, -beta, -alpha, empties - 1, false);
                if s > best {
                    best = s;
                    if s > alpha {
                        alpha = s;
                        if s >= beta {
                            return s;
                        }
                    }
                }
            }
        }
        if best == -65 {
            // no move
            if passed {
                return final_score(p, o);
            }
            return -self.shallow(o, p, -beta, -alpha, empties, true);
        }
        best
    }
}

/// From this many empties (after the move) moves are ordered by a shallow search.
const SORT_SEARCH_EMPTIES: u32 = 12;
const INF_SORT: i32 = 1 << 20;

/// A cheap evaluation for move ordering: mobility, corner mobility, corners and potential
/// mobility, side to move's view.
#[inline(always)]
fn sort_eval(p: u64, o: u64) -> i32 {
    let mp = mobility(p, o);
    let mo = mobility(o, p);
    let empty = !(p | o);
    let pot_p = (neighbours(o) & empty).count_ones() as i32;
    let pot_o = (neighbours(p) & empty).count_ones() as i32;
    16 * (mp.count_ones() as i32 + (mp & CORNERS).count_ones() as i32
        - mo.count_ones() as i32
        - (mo & CORNERS).count_ones() as i32)
        + 32 * ((p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32)
        + 4 * (pot_p - pot_o)
}

#[inline(always)]
fn neighbours(bb: u64) -> u64 {
    let row = ((bb << 1) & NOT_A) | ((bb >> 1) & NOT_H);
    let all = bb | row;
    row | (all << 8) | (all >> 8)
}

/// A shallow alpha-beta with [`sort_eval`] at the leaves.
fn sort_search(p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    if depth == 0 {
        return sort_eval(p, o);
    }
    let mut moves = mobility(p, o);
    if moves == 0 {
        if mobility(o, p) == 0 {
            return final_score(p, o) * 1000;
        }
        return -sort_search(o, p, depth - 1, -beta, -alpha);
    }
    let mut best = -INF_SORT;
    while moves != 0 {
        let sq = moves.trailing_zeros() as u8;
        moves &= moves - 1;
        let f = flips(p, o, sq);
        let s = -sort_search(o & !f, p | f | (1u64 << sq), depth - 1, -beta, -alpha);
        if s > best {
            best = s;
            if s > alpha {
                alpha = s;
                if s >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// The exact score with one empty square left, side to move's view.
#[inline(always)]
fn last1(p: u64, o: u64, sq: u8) -> i32 {
    let f = flips(p, o, sq);
    if f != 0 {
        let pc = p.count_ones() + f.count_ones() + 1;
        return 2 * pc as i32 - 64;
    }
    let g = flips(o, p, sq);
    if g != 0 {
        let oc = o.count_ones() + g.count_ones() + 1;
        return 64 - 2 * oc as i32;
    }
    final_score(p, o)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    /// Plain minimax to the end of the game.
    fn minimax(pos: &mut Reversi) -> i32 {
        let mut v = Vec::new();
        pos.legal_moves(&mut v);
        if v.is_empty() {
            return final_score(pos.own(), pos.opp());
        }
        let mut best = -65;
        for m in v {
            let u = pos.make(m);
            best = best.max(-minimax(pos));
            pos.unmake(u);
        }
        best
    }

    fn random_endgame(seed: u64, empties: u32) -> Option<Reversi> {
        let mut rng = crate::search::Rng::new(seed);
        let mut pos = Reversi::start();
        let mut v = Vec::new();
        while 64 - (pos.discs[0] | pos.discs[1]).count_ones() > empties {
            pos.legal_moves(&mut v);
            if v.is_empty() {
                return None;
            }
            let m = v[rng.below(v.len() as u64) as usize];
            pos.make(m);
        }
        Some(pos)
    }

    #[test]
    fn solver_equals_minimax_on_small_endgames() {
        let mut solver = Solver::new(4);
        let mut checked = 0;
        let mut seed = 0;
        while checked < 150 {
            seed += 1;
            let empties = 4 + (seed % 7) as u32; // 4..=10: both the shallow and the table code
            let Some(pos) = random_endgame(seed, empties) else {
                continue;
            };
            let sol = solver.solve(&pos, None, None).unwrap();
            let mut q = pos;
            let exact = minimax(&mut q);
            assert_eq!(sol.score, exact, "{}", pos.to_text());
            if let Some(m) = sol.best {
                let mut q = pos;
                q.play(m).unwrap();
                assert_eq!(-minimax(&mut q), exact, "move {m} in {}", pos.to_text());
            }
            // a null window around the score bounds it on the right side
            let lo = solver
                .solve_window(&pos, exact - 1, exact, None, None)
                .unwrap();
            assert!(lo.score >= exact);
            let hi = solver
                .solve_window(&pos, exact, exact + 1, None, None)
                .unwrap();
            assert!(hi.score <= exact);
            checked += 1;
        }
    }

    #[test]
    fn stable_discs_are_never_turned() {
        // Over random games, a disc counted stable keeps its colour to the end.
        for seed in 0..200 {
            let mut rng = crate::search::Rng::new(seed);
            let mut pos = Reversi::start();
            let mut v = Vec::new();
            let mut watched = [0u64; 2];
            loop {
                for s in 0..2 {
                    let own = pos.discs[s];
                    let opp = pos.discs[1 - s];
                    watched[s] |= stable_discs(own, opp);
                    assert_eq!(
                        watched[s] & own,
                        watched[s],
                        "seed {seed}: {}",
                        pos.to_text()
                    );
                }
                pos.legal_moves(&mut v);
                if v.is_empty() {
                    break;
                }
                let m = v[rng.below(v.len() as u64) as usize];
                pos.make(m);
            }
        }
        // a full board is all stable; corners are stable
        assert_eq!(stable_discs(u64::MAX, 0), u64::MAX);
        assert_eq!(stable_discs(CORNERS, 0), CORNERS);
    }

    #[test]
    fn stop_flag_ends_a_solve() {
        let pos = Reversi::start();
        let stop = Arc::new(AtomicBool::new(true));
        let mut s = Solver::new(1);
        assert_eq!(s.solve(&pos, Some(&stop), None), None);
    }
}
