//! The pattern evaluation of Reversi: weights learned from self-play positions.
//!
//! A position is seen through eleven patterns, each a fixed set of squares taken in all its
//! board symmetries (46 instances in all): the 3×3 corner, the edge with both X-squares, the
//! 2×5 corner block, the second, third and fourth lines, and the diagonals of 8 down to 4
//! squares. Each instance reads its squares as a base-3 number (empty, side to move,
//! opponent) and looks up a weight; a pattern's instances share one table, and configurations
//! that a symmetry of the pattern maps onto each other share one weight. The evaluation is the
//! sum of these weights, a bias and a weight per move of mobility difference, with one weight
//! set per phase (four numbers of empty squares each). It estimates the final disc difference
//! from the side to move's view, in hundredths of a disc.
//!
//! The weights in `data/reversi-patterns.bin` (1.4 MB) are the fourth round of training.
//! Round four (session 17) refitted round three's weights (`--base embedded`) on all the data
//! of rounds two and three and 21,200 more games played and labelled the same way by level 6
//! with round three's weights (ProbCut margin 250, one probe about half as deep); 2,317,522
//! positions in all (2,085,770 fitted, 231,752 held out), the generation 80 minutes of two
//! processes (load 3.5-5.9), the fit 69 s:
//!
//! ```text
//! reversi_patterns gen --games 20000 --seed 5 --label-depth 8 --out rl8-5.txt   # stopped after 10,600 games
//! reversi_patterns gen --games 20000 --seed 6 --label-depth 8 --out rl8-6.txt   # stopped after 10,600 games
//! reversi_patterns train rl8-1.txt rl8-2.txt rl8-3.txt rl8-4.txt rl8-5.txt rl8-6.txt --base embedded --game-weight 1.0
//! ```
//!
//! Held-out root-mean-square error (every tenth line held out, whose neighbours from the same
//! game were fitted: too low; on 35,000 lines of games of their own, session 18, 7.39 discs at
//! 20-23 empties and 4.90 at 28-31): 3.8 discs at 0-3 empties, 7.9 at 12-15, 7.6 at 20-23, 6.4
//! at 24-27, 5.2 at 28-31, 4.3 at 32-35 and 3.4 at 40-43 (round three, on its own held-out
//! positions: 4.0, 8.1, 8.0, 7.2, 5.9, 4.7 and 3.5). Against round three, both as NBoard
//! engines at 100 ms a move with multi-ProbCut (6 random opening plies, seed 501, load about
//! 5): 53-3-44 in 100 games, 54.5%, Elo +31 ± 68.
//!
//! Round three (session 16) refitted round two's weights (`--base embedded`) on round two's
//! data and 4,100 more games played and labelled the same way by level 6 with round two's
//! weights (ProbCut margin 450); 682,593 positions in all (614,334 fitted, 68,259 held out),
//! the fit 71 s:
//!
//! ```text
//! reversi_patterns gen --games 20000 --seed 3 --label-depth 8 --out rl8-3.txt   # stopped after 4,000 games
//! reversi_patterns gen --games 20000 --seed 4 --label-depth 8 --out rl8-4.txt   # stopped after 11,659 positions
//! reversi_patterns train rl8-1.txt rl8-2.txt rl8-3.txt rl8-4.txt --base embedded --game-weight 1.0
//! ```
//!
//! Held-out root-mean-square error: 4.0 discs at 0-3 empties, 8.1 at 12-15, 8.0 at 20-23, 7.2
//! at 24-27, 5.9 at 28-31, 4.7 at 32-35 and 3.5 at 40-43 (round two, on its own held-out
//! positions: 8.0, 8.3, 7.5, 6.6, 4.9 and 3.7). Against round two, both as NBoard engines at
//! 100 ms a move (6 random opening plies, load 2.3-3.8): 33-5-22 (seed 301) and 30-6-24 (seed
//! 302), together 63-11-46 in 120 games, 57.1%, Elo about +50: not significant on its own,
//! the same direction as the held-out errors.
//!
//! Round two (session 15) refitted round one's weights with [`train_from`] (the ridge penalty
//! pulling towards them, not zero) on 353,546 positions of 4,400 self-play games in which
//! level 6's search to depth 8 (round one's weights, ProbCut) chose the moves, one in ten
//! random after 4-11 random opening plies, and labelled every position above 18 empties with
//! its value; from 18 empties down the exact solver played and labelled, as in round one
//! (about 65 minutes of two processes on the busy 2-core machine):
//!
//! ```text
//! reversi_patterns gen --games 20000 --seed 1 --label-depth 8 --out rl8-1.txt   # stopped after 2,800 games
//! reversi_patterns gen --games 20000 --seed 2 --label-depth 8 --out rl8-2.txt   # stopped after 1,600 games
//! reversi_patterns train rl8-1.txt rl8-2.txt --base embedded --game-weight 1.0  # prior 4, overlap 2, 60 iterations
//! ```
//!
//! Held-out root-mean-square error against those labels: 4.0 discs at 0-3 empties, 8.0 at
//! 12-15, 8.3 at 20-23, 7.5 at 24-27, 6.6 at 28-31, 4.9 at 32-35 and 3.7 at 40-43. Against
//! round one, both as NBoard engines at 100 ms a move (`qi-engine match reversi`, 6 random
//! opening plies, seed 201, load 4-6): 40 won, 2 drawn, 18 lost in 60 games, 68.3%, Elo
//! +134 ± 96; the same refit on the first 1,600 games: 38-2-20, 65.0%.
//!
//! Round one was fitted with [`train`]: ridge
//! least squares over self-play positions, exact solver scores from 20 or 18 empties down and
//! game results above. Its data (949,872 positions, 11,400 games, about
//! 45 minutes of two cores):
//!
//! ```text
//! reversi_patterns gen --games 8000 --seed 1 --out rp1.txt                  # 2-ply play, solved from 18
//! reversi_patterns gen --games 3000 --seed 2 --solve-at 20 --out rp2.txt    # stopped after 1,400 games
//! reversi_patterns gen --games 3000 --seed 3 --play-depth 6 --out rp3.txt   # 6-ply play, solved from 18
//! reversi_patterns train rp1.txt@0.3 rp2.txt@0.3 rp3.txt@0.7 --prior 4      # overlap 2, 60 iterations
//! ```
//!
//! Root-mean-square error on every tenth position, held out of the fit: 4.0 discs at 0-3
//! empties, 6.9 at 4-7, 8.1 at 8-11, 8.5 at 12-15, 8.9 at 16-19 (exact scores), 12.4 at 20-23,
//! 15.6 at 24-27 and 17.9 at 28-31 (game results, which are noisier targets). More data did
//! not help much: with 40% of it the error at 12-15 empties was 8.3.
//!
//! Round one's weights stay in `data/reversi-patterns-round1.bin` (996 kB): the endgame
//! solver makes its first guess with them ([`PatternEval::round_one`]; FFO #40-#45 in 289 M
//! nodes instead of 334 M with the hand-made evaluation) and orders its moves with them where
//! that guess is 40 discs or more from a draw, because with the later rounds' it lost its way
//! in a wipeout (FFO #59); nearer a draw it orders with the latest round's (session 20: FFO
//! #40-#59 in 14.4 G nodes instead of 27.7 G). Level 6 and the NBoard engine play with the
//! latest round ([`PatternEval::trained`]; see [`crate::ai::reversi`]).

