//! Bitboard routines of the solver: rays, flipped discs (per-square scalar functions, or the
//! AVX2 routine of [`super::simd`]), stable discs, the final score and the last move's flip
//! count by line look-ups.

use super::*;

pub(super) const CORNERS: u64 = 0x8100_0000_0000_0081;
pub(super) const FILE_A: u64 = 0x0101_0101_0101_0101;
pub(super) const FILE_B: u64 = FILE_A << 1;
pub(super) const FILE_H: u64 = 0x8080_8080_8080_8080;
pub(super) const FILE_G: u64 = FILE_H >> 1;
pub(super) const RANK_1: u64 = 0xFF;
pub(super) const RANK_8: u64 = 0xFF00_0000_0000_0000;
pub(super) const NOT_A: u64 = !FILE_A;
pub(super) const NOT_H: u64 = !FILE_H;
pub(super) const NOT_AB: u64 = !(FILE_A | FILE_B);
pub(super) const NOT_GH: u64 = !(FILE_G | FILE_H);
pub(super) const NOT_A_TO_D: u64 = !0x0F0F_0F0F_0F0F_0F0F;
pub(super) const NOT_E_TO_H: u64 = !0xF0F0_F0F0_F0F0_F0F0;
pub(super) const BORDER: u64 = FILE_A | FILE_H | RANK_1 | RANK_8;

/// Rays from each square (excluding it) in the four directions of increasing square index:
/// east (+1), north-west (+7), north (+8), north-east (+9).
pub(super) const RAYS_UP: [[u64; 64]; 4] = rays([(1, 0), (-1, 1), (0, 1), (1, 1)]);
/// Rays in the four directions of decreasing square index: west, south-east, south,
/// south-west.
pub(super) const RAYS_DOWN: [[u64; 64]; 4] = rays([(-1, 0), (1, -1), (0, -1), (-1, -1)]);

pub(super) const fn rays(dirs: [(i32, i32); 4]) -> [[u64; 64]; 4] {
    let mut t = [[0u64; 64]; 4];
    let mut d = 0;
    while d < 4 {
        let mut sq = 0;
        while sq < 64 {
            let (mut x, mut y) = ((sq % 8) as i32, (sq / 8) as i32);
            let mut r = 0u64;
            loop {
                x += dirs[d].0;
                y += dirs[d].1;
                if x < 0 || x > 7 || y < 0 || y > 7 {
                    break;
                }
                r |= 1 << (y * 8 + x);
            }
            t[d][sq] = r;
            sq += 1;
        }
        d += 1;
    }
    t
}

/// The discs of `o` that a disc played on `sq` by `p` turns over (the same as
/// [`crate::reversi::flips`], by ray scans): [`simd::flips_avx2`] where the processor has
/// AVX2, else a call through a table of 64 functions, one a square, in which the rays are
/// constants and directions too short to flip anything are left out.
#[inline(always)]
pub fn flips(p: u64, o: u64, sq: u8) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if simd::has_avx2() {
        // SAFETY: the processor has AVX2
        return unsafe { simd::flips_avx2(p, o, sq as usize) };
    }
    FLIPS[sq as usize & 63](p, o)
}

/// [`flips`] with the choice of routine made by the caller (`AVX` only where the processor
/// has AVX2): inside the solver's AVX2 functions the AVX2 routine is inlined.
#[inline(always)]
pub(super) fn flips_g<const AVX: u8>(p: u64, o: u64, sq: u8) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if AVX == simd::AVX512 {
        // SAFETY: the AVX-512 build only runs where the processor has it
        return unsafe { simd::flips_avx512(p, o, sq as usize) };
    }
    #[cfg(target_arch = "x86_64")]
    if AVX == simd::AVX2 {
        // SAFETY: the AVX2 build only runs where the processor has AVX2
        return unsafe { simd::flips_avx2(p, o, sq as usize) };
    }
    FLIPS[sq as usize & 63](p, o)
}

/// The legal moves, as [`flips_g`] chooses.
#[inline(always)]
pub(super) fn moves_g<const AVX: u8>(p: u64, o: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if AVX >= simd::AVX2 {
        // SAFETY: both SIMD builds only run where the processor has AVX2
        return unsafe { simd::mobility_avx2(p, o) };
    }
    crate::reversi::mobility(p, o)
}

