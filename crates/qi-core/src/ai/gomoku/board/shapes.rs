//! The line shapes of the Gomoku AI's board: the table that turns a line code (the ten cells
//! around a point, five each way, in base 3) into the shape a stone there would make on that
//! line, built once per "five" rule, and what the four line shapes of a point add up to
//! ([`PointShape`], [`POINT_INFO`]).

use std::sync::OnceLock;

/// Line shapes, weakest first. `B` = blocked (one way to grow), `F` = free (two ways).
pub const NONE: u8 = 0;
pub const B1: u8 = 1;
pub const F1: u8 = 2;
pub const B2: u8 = 3;
pub const F2: u8 = 4;
pub const B3: u8 = 5;
pub const F3: u8 = 6;
/// A four: one point makes five.
pub const B4: u8 = 7;
/// An open four: two or more points make five.
pub const F4: u8 = 8;
pub const FIVE: u8 = 9;

pub(super) const CODES: usize = 59_049; // 3^10
pub(super) const fn pow3() -> [u32; 10] {
    let mut p = [1u32; 10];
    let mut i = 1;
    while i < 10 {
        p[i] = p[i - 1] * 3;
        i += 1;
    }
    p
}
pub(super) const POW3: [u32; 10] = pow3();

/// The digit of the cell at offset `k` (-5..=5, not 0) from the centre.
#[inline]
pub(super) const fn digit(k: i32) -> usize {
    if k < 0 {
        (k + 5) as usize
    } else {
        (k + 4) as usize
    }
}

/// The codes' table, padded to 2^16 entries so that a code masked to 16 bits indexes it
/// without a bounds check.
pub(super) type Table = [u8; 1 << 16];

pub(super) fn build_table(exact: bool) -> Box<Table> {
    let mut memo = vec![u8::MAX; CODES];
    for code in 0..CODES {
        classify(code, exact, &mut memo);
    }
    let mut t = Box::new([0u8; 1 << 16]);
    t[..CODES].copy_from_slice(&memo);
    t
}

pub(super) fn wins(exact: bool, len: u32) -> bool {
    if exact { len == 5 } else { len >= 5 }
}

/// The length of the run of own stones through the centre (index 5) of an 11-cell line.
pub(super) fn run(line: &[u8; 11]) -> u32 {
    let mut len = 1;
    let mut i = 4i32;
    while i >= 0 && line[i as usize] == 1 {
        len += 1;
        i -= 1;
    }
    let mut j = 6;
    while j <= 10 && line[j] == 1 {
        len += 1;
        j += 1;
    }
    len
}

pub(super) fn classify(code: usize, exact: bool, memo: &mut [u8]) -> u8 {
    if memo[code] != u8::MAX {
        return memo[code];
    }
    let mut line = [0u8; 11];
    let mut c = code;
    for i in 0..10 {
        let d = (c % 3) as u8;
        c /= 3;
        line[if i < 5 { i } else { i + 1 }] = d;
    }
    line[5] = 1;
    let result = if wins(exact, run(&line)) {
        FIVE
    } else {
        let mut fives = 0;
        for q in 1..=9 {
            if q != 5 && line[q] == 0 {
                line[q] = 1;
                if wins(exact, run(&line)) {
                    fives += 1;
                }
                line[q] = 0;
            }
        }
        match fives {
            0 => {
                let mut best = NONE;
                for (q, &c) in line.iter().enumerate().skip(1).take(9) {
                    if q != 5 && c == 0 {
                        let k = q as i32 - 5;
                        let child = code + POW3[digit(k)] as usize;
                        let s = classify(child, exact, memo);
                        best = best.max(s.saturating_sub(2));
                    }
                }
                best
            }
            1 => B4,
            _ => F4,
        }
    };
    memo[code] = result;
    result
}