use std::sync::OnceLock;

use crate::reversi::mobility;

/// The patterns' squares in their first orientation (a1 = 0, b1 = 1, ..., h8 = 63).
pub const SHAPES: [&[u8]; 11] = [
    &[0, 1, 2, 8, 9, 10, 16, 17, 18],   // 3×3 corner
    &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],   // edge and X-squares
    &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12], // 2×5 corner
    &[8, 9, 10, 11, 12, 13, 14, 15],    // second line
    &[16, 17, 18, 19, 20, 21, 22, 23],  // third line
    &[24, 25, 26, 27, 28, 29, 30, 31],  // fourth line
    &[0, 9, 18, 27, 36, 45, 54, 63],    // main diagonal
    &[1, 10, 19, 28, 37, 46, 55],       // diagonal of 7
    &[2, 11, 20, 29, 38, 47],           // diagonal of 6
    &[3, 12, 21, 30, 39],               // diagonal of 5
    &[4, 13, 22, 31],                   // diagonal of 4
];
/// Empty squares per phase.
pub const PHASE_WIDTH: u32 = 4;
/// Phases (0-3 empties, 4-7, ..., 60).
pub const PHASES: usize = 16;
/// Scalar weights per phase: the bias and the weight per move of mobility difference.
const SCALARS: usize = 2;

const MAGIC: &[u8; 4] = b"QIPW";
const VERSION: u8 = 1;

/// The phase of a position with `empties` empty squares.
#[inline(always)]
pub fn phase(empties: u32) -> usize {
    ((empties / PHASE_WIDTH) as usize).min(PHASES - 1)
}

/// The image of square `sq` under symmetry `k` (0-7) of the board.
const fn symmetry(k: usize, sq: u8) -> u8 {
    let (x, y) = (sq % 8, sq / 8);
    let (x, y) = match k {
        0 => (x, y),
        1 => (7 - x, y),
        2 => (x, 7 - y),
        3 => (7 - x, 7 - y),
        4 => (y, x),
        5 => (7 - y, x),
        6 => (y, 7 - x),
        _ => (7 - y, 7 - x),
    };
    y * 8 + x
}

/// The patterns' instances, table sizes and canonical configurations.
pub struct Layout {
    /// (pattern, squares) per instance, the squares in the order of the pattern's digits.
    pub instances: Vec<(usize, Vec<u8>)>,
    /// Per pattern: the canonical id of each configuration (`3^len` of them).
    pub canonical: Vec<Vec<u32>>,
    /// Per pattern: its first canonical id in the flat list of all patterns' ids.
    pub canonical_offset: Vec<u32>,
    /// Canonical ids of all patterns.
    pub canonical_len: u32,
}

impl Layout {
    fn new() -> Layout {
        let mut instances = Vec::new();
        let mut canonical = Vec::new();
        let mut canonical_offset = Vec::new();
        let mut next = 0u32;
        for (pi, shape) in SHAPES.iter().enumerate() {
            let mut sets: Vec<u64> = Vec::new();
            let mut automorphisms: Vec<Vec<usize>> = Vec::new();
            let own_set: u64 = shape.iter().fold(0, |m, &s| m | 1u64 << s);
            for k in 0..8 {
                let squares: Vec<u8> = shape.iter().map(|&s| symmetry(k, s)).collect();
                let set = squares.iter().fold(0u64, |m, &s| m | 1u64 << s);
                if set == own_set {
                    // position j of the shape goes to position perm[j]
                    let perm = squares
                        .iter()
                        .map(|s| shape.iter().position(|t| t == s).unwrap())
                        .collect();
                    automorphisms.push(perm);
                }
                if !sets.contains(&set) {
                    sets.push(set);
                    instances.push((pi, squares));
                }
            }
            let len = shape.len();
            let size = 3usize.pow(len as u32);
            // each configuration's smallest image under the pattern's own symmetries
            let least: Vec<usize> = (0..size)
                .map(|idx| {
                    automorphisms
                        .iter()
                        .map(|perm| {
                            (0..len)
                                .map(|j| {
                                    idx / 3usize.pow(j as u32) % 3 * 3usize.pow(perm[j] as u32)
                                })
                                .sum::<usize>()
                        })
                        .min()
                        .unwrap_or(idx)
                })
                .collect();
            let mut canon = vec![u32::MAX; size];
            let mut ids = 0u32;
            for idx in 0..size {
                if least[idx] == idx {
                    canon[idx] = next + ids;
                    ids += 1;
                }
            }
            for idx in 0..size {
                canon[idx] = canon[least[idx]];
            }
            canonical_offset.push(next);
            next += ids;
            canonical.push(canon);
        }
        Layout {
            instances,
            canonical,
            canonical_offset,
            canonical_len: next,
        }
    }

    /// The patterns' layout (built once).
    pub fn get() -> &'static Layout {
        static LAYOUT: OnceLock<Layout> = OnceLock::new();
        LAYOUT.get_or_init(Layout::new)
    }

    /// The canonical ids of the position's instances, `p` to move.
    pub fn features(&self, p: u64, o: u64, out: &mut Vec<u32>) {
        out.clear();
        let mut idx = [0usize; 46];
        instance_indices(p, o, &mut idx);
        for ((pi, _), i) in self.instances.iter().zip(idx) {
            out.push(self.canonical[*pi][i]);
        }
    }
}

