//! The exact Reversi endgame solver: the final disc difference with best play.
//!
//! Scores are from the side to move's view by the World Othello Federation rule (empty squares
//! go to the winner), so they are always even, from -64 to 64. [`Solver::solve`] runs
//! null-window probes (MTD(f)) from a first guess ([`Solver::estimate`], a shallow search on
//! the trained pattern evaluation, kept a little low): a probe with the window `(g - 1, g + 1)` says
//! whether the score is below, equal to or above the even value `g`, and fail-soft bounds move
//! `g` to the next probe; the table keeps one probe's work for the next. Each probe is a
//! principal variation search on bitboards in layers:
//! - from 7 empties: moves generated from the mobility bitboard. The table's move (from 8
//!   empties, a table of bounds in two-entry buckets, one 64-byte cache line each, the entry
//!   with more empties kept first, on 2 MB pages where Linux allows it) is searched before
//!   the other moves are even ordered;
//!   then, above 16 empties, the moves are ordered by a shallow search (2 plies, 3 from 19
//!   empties) with the trained pattern evaluation
//!   ([`crate::ai::patterns::PatternEval`]; the hand-made one of
//!   [`crate::ai::reversi::ReversiWeights`] before) at the leaves, less 100 per move the
//!   opponent has after ours (corners twice); up to 16
//!   empties fastest-first (the opponent's mobility after the move, corners counted twice, then
//!   own stable corner discs, the opponent's potential mobility and parity); the next move is
//!   picked from the list when needed rather than sorting it, as most nodes cut on their first
//!   move. Enhanced transposition cutoffs from 11 empties; a stability cut (see
//!   [`SolverOptions`]; the opponent's disc count is tested first, as it bounds its stable
//!   discs);
//! - at 5 and 6 empties: no move generation; the empty squares are kept in a small list in
//!   square-priority order and tried in parity order (squares in quadrants with an odd number
//!   of empties first);
//! - at 4 and 3 empties: functions with the squares unrolled (odd quadrants first at 4), the
//!   stability cut at 4; at 2 and 1: functions that only count flipped discs for the last move,
//!   the last one by four table look-ups (each line through the square projected on a byte by
//!   a multiplication, then a table of flip counts by position and byte).
//!
//! Flipped discs come from ray tables (one lowest- or highest-bit scan per direction). The
//! search honours a stop flag and a deadline; a stopped search returns `None`.
//!
//! With [`Solver::threads`] above 1 the solve is shared (young brothers wait): at a node with
//! [`SolverOptions::split_min`] empties or more (and at the root) whose first move did not cut, a
//! free thread is started on the remaining moves, both threads taking the next move from the list;
//! a cut found by either raises a flag that stops the other's part. A thread that waits for its
//! helper lends its place to any split below. All threads share the table, whose entries are
//! written and read without locks (three words each, checked on reading). On FFO #40-#49 (64 MB
//! table, `qi-engine ffo --threads 2`): 30.2 s wall and 59.6 s of CPU for 783.8 M nodes, against
//! 57.3 s wall (54.9 s CPU, 696.6 M nodes) on one thread, a speed-up of 1.9 for 12% more nodes
//! (load average 1.4-1.8 during the one-thread run, 2.4-2.7 during the two-thread one, of which 2
//! were its own threads). One thread solves exactly as before the split code (the same node
//! counts).
//!
//! All of FFO #40-#59 solved exactly with this version (commit "Reversi patterns trained on
//! 11,400 self-play games"; `qi-engine ffo --hash 256` runs the same benchmark, on any range
//! of the positions): the `ffo` example, 256 MB table, one thread a position, two or three
//! solver processes side by side on the 2-core machine (at times with tests and matches
//! besides), so the CPU times of the solving threads are inflated by the sharing; nodes are
//! those with 2 or more empties (the ordering searches are not counted):
//!
//! | FFO | 40 | 41 | 42 | 43 | 44 | 45 | 46 | 47 | 48 | 49 |
//! |---|---|---|---|---|---|---|---|---|---|---|
//! | move, score | a2 +38 | h4 +0 | g2 +6 | c7 -12 | b8 -14 | b2 +6 | b3 -8 | g2 +4 | f6 +28 | e1 +16 |
//! | CPU s | 0.6 | 1.3 | 1.5 | 2.8 | 1.5 | 23.8 | 7.6 | 2.0 | 13.0 | 36.2 |
//! | M nodes | 7 | 14 | 19 | 21 | 11 | 216 | 65 | 13 | 88 | 235 |
//!
//! | FFO | 50 | 51 | 52 | 53 | 54 | 55 | 56 | 57 | 58 | 59 |
//! |---|---|---|---|---|---|---|---|---|---|---|
//! | move, score | d8 +10 | a3 +6 | a3 +0 | d8 -2 | c7 -2 | b7 +0 | h5 +2 | a6 -10 | g1 +4 | g8 +64 |
//! | CPU s | 90.8 | 36.1 | 37.9 | 446.0 | 513.5 | 1668.2 | 269.5 | 540.9 | 421.5 | 0.03 |
//! | M nodes | 395 | 243 | 246 | 3547 | 4111 | 13062 | 1327 | 3824 | 2408 | 0.002 |
//!
//! Total: **4115 s of CPU (68.6 minutes), 29.85 G nodes**, every move and score right. The
//! previous version (hand-made ordering evaluation, ordering searches from 12 empties, probes
//! from a draw) took 532 s for #40-#53 under another load, 1115 s for #54, and was stopped on
//! #55 after 2576 s. On the quiet machine #40-#45 took 32.1 s and 289 M nodes with this
//! version, 34.9 s and 334 M with the hand-made evaluation at the same settings and 40.7 s and
//! 337 M with the previous settings.
//!
//! What was tried here, on load-independent counts where the clock was too noisy (the same
//! binary's CPU time on #40-#44 varied from 10.1 to 13.6 s between runs):
//! - the last-move count by line look-ups, selection instead of sorting and the disc-count test
//!   before the stability cut took the instructions for #40 from 5.29 G to 5.06 G (valgrind's
//!   cachegrind), 508 to 487 per node counted; no change in the CPU time could be told apart
//!   from the noise;
//! - a `perf` profile of #43 put a third of the time in the search above 6 empties on the
//!   table's probe (a cache and TLB miss each); with the table on 2 MB pages that share fell
//!   from 15% to 10% of all samples. Prefetching children's buckets while ordering moved the
//!   stall to the prefetch rather than removing it, and was left out;
//! - a 256 MB table: #49 in 347 M nodes instead of 362 M, the same CPU time; ordering searches 4
//!   plies deep from 22 empties: 356 M nodes, the same time; null-window probes that step
//!   further after two failures on the same side: +4% nodes on #40-#44 and #47 (#40 -14%,
//!   #43 +14%, #47 +12%); ordering by the opponent's mobility and parity alone at 7 and 8
//!   empties: 0.7% fewer instructions, not kept;
//! - per empties (QI_STATS): at the levels where the null-window search expects a cut, 96-98%
//!   of the nodes that cut do so on the first move, and the tree grows by 2.7 (at 7-9
//!   empties) to 7.8 (at 19-21) every two plies, so the trees are close to minimal for this
//!   ordering; a perfect first guess of the score saves 5% of the nodes on #45 and 19% on
//!   #40-#44.
//!
//! This is far from the few seconds of the strongest programs: #55 alone takes 28 minutes.
//! Those programs order with an evaluation trained on far more (and exact) data, fill the
//! table with selective (ProbCut) searches of increasing depth before the exact search, and
//! visit about twice as many nodes a second. Here the pattern evaluation's phases above 20
//! empties were fitted to game results only and are the weakest part; the evaluation also
//! costs about 2.5 times the hand-made one (a quarter of the time when ordering from 12
//! empties, hence ordering searches only above 16).

