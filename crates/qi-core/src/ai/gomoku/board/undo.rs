//! Taking back the last stone placed from what its placing saved, instead of working the
//! shapes and threat classes out again from the codes: the search takes its stones back in
//! the order opposite to placing them, and then the board is again exactly what it was
//! before the stone, so the shapes of the forty points on its lines, the classes that
//! changed and the totals are put back as they were. Any other removal (not the last stone
//! placed, or with what the board keeps up to date switched since) is worked out in full,
//! and forgets the records (they describe boards that no longer come back).

use super::*;

/// What placing one stone changed ([`Board::place`]).
#[derive(Clone, Copy, Default)]
pub(super) struct Undo {
    /// The stone's point.
    pub(super) p: Move,
    /// [`Board::kept_bits`] at the time.
    pub(super) kept: u8,
    /// The length of [`Board::cls_log`] before the stone.
    pub(super) log: u32,
    pub(super) line_total: i32,
    pub(super) point_total: i32,
    /// `shapes[d][i]`: the shapes of the `i`-th point along direction `d` (offsets -5..-1,
    /// then 1..5) before the stone (five away only when [`Board::far`]: else they never
    /// change, and the slots are not written).
    pub(super) shapes: [[[PointShape; 2]; 10]; 4],
}

impl Board {
    /// What is kept up to date beside the shapes: bit 0 the line score, bit 1 the point total.
    #[inline]
    pub(super) fn kept_bits(&self) -> u8 {
        self.keep_line_score as u8 | (self.keep_points as u8) << 1
    }

    /// [`Board::restore`] along the four lines through `pu` for a stone of side `S`: the codes
    /// of the ten points around it on each, less the stone, and their shapes from record
    /// `top`.
    #[inline(always)]
    fn restore_lines<const S: usize>(&mut self, pu: usize, top: usize) {
        let Board { pts, undo, far, .. } = self;
        let far = *far;
        let u = &undo[top];
        for (d, (&step, saved)) in STEPS.iter().zip(u.shapes.iter()).enumerate() {
            // the point k cells behind the stone, from k = -5 up (over the stone between
            // k = -1 and 1), written out for every k
            // (in 32nds of a point, as in `update_line`: masked, the record's byte offset)
            let step = step << 5;
            let mut at = (pu << 5).wrapping_add(5 * step as usize);
            // (five away the shapes were saved and may have changed only when `far`)
            macro_rules! back {
                ($k:expr, $i:expr, $shapes:expr) => {{
                    let pt = &mut pts[(at & MASK << 5) >> 5];
                    at = at.wrapping_sub(step as usize);
                    let c = &mut pt.codes[d];
                    *c = c.wrapping_sub(DELTA[S][($k + 5) as usize]);
                    if $shapes {
                        pt.shapes = saved[$i];
                    }
                }};
            }
            back!(-5, 0, far);
            back!(-4, 1, true);
            back!(-3, 2, true);
            back!(-2, 3, true);
            back!(-1, 4, true);
            at = at.wrapping_sub(step as usize);
            back!(1, 5, true);
            back!(2, 6, true);
            back!(3, 7, true);
            back!(4, 8, true);
            back!(5, 9, far);
        }
    }

