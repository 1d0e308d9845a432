//! SGF records: files from other programs, round trips with comments, setup and variations,
//! the Go replay, Reversi and Gomoku points, and clear errors on malformed files.

use proptest::prelude::*;
use qi_core::go::{Go, PASS};
use qi_core::reversi::Reversi;
use qi_core::sgf::{GameRecord, SgfNode, parse_collection};
use qi_core::{Cell, Game, GameKind, Side, Square};

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/sgf/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn vertex(g: &Go, t: &str) -> Square {
    Go::square_of(g.parse_move(t).unwrap()).unwrap()
}

#[test]
fn sabaki_file_with_handicap_comments_and_variations() {
    let rec = GameRecord::from_sgf(&data("sabaki_handicap_comments.sgf")).unwrap();
    assert_eq!(rec.kind, GameKind::Go);
    assert_eq!((rec.width, rec.height), (9, 9));
    assert_eq!(rec.komi, Some(0.5));
    assert_eq!(rec.handicap, 2);
    assert_eq!(rec.black.as_deref(), Some("Alice"));
    assert_eq!(rec.white.as_deref(), Some("Bob"));
    assert_eq!(rec.date.as_deref(), Some("2024-05-06"));
    assert_eq!(rec.rules.as_deref(), Some("Chinese"));
    assert_eq!(
        rec.nodes[0].comment.as_deref(),
        Some("Two stones. Escapes: a ] bracket and a \\ backslash.\nSecond line.")
    );
    assert_eq!(rec.nodes[1].comment.as_deref(), Some("White approaches"));
    assert_eq!(rec.nodes[2].comment.as_deref(), Some("Main line"));
    // the main line: W E3, B C5, W G7, pass, pass
    let moves: Vec<_> = rec.moves().collect();
    assert_eq!(moves.len(), 5);
    assert_eq!(moves[0], (Side::White, Some(Square::new(4, 2))));
    assert_eq!(moves[3], (Side::Black, None));
    // the two other replies to W E3 are kept at E3's node
    assert_eq!(rec.nodes[1].variations.len(), 2);
    assert_eq!(rec.nodes[1].variations[0].value("C"), Some("A variation"));
    // markup is kept as it was
    assert!(rec.nodes[1].extra.iter().any(|p| p.id == "TR"));
    assert!(rec.nodes[0].extra.iter().any(|p| p.id == "AP"));

    let (start, moves) = rec.replay_go().unwrap();
    assert_eq!(start.side_to_move(), Side::White);
    assert_eq!(start.komi(), 0.5);
    assert_eq!(start.piece_counts(), [2, 0]);
    let g = Go::new(9, 0.5).unwrap();
    assert_eq!(start.cell(vertex(&g, "C7")), Cell::Piece(Side::Black));
    assert_eq!(start.cell(vertex(&g, "G3")), Cell::Piece(Side::Black));
    let mut end = start.clone();
    for m in &moves {
        end.play(*m).unwrap();
    }
    assert!(end.is_over());

    // written back and read again: the same record, variations and all
    let text = rec.to_sgf();
    let again = GameRecord::from_sgf(&text).unwrap();
    assert_eq!(again, rec);
    assert!(text.contains("C[A variation]"));
    assert!(text.contains("\\]"), "{text}");
    // and the raw trees match too
    let t1 = &parse_collection(&data("sabaki_handicap_comments.sgf")).unwrap()[0];
    let t2 = &parse_collection(&text).unwrap()[0];
    assert_eq!(count_nodes(t1), count_nodes(t2));
    assert_eq!(count_nodes(t1), 9);
}

fn count_nodes(n: &SgfNode) -> usize {
    1 + n.children.iter().map(count_nodes).sum::<usize>()
}

