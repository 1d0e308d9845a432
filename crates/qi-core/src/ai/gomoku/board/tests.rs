//! Tests of the Gomoku AI board: shapes, tables, and the incremental state against scratch.

use super::*;
use crate::rng::Rng;

impl Board {
    /// [`Board::line_score`] counted from nothing (the incremental one must equal it).
    fn line_score_scratch(&self, side: Side) -> i32 {
        const S: [i32; 6] = [0, 1, 10, 100, 1000, 100_000];
        let n = self.n as i32;
        let me = side.index() as u8 + 1;
        let mut total = 0;
        for &(dx, dy) in &DIRS {
            for y in 0..n {
                for x in 0..n {
                    let (ex, ey) = (x + 4 * dx, y + 4 * dy);
                    if !self.on(ex, ey) {
                        continue;
                    }
                    let (mut mine, mut theirs) = (0, 0);
                    for k in 0..5 {
                        let c = self.cell(((y + k * dy) * STRIDE as i32 + x + k * dx) as usize);
                        if c == me {
                            mine += 1;
                        } else if c != 0 {
                            theirs += 1;
                        }
                    }
                    if theirs == 0 {
                        total += S[mine];
                    } else if mine == 0 {
                        total -= S[theirs];
                    }
                }
            }
        }
        total
    }
}

/// A random game on the `n` × `n` board `b` for `steps` steps: each step a random point (a
/// step whose point is taken does nothing more), Black's stone on the even steps and White's
/// on the odd ones, and after it the last stone still on the board taken off on the steps
/// where `take_back` holds. `before` runs at the start of every step, `after` after each
/// stone (and its removal).
fn random_game(
    b: &mut Board,
    rng: &mut Rng,
    n: u64,
    steps: usize,
    take_back: impl Fn(usize) -> bool,
    mut before: impl FnMut(&mut Board, usize),
    mut after: impl FnMut(&mut Board, &mut Rng, usize),
) {
    let mut played = Vec::new();
    for i in 0..steps {
        before(b, i);
        let p = (rng.below(n) * STRIDE as u64 + rng.below(n)) as Move;
        if !b.is_empty(p) {
            continue;
        }
        let side = if i % 2 == 0 { Side::Black } else { Side::White };
        b.place(p, side);
        played.push((p, side));
        if take_back(i) {
            let (q, s) = played.pop().unwrap();
            b.remove(q, s);
        }
        after(b, rng, i);
    }
}

fn shape_of(b: &mut Board, side: Side, stones: &[(i32, i32)], p: (i32, i32)) -> PointShape {
    for &(x, y) in stones {
        b.place((y as u16) * STRIDE + x as u16, side);
    }
    b.shape(side, (p.1 as u16) * STRIDE + p.0 as u16)
}

#[test]
fn line_shapes() {
    let mut b = Board::new(15, GomokuRule::Freestyle);
    // four in a row: the fifth point is a five
    let s = shape_of(
        &mut b,
        Side::Black,
        &[(3, 7), (4, 7), (5, 7), (6, 7)],
        (7, 7),
    );
    assert_eq!(s.lines[0], FIVE);
    // three in a row: the next point makes an open four
    let mut b = Board::new(15, GomokuRule::Freestyle);
    let s = shape_of(&mut b, Side::Black, &[(4, 7), (5, 7), (6, 7)], (7, 7));
    assert_eq!(s.lines[0], F4);
    // blocked at one end by White: a plain four
    b.place(7 * STRIDE + 3, Side::White);
    assert_eq!(b.shape(Side::Black, 7 * STRIDE + 7).lines[0], B4);
    // two in a row: an open three
    let mut b = Board::new(15, GomokuRule::Freestyle);
    let s = shape_of(&mut b, Side::White, &[(5, 5), (6, 6)], (7, 7));
    assert_eq!(s.lines[2], F3);
    assert_eq!(s.lines[0], F1);
    // against the edge a stone has less room
    let mut b = Board::new(15, GomokuRule::Freestyle);
    let s = shape_of(&mut b, Side::White, &[(1, 0), (2, 0)], (0, 0));
    assert_eq!(s.lines[0], B3);
}