/// The table of exact fives (`which` 0) or of fives or more (1), built at its first use (a
/// game under Freestyle or Standard never builds the other).
pub(super) fn table(which: usize) -> &'static Table {
    static T: [OnceLock<Box<Table>>; 2] = [OnceLock::new(), OnceLock::new()];
    T[which & 1].get_or_init(|| build_table(which & 1 == 0))
}

/// Whether a stone of the code's side on its point would stand in a line of six or more of
/// its stones (the code of [`super::Board`]'s ten cells around the point), from a table built
/// at its first use.
#[inline]
pub(super) fn overline(code: usize) -> bool {
    static T: OnceLock<Box<[u64; (1 << 16) / 64]>> = OnceLock::new();
    let t = T.get_or_init(|| {
        let mut t = Box::new([0u64; (1 << 16) / 64]);
        for code in 0..CODES {
            let mut line = [0u8; 11];
            let mut c = code;
            for i in 0..10 {
                line[if i < 5 { i } else { i + 1 }] = (c % 3) as u8;
                c /= 3;
            }
            line[5] = 1;
            if run(&line) > 5 {
                t[code / 64] |= 1 << (code % 64);
            }
        }
        t
    });
    t[(code >> 6) & 1023] >> (code & 63) & 1 != 0
}

/// Both tables ([`table`] 0 and 1).
#[cfg(test)]
pub(super) fn tables() -> [&'static Table; 2] {
    [table(0), table(1)]
}

/// What a stone of one side on one point would make: the shape on each line, and the sums the
/// search uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PointShape {
    pub lines: [u8; 4],
}

impl PointShape {
    #[inline]
    pub fn max(&self) -> u8 {
        self.lines.iter().copied().max().unwrap_or(0)
    }

    #[inline]
    pub fn count(&self, at_least: u8) -> u32 {
        self.lines.iter().filter(|&&l| l >= at_least).count() as u32
    }

    #[inline]
    pub fn five(&self) -> bool {
        self.max() == FIVE
    }

    /// The index of the four line shapes in [`point_info`] (base 10, below 10,000): two
    /// look-ups, of the first two shapes and of the last two, read from the four bytes at once.
    #[inline]
    pub fn key(&self) -> usize {
        let l = u32::from_le_bytes(self.lines);
        (KEY_PAIRS[0][(l & 0xF0F) as usize] + KEY_PAIRS[1][(l >> 16 & 0xF0F) as usize]) as usize
    }

    /// The value and all the flags of the point in one look-up (for loops that read several).
    #[inline]
    pub fn info(&self) -> PointInfo {
        let x = POINT_INFO[self.key() & (INFO_SLOTS - 1)];
        PointInfo {
            value: (x >> 8) as i32,
            flags: x as u8,
        }
    }

    /// Fours on this point (lines with a four or an open four).
    #[inline]
    pub fn fours(&self) -> u32 {
        (self.info().flags & FOURS_MASK) as u32
    }

    /// An open four or two fours: a win next move unless the opponent already has a four.
    #[inline]
    pub fn unstoppable(&self) -> bool {
        self.info().flags & UNSTOPPABLE != 0
    }

    /// A four together with an open three.
    #[inline]
    pub fn four_three(&self) -> bool {
        self.info().flags & FOUR_THREE != 0
    }

    /// Two open threes.
    #[inline]
    pub fn double_three(&self) -> bool {
        self.info().flags & DOUBLE_THREE != 0
    }

    /// A threat the opponent must answer now: a four, or a move that makes an open four.
    #[inline]
    pub fn threat(&self) -> bool {
        self.max() >= F3
    }

    /// The value of the point for its side (evaluation and move ordering): one table look-up.
    #[inline]
    pub fn value(&self) -> i32 {
        self.info().value
    }
}

