//! The search near the end: 6 and 5 empties by a list of empty squares in parity order, then
//! functions with the squares unrolled for 4, 3 and 2 empties, and the last move by counting.

use super::*;

/// `list` without its entry `i`, the later ones moved down (the list taken as one word).
#[inline(always)]
pub(super) fn remove_at(list: &[u8; 8], i: usize) -> [u8; 8] {
    let w = u64::from_le_bytes(*list);
    let low = w & ((1u64 << (8 * i)) - 1);
    let high = (w >> (8 * i)) >> 8;
    (low | (high << (8 * i))).to_le_bytes()
}

/// The empty squares in square-priority order, and their parity (a bit per quadrant with an
/// odd number of empties). The list is built in one word (a byte a square): written byte by
/// byte, its first read as a word by [`remove_at`] waited for the bytes' stores.
#[inline(always)]
pub(super) fn empty_list(empty: u64) -> ([u8; 8], usize, u8) {
    let mut list = 0u64;
    let mut n = 0;
    let mut parity = 0u8;
    let mut add = |mut b: u64| {
        while b != 0 {
            let sq = b.trailing_zeros();
            b &= b - 1;
            list |= (sq as u64) << (8 * n);
            parity ^= QUADRANT_ID[sq as usize];
            n += 1;
        }
    };
    for m in PRIORITY_MASKS {
        add(empty & m);
    }
    add(empty & !PRIORITY_MASKS.iter().fold(0, |a, m| a | m));
    (list.to_le_bytes(), n, parity)
}

/// `PARITY_ORDER[m]`: the indices 0-7 with those whose bit is set in `m` first, each group in
/// increasing order: with `m` the squares of a list of `n` empties in odd quadrants, its first
/// `n` entries are the list's order, odd quadrants first (the indices from `n` on, with their
/// bits clear, come last).
const PARITY_ORDER: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut m = 0;
    while m < 256 {
        let mut k = 0;
        let mut pass = 0;
        while pass < 2 {
            let mut i = 0;
            while i < 8 {
                if (m >> i & 1 == 1) == (pass == 0) {
                    t[m][k] = i as u8;
                    k += 1;
                }
                i += 1;
            }
            pass += 1;
        }
        m += 1;
    }
    t
};

/// The entries of `list[..n]` in quadrants of odd parity (`parity`), a bit each.
#[inline(always)]
fn odd_mask(list: &[u8; 8], n: usize, parity: u8) -> usize {
    let mut m = 0;
    for (k, &sq) in list[..n].iter().enumerate() {
        m |= ((parity & QUADRANT_ID[sq as usize] != 0) as usize) << k;
    }
    m
}