/// The flip functions by square.
pub(super) static FLIPS: [fn(u64, u64) -> u64; 64] = [
    flips_at::<0>,
    flips_at::<1>,
    flips_at::<2>,
    flips_at::<3>,
    flips_at::<4>,
    flips_at::<5>,
    flips_at::<6>,
    flips_at::<7>,
    flips_at::<8>,
    flips_at::<9>,
    flips_at::<10>,
    flips_at::<11>,
    flips_at::<12>,
    flips_at::<13>,
    flips_at::<14>,
    flips_at::<15>,
    flips_at::<16>,
    flips_at::<17>,
    flips_at::<18>,
    flips_at::<19>,
    flips_at::<20>,
    flips_at::<21>,
    flips_at::<22>,
    flips_at::<23>,
    flips_at::<24>,
    flips_at::<25>,
    flips_at::<26>,
    flips_at::<27>,
    flips_at::<28>,
    flips_at::<29>,
    flips_at::<30>,
    flips_at::<31>,
    flips_at::<32>,
    flips_at::<33>,
    flips_at::<34>,
    flips_at::<35>,
    flips_at::<36>,
    flips_at::<37>,
    flips_at::<38>,
    flips_at::<39>,
    flips_at::<40>,
    flips_at::<41>,
    flips_at::<42>,
    flips_at::<43>,
    flips_at::<44>,
    flips_at::<45>,
    flips_at::<46>,
    flips_at::<47>,
    flips_at::<48>,
    flips_at::<49>,
    flips_at::<50>,
    flips_at::<51>,
    flips_at::<52>,
    flips_at::<53>,
    flips_at::<54>,
    flips_at::<55>,
    flips_at::<56>,
    flips_at::<57>,
    flips_at::<58>,
    flips_at::<59>,
    flips_at::<60>,
    flips_at::<61>,
    flips_at::<62>,
    flips_at::<63>,
];

/// [`flips`] for the square `SQ`. Branch-free: in each direction the first square of the ray
/// that is not the opponent's is isolated (lowest bit going up, highest going down) and the
/// discs before it are kept only if that square is the player's.
#[inline(never)]
pub(super) fn flips_at<const SQ: usize>(p: u64, o: u64) -> u64 {
    let mut f = 0u64;
    let not_o = !o;
    let mut d = 0;
    while d < 4 {
        let r = RAYS_UP[d][SQ];
        if r.count_ones() >= 2 {
            let b = r & not_o;
            let first = b & b.wrapping_neg();
            let keep = ((first & p != 0) as u64).wrapping_neg();
            f |= first.wrapping_sub(1) & r & keep;
        }
        d += 1;
    }
    let mut d = 0;
    while d < 4 {
        let r = RAYS_DOWN[d][SQ];
        if r.count_ones() >= 2 {
            // with no such square, bit 0 stands in: it is either off the ray or the opponent's
            let b = (r & not_o) | 1;
            let first = 1u64 << (63 - b.leading_zeros());
            let keep = ((first & p & r != 0) as u64).wrapping_neg();
            f |= (first.wrapping_neg() << 1) & r & keep;
        }
        d += 1;
    }
    f
}

/// The up to 8 squares around each square: a move there flips nothing unless one of them holds
/// an opponent's disc.
pub(super) const NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let b = 1u64 << sq;
        let row = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
        let all = b | row;
        t[sq] = row | (all << 8) | (all >> 8);
        sq += 1;
    }
    t
};

/// Quadrant bit of each square, for parity.
pub(super) const QUADRANT_ID: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let (x, y) = (sq % 8, sq / 8);
        t[sq] = 1 << ((x / 4) + 2 * (y / 4));
        sq += 1;
    }
    t
};

/// The parity of the empty squares `empty`: bit q of the result (as in [`QUADRANT_ID`]) is set
/// when quadrant q has an odd number of them.
#[inline(always)]
pub(super) fn parity_of(empty: u64) -> u8 {
    const Q: [u64; 4] = [
        0x0000_0000_0F0F_0F0F,
        0x0000_0000_F0F0_F0F0,
        0x0F0F_0F0F_0000_0000,
        0xF0F0_F0F0_0000_0000,
    ];
    let mut parity = 0u8;
    for (q, m) in Q.iter().enumerate() {
        parity |= (((empty & m).count_ones() & 1) as u8) << q;
    }
    parity
}

/// A small preference between squares for the move ordering (corners and the A- and B-squares
/// of the edges high, X- and C-squares low).
pub(super) const SQUARE_VALUE: [u8; 64] = [
    18, 4, 16, 12, 12, 16, 4, 18, //
    4, 2, 6, 8, 8, 6, 2, 4, //
    16, 6, 14, 10, 10, 14, 6, 16, //
    12, 8, 10, 0, 0, 10, 8, 12, //
    12, 8, 10, 0, 0, 10, 8, 12, //
    16, 6, 14, 10, 10, 14, 6, 16, //
    4, 2, 6, 8, 8, 6, 2, 4, //
    18, 4, 16, 12, 12, 16, 4, 18, //
];

