//! The Gomoku AI's own board: for every point, direction and side the base-3 code of the ten
//! cells around it (five each way), kept up to date stone by stone, and a table that turns a
//! code into the shape a stone on that point would make on that line (five, open four, four,
//! open three, ...). The table is built once per "five" rule: exactly five (Standard, and Black
//! in Renju) or five or more (Freestyle, and White in Renju). Each side's empty points are also
//! kept in bit sets by the threat a stone there makes (five, four, open three, open four or
//! double four; [`super::bits::Threats`]), which the threat searches read instead of scanning
//! the board; the candidate points come from a dilation of the stones' bit set. Placing a
//! stone saves the shapes of the forty points on its lines and the classes it changes, so that
//! taking it back (the search's stones always go last-first) puts them back instead of reading
//! the table again (`board/undo.rs`; bench gomoku 5.47 G to 4.89 G instructions, the same tree).
//! Session 18 (issue 18): a point's codes, shapes, classes and cell in one 32-byte record
//! ([`Pt`]), the threat sets changed by flipping only the sets a class change alters (and
//! flipped back from the class log), the line-score rows one byte each; with the search's own
//! savings (the engine's hash kept without the position's lines outside Renju, the candidates
//! picked without a list, the tables kept from search to search) bench gomoku went from
//! 3.92 G to 3.33 G instructions, the same 590,091 nodes and results.

use super::bits::{Bits, CLASS, Threats, class_of};
use super::patterns::{self, KEYS};
use crate::game::Side;
use crate::gomoku::{GomokuRule, Move, STRIDE};

mod shapes;
mod undo;
pub use shapes::*;
use undo::Undo;

/// Point indices are moves (`y * 32 + x`); this covers 19 × 19.
pub const POINTS: usize = 19 * STRIDE as usize;
/// The per-point arrays have this many slots (a power of two above [`POINTS`]), so that an
/// index masked by `SLOTS - 1` needs no bounds check.
const SLOTS: usize = 1024;
const MASK: usize = SLOTS - 1;

/// A per-point array, indexed by a point masked with [`MASK`].
type PerPoint<T> = Box<[T; SLOTS]>;

fn per_point<T: Copy>(v: T) -> PerPoint<T> {
    vec![v; SLOTS]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!())
}
/// Index steps of the four directions of [`crate::gomoku::DIRECTIONS`].
const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
/// The same steps as differences of point indices.
const STEPS: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, 1 - STRIDE as isize];
/// [`Board::cell`] of the slots off the board: a wall. With 32 slots a row and 32 rows, the
/// points within five of a 19 × 19 board (columns and rows -5..24, wrapped by [`MASK`]) all
/// have slots of their own outside the board, so the update writes to them without tests.
const WALL: u8 = 3;
/// The stone counts of a row of five that does not fit on the board (Black's in the low four
/// bits, White's in the high four, as in [`Board::rows`]): 8 each, which 5 stones more or
/// less keep in 3..16, where [`ROW_GAIN`] is 0.
const NO_ROW: u8 = 0x88;

/// `ROW_GAIN[side][counts]`: what a stone of `side` adds to [`ROW_VALUE`] of a row holding
/// `counts & 15` Black and `counts >> 4` White stones (one look-up a row); 0 unless both
/// counts are below 5 (rows off the board: [`NO_ROW`]).
const ROW_GAIN: [[i32; 256]; 2] = {
    let mut g = [[0; 256]; 2];
    let mut b = 0;
    while b < 5 {
        let mut w = 0;
        while w < 5 {
            g[0][b | w << 4] = ROW_VALUE[b + 1][w] - ROW_VALUE[b][w];
            g[1][b | w << 4] = ROW_VALUE[b][w + 1] - ROW_VALUE[b][w];
            w += 1;
        }
        b += 1;
    }
    g
};

/// Per side of a stone, what it adds to the packed codes ([`Board::codes`]) of the point k
/// cells behind it (index k + 5): 1 in its own side's digit, 2 in the other's.
const DELTA: [[u32; 11]; 2] = {
    let mut w = [[0; 11]; 2];
    let mut k = -5i32;
    while k <= 5 {
        if k != 0 {
            let p = POW3[digit(k)];
            w[0][(k + 5) as usize] = p | (2 * p) << 16;
            w[1][(k + 5) as usize] = (2 * p) | (p << 16);
        }
        k += 1;
    }
    w
};

