//! The shallow searches that order moves far from the end (and give the first guess).

use super::*;

/// A cheap evaluation for move ordering: mobility, corner mobility, corners and potential
/// mobility, side to move's view.
#[inline(always)]
pub(super) fn sort_eval(p: u64, o: u64) -> i32 {
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

/// A shallow alpha-beta with [`sort_eval`] at the leaves.
pub(super) fn sort_search(p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
    shallow_search(p, o, depth, alpha, beta, sort_eval)
}

/// [`sort_search`] with the midgame evaluation at the leaves.
pub(super) fn sort_search_full(p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
    shallow_search(p, o, depth, alpha, beta, |p, o| {
        crate::ai::reversi::ReversiWeights::FULL.evaluate(p, o)
    })
}

/// What an ordering search evaluates its leaves with, carried down the moves: a function of
/// the boards (any `Fn(u64, u64) -> i32`, unchanged by moves), or the pattern evaluation with
/// its instance indices kept up to date ([`Incremental`]).
pub(super) trait Leaf: Copy {
    /// After the side to move plays `sq`, flipping `flips`.
    fn play(&self, sq: u8, flips: u64) -> Self;
    /// After the side to move passes.
    fn pass(&self) -> Self;
    /// The value for `p` to move against `o` (`AVX`: the AVX2 routines may be used).
    fn value<const AVX: u8>(&self, p: u64, o: u64) -> i32;
}

impl<F: Fn(u64, u64) -> i32 + Copy> Leaf for F {
    #[inline(always)]
    fn play(&self, _sq: u8, _flips: u64) -> Self {
        *self
    }
    #[inline(always)]
    fn pass(&self) -> Self {
        *self
    }
    #[inline(always)]
    fn value<const AVX: u8>(&self, p: u64, o: u64) -> i32 {
        self(p, o)
    }
}

/// The pattern evaluation `eval` with its instance indices kept up to date move by move
/// ([`Features`]: `f` those of the position, whose side to move is the features' first side
/// when `first`) instead of read from the boards at each leaf: the same values as
/// `|p, o| eval.evaluate(p, o)`, for about half of the evaluation's work.
#[derive(Clone, Copy)]
pub(super) struct Incremental<'a> {
    pub(super) f: Features,
    pub(super) first: bool,
    pub(super) eval: &'a PatternEval,
}

impl Leaf for Incremental<'_> {
    #[inline(always)]
    fn play(&self, sq: u8, flips: u64) -> Self {
        Incremental {
            f: self.f.play(sq, flips, self.first),
            first: !self.first,
            eval: self.eval,
        }
    }
    #[inline(always)]
    fn pass(&self) -> Self {
        Incremental {
            first: !self.first,
            ..*self
        }
    }
    #[inline(always)]
    fn value<const AVX: u8>(&self, p: u64, o: u64) -> i32 {
        let mob =
            moves_g::<AVX>(p, o).count_ones() as i32 - moves_g::<AVX>(o, p).count_ones() as i32;
        let empties = 64 - (p | o).count_ones();
        if self.first {
            self.eval.evaluate_indices(&self.f.idx, empties, mob)
        } else {
            self.eval.evaluate_indices(&self.f.swapped(), empties, mob)
        }
    }
}

/// A shallow alpha-beta for move ordering with `leaf` at depth 0 (finished games score their
/// disc difference × 1000), with the AVX2 routines where the processor has them.
pub(super) fn shallow_search(
    p: u64,
    o: u64,
    depth: u32,
    alpha: i32,
    beta: i32,
    leaf: impl Leaf,
) -> i32 {
    match simd::level() {
        simd::AVX512 => shallow_search_d::<{ simd::AVX512 }>(p, o, depth, alpha, beta, leaf),
        simd::AVX2 => shallow_search_d::<{ simd::AVX2 }>(p, o, depth, alpha, beta, leaf),
        _ => shallow_search_d::<{ simd::SCALAR }>(p, o, depth, alpha, beta, leaf),
    }
}

/// [`shallow_search`] with the routines chosen (`AVX` only where the processor has AVX2).
#[inline(always)]
pub(super) fn shallow_search_d<const AVX: u8>(
    p: u64,
    o: u64,
    depth: u32,
    alpha: i32,
    beta: i32,
    leaf: impl Leaf,
) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if AVX == simd::AVX512 {
        // SAFETY: the AVX-512 build only runs where the processor has it
        return unsafe { shallow_search_avx512(p, o, depth, alpha, beta, leaf) };
    }
    #[cfg(target_arch = "x86_64")]
    if AVX == simd::AVX2 {
        // SAFETY: the AVX2 build only runs where the processor has AVX2
        return unsafe { shallow_search_avx2(p, o, depth, alpha, beta, leaf) };
    }
    shallow_search_scalar(p, o, depth, alpha, beta, leaf)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd,avx512bw,bmi1,bmi2,lzcnt")]