    /// Takes the stone of `side` off `p` from its undo record if it is the last stone placed
    /// and the board keeps the same totals as then; `false` (and the records forgotten) when
    /// not.
    #[inline]
    pub(super) fn restore(&mut self, p: Move, side: Side) -> bool {
        let Some(top) = self.undo_len.checked_sub(1) else {
            return false;
        };
        let u = &self.undo[top];
        if u.p != p || u.kept != self.kept_bits() {
            self.undo_len = 0;
            self.cls_log.clear();
            return false;
        }
        self.undo_len = top;
        let s = side.index() & 1;
        let (x, y) = ((p % STRIDE) as usize, (p / STRIDE) as usize);
        let pu = p as usize & MASK;
        // the codes and shapes of the forty points on the stone's lines, with the side known
        // at compile time (the codes' changes are constants)
        if s == 0 {
            self.restore_lines::<0>(pu, top);
        } else {
            self.restore_lines::<1>(pu, top);
        }
        let Board {
            pts,
            threats,
            rows,
            line_total,
            point_total,
            keep_line_score,
            keep_points,
            undo,
            cls_log,
            row_stones,
            col_stones,
            stones,
            occupied,
            ..
        } = self;
        let u = &undo[top];
        pts[pu].cell = 0;
        *stones -= 1;
        row_stones[y] -= 1;
        col_stones[x] -= 1;
        if *keep_line_score {
            let one = 1u8 << (4 * s);
            for (d, &step) in STEPS.iter().enumerate() {
                let mut start = pu;
                for _ in 0..5 {
                    let r = &mut rows[start & MASK][d];
                    *r = r.wrapping_sub(one);
                    start = start.wrapping_sub(step as usize);
                }
            }
            *line_total = u.line_total;
        }
        if *keep_points {
            *point_total = u.point_total;
        }
        for &(q, side, c, flipped) in cls_log[u.log as usize..].iter().rev() {
            let q = q as usize & MASK;
            let side = side as usize & 1;
            pts[q].cls[side] = c;
            threats[side].flip(q, flipped);
        }
        cls_log.truncate(u.log as usize);
        // p's own shapes and classes stayed as they were while it was occupied
        for (t, &c) in threats.iter_mut().zip(pts[pu].cls.iter()) {
            if c != 0 {
                t.change(pu, 0, c);
            }
        }
        occupied.set(pu, false);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Everything the search reads of `b` equals a board built from its stones from scratch
    /// (the shapes and classes of the empty points; an occupied point's are not read).
    fn assert_same_as_scratch(b: &Board, rule: GomokuRule, what: &str) {
        let mut f = Board::new(b.n, rule);
        f.keep_line_score(b.keep_line_score);
        f.pat = b.pat;
        f.keep_points(b.keep_points);
        for p in b.occupied.iter() {
            let side = if b.cell(p as usize) == 1 {
                Side::Black
            } else {
                Side::White
            };
            f.place(p, side);
        }
        for (bp, fp) in b.pts.iter().zip(f.pts.iter()) {
            assert!(bp.codes == fp.codes && bp.cell == fp.cell, "{what}");
        }
        assert!(b.occupied == f.occupied, "{what}");
        assert!(b.threats == f.threats, "{what}");
        assert_eq!(b.stones, f.stones, "{what}");
        assert!(b.row_stones == f.row_stones && b.col_stones == f.col_stones);
        for p in b.on_board.iter() {
            if b.is_empty(p) {
                let q = p as usize;
                assert_eq!(b.pts[q].shapes, f.pts[q].shapes, "{what}: shapes of {p}");
                assert_eq!(b.pts[q].cls, f.pts[q].cls, "{what}: classes of {p}");
            }
        }
        if b.keep_line_score {
            // the rows that fit on the board (the others hold counts from 8 up, less the
            // stones taken off since a recount: a sum above 5, where ROW_GAIN is 0)
            for (r, g) in b.rows.iter().zip(f.rows.iter()) {
                for (&r, &g) in r.iter().zip(g.iter()) {
                    let fits = (g & 15) + (g >> 4) <= 5;
                    let sum = (r & 15) + (r >> 4);
                    assert!(r == g || (!fits && sum > 5), "{what}: {r:#x} {g:#x}");
                }
            }
            assert_eq!(b.line_total, f.line_total, "{what}");
        }
        if b.keep_points {
            assert_eq!(b.point_total, f.point_total, "{what}");
        }
    }

    #[test]
    fn removals_from_the_records_leave_the_board_as_built_from_scratch() {
        // random games on every rule with stones taken back last-first (from the records),
        // out of order (worked out in full, the records forgotten) and with what is kept
        // switched between a stone and its removal
        let mut rng = crate::rng::Rng::new(2026);
        let mut rnd = move |k: u64| rng.below(k);
        let (mut restored, mut full) = (0, 0);
        for rule in [
            GomokuRule::Freestyle,
            GomokuRule::Standard,
            GomokuRule::Renju,
        ] {
            for game in 0..4 {
                let n = if game == 3 { 19 } else { 15 };
                let mut b = Board::new(n, rule);
                b.pat = super::super::tests::random_tables(game + 11);
                b.keep_points(game % 2 == 1);
                let mut played: Vec<(Move, Side)> = Vec::new();
                for i in 0..160 {
                    match rnd(10) {
                        0..=5 => {
                            let p = (rnd(n as u64) * STRIDE as u64 + rnd(n as u64)) as Move;
                            if b.is_empty(p) {
                                let side = if i % 2 == 0 { Side::Black } else { Side::White };
                                b.place(p, side);
                                played.push((p, side));
                            }
                        }
                        6..=8 if !played.is_empty() => {
                            // the last stone, or (one time in three) any other
                            let at = if rnd(3) == 0 {
                                rnd(played.len() as u64) as usize
                            } else {
                                played.len() - 1
                            };
                            let (p, side) = played.remove(at);
                            let had = b.undo_len;
                            b.remove(p, side);
                            if b.undo_len + 1 == had {
                                restored += 1;
                            } else {
                                assert_eq!(b.undo_len, 0);
                                full += 1;
                            }
                        }
                        _ => {
                            if rnd(2) == 0 {
                                b.keep_line_score(!b.keep_line_score);
                            } else {
                                b.keep_points(!b.keep_points);
                            }
                        }
                    }
                    assert_same_as_scratch(&b, rule, &format!("{rule:?} game {game} step {i}"));
                }
            }
        }
        assert!(restored > 300 && full > 50, "{restored} {full}");
    }
}