/// `CLASS_STEP[old << 4 | new]`: what a line's shape going from `old` to `new` adds to the
/// point's class ([`CLASS`], wrapping), one look-up instead of two; 0 for shapes above 9.
const CLASS_STEP: [u16; 256] = {
    let mut c = [0u16; 256];
    let mut o = 0;
    while o < 10 {
        let mut n = 0;
        while n < 10 {
            c[o << 4 | n] = CLASS[n].wrapping_sub(CLASS[o]);
            n += 1;
        }
        o += 1;
    }
    c
};

/// Stones, the line codes, and what the search reads at every node kept up to date with them:
/// each empty point's shapes for both sides, the threat sets and the line-score evaluation.
#[derive(Clone)]
pub struct Board {
    pub n: u8,
    /// What is kept of each point, all of it in one [`Pt`] (one base address for the update).
    pts: PerPoint<Pt>,
    /// `rows[start][dir]`: the stones of each side in the row of five cells from `start` along
    /// `dir`, Black's in the low four bits and White's in the high four ([`NO_ROW`] for rows
    /// that do not fit on the board).
    rows: PerPoint<[u8; 4]>,
    /// [`Board::line_score`] for Black, kept up to date row by row while `keep_line_score`.
    line_total: i32,
    /// `rows` and `line_total` are kept up to date (the default; the search turns it off when
    /// its evaluation does not read them, which saves a fifth of the work of a move).
    keep_line_score: bool,
    /// [`Board::point_total`] is kept up to date (off by default; see [`Board::keep_points`]).
    keep_points: bool,
    /// The learned point weights of Black's and White's point shapes summed over the empty
    /// points, Black's minus White's ([`super::patterns`]).
    point_total: i32,
    /// The learned tables of the rule.
    pat: &'static patterns::Tables,
    /// The table each side reads: exactly five (Standard, and Black in Renju) or five or more.
    tab: [&'static Table; 2],
    /// Some side's table reads the cells five away from the point (an exact five: Standard and
    /// Renju). Under Freestyle a stone five away changes only the codes, never a shape.
    far: bool,
    /// Stones on each row and each column, for [`Board::span`].
    row_stones: [u8; 19],
    col_stones: [u8; 19],
    pub stones: u32,
    /// The stones' points.
    occupied: Bits,
    /// The points of the board.
    on_board: Bits,
    /// Each side's empty points by the threat a stone there makes.
    pub threats: [Threats; 2],
    /// What each stone still on the board changed when it was placed, most recent last (the
    /// first `undo_len` entries; see [`Undo`]): [`Board::remove`] of the last stone placed
    /// puts it back instead of working it out again.
    undo: Vec<Undo>,
    undo_len: usize,
    /// The points whose class ([`Pt::cls`]) a placed stone changed, with the class before and
    /// the sets of [`Threats`] the change flipped (as [`Threats::change`] returns them, for
    /// [`Threats::flip`] to flip back): `(point, side, class, sets)`, the entries of each
    /// [`Undo`] from its `log` on.
    cls_log: Vec<(u16, u8, u16, u8)>,
}

/// What the board keeps of one point, in half a cache line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
struct Pt {
    /// `codes[dir]`: the base-3 codes of both sides in one word, Black's in the low 16 bits
    /// and White's in the high 16 (each below 3^10, so adding or taking off a stone never
    /// carries from one into the other); see [`Board::code`].
    codes: [u32; 4],
    /// `shapes[side]`: the table look-ups of `codes`, redone only for the points whose codes
    /// a stone changes.
    shapes: [PointShape; 2],
    /// `cls[side]`: [`class_of`] the point's shape, kept for every point.
    cls: [u16; 2],
    /// 0 empty, 1 Black, 2 White, [`WALL`] off the board.
    cell: u8,
}

impl Pt {
    const WALL: Pt = Pt {
        codes: [0; 4],
        shapes: [PointShape { lines: [0; 4] }; 2],
        cls: [0; 2],
        cell: WALL,
    };
}

/// The line-score of one row of five cells for Black (report 004), by its Black and White
/// stone counts: 1, 10, 100, 1000 or 100,000 for 1-5 stones of one side only.
/// (Padded to 8 × 8 so that counts masked by 7 index it without a bounds check.)
const ROW_VALUE: [[i32; 8]; 8] = {
    const S: [i32; 6] = [0, 1, 10, 100, 1000, 100_000];
    let mut t = [[0; 8]; 8];
    let mut b = 0;
    while b < 6 {
        t[b][0] = S[b];
        t[0][b] = -S[b];
        b += 1;
    }
    t
};

impl Board {
    pub fn new(n: u8, rule: GomokuRule) -> Board {
        let table = match rule {
            GomokuRule::Freestyle => [1, 1],
            GomokuRule::Standard => [0, 0],
            GomokuRule::Renju => [0, 1],
        };
        let mut b = Board {
            n,
            pts: per_point(Pt::WALL),
            rows: per_point([NO_ROW; 4]),
            line_total: 0,
            keep_line_score: true,
            keep_points: false,
            point_total: 0,
            pat: patterns::Tables::for_rule(rule),
            tab: [self::table(table[0]), self::table(table[1])],
            far: table != [1, 1],
            row_stones: [0; 19],
            col_stones: [0; 19],
            stones: 0,
            occupied: Bits::default(),
            on_board: Bits::default(),
            threats: [Threats::default(); 2],
            undo: Vec::new(),
            undo_len: 0,
            cls_log: Vec::new(),
        };
        for y in 0..n as i32 {
            for x in 0..n as i32 {
                let p = (y * STRIDE as i32 + x) as usize;
                b.on_board.set(p, true);
                b.pts[p].cell = 0;
                for (d, &(dx, dy)) in DIRS.iter().enumerate() {
                    for k in -5i32..=5 {
                        if k == 0 {
                            continue;
                        }
                        if !b.on(x + k * dx, y + k * dy) {
                            let w = 2 * POW3[digit(k)];
                            b.pts[p].codes[d] += w | w << 16;
                        }
                    }
                    for s in 0..2 {
                        b.pts[p].shapes[s].lines[d] = b.tab[s][b.code(p, s, d)];
                        b.pts[p].cls[s] = class_of(b.pts[p].shapes[s]);
                    }
                    if b.on(x + 4 * dx, y + 4 * dy) {
                        b.rows[p][d] = 0;
                    }
                }
            }
        }
        b
    }

