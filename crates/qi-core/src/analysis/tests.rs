use super::*;
use crate::rng::Rng;

fn stop() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}

fn play(pos: &AnyPosition, texts: &[&str]) -> (AnyPosition, Vec<AnyMove>) {
    let mut p = pos.clone();
    let mut moves = Vec::new();
    for t in texts {
        let m = p.parse_move(t).unwrap();
        p.play(m).unwrap();
        moves.push(m);
    }
    (p, moves)
}

/// The exact final disc difference from the side to move's view, by plain minimax (a few
/// empties only).
fn exact(pos: &AnyPosition) -> i32 {
    if let Some(r) = GameResult::of(pos) {
        return final_value(pos.kind(), &r, pos.side_to_move());
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play(m).unwrap();
            let v = exact(&next);
            if next.side_to_move() == pos.side_to_move() {
                v
            } else {
                -v
            }
        })
        .max()
        .unwrap()
}

/// A Reversi endgame move with an exact loss: the analysis gives the loss the exact solution
/// gives, and marks it a blunder.
#[test]
fn a_reversi_endgame_blunder_has_its_exact_loss() {
    let mut rng = Rng::new(7);
    for _ in 0..200 {
        let mut pos = AnyPosition::start(GameKind::Reversi).unwrap();
        // six empties at most: the search solves them exactly in well under its budget, even on
        // a loaded machine
        while pos.piece_counts()[0] + pos.piece_counts()[1] < 58 && GameResult::of(&pos).is_none() {
            let moves = pos.legal_moves();
            let m = moves[rng.below(moves.len() as u64) as usize];
            pos.play(m).unwrap();
        }
        if GameResult::of(&pos).is_some() {
            continue;
        }
        let values: Vec<(AnyMove, i32)> = pos
            .legal_moves()
            .into_iter()
            .map(|m| {
                let mut next = pos.clone();
                next.play(m).unwrap();
                let v = exact(&next);
                (
                    m,
                    if next.side_to_move() == pos.side_to_move() {
                        v
                    } else {
                        -v
                    },
                )
            })
            .collect();
        let best = values.iter().map(|v| v.1).max().unwrap();
        let Some(&(bad, bad_value)) = values.iter().find(|v| best - v.1 >= 800) else {
            continue;
        };
        let a = analyse(
            &pos,
            &[bad],
            Duration::from_millis(300),
            &stop(),
            &mut |_, _| {},
        )
        .unwrap()
        .unwrap();
        let m = &a.moves[0];
        assert_eq!(m.before, best, "the solver's value before");
        assert_eq!(m.after, bad_value, "the exact value after");
        assert_eq!(m.loss, best - bad_value);
        assert_eq!(m.mark, Some(Mark::Blunder));
        return;
    }
    panic!("no endgame position with an 8-disc blunder in 200 games");
}

/// Gomoku: leaving an open three alone gives the other side a forced win; the move that blocks
/// it is not marked. White's stones stand next to the three (h9, j9), so that White is not lost
/// before the move: with them in a corner (a1, a2) Black had a forced win already, which a
/// fast enough search found, and then the far move lost nothing.
#[test]
fn a_gomoku_move_that_allows_a_forced_win_is_a_blunder() {
    let start = AnyPosition::start(GameKind::Gomoku).unwrap();
    let (pos, _) = play(&start, &["h8", "h9", "i8", "j9", "j8"]);
    let bad = pos.parse_move("a1").unwrap();
    let a = analyse(
        &pos,
        &[bad],
        Duration::from_millis(300),
        &stop(),
        &mut |_, _| {},
    )
    .unwrap()
    .unwrap();
    let m = &a.moves[0];
    assert!(
        !search::is_decided(m.before),
        "not lost before the move: {m:?}"
    );
    assert!(search::is_decided(m.after) && m.after < 0, "{m:?}");
    assert_eq!(m.mark, Some(Mark::Blunder), "{m:?}");
    let good = pos.parse_move("g8").unwrap();
    let a = analyse(
        &pos,
        &[good],
        Duration::from_millis(300),
        &stop(),
        &mut |_, _| {},
    )
    .unwrap()
    .unwrap();
    assert_ne!(a.moves[0].mark, Some(Mark::Blunder), "{:?}", a.moves[0]);
}