#[test]
fn gnugo_file_with_tt_passes() {
    let rec = GameRecord::from_sgf(&data("gnugo_19x19.sgf")).unwrap();
    assert_eq!((rec.width, rec.komi), (19, Some(7.5)));
    assert_eq!(rec.result.as_deref(), Some("W+R"));
    let (start, moves) = rec.replay_go().unwrap();
    assert_eq!(start.side_to_move(), Side::Black);
    assert_eq!(moves.len(), 9);
    assert_eq!(moves[7], PASS);
    assert_eq!(moves[8], PASS);
    assert_eq!(start.move_to_text(moves[0]), "Q16");
    assert_eq!(start.move_to_text(moves[1]), "D4");
    assert_eq!(rec.nodes[5].comment.as_deref(), Some("tenuki?"));
    // written back, passes are B[] and W[]
    let text = rec.to_sgf();
    assert!(text.contains("W[]") && text.contains("B[]"), "{text}");
    assert!(!text.contains("[tt]"));
    assert_eq!(
        GameRecord::from_sgf(&text).unwrap().replay_go().unwrap().1,
        moves
    );
}

#[test]
fn old_server_file_with_ff3_names_and_compressed_setup() {
    let rec = GameRecord::from_sgf(&data("server_ff3_13x13.sgf")).unwrap();
    assert_eq!(rec.width, 13);
    assert_eq!(rec.komi, Some(6.5));
    assert_eq!(rec.black.as_deref(), Some("kuro"));
    assert_eq!(rec.result.as_deref(), Some("B+12.5"));
    let (start, moves) = rec.replay_go().unwrap();
    // AB[dd:ee] is four stones
    assert_eq!(start.piece_counts(), [4, 1]);
    assert_eq!(start.side_to_move(), Side::White);
    assert_eq!(moves.len(), 3);
    // time left stays with its node
    assert!(rec.nodes[1].extra.iter().any(|p| p.id == "WL"));
}

#[test]
fn records_of_go_games_round_trip() {
    let mut g = Go::with_handicap(13, 3, 0.5).unwrap();
    let start = g.clone();
    let mut moves = Vec::new();
    for t in ["D10", "G7", "pass", "C3", "L11"] {
        let m = g.parse_move(t).unwrap();
        g.play(m).unwrap();
        moves.push(m);
    }
    let mut rec = GameRecord::from_go(&start, &moves);
    rec.black = Some("B player".into());
    rec.result = Some("W+R".into());
    rec.nodes[2].comment = Some("a comment with ] and \\".into());
    assert_eq!(rec.handicap, 3);
    let text = rec.to_sgf();
    assert!(text.starts_with("(;FF[4]GM[1]SZ[13]KM[0.5]HA[3]"), "{text}");
    let back = GameRecord::from_sgf(&text).unwrap();
    assert_eq!(back, rec);
    let (s2, m2) = back.replay_go().unwrap();
    assert_eq!(s2, start);
    assert_eq!(m2, moves);
    // a record from a position with White to move and no handicap writes PL
    let mut w = Go::new(9, 7.5).unwrap();
    w.set_to_move(Side::White);
    let rec = GameRecord::from_go(&w, &[]);
    assert!(rec.to_sgf().contains("PL[W]"));
    assert_eq!(
        GameRecord::from_sgf(&rec.to_sgf())
            .unwrap()
            .go_start()
            .unwrap()
            .side_to_move(),
        Side::White
    );
}