/// The base-3 value of each byte's bits (bit j is the digit of 3^j).
const TERNARY: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let mut v = 0u16;
        let mut j = 7i32;
        while j >= 0 {
            v = v * 3 + ((b >> j) & 1) as u16;
            j -= 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// The base-3 value of each byte's bits read the other way (bit j is the digit of 3^(7 - j)):
/// a row read from the h-file side.
const TERNARY_REV: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let mut v = 0u16;
        let mut j = 0;
        while j < 8 {
            v = v * 3 + ((b >> j) & 1) as u16;
            j += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// [`digits8`] with the byte read from bit 7 down (bit 7 the digit of 3^0).
#[inline(always)]
fn digits8_rev(p: u64, o: u64) -> usize {
    TERNARY_REV[(p & 0xFF) as usize] as usize + 2 * TERNARY_REV[(o & 0xFF) as usize] as usize
}

/// The squares of a column of bits gathered on the top byte and shifted down: with at most
/// one square of `b` per file, bit x of the result is that file's square.
#[inline(always)]
fn gather_files(b: u64) -> u64 {
    b.wrapping_mul(0x0101_0101_0101_0101) >> 56
}

/// The start of each pattern's table in [`PatternEval`]'s flat tables.
const PATTERN_STARTS: [usize; 11] = {
    let mut t = [0usize; 11];
    let mut total = 0;
    let mut k = 0;
    while k < 11 {
        t[k] = total;
        total += 3usize.pow(SHAPES[k].len() as u32);
        k += 1;
    }
    t
};

/// The digits of the low byte: `p`'s bits as 1, `o`'s as 2.
#[inline(always)]
fn digits8(p: u64, o: u64) -> usize {
    TERNARY[(p & 0xFF) as usize] as usize + 2 * TERNARY[(o & 0xFF) as usize] as usize
}

/// The board mirrored in the a1-h8 diagonal (square (x, y) takes the disc of (y, x)).
#[inline(always)]
fn transpose(mut x: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// The board under each symmetry `k` of [`symmetry`]: square `sq` of board `k` holds the disc
/// of square `symmetry(k, sq)`.
#[inline(always)]
fn symmetric_boards(b: u64) -> [u64; 8] {
    let t = transpose(b);
    [
        b,
        b.reverse_bits().swap_bytes(),
        b.swap_bytes(),
        b.reverse_bits(),
        t,
        t.swap_bytes(),
        t.reverse_bits().swap_bytes(),
        t.reverse_bits(),
    ]
}

/// The diagonal of `len` squares from square `8 - len` of the first rank up to the h-file, as
/// the low bits of a byte.
#[inline(always)]
fn diagonal(b: u64, len: u32) -> u64 {
    const MAIN: u64 = 0x8040_2010_0804_0201;
    let m = (MAIN << (8 - len)) & (u64::MAX >> (8 * (8 - len)));
    (b & m).wrapping_mul(0x0101_0101_0101_0101) >> (56 + 8 - len)
}

/// The base-3 index of every instance, in [`Layout`]'s order (the patterns read on the
/// symmetric boards; a test checks it against a square-by-square reading).
#[inline(always)]
pub fn instance_indices(p: u64, o: u64, out: &mut [usize; 46]) {
    let ps = symmetric_boards(p);
    let os = symmetric_boards(o);
    let mut i = 0;
    let d =
        |k: usize, mask: u64, shift: u32| digits8((ps[k] >> shift) & mask, (os[k] >> shift) & mask);
    for k in 0..4 {
        out[i] = d(k, 7, 0) + 27 * d(k, 7, 8) + 729 * d(k, 7, 16);
        i += 1;
    }
    for k in [0, 2, 4, 5] {
        let (p, o) = (ps[k], os[k]);
        out[i] = digits8(p, o)
            + 6561 * (((p >> 9) & 1) + 2 * ((o >> 9) & 1)) as usize
            + 19683 * (((p >> 14) & 1) + 2 * ((o >> 14) & 1)) as usize;
        i += 1;
    }
    for k in 0..8 {
        out[i] = d(k, 31, 0) + 243 * d(k, 31, 8);
        i += 1;
    }
    for row in 1..4 {
        for k in [0, 2, 4, 5] {
            out[i] = d(k, 0xFF, 8 * row);
            i += 1;
        }
    }
    for k in 0..2 {
        out[i] = digits8(diagonal(ps[k], 8), diagonal(os[k], 8));
        i += 1;
    }
    for len in [7, 6, 5, 4] {
        for k in 0..4 {
            out[i] = digits8(diagonal(ps[k], len), diagonal(os[k], len));
            i += 1;
        }
    }
}

/// The instance indices of a position kept up to date move by move, for searches that
/// evaluate many positions a few moves apart (the endgame solver's ordering searches): `idx`
/// reads one side's discs as digit 1 and the other's as 2 (the side that was to move when the
/// features were made, see [`Features::new`]), `occ` every disc as 1, so that the indices with
/// the colours exchanged are `3 × occ - idx`. Entries 46 and 47 are padding (always 0). The
/// arithmetic wraps in 16 bits: every true index is below 3^10 < 2^16, so the wrapped result
/// is exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    pub idx: [u16; 48],
    pub occ: [u16; 48],
}

/// Per square, its weight in each instance's index (3^j where the instance reads the square
/// as its digit j, else 0).
fn coefficients() -> &'static [[u16; 48]; 64] {
    static T: OnceLock<[[u16; 48]; 64]> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = [[0u16; 48]; 64];
        let mut idx = [0usize; 46];
        for (sq, row) in t.iter_mut().enumerate() {
            // the empty board reads 0 everywhere; one disc of digit 1 reads its weight
            instance_indices(1u64 << sq, 0, &mut idx);
            for (c, &i) in row.iter_mut().zip(&idx) {
                *c = i as u16;
            }
        }
        t
    })
}

impl Features {
    /// The features of `p` (digit 1) against `o` (digit 2).
    pub fn new(p: u64, o: u64) -> Features {
        let (mut idx, mut occ) = ([0usize; 46], [0usize; 46]);
        instance_indices(p, o, &mut idx);
        instance_indices(p | o, 0, &mut occ);
        let mut f = Features {
            idx: [0; 48],
            occ: [0; 48],
        };
        for i in 0..46 {
            f.idx[i] = idx[i] as u16;
            f.occ[i] = occ[i] as u16;
        }
        f
    }

    /// The features after a move to `sq` flipping `flips`, by the side of digit 1 (`first`)
    /// or of digit 2.
    #[inline(always)]
    pub fn play(&self, sq: u8, mut flips: u64, first: bool) -> Features {
        let c = coefficients();
        let mut f = *self;
        let placed = &c[sq as usize];
        let d: u16 = if first { 1 } else { 2 };
        for ((x, y), &w) in f.idx.iter_mut().zip(f.occ.iter_mut()).zip(placed) {
            *x = x.wrapping_add(w.wrapping_mul(d));
            *y = y.wrapping_add(w);
        }
        // a flipped disc's digit goes from 2 to 1 (first) or from 1 to 2
        while flips != 0 {
            let x = &c[flips.trailing_zeros() as usize];
            flips &= flips - 1;
            if first {
                for (v, &w) in f.idx.iter_mut().zip(x) {
                    *v = v.wrapping_sub(w);
                }
            } else {
                for (v, &w) in f.idx.iter_mut().zip(x) {
                    *v = v.wrapping_add(w);
                }
            }
        }
        f
    }

