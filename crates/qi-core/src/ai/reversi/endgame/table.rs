//! The solver's table of bounds, shared without locks by the solving threads.

use super::*;

/// Two entries sharing one 64-byte cache line: one memory access per probe. Each entry is
/// three words written and read without locks by all the solving threads: the position's two
/// bitboards each XORed with a mix of the data word, and the data word (bounds, move, empties).
/// A read whose words come from two different writes fails the check of the position (but for
/// odds of about 2^-64), so a torn entry is never taken for another position's.
#[derive(Default)]
#[repr(C, align(64))]
pub(super) struct Bucket {
    pub(super) e: [SharedEntry; 2],
}

#[derive(Default)]
pub(super) struct SharedEntry {
    pub(super) w: [AtomicU64; 3],
}

#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(super) struct Entry {
    pub(super) p: u64,
    pub(super) o: u64,
    pub(super) lower: i8,
    pub(super) upper: i8,
    pub(super) mv: u8,
    pub(super) empties: u8,
    /// How selective the search that gave the bounds was (0: exact; see
    /// [`SolverOptions::pc_margin`]): a search takes the bounds of entries as exact as it or
    /// more, and only the move of the others.
    pub(super) sel: u8,
}

#[inline(always)]
pub(super) fn mix_data(d: u64) -> (u64, u64) {
    (
        d.wrapping_mul(0x9E37_79B9_7F4A_7C15),
        d.wrapping_mul(0xD6E8_FEB8_6659_FD93).rotate_left(17),
    )
}

impl SharedEntry {
    #[inline(always)]
    pub(super) fn load(&self) -> Entry {
        let d = self.w[2].load(Ordering::Relaxed);
        let (mp, mo) = mix_data(d);
        Entry {
            p: self.w[0].load(Ordering::Relaxed) ^ mp,
            o: self.w[1].load(Ordering::Relaxed) ^ mo,
            lower: d as u8 as i8,
            upper: (d >> 8) as u8 as i8,
            mv: (d >> 16) as u8,
            empties: (d >> 24) as u8,
            sel: (d >> 32) as u8,
        }
    }

    #[inline(always)]
    pub(super) fn save(&self, e: &Entry) {
        let d = e.lower as u8 as u64
            | (e.upper as u8 as u64) << 8
            | (e.mv as u64) << 16
            | (e.empties as u64) << 24
            | (e.sel as u64) << 32;
        let (mp, mo) = mix_data(d);
        self.w[0].store(e.p ^ mp, Ordering::Relaxed);
        self.w[1].store(e.o ^ mo, Ordering::Relaxed);
        self.w[2].store(d, Ordering::Relaxed);
    }
}

/// The table of bounds, shared by the threads of a parallel solve.
pub(super) struct Table {
    pub(super) buckets: Vec<Bucket>,
}

impl Table {
    /// `n` buckets, backed by 2 MB pages where Linux allows it.
    pub(super) fn buckets(n: usize) -> Vec<Bucket> {
        let mut buckets = Vec::with_capacity(n);
        // before the first write, so that the pages are faulted in as huge ones
        crate::search::tt::advise_huge_pages(buckets.spare_capacity_mut());
        buckets.resize_with(n, Bucket::default);
        buckets
    }
}

#[inline(always)]
pub(super) fn table_hash(p: u64, o: u64) -> u64 {
    let h = p.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ o.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(31);
    h ^ (h >> 29)
}

impl Solver {
    #[inline(always)]
    pub(super) fn bucket(&self, p: u64, o: u64) -> &Bucket {
        let t = &self.table.buckets;
        &t[((table_hash(p, o) as u128 * t.len() as u128) >> 64) as usize]
    }

    /// Starts loading the position's bucket into the cache, so that a probe soon after does
    /// not wait for memory.
    #[inline(always)]
    pub(super) fn prefetch(&self, p: u64, o: u64) {
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
    pub(super) fn probe(&self, p: u64, o: u64) -> Option<Entry> {
        let b = self.bucket(p, o);
        let e = b.e[0].load();
        if e.p == p && e.o == o {
            return Some(e);
        }
        let e = b.e[1].load();
        (e.p == p && e.o == o).then_some(e)
    }

    /// Records a search result `best` found with the window `(alpha, beta)` (by a search of
    /// selectivity `sel`, 0 if exact).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store(
        &self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        best: i32,
        mv: u8,
        empties: u32,
        sel: u8,
    ) {
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
                sel,
            };
            if e0.empties as u32 <= empties {
                // the deeper slot keeps the bigger subtree; the displaced entry moves down
                b.e[1].save(&e0);
                (fresh, 0)
            } else {
                (fresh, 1)
            }
        };
        if e.sel != sel {
            if e.sel < sel {
                // a more exact entry is worth more than this result
                return;
            }
            // a more exact result replaces the bounds
            (e.lower, e.upper, e.sel) = (-64, 64, sel);
        }
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
}