#[test]
fn reversi_and_gomoku_records_use_the_same_points() {
    let rec = GameRecord::from_sgf(&data("reversi.sgf")).unwrap();
    assert_eq!(rec.kind, GameKind::Reversi);
    assert_eq!((rec.width, rec.height), (8, 8));
    // the setup is the standard start
    let mut black: Vec<Square> = rec.nodes[0]
        .setup
        .iter()
        .filter(|(s, _)| *s == Some(Side::Black))
        .map(|(_, q)| *q)
        .collect();
    black.sort();
    assert_eq!(black, vec![Square::new(3, 4), Square::new(4, 3)]);
    let mut r = Reversi::start();
    let mut texts = Vec::new();
    for (side, pt) in rec.moves() {
        assert_eq!(side, r.side_to_move());
        let m = r
            .parse_move(&qi_core::game::square_text(pt.unwrap()))
            .unwrap();
        texts.push(r.move_to_text(m));
        r.play(m).unwrap();
    }
    assert_eq!(texts, vec!["f5", "f6"]);
    assert!(rec.go_start().is_err());
    assert_eq!(GameRecord::from_sgf(&rec.to_sgf()).unwrap(), rec);

    let rec = GameRecord::from_sgf(&data("gomoku.sgf")).unwrap();
    assert_eq!(rec.kind, GameKind::Gomoku);
    assert_eq!(rec.width, 15);
    let pts: Vec<String> = rec
        .moves()
        .map(|(_, p)| qi_core::game::square_text(p.unwrap()))
        .collect();
    assert_eq!(pts, vec!["h8", "h7", "i8"]);
    let mut made = GameRecord::new(GameKind::Gomoku, 15, 15);
    made.push_move(Side::Black, Some(Square::new(7, 7)));
    assert!(made.to_sgf().contains("GM[4]") && made.to_sgf().contains("B[hh]"));
}