use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::reversi::{PASS, Reversi};

mod simd;
use simd::moves as mobility;

const CORNERS: u64 = 0x8100_0000_0000_0081;
const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_B: u64 = FILE_A << 1;
const FILE_H: u64 = 0x8080_8080_8080_8080;
const FILE_G: u64 = FILE_H >> 1;
const RANK_1: u64 = 0xFF;
const RANK_8: u64 = 0xFF00_0000_0000_0000;
const NOT_A: u64 = !FILE_A;
const NOT_H: u64 = !FILE_H;
const NOT_AB: u64 = !(FILE_A | FILE_B);
const NOT_GH: u64 = !(FILE_G | FILE_H);
const NOT_A_TO_D: u64 = !0x0F0F_0F0F_0F0F_0F0F;
const NOT_E_TO_H: u64 = !0xF0F0_F0F0_F0F0_F0F0;
const BORDER: u64 = FILE_A | FILE_H | RANK_1 | RANK_8;

/// Where the solver switches techniques, by number of empty squares. The defaults were
/// chosen by timing FFO #40-#59 (see the `ffo` example, which reads them from the environment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverOptions {
    /// At this many empties and fewer (at most 7) the solver walks a list of empty squares.
    pub shallow: u32,
    /// From this many empties the table is used.
    pub tt_min: u32,
    /// From this many empties children are probed in the table before they are searched
    /// (enhanced transposition cutoff).
    pub etc_min: u32,
    /// Above this many empties moves are ordered by a shallow search instead of mobility.
    pub sort_search: u32,
    /// From this many empties the ordering search looks 2 plies deep (else 1).
    pub sort_depth2: u32,
    /// From this many empties the ordering search looks 3 plies deep.
    pub sort_depth3: u32,
    /// From this many empties a node's moves after the first may be shared between threads
    /// (with [`Solver::threads`] above 1).
    pub split_min: u32,
    /// Weight of the opponent's mobility in the ordering by shallow search.
    pub sort_mobility: i32,
    /// Leaves of the ordering search use the midgame evaluation instead of mobility alone.
    pub sort_full_eval: bool,
    /// That midgame evaluation is the trained pattern evaluation
    /// ([`crate::ai::patterns::PatternEval`]) rather than the hand-made one.
    pub sort_patterns: bool,
    /// Leaves with more empties than this use the hand-made evaluation even so (the pattern
    /// weights of the early phases were fitted to noisier targets).
    pub pattern_max_empties: u32,
}

impl Default for SolverOptions {
    fn default() -> SolverOptions {
        SolverOptions {
            shallow: 6,
            tt_min: 8,
            etc_min: 11,
            sort_search: 16,
            sort_depth2: 16,
            sort_depth3: 19,
            split_min: 12,
            sort_mobility: 100,
            sort_full_eval: true,
            sort_patterns: true,
            pattern_max_empties: 64,
        }
    }
}
const INF_SORT: i32 = 1 << 20;
/// Nodes between checks of the stop flag and the clock.
const CHECK_EVERY: u64 = 1 << 16;
/// The same when several threads solve: a cut found by one thread stops the others sooner.
const CHECK_EVERY_SPLIT: u64 = 1 << 10;

/// Rays from each square (excluding it) in the four directions of increasing square index:
/// east (+1), north-west (+7), north (+8), north-east (+9).
const RAYS_UP: [[u64; 64]; 4] = rays([(1, 0), (-1, 1), (0, 1), (1, 1)]);
/// Rays in the four directions of decreasing square index: west, south-east, south,
/// south-west.
const RAYS_DOWN: [[u64; 64]; 4] = rays([(-1, 0), (1, -1), (0, -1), (-1, -1)]);

const fn rays(dirs: [(i32, i32); 4]) -> [[u64; 64]; 4] {
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
fn flips_g<const AVX: bool>(p: u64, o: u64, sq: u8) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if AVX {
        // SAFETY: AVX is only set where the processor has AVX2
        return unsafe { simd::flips_avx2(p, o, sq as usize) };
    }
    FLIPS[sq as usize & 63](p, o)
}

/// The legal moves, as [`flips_g`] chooses.
#[inline(always)]
fn moves_g<const AVX: bool>(p: u64, o: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if AVX {
        // SAFETY: AVX is only set where the processor has AVX2
        return unsafe { simd::mobility_avx2(p, o) };
    }
    crate::reversi::mobility(p, o)
}