/// `KEY_PAIRS[0][a | b << 8]` = `1000 a + 100 b` and `KEY_PAIRS[1][c | d << 8]` = `10 c + d`
/// for the shapes `a, b, c, d` of [`PointShape::key`] (4096 slots: an index masked by
/// `0xF0F` needs no bounds check).
static KEY_PAIRS: [[u16; 4096]; 2] = {
    let mut t = [[0u16; 4096]; 2];
    let mut a = 0;
    while a < 16 {
        let mut b = 0;
        while b < 16 {
            t[0][a | b << 8] = (1000 * a + 100 * b) as u16;
            t[1][a | b << 8] = (10 * a + b) as u16;
            b += 1;
        }
        a += 1;
    }
    t
};

/// What the four line shapes of a point add up to: its value and the threat flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointInfo {
    pub value: i32,
    pub flags: u8,
}

/// `flags` & this: the number of fours (0-4).
pub const FOURS_MASK: u8 = 7;
pub const UNSTOPPABLE: u8 = 8;
pub const FOUR_THREE: u8 = 16;
pub const DOUBLE_THREE: u8 = 32;
/// A five on some line.
pub const FIVE_FLAG: u8 = 64;
/// An open three or more on some line ([`PointShape::threat`]).
pub const THREAT: u8 = 128;

/// [`POINT_INFO`] has this many slots (a power of two above 10,000), so that a key masked by
/// `INFO_SLOTS - 1` needs no bounds check.
const INFO_SLOTS: usize = 1 << 14;

/// [`point_info`] packed in four bytes an entry, the flags in the low byte and the value
/// (never negative, below 2^24) above them: half the cache lines of [`PointInfo`]'s eight
/// bytes, for the candidate scan, which reads two entries a point at random.
pub(super) static POINT_INFO: [u32; INFO_SLOTS] = {
    let info = point_info();
    let mut t = [0u32; INFO_SLOTS];
    let mut k = 0;
    while k < 10_000 {
        let v = info[k].value;
        assert!(v >= 0 && v < 1 << 24);
        t[k] = (v as u32) << 8 | info[k].flags as u32;
        k += 1;
    }
    t
};

/// [`PointInfo`] of every combination of four line shapes (index [`PointShape::key`]).
pub(super) const fn point_info() -> [PointInfo; 10_000] {
    const V: [i32; 10] = [0, 1, 4, 8, 24, 28, 110, 130, 600, 20_000];
    let mut t = [PointInfo { value: 0, flags: 0 }; 10_000];
    let mut k = 0;
    while k < 10_000 {
        let lines = [
            (k / 1000) as u8,
            ((k / 100) % 10) as u8,
            ((k / 10) % 10) as u8,
            (k % 10) as u8,
        ];
        let (mut v, mut fours, mut f4, mut f3, mut f2up) = (0i32, 0u8, false, 0u32, 0u32);
        let mut i = 0;
        while i < 4 {
            let l = lines[i];
            v += V[l as usize];
            if l == B4 || l == F4 {
                fours += 1;
            }
            if l == F4 {
                f4 = true;
            }
            if l == F3 {
                f3 += 1;
            }
            if l >= F2 {
                f2up += 1;
            }
            i += 1;
        }
        let unstoppable = f4 || fours >= 2;
        let four_three = fours >= 1 && f3 >= 1;
        let double_three = f3 >= 2;
        if unstoppable {
            v += 3000;
        } else if four_three {
            v += 2000;
        } else if double_three {
            v += 900;
        } else if f2up >= 2 {
            v += 40;
        }
        let mut flags = fours;
        if lines[0] == FIVE || lines[1] == FIVE || lines[2] == FIVE || lines[3] == FIVE {
            flags |= FIVE_FLAG;
        }
        if unstoppable {
            flags |= UNSTOPPABLE;
        }
        if four_three {
            flags |= FOUR_THREE;
        }
        if double_three {
            flags |= DOUBLE_THREE;
        }
        if lines[0] >= F3 || lines[1] >= F3 || lines[2] >= F3 || lines[3] >= F3 {
            flags |= THREAT;
        }
        t[k] = PointInfo { value: v, flags };
        k += 1;
    }
    t
}