/// Square classes in the order the shallow search tries them within a parity class: corners
/// first, then the other edge and inner squares, X- and C-squares last.
pub(super) const PRIORITY_MASKS: [u64; 6] = {
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
    let mut t = [0u64; 6];
    let mut sq = 0;
    while sq < 64 {
        let p = PRI[sq] as usize;
        if p < 6 {
            t[p] |= 1 << sq;
        }
        sq += 1;
    }
    t
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

/// Squares on full lines (no empty square on the line) for the direction of a shift by `s`,
/// with `up` the wrap masks for shifts by s, 2s and 4s towards higher squares and `down` those
/// towards lower squares.
#[inline(always)]
pub(super) fn full_lines(filled: u64, s: u32, up: [u64; 3], down: [u64; 3]) -> u64 {
    let e = !filled;
    let mut a = e;
    a |= (a << s) & up[0];
    a |= (a << (2 * s)) & up[1];
    a |= (a << (4 * s)) & up[2];
    let mut b = e;
    b |= (b >> s) & down[0];
    b |= (b >> (2 * s)) & down[1];
    b |= (b >> (4 * s)) & down[2];
    !(a | b)
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
    let full_d1 = full_lines(
        filled,
        9,
        [NOT_A, NOT_AB, NOT_A_TO_D],
        [NOT_H, NOT_GH, NOT_E_TO_H],
    );
    let full_d2 = full_lines(
        filled,
        7,
        [NOT_H, NOT_GH, NOT_E_TO_H],
        [NOT_A, NOT_AB, NOT_A_TO_D],
    );
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
pub(super) fn stability_threshold(empties: u32) -> i32 {
    // an upper bound of 64 - 2 * stable is only below alpha when alpha is high; with few
    // stable discs in play early, the check is skipped unless alpha is near the top
    match empties {
        0..=3 => 99,
        4..=12 => 2 * empties as i32 - 2,
        _ => (2 * empties as i32).min(60),
    }
}

/// Discs of `p` on corners or on edge squares next to its own corner: cheap stable discs.
#[inline(always)]
pub(super) fn corner_stability(p: u64) -> u32 {
    let s = (((0x0100_0000_0000_0001 & p) << 1)
        | ((0x8000_0000_0000_0080 & p) >> 1)
        | ((0x0000_0000_0000_0081 & p) << 8)
        | ((0x8100_0000_0000_0000 & p) >> 8)
        | CORNERS)
        & p;
    s.count_ones()
}

#[inline(always)]
pub(super) fn neighbours(bb: u64) -> u64 {
    let row = ((bb << 1) & NOT_A) | ((bb >> 1) & NOT_H);
    let all = bb | row;
    row | (all << 8) | (all >> 8)
}

/// The lines through each square in the a1-h8 direction (+9) and the a8-h1 direction (+7),
/// the square included.
pub(super) const DIAGONALS: [[u64; 64]; 2] = {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        t[0][sq] = RAYS_UP[3][sq] | RAYS_DOWN[3][sq] | (1u64 << sq);
        t[1][sq] = RAYS_UP[1][sq] | RAYS_DOWN[1][sq] | (1u64 << sq);
        sq += 1;
    }
    t
};

/// `COUNT_FLIPS[pos][line]`: the discs turned on a full line of 8 by a disc played at `pos`,
/// with `line` the player's discs on it (every other square but `pos` the opponent's).
pub(super) const COUNT_FLIPS: [[u8; 256]; 8] = {
    let mut t = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut line = 0;
        while line < 256 {
            let mut n = 0;
            // towards higher bits
            let mut i = pos + 1;
            while i < 8 && line >> i & 1 == 0 {
                i += 1;
            }
            if i < 8 {
                n += i - pos - 1;
            }
            // towards lower bits
            let mut i = pos as i32 - 1;
            while i >= 0 && line >> i & 1 == 0 {
                i -= 1;
            }
            if i >= 0 {
                n += pos - i as usize - 1;
            }
            t[pos][line] = n as u8;
            line += 1;
        }
        pos += 1;
    }
    t
};

/// The discs that a disc played on the last empty square `sq` by the player with discs `p`
/// turns over (every other square holds the opponent's disc): four line look-ups.
#[inline(always)]
pub(super) fn count_last_flips(p: u64, sq: u8) -> i32 {
    let sq = sq as usize;
    let (x, y) = (sq & 7, sq >> 3);
    let row = (p >> (8 * y)) as u8 as usize;
    // the file projected on a byte, rank k on bit 7 - k
    let col = ((((p >> x) & FILE_A).wrapping_mul(0x8040_2010_0804_0201)) >> 56) as usize;
    // a diagonal has one square per file: projected on a byte, file k on bit k
    let d9 = (((p & DIAGONALS[0][sq]).wrapping_mul(FILE_A)) >> 56) as usize;
    let d7 = (((p & DIAGONALS[1][sq]).wrapping_mul(FILE_A)) >> 56) as usize;
    (COUNT_FLIPS[x][row] + COUNT_FLIPS[7 - y][col] + COUNT_FLIPS[x][d9] + COUNT_FLIPS[x][d7]) as i32
}

