//! Gomoku property tests: the bit-line Renju check against a plain square-by-square reading of
//! the rules, and random games (undo, hashing, text, the end of the game, parsers).

use proptest::prelude::*;
use qi_core::game::{Cell, Game, Outcome, Side, Square};
use qi_core::gomoku::{Forbidden, Gomoku, GomokuRule, move_at, move_square};
use qi_core::zobrist::splitmix64;

const DIRS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A plain board for the reference: 0 empty, 1 Black, 2 White.
struct Plain {
    n: i32,
    cells: Vec<u8>,
}

impl Plain {
    fn of(pos: &Gomoku) -> Plain {
        let n = pos.size() as i32;
        let mut cells = vec![0; (n * n) as usize];
        for y in 0..n {
            for x in 0..n {
                cells[(y * n + x) as usize] = match pos.cell(Square::new(x as u8, y as u8)) {
                    Cell::Piece(Side::Black) => 1,
                    Cell::Piece(Side::White) => 2,
                    _ => 0,
                };
            }
        }
        Plain { n, cells }
    }

    fn get(&self, x: i32, y: i32) -> Option<u8> {
        (x >= 0 && y >= 0 && x < self.n && y < self.n)
            .then(|| self.cells[(y * self.n + x) as usize])
    }

    fn set(&mut self, x: i32, y: i32, v: u8) {
        self.cells[(y * self.n + x) as usize] = v;
    }

    /// Black stones in a row through the Black stone on (x, y).
    fn run(&self, x: i32, y: i32, (dx, dy): (i32, i32)) -> i32 {
        let mut len = 1;
        for s in [1, -1] {
            let mut k = 1;
            while self.get(x + s * k * dx, y + s * k * dy) == Some(1) {
                len += 1;
                k += 1;
            }
        }
        len
    }

    /// Offsets along the whole line of the empty points that make an exact five through (x, y).
    fn five_offsets(&mut self, x: i32, y: i32, (dx, dy): (i32, i32)) -> Vec<i32> {
        let mut out = Vec::new();
        for k in -self.n..=self.n {
            let (px, py) = (x + k * dx, y + k * dy);
            if self.get(px, py) == Some(0) {
                self.set(px, py, 1);
                if self.run(x, y, (dx, dy)) == 5 {
                    out.push(k);
                }
                self.set(px, py, 0);
            }
        }
        out
    }

    fn pairs_five_apart(pts: &[i32]) -> usize {
        pts.iter().filter(|&&a| pts.contains(&(a + 5))).count()
    }

    /// The RIF rules read literally; `recursive` false skips the check that a three's key point
    /// is not itself forbidden.
    fn forbidden(&mut self, x: i32, y: i32, recursive: bool) -> Option<Forbidden> {
        self.set(x, y, 1);
        let r = self.judge(x, y, recursive);
        self.set(x, y, 0);
        r
    }

    fn judge(&mut self, x: i32, y: i32, recursive: bool) -> Option<Forbidden> {
        if DIRS.iter().any(|&d| self.run(x, y, d) == 5) {
            return None;
        }
        if DIRS.iter().any(|&d| self.run(x, y, d) > 5) {
            return Some(Forbidden::Overline);
        }
        let mut fours = [0usize; 4];
        for (i, &d) in DIRS.iter().enumerate() {
            let pts = self.five_offsets(x, y, d);
            fours[i] = pts.len() - Self::pairs_five_apart(&pts);
        }
        if fours.iter().sum::<usize>() >= 2 {
            return Some(Forbidden::DoubleFour);
        }
        let mut threes = 0;
        for (i, &(dx, dy)) in DIRS.iter().enumerate() {
            if fours[i] > 0 {
                continue;
            }
            for k in -self.n..=self.n {
                let (px, py) = (x + k * dx, y + k * dy);
                if self.get(px, py) != Some(0) {
                    continue;
                }
                self.set(px, py, 1);
                let pts = self.five_offsets(x, y, (dx, dy));
                self.set(px, py, 0);
                if Self::pairs_five_apart(&pts) > 0
                    && (!recursive || self.forbidden(px, py, true).is_none())
                {
                    threes += 1;
                    break;
                }
            }
        }
        if threes >= 2 {
            Some(Forbidden::DoubleThree)
        } else {
            None
        }
    }
}