/// Written into a record's comments and read back, an analysis equals itself (as records keep
/// it); other comment lines stay.
#[test]
fn an_analysis_written_into_a_record_reads_back_the_same() {
    for kind in [
        GameKind::Reversi,
        GameKind::Go,
        GameKind::Ataxx,
        GameKind::Gomoku,
    ] {
        let start = AnyPosition::start(kind).unwrap();
        let mut pos = start.clone();
        let mut moves = Vec::new();
        let mut rng = Rng::new(3);
        for _ in 0..6 {
            let legal = pos.legal_moves();
            let m = legal[rng.below(legal.len() as u64) as usize];
            pos.play(m).unwrap();
            moves.push(m);
        }
        let a = analyse(
            &start,
            &moves,
            Duration::from_millis(30),
            &stop(),
            &mut |_, _| {},
        )
        .unwrap()
        .unwrap();
        let history = crate::saves::replay_moves(start.clone(), &{
            let mut p = start.clone();
            moves
                .iter()
                .map(|&m| {
                    let t = p.move_to_text(m);
                    p.play(m).unwrap();
                    t
                })
                .collect::<Vec<_>>()
        })
        .unwrap();
        let mut rec = crate::records::Record::from_history(&history, "A", "B");
        rec.comments.insert(2, "a person's note".into());
        a.write_comments(&mut rec.comments);
        let (text, _) = rec.export().unwrap();
        // the SGF games carry the marks as move annotations, Go its win rates as SBKV
        if kind != GameKind::Ataxx {
            let count = |m: Mark| a.moves.iter().filter(|r| r.mark == Some(m)).count();
            assert_eq!(
                text.matches("BM[2]").count(),
                count(Mark::Blunder),
                "{text}"
            );
            assert_eq!(
                text.matches("BM[1]").count(),
                count(Mark::Mistake),
                "{text}"
            );
            assert_eq!(
                text.matches("DO[]").count(),
                count(Mark::Inaccuracy),
                "{text}"
            );
        }
        if kind == GameKind::Go {
            assert_eq!(text.matches("SBKV[").count(), moves.len(), "{text}");
            let last = a.positions.last().unwrap().score;
            let pct = if crate::search::is_decided(last) {
                if last > 0 { 100.0 } else { 0.0 }
            } else {
                50.0 + last as f32 / 100.0
            };
            assert!(text.contains(&format!("SBKV[{pct:.2}]")), "{pct} in {text}");
        } else {
            assert!(!text.contains("SBKV["));
        }
        let back = crate::records::import_text(&text).unwrap();
        assert!(
            back.comments[&2].starts_with("a person's note"),
            "{kind}: {:?}",
            back.comments
        );
        // writing the analysis again replaces it, and keeps the note
        let mut again = back.comments.clone();
        a.write_comments(&mut again);
        assert_eq!(again[&2].matches("Qi: ").count(), 1, "{:?}", again[&2]);
        assert!(again[&2].starts_with("a person's note"));
        let mut positions = vec![start.clone()];
        for &m in &moves {
            let mut n = positions.last().unwrap().clone();
            n.play(m).unwrap();
            positions.push(n);
        }
        let read = from_comments(kind, &positions, &moves, &back.comments).expect("read back");
        assert_eq!(read, a.stored(), "{kind}: {text}");
        // a record without analysis has none
        assert!(from_comments(kind, &positions, &moves, &Default::default()).is_none());
    }
}