    /// The indices read with the colours exchanged (the side of digit 2 as digit 1).
    #[inline(always)]
    pub fn swapped(&self) -> [u16; 48] {
        let mut s = [0u16; 48];
        for ((v, &o), &i) in s.iter_mut().zip(&self.occ).zip(&self.idx) {
            *v = o.wrapping_mul(3).wrapping_sub(i);
        }
        s
    }
}

#[cfg(test)]
/// The base-3 number of `squares` (digit j for the j-th square: 0 empty, 1 `p`, 2 `o`).
#[inline(always)]
fn index(p: u64, o: u64, squares: &[u8]) -> usize {
    let mut idx = 0usize;
    for &sq in squares.iter().rev() {
        idx = idx * 3 + ((p >> sq) & 1) as usize + 2 * ((o >> sq) & 1) as usize;
    }
    idx
}

/// Mobility difference, the scalar feature.
#[inline(always)]
fn mobility_difference(p: u64, o: u64) -> i32 {
    mobility(p, o).count_ones() as i32 - mobility(o, p).count_ones() as i32
}

/// Fitted weights, in hundredths of a disc.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Per phase: the canonical weights of every pattern (`Layout::canonical_len`).
    pub patterns: Vec<Vec<i16>>,
    /// Per phase: bias and mobility weight.
    pub scalars: Vec<[i16; SCALARS]>,
}

/// A weights file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WeightsError(pub String);

impl std::fmt::Display for WeightsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "bad pattern weights file: {}", self.0)
    }
}

impl std::error::Error for WeightsError {}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7F) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn get_varint(data: &[u8], at: &mut usize) -> Result<u64, WeightsError> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *data
            .get(*at)
            .ok_or_else(|| WeightsError("truncated".into()))?;
        *at += 1;
        v |= ((b & 0x7F) as u64) << shift;
        if b & 0x80 == 0 {
            return Ok(v);
        }
    }
    Err(WeightsError("a number is too long".into()))
}

fn zigzag(v: i16) -> u64 {
    ((v as i64) << 1 ^ ((v as i64) >> 63)) as u64
}

fn unzigzag(v: u64) -> Result<i16, WeightsError> {
    let x = ((v >> 1) as i64) ^ -((v & 1) as i64);
    i16::try_from(x).map_err(|_| WeightsError("a weight is out of range".into()))
}

impl Weights {
    /// All weights zero.
    /// The weights built into the crate (`data/reversi-patterns.bin`).
    pub fn embedded() -> Weights {
        Weights::from_bytes(include_bytes!("../../../data/reversi-patterns.bin"))
            .expect("the embedded pattern weights are valid")
    }

    /// Round one's weights (`data/reversi-patterns-round1.bin`), which the exact solver orders
    /// its moves by (see [`PatternEval::round_one`]).
    pub fn round_one() -> Weights {
        Weights::from_bytes(include_bytes!("../../../data/reversi-patterns-round1.bin"))
            .expect("the embedded pattern weights are valid")
    }

    pub fn zero() -> Weights {
        let n = Layout::get().canonical_len as usize;
        Weights {
            patterns: vec![vec![0; n]; PHASES],
            scalars: vec![[0; SCALARS]; PHASES],
        }
    }

    /// The compact file form: a header, then per phase the scalars and the non-zero pattern
    /// weights as (gap, value) pairs of variable-length numbers.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        out.push(PHASES as u8);
        out.push(PHASE_WIDTH as u8);
        out.push(SHAPES.len() as u8);
        put_varint(&mut out, Layout::get().canonical_len as u64);
        for (pw, sc) in self.patterns.iter().zip(&self.scalars) {
            for s in sc {
                put_varint(&mut out, zigzag(*s));
            }
            let nonzero = pw.iter().filter(|w| **w != 0).count();
            put_varint(&mut out, nonzero as u64);
            let mut last = 0usize;
            for (i, w) in pw.iter().enumerate() {
                if *w != 0 {
                    put_varint(&mut out, (i - last) as u64);
                    put_varint(&mut out, zigzag(*w));
                    last = i;
                }
            }
        }
        out
    }

    /// Reads [`Weights::to_bytes`]'s form, with a clear error for anything else.
    pub fn from_bytes(data: &[u8]) -> Result<Weights, WeightsError> {
        if data.len() < 8 || &data[..4] != MAGIC {
            return Err(WeightsError("not a Qi pattern weights file".into()));
        }
        if data[4] != VERSION
            || data[5] as usize != PHASES
            || data[6] as u32 != PHASE_WIDTH
            || data[7] as usize != SHAPES.len()
        {
            return Err(WeightsError(format!(
                "made for another layout (version {}, {} phases of {}, {} patterns)",
                data[4], data[5], data[6], data[7]
            )));
        }
        let mut at = 8;
        let n = Layout::get().canonical_len as usize;
        if get_varint(data, &mut at)? != n as u64 {
            return Err(WeightsError("made for other patterns".into()));
        }
        let mut w = Weights::zero();
        for ph in 0..PHASES {
            for s in 0..SCALARS {
                w.scalars[ph][s] = unzigzag(get_varint(data, &mut at)?)?;
            }
            let count = get_varint(data, &mut at)? as usize;
            if count > n {
                return Err(WeightsError("too many weights".into()));
            }
            let mut i = 0usize;
            for _ in 0..count {
                i += get_varint(data, &mut at)? as usize;
                if i >= n {
                    return Err(WeightsError("a weight lies past the end".into()));
                }
                w.patterns[ph][i] = unzigzag(get_varint(data, &mut at)?)?;
            }
        }
        if at != data.len() {
            return Err(WeightsError("trailing bytes".into()));
        }
        Ok(w)
    }
}

/// The evaluation, with each pattern's table expanded to every configuration for fast look-up.
pub struct PatternEval {
    /// Per phase, the tables of all patterns one after the other.
    tables: Vec<Vec<i16>>,
    scalars: Vec<[i16; SCALARS]>,
    /// Per instance (in [`Layout`]'s order), the start of its pattern's table.
    starts: [u32; 46],
}

