//! Gomoku positions with known answers, for each rule: fives, overlines, every forbidden shape
//! for Black in Renju, false threes that are allowed, and fives that win despite a forbidden shape.

use qi_core::game::{Cell, Game, Outcome, Side, Square, parse_square};
use qi_core::gomoku::{Forbidden, Gomoku, GomokuRule, move_at};

/// A 15×15 position with Black stones on `black`, White stones on `white` (square names separated
/// by spaces) and `to_move` to play, built through the position text.
fn setup(rule: GomokuRule, black: &str, white: &str, to_move: Side) -> Gomoku {
    let n = 15usize;
    let mut grid = vec![vec!['.'; n]; n];
    for (names, ch) in [(black, 'x'), (white, 'o')] {
        for name in names.split_whitespace() {
            let sq = parse_square(name, 15, 15).unwrap();
            assert_eq!(grid[sq.y as usize][sq.x as usize], '.', "{name} twice");
            grid[sq.y as usize][sq.x as usize] = ch;
        }
    }
    let rows: Vec<String> = (0..n).rev().map(|y| grid[y].iter().collect()).collect();
    let side = if to_move == Side::Black { 'x' } else { 'o' };
    let text = format!("15 {} {} {side}", rule.name(), rows.join("/"));
    let pos = Gomoku::from_text(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(Gomoku::from_text(&pos.to_text()).unwrap(), pos);
    pos
}

fn sq(name: &str) -> Square {
    parse_square(name, 15, 15).unwrap()
}

fn mv(name: &str) -> u16 {
    move_at(sq(name))
}

fn squares(names: &str) -> Vec<Square> {
    names.split_whitespace().map(sq).collect()
}

fn legal_list(pos: &Gomoku) -> Vec<u16> {
    let mut v = Vec::new();
    pos.legal_moves(&mut v);
    v
}

/// Asserts that Black on `point` is forbidden for `why`, and that every way of asking agrees.
fn assert_forbidden(pos: &Gomoku, point: &str, why: Forbidden) {
    assert_eq!(pos.is_forbidden(sq(point)), Some(why), "{point} in {pos:?}");
    assert!(!pos.is_legal(mv(point)), "{point} must be illegal");
    assert!(!legal_list(pos).contains(&mv(point)));
    assert_eq!(legal_list(pos).len() as u64, pos.count_moves());
    assert!(pos.forbidden_points().contains(&(sq(point), why)));
    let mut p = pos.clone();
    assert!(p.play(mv(point)).is_err());
    assert_eq!(&p, pos);
}

/// Asserts that Black may play on `point`.
fn assert_allowed(pos: &Gomoku, point: &str) {
    assert_eq!(pos.is_forbidden(sq(point)), None, "{point} in {pos:?}");
    assert!(pos.is_legal(mv(point)), "{point} must be legal");
    assert!(legal_list(pos).contains(&mv(point)));
    assert!(!pos.forbidden_points().iter().any(|(s, _)| *s == sq(point)));
}

#[test]
fn five_wins_under_every_rule() {
    for rule in GomokuRule::ALL {
        for winner in Side::BOTH {
            let (mine, theirs) = ("d8 e8 f8 g8", "d9 e9 f9 g9 a1");
            let (black, white) = if winner == Side::Black {
                (mine, theirs)
            } else {
                (theirs, mine)
            };
            let mut pos = setup(rule, black, white, winner);
            assert_eq!(pos.outcome(), None);
            pos.play(mv("h8")).unwrap();
            assert_eq!(pos.outcome(), Some(Outcome::Win(winner)), "{rule}");
            assert_eq!(pos.winning_line(), Some(squares("d8 e8 f8 g8 h8")));
            assert!(legal_list(&pos).is_empty());
            assert_eq!(pos.count_moves(), 0);
            assert!(!pos.is_legal(mv("a15")));
            assert!(pos.clone().play(mv("a15")).is_err());
        }
    }
}

#[test]
fn five_in_each_direction() {
    for (stones, last, line) in [
        ("h4 h5 h6 h7", "h8", "h4 h5 h6 h7 h8"),
        ("d4 e5 f6 g7", "h8", "d4 e5 f6 g7 h8"),
        ("d12 e11 f10 g9", "h8", "h8 g9 f10 e11 d12"),
        ("a15 b14 c13 e11", "d12", "a15 b14 c13 d12 e11"),
        ("k1 l1 m1 n1", "o1", "k1 l1 m1 n1 o1"),
    ] {
        let mut pos = setup(GomokuRule::Renju, stones, "a2 a3 a4 a5", Side::Black);
        pos.play(mv(last)).unwrap();
        assert_eq!(pos.outcome(), Some(Outcome::Win(Side::Black)));
        let mut got = pos.winning_line().unwrap();
        let mut want = squares(line);
        got.sort();
        want.sort();
        assert_eq!(got, want, "{stones} + {last}");
    }
}

#[test]
fn overline_wins_in_freestyle_only_for_both_sides() {
    // . f8 g8 h8 _ j8 k8 .: i8 makes six.
    let row = "f8 g8 h8 j8 k8";
    let other = "f10 g10 h10 a1 c1";
    for side in Side::BOTH {
        let (black, white) = if side == Side::Black {
            (row, other)
        } else {
            (other, row)
        };
        let mut free = setup(GomokuRule::Freestyle, black, white, side);
        free.play(mv("i8")).unwrap();
        assert_eq!(free.outcome(), Some(Outcome::Win(side)));
        assert_eq!(free.winning_line(), Some(squares("f8 g8 h8 i8 j8 k8")));

        let mut standard = setup(GomokuRule::Standard, black, white, side);
        standard.play(mv("i8")).unwrap();
        assert_eq!(standard.outcome(), None, "six does not win in standard");
        assert_eq!(standard.winning_line(), None);
        assert_eq!(standard.count_moves(), 225 - 11);
    }
    // Renju: White's overline wins, Black's is forbidden.
    let mut white = setup(GomokuRule::Renju, other, row, Side::White);
    white.play(mv("i8")).unwrap();
    assert_eq!(white.outcome(), Some(Outcome::Win(Side::White)));
    assert_eq!(white.winning_line().unwrap().len(), 6);
    let black = setup(GomokuRule::Renju, row, other, Side::Black);
    assert_forbidden(&black, "i8", Forbidden::Overline);
}

#[test]
fn standard_overline_does_not_win_but_a_five_beside_it_does() {
    let white = "a1 c1 e1 g1 i1 k1 m1 o1 a3";
    // g8 makes c8..h8, six: no win, the game goes on.
    let mut six = setup(GomokuRule::Standard, "c8 d8 e8 f8 h8", white, Side::Black);
    six.play(mv("g8")).unwrap();
    assert_eq!(six.outcome(), None);
    assert!(six.is_legal(mv("o15")));
    // f8 makes the row b8..g8 six and the column f4..f8 exactly five: the five wins.
    let mut both = setup(
        GomokuRule::Standard,
        "b8 c8 d8 e8 g8 f4 f5 f6 f7",
        white,
        Side::Black,
    );
    both.play(mv("f8")).unwrap();
    assert_eq!(both.outcome(), Some(Outcome::Win(Side::Black)));
    assert_eq!(both.winning_line(), Some(squares("f4 f5 f6 f7 f8")));
}

#[test]
fn renju_double_three_is_forbidden() {
    let pos = setup(GomokuRule::Renju, "f8 g8 h6 h7", "a1 b1 c1", Side::Black);
    assert_forbidden(&pos, "h8", Forbidden::DoubleThree);
    // Split threes count too: e8 f8 . h8 and h5 h6 . h8.
    let split = setup(GomokuRule::Renju, "e8 f8 h5 h6", "a1 b1 c1", Side::Black);
    assert_forbidden(&split, "h8", Forbidden::DoubleThree);
    // Diagonal and anti-diagonal.
    let diag = setup(GomokuRule::Renju, "f6 g7 i7 j6", "a1 b1 c1", Side::Black);
    assert_forbidden(&diag, "h8", Forbidden::DoubleThree);
    // White is never restricted.
    let white = setup(
        GomokuRule::Renju,
        "a1 b1 c1 o15",
        "f8 g8 h6 h7",
        Side::White,
    );
    assert!(white.is_legal(mv("h8")));
    // Under the other rules nothing is forbidden.
    for rule in [GomokuRule::Freestyle, GomokuRule::Standard] {
        let p = setup(rule, "f8 g8 h6 h7", "a1 b1 c1", Side::Black);
        assert_eq!(p.is_forbidden(sq("h8")), None);
        assert!(p.is_legal(mv("h8")));
        assert!(p.forbidden_points().is_empty());
    }
}

#[test]
fn renju_double_four_on_two_lines_is_forbidden() {
    // Closed fours on the row and the column.
    let pos = setup(
        GomokuRule::Renju,
        "e8 f8 g8 h5 h6 h7",
        "d8 h4 a1 b1 c1 o15",
        Side::Black,
    );
    assert_forbidden(&pos, "h8", Forbidden::DoubleFour);
    // A straight four and a closed four are two fours too.
    let straight = setup(
        GomokuRule::Renju,
        "e8 f8 g8 h5 h6 h7",
        "h4 a1 b1 c1 o15 o14",
        Side::Black,
    );
    assert_forbidden(&straight, "h8", Forbidden::DoubleFour);
}

#[test]
fn renju_double_four_on_one_line_is_forbidden() {
    let white = "a1 b1 c1 o15 o14 o13";
    // X . X * X . X
    let a = setup(GomokuRule::Renju, "d8 f8 h8 j8", white, Side::Black);
    assert_forbidden(&a, "g8", Forbidden::DoubleFour);
    // X X . * X . X X
    let b = setup(GomokuRule::Renju, "c8 d8 g8 i8 j8", white, Side::Black);
    assert_forbidden(&b, "f8", Forbidden::DoubleFour);
    // X X X . * . X X X
    let c = setup(GomokuRule::Renju, "b8 c8 d8 h8 i8 j8", white, Side::Black);
    assert_forbidden(&c, "f8", Forbidden::DoubleFour);
    // The same on a diagonal: X . X * X . X from d5 to j11.
    let d = setup(GomokuRule::Renju, "d5 f7 h9 j11", white, Side::Black);
    assert_forbidden(&d, "g8", Forbidden::DoubleFour);
    // X X X * X X X: the gap makes seven, an overline (not a four-four).
    let e = setup(GomokuRule::Renju, "c8 d8 e8 g8 h8 i8", white, Side::Black);
    assert_forbidden(&e, "f8", Forbidden::Overline);
}

#[test]
fn renju_four_three_is_allowed() {
    let pos = setup(
        GomokuRule::Renju,
        "e8 f8 g8 h6 h7",
        "d8 a1 b1 c1 o15",
        Side::Black,
    );
    assert_allowed(&pos, "h8");
    // A single four or a single three is of course fine.
    let single = setup(GomokuRule::Renju, "f8 g8", "a1", Side::Black);
    assert_allowed(&single, "h8");
}

#[test]
fn renju_blocked_three_is_not_a_three() {
    // o f8 g8 * : the row cannot become a straight four, so h8 makes only one three.
    let pos = setup(GomokuRule::Renju, "f8 g8 h6 h7", "e8 a1 b1", Side::Black);
    assert_allowed(&pos, "h8");
    // Blocked on the far side with one empty point: o . f8 g8 h8 o is no three either.
    let tight = setup(GomokuRule::Renju, "f8 g8 h6 h7", "d8 j8 a1", Side::Black);
    assert_allowed(&tight, "h8");
    // ... but o . . f8 g8 h8 . o is one (d8 e8 f8 g8 h8 i8 has room for .XXXX.).
    let roomy = setup(GomokuRule::Renju, "f8 g8 h6 h7", "c8 j8 a1", Side::Black);
    assert_forbidden(&roomy, "h8", Forbidden::DoubleThree);
}

#[test]
fn renju_three_whose_straight_four_would_be_an_overline_is_false() {
    // Row: b8 . . e8 f8 [g8] . . j8 — every straight four made from e8 f8 g8 is an overline.
    // Column: g6 g7 [g8] is a true three. So g8 makes one three: allowed.
    let pos = setup(
        GomokuRule::Renju,
        "b8 e8 f8 j8 g6 g7",
        "a1 b1 c1 d1 a3",
        Side::Black,
    );
    assert_allowed(&pos, "g8");
    // Without j8, h8 makes the straight four e8..h8 (d8 and i8 make exact fives), so the row
    // is a true three and g8 a double-three.
    let without = setup(
        GomokuRule::Renju,
        "b8 e8 f8 g6 g7",
        "a1 b1 c1 d1 a3",
        Side::Black,
    );
    assert_forbidden(&without, "g8", Forbidden::DoubleThree);
}

#[test]
fn renju_three_whose_key_point_is_forbidden_is_false() {
    // Row: o(b8) . d8 e8 [f8] g8 . . — only g8 makes a straight four (c8's four is blocked by
    // b8), and g8 is a double-four point once f8 stands: the row's straight four plus the
    // column g5 g6 g7 g8 (closed by g4). So the row is a false three; the column f6 f7 [f8] is
    // a true three: f8 makes one three and is allowed.
    let pos = setup(
        GomokuRule::Renju,
        "d8 e8 g5 g6 g7 f6 f7",
        "b8 g4 a1 b1 c1 d1 a3",
        Side::Black,
    );
    assert_allowed(&pos, "f8");
    // Without b8, c8 makes a straight four too and is not forbidden: a double-three.
    let open = setup(
        GomokuRule::Renju,
        "d8 e8 g5 g6 g7 f6 f7",
        "g4 a1 b1 c1 d1 a3 a4",
        Side::Black,
    );
    assert_forbidden(&open, "f8", Forbidden::DoubleThree);
}

#[test]
fn renju_key_point_forbidden_by_a_double_three_recursion() {
    // Row: o(b8) . d8 e8 [f8] . . — the row's only key point is g8. Once f8 stands, g8 makes
    // the row's straight four and, with g6 g7 (column) and e6 f7 (diagonal), two true threes: a
    // double-three, so g8 is forbidden and the row is a false three (two levels of recursion:
    // g8's threes are true because their own key points are not forbidden). f8's other three
    // is the anti-diagonal e9 [f8] g7, with d10 and h6 free: one three, so f8 is allowed.
    let pos = setup(
        GomokuRule::Renju,
        "d8 e8 g6 g7 e6 f7 e9",
        "b8 a1 b1 c1 d1 a3 a4",
        Side::Black,
    );
    // Check the pieces of the argument one by one.
    let mut after = pos.clone();
    after.make(mv("f8"));
    after.make(mv("o15")); // White elsewhere, Black to move again
    assert_eq!(after.is_forbidden(sq("g8")), Some(Forbidden::DoubleThree));
    assert_eq!(after.is_forbidden(sq("c8")), None);
    assert_allowed(&pos, "f8");
}

#[test]
fn renju_overline_is_forbidden_for_black() {
    let pos = setup(
        GomokuRule::Renju,
        "c8 d8 e8 g8 h8",
        "a1 b1 c1 d1",
        Side::Black,
    );
    assert_forbidden(&pos, "f8", Forbidden::Overline);
    // Diagonal overline.
    let diag = setup(
        GomokuRule::Renju,
        "c3 d4 e5 g7 h8",
        "a1 b1 c1 d1",
        Side::Black,
    );
    assert_forbidden(&diag, "f6", Forbidden::Overline);
}

#[test]
fn renju_five_wins_despite_a_forbidden_shape() {
    let white = "a1 c1 e1 g1 i1 k1 m1 o1 a3";
    // Five on the row and an overline on the column.
    let mut over = setup(
        GomokuRule::Renju,
        "b8 c8 d8 e8 f5 f6 f7 f9 f10",
        white,
        Side::Black,
    );
    assert_allowed(&over, "f8");
    over.play(mv("f8")).unwrap();
    assert_eq!(over.outcome(), Some(Outcome::Win(Side::Black)));
    assert_eq!(over.winning_line(), Some(squares("b8 c8 d8 e8 f8")));
    // Five and a double-four.
    let mut four = setup(
        GomokuRule::Renju,
        "b8 c8 d8 e8 f5 f6 f7 g9 h10 i11",
        white,
        Side::Black,
    );
    assert_allowed(&four, "f8");
    four.play(mv("f8")).unwrap();
    assert_eq!(four.outcome(), Some(Outcome::Win(Side::Black)));
    // Five and a double-three.
    let mut three = setup(
        GomokuRule::Renju,
        "b8 c8 d8 e8 f6 f7 d6 e7",
        white,
        Side::Black,
    );
    assert_allowed(&three, "f8");
    three.play(mv("f8")).unwrap();
    assert_eq!(three.outcome(), Some(Outcome::Win(Side::Black)));
    assert_eq!(three.winning_line(), Some(squares("b8 c8 d8 e8 f8")));
}

#[test]
fn full_board_is_a_draw() {
    // 5×5, colour by (x + 2y) mod 4: no five in any line. The last point is empty.
    let mut rows = Vec::new();
    for y in (0..5).rev() {
        let mut r = String::new();
        for x in 0..5 {
            r.push(if (x, y) == (4, 4) {
                '.'
            } else if (x + 2 * y) % 4 < 2 {
                'x'
            } else {
                'o'
            });
        }
        rows.push(r);
    }
    for rule in GomokuRule::ALL {
        // e5 is x + 2y = 12: a black point, so Black is to move.
        let text = format!("5 {} {} x", rule.name(), rows.join("/"));
        let mut pos = Gomoku::from_text(&text).unwrap();
        assert_eq!(pos.outcome(), None);
        assert_eq!(pos.count_moves(), 1);
        let m = pos.parse_move("e5").unwrap();
        let undo = pos.make(m);
        assert_eq!(pos.outcome(), Some(Outcome::Draw), "{rule}");
        assert_eq!(pos.winning_line(), None);
        assert!(legal_list(&pos).is_empty());
        let full = Gomoku::from_text(&pos.to_text()).unwrap();
        assert_eq!(full.outcome(), Some(Outcome::Draw));
        pos.unmake(undo);
        assert_eq!(pos.outcome(), None);
        assert_eq!(pos.to_text(), text.replace('.', "1"));
    }
}

#[test]
fn position_text() {
    let mut g = Gomoku::new(19, GomokuRule::Renju);
    g.play(g.parse_move("j10").unwrap()).unwrap();
    g.play(g.parse_move("k11").unwrap()).unwrap();
    let t = g.to_text();
    assert_eq!(
        t,
        "19 renju 19/19/19/19/19/19/19/19/10o8/9x9/19/19/19/19/19/19/19/19/19 x"
    );
    let back = Gomoku::from_text(&t).unwrap();
    assert_eq!(back, g);
    assert_eq!(back.hash(), g.hash());
    assert_eq!(back.cell(sq("j10")), Cell::Piece(Side::Black));
    assert_eq!(back.cell(Square::new(10, 10)), Cell::Piece(Side::White));
    assert_eq!(back.cell(Square::new(19, 0)), Cell::Blocked);
    assert_eq!(back.piece_counts(), [1, 1]);
    assert_eq!(back.side_to_move(), Side::Black);
    assert_eq!(back.size(), 19);
    assert_eq!(back.rule(), GomokuRule::Renju);
    // dots are read as empty points too
    let dotted = Gomoku::from_text("5 standard x..../5/2o2/5/5 o").unwrap();
    assert_eq!(dotted.to_text(), "5 standard x4/5/2o2/5/5 o");
    for bad in [
        "",
        "15",
        "15 renju",
        "15 renju 15/15 x",
        "4 renju 4/4/4/4 x",
        "20 renju 20/20 x",
        "5 gomoku 5/5/5/5/5 x",
        "5 renju 5/5/5/5/5 y",
        "5 renju 5/5/5/5/6 x",
        "5 renju 5/5/5/5/4 x",
        "5 renju 5/5/5/5/xxxxxx x",
        "5 renju 5/5/5/5/99999999999999999999 x",
        "5 renju 5/5/5/5/z4 x",
        "5 renju 5/5/5/5/5 x extra",
        "5 freestyle xxxxx/ooooo/5/5/5 x",
        "5 freestyle xxxxx/oooo1/5/5/5 x",
    ] {
        assert!(Gomoku::from_text(bad).is_err(), "{bad}");
    }
    // A won position reads back with its result and line.
    let won = Gomoku::from_text("5 freestyle xxxxx/oooo1/5/5/5 o").unwrap();
    assert_eq!(won.outcome(), Some(Outcome::Win(Side::Black)));
    assert_eq!(won.winning_line().unwrap().len(), 5);
}

#[test]
fn moves_text_and_squares() {
    let g = Gomoku::start();
    assert_eq!(g.pass_move(), None);
    let m = g.parse_move("H8").unwrap();
    assert_eq!(g.move_to_text(m), "h8");
    assert_eq!(g.move_squares(m).to, Some(Square::new(7, 7)));
    assert_eq!(g.move_squares(m).from, None);
    assert!(g.parse_move("p1").is_err());
    assert!(g.parse_move("a16").is_err());
    assert!(g.parse_move("pass").is_err());
    let big = Gomoku::new(19, GomokuRule::Freestyle);
    assert_eq!(big.move_to_text(big.parse_move("s19").unwrap()), "s19");
    assert!(!g.is_legal(big.parse_move("s19").unwrap()));
    assert!(!g.is_legal(u16::MAX));
}

/// The opening files of the measurements against other engines (issue 18) parse under their
/// rule: twenty lines of three stones, none of them finished or forbidden.
#[test]
fn opening_files_parse() {
    for (rule, file) in [
        (GomokuRule::Freestyle, "gomoku-openings-freestyle.txt"),
        (GomokuRule::Renju, "gomoku-openings-renju.txt"),
    ] {
        let path = format!("{}/data/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        let base = Gomoku::new(15, rule);
        let lines: Vec<&str> = text
            .lines()
            .map(|l| l.split('#').next().unwrap_or("").trim())
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(lines.len(), 20, "{file}");
        for l in lines {
            let o = qi_core::engine::matches::parse_opening(l, &base).unwrap();
            assert_eq!(o.moves.len(), 3, "{file}: {l}");
            let mut p = base.clone();
            for &m in &o.moves {
                assert!(p.is_legal(m), "{file}: {l}");
                p.make(m);
            }
            assert_eq!(p.side_to_move(), Side::White, "{file}: {l}");
        }
    }
}