/// The best move costs nothing; marks jump from mistake to mistake; the summary counts them.
#[test]
fn summary_and_jumps_between_marks() {
    let eval = |score| PositionEval {
        score,
        best: Some("x".into()),
        pv: Vec::new(),
        depth: 1,
        lead: None,
    };
    assert_eq!(loss_between(GameKind::Reversi, 300, -500), 800);
    assert_eq!(loss_between(GameKind::Reversi, -100, 50), 0);
    // a forced win in Gomoku thrown away
    let l = loss_between(GameKind::Gomoku, MATE - 5, 100);
    assert_eq!(
        mark_of(GameKind::Gomoku, MATE - 5, 100, l),
        Some(Mark::Blunder)
    );
    // a forced win kept as a position the search calls overwhelming without proving it, or a
    // hopeless position turned into a proven loss, costs next to nothing: no mark (it was a
    // blunder with an average loss of 0.00)
    for (before, after) in [
        (MATE - 5, 20_000),
        (MATE - 5, 9_999),
        (-12_000, -(MATE - 3)),
    ] {
        let l = loss_between(GameKind::Gomoku, before, after);
        assert!(l <= 1, "{before} -> {after}: loss {l}");
        assert_eq!(mark_of(GameKind::Gomoku, before, after, l), None);
    }
    // Gomoku by level 6's learned evaluation, 400 units a logit: half a logit lost is an
    // inaccuracy, one a mistake, two a blunder (the line score's 300 / 1,000 / 3,000 of before
    // marked a drop from +400 to -400 as an inaccuracy)
    for (before, after, mark) in [
        (100, -90, None),
        (100, -100, Some(Mark::Inaccuracy)),
        (200, -200, Some(Mark::Mistake)),
        (400, -400, Some(Mark::Blunder)),
    ] {
        let l = loss_between(GameKind::Gomoku, before, after);
        assert_eq!(
            mark_of(GameKind::Gomoku, before, after, l),
            mark,
            "{before} -> {after}"
        );
    }
    // walking into a forced loss from an even game is a blunder by its loss
    let l = loss_between(GameKind::Gomoku, 100, -(MATE - 3));
    assert_eq!(
        mark_of(GameKind::Gomoku, 100, -(MATE - 3), l),
        Some(Mark::Blunder)
    );
    // Reversi: a proven win (margin unknown) and an exact +4 are the same outcome
    let l = loss_between(GameKind::Reversi, MATE - 1, 400);
    assert_eq!((l, mark_of(GameKind::Reversi, MATE - 1, 400, l)), (0, None));
    let l = loss_between(GameKind::Reversi, -400, -(MATE - 1));
    assert_eq!(
        (l, mark_of(GameKind::Reversi, -400, -(MATE - 1), l)),
        (0, None)
    );
    // but turning a proven win into a loss is a blunder
    let l = loss_between(GameKind::Reversi, MATE - 1, -200);
    assert_eq!(
        mark_of(GameKind::Reversi, MATE - 1, -200, l),
        Some(Mark::Blunder)
    );
    let a = GameAnalysis {
        kind: GameKind::Reversi,
        positions: vec![eval(0); 7],
        moves: (1..=6)
            .map(|ply| MoveReview {
                ply,
                side: if ply % 2 == 1 {
                    Side::Black
                } else {
                    Side::White
                },
                played: "y".into(),
                best: Some("x".into()),
                before: 0,
                after: 0,
                loss: [0, 900, 0, 250, 0, 500][ply - 1],
                mark: [
                    None,
                    Some(Mark::Blunder),
                    None,
                    Some(Mark::Inaccuracy),
                    None,
                    Some(Mark::Mistake),
                ][ply - 1],
            })
            .collect(),
    };
    assert_eq!(a.next_marked(0, Mark::Inaccuracy, false), Some(2));
    assert_eq!(a.next_marked(2, Mark::Inaccuracy, false), Some(4));
    assert_eq!(a.next_marked(4, Mark::Mistake, false), Some(6));
    assert_eq!(a.next_marked(6, Mark::Mistake, false), Some(2), "wraps");
    assert_eq!(a.next_marked(4, Mark::Inaccuracy, true), Some(2));
    let [black, white] = a.summary();
    assert_eq!(black.moves, 3);
    assert_eq!(black.average_loss, 0.0);
    assert_eq!(white.average_loss, (900 + 250 + 500) as f32 / 3.0);
    assert_eq!(white.by_phase[0][Mark::Blunder as usize], 1);
    assert_eq!(white.by_phase[1][Mark::Inaccuracy as usize], 1);
    assert_eq!(white.by_phase[2][Mark::Mistake as usize], 1);
}

