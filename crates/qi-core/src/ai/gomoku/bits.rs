//! Point sets of the Gomoku AI's board (one bit a point, index `y * 32 + x`), kept up to date
//! stone by stone so that the threat searches read the points that matter (fives, fours,
//! threes, open fours of either side; the candidate points near the stones) instead of
//! scanning the board at every node.

use super::board::{B4, F3, F4, FIVE, POINTS, PointShape};

const WORDS: usize = POINTS.div_ceil(64);

/// A set of points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bits([u64; WORDS]);

impl Bits {
    #[inline]
    pub fn set(&mut self, p: usize, on: bool) {
        // without a branch: whether a point is in a set is hard to predict
        let (w, b) = (p / 64, p % 64);
        self.0[w] = (self.0[w] & !(1 << b)) | ((on as u64) << b);
    }

    #[inline]
    pub fn get(&self, p: usize) -> bool {
        self.0[p / 64] >> (p % 64) & 1 != 0
    }

    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The union of two sets.
    #[inline]
    pub fn or(&self, other: &Bits) -> Bits {
        let mut b = *self;
        for (w, o) in b.0.iter_mut().zip(other.0.iter()) {
            *w |= o;
        }
        b
    }

    /// The points in both sets.
    #[inline]
    pub fn and(&self, other: &Bits) -> Bits {
        let mut b = *self;
        for (w, o) in b.0.iter_mut().zip(other.0.iter()) {
            *w &= o;
        }
        b
    }

    /// The points of `self` not in `other`.
    #[inline]
    pub fn and_not(&self, other: &Bits) -> Bits {
        let mut b = *self;
        for (w, o) in b.0.iter_mut().zip(other.0.iter()) {
            *w &= !o;
        }
        b
    }

    /// The points within Chebyshev distance `r` (1 or 2) of the set, the set included, kept to
    /// `board`. Rows are 32 bits apart and hold at most 19 points, so a shift along a row never
    /// reaches the next row's points on the board (the mask takes off what lands beside it).
    pub fn dilate(&self, r: u32, board: &Bits) -> Bits {
        let w = &self.0;
        let mut h = [0u64; WORDS];
        for i in 0..WORDS {
            let x = w[i];
            h[i] = x | x << 1 | x >> 1;
            if r > 1 {
                h[i] |= x << 2 | x >> 2;
            }
        }
        let mut out = [0u64; WORDS];
        for i in 0..WORDS {
            // a row up or down: 32 bits, across words
            let prev = if i > 0 { h[i - 1] } else { 0 };
            let next = if i + 1 < WORDS { h[i + 1] } else { 0 };
            let mut v = h[i] | h[i] << 32 | prev >> 32 | h[i] >> 32 | next << 32;
            if r > 1 {
                v |= prev | next;
            }
            out[i] = v & board.0[i];
        }
        Bits(out)
    }

    /// The set moved by `k` points of index (towards higher indices where positive); points
    /// moved past either end drop out.
    pub fn shift(&self, k: i32) -> Bits {
        let w = &self.0;
        let mut out = [0u64; WORDS];
        let (words, bits) = ((k.unsigned_abs() / 64) as usize, k.unsigned_abs() % 64);
        for (i, o) in out.iter_mut().enumerate() {
            // the source words of output word i
            let (hi, lo) = if k >= 0 {
                (i.checked_sub(words), i.checked_sub(words + 1))
            } else {
                (
                    Some(i + words).filter(|&j| j < WORDS),
                    Some(i + words + 1).filter(|&j| j < WORDS),
                )
            };
            let hi = hi.map_or(0, |j| w[j]);
            let lo = lo.map_or(0, |j| w[j]);
            *o = match (k >= 0, bits) {
                (_, 0) => hi,
                (true, b) => hi << b | lo >> (64 - b),
                (false, b) => hi >> b | lo << (64 - b),
            };
        }
        Bits(out)
    }