#[test]
fn point_info_matches_the_definitions() {
    const V: [i32; 10] = [0, 1, 4, 8, 24, 28, 110, 130, 600, 20_000];
    for k in 0..10_000u32 {
        let lines = [
            (k / 1000) as u8,
            (k / 100 % 10) as u8,
            (k / 10 % 10) as u8,
            (k % 10) as u8,
        ];
        let p = PointShape { lines };
        let fours = lines.iter().filter(|&&l| l == B4 || l == F4).count() as u32;
        let threes = lines.iter().filter(|&&l| l == F3).count();
        let unstoppable = lines.contains(&F4) || fours >= 2;
        let four_three = fours >= 1 && threes >= 1;
        let mut v: i32 = lines.iter().map(|&l| V[l as usize]).sum();
        if unstoppable {
            v += 3000;
        } else if four_three {
            v += 2000;
        } else if threes >= 2 {
            v += 900;
        } else if lines.iter().filter(|&&l| l >= F2).count() >= 2 {
            v += 40;
        }
        assert_eq!(p.fours(), fours, "{lines:?}");
        assert_eq!(p.unstoppable(), unstoppable, "{lines:?}");
        assert_eq!(p.four_three(), four_three, "{lines:?}");
        assert_eq!(p.double_three(), threes >= 2, "{lines:?}");
        assert_eq!(p.value(), v, "{lines:?}");
    }
}

#[test]
fn exact_five_rules_out_overlines() {
    // X X X X . X : the gap makes six, a five only under Freestyle
    for (rule, want) in [
        (GomokuRule::Freestyle, FIVE),
        (GomokuRule::Standard, NONE),
        (GomokuRule::Renju, NONE),
    ] {
        let mut b = Board::new(15, rule);
        let s = shape_of(
            &mut b,
            Side::Black,
            &[(2, 7), (3, 7), (4, 7), (5, 7), (7, 7)],
            (6, 7),
        );
        assert_eq!(s.lines[0] == FIVE, want == FIVE, "{rule:?}");
    }
    // White in Renju wins with six
    let mut b = Board::new(15, GomokuRule::Renju);
    let s = shape_of(
        &mut b,
        Side::White,
        &[(2, 7), (3, 7), (4, 7), (5, 7), (7, 7)],
        (6, 7),
    );
    assert_eq!(s.lines[0], FIVE);
}

#[test]
fn codes_follow_place_and_remove() {
    let mut b = Board::new(15, GomokuRule::Standard);
    let fresh = b.clone();
    let moves = [
        7 * STRIDE + 7,
        7 * STRIDE + 8,
        8 * STRIDE + 8,
        0,
        14 * STRIDE + 14,
    ];
    for (i, &m) in moves.iter().enumerate() {
        b.place(m, if i % 2 == 0 { Side::Black } else { Side::White });
    }
    for (i, &m) in moves.iter().enumerate().rev() {
        b.remove(m, if i % 2 == 0 { Side::Black } else { Side::White });
    }
    assert!(b.pts == fresh.pts && b.occupied == fresh.occupied);
    assert!(b.rows == fresh.rows);
    assert!(b.threats == fresh.threats);
    assert_eq!(b.line_total, 0);
}

#[test]
fn line_score_switched_off_and_on() {
    // off: counted from the stones; on again: rebuilt, then kept move by move
    let mut rng = Rng::new(777);
    for rule in [GomokuRule::Freestyle, GomokuRule::Renju] {
        let mut b = Board::new(15, rule);
        let switch = |b: &mut Board, i: usize| match i {
            10 => b.keep_line_score(false),
            50 => b.keep_line_score(true),
            _ => {}
        };
        let check = |b: &mut Board, _: &mut Rng, i: usize| {
            for side in [Side::Black, Side::White] {
                assert_eq!(b.line_score(side), b.line_score_scratch(side), "move {i}");
            }
        };
        random_game(&mut b, &mut rng, 15, 90, |i| i % 5 == 2, switch, check);
    }
}

