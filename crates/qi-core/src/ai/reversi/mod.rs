//! Reversi evaluation, move ordering and levels (with the exact endgame solver at the end).
//!
//! Level 1 plays the move that turns the most discs; level 2 searches 3 plies on the square
//! weights with a little noise; levels 3 and 4 search 4 and 6 plies on the hand-made
//! evaluation; level 5 searches by time (a quarter of it) on the hand-made evaluation and
//! level 6 by time on the trained pattern evaluation ([`crate::ai::patterns`]). Measured with
//! `qi-engine match reversi` (4 random opening plies): level 2 against level 1 won 37, drew 0
//! and lost 3 of 40 games (92.5%, 50 ms per move, seed 1); 3 vs 2 95%, 4 vs 3 90% (20 games
//! each, 100 ms); 5 vs 4 93.8% (37-1-2, 40 games, seed 7); 6 vs 5 80.6% (62-5-13 in 80 games,
//! seeds 6 and 8, 100 ms). Level 6 on the patterns against level 6 on the hand-made evaluation:
//! 87.5% (35-0-5, 40 games, seed 5). With level 5 on the patterns too, 6 vs 5 fell to 73.1%
//! (58-1-21 in 80 games), which is why level 5 keeps the hand-made evaluation.
//!
//! Level 6 (and the NBoard engine) search with multi-ProbCut ([`ReversiEval::probcut`],
//! [`LEVEL6_PC_MODE`]): a node 3 plies or more from the leaves, off the principal variation, is
//! cut when a shallower search of the same parity (Zebra's pairs, [`ZEBRA_CUTS`]: 1 ply at 3
//! and 5, 2 at 4 and 6, ..., 4 then 6 at 10, two probes from there) lands beyond the window by
//! 3.5 discs + a quarter of a disc per ply ([`PROBCUT_MARGIN`]). They order moves 3 plies or more from the leaves by the pattern
//! evaluation after the move ([`LEVEL6_ORDER_DEPTH`]) and start new iterations until 70% of
//! the move's time is spent ([`LEVEL6_ITERATION_SHARE`]). Ordering by the opponent's mobility
//! ([`ReversiEval::order_mobility`], 8 a move) did not help: 47.5% against level 6 without it
//! (44-7-49, 100 games at 100 ms, seed 3). Neither did a gate on ProbCut's probes by the static
//! evaluation ([`ReversiEval::pc_gate`], 300: the upper probe only when the evaluation is at
//! most 3 discs plus a quarter a ply below beta, the lower one likewise above alpha, as Edax
//! does): 43-14-43, 50.0%, 100 games at 100 ms (seed 23, load 2.0-2.2), so it is off (0).
//! Level 6 with these changes against level 5: 38-1-1 in 40 games at 100 ms, 96.2% (2-4
//! random plies, seed 26, load 2.1-2.4). At 1 s a move against level 6 as it was before
//! ProbCut (`level=6,probcut=0,iter=45,orderdepth=0`): 62-4-22 in 88 games, 72.7%, Elo
//! +170 ± 81 (seeds 31 and 32, load 2.0-4.0).

pub mod endgame;
pub mod patterns;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::ai::endgame::{Solver, fast_mobility, stable_discs};
use crate::ai::patterns::PatternEval;
use crate::ai::{Ai, pick_best};
use crate::game::Game;
use crate::reversi::{Move, PASS, Reversi, flips, mobility};
use crate::search::{Evaluator, Frontier, Limits, SearchInfo, SearchResult, Searcher, hash_noise};

/// The classic square weights (report 003's kind of weight matrix), a1..h8.
pub const SQUARE_WEIGHTS: [i32; 64] = [
    100, -20, 10, 5, 5, 10, -20, 100, //
    -20, -50, -2, -2, -2, -2, -50, -20, //
    10, -2, -1, -1, -1, -1, -2, 10, //
    5, -2, -1, -1, -1, -1, -2, 5, //
    5, -2, -1, -1, -1, -1, -2, 5, //
    10, -2, -1, -1, -1, -1, -2, 10, //
    -20, -50, -2, -2, -2, -2, -50, -20, //
    100, -20, 10, 5, 5, 10, -20, 100, //
];