    /// Calls `f` with every point of the set in index order and whether `other` holds it
    /// (word by word: cheaper than [`Bits::iter`] with a [`Bits::get`] a point).
    #[inline(always)]
    pub fn for_each_with(&self, other: &Bits, mut f: impl FnMut(u16, bool)) {
        for (i, (&w, &o)) in self.0.iter().zip(other.0.iter()).enumerate() {
            let mut word = w;
            while word != 0 {
                let b = word.trailing_zeros();
                word &= word - 1;
                f((i * 64) as u16 + b as u16, o >> b & 1 != 0);
            }
        }
    }

    /// The lowest point of the set.
    #[inline]
    pub fn first(&self) -> Option<u16> {
        self.iter().next()
    }

    /// The points in index order (row by row, left to right).
    #[inline]
    pub fn iter(&self) -> BitsIter {
        BitsIter {
            words: self.0,
            w: 0,
        }
    }
}

pub struct BitsIter {
    words: [u64; WORDS],
    w: usize,
}

impl Iterator for BitsIter {
    type Item = u16;

    #[inline]
    fn next(&mut self) -> Option<u16> {
        while self.w < WORDS {
            let word = self.words[self.w];
            if word != 0 {
                let b = word.trailing_zeros();
                self.words[self.w] = word & (word - 1);
                return Some((self.w * 64) as u16 + b as u16);
            }
            self.w += 1;
        }
        None
    }
}

/// The threat classes of one side's empty points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Threats {
    /// A stone here makes five.
    pub five: Bits,
    /// A stone here makes at least one four (or an open four).
    pub four: Bits,
    /// A stone here makes an open three on some line.
    pub three: Bits,
    /// A stone here makes an open four or two fours ([`PointShape::unstoppable`]).
    pub open: Bits,
}

/// Per line shape: bits 0-3 count fours, 4-7 open threes, 8-11 open fours, 12- fives.
pub const CLASS: [u16; 10] = {
    let mut c = [0u16; 10];
    c[FIVE as usize] = 0x1000;
    c[F4 as usize] = 0x0101;
    c[B4 as usize] = 0x0001;
    c[F3 as usize] = 0x0010;
    c
};

/// The sum of [`CLASS`] over the four lines of a shape.
#[inline]
pub fn class_of(s: PointShape) -> u16 {
    let l = s.lines;
    CLASS[l[0] as usize] + CLASS[l[1] as usize] + CLASS[l[2] as usize] + CLASS[l[3] as usize]
}

/// The sets a point of a class ([`CLASS`]) is in, bit 0 `five`, 1 `four`, 2 `three`, 3
/// `open`, from the class's low byte (fours and open threes) and its high byte (open fours and
/// fives): `CLASS_SETS[0][class & 0xFF] | CLASS_SETS[1][class >> 8]`.
const CLASS_SETS: [[u8; 256]; 2] = {
    let mut t = [[0u8; 256]; 2];
    let mut b = 0;
    while b < 256 {
        let (lo, hi) = (b & 0xF, b >> 4);
        // low byte: fours (lo) and open threes (hi); two fours are an open four
        t[0][b] = ((lo > 0) as u8) << 1 | ((hi > 0) as u8) << 2 | ((lo >= 2) as u8) << 3;
        // high byte: open fours (lo) and fives (hi)
        t[1][b] = (hi > 0) as u8 | ((lo > 0) as u8) << 3;
        b += 1;
    }
    t
};

/// The sets of [`Threats`] a point of `class` is in (bits as in [`CLASS_SETS`]).
#[inline]
fn class_sets(class: u16) -> u8 {
    CLASS_SETS[0][(class & 0xFF) as usize] | CLASS_SETS[1][(class >> 8) as usize]
}

impl Threats {
    /// Refiles the point `p` from class `old` to class `new` (sums of [`CLASS`]; 0 for a
    /// point in no set), when its sets are those of `old`: only the sets that differ are
    /// touched, each by one bit flip. Returns those sets (bits as in [`CLASS_SETS`]), which
    /// [`Threats::flip`] flips back.
    #[inline]
    pub fn change(&mut self, p: usize, old: u16, new: u16) -> u8 {
        let x = class_sets(old) ^ class_sets(new);
        self.flip(p, x);
        x
    }

