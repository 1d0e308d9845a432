//! Go rules: captures, suicide, ko and superko, handicap, make/unmake, against a plain
//! flood-fill reference.

use proptest::prelude::*;
use qi_core::go::{Go, PASS, handicap_points, vertex_text};
use qi_core::{Cell, Game, Outcome, Side, Square};

fn mv(g: &Go, t: &str) -> u16 {
    g.parse_move(t).unwrap()
}

fn play(g: &mut Go, moves: &str) {
    for m in moves.split_whitespace() {
        let x = mv(g, m);
        g.play(x).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

/// A board given as rows from the top, built with setup stones.
fn board(size: u8, rows: &[&str], to_move: Side) -> Go {
    let mut text = format!(
        "{size} 7.5 {} ",
        if to_move == Side::Black { 'b' } else { 'w' }
    );
    text.push_str(&rows.join("/"));
    Go::from_text(&text).unwrap()
}

#[test]
fn start_position() {
    let g = Go::start();
    assert_eq!(g.dimensions(), (19, 19));
    assert_eq!(g.komi(), 7.5);
    assert_eq!(g.side_to_move(), Side::Black);
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    assert_eq!(v.len(), 362);
    assert_eq!(*v.last().unwrap(), PASS);
    assert!(Go::new(4, 7.5).is_err());
    assert!(Go::new(20, 7.5).is_err());
    assert!(Go::new(9, 7.25).is_err());
    assert!(Go::new(5, -3.0).is_ok());
}

#[test]
fn captures_single_multiple_and_on_the_edge() {
    // two white chains in atari share the liberty E5: one black stone takes both
    let mut g = board(
        9,
        &[
            ".........",
            ".........",
            "....X....",
            "...XOX...",
            "..XO.OX..",
            "...XOX...",
            "....X....",
            ".........",
            ".........",
        ],
        Side::Black,
    );
    let e5 = mv(&g, "E5");
    assert_eq!(g.capture_count(e5 as usize), 4);
    g.play(e5).unwrap();
    assert_eq!(g.captures(), [4, 0]);
    assert_eq!(g.piece_counts(), [9, 0]);
    for p in ["D5", "F5", "E4", "E6"] {
        let sq = Go::square_of(mv(&g, p)).unwrap();
        assert_eq!(g.cell(sq), Cell::Empty, "{p}");
    }
    g.check_consistency().unwrap();

    // a corner stone captured by two stones
    let mut g = Go::new(9, 7.5).unwrap();
    play(&mut g, "B1 A1 A2");
    assert_eq!(g.cell(Square::new(0, 0)), Cell::Empty);
    assert_eq!(g.captures(), [1, 0]);
}

#[test]
fn suicide_is_illegal_unless_it_captures() {
    // A1 is an eye of black: a white stone there is suicide
    let g = board(
        5,
        &[".....", ".....", ".....", "XX...", ".X..."],
        Side::White,
    );
    assert!(!g.is_legal(mv(&g, "A1")));
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    assert!(!v.contains(&mv(&g, "A1")));
    // multi-stone suicide: white's two stones have their last liberty at C1
    let g = board(
        5,
        &[".....", ".....", "XXX..", "OOX..", "..X.."],
        Side::White,
    );
    assert!(g.is_legal(mv(&g, "B1")), "B1 still leaves A1");
    let mut g2 = g.clone();
    g2.make(mv(&g, "B1"));
    g2.make(PASS);
    // now the chain A2 B2 B1 has only A1: filling it is suicide
    assert!(!g2.is_legal(mv(&g2, "A1")));
    // but filling the last liberty is legal when it captures
    let g = board(
        5,
        &[".....", ".....", "O....", "XO...", ".XO.."],
        Side::White,
    );
    // black A2 and B1 each have one liberty, A1; white A1 captures both
    let a1 = mv(&g, "A1");
    assert_eq!(g.capture_count(a1 as usize), 2);
    assert!(g.is_legal(a1));
}

#[test]
fn simple_ko_cannot_be_retaken_at_once() {
    let mut g = board(
        7,
        &[
            ".......", ".......", "..XO...", ".XO.O..", "..XO...", ".......", ".......",
        ],
        Side::Black,
    );
    play(&mut g, "D4"); // takes C4
    assert_eq!(g.captures(), [1, 0]);
    assert!(!g.is_legal(mv(&g, "C4")), "immediate retake is ko");
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    assert!(!v.contains(&mv(&g, "C4")));
    assert!(g.play(mv(&g, "C4")).is_err());
    // after a ko threat elsewhere White may retake
    play(&mut g, "G7 A7");
    assert!(g.is_legal(mv(&g, "C4")));
    play(&mut g, "C4");
    assert_eq!(g.captures(), [1, 1]);
}

/// A ko shape on columns `c..c+4` around row `r` (0-based): `capturer` can take at `c+2`.
fn ko_shape(grid: &mut [Vec<char>], c: usize, r: usize, capturer: Side) {
    let (a, b) = if capturer == Side::Black {
        ('X', 'O')
    } else {
        ('O', 'X')
    };
    let mut put = |x: usize, y: usize, ch: char| grid[y][x] = ch;
    put(c + 1, r + 1, a);
    put(c + 2, r + 1, b);
    put(c, r, a);
    put(c + 1, r, b);
    put(c + 3, r, b);
    put(c + 1, r - 1, a);
    put(c + 2, r - 1, b);
}

#[test]
fn triple_ko_cycle_is_stopped_by_superko() {
    let n = 13;
    let mut grid = vec![vec!['.'; n]; n];
    ko_shape(&mut grid, 0, 2, Side::Black);
    ko_shape(&mut grid, 6, 2, Side::White);
    ko_shape(&mut grid, 0, 8, Side::Black);
    let rows: Vec<String> = grid.iter().rev().map(|r| r.iter().collect()).collect();
    let rows: Vec<&str> = rows.iter().map(|s| s.as_str()).collect();
    let mut g = board(n as u8, &rows, Side::Black);
    let start = g.board_hash();
    // each side takes a ko in turn; every capture is legal as simple ko allows it
    play(&mut g, "C3 J3 C9 B3 H3");
    assert_eq!(g.captures(), [3, 2]);
    // White's retake at B9 would bring back the start position
    let b9 = mv(&g, "B9");
    assert_eq!(g.capture_count(b9 as usize), 1);
    assert!(!g.is_legal(b9), "superko");
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    assert!(!v.contains(&b9));
    // the same capture is legal in a position with a fresh history
    let fresh = Go::from_text(&g.to_text()).unwrap();
    assert!(fresh.is_legal(b9));
    let mut f2 = fresh.clone();
    f2.make(b9);
    assert_eq!(f2.board_hash(), start);
}

#[test]
fn two_passes_end_the_game_and_resignation() {
    let mut g = Go::new(5, 0.5).unwrap();
    play(&mut g, "C3 pass");
    assert_eq!(g.outcome(), None);
    play(&mut g, "pass");
    assert!(g.is_over());
    // black's single stone owns the whole empty board
    assert_eq!(g.outcome(), Some(Outcome::Win(Side::Black)));
    let mut v = Vec::new();
    g.legal_moves(&mut v);
    assert!(v.is_empty());
    let mut g = Go::new(9, 7.5).unwrap();
    play(&mut g, "E5");
    g.resign(Side::Black);
    assert_eq!(g.outcome(), Some(Outcome::Win(Side::White)));
    assert!(!g.is_legal(PASS));
    g.clear_resignation();
    assert_eq!(g.outcome(), None);
}

#[test]
fn fixed_handicap_placements() {
    let names = |size: u8, n: u8| -> Vec<String> {
        let mut v: Vec<String> = handicap_points(size, n)
            .unwrap()
            .into_iter()
            .map(vertex_text)
            .collect();
        v.sort();
        v
    };
    let s = |v: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = v.iter().map(|x| x.to_string()).collect();
        v.sort();
        v
    };
    assert_eq!(names(19, 2), s(&["D4", "Q16"]));
    assert_eq!(names(19, 3), s(&["D4", "Q16", "Q4"]));
    assert_eq!(names(19, 4), s(&["D4", "Q16", "Q4", "D16"]));
    assert_eq!(names(19, 5), s(&["D4", "Q16", "Q4", "D16", "K10"]));
    assert_eq!(names(19, 6), s(&["D4", "Q16", "Q4", "D16", "D10", "Q10"]));
    assert_eq!(
        names(19, 7),
        s(&["D4", "Q16", "Q4", "D16", "D10", "Q10", "K10"])
    );
    assert_eq!(
        names(19, 8),
        s(&["D4", "Q16", "Q4", "D16", "D10", "Q10", "K4", "K16"])
    );
    assert_eq!(
        names(19, 9),
        s(&["D4", "Q16", "Q4", "D16", "D10", "Q10", "K4", "K16", "K10"])
    );
    assert_eq!(names(13, 4), s(&["D4", "K10", "K4", "D10"]));
    assert_eq!(names(13, 5), s(&["D4", "K10", "K4", "D10", "G7"]));
    assert_eq!(names(9, 2), s(&["C3", "G7"]));
    assert_eq!(names(9, 9).len(), 9);
    assert!(names(9, 9).contains(&"E5".to_string()));
    assert!(handicap_points(9, 10).is_err());
    assert!(handicap_points(9, 1).is_err());
    assert!(handicap_points(10, 5).is_err());
    assert_eq!(names(10, 4).len(), 4);
    assert!(handicap_points(6, 2).is_err());

    let g = Go::with_handicap(19, 4, 0.5).unwrap();
    assert_eq!(g.side_to_move(), Side::White);
    assert_eq!(g.piece_counts(), [4, 0]);
    assert_eq!(g.komi(), 0.5);
    assert_eq!(g.cell(Square::new(3, 3)), Cell::Piece(Side::Black));
}

#[test]
fn free_handicap() {
    let mut g = Go::new(9, 0.5).unwrap();
    let pts = [Square::new(2, 2), Square::new(4, 4), Square::new(6, 2)];
    g.set_handicap_stones(&pts).unwrap();
    assert_eq!(g.side_to_move(), Side::White);
    assert_eq!(g.piece_counts(), [3, 0]);
    assert!(g.set_handicap_stones(&pts).is_err(), "board not empty");
    let mut g = Go::new(9, 0.5).unwrap();
    assert!(g.set_handicap_stones(&[Square::new(2, 2)]).is_err());
    assert!(
        g.set_handicap_stones(&[Square::new(2, 2), Square::new(2, 2)])
            .is_err()
    );
    assert!(
        g.set_handicap_stones(&[Square::new(2, 2), Square::new(9, 2)])
            .is_err()
    );
    play(&mut g, "E5");
    assert!(
        g.set_handicap_stones(&[Square::new(2, 2), Square::new(3, 2)])
            .is_err()
    );
}

#[test]
fn position_text_round_trips_and_rejects_garbage() {
    let mut g = Go::new(13, 6.5).unwrap();
    play(&mut g, "D4 K4 pass");
    let t = g.to_text();
    let r = Go::from_text(&t).unwrap();
    assert_eq!(r.to_text(), t);
    assert_eq!(r.consecutive_passes(), 1);
    for bad in [
        "",
        "9 7.5 b",
        "4 7.5 b ..../..../..../....",
        "9 x b .........",
        "5 7.5 q ...../...../...../...../.....",
        "5 7.5 b ...../...../...../.....",
        "5 7.5 b ...../...../...../...../....",
        "5 7.5 b ...../...../..Z../...../.....",
        "5 7.25 b ...../...../...../...../.....",
        "5 0 b XO.../O..../...../...../.....",
        "5 0 b ...../...../...../...../..... 0 0 3",
    ] {
        assert!(Go::from_text(bad).is_err(), "{bad}");
    }
}

/// Board as a string, for the reference implementation.
fn board_key(g: &Go) -> String {
    let n = g.size();
    let mut s = String::new();
    for y in 0..n {
        for x in 0..n {
            s.push(match g.cell(Square::new(x, y)) {
                Cell::Piece(Side::Black) => 'X',
                Cell::Piece(Side::White) => 'O',
                _ => '.',
            });
        }
    }
    s
}

/// The board after `side` plays on (x, y), by plain flood fills; `None` if suicide.
fn reference_play(key: &str, n: usize, side: Side, x: usize, y: usize) -> Option<String> {
    let mut b: Vec<char> = key.chars().collect();
    let (me, opp) = if side == Side::Black {
        ('X', 'O')
    } else {
        ('O', 'X')
    };
    b[y * n + x] = me;
    let nbrs = |i: usize| {
        let (x, y) = (i % n, i / n);
        let mut v = Vec::new();
        if x > 0 {
            v.push(i - 1);
        }
        if x + 1 < n {
            v.push(i + 1);
        }
        if y > 0 {
            v.push(i - n);
        }
        if y + 1 < n {
            v.push(i + n);
        }
        v
    };
    let group = |b: &[char], i: usize| -> (Vec<usize>, bool) {
        let c = b[i];
        let mut seen = vec![false; n * n];
        let mut st = vec![i];
        seen[i] = true;
        let mut g = Vec::new();
        let mut lib = false;
        while let Some(j) = st.pop() {
            g.push(j);
            for k in nbrs(j) {
                if b[k] == '.' {
                    lib = true;
                } else if b[k] == c && !seen[k] {
                    seen[k] = true;
                    st.push(k);
                }
            }
        }
        (g, lib)
    };
    for k in nbrs(y * n + x) {
        if b[k] == opp {
            let (g, lib) = group(&b, k);
            if !lib {
                for j in g {
                    b[j] = '.';
                }
            }
        }
    }
    let (_, lib) = group(&b, y * n + x);
    if lib {
        Some(b.into_iter().collect())
    } else {
        None
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random games: every legality answer agrees with the flood-fill reference (suicide and
    /// positional superko over the game's boards), chains keep liberties, the incremental
    /// hash equals a fresh one, and undoing every move restores each earlier position exactly.
    #[test]
    fn random_games_match_the_reference_and_unmake(
        size in 5u8..=9,
        picks in proptest::collection::vec(any::<u16>(), 1..120),
    ) {
        let mut g = Go::new(size, 7.5).unwrap();
        let n = size as usize;
        let mut seen = std::collections::HashSet::new();
        seen.insert(board_key(&g));
        let mut stack = Vec::new();
        let mut legal = Vec::new();
        for pick in picks {
            let key = board_key(&g);
            for y in 0..n {
                for x in 0..n {
                    let sq = Square::new(x as u8, y as u8);
                    let m = Go::move_at(sq);
                    let expect = !g.is_over()
                        && g.cell(sq) == Cell::Empty
                        && reference_play(&key, n, g.side_to_move(), x, y)
                            .is_some_and(|b| !seen.contains(&b));
                    prop_assert_eq!(g.is_legal(m), expect, "{} at {}", g.to_text(), vertex_text(sq));
                }
            }
            g.legal_moves(&mut legal);
            if legal.is_empty() {
                break;
            }
            // passes are rarer than stones, so games get long
            let stones: Vec<u16> = legal.iter().copied().filter(|&m| m != PASS).collect();
            let m = if stones.is_empty() || pick % 16 == 0 {
                PASS
            } else {
                stones[pick as usize % stones.len()]
            };
            let before = g.clone();
            let u = g.make(m);
            stack.push((before, u));
            seen.insert(board_key(&g));
            prop_assert_eq!(g.board_hash(), g.compute_board_hash());
            if let Err(e) = g.check_consistency() {
                prop_assert!(false, "{}", e);
            }
        }
        while let Some((before, u)) = stack.pop() {
            g.unmake(u);
            prop_assert_eq!(&g, &before);
            prop_assert_eq!(g.hash(), before.hash());
            prop_assert_eq!(g.captures(), before.captures());
            prop_assert_eq!(g.piece_counts(), before.piece_counts());
            if let Err(e) = g.check_consistency() {
                prop_assert!(false, "after unmake: {}", e);
            }
        }
    }
}

#[test]
fn long_random_games_stay_consistent() {
    // self-play with the playout policy fills boards and makes many captures and kos
    for (i, size) in [5u8, 7, 9, 13, 19].into_iter().enumerate() {
        let mut g = Go::new(size, 7.5).unwrap();
        let mut pol = qi_core::go::InterimPolicy::new(i as u64 + 1);
        let mut undos = Vec::new();
        let mut snaps = Vec::new();
        let mut legal = Vec::new();
        let mut state = 99u64 + i as u64;
        for _ in 0..(size as usize * size as usize * 2) {
            g.legal_moves(&mut legal);
            if legal.is_empty() {
                break;
            }
            // mostly random moves, sometimes the policy's
            let (s, r) = qi_core::zobrist::splitmix64(state);
            state = s;
            let m = if r % 4 == 0 && size <= 9 {
                pol.choose(&g)
            } else {
                let non_pass: Vec<u16> = legal.iter().copied().filter(|&m| m != PASS).collect();
                if non_pass.is_empty() {
                    PASS
                } else {
                    non_pass[(r >> 8) as usize % non_pass.len()]
                }
            };
            assert!(g.is_legal(m));
            snaps.push(g.clone());
            undos.push(g.make(m));
            g.check_consistency().unwrap();
        }
        assert!(g.captures()[0] + g.captures()[1] > 0, "size {size}");
        while let Some(u) = undos.pop() {
            g.unmake(u);
            assert_eq!(g, snaps.pop().unwrap());
        }
        g.check_consistency().unwrap();
    }
}