/// The squares grouped by weight, so that the positional sum is a few popcounts.
const WEIGHT_GROUPS: [(i32, u64); 8] = {
    const VALUES: [i32; 8] = [100, -20, 10, 5, -50, -2, -1, 0];
    let mut out = [(0i32, 0u64); 8];
    let mut i = 0;
    while i < 8 {
        let mut m = 0u64;
        let mut sq = 0;
        while sq < 64 {
            if SQUARE_WEIGHTS[sq] == VALUES[i] {
                m |= 1 << sq;
            }
            sq += 1;
        }
        out[i] = (VALUES[i], m);
        i += 1;
    }
    out
};

const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The squares in groups of equal [`SQUARE_WEIGHTS`], the best first: the order in which
/// [`ReversiEval::frontier`] tries the moves.
const ORDER_GROUPS: [u64; 7] = {
    const VALUES: [i32; 7] = [100, 10, 5, -1, -2, -20, -50];
    let mut out = [0u64; 7];
    let mut i = 0;
    while i < 7 {
        let mut sq = 0;
        while sq < 64 {
            if SQUARE_WEIGHTS[sq] == VALUES[i] {
                out[i] |= 1 << sq;
            }
            sq += 1;
        }
        i += 1;
    }
    out
};

/// X-squares (diagonally next to a corner) and their corners.
const X_SQUARES: [(u8, u8); 4] = [(9, 0), (14, 7), (49, 56), (54, 63)];

/// Weights of the Reversi evaluation. Scores are roughly hundredths of a disc.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReversiWeights {
    /// Multiplier of the square weight matrix.
    pub squares: i32,
    /// Per move of mobility, ours minus theirs.
    pub mobility: i32,
    /// Per empty square next to the opponent's discs minus next to ours (potential mobility).
    pub potential: i32,
    /// Per corner held.
    pub corner: i32,
    /// Per X-square held next to an empty corner (a penalty when positive).
    pub xsquare: i32,
    /// Per stable disc.
    pub stable: i32,
    /// Multiplier of the trained pattern evaluation ([`PatternEval`], hundredths of a disc).
    pub patterns: i32,
}

impl ReversiWeights {
    /// The weight matrix alone (the floor).
    pub const SQUARES: ReversiWeights = ReversiWeights {
        squares: 10,
        mobility: 0,
        potential: 0,
        corner: 0,
        xsquare: 0,
        stable: 0,
        patterns: 0,
    };
    /// The hand-made evaluation.
    pub const FULL: ReversiWeights = ReversiWeights {
        squares: 4,
        mobility: 60,
        potential: 20,
        corner: 300,
        xsquare: 150,
        stable: 60,
        patterns: 0,
    };
    /// The trained pattern evaluation alone.
    pub const PATTERNS: ReversiWeights = ReversiWeights {
        squares: 0,
        mobility: 0,
        potential: 0,
        corner: 0,
        xsquare: 0,
        stable: 0,
        patterns: 1,
    };
}