#[test]
fn malformed_files_give_clear_errors() {
    let cases: &[(&str, &str)] = &[
        ("", "no game tree"),
        ("hello", "no game tree"),
        ("(;GM[1]SZ[9];B[ee]", "not well formed"),
        ("(;GM[1]SZ[9];B[zz])", "'zz' is off the 9x9 board"),
        ("(;GM[1]SZ[9];B[e])", "node 1 B[e]"),
        ("(;GM[1]SZ[40])", "SZ[40]"),
        ("(;GM[1]SZ[nine])", "SZ[nine] is not a board size"),
        ("(;GM[3]SZ[8])", "GM[3] is a game Qi does not play"),
        ("(;GM[1]SZ[9]KM[lots])", "KM[lots] is not a number"),
        ("(;GM[1]SZ[9]AB[ee][ee])", ""),
        ("(;GM[1]SZ[9];B[ee]W[dd])", "node 1 has two moves"),
        ("(;GM[1]SZ[9]PL[X])", "PL[X]"),
    ];
    for (text, want) in cases {
        match GameRecord::from_sgf(text) {
            Err(e) => {
                assert!(e.to_string().starts_with("SGF: "), "{text}: {e}");
                assert!(e.to_string().contains(want), "{text}: '{e}' lacks '{want}'");
            }
            Ok(rec) => assert!(want.is_empty(), "{text} read as {rec:?}"),
        }
    }
    // well formed but not playable as Go: the replay names the move
    let rec = GameRecord::from_sgf("(;GM[1]SZ[9];B[ee];W[ee])").unwrap();
    let e = rec.replay_go().unwrap_err();
    assert!(e.to_string().contains("move 2 (W E5) is illegal"), "{e}");
    let rec = GameRecord::from_sgf("(;GM[1]SZ[9];B[ee];AB[aa])").unwrap();
    assert!(rec.replay_go().unwrap_err().to_string().contains("setup"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any text: an error or a record, never a panic.
    #[test]
    fn arbitrary_text_never_panics(text in "[(;)\\[\\]A-Za-z0-9:\\\\ \n]{0,400}") {
        if let Ok(rec) = GameRecord::from_sgf(&text) {
            let _ = rec.replay_go();
            let _ = GameRecord::from_sgf(&rec.to_sgf());
        }
    }

    /// A real file with a byte changed or cut short: the same.
    #[test]
    fn damaged_files_never_panic(pos in 0usize..400, byte in 32u8..127, cut in any::<bool>()) {
        let mut text = data("sabaki_handicap_comments.sgf").into_bytes();
        let pos = pos % text.len();
        if cut {
            text.truncate(pos);
        } else {
            text[pos] = byte;
        }
        let text = String::from_utf8_lossy(&text).into_owned();
        if let Ok(rec) = GameRecord::from_sgf(&text) {
            let _ = rec.replay_go();
            let back = GameRecord::from_sgf(&rec.to_sgf());
            prop_assert!(back.is_ok(), "{:?}", back);
        }
    }
}

/// Runs `f` on a thread with a 2 MB stack (the size of the app's worker threads): a record
/// must be read there without overflowing it.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

/// A Go record whose main line is `n` passes (alternating colours).
fn passes(n: usize) -> String {
    let mut s = String::from("(;GM[1]FF[4]SZ[9]");
    for i in 0..n {
        s.push_str(if i % 2 == 0 { ";B[]" } else { ";W[]" });
    }
    s.push(')');
    s
}

/// The SGF reader, writer, clone, comparison and drop walk trees without recursion: a main line
/// as long as the limit and variations nested as deep are read on a 2 MB stack; one node more
/// is a clear error, measured before the parser runs (whose trees would recurse); and a deep
/// tree that the parser rejects at the end does not overflow either.
#[test]
fn deep_records_are_read_iteratively_up_to_the_limit() {
    use qi_core::sgf::MAX_SGF_DEPTH;
    on_small_stack(|| {
        // the root and MAX - 1 moves: exactly the limit
        let text = passes(MAX_SGF_DEPTH - 1);
        let rec = GameRecord::from_sgf(&text).unwrap();
        assert_eq!(rec.nodes.len(), MAX_SGF_DEPTH);
        assert_eq!(rec.moves().count(), MAX_SGF_DEPTH - 1);
        let (_, moves) = rec.replay_go().unwrap();
        assert!(moves.iter().all(|&m| m == PASS));
        let tree = rec.to_tree();
        let copy = tree.clone();
        assert_eq!(copy, tree);
        let again = GameRecord::from_sgf(&rec.to_sgf()).unwrap();
        assert_eq!(again, rec);
        drop((tree, copy, again));

        // one more node
        let e = GameRecord::from_sgf(&passes(MAX_SGF_DEPTH)).unwrap_err();
        assert!(e.to_string().contains(&MAX_SGF_DEPTH.to_string()), "{e}");
        assert!(e.to_string().contains("more than"), "{e}");

        // variations nested to the limit: (;B[]( ;W[]( ;B[] … ))), read and written back
        let depth = MAX_SGF_DEPTH - 1;
        let mut text = String::from("(;GM[1]SZ[9]");
        for i in 0..depth {
            text.push_str(if i % 2 == 0 {
                "(;B[aa])(;B[]"
            } else {
                "(;W[bb])(;W[]"
            });
        }
        text.push_str(&")".repeat(depth + 1));
        let trees = parse_collection(&text).unwrap();
        let mut n = &trees[0];
        let mut levels = 1;
        while let Some(c) = n.children.last() {
            n = c;
            levels += 1;
        }
        assert_eq!(levels, MAX_SGF_DEPTH);
        let written = qi_core::sgf::write_collection(&trees);
        assert_eq!(parse_collection(&written).unwrap(), trees);
        let rec = GameRecord::from_tree(&trees[0]).unwrap();
        assert_eq!(rec.nodes[0].variations.len(), 1);
        drop(rec);

        // parentheses nested a million deep, and one past the limit: an error at once
        for n in [MAX_SGF_DEPTH + 1, 1_000_000] {
            let text = format!("(;GM[1]{}", "(".repeat(n));
            let e = parse_collection(&text).unwrap_err();
            assert!(e.to_string().contains("nested"), "{e}");
        }
        // a main line at the limit that the parser rejects only at its end (no closing
        // parenthesis): the parser's own tree is dropped on this stack
        let mut text = passes(MAX_SGF_DEPTH - 1);
        text.pop();
        assert!(parse_collection(&text).is_err());
        // property values may hold any number of parentheses and semicolons
        let text = format!("(;GM[1]SZ[9]C[{}];B[ee])", "(;".repeat(50_000));
        let rec = GameRecord::from_sgf(&text).unwrap();
        assert_eq!(rec.moves().count(), 1);
    });
}