impl PatternEval {
    pub fn new(w: &Weights) -> PatternEval {
        let layout = Layout::get();
        let starts = PATTERN_STARTS;
        let total = PATTERN_STARTS[10] + 81;
        let tables = w
            .patterns
            .iter()
            .map(|pw| {
                let mut t = vec![0i16; total];
                for (pi, canon) in layout.canonical.iter().enumerate() {
                    for (idx, c) in canon.iter().enumerate() {
                        t[starts[pi] + idx] = pw[*c as usize];
                    }
                }
                t
            })
            .collect();
        let mut inst = [0u32; 46];
        for (st, (pi, _)) in inst.iter_mut().zip(&layout.instances) {
            *st = starts[*pi] as u32;
        }
        PatternEval {
            tables,
            scalars: w.scalars.clone(),
            starts: inst,
        }
    }

    /// The sum of the pattern weights, the instances read straight from four boards (the
    /// position, its vertical flip, its transpose and that flipped) with rows read either way,
    /// so that no board is bit-reversed (the same sum as [`PatternEval::pattern_sum`], which a
    /// test checks).
    #[inline(always)]
    fn pattern_sum_fast(&self, p: u64, o: u64, ph: usize) -> i32 {
        let t = &self.tables[ph][..];
        // every index is below its pattern's 3^len: the tables hold them all
        debug_assert_eq!(t.len(), PATTERN_STARTS[10] + 81);
        let w = |pattern: usize, idx: usize| -> i32 {
            debug_assert!(idx < 3usize.pow(SHAPES[pattern].len() as u32));
            // SAFETY: `idx` is a base-3 number of the pattern's length, below the size of its
            // table, which starts at PATTERN_STARTS[pattern] in a table of all of them
            unsafe { *t.get_unchecked(PATTERN_STARTS[pattern] + idx) as i32 }
        };
        const MAIN: u64 = 0x8040_2010_0804_0201;
        const ANTI: u64 = 0x0102_0408_1020_4080;
        let (pv, ov) = (p.swap_bytes(), o.swap_bytes());
        let (pt, ot) = (transpose(p), transpose(o));
        let (ptv, otv) = (pt.swap_bytes(), ot.swap_bytes());
        let mut s = 0i32;
        // with the vertical flip: the 3×3 corners and the diagonals of 7 down to 4, each read
        // straight and mirrored (the board's mirror image read straight)
        for (bp, bo) in [(p, o), (pv, ov)] {
            let d = |m: u64, sh: u32| digits8((bp >> sh) & m, (bo >> sh) & m);
            let r = |m: u64, sh: u32| digits8_rev((bp >> sh) & m, (bo >> sh) & m);
            s += w(0, d(7, 0) + 27 * d(7, 8) + 729 * d(7, 16));
            s += w(0, r(0xE0, 0) + 27 * r(0xE0, 8) + 729 * r(0xE0, 16));
            for (k, len) in [7u32, 6, 5, 4].into_iter().enumerate() {
                let m = (MAIN << (8 - len)) & (u64::MAX >> (8 * (8 - len)));
                s += w(
                    7 + k,
                    digits8(
                        gather_files(bp & m) >> (8 - len),
                        gather_files(bo & m) >> (8 - len),
                    ),
                );
                let a = ANTI >> (8 * (8 - len));
                s += w(
                    7 + k,
                    digits8_rev(
                        gather_files(bp & a) << (8 - len),
                        gather_files(bo & a) << (8 - len),
                    ),
                );
            }
        }
        // with the transposes as well: the edges, the 2×5 corners and the lines 2 to 4
        for (bp, bo) in [(p, o), (pv, ov), (pt, ot), (ptv, otv)] {
            let d = |m: u64, sh: u32| digits8((bp >> sh) & m, (bo >> sh) & m);
            let r = |m: u64, sh: u32| digits8_rev((bp >> sh) & m, (bo >> sh) & m);
            s += w(
                1,
                digits8(bp, bo)
                    + 6561 * (((bp >> 9) & 1) + 2 * ((bo >> 9) & 1)) as usize
                    + 19683 * (((bp >> 14) & 1) + 2 * ((bo >> 14) & 1)) as usize,
            );
            s += w(2, d(31, 0) + 243 * d(31, 8));
            s += w(2, r(0xF8, 0) + 243 * r(0xF8, 8));
            s += w(3, d(0xFF, 8));
            s += w(4, d(0xFF, 16));
            s += w(5, d(0xFF, 24));
        }
        // the main diagonals
        s += w(6, digits8(gather_files(p & MAIN), gather_files(o & MAIN)));
        s += w(
            6,
            digits8_rev(gather_files(p & ANTI), gather_files(o & ANTI)),
        );
        s
    }

    /// The sum of the pattern weights (the patterns read on the symmetric boards).
    #[cfg(test)]
    #[inline(always)]
    fn pattern_sum(&self, p: u64, o: u64, ph: usize) -> i32 {
        let t = &self.tables[ph];
        let mut idx = [0usize; 46];
        instance_indices(p, o, &mut idx);
        let mut s = 0i32;
        for ((pi, _), i) in Layout::get().instances.iter().zip(idx) {
            s += t[PATTERN_STARTS[*pi] + i] as i32;
        }
        s
    }