impl ReversiWeights {
    /// The evaluation of `p` to move against `o` (no noise), roughly hundredths of a disc;
    /// a finished game scores 1000 per disc of the final difference.
    pub fn evaluate(&self, p: u64, o: u64) -> i32 {
        let empty = !(p | o);
        let w = self;
        let mut s = 0;
        if w.squares != 0 {
            let mut sq = 0;
            for (v, m) in WEIGHT_GROUPS {
                sq += v * ((p & m).count_ones() as i32 - (o & m).count_ones() as i32);
            }
            s += w.squares * sq;
        }
        let mp = fast_mobility(p, o);
        let mo = fast_mobility(o, p);
        if mp == 0 && mo == 0 {
            // over: the disc difference, far above any positional score
            let d = crate::ai::endgame::final_score(p, o);
            return d * 1000;
        }
        if w.patterns != 0 {
            let mob = mp.count_ones() as i32 - mo.count_ones() as i32;
            s += w.patterns * PatternEval::trained().evaluate_mobility(p, o, mob);
        }
        if w.mobility != 0 {
            s += w.mobility * (mp.count_ones() as i32 - mo.count_ones() as i32);
        }
        if w.potential != 0 {
            s += w.potential
                * ((neighbours(o) & empty).count_ones() as i32
                    - (neighbours(p) & empty).count_ones() as i32);
        }
        if w.corner != 0 {
            s += w.corner * ((p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32);
        }
        if w.xsquare != 0 {
            for (x, c) in X_SQUARES {
                if empty & (1u64 << c) != 0 {
                    if p & (1u64 << x) != 0 {
                        s -= w.xsquare;
                    } else if o & (1u64 << x) != 0 {
                        s += w.xsquare;
                    }
                }
            }
        }
        if w.stable != 0 && (p | o) & CORNERS != 0 {
            s += w.stable
                * (stable_discs(p, o).count_ones() as i32 - stable_discs(o, p).count_ones() as i32);
        }
        s
    }
}

#[derive(Clone, Debug)]
pub struct ReversiEval {
    pub w: ReversiWeights,
    pub noise: i32,
    pub seed: u64,
    /// Move ordering: per move the opponent has after ours (corners twice), taken off the
    /// square weight (0: the square weight alone).
    pub order_mobility: i32,
    /// ProbCut: a node `depth` plies deep is cut when a search about half as deep is beyond
    /// the window by `probcut + 25 × depth` (hundredths of a disc; 0: no ProbCut).
    pub probcut: i32,
    /// ProbCut's gate ([`Evaluator::probcut_gate`]): `pc_gate + 25 × depth` (0: no gate).
    pub pc_gate: i32,
    /// ProbCut's shallow depths: 0, one probe about half as deep, from 4 plies; 1, Zebra's
    /// multi-ProbCut pairs ([`ZEBRA_CUTS`]: from 3 plies, two probes from 10).
    pub pc_mode: i32,
    /// Added to ProbCut's margin per ply between the deep and the shallow depth (hundredths).
    pub pc_gap: i32,
    /// Ordering by the pattern evaluation of the position after each move at nodes this many
    /// plies or more from the leaves (0: the square weights everywhere).
    pub order_depth: i32,
    /// Percent of the move's time after which no new iteration starts.
    pub iteration_share: i32,
    /// The most empties at which the endgame is solved exactly; above them, up to the level's
    /// [`solve_empties`], only win/loss/draw is solved (64: always exact).
    pub exact_empties: i32,
    /// Percent of the move's time for the midgame search made before a solve that may not
    /// finish (from 15 empties); the solve gets the rest.
    pub solve_share: i32,
    /// [`Evaluator::table_min_depth`]: the transposition table is used this many plies or more
    /// from the leaves.
    pub table_depth: i32,
    /// Nodes one ply above the leaves searched by [`Evaluator::frontier`] (without noise only).
    pub frontier: bool,
}

impl ReversiEval {
    pub fn new(w: ReversiWeights) -> ReversiEval {
        ReversiEval {
            w,
            noise: 0,
            seed: 0,
            order_mobility: 0,
            probcut: 0,
            pc_gate: 0,
            pc_mode: 0,
            pc_gap: 0,
            order_depth: 0,
            iteration_share: 45,
            exact_empties: 64,
            solve_share: 30,
            table_depth: 1,
            frontier: false,
        }
    }
}

/// Level 6's ProbCut margin base ([`ReversiEval::probcut`]). With 300, at 100 ms a move, level
/// 6 scored 65.5% against level 6 without ProbCut (61-9-30 in 100 games, 6 random opening
/// plies, seed 3, load 2.5-4.8); with 150, 58.0% (57-2-41, load 1-8.7); at 1 s a move, with 300
/// against without: 37-3-20 in 60 games, 64.2%, Elo +101 ± 92 (seed 5, load 8.7-2.3). With 450
/// against 300 (both with [`LEVEL6_ITERATION_SHARE`]): 52-5-43 in 100 games at 100 ms, 54.5%,
/// Elo +31 ± 67 (2-4 random plies, seed 24, load 1.9-2.1). Session 16 calibrated it
/// (`examples/reversi_probcut.rs`, 150 positions of the round-two data): a depth-D search lands
/// 2.5-3.9 discs (one standard deviation of the residual) from the probe's, so 450 cut only
/// beyond 1.7-2.2 deviations, and level 6 reached depth 10 in 650 ms where Zebra reaches 15.
/// Against Zebra at about 0.6 s a move (the same 40 openings as the README's row, seed 103):
/// 250 scored 15-5-20, 43.8%, and 150 16-1-23, 41.2% (load 2-5), where 450 had scored
/// 13-1-26, 33.8% with the build before session 16's faster `Reversi::make` (load 4.5-6). With 250, `bench reversi --depth 12` needs 1.30 M nodes instead of 2.87 M.
/// Session 22, with the faster search of [`LEVEL6_FRONTIER`] (equal time against Zebra, the
/// README's row): 250 scored 17-2-21 (seed 119), 350 55-12-53 in 120 games (seeds 120-122,
/// 50.8%); 350 against 250 in self-play at 300 ms a move 45-6-49 (seeds 2207 and 2208, load
/// about 3). So the margin is 350 now.
pub const PROBCUT_MARGIN: i32 = 350;

/// Level 6's ProbCut pairs ([`ReversiEval::pc_mode`]): Zebra's multi-ProbCut table
/// ([`ZEBRA_CUTS`]), probing from 3 plies and twice from 10, with the same margins. Against the
/// half-depth probe from 4 plies (session 17, round-three weights, 6 random opening plies): at
/// 100 ms a move 52-5-43 (seed 401) and 50-5-45 (seed 402), at 400 ms 32-3-25 in 60 games
/// (seed 403): 134-13-113 in 260 games, 54.0%, Elo about +28 (load 3.4-5.9, two
/// `reversi_patterns gen` processes and a helper's builds beside them).
pub const LEVEL6_PC_MODE: i32 = 1;

/// Zebra's multi-ProbCut pairs (its `init_probcut`): the shallow depths tried in turn at a
/// node `depth` plies from the leaves, of the same parity, the cheaper first.
pub const ZEBRA_CUTS: [&[i32]; 13] = [
    &[],
    &[],
    &[],
    &[1],
    &[2],
    &[1],
    &[2],
    &[3],
    &[4],
    &[3],
    &[4, 6],
    &[3, 5],
    &[4, 6],
];

/// The shallow depths of [`ZEBRA_CUTS`] at `depth`; beyond its table 5 and 7 for odd depths,
/// 6 and 8 for even ones (Zebra's pairs from 13 to 18 plies).
fn zebra_cuts(depth: i32) -> &'static [i32] {
    match depth {
        d if d < 0 => &[],
        d if (d as usize) < ZEBRA_CUTS.len() => ZEBRA_CUTS[d as usize],
        d if d % 2 == 1 => &[5, 7],
        _ => &[6, 8],
    }
}

