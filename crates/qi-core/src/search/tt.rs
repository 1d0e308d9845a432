//! The transposition table: a fixed number of two-entry buckets, sized in megabytes.
//!
//! Each bucket keeps one depth-preferred entry and one always-replaced entry. Entries store the
//! full 64-bit Zobrist key, so a hit is a real hit (barring a 64-bit collision).
//!
//! The buckets are allocated at the first store (a table that is never written, such as the
//! shared searcher's in a game with a search of its own, costs nothing), and [`Table::clear`]
//! starts a new epoch instead of writing the whole table: an entry of an earlier epoch is
//! read as an empty slot everywhere (probe, update and replacement), so a cleared table
//! behaves exactly as a new one.

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value.
    Exact,
    /// The true value is at least this (a beta cutoff).
    Lower,
    /// The true value is at most this (no move raised alpha).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry<M: Copy> {
    pub key: u64,
    pub mv: Option<M>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    pub age: u8,
    /// The table's epoch when stored ([`Table::clear`]): an entry of another epoch is empty.
    pub epoch: u16,
    /// The position was on a principal variation when stored ([`Table::store_pv`]; Rapfi's
    /// and Stockfish's "tt PV" flag).
    pub pv: bool,
}

/// The largest table any option may ask for, in megabytes (UAI `Hash`, `solve --hash`); a
/// larger request is cut to this rather than aborting the program on a failed allocation.
pub const MAX_HASH_MB: usize = 4096;

pub struct Table<M: Copy> {
    /// Empty until the first store, then `n` buckets.
    buckets: Vec<[Option<Entry<M>>; 2]>,
    n: usize,
    age: u8,
    /// Entries of other epochs are empty slots.
    epoch: u16,
}

impl<M: Copy> Table<M> {
    /// A table that takes about `mb` megabytes (at least one bucket; at most [`MAX_HASH_MB`]),
    /// allocated at the first store.
    pub fn new(mb: usize) -> Table<M> {
        Table {
            buckets: Vec::new(),
            n: Self::buckets_for(mb),
            age: 0,
            epoch: 0,
        }
    }

    /// The buckets of a table of `mb` megabytes.
    fn buckets_for(mb: usize) -> usize {
        let bucket = std::mem::size_of::<[Option<Entry<M>>; 2]>();
        (mb.clamp(1, MAX_HASH_MB) * 1024 * 1024 / bucket).max(1)
    }

    /// Whether the table has the size [`Table::new`] gives for `mb` megabytes.
    pub fn has_size(&self, mb: usize) -> bool {
        self.n == Self::buckets_for(mb)
    }

    pub fn len(&self) -> usize {
        self.n * 2
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    /// Empties the table: a new epoch (the slots are written again only when the epoch
    /// counter wraps), so that it behaves as [`Table::new`].
    pub fn clear(&mut self) {
        if self.epoch == u16::MAX {
            for b in &mut self.buckets {
                *b = [None, None];
            }
            self.epoch = 0;
        } else {
            self.epoch += 1;
        }
        self.age = 0;
    }

    /// Marks a new search: entries of older searches are replaced first.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.n as u128) >> 64) as usize
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        // (no bucket before the first store)
        let b = self.buckets.get(self.index(key))?;
        for e in b.iter().flatten() {
            if e.key == key && e.epoch == self.epoch {
                return Some(*e);
            }
        }
        None
    }

    /// Allocates the buckets now if no store has yet: a search calls it before it starts its
    /// clock, so that writing the whole table (90 ms for 32 MB here) is not taken for search
    /// time (the app's first CPU move of a game showed 15 k nodes a second for 2 M).
    pub fn allocate(&mut self) {
        if self.buckets.is_empty() {
            let mut b = Vec::with_capacity(self.n);
            // before the first write, so that the pages are faulted in as huge ones
            advise_huge_pages(b.spare_capacity_mut());
            b.resize(self.n, [None, None]);
            self.buckets = b;
        }
    }