#[test]
fn incremental_state_matches_scratch() {
    // random games on every rule: the kept shapes, neighbour counts and line score equal
    // the ones counted from the stones
    let mut rng = Rng::new(12345);
    for rule in [
        GomokuRule::Freestyle,
        GomokuRule::Standard,
        GomokuRule::Renju,
    ] {
        for game in 0..6 {
            let n = if game % 3 == 2 { 19 } else { 15 };
            let mut b = Board::new(n, rule);
            let take_back = |i| i % 7 == 3;
            random_game(
                &mut b,
                &mut rng,
                n as u64,
                120,
                take_back,
                |_, _| {},
                |_, _, _| {},
            );
            for side in [Side::Black, Side::White] {
                assert_eq!(b.line_score(side), b.line_score_scratch(side), "{rule:?}");
            }
            let (x0, x1, y0, y1) = b.span();
            let t = tables();
            let which = match rule {
                GomokuRule::Freestyle => [1, 1],
                GomokuRule::Standard => [0, 0],
                GomokuRule::Renju => [0, 1],
            };
            for y in 0..n as i32 {
                for x in 0..n as i32 {
                    let p = (y * STRIDE as i32 + x) as Move;
                    let near = |r: i32| {
                        (-r..=r).any(|dy| {
                            (-r..=r).any(|dx| {
                                b.on(x + dx, y + dy)
                                    && b.cell(((y + dy) * STRIDE as i32 + x + dx) as usize) != 0
                            })
                        })
                    };
                    assert_eq!(b.adjacent_set().get(p as usize), near(1));
                    let cand = near(2) && b.cell(p as usize) == 0;
                    assert_eq!(b.cands().get(p as usize), cand);
                    // (Rapfi's square2_line3: also three points along a line from a stone)
                    let line3 = [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
                        [-3, 3].iter().any(|&k| {
                            let (sx, sy) = (x + k * dx, y + k * dy);
                            b.on(sx, sy) && b.cell((sy * STRIDE as i32 + sx) as usize) != 0
                        })
                    });
                    assert_eq!(
                        b.cands_line3().get(p as usize),
                        (cand || line3) && b.cell(p as usize) == 0,
                        "{x},{y} line3"
                    );
                    // (range 2: within three points; range 3: also four along a line)
                    let empty = b.cell(p as usize) == 0;
                    assert_eq!(
                        b.cands_range(2).get(p as usize),
                        near(3) && empty,
                        "{x},{y} r2"
                    );
                    let line4 = [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
                        [-4, 4].iter().any(|&k| {
                            let (sx, sy) = (x + k * dx, y + k * dy);
                            b.on(sx, sy) && b.cell((sy * STRIDE as i32 + sx) as usize) != 0
                        })
                    });
                    assert_eq!(
                        b.cands_range(3).get(p as usize),
                        (near(3) || line4) && empty,
                        "{x},{y} r3"
                    );
                    let inside =
                        (x0 as i32..x1 as i32).contains(&x) && (y0 as i32..y1 as i32).contains(&y);
                    assert!(inside || !near(2), "{x},{y} near a stone");
                    for side in [Side::Black, Side::White] {
                        let s = side.index();
                        let want: Vec<u8> = (0..4)
                            .map(|d| t[which[s]][b.code(p as usize, s, d)])
                            .collect();
                        if b.cell(p as usize) == 0 {
                            assert_eq!(b.shape(side, p).lines.to_vec(), want);
                        }
                        let mut t = super::super::bits::Threats::default();
                        let q = p as usize;
                        t.put(q, b.shape(side, p), b.cell(q) == 0);
                        let kept = &b.threats[s];
                        for (a, k) in [
                            (t.five, kept.five),
                            (t.four, kept.four),
                            (t.three, kept.three),
                            (t.open, kept.open),
                        ] {
                            assert_eq!(a.get(q), k.get(q), "{rule:?} {x},{y}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn shape_after_block_matches_a_placed_stone() {
    // random positions on every rule: for every empty point and every empty point on its
    // lines within five, the shape after the other side's stone there equals the one read
    // after placing it; off those lines there is no answer
    let mut rng = crate::rng::Rng::new(777);
    let mut rnd = move |k: u64| rng.below(k);
    let mut checked = 0;
    for rule in [
        GomokuRule::Freestyle,
        GomokuRule::Standard,
        GomokuRule::Renju,
    ] {
        for game in 0..4 {
            let n = if game == 3 { 19 } else { 15 };
            let mut b = Board::new(n, rule);
            for i in 0..(30 + 15 * game) {
                let p = (rnd(n as u64) * STRIDE as u64 + rnd(n as u64)) as Move;
                if b.is_empty(p) {
                    b.place(p, if i % 2 == 0 { Side::Black } else { Side::White });
                }
            }
            let empty: Vec<Move> = (0..n as u16)
                .flat_map(|y| (0..n as u16).map(move |x| y * STRIDE + x))
                .filter(|&p| b.is_empty(p))
                .collect();
            for &t in empty.iter().step_by(3) {
                for &p in &empty {
                    if p == t {
                        continue;
                    }
                    for side in [Side::Black, Side::White] {
                        let got = b.shape_after_block(side, t, p);
                        let (dx, dy) = (
                            (p % STRIDE) as i32 - (t % STRIDE) as i32,
                            (p / STRIDE) as i32 - (t / STRIDE) as i32,
                        );
                        let aligned = (dx == 0 || dy == 0 || dx.abs() == dy.abs())
                            && dx.abs().max(dy.abs()) <= 5;
                        assert_eq!(got.is_some(), aligned, "{rule:?} {t} {p}");
                        b.place(p, side.other());
                        let want = b.shape(side, t);
                        b.remove(p, side.other());
                        if let Some(s) = got {
                            assert_eq!(s, want, "{rule:?} {t} {p} {side:?}");
                            checked += 1;
                        } else {
                            assert_eq!(want, b.shape(side, t), "{rule:?} {t} {p}");
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn point_info_agrees_with_the_shape_tests() {
    // the one-look-up flags the candidate scan reads against the per-question methods
    for k in 0..10_000usize {
        let s = PointShape {
            lines: [
                (k / 1000) as u8,
                (k / 100 % 10) as u8,
                (k / 10 % 10) as u8,
                (k % 10) as u8,
            ],
        };
        let i = s.info();
        assert_eq!(i.flags & FIVE_FLAG != 0, s.five(), "{k}");
        assert_eq!((i.flags & FOURS_MASK) as u32, s.fours(), "{k}");
        assert_eq!(i.flags & UNSTOPPABLE != 0, s.unstoppable(), "{k}");
        assert_eq!(i.flags & FOUR_THREE != 0, s.four_three(), "{k}");
        assert_eq!(i.flags & DOUBLE_THREE != 0, s.double_three(), "{k}");
        assert_eq!(i.flags & THREAT != 0, s.threat(), "{k}");
        assert_eq!(i.value, s.value(), "{k}");
        // the packed table the methods read holds the value and flags of the full one
        assert_eq!(i, point_info()[k], "{k}");
    }
}

#[test]
fn codes_match_the_cells_up_to_the_edges() {
    // random stones all over 15 × 15 and 19 × 19 boards, corners and edges included, some taken
    // off again: every point's codes equal the ones read from the cells (off the board counts
    // as the other side's), and the slots off the board stay walls
    let mut rng = crate::rng::Rng::new(4242);
    for n in [15u8, 19] {
        let mut b = Board::new(n, GomokuRule::Freestyle);
        let mut played = Vec::new();
        for i in 0..200 {
            let p = (rng.below(n as u64) * STRIDE as u64 + rng.below(n as u64)) as Move;
            if !b.is_empty(p) {
                continue;
            }
            let side = if i % 2 == 0 { Side::Black } else { Side::White };
            b.place(p, side);
            played.push((p, side));
            if i % 3 == 0 {
                let (q, s) = played.swap_remove(rng.below(played.len() as u64) as usize);
                b.remove(q, s);
            }
        }
        for slot in 0..SLOTS {
            let (x, y) = ((slot % 32) as i32, (slot / 32) as i32);
            if !b.on(x, y) {
                assert_eq!(b.cell(slot), WALL, "{n}: slot {slot}");
                continue;
            }
            for s in 0..2 {
                for (d, &(dx, dy)) in DIRS.iter().enumerate() {
                    let mut want = 0;
                    for k in -5i32..=5 {
                        if k == 0 {
                            continue;
                        }
                        let (qx, qy) = (x + k * dx, y + k * dy);
                        let digit_value = cell_digit(&b, s, qx, qy);
                        want += digit_value * POW3[digit(k)] as usize;
                    }
                    assert_eq!(b.code(slot, s, d), want, "{n}: {x},{y} side {s} dir {d}");
                }
            }
        }
    }
}

#[test]
fn line_score_paused_around_stones_taken_back() {
    // paused while random stones go on and come off again (as in a threat search), the line
    // score is again the one counted from the stones, and kept move by move after
    let mut rng = crate::rng::Rng::new(31);
    let mut b = Board::new(15, GomokuRule::Freestyle);
    for i in 0..60 {
        let p = (rng.below(15) * STRIDE as u64 + rng.below(15)) as Move;
        if !b.is_empty(p) {
            continue;
        }
        let side = if i % 2 == 0 { Side::Black } else { Side::White };
        b.place(p, side);
        if i % 10 == 9 {
            let kept = b.pause_line_score();
            let mut tried = Vec::new();
            for j in 0..12 {
                let q = (rng.below(15) * STRIDE as u64 + rng.below(15)) as Move;
                if b.is_empty(q) {
                    let s = if j % 2 == 0 { Side::White } else { Side::Black };
                    b.place(q, s);
                    tried.push((q, s));
                }
            }
            for &(q, s) in tried.iter().rev() {
                b.remove(q, s);
            }
            b.resume_line_score(kept);
        }
        for side in [Side::Black, Side::White] {
            assert_eq!(b.line_score(side), b.line_score_scratch(side), "move {i}");
        }
    }
}

#[test]
fn five_or_more_reads_no_cell_five_away() {
    // the table of "five or more" gives the same shape whatever the cells five away hold (the
    // update skips those points' shapes under Freestyle); the exact five reads them
    let t = tables();
    let (near_end, far_end) = (POW3[digit(-5)] as usize, POW3[digit(5)] as usize);
    let mut exact_differs = false;
    for code in 0..CODES {
        let (a, b) = (code / near_end % 3, code / far_end % 3);
        let base = code - a * near_end - b * far_end;
        for x in 0..3 {
            for y in 0..3 {
                let other = base + x * near_end + y * far_end;
                assert_eq!(t[1][code], t[1][other], "{code} {other}");
                exact_differs |= t[0][code] != t[0][other];
            }
        }
    }
    assert!(exact_differs);
}

/// Random learned tables (the shipped ones may hold few non-zero weights).
pub(super) fn random_tables(seed: u64) -> &'static patterns::Tables {
    let mut rng = crate::rng::Rng::new(seed);
    let mut w = patterns::RuleWeights::zero();
    for t in w.point.iter_mut().chain(w.threat.iter_mut()) {
        for v in t.iter_mut() {
            *v = rng.below(2001) as i16 - 1000;
        }
    }
    let line = [0, 1].map(|_| {
        (0..patterns::LINE_KEYS)
            .map(|_| rng.below(2001) as i16 - 1000)
            .collect::<Vec<i16>>()
    });
    Box::leak(Box::new(patterns::Tables::with_lines(&w, &line)))
}

/// The digit of the cell at (`x`, `y`) for `side`: 0 empty, 1 its own stone, 2 the other
/// side's stone or off the board.
fn cell_digit(b: &Board, side: usize, x: i32, y: i32) -> usize {
    if !b.on(x, y) {
        return 2;
    }
    match b.cell((y * STRIDE as i32 + x) as usize) {
        0 => 0,
        c if (c - 1) as usize == side => 1,
        _ => 2,
    }
}

/// The line key of `side` on `p` along direction `d`, read from the cells (0 empty, 1 own
/// stone, 2 the other side's stone or off the board; the cell four behind is the lowest
/// digit).
fn line_key_from_cells(b: &Board, side: usize, p: Move, d: usize) -> usize {
    let (x, y) = ((p % STRIDE) as i32, (p / STRIDE) as i32);
    let (dx, dy) = DIRS[d];
    let mut key = 0;
    for k in [4, 3, 2, 1, -1, -2, -3, -4] {
        let (u, v) = (x + k * dx, y + k * dy);
        let digit = cell_digit(b, side, u, v);
        key = key * 3 + digit;
    }
    key
}

#[test]
fn point_total_kept_stone_by_stone_equals_the_sum_over_empty_points() {
    // with random weights: kept across places, removals, pauses in a threat search and the
    // switch off and on, the total equals the sum from the stones' shapes (read point by
    // point with `shape`, which stays right for empty points)
    let mut rng = Rng::new(4242);
    for rule in [GomokuRule::Freestyle, GomokuRule::Renju] {
        let mut b = Board::new(15, rule);
        b.pat = random_tables(rule as u64 + 5);
        b.keep_points(true);
        let scratch = |b: &Board| -> i32 {
            let mut t = 0;
            for y in 0..15u16 {
                for x in 0..15u16 {
                    let p = y * STRIDE + x;
                    if b.is_empty(p) {
                        let key = |s: Side| patterns::combo_of(b.shape(s, p).key());
                        let (kb, kw) = (key(Side::Black), key(Side::White));
                        // the expanded tables agree with the combination of the key
                        t += b.pat.point[0][b.shape(Side::Black, p).key()] as i32
                            - b.pat.point[1][b.shape(Side::White, p).key()] as i32;
                        // the line weights of the keys read from the cells
                        for d in 0..4 {
                            let k0 = line_key_from_cells(b, 0, p, d);
                            let k1 = line_key_from_cells(b, 1, p, d);
                            assert_eq!(patterns::line_key(b.line_code(p, 0, d)), k0);
                            assert_eq!(patterns::line_key(b.line_code(p, 1, d)), k1);
                            t += b.pat.line[0][k0] as i32 - b.pat.line[1][k1] as i32;
                        }
                        assert!(kb < patterns::COMBOS && kw < patterns::COMBOS);
                    }
                }
            }
            t
        };
        let other = random_tables(rule as u64 + 50);
        let first = b.pat;
        let switch = |b: &mut Board, i: usize| match i {
            30 => b.keep_points(false),
            60 => b.keep_points(true),
            // other tables in the middle of the game, and back
            80 => b.set_tables(other),
            100 => b.set_tables(first),
            _ => {}
        };
        let check = |b: &mut Board, rng: &mut Rng, i: usize| {
            if i % 11 == 5 {
                let kept = b.pause_line_score();
                let mut tried = Vec::new();
                for j in 0..10 {
                    let q = (rng.below(15) * STRIDE as u64 + rng.below(15)) as Move;
                    if b.is_empty(q) {
                        let s = if j % 2 == 0 { Side::White } else { Side::Black };
                        b.place(q, s);
                        tried.push((q, s));
                    }
                }
                for &(q, s) in tried.iter().rev() {
                    b.remove(q, s);
                }
                b.resume_line_score(kept);
            }
            let want = scratch(b);
            assert_eq!(b.point_score(Side::Black), want, "{rule:?} move {i}");
            assert_eq!(b.point_score(Side::White), -want, "{rule:?} move {i}");
        };
        random_game(&mut b, &mut rng, 15, 120, |i| i % 7 == 3, switch, check);
    }
}

#[test]
fn threat_mask_reads_the_threats_of_both_sides() {
    // Black: an open three f8 g8 h8, so with White to move the opponent has open-four
    // points (bit 10); White: two stones d4 d5
    let mut b = Board::new(15, GomokuRule::Freestyle);
    let at = |x: u16, y: u16| y * STRIDE + x;
    for x in 5..8 {
        b.place(at(x, 7), Side::Black);
    }
    b.place(at(3, 3), Side::White);
    b.place(at(3, 4), Side::White);
    let white = b.threat_mask(Side::White);
    assert!(white & 1 << 10 != 0, "{white:b}");
    // Black's own four points (the open three's ends make open fours, which are fours)
    assert!(white & 1 << 6 != 0 && white & 1 << 7 != 0, "{white:b}");
    // White has an open-three point (next to its two) and no four point
    assert!(white & 1 << 3 != 0 && white & 1 << 1 == 0, "{white:b}");
    let black = b.threat_mask(Side::Black);
    assert!(black & 1 << 10 == 0 && black & 0b110 == 0b110, "{black:b}");
}

#[test]
fn point_key_is_the_shapes_in_base_ten() {
    for k in 0..10_000usize {
        let lines = [k / 1000, k / 100 % 10, k / 10 % 10, k % 10].map(|d| d as u8);
        assert_eq!(PointShape { lines }.key(), k, "{lines:?}");
    }
}

#[test]
fn the_two_ply_average_takes_the_point_sum_before_the_last_stone() {
    // `pattern_score_avg2` is the threat weight plus the mean of the point sums after and
    // before the last stone, for both sides; before a stone placed while the sum was kept it
    // is the plain score
    let mut rng = Rng::new(77);
    let mut b = Board::new(15, GomokuRule::Freestyle);
    b.pat = random_tables(9);
    let mut stones = 0;
    let mut checked = 0;
    for i in 0..200 {
        let p = (rng.below(15) * STRIDE as u64 + rng.below(15)) as Move;
        if !b.is_empty(p) {
            continue;
        }
        let side = if stones % 2 == 0 {
            Side::Black
        } else {
            Side::White
        };
        if i == 6 {
            // stones placed so far were placed without the sum
            b.keep_points(true);
            for s in [Side::Black, Side::White] {
                assert_eq!(b.pattern_score_avg2(s), b.pattern_score(s));
            }
        }
        let before = [b.point_score(Side::Black), b.point_score(Side::White)];
        b.place(p, side);
        stones += 1;
        if b.threats[0].five.count() + b.threats[1].five.count() > 0 && stones > 40 {
            break;
        }
        for (s, was) in [Side::Black, Side::White].into_iter().zip(before) {
            let threat = b.pattern_score(s) - b.point_score(s);
            let want = if i >= 6 {
                threat + b.point_score(s) - (b.point_score(s) - was) / 2
            } else {
                b.pattern_score(s)
            };
            assert_eq!(b.pattern_score_avg2(s), want, "stone {stones}");
            if i >= 6 && b.point_score(s) != was {
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "{checked}");
}