/// Level 6's share of the move's time (percent) after which it starts no new iteration (45
/// for the other levels and games). Each iteration's first move is the last one's best, so a
/// cut iteration still returns a move at least as well searched. Level 6 with 70 against 45:
/// 53-6-41 in 100 games at 100 ms, 56.0%, Elo +42 ± 67 (2-4 random plies, seed 21, load
/// 2.3-3.0); its average time a move (endgame included) rose from 0.05 to 0.07 s.
pub const LEVEL6_ITERATION_SHARE: i32 = 70;

/// The most empties at which level 6 solves exactly ([`ReversiEval::exact_empties`]); from
/// there up to [`solve_empties`] (24) it would solve win/loss/draw only. 64: always exact.
/// Session 18 measured `exact=20` (win/loss/draw from 21 to 24 empties) with
/// `examples/reversi_endplay.rs` at 1 s a move on 60 positions of 21-24 empties from games
/// against Zebra (load about 5): of the 36 won or drawn positions both settings kept the
/// outcome in 35 (the exact solve that does not finish falls back on a midgame search whose
/// move is nearly always right there); against Zebra on the same 40 openings (seed 103) it
/// scored no better (the README's Zebra row). So the exact solve stays.
pub const LEVEL6_EXACT_EMPTIES: i32 = 64;

/// Level 6's share of the move's time (percent) for the midgame search before a solve that
/// may not finish ([`ReversiEval::solve_share`]).
pub const LEVEL6_SOLVE_SHARE: i32 = 30;

/// Level 6 searches the nodes above the leaves by [`ReversiEval::frontier`] and uses the table
/// from 3 plies above them ([`ReversiEval::table_depth`]). `bench reversi --depth 14
/// --positions 16`: 8.94 M nodes in 1.35-1.40 s before, 8.17 M in 0.75 s after (load 2-3); in
/// 600 ms, 20 random positions 12 plies in: mean depth 16.7 before, 17.1 after; 24 plies in
/// 17.7 and 19.1. Against level 6 without them: 100-15-85 at 100 ms a move (without the
/// killers), 45-18-37 at 300 ms, 146-18-136 at 100 ms: 291-51-258 in 600 games, 52.8%.
pub const LEVEL6_FRONTIER: bool = true;
pub const LEVEL6_TABLE_DEPTH: i32 = 3;

