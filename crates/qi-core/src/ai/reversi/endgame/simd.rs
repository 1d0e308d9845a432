//! AVX2 versions of the solver's two hottest bitboard routines, flipped discs and legal moves:
//! the four directions of a kind are worked out side by side in the four 64-bit lanes of one
//! 256-bit register, with a shift count per lane. The build targets x86-64-v2 (no AVX2), so
//! these are chosen at run time when the processor has AVX2 (nearly every x86-64 processor
//! since 2013-2015); elsewhere the scalar code runs. Where the processor also has AVX-512 a
//! third build of the search runs, with [`flips_avx512`]. All are checked against the scalar
//! routines in the tests.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

use super::{RAYS_DOWN, RAYS_UP};

/// Whether the AVX2 routines may run (the processor's answer is cached by the standard
/// library: one load and a test).
#[inline(always)]
pub(super) fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether the AVX-512 build may run (AVX-512 F, VL, CD and BW, with BMI1, BMI2 and LZCNT).
#[inline(always)]
pub(super) fn has_avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        has_avx2()
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("avx512cd")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The builds of the search, by the routines they use (the `AVX` parameter of the generic
/// routines): the scalar ones, AVX2, or AVX-512 (with BMI1, BMI2 and LZCNT).
pub(super) const SCALAR: u8 = 0;
pub(super) const AVX2: u8 = 1;
pub(super) const AVX512: u8 = 2;

/// The best build this processor runs.
pub(super) fn level() -> u8 {
    if has_avx512() {
        AVX512
    } else if has_avx2() {
        AVX2
    } else {
        SCALAR
    }
}

/// Four rays of one square, one a lane.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Rays4([u64; 4]);

const fn rays4(t: &[[u64; 64]; 4]) -> [Rays4; 64] {
    let mut r = [Rays4([0; 4]); 64];
    let mut sq = 0;
    while sq < 64 {
        r[sq] = Rays4([t[0][sq], t[1][sq], t[2][sq], t[3][sq]]);
        sq += 1;
    }
    r
}

/// Per square, the rays towards higher squares (east, north-west, north, north-east: steps 1,
/// 7, 8, 9) and towards lower ones (west, south-east, south, south-west: the same steps).
static UP4: [Rays4; 64] = rays4(&RAYS_UP);
static DOWN4: [Rays4; 64] = rays4(&RAYS_DOWN);

/// The discs of `o` that a disc played on `sq` by `p` turns over.
///
/// # Safety
/// The processor must have AVX2 ([`has_avx2`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn flips_avx2(p: u64, o: u64, sq: usize) -> u64 {
    let sq = sq & 63;
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_set1_epi64x(o as i64);
    let zero = _mm256_setzero_si256();
    // SAFETY: the tables are 32-byte aligned arrays of four words
    let (up, down) = unsafe {
        (
            _mm256_load_si256(UP4[sq].0.as_ptr() as *const __m256i),
            _mm256_load_si256(DOWN4[sq].0.as_ptr() as *const __m256i),
        )
    };
    // going up, the first square that is not the opponent's is the lowest such bit of the ray;
    // the squares before it turn if it is the player's
    let b = _mm256_andnot_si256(oo, up);
    let first = _mm256_and_si256(b, _mm256_sub_epi64(zero, b));
    let miss = _mm256_cmpeq_epi64(_mm256_and_si256(first, pp), zero);
    let before = _mm256_and_si256(_mm256_add_epi64(first, _mm256_set1_epi64x(-1)), up);
    let f_up = _mm256_andnot_si256(miss, before);
    // going down it is the highest such bit: smear the non-opponent squares downwards (7 steps
    // cover a ray), the squares of the ray above the smear are the candidates, and the one
    // bit of the smear not below another is the first square
    let s1 = _mm256_set_epi64x(9, 8, 7, 1);
    let s2 = _mm256_set_epi64x(18, 16, 14, 2);
    let s4 = _mm256_set_epi64x(36, 32, 28, 4);
    let b = _mm256_andnot_si256(oo, down);
    let mut e = _mm256_or_si256(b, _mm256_srlv_epi64(b, s1));
    e = _mm256_or_si256(e, _mm256_srlv_epi64(e, s2));
    e = _mm256_or_si256(e, _mm256_srlv_epi64(e, s4));
    let first = _mm256_andnot_si256(_mm256_srlv_epi64(e, s1), b);
    let miss = _mm256_cmpeq_epi64(_mm256_and_si256(first, pp), zero);
    let f_down = _mm256_andnot_si256(miss, _mm256_andnot_si256(e, down));
    let f = _mm256_or_si256(f_up, f_down);
    let f = _mm_or_si128(_mm256_castsi256_si128(f), _mm256_extracti128_si256::<1>(f));
    let f = _mm_or_si128(f, _mm_unpackhi_epi64(f, f));
    _mm_cvtsi128_si64(f) as u64
}