/// The routines of a last-empties search: `$d` picks the AVX-512 build `$avx512` or the AVX2
/// build `$avx` (where the processor has them; `$avx_attr` are their extra attributes) or the
/// scalar one `$scalar`, each calling the generic `$g` with the position, the window and the
/// arguments `$arg`.
macro_rules! dispatch_last {
    ($(#[$doc:meta])* $d:ident, $avx512:ident, $avx:ident, $scalar:ident, $g:ident,
     ($($arg:ident: $ty:ty),*), [$(#[$avx_attr:meta])*]) => {
        $(#[$doc])*
        #[inline(always)]
        #[allow(clippy::too_many_arguments)]
        pub(super) fn $d<const AVX: u8>(
            &mut self,
            p: u64,
            o: u64,
            alpha: i32,
            beta: i32,
            $($arg: $ty),*
        ) -> i32 {
            #[cfg(target_arch = "x86_64")]
            if AVX == simd::AVX512 {
                // SAFETY: the AVX-512 build only runs where the processor has it
                return unsafe { self.$avx512(p, o, alpha, beta, $($arg),*) };
            }
            #[cfg(target_arch = "x86_64")]
            if AVX == simd::AVX2 {
                // SAFETY: the AVX2 build only runs where the processor has AVX2
                return unsafe { self.$avx(p, o, alpha, beta, $($arg),*) };
            }
            self.$scalar(p, o, alpha, beta, $($arg),*)
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd,avx512bw,bmi1,bmi2,lzcnt")]
        #[allow(clippy::too_many_arguments)]
        $(#[$avx_attr])*
        pub(super) fn $avx512(
            &mut self,
            p: u64,
            o: u64,
            alpha: i32,
            beta: i32,
            $($arg: $ty),*
        ) -> i32 {
            self.$g::<{ simd::AVX512 }>(p, o, alpha, beta, $($arg),*)
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2")]
        #[allow(clippy::too_many_arguments)]
        $(#[$avx_attr])*
        pub(super) fn $avx(
            &mut self,
            p: u64,
            o: u64,
            alpha: i32,
            beta: i32,
            $($arg: $ty),*
        ) -> i32 {
            self.$g::<{ simd::AVX2 }>(p, o, alpha, beta, $($arg),*)
        }

        #[inline(never)]
        #[allow(clippy::too_many_arguments)]
        pub(super) fn $scalar(
            &mut self,
            p: u64,
            o: u64,
            alpha: i32,
            beta: i32,
            $($arg: $ty),*
        ) -> i32 {
            self.$g::<{ simd::SCALAR }>(p, o, alpha, beta, $($arg),*)
        }
    };
}

impl Solver {
    dispatch_last!(
        /// [`Solver::shallow_g`] with the routines chosen (`AVX` only where the processor has
        /// AVX2).
        shallow_d, shallow_avx512, shallow_avx2, shallow_scalar, shallow_g,
        (list: &[u8; 8], n: usize, parity: u8, passed: bool), []
    );

    /// Few empties: walk the list of empty squares in parity order, no table.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn shallow_g<const AVX: u8>(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        list: &[u8; 8],
        n: usize,
        parity: u8,
        passed: bool,
    ) -> i32 {
        match n {
            0 => return final_score(p, o),
            1 => return last1(p, o, list[0]),
            2 => return self.last2::<AVX>(p, o, alpha, beta, list[0], list[1]),
            3 => {
                return self.last3_d::<AVX>(p, o, alpha, beta, [list[0], list[1], list[2]], passed);
            }
            4 => return self.last4_list::<AVX>(p, o, alpha, beta, list, parity, passed),
            // five apart, so that its children's routine is known without a branch per move
            5 => return self.shallow_n::<AVX, true>(p, o, alpha, beta, list, 5, parity, passed),
            _ => {}
        }
        self.shallow_n::<AVX, false>(p, o, alpha, beta, list, n, parity, passed)
    }

    /// [`Solver::shallow_g`] from five empties (`FIVE`: exactly five, the children going
    /// straight to the four-empties routine).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn shallow_n<const AVX: u8, const FIVE: bool>(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        list: &[u8; 8],
        n: usize,
        parity: u8,
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        if n >= 4
            && alpha >= stability_threshold(n as u32)
            && 64 - 2 * (o.count_ones() as i32) <= alpha
        {
            let upper = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            if upper <= alpha {
                return upper;
            }
        }
        let mut best = -65;
        let ord = &PARITY_ORDER[odd_mask(list, n, parity)];
        for &i in &ord[..n] {
            let i = i as usize;
            let sq = list[i];
            if NEIGHBOURS[sq as usize] & o == 0 {
                continue;
            }
            let f = flips_g::<AVX>(p, o, sq);
            if f == 0 {
                continue;
            }
            let (np, no) = (p | f | (1u64 << sq), o & !f);
            let child = remove_at(list, i);
            let child_parity = parity ^ QUADRANT_ID[sq as usize];
            let s = if FIVE {
                // straight to the four-empties routine
                -self.last4_list::<AVX>(no, np, -beta, -alpha, &child, child_parity, false)
            } else {
                -self.shallow_d::<AVX>(no, np, -beta, -alpha, &child, n - 1, child_parity, false)
            };
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
        if best == -65 {
            // no move
            if passed {
                return final_score(p, o);
            }
            return -self.shallow_d::<AVX>(o, p, -beta, -alpha, list, n, parity, true);
        }
        best
    }

    /// [`Solver::last4_g`] on the four squares of `list`, odd quadrants first (`parity`),
    /// square priority within each: the order by a table of the 16 parity patterns rather
    /// than a loop with a branch per square.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn last4_list<const AVX: u8>(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        list: &[u8; 8],
        parity: u8,
        passed: bool,
    ) -> i32 {
        let ord = &PARITY_ORDER[odd_mask(list, 4, parity)];
        let sq = [
            list[ord[0] as usize],
            list[ord[1] as usize],
            list[ord[2] as usize],
            list[ord[3] as usize],
        ];
        self.last4_d::<AVX>(p, o, alpha, beta, sq, passed)
    }

    dispatch_last!(
        /// [`Solver::last4_g`] with the routines chosen (`AVX` only where the processor has AVX2).
        last4_d, last4_avx512, last4_avx2, last4_scalar, last4_g, (sq: [u8; 4], passed: bool), []
    );

    /// Four empties, tried in the order given (no move list), with the stability cut.
    #[inline(always)]
    pub(super) fn last4_g<const AVX: u8>(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        sq: [u8; 4],
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        if alpha >= stability_threshold(4) && 64 - 2 * (o.count_ones() as i32) <= alpha {
            let upper = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            if upper <= alpha {
                return upper;
            }
        }
        let mut best = -65;
        macro_rules! try_move {
            ($x:expr, $rest:expr) => {
                let x = $x;
                if NEIGHBOURS[x as usize] & o != 0 {
                    let f = flips_g::<AVX>(p, o, x);
                    if f != 0 {
                        let s = -self.last3_d::<AVX>(
                            o & !f,
                            p | f | (1u64 << x),
                            -beta,
                            -alpha,
                            $rest,
                            false,
                        );
                        if s > best {
                            best = s;
                            if s >= beta {
                                return s;
                            }
                            if s > alpha {
                                alpha = s;
                            }
                        }
                    }
                }
            };
        }
        try_move!(sq[0], [sq[1], sq[2], sq[3]]);
        try_move!(sq[1], [sq[0], sq[2], sq[3]]);
        try_move!(sq[2], [sq[0], sq[1], sq[3]]);
        try_move!(sq[3], [sq[0], sq[1], sq[2]]);
        if best > -65 {
            return best;
        }
        if passed {
            return final_score(p, o);
        }
        -self.last4_d::<AVX>(o, p, -beta, -alpha, sq, true)
    }

    dispatch_last!(
        /// [`Solver::last3`] with the routines chosen (`AVX` only where the processor has
        /// AVX2), not inlined: inlined into the four-empties routine its twelve copies
        /// overflowed the instruction cache.
        last3_d, last3_avx512, last3_avx2, last3_scalar, last3, (sq: [u8; 3], passed: bool),
        [#[inline(never)]]
    );

    /// Three empties, in parity order (no move list).
    #[inline(always)]
    pub(super) fn last3<const AVX: u8>(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        sq: [u8; 3],
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        // parity order: when two of the squares share a quadrant, the third, alone in its
        // own, first (the others keep their order)
        let q = [
            QUADRANT_ID[sq[0] as usize],
            QUADRANT_ID[sq[1] as usize],
            QUADRANT_ID[sq[2] as usize],
        ];
        let parity = q[0] ^ q[1] ^ q[2];
        let sq = if parity & q[0] != 0 {
            sq
        } else if parity & q[1] != 0 {
            [sq[1], sq[0], sq[2]]
        } else {
            [sq[2], sq[0], sq[1]]
        };
        let mut best = -65;
        macro_rules! try_move {
            ($x:expr, $a:expr, $b:expr) => {
                let x = $x;
                if NEIGHBOURS[x as usize] & o != 0 {
                    let f = flips_g::<AVX>(p, o, x);
                    if f != 0 {
                        let s =
                            -self.last2::<AVX>(o & !f, p | f | (1u64 << x), -beta, -alpha, $a, $b);
                        if s > best {
                            best = s;
                            if s >= beta {
                                return s;
                            }
                            if s > alpha {
                                alpha = s;
                            }
                        }
                    }
                }
            };
        }
        try_move!(sq[0], sq[1], sq[2]);
        try_move!(sq[1], sq[0], sq[2]);
        try_move!(sq[2], sq[0], sq[1]);
        if best > -65 {
            return best;
        }
        if passed {
            return final_score(p, o);
        }
        -self.last3_d::<AVX>(o, p, -beta, -alpha, sq, true)
    }

    /// Two empties `a` and `b`.
    #[inline(always)]
    pub(super) fn last2<const AVX: u8>(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        a: u8,
        b: u8,
    ) -> i32 {
        self.nodes += 1;
        let mut best = -65;
        let f = if NEIGHBOURS[a as usize] & o != 0 {
            flips_g::<AVX>(p, o, a)
        } else {
            0
        };
        if f != 0 {
            best = -last1(o & !f, p | f | (1u64 << a), b);
            if best >= beta {
                return best;
            }
        }
        let f = if NEIGHBOURS[b as usize] & o != 0 {
            flips_g::<AVX>(p, o, b)
        } else {
            0
        };
        if f != 0 {
            let s = -last1(o & !f, p | f | (1u64 << b), a);
            return best.max(s);
        }
        if best > -65 {
            return best;
        }
        // p passes: o chooses the lower score for p
        let mut worst = 65;
        let f = if NEIGHBOURS[a as usize] & p != 0 {
            flips_g::<AVX>(o, p, a)
        } else {
            0
        };
        if f != 0 {
            worst = last1(p & !f, o | f | (1u64 << a), b);
            if worst <= alpha {
                return worst;
            }
        }
        let f = if NEIGHBOURS[b as usize] & p != 0 {
            flips_g::<AVX>(o, p, b)
        } else {
            0
        };
        if f != 0 {
            let s = last1(p & !f, o | f | (1u64 << b), a);
            return worst.min(s);
        }
        if worst < 65 {
            return worst;
        }
        final_score(p, o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parity_order_puts_the_odd_entries_first() {
        for n in 0..=8usize {
            for (m, order) in PARITY_ORDER.iter().enumerate().take(1 << n) {
                // the entries 0..n with bit k of m set when entry k is odd
                let mut want: Vec<u8> = (0..n as u8).filter(|&k| m >> k & 1 == 1).collect();
                want.extend((0..n as u8).filter(|&k| m >> k & 1 == 0));
                assert_eq!(&order[..n], &want[..], "n {n} m {m:b}");
            }
        }
        // the mask of a list: squares 0 (quadrant a1-d4) and 63 (e5-h8) odd, 7 (e1-h4) even
        let list = [0u8, 7, 63, 0, 0, 0, 0, 0];
        let parity = QUADRANT_ID[0] | QUADRANT_ID[63];
        assert_eq!(odd_mask(&list, 3, parity), 0b101);
    }

    #[test]
    fn remove_at_drops_one_entry() {
        let list = [11u8, 22, 33, 44, 55, 66, 77, 88];
        for i in 0..8 {
            let mut v = list.to_vec();
            v.remove(i);
            assert_eq!(&remove_at(&list, i)[..7], &v[..], "{i}");
        }
    }
}