/// Level 6 orders the moves by the pattern evaluation of the position after them at nodes 3
/// plies or more from the leaves ([`ReversiEval::order_depth`]): 50-6-44 in 100 games at
/// 100 ms against square-weight ordering, 53.0%, Elo +21 ± 67 (seed 22, load 2.2-3.0).
pub const LEVEL6_ORDER_DEPTH: i32 = 3;

impl Default for ReversiEval {
    /// The strongest evaluation: the trained patterns, searched with ProbCut.
    fn default() -> ReversiEval {
        ReversiEval {
            probcut: PROBCUT_MARGIN,
            pc_mode: LEVEL6_PC_MODE,
            order_depth: LEVEL6_ORDER_DEPTH,
            iteration_share: LEVEL6_ITERATION_SHARE,
            exact_empties: LEVEL6_EXACT_EMPTIES,
            solve_share: LEVEL6_SOLVE_SHARE,
            frontier: LEVEL6_FRONTIER,
            table_depth: LEVEL6_TABLE_DEPTH,
            ..ReversiEval::new(ReversiWeights::PATTERNS)
        }
    }
}

#[inline(always)]
fn neighbours(bb: u64) -> u64 {
    const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
    const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let row = ((bb << 1) & NOT_A) | ((bb >> 1) & NOT_H);
    let all = bb | row;
    row | (all << 8) | (all >> 8)
}

impl Evaluator for ReversiEval {
    type G = Reversi;

    fn noise(&self) -> i32 {
        self.noise
    }

    fn evaluate(&self, pos: &Reversi) -> i32 {
        self.w.evaluate(pos.own(), pos.opp()) + hash_noise(pos.hash(), self.seed, self.noise)
    }

    #[inline]
    fn move_order(&self, pos: &Reversi, mv: Move) -> i32 {
        if mv == PASS {
            0
        } else if self.order_mobility != 0 {
            let (p, o) = (pos.own(), pos.opp());
            let f = flips(p, o, mv);
            let m = mobility(o & !f, p | f | (1u64 << mv));
            SQUARE_WEIGHTS[mv as usize]
                - self.order_mobility * (m.count_ones() + (m & CORNERS).count_ones()) as i32
        } else {
            SQUARE_WEIGHTS[mv as usize]
        }
    }

    #[inline]
    fn move_order_at(&self, pos: &Reversi, mv: Move, depth: i32) -> i32 {
        if self.order_depth > 0 && depth >= self.order_depth && mv != PASS {
            let (p, o) = (pos.own(), pos.opp());
            let f = flips(p, o, mv);
            let (np, no) = (o & !f, p | f | (1u64 << mv));
            // the opponent's view after the move, turned round
            (-self.w.evaluate(np, no)).clamp(-30_000, 30_000)
        } else {
            self.move_order(pos, mv)
        }
    }

    fn table_min_depth(&self) -> i32 {
        self.table_depth
    }

    /// The moves in the order of their square weights, each child evaluated straight from
    /// the boards; a cut as soon as one reaches `beta`. Below `beta` the value is the generic
    /// node's, the best child's; at or above it, a child's value that reaches `beta` (tested).
    /// A pass, an over game or noise (which needs each child's hash) go to the generic search.
    #[inline]
    fn frontier(
        &self,
        pos: &Reversi,
        beta: i32,
        killers: &[Option<Move>; 2],
    ) -> Option<Frontier<Move>> {
        if !self.frontier || self.noise != 0 {
            return None;
        }
        let (p, o) = (pos.own(), pos.opp());
        let moves = pos.moves_bb();
        if moves == 0 {
            return None;
        }
        // the child, from the opponent's view, turned round
        let child = |sq: u8| {
            let f = crate::ai::endgame::flips(p, o, sq);
            -self.w.evaluate(o & !f, p | f | (1u64 << sq))
        };
        // the killers that are legal here, then the other moves by square weight
        let legal = |k: &Move| *k != PASS && moves & (1u64 << k) != 0;
        let first = [
            killers[0].filter(legal),
            killers[1].filter(|k| legal(k) && killers[0] != Some(*k)),
        ];
        let rest = first.iter().flatten().fold(moves, |m, &k| m & !(1u64 << k));
        let others = ORDER_GROUPS.iter().flat_map(|&group| {
            let mut m = rest & group;
            std::iter::from_fn(move || {
                (m != 0).then(|| {
                    let sq = m.trailing_zeros() as u8;
                    m &= m - 1;
                    sq
                })
            })
        });
        let mut best = -crate::search::INF;
        let mut nodes = 0;
        for sq in first.into_iter().flatten().chain(others) {
            nodes += 1;
            let s = child(sq);
            if s > best {
                best = s;
                if s >= beta {
                    return Some((best, nodes, Some(sq)));
                }
            }
        }
        Some((best, nodes, None))
    }