/// The exact score with one empty square left, side to move's view.
#[inline(always)]
pub(super) fn last1(p: u64, o: u64, sq: u8) -> i32 {
    let n = count_last_flips(p, sq);
    if n != 0 {
        // p gains n + 1 discs, o loses n; the board is then full
        return 2 * (p.count_ones() as i32 + n + 1) - 64;
    }
    let n = count_last_flips(o, sq);
    if n != 0 {
        return 64 - 2 * (o.count_ones() as i32 + n + 1);
    }
    final_score(p, o)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn stable_discs_are_never_turned() {
        // Over random games, a disc counted stable keeps its colour to the end.
        for seed in 0..200 {
            let mut rng = crate::search::Rng::new(seed);
            let mut pos = Reversi::start();
            let mut v = Vec::new();
            let mut watched = [0u64; 2];
            loop {
                for (s, w) in watched.iter_mut().enumerate() {
                    let own = pos.discs[s];
                    let opp = pos.discs[1 - s];
                    *w |= stable_discs(own, opp);
                    assert_eq!(*w & own, *w, "seed {seed}: {}", pos.to_text());
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
    fn ray_flips_equal_the_rules() {
        for seed in 0..300 {
            let mut rng = crate::search::Rng::new(seed);
            let mut pos = Reversi::start();
            let mut v = Vec::new();
            loop {
                let (p, o) = (pos.own(), pos.opp());
                for sq in 0..64u8 {
                    if (p | o) & (1u64 << sq) == 0 {
                        assert_eq!(flips(p, o, sq), crate::reversi::flips(p, o, sq));
                        assert_eq!(flips(o, p, sq), crate::reversi::flips(o, p, sq));
                        // the scalar functions, whatever the processor
                        let f = FLIPS[sq as usize];
                        assert_eq!(f(p, o), crate::reversi::flips(p, o, sq));
                        assert_eq!(f(o, p), crate::reversi::flips(o, p, sq));
                    }
                }
                pos.legal_moves(&mut v);
                if v.is_empty() {
                    break;
                }
                pos.make(v[rng.below(v.len() as u64) as usize]);
            }
        }
    }

    #[test]
    fn parity_counts_the_quadrants() {
        let mut rng = crate::search::Rng::new(3);
        for _ in 0..2000 {
            let empty = rng.next_u64() & rng.next_u64();
            let mut parity = 0u8;
            for (sq, id) in QUADRANT_ID.iter().enumerate() {
                if empty >> sq & 1 != 0 {
                    parity ^= id;
                }
            }
            assert_eq!(parity_of(empty), parity, "{empty:x}");
        }
    }

    #[test]
    fn last_flip_counts_equal_the_rules() {
        let mut rng = crate::search::Rng::new(11);
        for _ in 0..20000 {
            let sq = rng.below(64) as u8;
            let p = rng.next_u64() & !(1u64 << sq);
            let o = !p & !(1u64 << sq);
            assert_eq!(
                count_last_flips(p, sq),
                flips(p, o, sq).count_ones() as i32,
                "{p:x} {sq}"
            );
        }
    }

    #[test]
    fn full_lines_match_a_square_walk() {
        let mut rng = crate::search::Rng::new(7);
        for _ in 0..2000 {
            // dense random boards so that some lines are full
            let filled = !(rng.next_u64() & rng.next_u64() & rng.next_u64());
            let d1 = full_lines(
                filled,
                9,
                [NOT_A, NOT_AB, NOT_A_TO_D],
                [NOT_H, NOT_GH, NOT_E_TO_H],
            );
            let d2 = full_lines(
                filled,
                7,
                [NOT_H, NOT_GH, NOT_E_TO_H],
                [NOT_A, NOT_AB, NOT_A_TO_D],
            );
            for sq in 0..64usize {
                let line1 = RAYS_UP[3][sq] | RAYS_DOWN[3][sq] | (1u64 << sq);
                let line2 = RAYS_UP[1][sq] | RAYS_DOWN[1][sq] | (1u64 << sq);
                assert_eq!(
                    d1 >> sq & 1 == 1,
                    filled & line1 == line1,
                    "{filled:x} {sq}"
                );
                assert_eq!(
                    d2 >> sq & 1 == 1,
                    filled & line2 == line2,
                    "{filled:x} {sq}"
                );
            }
        }
    }
}