    /// The code of side `s` (0 Black, 1 White) on point `p` along direction `d`: the digit of
    /// each of the ten cells around it 0 empty, 1 own stone, 2 the other side's or off the
    /// board.
    #[inline]
    fn code(&self, p: usize, s: usize, d: usize) -> usize {
        (self.pts[p & MASK].codes[d & 3] >> (16 * s) & 0xFFFF) as usize
    }

    #[inline]
    pub fn on(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.n as i32 && y < self.n as i32
    }

    #[inline]
    pub fn is_empty(&self, p: Move) -> bool {
        self.pts[p as usize & MASK].cell == 0
    }

    /// What is on the point `p`: 0 nothing, 1 a Black stone, 2 a White one, [`WALL`] off the
    /// board.
    #[inline]
    pub fn cell(&self, p: usize) -> u8 {
        self.pts[p & MASK].cell
    }

    /// Puts a stone of `side` on the empty point `p`.
    pub fn place(&mut self, p: Move, side: Side) {
        // a copy of the update that leaves out the learned point total, for the searches that
        // do not keep it (the bench's and the threat searches')
        if self.keep_points {
            self.update::<true, true>(p, side);
        } else {
            self.update::<true, false>(p, side);
        }
    }

    /// Takes the stone of `side` off `p`: from the undo record when `p` is the last stone
    /// placed (the search's case), else worked out from the codes.
    pub fn remove(&mut self, p: Move, side: Side) {
        if !self.restore(p, side) {
            self.remove_in_full(p, side);
        }
    }

    /// [`Board::remove`] worked out from the codes (out of line: the search never needs it).
    #[cold]
    #[inline(never)]
    fn remove_in_full(&mut self, p: Move, side: Side) {
        self.update::<false, true>(p, side);
    }