/// A random Renju position with many Black stones (so that forbidden shapes are common), or
/// `None` when the text is not a position (both sides with five).
fn random_dense(state: &mut u64, n: u8) -> Option<Gomoku> {
    let mut rows = Vec::new();
    for _ in 0..n {
        let mut r = String::new();
        for _ in 0..n {
            let (s, v) = splitmix64(*state);
            *state = s;
            r.push(match v % 100 {
                0..=33 => 'x',
                34..=49 => 'o',
                _ => '.',
            });
        }
        rows.push(r);
    }
    let board = rows.join("/");
    Gomoku::from_text(&format!("{n} renju {board} x"))
        .or_else(|_| Gomoku::from_text(&format!("{n} renju {board} o")))
        .ok()
}

#[test]
fn renju_check_matches_the_plain_reading_of_the_rules() {
    let mut state = 0x5EED_u64;
    let mut seen = [0usize; 3];
    let mut false_threes = 0;
    let mut positions = 0;
    for i in 0..1500 {
        let n = [9, 11, 15][i % 3];
        let Some(pos) = random_dense(&mut state, n) else {
            continue;
        };
        positions += 1;
        let mut plain = Plain::of(&pos);
        let listed = pos.forbidden_points();
        let mut want_list = Vec::new();
        for y in 0..n {
            for x in 0..n {
                let sq = Square::new(x, y);
                if pos.cell(sq) != Cell::Empty {
                    assert_eq!(pos.is_forbidden(sq), None);
                    continue;
                }
                let want = plain.forbidden(x as i32, y as i32, true);
                assert_eq!(
                    pos.is_forbidden(sq),
                    want,
                    "{} in {}",
                    pos.move_to_text(move_at(sq)),
                    pos.to_text()
                );
                if let Some(f) = want {
                    want_list.push((sq, f));
                    seen[f as usize] += 1;
                }
                if want.is_none() && plain.forbidden(x as i32, y as i32, false).is_some() {
                    false_threes += 1;
                }
            }
        }
        assert_eq!(listed, want_list);
        if pos.side_to_move() == Side::Black && pos.outcome().is_none() {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            let empties = (n as usize * n as usize) - pos.stone_count() as usize;
            assert_eq!(moves.len(), empties - want_list.len());
            for (sq, _) in &want_list {
                assert!(!moves.contains(&move_at(*sq)));
            }
        }
    }
    assert!(positions > 500, "{positions} positions");
    for (kind, count) in ["double-three", "double-four", "overline"].iter().zip(seen) {
        assert!(count > 50, "only {count} {kind} points");
    }
    assert!(false_threes > 10, "only {false_threes} false-three points");
}

fn rule_of(i: u8) -> GomokuRule {
    GomokuRule::ALL[i as usize % 3]
}

