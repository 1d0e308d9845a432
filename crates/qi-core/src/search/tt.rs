//! The transposition table: a fixed number of two-entry buckets, sized in megabytes.
//!
//! Each bucket keeps one depth-preferred entry and one always-replaced entry. Entries store the
//! full 64-bit Zobrist key, so a hit is a real hit (barring a 64-bit collision).

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
}

/// The largest table any option may ask for, in megabytes (UAI `Hash`, `solve --hash`); a
/// larger request is cut to this rather than aborting the program on a failed allocation.
pub const MAX_HASH_MB: usize = 4096;

pub struct Table<M: Copy> {
    buckets: Vec<[Option<Entry<M>>; 2]>,
    age: u8,
}

impl<M: Copy> Table<M> {
    /// A table that takes about `mb` megabytes (at least one bucket; at most [`MAX_HASH_MB`]).
    pub fn new(mb: usize) -> Table<M> {
        let bucket = std::mem::size_of::<[Option<Entry<M>>; 2]>();
        let n = (mb.clamp(1, MAX_HASH_MB) * 1024 * 1024 / bucket).max(1);
        Table {
            buckets: vec![[None, None]; n],
            age: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.buckets.len() * 2
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn clear(&mut self) {
        for b in &mut self.buckets {
            *b = [None, None];
        }
        self.age = 0;
    }

    /// Marks a new search: entries of older searches are replaced first.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        let b = &self.buckets[self.index(key)];
        for e in b.iter().flatten() {
            if e.key == key {
                return Some(*e);
            }
        }
        None
    }

    #[inline]
    pub fn store(&mut self, key: u64, mv: Option<M>, score: i32, depth: i16, bound: Bound) {
        let age = self.age;
        let i = self.index(key);
        let b = &mut self.buckets[i];
        let new = Entry {
            key,
            mv,
            score,
            depth,
            bound,
            age,
        };
        // Same position: update in place, keeping a known move if the new result has none.
        for e in b.iter_mut().flatten() {
            if e.key == key {
                let mv = mv.or(e.mv);
                *e = Entry { mv, ..new };
                return;
            }
        }
        let replace_deep = match b[0] {
            None => true,
            Some(e) => e.age != age || depth >= e.depth,
        };
        if replace_deep {
            b[1] = b[0];
            b[0] = Some(new);
        } else {
            b[1] = Some(new);
        }
    }
}

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
}