/// The flip functions by square.
static FLIPS: [fn(u64, u64) -> u64; 64] = [
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
fn flips_at<const SQ: usize>(p: u64, o: u64) -> u64 {
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
const NEIGHBOURS: [u64; 64] = {
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
const QUADRANT_ID: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let (x, y) = (sq % 8, sq / 8);
        t[sq] = 1 << ((x / 4) + 2 * (y / 4));
        sq += 1;
    }
    t
};

/// Square classes in the order the shallow search tries them within a parity class: corners
/// first, then the other edge and inner squares, X- and C-squares last.
const PRIORITY_MASKS: [u64; 6] = {
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
fn full_lines(filled: u64, s: u32, up: [u64; 3], down: [u64; 3]) -> u64 {
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
fn stability_threshold(empties: u32) -> i32 {
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
fn corner_stability(p: u64) -> u32 {
    let s = (((0x0100_0000_0000_0001 & p) << 1)
        | ((0x8000_0000_0000_0080 & p) >> 1)
        | ((0x0000_0000_0000_0081 & p) << 8)
        | ((0x8100_0000_0000_0000 & p) >> 8)
        | CORNERS)
        & p;
    s.count_ones()
}

/// Two entries sharing one 64-byte cache line: one memory access per probe. Each entry is
/// three words written and read without locks by all the solving threads: the position's two
/// bitboards each XORed with a mix of the data word, and the data word (bounds, move, empties).
/// A read whose words come from two different writes fails the check of the position (but for
/// odds of about 2^-64), so a torn entry is never taken for another position's.
#[derive(Default)]
#[repr(C, align(64))]
struct Bucket {
    e: [SharedEntry; 2],
}

#[derive(Default)]
struct SharedEntry {
    w: [AtomicU64; 3],
}

#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct Entry {
    p: u64,
    o: u64,
    lower: i8,
    upper: i8,
    mv: u8,
    empties: u8,
}

#[inline(always)]
fn mix_data(d: u64) -> (u64, u64) {
    (
        d.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        d.wrapping_mul(0xD6E8_FEB8_6659_FD93).rotate_left(17),
    )
}

impl SharedEntry {
    #[inline(always)]
    fn load(&self) -> Entry {
        let d = self.w[2].load(Ordering::Relaxed);
        let (mp, mo) = mix_data(d);
        Entry {
            p: self.w[0].load(Ordering::Relaxed) ^ mp,
            o: self.w[1].load(Ordering::Relaxed) ^ mo,
            lower: d as u8 as i8,
            upper: (d >> 8) as u8 as i8,
            mv: (d >> 16) as u8,
            empties: (d >> 24) as u8,
        }
    }

    #[inline(always)]
    fn save(&self, e: &Entry) {
        let d = e.lower as u8 as u64
            | (e.upper as u8 as u64) << 8
            | (e.mv as u64) << 16
            | (e.empties as u64) << 24;
        let (mp, mo) = mix_data(d);
        self.w[0].store(e.p ^ mp, Ordering::Relaxed);
        self.w[1].store(e.o ^ mo, Ordering::Relaxed);
        self.w[2].store(d, Ordering::Relaxed);
    }
}

/// The table of bounds, shared by the threads of a parallel solve.
struct Table {
    buckets: Vec<Bucket>,
}

/// An endgame solver with its own table; reuse it between positions. With
/// [`Solver::threads`] above 1 the solve is shared between threads (young brothers wait: a
/// node's first move is searched alone, the others by every thread free at that moment).
pub struct Solver {
    pub options: SolverOptions,
    /// Threads to solve with (1 by default).
    pub threads: usize,
    table: Arc<Table>,
    pub nodes: u64,
    /// Per number of empties (from 7, the nodes with a move list): nodes, nodes that cut,
    /// cuts on the first move searched, nodes with more than one move, and the sum of the
    /// indices of the cutting moves. Never reset by the solver.
    pub stats: Vec<[u64; 5]>,
    /// Nodes split between threads in the last solve.
    pub splits: u64,
    next_check: u64,
    stop: Option<Arc<AtomicBool>>,
    deadline: Option<Instant>,
    stopped: bool,
    /// Threads free to help (shared by all the threads of one solve).
    idle: Arc<AtomicIsize>,
    /// The flags of the split points this thread works under: any one raised (a cut found by
    /// another thread) ends this thread's part.
    aborts: Vec<Arc<AtomicBool>>,
    /// The search runs its AVX2 build (the processor has AVX2; the tests turn it off to check
    /// the other).
    avx2: bool,
}

/// What the threads working on one split node share.
struct SplitPoint {
    /// The next move of the list to hand out.
    next: AtomicUsize,
    /// The best score so far and its move.
    best: Mutex<(i32, u8)>,
    /// Raised on a cut: the other threads stop their part.
    abort: Arc<AtomicBool>,
}

/// Asks Linux to back a big table with 2 MB pages: with 4 kB pages nearly every probe of a
/// 64 MB table misses the TLB as well as the cache.
#[cfg(target_os = "linux")]
fn advise_huge_pages<T>(table: &[T]) {
    const HUGE: usize = 2 << 20;
    let start = table.as_ptr() as usize;
    let end = start + std::mem::size_of_val(table);
    let (a, b) = (start.next_multiple_of(HUGE), end / HUGE * HUGE);
    if b > a {
        // SAFETY: MADV_HUGEPAGE on whole pages inside our own allocation only changes how the
        // kernel backs them; the mapping and its contents stay valid, and a failure is harmless.
        unsafe { libc::madvise(a as *mut libc::c_void, b - a, libc::MADV_HUGEPAGE) };
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages<T>(_table: &[T]) {}

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

/// A move with its flipped discs and its ordering score (higher first).
#[derive(Clone, Copy, Default)]
struct Candidate {
    score: i32,
    sq: u8,
    flips: u64,
}

/// Moves the best-scored candidate of `list[i..]` to `list[i]` and returns it.
#[inline(always)]
fn select_best(list: &mut [Candidate], i: usize) -> Candidate {
    let mut b = i;
    for j in i + 1..list.len() {
        if list[j].score > list[b].score {
            b = j;
        }
    }
    list.swap(i, b);
    list[i]
}

/// `list` without its entry `i`, the later ones moved down (the list taken as one word).
#[inline(always)]
fn remove_at(list: &[u8; 8], i: usize) -> [u8; 8] {
    let w = u64::from_le_bytes(*list);
    let low = w & ((1u64 << (8 * i)) - 1);
    let high = (w >> (8 * i)) >> 8;
    (low | (high << (8 * i))).to_le_bytes()
}

/// The empty squares in square-priority order, and their parity (a bit per quadrant with an
/// odd number of empties).
#[inline(always)]
fn empty_list(empty: u64) -> ([u8; 8], usize, u8) {
    let mut list = [0u8; 8];
    let mut n = 0;
    let mut parity = 0u8;
    for m in PRIORITY_MASKS {
        let mut b = empty & m;
        while b != 0 {
            let sq = b.trailing_zeros() as u8;
            b &= b - 1;
            list[n] = sq;
            parity ^= QUADRANT_ID[sq as usize];
            n += 1;
        }
    }
    let mut b = empty & !PRIORITY_MASKS.iter().fold(0, |a, m| a | m);
    while b != 0 {
        let sq = b.trailing_zeros() as u8;
        b &= b - 1;
        list[n] = sq;
        parity ^= QUADRANT_ID[sq as usize];
        n += 1;
    }
    (list, n, parity)
}

impl Solver {
    /// A solver whose table takes about `mb` megabytes (1 to
    /// [`crate::search::tt::MAX_HASH_MB`]; a larger request is cut to that).
    pub fn new(mb: usize) -> Solver {
        let mb = mb.clamp(1, crate::search::tt::MAX_HASH_MB);
        let n = (mb * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(512);
        let mut buckets = Vec::with_capacity(n);
        // before the first write, so that the pages are faulted in as huge ones
        advise_huge_pages(buckets.spare_capacity_mut());
        buckets.resize_with(n, Bucket::default);
        Solver {
            options: SolverOptions::default(),
            threads: 1,
            table: Arc::new(Table { buckets }),
            nodes: 0,
            stats: vec![[0; 5]; 65],
            splits: 0,
            next_check: CHECK_EVERY,
            stop: None,
            deadline: None,
            stopped: false,
            idle: Arc::new(AtomicIsize::new(0)),
            aborts: Vec::new(),
            avx2: simd::has_avx2(),
        }
    }

    /// A solver for a helping thread: the same table, options, stop flag and deadline, and the
    /// split flags it works under.
    fn helper(&self, aborts: Vec<Arc<AtomicBool>>) -> Solver {
        Solver {
            options: self.options,
            threads: self.threads,
            table: self.table.clone(),
            nodes: 0,
            stats: vec![[0; 5]; 65],
            splits: 0,
            next_check: 0,
            stop: self.stop.clone(),
            deadline: self.deadline,
            stopped: false,
            idle: self.idle.clone(),
            aborts,
            avx2: self.avx2,
        }
    }

    pub fn clear(&mut self) {
        for b in &self.table.buckets {
            for e in &b.e {
                for w in &e.w {
                    w.store(0, Ordering::Relaxed);
                }
            }
        }
    }

    /// Solves `pos` exactly, or returns `None` if `stop` was raised or `deadline` passed first:
    /// null-window probes (see [`Solver::solve_mtd`]) from [`Solver::estimate`].
    pub fn solve(
        &mut self,
        pos: &Reversi,
        stop: Option<&Arc<AtomicBool>>,
        deadline: Option<Instant>,
    ) -> Option<Solution> {
        let guess = self.estimate(pos);
        self.solve_mtd(pos, guess, stop, deadline)
    }

    /// A first guess of the score for the null-window probes: a shallow search (4 plies, 6
    /// from 24 empties) on the pattern evaluation, rounded to an even score, less 4; 0 when the
    /// options do not use the pattern evaluation or the position has `sort_search` empties or
    /// fewer. The guess is kept low on purpose: a probe above the score fails low, and that
    /// costs a refutation of every move at the root, while probes below it fail high on one
    /// move (FFO #45, score +6: probes at 10 and 8 took 129 M and 145 M nodes before the
    /// exact probe at 6; from 0, probes at 0, 2 and 4 took 60 M, 22 M and 43 M). On #40-#45 a
    /// guess 4 below the estimate took 261 M nodes, 2 below 280 M, the estimate itself 393 M.
    pub fn estimate(&self, pos: &Reversi) -> i32 {
        let (p, o) = (pos.own(), pos.opp());
        let empties = 64 - (p | o).count_ones();
        if !self.options.sort_patterns || empties <= self.options.sort_search {
            return 0;
        }
        let depth = if empties >= 24 { 6 } else { 4 };
        let v = shallow_search(p, o, depth, -INF_SORT, INF_SORT, self.leaf_eval());
        // finished games score 1000 per disc, estimates 100 (and lie within ±6400)
        let discs = if v.abs() > 6500 { v / 1000 } else { v / 100 };
        ((discs - 4).clamp(-64, 64) / 2) * 2
    }

    /// Solves by null-window probes (MTD(f)) starting from the estimate `guess`; the table
    /// keeps the work of one probe for the next.
    pub fn solve_mtd(
        &mut self,
        pos: &Reversi,
        guess: i32,
        stop: Option<&Arc<AtomicBool>>,
        deadline: Option<Instant>,
    ) -> Option<Solution> {
        let (mut lo, mut hi) = (-64, 64);
        let mut g = (guess.clamp(-64, 64) / 2) * 2;
        let mut best = None;
        let mut nodes = 0;
        loop {
            let r = self.solve_window(pos, g - 1, g + 1, stop, deadline)?;
            nodes += self.nodes;
            if r.best.is_none() {
                self.nodes = nodes;
                return Some(r);
            }
            if r.score < g {
                hi = r.score;
                g = r.score.max(lo);
            } else if r.score > g {
                lo = r.score;
                best = r.best;
                g = r.score.min(hi);
            } else {
                self.nodes = nodes;
                return Some(r);
            }
            if lo >= hi {
                if best.is_some() {
                    self.nodes = nodes;
                    return Some(Solution { best, score: lo });
                }
                // only upper bounds so far: one more probe at the score finds its move
                g = lo;
            }
        }
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
        self.splits = 0;
        self.next_check = 0;
        self.stop = stop.cloned();
        self.deadline = deadline;
        self.stopped = false;
        self.aborts.clear();
        self.idle
            .store(self.threads.max(1) as isize - 1, Ordering::Relaxed);
        self.check();
        if self.stopped {
            return None;
        }
        let (p, o) = (pos.own(), pos.opp());
        let moves = mobility(p, o);
        if moves == 0 {
            if mobility(o, p) == 0 {
                return Some(Solution {
                    best: None,
                    score: final_score(p, o),
                });
            }
            let s = -self.search(o, p, -beta, -alpha, true);
            return (!self.stopped).then_some(Solution {
                best: Some(PASS),
                score: s,
            });
        }
        let mut buf = [MaybeUninit::uninit(); 36];
        let list = self.order_moves::<false>(p, o, moves, None, &mut buf);
        let n = list.len();
        list[..n].sort_by_key(|c| -c.score);
        let mut best = list[0].sq;
        let mut a = alpha;
        let mut best_score = -65;
        for (i, c) in list[..n].iter().enumerate() {
            if i > 0 && n - i >= 2 && self.threads > 1 && self.claim_helper() {
                let (s, m) = self.split(p, o, &list[i..n], a, beta, best_score, best);
                if self.stopped {
                    return None;
                }
                best_score = s;
                best = m;
                break;
            }
            let (np, no) = (p | c.flips | (1u64 << c.sq), o & !c.flips);
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
                best = c.sq;
                if s > a {
                    a = s;
                    if a >= beta {
                        break;
                    }
                }
            }
        }
        Some(Solution {
            best: Some(best),
            score: best_score,
        })
    }

    /// Fills `out` with the moves of `p` (given by the bitboard `moves`) with their flips and
    /// ordering scores (higher first; not sorted); returns them (the start of `out`, left
    /// uninitialised beyond: no clearing of the whole list at every node).
    #[inline(always)]
    fn order_moves<'a, const AVX: bool>(
        &self,
        p: u64,
        o: u64,
        mut moves: u64,
        hash_move: Option<u8>,
        out: &'a mut [MaybeUninit<Candidate>; 36],
    ) -> &'a mut [Candidate] {
        let empties = 64 - (p | o).count_ones();
        let mut parity = 0u8;
        let mut e = !(p | o);
        while e != 0 {
            parity ^= QUADRANT_ID[e.trailing_zeros() as usize];
            e &= e - 1;
        }
        let mut n = 0;
        while moves != 0 {
            let sq = moves.trailing_zeros() as u8;
            moves &= moves - 1;
            let f = flips_g::<AVX>(p, o, sq);
            let (np, no) = (p | f | (1u64 << sq), o & !f);
            let score = if Some(sq) == hash_move {
                1 << 30
            } else if empties > self.options.sort_search {
                // the opponent's value after a shallow search: lower is better for us
                let d = if empties >= self.options.sort_depth3 {
                    3
                } else if empties >= self.options.sort_depth2 {
                    2
                } else {
                    1
                };
                let v = if self.options.sort_patterns {
                    -shallow_search(no, np, d, -INF_SORT, INF_SORT, self.leaf_eval())
                } else if self.options.sort_full_eval {
                    -sort_search_full(no, np, d, -INF_SORT, INF_SORT)
                } else {
                    -sort_search(no, np, d, -INF_SORT, INF_SORT)
                };
                if self.options.sort_mobility != 0 {
                    let m = moves_g::<AVX>(no, np);
                    let wm = (m.count_ones() + (m & CORNERS).count_ones()) as i32;
                    v - self.options.sort_mobility * wm
                } else {
                    v
                }
            } else {
                let m = moves_g::<AVX>(no, np);
                let wm = (m.count_ones() + (m & CORNERS).count_ones()) as i32;
                let pot = (neighbours(np) & !(np | no)).count_ones() as i32;
                let mut s = (36 - wm) << 15;
                s += (corner_stability(np) as i32) << 11;
                s += (36 - pot) << 5;
                if parity & QUADRANT_ID[sq as usize] != 0 {
                    s += 1 << 4;
                }
                s
            };
            out[n] = MaybeUninit::new(Candidate {
                score,
                sq,
                flips: f,
            });
            n += 1;
        }
        // SAFETY: the first n entries were written just above, and MaybeUninit<Candidate> has
        // the layout of Candidate
        unsafe { std::slice::from_raw_parts_mut(out.as_mut_ptr() as *mut Candidate, n) }
    }

    /// The leaf evaluation of the ordering searches with the pattern evaluation.
    #[inline(always)]
    fn leaf_eval(&self) -> impl Fn(u64, u64) -> i32 + Copy {
        let eval = crate::ai::patterns::PatternEval::trained();
        let max = self.options.pattern_max_empties;
        move |p: u64, o: u64| {
            if 64 - (p | o).count_ones() <= max {
                eval.evaluate(p, o)
            } else {
                crate::ai::reversi::ReversiWeights::FULL.evaluate(p, o)
            }
        }
    }

    #[inline(always)]
    fn check(&mut self) {
        if self.nodes < self.next_check {
            return;
        }
        self.next_check = self.nodes
            + if self.threads > 1 {
                CHECK_EVERY_SPLIT
            } else {
                CHECK_EVERY
            };
        if self.raised() {
            self.stopped = true;
        }
    }

    /// The stop flag, the deadline or a split flag this thread works under is up.
    fn raised(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.aborts.iter().any(|a| a.load(Ordering::Relaxed))
    }

    #[inline(always)]
    fn bucket(&self, p: u64, o: u64) -> &Bucket {
        let n = self.table.buckets.len();
        &self.table.buckets[((table_hash(p, o) as u128 * n as u128) >> 64) as usize]
    }

    /// Starts loading the position's bucket into the cache, so that a probe soon after does
    /// not wait for memory.
    #[inline(always)]
    fn prefetch(&self, p: u64, o: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let b: *const Bucket = self.bucket(p, o);
            // SAFETY: a prefetch is only a hint; the address is that of a live bucket
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    b as *const i8,
                )
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (p, o);
    }

    /// The table's bounds for a position, if it is there.
    #[inline(always)]
    fn probe(&self, p: u64, o: u64) -> Option<Entry> {
        let b = self.bucket(p, o);
        let e = b.e[0].load();
        if e.p == p && e.o == o {
            return Some(e);
        }
        let e = b.e[1].load();
        (e.p == p && e.o == o).then_some(e)
    }

    /// Records a search result `best` found with the window `(alpha, beta)`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn store(&self, p: u64, o: u64, alpha: i32, beta: i32, best: i32, mv: u8, empties: u32) {
        let b = self.bucket(p, o);
        let (e0, e1) = (b.e[0].load(), b.e[1].load());
        let (mut e, j) = if e0.p == p && e0.o == o {
            (e0, 0)
        } else if e1.p == p && e1.o == o {
            (e1, 1)
        } else {
            let fresh = Entry {
                p,
                o,
                lower: -64,
                upper: 64,
                mv,
                empties: empties as u8,
            };
            if e0.empties as u32 <= empties {
                // the deeper slot keeps the bigger subtree; the displaced entry moves down
                b.e[1].save(&e0);
                (fresh, 0)
            } else {
                (fresh, 1)
            }
        };
        if best >= beta {
            e.lower = e.lower.max(best as i8);
        } else if best > alpha {
            e.lower = best as i8;
            e.upper = best as i8;
        } else {
            e.upper = e.upper.min(best as i8);
        }
        if e.lower > e.upper {
            // bounds from different windows may cross only through fail-soft values; keep the
            // newest
            if best >= beta {
                e.upper = 64;
            } else {
                e.lower = -64;
            }
        }
        e.mv = mv;
        b.e[j].save(&e);
    }

    /// The value of the position with `p` to move against `o`, within `(alpha, beta)`: the
    /// AVX2 build of the search where the processor allows.
    #[inline(always)]
    fn search(&mut self, p: u64, o: u64, alpha: i32, beta: i32, passed: bool) -> i32 {
        if self.avx2 {
            self.search_d::<true>(p, o, alpha, beta, passed)
        } else {
            self.search_d::<false>(p, o, alpha, beta, passed)
        }
    }

    /// [`Solver::search`] with the routines chosen (`AVX` only where the processor has AVX2).
    #[inline(always)]
    fn search_d<const AVX: bool>(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        passed: bool,
    ) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if AVX {
            // SAFETY: AVX is only set where the processor has AVX2
            return unsafe { self.search_avx2(p, o, alpha, beta, passed) };
        }
        self.search_scalar(p, o, alpha, beta, passed)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn search_avx2(&mut self, p: u64, o: u64, alpha: i32, beta: i32, passed: bool) -> i32 {
        self.search_g::<true>(p, o, alpha, beta, passed)
    }

    #[inline(never)]
    fn search_scalar(&mut self, p: u64, o: u64, alpha: i32, beta: i32, passed: bool) -> i32 {
        self.search_g::<false>(p, o, alpha, beta, passed)
    }

    /// The search itself, from 7 empties (see [`Solver::search`]).
    #[inline(always)]
    fn search_g<const AVX: bool>(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        mut beta: i32,
        passed: bool,
    ) -> i32 {
        let empties = 64 - (p | o).count_ones();
        if empties <= self.options.shallow.min(7) {
            let (list, n, parity) = empty_list(!(p | o));
            return self.shallow_d::<AVX>(p, o, alpha, beta, &list, n, parity, passed);
        }
        let use_tt = empties >= self.options.tt_min;
        if use_tt {
            self.prefetch(p, o);
        }
        self.nodes += 1;
        self.stats[empties as usize][0] += 1;
        self.check();
        if self.stopped {
            return 0;
        }
        // stability cut
        // (the opponent's discs bound its stable ones: a cheap test first)
        if alpha >= stability_threshold(empties) && 64 - 2 * (o.count_ones() as i32) < beta {
            let upper = 64 - 2 * stable_discs(o, p).count_ones() as i32;
            if upper <= alpha {
                return upper;
            }
            if upper < beta {
                beta = upper;
            }
        }
        let moves = moves_g::<AVX>(p, o);
        if moves == 0 {
            if passed {
                return final_score(p, o);
            }
            return -self.search_d::<AVX>(o, p, -beta, -alpha, true);
        }
        let mut hash_move = None;
        if use_tt && let Some(e) = self.probe(p, o) {
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
        let orig_alpha = alpha;
        let mut best = -65;
        let mut best_move = 0u8;
        if moves & (moves - 1) == 0 {
            // a single move: no ordering needed
            let sq = moves.trailing_zeros() as u8;
            let f = flips_g::<AVX>(p, o, sq);
            best = -self.search_d::<AVX>(o & !f, p | f | (1u64 << sq), -beta, -alpha, false);
            best_move = sq;
        } else {
            let mut rest = moves;
            if let Some(hm) = hash_move.filter(|&m| m < 64 && moves >> m & 1 != 0) {
                // the table's move first, before the others are generated and ordered: a cut
                // here saves the ordering
                let f = flips_g::<AVX>(p, o, hm);
                best = -self.search_d::<AVX>(o & !f, p | f | (1u64 << hm), -beta, -alpha, false);
                if self.stopped {
                    return 0;
                }
                best_move = hm;
                rest &= !(1u64 << hm);
                if best > alpha {
                    alpha = best;
                    if best >= beta {
                        self.stats[empties as usize][1] += 1;
                        self.stats[empties as usize][2] += 1;
                        self.store(p, o, orig_alpha, beta, best, best_move, empties);
                        return best;
                    }
                }
            }
            let mut buf = [MaybeUninit::uninit(); 36];
            let list = self.order_moves::<AVX>(p, o, rest, None, &mut buf);
            let n = list.len();
            let searched = best > -65;
            if empties >= self.options.etc_min {
                // enhanced transposition cutoff: a child already known to be good enough
                // (all the children's buckets are requested first, so that the misses overlap)
                for c in &list[..n] {
                    self.prefetch(o & !c.flips, p | c.flips | (1u64 << c.sq));
                }
                for c in &list[..n] {
                    let (np, no) = (p | c.flips | (1u64 << c.sq), o & !c.flips);
                    if let Some(e) = self.probe(no, np) {
                        let s = -(e.upper as i32);
                        if s >= beta {
                            if use_tt {
                                self.store(p, o, orig_alpha, beta, s, c.sq, empties);
                            }
                            return s;
                        }
                    }
                }
            }
            for i in 0..n {
                if (i > 0 || searched)
                    && n - i >= 2
                    && empties >= self.options.split_min
                    && self.threads > 1
                    && self.claim_helper()
                {
                    // the first move did not cut: the others are shared between threads
                    list[i..n].sort_unstable_by_key(|c| -c.score);
                    let (s, m) = self.split(p, o, &list[i..n], alpha, beta, best, best_move);
                    if self.stopped {
                        return 0;
                    }
                    best = s;
                    best_move = m;
                    break;
                }
                // selection instead of a full sort: most nodes cut on their first move
                let c = select_best(&mut list[..n], i);
                let (np, no) = (p | c.flips | (1u64 << c.sq), o & !c.flips);
                let s = if i == 0 && !searched {
                    -self.search_d::<AVX>(no, np, -beta, -alpha, false)
                } else {
                    let s = -self.search_d::<AVX>(no, np, -alpha - 1, -alpha, false);
                    if s > alpha && s < beta && !self.stopped {
                        -self.search_d::<AVX>(no, np, -beta, -alpha, false)
                    } else {
                        s
                    }
                };
                if self.stopped {
                    return 0;
                }
                if s > best {
                    best = s;
                    best_move = c.sq;
                    if s > alpha {
                        alpha = s;
                        if s >= beta {
                            self.stats[empties as usize][1] += 1;
                            if i == 0 && !searched {
                                self.stats[empties as usize][2] += 1;
                            }
                            self.stats[empties as usize][4] += i as u64 + searched as u64;
                            break;
                        }
                    }
                }
            }
            self.stats[empties as usize][3] += 1;
        }
        if self.stopped {
            return 0;
        }
        if use_tt {
            self.store(p, o, orig_alpha, beta, best, best_move, empties);
        }
        best
    }

    /// Takes a free thread for a split, if there is one.
    #[inline(always)]
    fn claim_helper(&self) -> bool {
        let mut v = self.idle.load(Ordering::Relaxed);
        while v > 0 {
            match self
                .idle
                .compare_exchange_weak(v, v - 1, Ordering::AcqRel, Ordering::Relaxed)
            {
                Ok(_) => return true,
                Err(x) => v = x,
            }
        }
        false
    }

    /// Searches the `moves` (ordered, none searched yet) of the node `p`, `o` with a helping
    /// thread (whose slot [`Solver::claim_helper`] took), both taking the next move from the
    /// list until it is empty or one finds a cut. `best` and `best_move` are what the node's
    /// moves searched before gave; returns the best score and its move. `self.stopped` tells
    /// afterwards whether the result is void (the stop flag, the deadline or a cut above).
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn split(
        &mut self,
        p: u64,
        o: u64,
        moves: &[Candidate],
        alpha: i32,
        beta: i32,
        best: i32,
        best_move: u8,
    ) -> (i32, u8) {
        self.splits += 1;
        let sp = SplitPoint {
            next: AtomicUsize::new(0),
            best: Mutex::new((best, best_move)),
            abort: Arc::new(AtomicBool::new(false)),
        };
        self.aborts.push(sp.abort.clone());
        let mut helper = self.helper(self.aborts.clone());
        let idle = self.idle.clone();
        let helper = std::thread::scope(|scope| {
            let h = scope.spawn(|| {
                helper.split_work(p, o, moves, alpha, beta, &sp);
                helper.idle.fetch_add(1, Ordering::AcqRel);
                helper
            });
            self.split_work(p, o, moves, alpha, beta, &sp);
            // while waiting for the helper, this thread's slot is free for another split
            idle.fetch_add(1, Ordering::AcqRel);
            let helper = h.join().expect("a solver thread panicked");
            idle.fetch_sub(1, Ordering::AcqRel);
            helper
        });
        self.nodes += helper.nodes;
        self.splits += helper.splits;
        for (a, b) in self.stats.iter_mut().zip(&helper.stats) {
            for k in 0..5 {
                a[k] += b[k];
            }
        }
        self.aborts.pop();
        // a stop because of this split's own flag means a cut was found: the result stands
        self.stopped = self.raised();
        *sp.best.lock().expect("a solver thread panicked")
    }

    /// One thread's part of a split: the next move of the list until none is left or a
    /// thread finds a cut.
    fn split_work(
        &mut self,
        p: u64,
        o: u64,
        moves: &[Candidate],
        alpha: i32,
        beta: i32,
        sp: &SplitPoint,
    ) {
        loop {
            let i = sp.next.fetch_add(1, Ordering::Relaxed);
            if i >= moves.len() || self.stopped {
                return;
            }
            let c = moves[i];
            let a = sp
                .best
                .lock()
                .expect("a solver thread panicked")
                .0
                .max(alpha);
            if a >= beta {
                return;
            }
            let (np, no) = (p | c.flips | (1u64 << c.sq), o & !c.flips);
            let mut s = -self.search(no, np, -a - 1, -a, false);
            if s > a && s < beta && !self.stopped {
                s = -self.search(no, np, -beta, -a, false);
            }
            if self.stopped {
                return;
            }
            let mut b = sp.best.lock().expect("a solver thread panicked");
            if s > b.0 {
                *b = (s, c.sq);
                if s >= beta {
                    sp.abort.store(true, Ordering::Relaxed);
                    return;
                }
            }
        }
    }

    /// [`Solver::shallow_g`] with the routines chosen (`AVX` only where the processor has
    /// AVX2).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn shallow_d<const AVX: bool>(
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
        #[cfg(target_arch = "x86_64")]
        if AVX {
            // SAFETY: AVX is only set where the processor has AVX2
            return unsafe { self.shallow_avx2(p, o, alpha, beta, list, n, parity, passed) };
        }
        self.shallow_scalar(p, o, alpha, beta, list, n, parity, passed)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    #[allow(clippy::too_many_arguments)]
    fn shallow_avx2(
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
        self.shallow_g::<true>(p, o, alpha, beta, list, n, parity, passed)
    }

    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn shallow_scalar(
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
        self.shallow_g::<false>(p, o, alpha, beta, list, n, parity, passed)
    }

    /// Few empties: walk the list of empty squares in parity order, no table.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn shallow_g<const AVX: bool>(
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
        match n {
            0 => return final_score(p, o),
            1 => return last1(p, o, list[0]),
            2 => return self.last2::<AVX>(p, o, alpha, beta, list[0], list[1]),
            3 => return self.last3::<AVX>(p, o, alpha, beta, [list[0], list[1], list[2]], passed),
            4 => {
                // odd quadrants first, square priority within each
                let mut sq = [0u8; 4];
                let mut k = 0;
                for odd in [true, false] {
                    for &x in &list[..4] {
                        if (parity & QUADRANT_ID[x as usize] != 0) == odd {
                            sq[k] = x;
                            k += 1;
                        }
                    }
                }
                return self.last4_d::<AVX>(p, o, alpha, beta, sq, passed);
            }
            _ => {}
        }
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
        for odd in [true, false] {
            for i in 0..n {
                let sq = list[i];
                if (parity & QUADRANT_ID[sq as usize] != 0) != odd
                    || NEIGHBOURS[sq as usize] & o == 0
                {
                    continue;
                }
                let f = flips_g::<AVX>(p, o, sq);
                if f == 0 {
                    continue;
                }
                let (np, no) = (p | f | (1u64 << sq), o & !f);
                let child = remove_at(list, i);
                let s = -self.shallow_d::<AVX>(
                    no,
                    np,
                    -beta,
                    -alpha,
                    &child,
                    n - 1,
                    parity ^ QUADRANT_ID[sq as usize],
                    false,
                );
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
            return -self.shallow_d::<AVX>(o, p, -beta, -alpha, list, n, parity, true);
        }
        best
    }

    /// [`Solver::last4_g`] with the routines chosen (`AVX` only where the processor has AVX2).
    #[inline(always)]
    fn last4_d<const AVX: bool>(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        sq: [u8; 4],
        passed: bool,
    ) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if AVX {
            // SAFETY: AVX is only set where the processor has AVX2
            return unsafe { self.last4_avx2(p, o, alpha, beta, sq, passed) };
        }
        self.last4_scalar(p, o, alpha, beta, sq, passed)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn last4_avx2(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        sq: [u8; 4],
        passed: bool,
    ) -> i32 {
        self.last4_g::<true>(p, o, alpha, beta, sq, passed)
    }

    #[inline(never)]
    fn last4_scalar(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        sq: [u8; 4],
        passed: bool,
    ) -> i32 {
        self.last4_g::<false>(p, o, alpha, beta, sq, passed)
    }

    /// Four empties, tried in the order given (no move list), with the stability cut.
    #[inline(always)]
    fn last4_g<const AVX: bool>(
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
                        let s = -self.last3::<AVX>(
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

    /// Three empties, tried in the order given (no move list).
    #[inline(always)]
    fn last3<const AVX: bool>(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        sq: [u8; 3],
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
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
        -self.last3_pass::<AVX>(o, p, -beta, -alpha, sq)
    }

    /// [`Solver::last3`] after a pass (not inlined, to keep `last3` small).
    #[inline(never)]
    fn last3_pass<const AVX: bool>(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        sq: [u8; 3],
    ) -> i32 {
        self.last3::<AVX>(p, o, alpha, beta, sq, true)
    }

    /// Two empties `a` and `b`.
    #[inline(always)]
    fn last2<const AVX: bool>(
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

#[inline(always)]
fn neighbours(bb: u64) -> u64 {
    let row = ((bb << 1) & NOT_A) | ((bb >> 1) & NOT_H);
    let all = bb | row;
    row | (all << 8) | (all >> 8)
}

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

/// A shallow alpha-beta with [`sort_eval`] at the leaves.
fn sort_search(p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
    shallow_search(p, o, depth, alpha, beta, sort_eval)
}

/// [`sort_search`] with the midgame evaluation at the leaves.
fn sort_search_full(p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
    shallow_search(p, o, depth, alpha, beta, |p, o| {
        crate::ai::reversi::ReversiWeights::FULL.evaluate(p, o)
    })
}

/// A shallow alpha-beta for move ordering with `leaf` at depth 0 (finished games score their
/// disc difference × 1000).
fn shallow_search(
    p: u64,
    o: u64,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    leaf: impl Fn(u64, u64) -> i32 + Copy,
) -> i32 {
    if depth == 0 {
        return leaf(p, o);
    }
    let mut moves = mobility(p, o);
    if moves == 0 {
        if mobility(o, p) == 0 {
            return final_score(p, o) * 1000;
        }
        return -shallow_search(o, p, depth - 1, -beta, -alpha, leaf);
    }
    let mut best = -INF_SORT;
    while moves != 0 {
        let sq = moves.trailing_zeros() as u8;
        moves &= moves - 1;
        let f = flips(p, o, sq);
        let s = -shallow_search(o & !f, p | f | (1u64 << sq), depth - 1, -beta, -alpha, leaf);
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

/// The lines through each square in the a1-h8 direction (+9) and the a8-h1 direction (+7),
/// the square included.
const DIAGONALS: [[u64; 64]; 2] = {
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
const COUNT_FLIPS: [[u8; 256]; 8] = {
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
fn count_last_flips(p: u64, sq: u8) -> i32 {
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
fn last1(p: u64, o: u64, sq: u8) -> i32 {
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
        let mut scalar = Solver::new(4);
        scalar.avx2 = false;
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
            // the build of the search without AVX2 as well
            scalar.clear();
            let s = scalar.solve(&pos, None, None).unwrap();
            assert_eq!(s.score, exact, "scalar: {}", pos.to_text());
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
            // null-window probes give the same result from any first guess
            for guess in [exact - 20, exact + 6, 64, -64] {
                let m = solver.solve_mtd(&pos, guess, None, None).unwrap();
                assert_eq!(m.score, exact, "guess {guess} in {}", pos.to_text());
                if let Some(mv) = m.best.filter(|&mv| mv != PASS) {
                    let mut q = pos;
                    q.play(mv).unwrap();
                    assert_eq!(-minimax(&mut q), exact, "move {mv} in {}", pos.to_text());
                }
            }
            checked += 1;
        }
    }

    /// Two threads splitting from 8 empties (so that small positions split too) give the
    /// exact score, and a best move that keeps it, on random endgames up to 16 empties; the
    /// splits do happen.
    #[test]
    fn parallel_solver_equals_the_serial_one() {
        let mut serial = Solver::new(4);
        let mut parallel = Solver::new(4);
        parallel.threads = 2;
        parallel.options.split_min = 8;
        let (mut checked, mut seed, mut splits) = (0, 1000, 0);
        while checked < 40 {
            seed += 1;
            let empties = 10 + (seed % 7) as u32;
            let Some(pos) = random_endgame(seed, empties) else {
                continue;
            };
            serial.clear();
            parallel.clear();
            let a = serial.solve(&pos, None, None).unwrap();
            let b = parallel.solve(&pos, None, None).unwrap();
            assert_eq!(a.score, b.score, "{}", pos.to_text());
            splits += parallel.splits;
            if let Some(m) = b.best.filter(|&m| m != PASS) {
                let mut q = pos;
                q.play(m).unwrap();
                serial.clear();
                let after = serial.solve(&q, None, None).unwrap();
                assert_eq!(-after.score, a.score, "move {m} in {}", pos.to_text());
            }
            checked += 1;
        }
        assert!(splits > 0);
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
    fn remove_at_drops_one_entry() {
        let list = [11u8, 22, 33, 44, 55, 66, 77, 88];
        for i in 0..8 {
            let mut v = list.to_vec();
            v.remove(i);
            assert_eq!(&remove_at(&list, i)[..7], &v[..], "{i}");
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

    /// A stop flag raised by another thread in the middle of a solve (of the start position,
    /// which never ends) ends it within 50 ms (one try in three, for a busy machine); a
    /// deadline two minutes away turns a flag that is not honoured into a failure, not a hang.
    /// A flag raised before the solve ends it at once.
    #[test]
    fn stop_flag_ends_a_solve() {
        use std::time::{Duration, Instant};
        let pos = Reversi::start();
        let mut times = Vec::new();
        for _ in 0..3 {
            let stop = Arc::new(AtomicBool::new(false));
            let flag = stop.clone();
            let h = std::thread::spawn(move || {
                let mut s = Solver::new(1);
                let far = Instant::now() + Duration::from_secs(120);
                (s.solve(&pos, Some(&flag), Some(far)), Instant::now())
            });
            std::thread::sleep(Duration::from_millis(100));
            assert!(!h.is_finished(), "the solve ended before the stop");
            let raised = Instant::now();
            stop.store(true, Ordering::Relaxed);
            let (r, ended) = h.join().unwrap();
            assert_eq!(r, None);
            times.push(ended.saturating_duration_since(raised));
            if times.last() <= Some(&Duration::from_millis(50)) {
                break;
            }
        }
        assert!(
            times.iter().any(|&t| t <= Duration::from_millis(50)),
            "stopped {times:?} after the flag"
        );
        let raised = Arc::new(AtomicBool::new(true));
        let mut s = Solver::new(1);
        assert_eq!(s.solve(&pos, Some(&raised), None), None);
        // two threads stop as well (a deadline, here)
        let mut s = Solver::new(1);
        s.threads = 2;
        let t = Instant::now();
        let r = s.solve(&pos, None, Some(t + Duration::from_millis(100)));
        assert_eq!(r, None);
        assert!(t.elapsed() < Duration::from_secs(60), "{:?}", t.elapsed());
    }
}