    /// Puts (`ADD`) or takes off a stone of `side` on `p`, and brings everything kept up to
    /// date (the learned point total only with `POINTS`, and then if it is kept).
    #[inline(always)]
    fn update<const ADD: bool, const POINTS: bool>(&mut self, p: Move, side: Side) {
        let s = side.index() & 1;
        let (x, y) = ((p % STRIDE) as usize, (p / STRIDE) as usize);
        let pu = p as usize & MASK;
        // a new undo record: what the stone changes is saved on the way
        let slot = self.undo_len;
        if ADD {
            if slot == self.undo.len() {
                self.undo.push(Undo::default());
            }
            self.undo_len += 1;
            let kept = self.kept_bits();
            let u = &mut self.undo[slot];
            u.p = p;
            u.kept = kept;
            u.log = self.cls_log.len() as u32;
            u.line_total = self.line_total;
            u.point_total = self.point_total;
        }
        // p's own point values leave the total with its stone (its shapes stay as they were
        // until the stone goes: right again if it goes last-first, else redone then)
        if ADD && self.keep_points {
            self.point_total -= self.point_value(pu);
        }
        self.pts[pu].cell = if ADD { s as u8 + 1 } else { 0 };
        if ADD {
            self.stones += 1;
            self.row_stones[y] += 1;
            self.col_stones[x] += 1;
        } else {
            self.stones -= 1;
            self.row_stones[y] -= 1;
            self.col_stones[x] -= 1;
        }
        // one pass a direction, every offset a multiple of the step written out (the off-board
        // points have slots of their own and a wall in `cell`, so no point needs a test of the
        // board's edge); the directions stay a loop, as four copies of the pass made place and
        // remove too long for the instruction cache (what the passes share read once)
        self.update_lines::<ADD, POINTS>(pu, s, slot);
        // p leaves the threat sets, or rejoins them with its shapes redone from its codes
        if !ADD {
            for side in 0..2 {
                for d in 0..4 {
                    self.pts[pu].shapes[side].lines[d] = self.tab[side][self.code(pu, side, d)];
                }
                self.pts[pu].cls[side] = class_of(self.pts[pu].shapes[side]);
            }
            if self.keep_points {
                self.point_total += self.point_value(pu);
            }
        }
        // (a point of class 0 is in no set: nothing to take out or put back)
        for (t, &c) in self.threats.iter_mut().zip(self.pts[pu].cls.iter()) {
            if c != 0 {
                t.change(pu, if ADD { c } else { 0 }, if ADD { 0 } else { c });
            }
        }
        self.occupied.set(pu, ADD);
    }