/// Checks a finished or running position's invariants.
fn check_position(pos: &Gomoku, last: Option<u16>) {
    assert_eq!(pos.hash(), pos.compute_hash(), "{pos:?}");
    let text = pos.to_text();
    let back = Gomoku::from_text(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(&back, pos);
    assert_eq!(back.to_text(), text);
    assert_eq!(back.hash(), pos.hash());
    assert_eq!(back.outcome(), pos.outcome());
    assert_eq!(back.winning_line().is_some(), pos.winning_line().is_some());
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert_eq!(moves.len() as u64, pos.count_moves());
    match pos.outcome() {
        Some(outcome) => {
            assert!(moves.is_empty(), "the game goes on after {outcome:?}");
            if let Outcome::Win(side) = outcome {
                let line = pos.winning_line().expect("a win has a line");
                assert!(line.len() >= 5);
                if pos.rule() == GomokuRule::Standard
                    || (pos.rule() == GomokuRule::Renju && side == Side::Black)
                {
                    assert_eq!(line.len(), 5);
                }
                for w in line.windows(2) {
                    let (dx, dy) = (w[1].x as i32 - w[0].x as i32, w[1].y as i32 - w[0].y as i32);
                    assert!(dx.abs() <= 1 && dy.abs() <= 1 && (dx, dy) != (0, 0));
                    assert_eq!(
                        (dx, dy),
                        (
                            line[1].x as i32 - line[0].x as i32,
                            line[1].y as i32 - line[0].y as i32
                        )
                    );
                }
                for s in &line {
                    assert_eq!(pos.cell(*s), Cell::Piece(side));
                }
                if let Some(m) = last {
                    assert!(line.contains(&move_square(m)));
                }
                assert_eq!(side, pos.side_to_move().other());
            } else {
                assert_eq!(pos.winning_line(), None);
            }
        }
        None => {
            assert!(!moves.is_empty());
            assert_eq!(pos.winning_line(), None);
            for &m in &moves {
                assert!(pos.is_legal(m));
                assert_eq!(pos.cell(move_square(m)), Cell::Empty);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_games_undo_hash_text_and_end(
        size in prop::sample::select(vec![5u8, 6, 7, 9, 15, 19]),
        rule in 0u8..3,
        seed in any::<u64>(),
        limit in 0usize..400,
    ) {
        let mut pos = Gomoku::new(size, rule_of(rule));
        let mut state = seed;
        let mut history = Vec::new();
        let mut moves = Vec::new();
        check_position(&pos, None);
        for _ in 0..limit {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let (s, v) = splitmix64(state);
            state = s;
            let m = moves[(v % moves.len() as u64) as usize];
            let before = pos.clone();
            let counts = pos.piece_counts();
            let mover = pos.side_to_move();
            let undo = pos.make(m);
            prop_assert_eq!(pos.side_to_move(), mover.other());
            let mut c = counts;
            c[mover.index()] += 1;
            prop_assert_eq!(pos.piece_counts(), c);
            prop_assert_eq!(pos.cell(move_square(m)), Cell::Piece(mover));
            check_position(&pos, Some(m));
            history.push((before, undo));
        }
        if pos.outcome().is_none() {
            prop_assert!(history.len() == limit);
        }
        while let Some((before, undo)) = history.pop() {
            pos.unmake(undo);
            prop_assert_eq!(&pos, &before);
            prop_assert_eq!(pos.hash(), before.hash());
            prop_assert_eq!(pos.to_text(), before.to_text());
            prop_assert_eq!(pos.outcome(), before.outcome());
        }
        prop_assert_eq!(pos.hash(), 0);
        prop_assert_eq!(pos.stone_count(), 0);
    }

    #[test]
    fn parsers_never_panic(text in ".{0,80}", size in prop::sample::select(vec![15u8, 19])) {
        let _ = Gomoku::from_text(&text);
        let g = Gomoku::new(size, GomokuRule::Renju);
        if let Ok(m) = g.parse_move(&text) {
            prop_assert!(g.is_legal(m));
            prop_assert_eq!(g.parse_move(&g.move_to_text(m)), Ok(m));
        }
        if let Ok(m) = g.parse_gomocup(&text) {
            prop_assert!(g.is_legal(m));
            prop_assert_eq!(g.parse_gomocup(&g.to_gomocup(m)), Ok(m));
        }
    }

    #[test]
    fn mangled_position_text_never_panics(
        seed in any::<u64>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), prop::sample::select(
            vec!['x', 'o', '.', '/', ' ', '0', '1', '5', '9', '2', 'z', '-', 'X']
        )), 1..4),
        delete in any::<bool>(),
    ) {
        // A position from a short random game, then a few characters changed.
        let mut pos = Gomoku::new(15, rule_of((seed % 3) as u8));
        let mut state = seed;
        let mut moves = Vec::new();
        for _ in 0..(seed % 40) {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let (s, v) = splitmix64(state);
            state = s;
            pos.make(moves[(v % moves.len() as u64) as usize]);
        }
        let mut chars: Vec<char> = pos.to_text().chars().collect();
        for (at, ch) in edits {
            let i = at.index(chars.len());
            if delete {
                chars.remove(i);
            } else {
                chars[i] = ch;
            }
        }
        let text: String = chars.into_iter().collect();
        if let Ok(p) = Gomoku::from_text(&text) {
            let again = Gomoku::from_text(&p.to_text()).unwrap();
            prop_assert_eq!(&again, &p);
            prop_assert_eq!(again.hash(), p.compute_hash());
        }
    }
}
