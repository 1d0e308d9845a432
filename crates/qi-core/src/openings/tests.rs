use super::*;

fn moves(kind: GameKind, start: &AnyPosition, line: &str) -> Vec<AnyMove> {
    let _ = kind;
    let mut pos = start.clone();
    line.split_whitespace()
        .map(|t| {
            let m = pos.parse_move(t).unwrap_or_else(|e| panic!("{t}: {e:?}"));
            pos.play(m).unwrap_or_else(|e| panic!("{t}: {e:?}"));
            m
        })
        .collect()
}

fn recognised_name(kind: GameKind, start: &AnyPosition, line: &str) -> Option<String> {
    let b = book(kind).expect("a book");
    let ms = moves(kind, start, line);
    b.recognise(start, &ms)
        .and_then(|r| b.nodes[r.node].name.as_ref().map(|n| n.en.clone()))
}

#[test]
fn the_built_in_books_read_and_every_line_is_legal() {
    assert!(book(GameKind::Ataxx).is_none());
    for kind in [GameKind::Reversi, GameKind::Gomoku, GameKind::Go] {
        let b = book(kind).expect("a book");
        assert!(!b.source.is_empty(), "{kind}: the source is written down");
        for id in 0..b.nodes.len() {
            b.position(id).expect("every line plays");
            for &c in &b.nodes[id].children {
                assert_eq!(b.nodes[c].parent, Some(id));
                assert!(b.nodes[c].line.starts_with(&b.nodes[id].line));
            }
        }
    }
    let named = |k| {
        book(k)
            .unwrap()
            .nodes
            .iter()
            .filter(|n| n.name.is_some())
            .count()
    };
    assert_eq!(named(GameKind::Reversi), 73);
    // the centre, the two second stones, 26 openings
    assert_eq!(named(GameKind::Gomoku), 29);
    assert!(named(GameKind::Go) >= 20);
}

#[test]
fn every_named_position_is_recognised_as_itself() {
    // no two names share a position (under the symmetries), or one would hide the other
    for kind in [GameKind::Reversi, GameKind::Gomoku, GameKind::Go] {
        let b = book(kind).unwrap();
        for (id, n) in b.nodes.iter().enumerate() {
            if n.name.is_none() {
                continue;
            }
            let line = n.line.join(" ");
            let ms = moves(kind, &b.start, &line);
            let r = b.recognise(&b.start, &ms).expect("recognised");
            assert_eq!(r.node, id, "{kind} {line}");
            assert_eq!(r.ply, n.line.len());
        }
    }
}

#[test]
fn the_26_renju_openings_cover_every_third_stone_in_the_centre() {
    let b = book(GameKind::Gomoku).unwrap();
    let openings: Vec<_> = b.nodes.iter().filter(|n| n.line.len() == 3).collect();
    assert_eq!(openings.len(), 26);
    for n in &openings {
        let name = n.name.as_ref().unwrap();
        assert!(name.zh.is_some() && name.ja.is_some(), "{}", name.en);
    }
    // each second stone (straight or diagonal), each third stone in the 5x5 centre: one of the
    // 26, and every one of the 26 is reached
    let mut seen = std::collections::HashSet::new();
    for second in ["h9", "i9"] {
        for x in 5..=9u8 {
            for y in 5..=9u8 {
                let third = format!("{}{}", (b'a' + x) as char, y + 1);
                if third == "h8" || third == second {
                    continue;
                }
                let line = format!("h8 {second} {third}");
                let ms = moves(GameKind::Gomoku, &b.start, &line);
                let r = b.recognise(&b.start, &ms).expect(&line);
                assert_eq!(r.ply, 3, "{line}");
                seen.insert(r.node);
            }
        }
    }
    assert_eq!(seen.len(), 26);
    // 花月 (D4) and 浦月 (I7) from the other sides of the board, found by symmetry
    let start = &b.start;
    assert_eq!(
        recognised_name(GameKind::Gomoku, start, "h8 g8 g9").as_deref(),
        Some("D4 Kagetsu")
    );
    assert_eq!(
        recognised_name(GameKind::Gomoku, start, "h8 g7 g9").as_deref(),
        Some("I7 Hogetsu")
    );
    // a freestyle game's board is the same
    let free = AnyPosition::Gomoku(Box::new(crate::gomoku::Gomoku::new(
        15,
        crate::gomoku::GomokuRule::Freestyle,
    )));
    assert_eq!(
        recognised_name(GameKind::Gomoku, &free, "h8 h9 h10").as_deref(),
        Some("D1 Kansei")
    );
    // another board size has no renju openings
    let big = AnyPosition::Gomoku(Box::new(crate::gomoku::Gomoku::new(
        19,
        crate::gomoku::GomokuRule::Freestyle,
    )));
    assert_eq!(recognised_name(GameKind::Gomoku, &big, "k10 k11 k12"), None);
}