    /// The trained weights shipped with the crate.
    pub fn trained() -> &'static PatternEval {
        static EVAL: OnceLock<PatternEval> = OnceLock::new();
        EVAL.get_or_init(|| PatternEval::new(&Weights::embedded()))
    }

    /// Round one's weights, for the exact solver's move ordering and first guess. With round
    /// two's the solver lost its way in wipeouts: FFO #59 (+64) took 53 M nodes instead of
    /// 1,513 (and with the ordering searches' narrow window of session 15 it did not end in a
    /// minute), because the probes above +50 no longer met the winning line early; on FFO
    /// #40-#49 round two saved 11% of the nodes. So the midgame plays by the latest round and the
    /// solver orders by round one.
    pub fn round_one() -> &'static PatternEval {
        static EVAL: OnceLock<PatternEval> = OnceLock::new();
        EVAL.get_or_init(|| PatternEval::new(&Weights::round_one()))
    }

    /// The estimated final disc difference for `p` to move against `o`, in hundredths of a
    /// disc.
    #[inline]
    pub fn evaluate(&self, p: u64, o: u64) -> i32 {
        self.evaluate_with(p, o, mobility)
    }

    /// [`PatternEval::evaluate`] with the legal moves found by `moves` (the same squares as
    /// [`mobility`]; the endgame solver passes its AVX2 routine).
    #[inline(always)]
    pub fn evaluate_with(&self, p: u64, o: u64, moves: impl Fn(u64, u64) -> u64) -> i32 {
        let mob = moves(p, o).count_ones() as i32 - moves(o, p).count_ones() as i32;
        self.evaluate_mobility(p, o, mob)
    }

    /// [`PatternEval::evaluate_mobility`] from the instance indices of the side to move
    /// ([`Features`]; `empties` the position's empty squares): the same value.
    #[inline(always)]
    pub fn evaluate_indices(&self, idx: &[u16; 48], empties: u32, mob: i32) -> i32 {
        let ph = phase(empties);
        let t = &self.tables[ph][..];
        let mut s = 0i32;
        for (&st, &i) in self.starts.iter().zip(idx) {
            let k = st as usize + i as usize;
            debug_assert!(k < t.len());
            // SAFETY: an instance's index is below its pattern's 3^len (the features are
            // exact), and its pattern's table of 3^len weights starts at `st`
            s += unsafe { *t.get_unchecked(k) } as i32;
        }
        let sc = self.scalars[ph];
        s + sc[0] as i32 + sc[1] as i32 * mob
    }

    /// [`PatternEval::evaluate`] given the mobility difference (`p`'s legal moves less `o`'s),
    /// for callers that have counted it already.
    #[inline(always)]
    pub fn evaluate_mobility(&self, p: u64, o: u64, mob: i32) -> i32 {
        let ph = phase(64 - (p | o).count_ones());
        let s = self.pattern_sum_fast(p, o, ph);
        let sc = self.scalars[ph];
        s + sc[0] as i32 + sc[1] as i32 * mob
    }
}

/// One training position: its phase, canonical features, mobility difference and target.
pub struct Sample {
    pub empties: u32,
    pub features: Vec<u32>,
    pub mobility: i32,
    /// Final disc difference from the side to move's view.
    pub target: f32,
    /// Weight in the fit (exact scores 1, game results less).
    pub weight: f32,
}

impl Sample {
    pub fn new(p: u64, o: u64, target: f32, weight: f32) -> Sample {
        let mut features = Vec::with_capacity(46);
        Layout::get().features(p, o, &mut features);
        Sample {
            empties: 64 - (p | o).count_ones(),
            features,
            mobility: mobility_difference(p, o),
            target,
            weight,
        }
    }
}

/// Training settings.
#[derive(Clone, Copy, Debug)]
pub struct TrainOptions {
    /// Conjugate-gradient iterations.
    pub epochs: usize,
    /// Ridge penalty on each pattern weight (in positions' worth): configurations seen a few
    /// times stay near zero.
    pub prior: f32,
    /// Positions from this many empties either side of a phase also train it.
    pub overlap: u32,
}

impl Default for TrainOptions {
    fn default() -> TrainOptions {
        TrainOptions {
            epochs: 60,
            prior: 4.0,
            overlap: 2,
        }
    }
}

/// `A v` for the ridge normal equations `(XᵀWX + λI) θ = XᵀWy`, where θ holds the pattern
/// weights and then the two scalars.
fn normal_product(samples: &[&Sample], v: &[f64], prior: f64, out: &mut [f64]) {
    let n = v.len() - SCALARS;
    for (o, x) in out.iter_mut().zip(v) {
        *o = prior * x;
    }
    out[n] = 0.0;
    out[n + 1] = 0.0;
    for s in samples {
        let m = s.mobility as f64;
        let mut xv = v[n] + v[n + 1] * m;
        for &f in &s.features {
            xv += v[f as usize];
        }
        let t = s.weight as f64 * xv;
        for &f in &s.features {
            out[f as usize] += t;
        }
        out[n] += t;
        out[n + 1] += t * m;
    }
}

/// Fits the weights of one phase by ridge least squares (the final disc difference as the
/// target), solved by conjugate gradients preconditioned by the diagonal. Returns the weights
/// in discs (pattern weights, bias, mobility).
pub fn train_phase(samples: &[&Sample], opts: &TrainOptions) -> (Vec<f32>, [f32; SCALARS]) {
    train_phase_from(samples, opts, None)
}

/// The prediction of weights `w`, `sc` (in discs) for `s`.
fn predict(s: &Sample, w: &[f32], sc: &[f32; SCALARS]) -> f32 {
    let mut pred = sc[0] + sc[1] * s.mobility as f32;
    for &f in &s.features {
        pred += w[f as usize];
    }
    pred
}

/// [`train_phase`] with the ridge penalty pulling towards `base` (weights in discs) instead of
/// zero: it fits the difference from `base`, so configurations the samples seldom show keep
/// their base weights.
pub fn train_phase_from(
    samples: &[&Sample],
    opts: &TrainOptions,
    base: Option<(&[f32], &[f32; SCALARS])>,
) -> (Vec<f32>, [f32; SCALARS]) {
    let (mut w, mut sc) = fit_phase(samples, opts, base);
    if let Some((bw, bsc)) = base {
        for (x, b) in w.iter_mut().zip(bw) {
            *x += b;
        }
        sc[0] += bsc[0];
        sc[1] += bsc[1];
    }
    (w, sc)
}

/// The ridge fit of the samples' targets less `base`'s predictions.
fn fit_phase(
    samples: &[&Sample],
    opts: &TrainOptions,
    base: Option<(&[f32], &[f32; SCALARS])>,
) -> (Vec<f32>, [f32; SCALARS]) {
    let n = Layout::get().canonical_len as usize;
    let dim = n + SCALARS;
    let prior = opts.prior as f64;
    let mut diag = vec![prior; dim];
    diag[n] = 0.0;
    diag[n + 1] = 0.0;
    let mut b = vec![0f64; dim];
    for s in samples {
        let w = s.weight as f64;
        let m = s.mobility as f64;
        let target = match base {
            Some((bw, bsc)) => s.target - predict(s, bw, bsc),
            None => s.target,
        } as f64;
        for &f in &s.features {
            diag[f as usize] += w;
            b[f as usize] += w * target;
        }
        diag[n] += w;
        diag[n + 1] += w * m * m;
        b[n] += w * target;
        b[n + 1] += w * m * target;
    }
    let mut x = vec![0f64; dim];
    if samples.is_empty() {
        return (vec![0.0; n], [0.0; SCALARS]);
    }
    let inv: Vec<f64> = diag
        .iter()
        .map(|d| if *d > 0.0 { 1.0 / d } else { 0.0 })
        .collect();
    let mut r = b;
    let mut z: Vec<f64> = r.iter().zip(&inv).map(|(r, i)| r * i).collect();
    let mut p = z.clone();
    let mut rz: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
    let mut ap = vec![0f64; dim];
    for _ in 0..opts.epochs {
        if rz <= 1e-12 {
            break;
        }
        normal_product(samples, &p, prior, &mut ap);
        let pap: f64 = p.iter().zip(&ap).map(|(a, b)| a * b).sum();
        if pap <= 0.0 {
            break;
        }
        let alpha = rz / pap;
        for i in 0..dim {
            x[i] += alpha * p[i];
            r[i] -= alpha * ap[i];
            z[i] = r[i] * inv[i];
        }
        let rz_new: f64 = r.iter().zip(&z).map(|(a, b)| a * b).sum();
        let beta = rz_new / rz;
        rz = rz_new;
        for i in 0..dim {
            p[i] = z[i] + beta * p[i];
        }
    }
    let w = x[..n].iter().map(|v| *v as f32).collect();
    (w, [x[n] as f32, x[n + 1] as f32])
}