    /// [`Board::update`] along each direction: the codes of the ten points around `pu`, the
    /// shapes and threat sets of the empty ones, and the rows of five through `pu`.
    #[inline(always)]
    #[allow(unused_assignments)] // the last point's step to the next is never read
    fn update_lines<const ADD: bool, const POINTS: bool>(
        &mut self,
        pu: usize,
        s: usize,
        slot: usize,
    ) {
        let delta = &DELTA[s];
        let Board {
            pts,
            threats,
            tab,
            rows,
            line_total,
            keep_line_score,
            far,
            keep_points,
            point_total,
            pat,
            undo,
            cls_log,
            ..
        } = self;
        // with ADD, the shapes of the ten points before the stone on each line, into its undo
        // record
        let mut scratch = [[[PointShape::default(); 2]; 10]; 4];
        let saved_lines = if ADD {
            &mut undo[slot].shapes
        } else {
            &mut scratch
        };
        let far = *far;
        let keep_line_score = *keep_line_score;
        // (`POINTS` false: the point total is known not to be kept)
        let keep_points = POINTS && *keep_points;
        let (pv0, pv1) = (&*pat.point[0], &*pat.point[1]);
        let (lv0, lv1, lines) = (&*pat.line[0], &*pat.line[1], pat.lines);
        let (t0, t1) = (tab[0], tab[1]);
        let (gain, one) = (&ROW_GAIN[s], 1u8 << (4 * s));
        for (d, saved) in saved_lines.iter_mut().enumerate() {
            let step = STEPS[d];
            // the weight of a key's digit of direction d
            const P10: [usize; 4] = [1000, 100, 10, 1];
            let p10 = P10[d];
            // the point q for which p sits at offset k (q = p - k * step, from k = -5 up: `at`
            // goes down a step a point, and over p itself between k = -1 and 1), written out for
            // every k by a macro; its shapes only with `$shapes` (five away they stay under
            // Freestyle)
            let mut at = pu.wrapping_add(5 * step as usize);
            macro_rules! touch {
                ($k:expr, $i:expr, $shapes:expr) => {{
                    let k: isize = $k;
                    let q = at & MASK;
                    at = at.wrapping_sub(step as usize);
                    let pt = &mut pts[q];
                    // (the shapes that may change: five away only when `far`)
                    if ADD && $shapes {
                        saved[$i] = pt.shapes;
                    }
                    let w = delta[(k + 5) as usize];
                    let c = &mut pt.codes[d];
                    let before = *c;
                    *c = if ADD {
                        c.wrapping_add(w)
                    } else {
                        c.wrapping_sub(w)
                    };
                    // only empty points keep their shapes up to date (an occupied point's stay as
                    // they were, right again when its stone leaves last-first, else redone from its
                    // codes; off the board there is a wall)
                    if $shapes && pt.cell == 0 {
                        let c = *c;
                        let sh = &mut pt.shapes;
                        let (n0, n1) = (t0[(c & 0xFFFF) as usize], t1[(c >> 16) as usize]);
                        let (o0, o1) = (sh[0].lines[d], sh[1].lines[d]);
                        if keep_points && (o0 != n0 || o1 != n1) {
                            // the keys before, and after by the changed digit
                            let (k0, k1) = (sh[0].key(), sh[1].key());
                            let k0n = k0.wrapping_add(
                                p10.wrapping_mul((n0 as usize).wrapping_sub(o0 as usize)),
                            );
                            let k1n = k1.wrapping_add(
                                p10.wrapping_mul((n1 as usize).wrapping_sub(o1 as usize)),
                            );
                            *point_total += pv0[k0n & (KEYS - 1)] as i32
                                - pv0[k0 & (KEYS - 1)] as i32
                                - pv1[k1n & (KEYS - 1)] as i32
                                + pv1[k1 & (KEYS - 1)] as i32;
                        }
                        if keep_points && lines {
                            // the line weights of both sides' codes, after less before
                            use patterns::line_key as lk;
                            let (b0, b1) = (before as usize & 0xFFFF, before as usize >> 16);
                            let (a0, a1) = (c as usize & 0xFFFF, c as usize >> 16);
                            *point_total +=
                                lv0[lk(a0)] as i32 - lv0[lk(b0)] as i32 - lv1[lk(a1)] as i32
                                    + lv1[lk(b1)] as i32;
                        }
                        sh[0].lines[d] = n0;
                        sh[1].lines[d] = n1;
                        // the threat sets change only when a line's class does (the shapes below
                        // an open three have none); the index is below 256 as the shapes are
                        // below 16
                        let step0 = CLASS_STEP[(o0 << 4 | n0) as usize];
                        if step0 != 0 {
                            let c = &mut pt.cls[0];
                            let old = *c;
                            *c = old.wrapping_add(step0);
                            let flipped = threats[0].change(q, old, *c);
                            if ADD {
                                cls_log.push((q as u16, 0, old, flipped));
                            }
                        }
                        let step1 = CLASS_STEP[(o1 << 4 | n1) as usize];
                        if step1 != 0 {
                            let c = &mut pt.cls[1];
                            let old = *c;
                            *c = old.wrapping_add(step1);
                            let flipped = threats[1].change(q, old, *c);
                            if ADD {
                                cls_log.push((q as u16, 1, old, flipped));
                            }
                        }
                    }
                }};
            }
            touch!(-5, 0, far);
            touch!(-4, 1, true);
            touch!(-3, 2, true);
            touch!(-2, 3, true);
            touch!(-1, 4, true);
            at = at.wrapping_sub(step as usize);
            touch!(1, 5, true);
            touch!(2, 6, true);
            touch!(3, 7, true);
            touch!(4, 8, true);
            touch!(5, 9, far);
            // the rows of five through p: from p - k * step for k = 0..=4 (a row that does not
            // fit on the board holds counts of 8 or more, which gain nothing)
            if !keep_line_score {
                continue;
            }
            let mut start = pu;
            for _ in 0..5 {
                let r = &mut rows[start & MASK][d];
                start = start.wrapping_sub(step as usize);
                if ADD {
                    *line_total += gain[*r as usize];
                    *r = r.wrapping_add(one);
                } else {
                    *r = r.wrapping_sub(one);
                    *line_total -= gain[*r as usize];
                }
            }
        }
    }

    /// The columns `x0..x1` and rows `y0..y1` outside which no point is near a stone (empty
    /// ranges on an empty board): the stones' bounding box widened by two.
    #[inline]
    pub fn span(&self) -> (u16, u16, u16, u16) {
        let n = self.n as usize;
        let range = |counts: &[u8; 19]| -> (u16, u16) {
            match (
                counts[..n].iter().position(|&c| c > 0),
                counts[..n].iter().rposition(|&c| c > 0),
            ) {
                (Some(lo), Some(hi)) => (lo.saturating_sub(2) as u16, (hi + 3).min(n) as u16),
                _ => (0, 0),
            }
        };
        let (x0, x1) = range(&self.col_stones);
        let (y0, y1) = range(&self.row_stones);
        (x0, x1, y0, y1)
    }