/// `qi-engine analyse FILE --write OUT` writes the record with its analysis, which reads back;
/// a file that is not a record is a clear error (exit code 2).
#[test]
fn qi_engine_analyse_writes_a_record_that_reads_back() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../saves/othello-1975-maruo-shortest-game.sgf"
    );
    let out = std::env::temp_dir().join(format!("qi-analyse-{}.sgf", std::process::id()));
    let args = |v: &[&str]| v.iter().map(std::ffi::OsString::from).collect::<Vec<_>>();
    let code = crate::engine::main_with_args(args(&[
        "qi-engine",
        "analyse",
        file,
        "--budget",
        "20",
        "--write",
        out.to_str().unwrap(),
    ]));
    assert_eq!(code, 0);
    let rec = crate::records::import_file(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    let history = rec.history().unwrap();
    let moves = history.all_moves().to_vec();
    let mut positions = vec![history.start().clone()];
    for &m in &moves {
        let mut n = positions.last().unwrap().clone();
        n.play(m).unwrap();
        positions.push(n);
    }
    let a = from_comments(rec.game, &positions, &moves, &rec.comments).expect("analysis kept");
    assert_eq!(a.moves.len(), moves.len());
    // the last position's value is the game's exact result, from Black's side
    let last = positions.last().unwrap();
    let result = GameResult::of(last).expect("the game is over");
    assert_eq!(
        a.positions.last().unwrap().score,
        final_value(GameKind::Reversi, &result, Side::Black)
    );
    let bad = std::env::temp_dir().join(format!("qi-analyse-bad-{}.sgf", std::process::id()));
    std::fs::write(&bad, "(;GM[1]SZ[19];B[zz").unwrap();
    assert_eq!(
        crate::engine::main_with_args(args(&["qi-engine", "analyse", bad.to_str().unwrap()])),
        2
    );
    let _ = std::fs::remove_file(&bad);
}

/// The candidates of a Reversi endgame position carry the exact values (the search solves
/// it), best first; Go has none.
#[test]
fn candidates_are_valued_and_sorted() {
    let mut rng = Rng::new(11);
    let mut pos = AnyPosition::start(GameKind::Reversi).unwrap();
    while pos.piece_counts()[0] + pos.piece_counts()[1] < 58 || pos.legal_moves().len() < 2 {
        if GameResult::of(&pos).is_some() {
            pos = AnyPosition::start(GameKind::Reversi).unwrap();
        }
        let moves = pos.legal_moves();
        let m = moves[rng.below(moves.len() as u64) as usize];
        pos.play(m).unwrap();
    }
    let c = candidates(&pos, Duration::from_millis(400), 3, &stop());
    assert!(!c.is_empty());
    assert!(c.windows(2).all(|w| w[0].1 >= w[1].1), "{c:?}");
    for &(m, v) in &c {
        let mut next = pos.clone();
        next.play(m).unwrap();
        let e = exact(&next);
        let want = if next.side_to_move() == pos.side_to_move() {
            e
        } else {
            -e
        };
        // the solver may prove a win or a loss without its margin
        if search::is_decided(v) {
            assert_eq!(v.signum(), want.signum(), "{}", pos.move_to_text(m));
        } else {
            assert_eq!(v, want, "{}", pos.move_to_text(m));
        }
    }
    // each candidate's line starts with it and plays out legally, for every game
    for kind in GameKind::ALL {
        let mut start = AnyPosition::start(kind).unwrap();
        if kind == GameKind::Gomoku {
            // (Gomoku's candidates are the points near the stones)
            let m = start.parse_move("h8").unwrap();
            start.play(m).unwrap();
        }
        let lines = candidate_lines(&start, Duration::from_millis(200), 3, &stop());
        assert!(!lines.is_empty(), "{kind}");
        for c in &lines {
            assert_eq!(c.line.first(), Some(&c.mv), "{kind}");
            let mut p = start.clone();
            for &m in &c.line {
                p.play(m).unwrap_or_else(|e| panic!("{kind}: {e:?}"));
            }
        }
        assert!(
            lines.iter().any(|c| c.line.len() > 1),
            "{kind}: some line goes on"
        );
    }
    // Go: the most visited moves of a search, legal, with win rates in its units
    let go = AnyPosition::Go(Box::new(crate::go::Go::new(9, 7.0).unwrap()));
    let c = candidates(&go, Duration::from_millis(50), 3, &stop());
    assert!(!c.is_empty() && c.len() <= 3);
    for (m, v) in c {
        assert!(go.is_legal(m));
        assert!((-5000..=5000).contains(&v), "{v}");
    }
}