/// Mean squared error (discs²) of the weights of one phase on `samples`.
pub fn phase_error(samples: &[&Sample], w: &[f32], sc: &[f32; SCALARS]) -> f64 {
    let mut e = 0f64;
    let mut t = 0f64;
    for s in samples {
        let pred = predict(s, w, sc);
        e += (s.weight * (s.target - pred) * (s.target - pred)) as f64;
        t += s.weight as f64;
    }
    if t > 0.0 { e / t } else { 0.0 }
}

/// Fits every phase (see [`train_phase`]); `report` gets each phase's number of positions and
/// error. Weights are stored in hundredths of a disc.
pub fn train(
    samples: &[Sample],
    opts: &TrainOptions,
    report: impl FnMut(usize, usize, f64, &[f32], &[f32; SCALARS]),
) -> Weights {
    train_from(samples, opts, None, report)
}

/// [`train`] with each phase's ridge penalty pulling towards `base`'s weights of that phase
/// ([`train_phase_from`]): a refit of `base` on new samples.
pub fn train_from(
    samples: &[Sample],
    opts: &TrainOptions,
    base: Option<&Weights>,
    mut report: impl FnMut(usize, usize, f64, &[f32], &[f32; SCALARS]),
) -> Weights {
    let mut out = Weights::zero();
    for ph in 0..PHASES {
        let lo = (ph as u32 * PHASE_WIDTH).saturating_sub(opts.overlap);
        let hi = ph as u32 * PHASE_WIDTH + PHASE_WIDTH - 1 + opts.overlap;
        let set: Vec<&Sample> = samples
            .iter()
            .filter(|s| s.empties >= lo && s.empties <= hi)
            .collect();
        let base_phase = base.map(|b| {
            let w: Vec<f32> = b.patterns[ph].iter().map(|&x| x as f32 / 100.0).collect();
            let sc = [
                b.scalars[ph][0] as f32 / 100.0,
                b.scalars[ph][1] as f32 / 100.0,
            ];
            (w, sc)
        });
        let (w, sc) = train_phase_from(
            &set,
            opts,
            base_phase.as_ref().map(|(w, sc)| (w.as_slice(), sc)),
        );
        let err = phase_error(&set, &w, &sc);
        report(ph, set.len(), err, &w, &sc);
        let q = |x: f32| (x * 100.0).round().clamp(-32000.0, 32000.0) as i16;
        out.patterns[ph] = w.iter().map(|x| q(*x)).collect();
        out.scalars[ph] = [q(sc[0]), q(sc[1])];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_has_46_instances_and_shared_symmetric_weights() {
        let l = Layout::get();
        assert_eq!(l.instances.len(), 46);
        // the edge read from a1 to h1 and its mirror image read the same way share a weight
        let edge = &l.instances.iter().find(|(pi, _)| *pi == 1).unwrap().1;
        let p = 1u64 << edge[0]; // a1 own
        let q = 1u64 << 7; // h1 own
        let mut f1 = Vec::new();
        let mut f2 = Vec::new();
        l.features(p, 0, &mut f1);
        l.features(q, 0, &mut f2);
        let mut a = f1.clone();
        let mut b = f2.clone();
        a.sort();
        b.sort();
        assert_eq!(a, b, "mirror images have the same features");
        // an own and an opponent's disc differ
        l.features(0, p, &mut f2);
        f2.sort();
        assert_ne!(a, f2);
    }

    #[test]
    fn fast_indices_equal_a_square_walk() {
        let l = Layout::get();
        let mut rng = crate::search::Rng::new(11);
        for _ in 0..2000 {
            let filled = rng.next_u64() | rng.next_u64();
            let p = filled & rng.next_u64();
            let o = filled & !p;
            let mut fast = [0usize; 46];
            instance_indices(p, o, &mut fast);
            for (i, (_, squares)) in l.instances.iter().enumerate() {
                assert_eq!(fast[i], index(p, o, squares), "instance {i}");
            }
        }
    }

    #[test]
    fn features_kept_move_by_move_equal_fresh_ones() {
        use crate::game::Game;
        // random games from the start: after every move (either side, passes included) the
        // updated features equal those read from the boards, in both colourings, and the
        // evaluation from them equals the board evaluation
        let e = PatternEval::trained();
        let mut rng = crate::search::Rng::new(21);
        let mut moves = Vec::new();
        for _ in 0..40 {
            let mut pos = crate::reversi::Reversi::start();
            // the features of the first side to move (Black), kept along the game
            let black = pos.own();
            let mut f = Features::new(black, pos.opp());
            let mut black_to_move = true;
            loop {
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len() as u64) as usize];
                if m != crate::reversi::PASS {
                    let flips = crate::ai::endgame::flips(pos.own(), pos.opp(), m);
                    f = f.play(m, flips, black_to_move);
                }
                pos.make(m);
                black_to_move = !black_to_move;
                let (b, w) = if black_to_move {
                    (pos.own(), pos.opp())
                } else {
                    (pos.opp(), pos.own())
                };
                assert_eq!(f, Features::new(b, w));
                assert_eq!(f.swapped()[..46], Features::new(w, b).idx[..46]);
                let own = if black_to_move { f.idx } else { f.swapped() };
                let empties = 64 - (b | w).count_ones();
                let mob = mobility_difference(pos.own(), pos.opp());
                assert_eq!(
                    e.evaluate_indices(&own, empties, mob),
                    e.evaluate(pos.own(), pos.opp())
                );
            }
        }
    }

    #[test]
    fn fast_pattern_sum_equals_the_instance_reading() {
        let mut w = Weights::zero();
        for (ph, pw) in w.patterns.iter_mut().enumerate() {
            for (i, x) in pw.iter_mut().enumerate() {
                *x = ((i * 7919 + ph * 31) % 2001) as i16 - 1000;
            }
        }
        let e = PatternEval::new(&w);
        let mut rng = crate::search::Rng::new(5);
        for n in 0..5000 {
            let filled = match n % 3 {
                0 => rng.next_u64() | rng.next_u64(),
                1 => rng.next_u64(),
                _ => !(rng.next_u64() & rng.next_u64()),
            };
            let p = filled & rng.next_u64();
            let o = filled & !p;
            let ph = n % PHASES;
            assert_eq!(
                e.pattern_sum_fast(p, o, ph),
                e.pattern_sum(p, o, ph),
                "{p:x} {o:x}"
            );
        }
    }

    #[test]
    fn symmetric_positions_evaluate_alike() {
        // a position and its mirror images
        let p: u64 = 0x0000_3C1C_0E0F_0301;
        let o: u64 = 0x00F8_C0E0_F0F0_7C00 & !p;
        let ph = phase(64 - (p | o).count_ones());
        let mut w = Weights::zero();
        for (i, x) in w.patterns[ph].iter_mut().enumerate() {
            *x = (i % 97) as i16 - 48;
        }
        w.scalars[ph] = [7, 30];
        let e = PatternEval::new(&w);
        let flip_v = |b: u64| b.swap_bytes();
        let mirror = |b: u64| {
            let mut r = 0u64;
            for sq in 0..64 {
                if b >> sq & 1 != 0 {
                    r |= 1u64 << symmetry(1, sq as u8);
                }
            }
            r
        };
        let transpose = |b: u64| {
            let mut r = 0u64;
            for sq in 0..64 {
                if b >> sq & 1 != 0 {
                    r |= 1u64 << symmetry(4, sq as u8);
                }
            }
            r
        };
        let v = e.evaluate(p, o);
        assert_eq!(e.evaluate(flip_v(p), flip_v(o)), v);
        assert_eq!(e.evaluate(mirror(p), mirror(o)), v);
        assert_eq!(e.evaluate(transpose(p), transpose(o)), v);
    }

    #[test]
    fn weights_file_round_trips_and_rejects_garbage() {
        let mut w = Weights::zero();
        w.patterns[3][10] = -5;
        w.patterns[3][11] = 1200;
        w.patterns[15][Layout::get().canonical_len as usize - 1] = -32000;
        w.scalars[2] = [-3, 44];
        let bytes = w.to_bytes();
        assert_eq!(Weights::from_bytes(&bytes).unwrap(), w);
        assert!(Weights::from_bytes(b"garbage").is_err());
        assert!(Weights::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        let mut extra = bytes.clone();
        extra.push(0);
        assert!(Weights::from_bytes(&extra).is_err());
        let mut other = bytes;
        other[5] = 3;
        assert!(Weights::from_bytes(&other).is_err());
    }

    #[test]
    fn training_recovers_a_planted_weight() {
        // targets made by a known rule: +4 per own corner, -4 per opponent corner, on boards
        // with discs on the corners and the centre only, so that configurations repeat
        let mut rng = crate::search::Rng::new(5);
        let mut samples = Vec::new();
        for _ in 0..4000 {
            let filled = (rng.next_u64() | rng.next_u64()) & 0x8100_0018_1800_0081;
            let p = filled & rng.next_u64();
            let o = filled & !p;
            let corners = 0x8100_0000_0000_0081u64;
            let t = 4.0 * ((p & corners).count_ones() as f32 - (o & corners).count_ones() as f32);
            samples.push(Sample::new(p, o, t, 1.0));
        }
        // fitted on 3000, judged on the other 1000
        let (train, test) = samples.split_at(3000);
        let train: Vec<&Sample> = train.iter().collect();
        let test: Vec<&Sample> = test.iter().collect();
        let zero = vec![0f32; Layout::get().canonical_len as usize];
        let before = phase_error(&test, &zero, &[0.0; SCALARS]);
        let (w, sc) = train_phase(&train, &TrainOptions::default());
        let after = phase_error(&test, &w, &sc);
        assert!(before > 10.0, "{before}");
        assert!(after < before * 0.05, "error {before} -> {after}");
    }

    #[test]
    fn a_refit_keeps_the_base_where_samples_are_silent_and_follows_them_elsewhere() {
        let n = Layout::get().canonical_len as usize;
        // a base that values every configuration at a quarter disc, and 2 discs of bias
        let base_w = vec![0.25f32; n];
        let base_sc = [2.0f32, 0.0];
        // no samples: the base itself
        let (w, sc) = train_phase_from(&[], &TrainOptions::default(), Some((&base_w, &base_sc)));
        assert_eq!((w, sc), (base_w.clone(), base_sc));
        // samples of one position with target 30: its prediction moves there, while a
        // configuration no sample shows keeps its base weight
        let (p, o) = (0x0000_0018_1800_0000u64, 0x0000_0000_0000_0081u64);
        let samples: Vec<Sample> = (0..50).map(|_| Sample::new(p, o, 30.0, 1.0)).collect();
        let refs: Vec<&Sample> = samples.iter().collect();
        let before = predict(&samples[0], &base_w, &base_sc);
        let (w, sc) = train_phase_from(&refs, &TrainOptions::default(), Some((&base_w, &base_sc)));
        let after = predict(&samples[0], &w, &sc);
        assert!(
            (after - 30.0).abs() < 0.1 * (before - 30.0).abs(),
            "{before} -> {after}"
        );
        let mut seen = vec![false; n];
        for &f in &samples[0].features {
            seen[f as usize] = true;
        }
        let unseen = seen.iter().position(|s| !s).unwrap();
        assert_eq!(w[unseen], 0.25);
        // the same samples from zero: the unseen weight stays zero
        let (w0, _) = train_phase(&refs, &TrainOptions::default());
        assert_eq!(w0[unseen], 0.0);
    }

    #[test]
    fn trained_weights_load_and_favour_corners() {
        let e = PatternEval::trained();
        // 23 empties; the side to move holds a1 or the opponent does
        let base_p: u64 = 0x0000_FF00_FF00_FF00;
        let base_o: u64 = 0x0000_00FF_00FF_0000;
        let with_corner = e.evaluate(base_p | 1, base_o);
        let against_corner = e.evaluate(base_p, base_o | 1);
        assert!(
            with_corner > against_corner,
            "{with_corner} vs {against_corner}"
        );
    }
}