    /// Whether a Black stone on the empty point `p` might be forbidden under renju, from the
    /// board's own shapes (no look at the position): every forbidden point has two lines with
    /// a three or more (a three-three, a four-four), one line with two points for a five (two
    /// fours on one line) or a line of six or more. `false` means surely allowed; `true` that
    /// the exact check ([`crate::gomoku::Gomoku::is_forbidden`]) must decide.
    #[inline]
    pub fn black_may_be_forbidden(&self, p: Move) -> bool {
        let pt = &self.pts[p as usize & MASK];
        let s = pt.shapes[0];
        s.count(F3) >= 2
            || s.lines.contains(&F4)
            || pt.codes.iter().any(|&c| overline(c as usize & 0xFFFF))
    }

    /// The shapes a stone of `side` on the empty point `p` would make.
    #[inline]
    pub fn shape(&self, side: Side, p: Move) -> PointShape {
        self.pts[p as usize & MASK].shapes[side.index() & 1]
    }

    /// The shape evaluation for `side`: every stone scores the shapes of its four lines (a
    /// stone of an open three scores the open three), `side`'s stones minus the opponent's.
    pub fn shape_score(&self, side: Side) -> i32 {
        const W: [i32; 10] = [0, 0, 1, 1, 8, 6, 40, 30, 300, 3000];
        let mut total = [0i32; 2];
        for y in 0..self.n as u16 {
            for x in 0..self.n as u16 {
                let p = y * STRIDE + x;
                let c = self.cell(p as usize);
                if c == 0 {
                    continue;
                }
                let s = (c - 1) as usize;
                let t = self.tab[s];
                total[s] += (0..4)
                    .map(|d| W[t[self.code(p as usize, s, d)] as usize])
                    .sum::<i32>();
            }
        }
        total[side.index()] - total[1 - side.index()]
    }

    /// The empty points within two points (Chebyshev distance) of a stone: the candidate
    /// moves.
    #[inline]
    pub fn cands(&self) -> Bits {
        self.occupied
            .dilate(2, &self.on_board)
            .and_not(&self.occupied)
    }

    /// [`Board::cands`] and the empty points three points from a stone along one of its
    /// lines (Rapfi's `square2_line3` range).
    pub fn cands_line3(&self) -> Bits {
        let mut set = self.occupied.dilate(2, &self.on_board);
        for step in STEPS {
            let k = 3 * step as i32;
            set = set.or(&self.occupied.shift(k)).or(&self.occupied.shift(-k));
        }
        set.and(&self.on_board).and_not(&self.occupied)
    }

    /// The empty candidate points of [`super::search::Config::range`] `r` (1-3): 1
    /// [`Board::cands_line3`], 2 within three points of a stone, 3 within three and four
    /// along a stone's lines (Rapfi's `square3_line4`).
    pub fn cands_range(&self, r: u8) -> Bits {
        if r <= 1 {
            return self.cands_line3();
        }
        // (radius 1, then 2: Chebyshev radius 3)
        let mut set = self
            .occupied
            .dilate(1, &self.on_board)
            .dilate(2, &self.on_board);
        if r >= 3 {
            for step in STEPS {
                let k = 4 * step as i32;
                set = set.or(&self.occupied.shift(k)).or(&self.occupied.shift(-k));
            }
        }
        set.and(&self.on_board).and_not(&self.occupied)
    }

    /// The points within one point of a stone (the stones' own points included).
    #[inline]
    pub fn adjacent_set(&self) -> Bits {
        self.occupied.dilate(1, &self.on_board)
    }

    /// Empty points near stones (the centre on an empty board), in index order.
    pub fn candidates(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.stones == 0 {
            let c = (self.n / 2) as u16;
            out.push(c * STRIDE + c);
            return;
        }
        out.extend(self.cands().iter());
    }

    /// The line-score evaluation of reference report 004: every row of five cells
    /// holding stones of one side only scores 1, 10, 100, 1000 or 100000 for 1-5 stones;
    /// `side`'s rows minus the opponent's. Kept up to date stone by stone.
    #[inline]
    pub fn line_score(&self, side: Side) -> i32 {
        let black = if self.keep_line_score {
            self.line_total
        } else {
            self.count_line_total()
        };
        if side == Side::Black { black } else { -black }
    }