    fn iteration_share(&self) -> f64 {
        self.iteration_share as f64 / 100.0
    }

    fn probcut_gate(&self, depth: i32) -> Option<i32> {
        (self.pc_gate > 0).then_some(self.pc_gate + 25 * depth)
    }

    fn probcut(&self, depth: i32) -> Option<(i32, i32)> {
        self.probcut_try(depth, 0)
    }

    fn probcut_try(&self, depth: i32, k: usize) -> Option<(i32, i32)> {
        if self.probcut == 0 {
            return None;
        }
        let d = if self.pc_mode == 1 {
            *zebra_cuts(depth).get(k)?
        } else {
            if depth < 4 || k > 0 {
                return None;
            }
            // a shallow depth of the same parity (the evaluation swings with the side to move)
            let mut d = depth / 2;
            if d % 2 != depth % 2 {
                d -= 1;
            }
            d.max(1)
        };
        Some((d, self.probcut + 25 * depth + self.pc_gap * (depth - d)))
    }

    #[inline]
    fn move_key(&self, mv: Move) -> usize {
        mv as usize
    }

    fn move_keys(&self) -> usize {
        65
    }

    fn terminal(&self, pos: &Reversi, _outcome: crate::game::Outcome) -> i32 {
        // a decided game, scored so that bigger wins are preferred
        let d = crate::ai::endgame::final_score(pos.own(), pos.opp());
        match d.cmp(&0) {
            std::cmp::Ordering::Greater => crate::search::MATE - 100 + d,
            std::cmp::Ordering::Less => -crate::search::MATE + 100 + d,
            std::cmp::Ordering::Equal => 0,
        }
    }
}

/// Empty squares on the board.
pub fn empties(pos: &Reversi) -> u32 {
    64 - (pos.discs[0] | pos.discs[1]).count_ones()
}

/// Positions with this many empties or fewer are solved in full whatever the move time (a few
/// thousand nodes).
const ALWAYS_SOLVE: u32 = 10;

/// The most empties at which a level solves the endgame exactly.
pub fn solve_empties(level: u8) -> u32 {
    match level {
        0..=2 => 0,
        3 => 8,
        4 => 12,
        5 => 16,
        _ => 24,
    }
}

impl Ai for Reversi {
    type Eval = ReversiEval;

    fn eval_for_level(level: u8, seed: u64) -> ReversiEval {
        let (w, noise) = match level {
            0..=2 => (ReversiWeights::SQUARES, 5),
            3 | 4 => (ReversiWeights::FULL, 10),
            5 => (ReversiWeights::FULL, 0),
            _ => (ReversiWeights::PATTERNS, 0),
        };
        ReversiEval {
            w,
            noise,
            seed,
            probcut: if level >= 6 { PROBCUT_MARGIN } else { 0 },
            pc_mode: if level >= 6 { LEVEL6_PC_MODE } else { 0 },
            order_depth: if level >= 6 { LEVEL6_ORDER_DEPTH } else { 0 },
            iteration_share: if level >= 6 {
                LEVEL6_ITERATION_SHARE
            } else {
                45
            },
            exact_empties: if level >= 6 { LEVEL6_EXACT_EMPTIES } else { 64 },
            solve_share: if level >= 6 { LEVEL6_SOLVE_SHARE } else { 30 },
            frontier: level >= 6 && LEVEL6_FRONTIER,
            table_depth: if level >= 6 { LEVEL6_TABLE_DEPTH } else { 1 },
            ..ReversiEval::new(w)
        }
    }

    fn limits_for_level(level: u8, movetime: Duration) -> Limits {
        // level 5 at depth 8 was no weaker than level 6 at 100 ms/move (47.5%): it gets a
        // quarter of the time instead
        let (depth, share) = match level {
            0..=2 => (Some(3), 1.0),
            3 => (Some(4), 1.0),
            4 => (Some(6), 1.0),
            5 => (None, 0.25),
            _ => (None, 1.0),
        };
        Limits {
            time: Some(movetime.mul_f64(share)),
            depth,
            nodes: None,
        }
    }