fn shallow_search_avx512(
    p: u64,
    o: u64,
    depth: u32,
    alpha: i32,
    beta: i32,
    leaf: impl Leaf,
) -> i32 {
    shallow_search_g::<{ simd::AVX512 }>(p, o, depth, alpha, beta, leaf)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn shallow_search_avx2(p: u64, o: u64, depth: u32, alpha: i32, beta: i32, leaf: impl Leaf) -> i32 {
    shallow_search_g::<{ simd::AVX2 }>(p, o, depth, alpha, beta, leaf)
}

#[inline(never)]
fn shallow_search_scalar(
    p: u64,
    o: u64,
    depth: u32,
    alpha: i32,
    beta: i32,
    leaf: impl Leaf,
) -> i32 {
    shallow_search_g::<{ simd::SCALAR }>(p, o, depth, alpha, beta, leaf)
}

#[inline(always)]
fn shallow_search_g<const AVX: u8>(
    p: u64,
    o: u64,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    leaf: impl Leaf,
) -> i32 {
    if depth == 0 {
        return leaf.value::<AVX>(p, o);
    }
    let mut moves = moves_g::<AVX>(p, o);
    if moves == 0 {
        if moves_g::<AVX>(o, p) == 0 {
            return final_score(p, o) * 1000;
        }
        return -shallow_search_d::<AVX>(o, p, depth - 1, -beta, -alpha, leaf.pass());
    }
    let mut best = -INF_SORT;
    // a child's value into `best` and `alpha`; true when it cuts
    let mut child = |sq: u8, f: u64| -> bool {
        let s = -shallow_search_d::<AVX>(
            o & !f,
            p | f | (1u64 << sq),
            depth - 1,
            -beta,
            -alpha,
            leaf.play(sq, f),
        );
        if s > best {
            best = s;
            if s > alpha {
                alpha = s;
                return s >= beta;
            }
        }
        false
    };
    if depth >= 2 {
        // fastest first (the opponent's mobility after the move, corners twice): the window
        // closes sooner on the replies to the later moves
        let mut list = [(0i32, 0u8, 0u64); 36];
        let mut n = 0;
        while moves != 0 {
            let sq = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let f = flips_g::<AVX>(p, o, sq);
            let m = moves_g::<AVX>(o & !f, p | f | (1u64 << sq));
            list[n] = (
                -((m.count_ones() + (m & CORNERS).count_ones()) as i32),
                sq,
                f,
            );
            n += 1;
        }
        for i in 0..n {
            // the best by conditional moves, not a branch per move
            let (mut b, mut top) = (i, list[i].0);
            for (j, c) in list[..n].iter().enumerate().skip(i + 1) {
                let better = c.0 > top;
                b = if better { j } else { b };
                top = if better { c.0 } else { top };
            }
            list.swap(i, b);
            let (_, sq, f) = list[i];
            if child(sq, f) {
                break;
            }
        }
    } else {
        while moves != 0 {
            let sq = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            if child(sq, flips_g::<AVX>(p, o, sq)) {
                break;
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    /// Plain negamax to `depth` with the ordering searches' conventions (passes, finished games
    /// at 1000 a disc), no pruning.
    fn negamax(p: u64, o: u64, depth: u32, leaf: &impl Fn(u64, u64) -> i32) -> i32 {
        if depth == 0 {
            return leaf(p, o);
        }
        let moves = crate::reversi::mobility(p, o);
        if moves == 0 {
            if crate::reversi::mobility(o, p) == 0 {
                return final_score(p, o) * 1000;
            }
            return -negamax(o, p, depth - 1, leaf);
        }
        let mut best = -INF_SORT;
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros() as u8;
            m &= m - 1;
            let f = crate::reversi::flips(p, o, sq);
            best = best.max(-negamax(o & !f, p | f | (1u64 << sq), depth - 1, leaf));
        }
        best
    }

    /// The ordering searches (fastest first from 2 plies) give the value of a plain negamax
    /// within their window, and a bound on the right side outside it, at 0-3 plies, with and
    /// without AVX2.
    #[test]
    fn shallow_search_equals_negamax() {
        let eval = PatternEval::round_one();
        let leaf = |p: u64, o: u64| eval.evaluate(p, o);
        let mut checked = 0;
        for seed in 0..60u64 {
            let mut rng = crate::search::Rng::new(seed + 77);
            let mut pos = crate::reversi::Reversi::start();
            let mut v = Vec::new();
            let plies = 20 + rng.below(30);
            for _ in 0..plies {
                pos.legal_moves(&mut v);
                if v.is_empty() {
                    break;
                }
                pos.make(v[rng.below(v.len() as u64) as usize]);
            }
            let (p, o) = (pos.own(), pos.opp());
            for depth in 0..=3 {
                let want = negamax(p, o, depth, &leaf);
                for level in simd::SCALAR..=simd::level() {
                    let search = |a: i32, b: i32| match level {
                        simd::AVX512 => {
                            shallow_search_d::<{ simd::AVX512 }>(p, o, depth, a, b, leaf)
                        }
                        simd::AVX2 => shallow_search_d::<{ simd::AVX2 }>(p, o, depth, a, b, leaf),
                        _ => shallow_search_d::<{ simd::SCALAR }>(p, o, depth, a, b, leaf),
                    };
                    assert_eq!(
                        search(-INF_SORT, INF_SORT),
                        want,
                        "seed {seed} depth {depth}"
                    );
                    let (a, b) = (want - 150, want + 50);
                    assert_eq!(search(a, b), want, "seed {seed} depth {depth}");
                    // failing low, an upper bound at most alpha; failing high, a lower bound
                    let s = search(want + 1, want + 200);
                    assert!(want <= s && s <= want + 1, "seed {seed} depth {depth}");
                    let s = search(want - 200, want - 1);
                    assert!(want - 1 <= s && s <= want, "seed {seed} depth {depth}");
                }
                checked += 1;
            }
        }
        assert!(checked > 200);
    }
}