    /// Whether the line score is kept up to date move by move (on by default). Turned on, it
    /// is counted again from the stones.
    pub fn keep_line_score(&mut self, on: bool) {
        if on && !self.keep_line_score {
            self.rows.fill([NO_ROW; 4]);
            let n = self.n as i32;
            for (d, &(dx, dy)) in DIRS.iter().enumerate() {
                for y in 0..n {
                    for x in 0..n {
                        if !self.on(x + 4 * dx, y + 4 * dy) {
                            continue;
                        }
                        let start = (y * STRIDE as i32 + x) as usize;
                        self.rows[start][d] = 0;
                        for k in 0..5 {
                            let c = self.cell(((y + k * dy) * STRIDE as i32 + x + k * dx) as usize);
                            if c != 0 {
                                self.rows[start][d] += 1 << (4 * (c - 1));
                            }
                        }
                    }
                }
            }
            self.line_total = self.count_line_total();
        }
        self.keep_line_score = on;
    }

    /// Stops keeping the line score without forgetting it, for a threat search that reads no
    /// evaluation: the caller takes off every stone it puts on before
    /// [`Board::resume_line_score`] with the returned state, so the rows and the total are
    /// again what they were (no count from the stones, unlike [`Board::keep_line_score`]).
    #[inline]
    pub fn pause_line_score(&mut self) -> Kept {
        Kept {
            line: std::mem::replace(&mut self.keep_line_score, false),
            points: std::mem::replace(&mut self.keep_points, false),
        }
    }

    /// Keeps the line score again as before [`Board::pause_line_score`] (`was` is what it
    /// returned); the stones must be those of that moment.
    #[inline]
    pub fn resume_line_score(&mut self, was: Kept) {
        self.keep_line_score = was.line;
        self.keep_points = was.points;
    }

    /// Whether the learned point total ([`Board::point_score`]) is kept up to date move by
    /// move (off by default). Turned on, it is counted again from the shapes.
    pub fn keep_points(&mut self, on: bool) {
        if on && !self.keep_points {
            self.point_total = self.count_point_total();
        }
        self.keep_points = on;
    }

    /// The learned weights of the shapes of both sides on the empty point `pu`, Black's minus
    /// White's.
    #[inline]
    fn point_value(&self, pu: usize) -> i32 {
        let pt = &self.pts[pu & MASK];
        let sh = &pt.shapes;
        let mut v = self.pat.point[0][sh[0].key() & (KEYS - 1)] as i32
            - self.pat.point[1][sh[1].key() & (KEYS - 1)] as i32;
        if self.pat.lines {
            for &c in &pt.codes {
                let c = c as usize;
                v += self.pat.line[0][patterns::line_key(c & 0xFFFF)] as i32
                    - self.pat.line[1][patterns::line_key(c >> 16)] as i32;
            }
        }
        v
    }

    /// The code of side `s` (0 Black, 1 White) on point `p` along direction `d` (see
    /// [`patterns::line_key`]).
    #[inline]
    pub fn line_code(&self, p: Move, s: usize, d: usize) -> usize {
        self.code(p as usize, s, d)
    }

    /// Reads the learned evaluation from `pat` from now on (the point total counted again if
    /// kept; the undo records, whose totals were of the old tables, forgotten).
    pub fn set_tables(&mut self, pat: &'static patterns::Tables) {
        if std::ptr::eq(self.pat, pat) {
            return;
        }
        self.pat = pat;
        self.undo_len = 0;
        self.cls_log.clear();
        if self.keep_points {
            self.point_total = self.count_point_total();
        }
    }

    /// [`Board::point_score`] for Black counted from the shapes.
    pub(super) fn count_point_total(&self) -> i32 {
        let mut total = 0;
        for p in self.on_board.iter() {
            if self.cell(p as usize) == 0 {
                total += self.point_value(p as usize);
            }
        }
        total
    }

    /// The learned point evaluation for `side` (the sum over the empty points of the weights of
    /// `side`'s shapes minus the opponent's); kept up to date only while
    /// [`Board::keep_points`] is on, else counted from the shapes.
    #[inline]
    pub fn point_score(&self, side: Side) -> i32 {
        let black = if self.keep_points {
            self.point_total
        } else {
            self.count_point_total()
        };
        if side == Side::Black { black } else { -black }
    }

    /// The threat mask of [`super::patterns`] with `side` to move: bit 0 a four-three point of
    /// `side`, 1 a four point, 2 two four points or more, 3 an open-three point, 4 a
    /// three-three point; bits 5-9 the same for the opponent, bit 10 an open-four point (an
    /// open four or two fours) of the opponent. (The side to move's own open
    /// four points and fives, and the opponent's fives, decide the game before an evaluation.)
    pub fn threat_mask(&self, side: Side) -> usize {
        let me = side.index() & 1;
        let flags = |s: usize| -> usize {
            let t = &self.threats[s];
            let fours = t.four.count();
            let four_three = !t.four.and(&t.three).is_empty();
            let double_three = t
                .three
                .iter()
                .any(|p| self.pts[p as usize & MASK].cls[s] & 0xF0 >= 0x20);
            four_three as usize
                | ((fours >= 1) as usize) << 1
                | ((fours >= 2) as usize) << 2
                | (!t.three.is_empty() as usize) << 3
                | (double_three as usize) << 4
        };
        let op = 1 - me;
        flags(me) | flags(op) << 5 | (!self.threats[op].open.is_empty() as usize) << 10
    }