#[test]
fn othello_openings_by_position_symmetry_and_transposition() {
    let start = AnyPosition::start(GameKind::Reversi).unwrap();
    let name = |line: &str| recognised_name(GameKind::Reversi, &start, line);
    assert_eq!(name("f5 d6 c3 d3 c4").as_deref(), Some("Tiger"));
    // the same line reflected in the a1-h8 diagonal (the start is symmetric that way)
    assert_eq!(name("e6 f4 c3 c4 d3").as_deref(), Some("Tiger"));
    // and turned half way round
    assert_eq!(name("c4 e3 f6 e6 f5").as_deref(), Some("Tiger"));
    // a game goes on past its opening: it keeps the last name it reached
    let b = book(GameKind::Reversi).unwrap();
    let ms = moves(
        GameKind::Reversi,
        &start,
        "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 d7",
    );
    let r = b.recognise(&start, &ms).unwrap();
    assert_eq!(b.nodes[r.node].name.as_ref().unwrap().en, "Comp'Oth");
    assert_eq!(r.ply, 8);
    assert_eq!(
        b.names_to(r.node)
            .iter()
            .map(|n| n.en.as_str())
            .collect::<Vec<_>>(),
        ["Perpendicular", "Tiger", "Stephenson", "Comp'Oth"]
    );
    // a transposition: another order of the same moves reaches a named position
    // (found by trying the orders of the named lines' moves)
    assert_eq!(name("f5 d6 c4 d3 c3").as_deref(), Some("Tiger"));
    assert_eq!(
        name("e6 f6 f5 d6 c3").as_deref(),
        Some("Buffalo / Kenichi Variation")
    );
    // a game that left the standard start has no opening
    let other = AnyPosition::from_text(
        GameKind::Reversi,
        &format!("{} X", "-".repeat(27) + "XO------OX" + &"-".repeat(27)),
    );
    if let Ok(other) = other {
        let b = book(GameKind::Reversi).unwrap();
        assert_eq!(b.recognise(&other, &[]), None);
    }
}

#[test]
fn joseki_in_any_corner_any_order_either_colour() {
    let start = AnyPosition::start(GameKind::Go).unwrap();
    let name = |line: &str| recognised_name(GameKind::Go, &start, line);
    // the 3-3 invasion in the upper right, as written
    assert_eq!(
        name("Q16 R17 R16 Q17 P17 P18 O17 O18 N17 S16 S15 S17 R14").as_deref(),
        Some("3-3 invasion: joseki")
    );
    // in the lower left, White taking the 4-4 point, the other way round, with moves elsewhere
    // (the upper right) between them
    assert_eq!(
        name("pass D4 C3 D3 C4 C5 B5 C6 B6 Q16 D2 E2 C2 C7 Q4 F3").as_deref(),
        Some("3-3 invasion: joseki")
    );
    // a joseki half played is named by its last named node
    assert_eq!(
        name("D16 C14").as_deref(),
        Some("4-4 point: small knight approach")
    );
    // on 9x9 there are no joseki
    let small = AnyPosition::Go(Box::new(crate::go::Go::new(9, 7.0).unwrap()));
    let b = book(GameKind::Go).unwrap();
    assert_eq!(b.recognise(&small, &[]), None);
}

#[test]
fn bad_opening_data_is_an_error() {
    assert!(parse_reversi_list("f5d6c3\n").is_err(), "no name");
    assert!(parse_reversi_list("f5d6c  Odd\n").is_err(), "odd squares");
    assert!(parse_reversi_list("f5f5  Twice\n").is_err(), "illegal move");
    assert!(
        parse_reversi_list("f5  A\nf5  B\n").is_err(),
        "a line twice"
    );
    assert!(parse_sgf_book(GameKind::Go, "(;SZ[19];C[no move])").is_err());
    assert!(
        parse_sgf_book(GameKind::Go, "(;SZ[19];B[pd];B[qf])").is_err(),
        "out of turn"
    );
    assert!(
        parse_sgf_book(GameKind::Go, "(;SZ[19];B[pd];W[pd])").is_err(),
        "occupied"
    );
    assert!(
        parse_sgf_book(GameKind::Go, "(;SZ[19];B[zz])").is_err(),
        "off the board"
    );
    assert!(parse_sgf_book(GameKind::Gomoku, "(;SZ[x];B[hh])").is_err());
    assert!(parse_sgf_book(GameKind::Ataxx, "(;B[aa])").is_err());
    assert!(
        parse_sgf_book(GameKind::Go, "(;SZ[19];B[pd]").is_err(),
        "unclosed"
    );
}