    /// Flips the point `p` in the sets of `sets` (bits as in [`CLASS_SETS`]).
    #[inline]
    pub fn flip(&mut self, p: usize, sets: u8) {
        let x = sets as u64;
        let (w, b) = (p / 64, p % 64);
        self.five.0[w] ^= (x & 1) << b;
        self.four.0[w] ^= (x >> 1 & 1) << b;
        self.three.0[w] ^= (x >> 2 & 1) << b;
        self.open.0[w] ^= (x >> 3 & 1) << b;
    }

    /// Files the point `p` by `class` (a sum of [`CLASS`]; 0 takes it out of every set).
    #[inline]
    pub fn apply(&mut self, p: usize, class: u16) {
        let fours = class & 0xF;
        self.five.set(p, class >= 0x1000);
        self.four.set(p, fours > 0);
        self.three.set(p, class & 0xF0 != 0);
        self.open.set(p, class & 0xF00 != 0 || fours >= 2);
    }

    /// Files the point `p` with shape `s`, or takes it out of every set when it is not empty.
    #[inline]
    pub fn put(&mut self, p: usize, s: PointShape, empty: bool) {
        self.apply(p, if empty { class_of(s) } else { 0 });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_iterate_in_order() {
        let mut b = Bits::default();
        for p in [600, 3, 64, 63, 200] {
            b.set(p, true);
        }
        b.set(200, false);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![3, 63, 64, 600]);
        assert_eq!(b.count(), 4);
        assert_eq!(b.first(), Some(3));
        assert!(b.get(64) && !b.get(65));
        assert!(Bits::default().is_empty());
    }

    #[test]
    fn dilation_matches_distances() {
        // a 15 x 15 board, stones on the edges and in the middle
        let mut board = Bits::default();
        for y in 0..15 {
            for x in 0..15 {
                board.set(y * 32 + x, true);
            }
        }
        let stones = [(0, 0), (14, 3), (7, 7), (0, 14), (3, 13)];
        let mut b = Bits::default();
        for &(x, y) in &stones {
            b.set(y * 32 + x, true);
        }
        for r in [1, 2] {
            let d = b.dilate(r, &board);
            for y in 0..19 {
                for x in 0..32 {
                    let want = x < 15
                        && y < 15
                        && stones.iter().any(|&(sx, sy)| {
                            sx.abs_diff(x) <= r as usize && sy.abs_diff(y) <= r as usize
                        });
                    assert_eq!(d.get(y * 32 + x), want, "r {r} at {x},{y}");
                }
            }
        }
    }

    #[test]
    fn classes_follow_the_shape() {
        let mut t = Threats::default();
        let s = PointShape {
            lines: [B4, F3, 0, 0],
        };
        t.put(5, s, true);
        assert!(t.four.get(5) && t.three.get(5) && !t.open.get(5) && !t.five.get(5));
        t.put(
            5,
            PointShape {
                lines: [B4, B4, 0, 0],
            },
            true,
        );
        assert!(t.open.get(5) && !t.three.get(5));
        t.put(
            5,
            PointShape {
                lines: [F4, FIVE, 0, 0],
            },
            true,
        );
        assert!(t.open.get(5) && t.five.get(5));
        t.put(5, s, false);
        assert_eq!(t, Threats::default());
    }

    #[test]
    fn a_change_of_class_equals_filing_afresh() {
        // every pair of classes of up to four lines: refiling from the one to the other gives
        // the sets that filing by the other gives
        let mut classes = vec![];
        for a in 0..10u8 {
            for b in a..10 {
                for c in b..10 {
                    for d in c..10 {
                        classes.push(class_of(PointShape {
                            lines: [a, b, c, d],
                        }));
                    }
                }
            }
        }
        classes.sort_unstable();
        classes.dedup();
        for &old in &classes {
            for &new in &classes {
                for p in [0, 63, 64, 300, 607] {
                    let mut t = Threats::default();
                    t.apply(p, old);
                    t.change(p, old, new);
                    let mut want = Threats::default();
                    want.apply(p, new);
                    assert_eq!(t, want, "{old:#x} -> {new:#x} at {p}");
                }
            }
        }
    }
}