    /// The learned evaluation for `side` to move: [`Board::point_score`] and the threat mask's
    /// weight.
    #[inline]
    pub fn pattern_score(&self, side: Side) -> i32 {
        self.point_score(side)
            + self.pat.threat[side.index() & 1][self.threat_mask(side) & (patterns::THREATS - 1)]
                as i32
    }

    /// [`Board::pattern_score`] with the threat mask's bit of the opponent's open-four point
    /// cleared (for an opponent whose open-four points are all forbidden under renju).
    pub fn pattern_score_no_open4(&self, side: Side) -> i32 {
        let mask = self.threat_mask(side) & !(1 << 10) & (patterns::THREATS - 1);
        self.point_score(side) + self.pat.threat[side.index() & 1][mask] as i32
    }

    /// [`Board::pattern_score`] with the point sum averaged over this position and the one
    /// before its last stone ([`super::search::Config::avg2`]); the plain score where that
    /// one is not known (no stone placed since the point total was kept).
    pub fn pattern_score_avg2(&self, side: Side) -> i32 {
        let now = self.pattern_score(side);
        match self.undo_len.checked_sub(1).map(|i| &self.undo[i]) {
            Some(u) if self.keep_points && u.kept & 2 != 0 => {
                let before = if side == Side::Black {
                    u.point_total
                } else {
                    -u.point_total
                };
                now - (self.point_score(side) - before) / 2
            }
            _ => now,
        }
    }

    /// [`Board::line_score`] for Black counted from the stones.
    pub(super) fn count_line_total(&self) -> i32 {
        let n = self.n as i32;
        let mut total = 0;
        for &(dx, dy) in &DIRS {
            for y in 0..n {
                for x in 0..n {
                    if !self.on(x + 4 * dx, y + 4 * dy) {
                        continue;
                    }
                    let mut count = [0usize; 2];
                    for k in 0..5 {
                        let c = self.cell(((y + k * dy) * STRIDE as i32 + x + k * dx) as usize);
                        if c != 0 {
                            count[(c - 1) as usize] += 1;
                        }
                    }
                    total += ROW_VALUE[count[0]][count[1]];
                }
            }
        }
        total
    }

    /// The shape a stone of `side` on the empty point `t` would make after a stone of the
    /// other side on the empty point `p`, which changes only the line through both, within
    /// five points of `t`; `None` when `p` is not on such a line (the shape stays).
    #[inline]
    pub fn shape_after_block(&self, side: Side, t: Move, p: Move) -> Option<PointShape> {
        self.shape_after_stone(side, t, p, false)
    }

    /// The shape a stone of `side` on the empty point `t` would make after a stone on the
    /// empty point `p`, of `side` itself (`own`) or of the other side; `None` when `p` is not
    /// on a line through `t` within five points (the shape stays).
    #[inline]
    pub fn shape_after_stone(&self, side: Side, t: Move, p: Move, own: bool) -> Option<PointShape> {
        let (dx, dy) = (
            (p % STRIDE) as i32 - (t % STRIDE) as i32,
            (p / STRIDE) as i32 - (t / STRIDE) as i32,
        );
        // p = t + k * DIRS[d]
        let (d, k) = if dy == 0 {
            (0, dx)
        } else if dx == 0 {
            (1, dy)
        } else if dx == dy {
            (2, dx)
        } else if dx == -dy {
            (3, dx)
        } else {
            return None;
        };
        if k == 0 || k.abs() > 5 {
            return None;
        }
        let s = side.index();
        let code = self.code(t as usize, s, d) as u32 + if own { 1 } else { 2 } * POW3[digit(k)];
        let mut sh = self.pts[t as usize & MASK].shapes[s];
        sh.lines[d] = self.tab[s][(code & 0xFFFF) as usize];
        Some(sh)
    }
}

/// What [`Board::pause_line_score`] stopped keeping.
#[derive(Clone, Copy, Debug)]
pub struct Kept {
    line: bool,
    points: bool,
}

#[cfg(test)]
mod tests;