/// [`flips_avx2`] with AVX-512 (after Edax's flip_avx512cd): going down, the first square
/// that is not the opponent's is found by a leading-zero count per lane, and the masks are
/// combined by ternary logic.
///
/// # Safety
/// The processor must have AVX-512 F, VL and CD ([`has_avx512`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd")]
#[inline]
pub(super) unsafe fn flips_avx512(p: u64, o: u64, sq: usize) -> u64 {
    let sq = sq & 63;
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_set1_epi64x(o as i64);
    let zero = _mm256_setzero_si256();
    // SAFETY: the tables are 32-byte aligned arrays of four words
    let (up, down) = unsafe {
        (
            _mm256_load_si256(UP4[sq].0.as_ptr() as *const __m256i),
            _mm256_load_si256(DOWN4[sq].0.as_ptr() as *const __m256i),
        )
    };
    // going down: the highest square of the ray that is not the opponent's (a shift by 64,
    // none, gives 0), kept if it is the player's; the squares of the ray above it turn
    let lz = _mm256_lzcnt_epi64(_mm256_andnot_si256(oo, down));
    let out = _mm256_and_si256(_mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), lz), pp);
    // down & (-out ^ out)
    let f_down = _mm256_ternarylogic_epi64::<0x28>(_mm256_sub_epi64(zero, out), out, down);
    // going up: the lowest square that is not the opponent's, kept if it is the player's
    let b = _mm256_andnot_si256(oo, up);
    let first = _mm256_ternarylogic_epi64::<0x80>(b, _mm256_sub_epi64(zero, b), pp);
    // with none, all ones (nothing turns); else the bits from it up
    let above = _mm256_sub_epi64(_mm256_cmpeq_epi64(first, zero), first);
    // f_down | (up & !above)
    let f = _mm256_ternarylogic_epi64::<0xF2>(f_down, above, up);
    let f = _mm_or_si128(_mm256_castsi256_si128(f), _mm256_extracti128_si256::<1>(f));
    let f = _mm_or_si128(f, _mm_unpackhi_epi64(f, f));
    _mm_cvtsi128_si64(f) as u64
}

/// The squares where `p` may play against `o` (the same as [`crate::reversi::mobility`]).
///
/// # Safety
/// The processor must have AVX2 ([`has_avx2`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(super) unsafe fn mobility_avx2(p: u64, o: u64) -> u64 {
    const INNER: u64 = 0x7E7E_7E7E_7E7E_7E7E;
    let inner = (o & INNER) as i64;
    let pp = _mm256_set1_epi64x(p as i64);
    // steps 1, 7, 8, 9: a run of opponent's discs may not wrap round a side except vertically
    let mask = _mm256_set_epi64x(inner, o as i64, inner, inner);
    let s1 = _mm256_set_epi64x(9, 8, 7, 1);
    let s2 = _mm256_set_epi64x(18, 16, 14, 2);
    // runs of the opponent's discs next to the player's, up to 6 long, each way
    let ml = _mm256_and_si256(mask, _mm256_sllv_epi64(mask, s1));
    let mut fl = _mm256_and_si256(mask, _mm256_sllv_epi64(pp, s1));
    fl = _mm256_or_si256(fl, _mm256_and_si256(mask, _mm256_sllv_epi64(fl, s1)));
    fl = _mm256_or_si256(fl, _mm256_and_si256(ml, _mm256_sllv_epi64(fl, s2)));
    fl = _mm256_or_si256(fl, _mm256_and_si256(ml, _mm256_sllv_epi64(fl, s2)));
    let mr = _mm256_and_si256(mask, _mm256_srlv_epi64(mask, s1));
    let mut fr = _mm256_and_si256(mask, _mm256_srlv_epi64(pp, s1));
    fr = _mm256_or_si256(fr, _mm256_and_si256(mask, _mm256_srlv_epi64(fr, s1)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(mr, _mm256_srlv_epi64(fr, s2)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(mr, _mm256_srlv_epi64(fr, s2)));
    let m = _mm256_or_si256(_mm256_sllv_epi64(fl, s1), _mm256_srlv_epi64(fr, s1));
    let m = _mm_or_si128(_mm256_castsi256_si128(m), _mm256_extracti128_si256::<1>(m));
    let m = _mm_or_si128(m, _mm_unpackhi_epi64(m, m));
    (_mm_cvtsi128_si64(m) as u64) & !(p | o)
}

/// The squares where `p` may play against `o`: [`mobility_avx2`] where the processor allows,
/// else [`crate::reversi::mobility`].
#[inline(always)]
pub fn moves(p: u64, o: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the processor has AVX2
        return unsafe { mobility_avx2(p, o) };
    }
    crate::reversi::mobility(p, o)
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::reversi::Reversi;

    /// Over random games and random dense boards, the AVX2 routines give what the scalar ones
    /// give (skipped on a processor without AVX2).
    #[test]
    fn avx2_routines_equal_the_scalar_ones() {
        if !has_avx2() {
            eprintln!("no AVX2: nothing to compare");
            return;
        }
        let mut checked = 0u64;
        let mut check = |p: u64, o: u64| {
            // SAFETY: the processor has AVX2
            let m = unsafe { mobility_avx2(p, o) };
            assert_eq!(m, crate::reversi::mobility(p, o), "{p:x} {o:x}");
            for sq in 0..64usize {
                if (p | o) >> sq & 1 == 0 {
                    // SAFETY: as above
                    let f = unsafe { flips_avx2(p, o, sq) };
                    assert_eq!(f, crate::reversi::flips(p, o, sq as u8), "{p:x} {o:x} {sq}");
                    if has_avx512() {
                        // SAFETY: the processor has AVX-512
                        let g = unsafe { flips_avx512(p, o, sq) };
                        assert_eq!(g, f, "AVX-512 {p:x} {o:x} {sq}");
                    }
                    checked += 1;
                }
            }
        };
        for seed in 0..200 {
            let mut rng = crate::search::Rng::new(seed);
            let mut pos = Reversi::start();
            let mut v = Vec::new();
            loop {
                let (p, o) = (pos.own(), pos.opp());
                check(p, o);
                check(o, p);
                pos.legal_moves(&mut v);
                if v.is_empty() {
                    break;
                }
                pos.make(v[rng.below(v.len() as u64) as usize]);
            }
        }
        let mut rng = crate::search::Rng::new(99);
        for _ in 0..20000 {
            let filled = rng.next_u64() | rng.next_u64();
            let p = rng.next_u64() & filled;
            check(p, filled & !p);
        }
        assert!(checked > 100_000);
    }
}