    /// Most discs turned now (ties broken by `seed`).
    fn greedy_move(&self, seed: u64) -> Option<Move> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        let (p, o) = (self.own(), self.opp());
        pick_best(
            &moves,
            |m| {
                if m == PASS {
                    0
                } else {
                    flips(p, o, m).count_ones() as i32
                }
            },
            seed,
        )
    }

    fn search_at_level(
        searcher: &mut Searcher<ReversiEval>,
        pos: &Reversi,
        level: u8,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult<Move> {
        let e = empties(pos);
        if e > solve_empties(level) {
            return searcher.search(pos, limits, stop, on_info);
        }
        let start = Instant::now();
        let budget = limits
            .time
            .unwrap_or(Duration::from_secs(3600))
            .min(crate::search::MAX_TIME);
        // a quick midgame search first when the solve may not finish in time
        let fallback = if e > 14 {
            let share = searcher.eval.solve_share.clamp(1, 100) as f64 / 100.0;
            let l = Limits {
                time: Some(budget.mul_f64(share)),
                ..limits.clone()
            };
            Some(searcher.search(pos, &l, stop, on_info))
        } else {
            None
        };
        // up to ALWAYS_SOLVE empties the solve takes about a millisecond: it runs in full (only
        // the stop flag ends it), so that a thread starved on a busy machine still gets the
        // exact score, and a small table will do
        let small = e <= ALWAYS_SOLVE;
        let wld = e as i32 > searcher.eval.exact_empties;
        let mut solver = Solver::new(if small { 1 } else { 16 });
        let deadline = (!small).then(|| crate::search::deadline_after(start, budget));
        let solved = if wld {
            solver.solve_wld(pos, Some(stop), deadline)
        } else {
            solver.solve(pos, Some(stop), deadline)
        };
        match solved {
            Some(sol) => {
                let elapsed = start.elapsed();
                let (best, score) = match (wld, &fallback) {
                    (false, _) => (sol.best, sol.score * 100),
                    // lost: the midgame search's move, which keeps the most chances
                    (true, Some(f)) if sol.score < 0 => (f.best, f.score.min(-100)),
                    (true, Some(f)) if sol.score > 0 => (sol.best, f.score.max(100)),
                    (true, _) => (sol.best, sol.score * 100),
                };
                let info = SearchInfo {
                    depth: e,
                    score,
                    nodes: solver.nodes,
                    nps: (solver.nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
                    pv: best.iter().map(|&m| pos.move_to_text(m)).collect(),
                    elapsed,
                    solved: if wld {
                        crate::search::Solved::WinLossDraw
                    } else {
                        crate::search::Solved::Exact
                    },
                };
                on_info(&info);
                SearchResult { best, score, info }
            }
            None => match fallback {
                Some(r) => r,
                None => searcher.search(pos, &Limits::nodes(2000), stop, on_info),
            },
        }
    }
}

impl crate::engine::matches::Tunable for Reversi {
    fn tune(eval: &mut ReversiEval, key: &str, value: i32) -> Result<(), String> {
        let w = &mut eval.w;
        match key {
            "squares" => w.squares = value,
            "mobility" => w.mobility = value,
            "potential" => w.potential = value,
            "corner" => w.corner = value,
            "xsquare" => w.xsquare = value,
            "stable" => w.stable = value,
            "patterns" => w.patterns = value,
            "noise" => eval.noise = value,
            "order" => eval.order_mobility = value,
            "probcut" => eval.probcut = value,
            "pcgate" => eval.pc_gate = value,
            "pcmode" => eval.pc_mode = value,
            "pcgap" => eval.pc_gap = value,
            "orderdepth" => eval.order_depth = value,
            "iter" => eval.iteration_share = value.clamp(1, 100),
            "exact" => eval.exact_empties = value,
            "solveshare" => eval.solve_share = value.clamp(1, 100),
            "ttdepth" => eval.table_depth = value.max(1),
            "frontier" => eval.frontier = value != 0,
            _ => {
                return Err(format!(
                    "unknown Reversi setting '{key}' (squares, mobility, potential, corner, \
                     xsquare, stable, patterns, noise, order, probcut, pcgate, pcmode, pcgap, orderdepth, \
                     iter, exact, solveshare, ttdepth, frontier)"
                ));
            }
        }
        Ok(())
    }
}