/// Ataxx: a clone that takes nothing, when a clone next to seven of the other side's pieces
/// takes them all, loses pieces and is marked a blunder; the capture is the engine's move and
/// is not marked.
#[test]
fn an_ataxx_move_that_gives_up_a_capture_is_a_blunder() {
    // d4 is empty among seven Blue pieces; Red's e5 can clone into it
    let pos = AnyPosition::from_text(GameKind::Ataxx, "6o/7/2oox2/2o1o2/2ooo2/7/x6 x 0 1").unwrap();
    let (_, moves) = play(&pos, &["a2"]);
    let a = analyse(
        &pos,
        &moves,
        Duration::from_millis(300),
        &stop(),
        &mut |_, _| {},
    )
    .unwrap()
    .unwrap();
    let m = &a.moves[0];
    assert_eq!(m.best.as_deref(), Some("d4"), "{m:?}");
    assert!(m.loss >= thresholds(GameKind::Ataxx)[2], "{m:?}");
    assert_eq!(m.mark, Some(Mark::Blunder));
    let (_, moves) = play(&pos, &["d4"]);
    let a = analyse(
        &pos,
        &moves,
        Duration::from_millis(300),
        &stop(),
        &mut |_, _| {},
    )
    .unwrap()
    .unwrap();
    assert_eq!(a.moves[0].mark, None, "{:?}", a.moves[0]);
}

/// Go: Black's big group has a straight three as its eye space; the middle point makes it
/// live (and Black wins by area), a move elsewhere lets White take the point and kill it. The
/// move elsewhere is a blunder; the vital point is the engine's move and is not marked.
#[test]
fn a_go_move_that_lets_a_group_die_is_a_blunder() {
    let rows = [
        ".........",
        ".........",
        ".........",
        "OOOOOOOOO",
        "XXXXXXXXX",
        "XXXXXXXXX",
        "XXXXXXXXX",
        "XXXXXXXXX",
        "XX...XXXX",
    ];
    let pos = AnyPosition::from_text(GameKind::Go, &format!("9 7 b {}", rows.join("/"))).unwrap();
    let budget = Duration::from_millis(1000);
    let (_, moves) = play(&pos, &["E8"]);
    let a = analyse(&pos, &moves, budget, &stop(), &mut |_, _| {})
        .unwrap()
        .unwrap();
    let m = &a.moves[0];
    assert_eq!(m.best.as_deref(), Some("D1"), "{m:?}");
    assert_eq!(m.mark, Some(Mark::Blunder), "{m:?}");
    let (_, moves) = play(&pos, &["D1"]);
    let a = analyse(&pos, &moves, budget, &stop(), &mut |_, _| {})
        .unwrap()
        .unwrap();
    assert_eq!(a.moves[0].mark, None, "{:?}", a.moves[0]);
}

/// Reversi's four first moves reach the same position turned or mirrored: whichever the engine
/// prefers, none of them loses anything.
#[test]
fn a_move_symmetric_to_the_best_loses_nothing() {
    let start = AnyPosition::start(GameKind::Reversi).unwrap();
    for first in ["d3", "c4", "f5", "e6"] {
        let (_, moves) = play(&start, &[first]);
        let a = analyse(
            &start,
            &moves,
            Duration::from_millis(100),
            &stop(),
            &mut |_, _| {},
        )
        .unwrap()
        .unwrap();
        assert_eq!(a.moves[0].loss, 0, "{first}: {:?}", a.moves[0]);
        assert_eq!(a.moves[0].mark, None);
    }
    assert!(crate::openings::same_after(
        &start,
        start.parse_move("d3").unwrap(),
        &play(&start, &["f5"]).0
    ));
    assert!(!crate::openings::same_after(
        &play(&start, &["f5"]).0,
        play(&start, &["f5"]).0.parse_move("d6").unwrap(),
        &play(&start, &["f5", "f6"]).0
    ));
}

/// A move that cannot be played is reported by its number and text (typed, for the window to
/// word), not as an English string.
#[test]
fn an_illegal_move_is_reported_by_number_and_text() {
    let start = AnyPosition::start(GameKind::Reversi).unwrap();
    let d3 = start.parse_move("d3").unwrap();
    let e = analyse(
        &start,
        &[d3, d3],
        Duration::from_millis(10),
        &stop(),
        &mut |_, _| {},
    )
    .unwrap_err();
    assert!(
        matches!(&e, RecordError::BadMove { number: 2, text, .. } if text == "d3"),
        "{e:?}"
    );
}
