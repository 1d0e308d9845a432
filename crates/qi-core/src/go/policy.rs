//! Move choice without search: the playout policy of the dead-stone estimate, and the interim
//! `genmove` policy of `qi-engine gtp` until the Monte Carlo search of the Go AI replaces it.

use super::score::rand_below;
use super::{Bits, Go, Move, PASS, neighbors};
use crate::game::{Game, Side};

/// Whether `p` is an empty point whose every neighbour is a stone of `side` and that the
/// opponent does not hold diagonally enough to make it false (one diagonal inside the board,
/// none on the edge): filling it would waste one of the group's eyes.
pub fn is_eye_like(g: &Go, p: usize, side: Side) -> bool {
    g.is_empty_point(p) && super::shape::is_eye(&g.color, p, super::stone(side))
}

impl Go {
    /// Liberties the side to move's chain through `p` would have after playing there: the empty
    /// neighbours, the other liberties of the chains it joins, and the neighbours it captures.
    pub fn liberties_after(&self, p: usize) -> u32 {
        let me = super::stone(self.side);
        let opp = super::stone(self.side.other());
        let mut libs = Bits::default();
        for q in neighbors(p) {
            let c = self.color[q];
            if c == super::EMPTY {
                libs.set(q);
            } else if c == me {
                libs.or(&self.libs[self.head[q] as usize]);
            } else if c == opp && self.libs[self.head[q] as usize].is_single() {
                // the captured stone next to p becomes a liberty
                libs.set(q);
            }
        }
        libs.clear(p);
        libs.count()
    }
}

/// One playout move: capture the chain the last move left in atari, save an own chain it put in
/// atari, otherwise a random legal move that fills no own eye; a pass when none is left.
pub(super) fn playout_move(g: &Go, last: Move, empties: &mut [usize], state: &mut u64) -> Move {
    let side = g.side_to_move();
    if last != PASS {
        let lp = last as usize;
        // the last stone's own chain, and own chains next to it
        let mut around = [lp, 0, 0, 0, 0];
        for (i, q) in neighbors(lp).into_iter().enumerate() {
            around[i + 1] = q;
        }
        for &q in &around {
            if g.stone_at(q).is_none() || !g.in_atari(q) {
                continue;
            }
            let lib = g.libs[g.head[q] as usize]
                .iter()
                .next()
                .expect("a chain in atari has a liberty");
            if g.stone_at(q) == Some(side) {
                if g.is_legal_point(lib) && g.liberties_after(lib) >= 2 {
                    return lib as Move;
                }
            } else if g.is_legal_point(lib) {
                return lib as Move;
            }
        }
    }
    let n = empties.len();
    if n == 0 {
        return PASS;
    }
    let start = rand_below(state, n);
    for k in 0..n {
        let p = empties[(start + k) % n];
        if g.is_legal_point(p) && !is_eye_like(g, p, side) {
            // a big self-atari is almost never right
            if g.liberties_after(p) <= 1 && g.capture_count(p) == 0 {
                let joins = neighbors(p)
                    .into_iter()
                    .any(|q| g.stone_at(q) == Some(side));
                if joins {
                    continue;
                }
            }
            return p as Move;
        }
    }
    PASS
}

/// The interim `genmove` policy: no search, a few rules in order. It will be replaced by the Go
/// AI's Monte Carlo tree search.
///
/// 1. Pass when the game is over, or when the opponent has just passed and the area score with
///    the estimated dead stones says the side to move wins.
/// 2. Capture: the move taking the most stones.
/// 3. Escape: extend the biggest own chain in atari when that gives it two liberties or more.
/// 4. Atari: put the biggest opponent chain with two liberties in atari without self-atari.
/// 5. Otherwise a random legal move that fills no own eye, is no self-atari and lies where
///    ownership is still open (random playouts), avoiding the first line while others exist.
/// 6. Pass when nothing is left.
#[derive(Clone, Debug)]
pub struct InterimPolicy {
    state: u64,
}

impl InterimPolicy {
    pub fn new(seed: u64) -> InterimPolicy {
        InterimPolicy { state: seed }
    }

    pub fn choose(&mut self, g: &Go) -> Move {
        if g.is_over() {
            return PASS;
        }
        let side = g.side_to_move();
        let sign = if side == Side::Black { 1.0 } else { -1.0 };
        if g.consecutive_passes() >= 1 {
            let dead = g.estimate_dead_with(64, self.state);
            if sign * g.score_with_dead(&dead).margin() > 0.0 {
                return PASS;
            }
        }
        let cands: Vec<usize> = g
            .points()
            .filter(|&p| g.is_legal_point(p) && !is_eye_like(g, p, side))
            .collect();
        if cands.is_empty() {
            return PASS;
        }
        // 2. captures
        if let Some(&p) = cands
            .iter()
            .filter(|&&p| g.capture_count(p) > 0)
            .max_by_key(|&&p| g.capture_count(p))
        {
            return p as Move;
        }
        // 3. escapes
        let mut best: Option<(u32, usize)> = None;
        for p in g.points() {
            if g.stone_at(p) == Some(side) && g.in_atari(p) {
                let lib = g.liberty_points(p)[0];
                if cands.contains(&lib) && g.liberties_after(lib) >= 2 {
                    let size = g.chain_size(p);
                    if best.is_none_or(|(s, _)| size > s) {
                        best = Some((size, lib));
                    }
                }
            }
        }
        if let Some((_, p)) = best {
            return p as Move;
        }
        let n = g.size() as usize;
        let own = g.playout_ownership(24, self.state ^ g.hash());
        let open = |p: usize| {
            let i = (p / super::STRIDE - 1) * n + (p % super::STRIDE - 1);
            own[i].abs() < 0.85
        };
        // 4. ataris
        let mut best: Option<(u32, usize)> = None;
        for &p in &cands {
            if !open(p) || g.liberties_after(p) < 2 {
                continue;
            }
            for q in neighbors(p) {
                if g.stone_at(q) == Some(side.other()) && g.liberties(q) == 2 {
                    let size = g.chain_size(q);
                    if best.is_none_or(|(s, _)| size > s) {
                        best = Some((size, p));
                    }
                }
            }
        }
        if let Some((_, p)) = best {
            return p as Move;
        }
        // 5. a random open move, off the first line if possible
        let quiet: Vec<usize> = cands
            .iter()
            .copied()
            .filter(|&p| open(p) && g.liberties_after(p) >= 2)
            .collect();
        let inner: Vec<usize> = quiet
            .iter()
            .copied()
            .filter(|&p| {
                let sq = Go::square_of(p as Move).expect("a point");
                sq.x > 0 && sq.y > 0 && sq.x + 1 < g.size() && sq.y + 1 < g.size()
            })
            .collect();
        let pool = if inner.is_empty() { &quiet } else { &inner };
        if pool.is_empty() {
            return PASS;
        }
        pool[rand_below(&mut self.state, pool.len())] as Move
    }
}