    /// Whether the buckets are allocated.
    pub fn is_allocated(&self) -> bool {
        !self.buckets.is_empty()
    }

    #[inline]
    pub fn store(&mut self, key: u64, mv: Option<M>, score: i32, depth: i16, bound: Bound) {
        self.store_pv(key, mv, score, depth, bound, false);
    }

    /// [`Table::store`] with the entry's [`Entry::pv`] flag.
    #[inline]
    pub fn store_pv(
        &mut self,
        key: u64,
        mv: Option<M>,
        score: i32,
        depth: i16,
        bound: Bound,
        pv: bool,
    ) {
        self.allocate();
        let (age, epoch) = (self.age, self.epoch);
        let i = self.index(key);
        let b = &mut self.buckets[i];
        let new = Entry {
            key,
            mv,
            score,
            depth,
            bound,
            age,
            epoch,
            pv,
        };
        // Same position: update in place, keeping a known move if the new result has none.
        for e in b.iter_mut().flatten() {
            if e.key == key && e.epoch == epoch {
                let mv = mv.or(e.mv);
                *e = Entry { mv, ..new };
                return;
            }
        }
        // (an entry of an earlier epoch is an empty slot)
        let replace_deep = match b[0] {
            Some(e) if e.epoch == epoch => e.age != age || depth >= e.depth,
            _ => true,
        };
        if replace_deep {
            b[1] = b[0];
            b[0] = Some(new);
        } else {
            b[1] = Some(new);
        }
    }
}

/// Asks Linux to back a big table with 2 MB pages: with 4 kB pages nearly every probe of a
/// 64 MB table misses the TLB as well as the cache.
#[cfg(target_os = "linux")]
pub(crate) fn advise_huge_pages<T>(table: &[T]) {
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
pub(crate) fn advise_huge_pages<T>(_table: &[T]) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let mut t: Table<u8> = Table::new(1);
        assert!(t.len() > 1000);
        t.store(42, Some(7), 100, 5, Bound::Exact);
        let e = t.probe(42).unwrap();
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (Some(7), 100, 5, Bound::Exact)
        );
        assert!(t.probe(43).is_none());
        // an update without a move keeps the old move
        t.store(42, None, -3, 6, Bound::Upper);
        let e = t.probe(42).unwrap();
        assert_eq!((e.mv, e.score, e.depth), (Some(7), -3, 6));
        t.clear();
        assert!(t.probe(42).is_none());
    }

    #[test]
    fn a_cleared_table_behaves_as_a_new_one() {
        // the same random stores and probes on a new table and on one filled and cleared
        // (across the wrap of the epoch counter too) give the same answers
        let mut rng = crate::rng::Rng::new(5);
        let mut used: Table<u16> = Table::new(1);
        for round in 0..6 {
            if round == 4 {
                used.epoch = u16::MAX - 1;
            }
            let mut fresh: Table<u16> = Table::new(1);
            assert!(used.has_size(1) && fresh.probe(1).is_none());
            for _ in 0..3 {
                fresh.new_search();
                used.new_search();
                for _ in 0..20_000 {
                    // about two keys a bucket, so that they collide and replace one another
                    let key = (rng.below(40_000) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                    if rng.below(3) == 0 {
                        let e = |t: &Table<u16>| {
                            t.probe(key)
                                .map(|e| (e.key, e.mv, e.score, e.depth, e.bound))
                        };
                        assert_eq!(e(&fresh), e(&used), "round {round}");
                    } else {
                        let mv = (rng.below(4) != 0).then(|| rng.below(500) as u16);
                        let score = rng.below(1000) as i32;
                        let depth = rng.below(12) as i16;
                        fresh.store(key, mv, score, depth, Bound::Lower);
                        used.store(key, mv, score, depth, Bound::Lower);
                    }
                }
            }
            used.clear();
        }
    }
}
