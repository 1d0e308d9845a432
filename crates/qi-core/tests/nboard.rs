//! Drives `qi-engine nboard` as a child process (every read with a time limit).

use std::time::Duration;

mod common;

use common::Driven;
use qi_core::Game;
use qi_core::reversi::Reversi;

const START: &str = "---------------------------O*------*O--------------------------- *";
const LONG: Duration = Duration::from_secs(30);

#[test]
fn nboard_session() {
    let mut e = Driven::engine(&["nboard"]);
    e.send("nboard 1");
    e.send("set depth 4");
    e.send(&format!(
        "set game (;GM[Othello]PC[NBoard]PB[me]PW[qi]RE[?]TI[5:00]TY[8]BO[8 {START}]B[d3//1.5]W[c5];)"
    ));
    e.send("ping 1");
    e.until("pong 1", LONG);
    e.send("move e6/0.5/2.0");
    e.send("go");
    let l = e.until("===", LONG);
    e.until("status", LONG);
    let reply = l.last().unwrap().strip_prefix("=== ").unwrap().to_string();
    let mv_text = reply.split('/').next().unwrap();
    let mut pos = Reversi::start();
    for m in ["d3", "c5", "e6"] {
        pos.play(pos.parse_move(m).unwrap()).unwrap();
    }
    let mv = pos.parse_move(mv_text).unwrap();
    assert!(pos.is_legal(mv), "{reply}");
    assert!(reply.split('/').count() == 3, "{reply}");
    // garbage: an error line, and the engine goes on
    for bad in [
        "fly away",
        "move z9",
        "move a1",
        "set depth many",
        "set game (;nonsense",
        "set movetime soon",
    ] {
        e.send(bad);
        let l = e.until("status error", LONG);
        assert_eq!(l.len(), 1, "{bad}: {l:?}");
    }
    // bytes that are not UTF-8 (the engine used to exit at the first one)
    for bad in [&b"\xff\n"[..], b"ping \xfe3\n", b"\xc3\x28\n"] {
        e.send_bytes(bad);
        let l = e.until("status error", LONG);
        assert_eq!(l, ["status error: the line is not UTF-8 text"], "{bad:?}");
    }
    // a 2 MB line: an error, and the next line is read as usual
    let mut long = vec![b'm'; 2 << 20];
    long.extend_from_slice(b"\nping 7\n");
    e.send_bytes(&long);
    let l = e.until("status error", LONG);
    assert!(l[0].contains("longer than"), "{l:?}");
    assert_eq!(e.line(LONG), "pong 7");
    e.send("hint 1");
    let l = e.until("search ", LONG);
    let hint = l
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    assert!(pos.is_legal(pos.parse_move(&hint).unwrap()), "{hint}");
    e.send("ping 2");
    e.until("pong 2", LONG);
    e.send("quit");
    assert!(e.wait(LONG).success());
}

/// The time cap holds: with `set movetime` (an extension; 10 s unless changed) a search asked
/// for depth 60 in the middle game answers within the cap, as the engine's own reply reports
/// (`=== move/eval/seconds`). A huge cap saturates instead of overflowing.
#[test]
fn movetime_caps_a_deep_search() {
    let mut e = Driven::engine(&["nboard"]);
    e.send("nboard 2");
    e.send("set depth 60");
    e.send("set movetime 300");
    // a middle-game position (after 12 moves)
    e.send(&format!(
        "set game (;GM[Othello]BO[8 {START}]B[f5]W[d6]B[c3]W[d3]B[c4]W[f4]B[c5]W[b4]B[c6]W[e6]B[a3]W[b3];)"
    ));
    common::keeps_budget("go at depth 60", Duration::from_millis(300), || {
        e.send("go");
        let l = e.until("===", LONG);
        let secs: f64 = l
            .last()
            .unwrap()
            .rsplit('/')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        e.until("status", LONG);
        Duration::from_secs_f64(secs)
    });
    e.send("set movetime 18446744073709551615");
    e.send("set depth 2");
    e.send("go");
    e.until("===", LONG);
    e.send("quit");
    assert!(e.wait(LONG).success());
}

/// `qi-engine nboard --movetime <ms>` thinks by time: in the middle game it answers within the
/// time and uses a good part of it, whatever depth NBoard asks for; with 12 empties it plays
/// a best move of the exact solve and reports its exact score.
#[test]
fn movetime_option_plays_by_time() {
    let budget = Duration::from_millis(400);
    let mut e = Driven::engine(&["nboard", "--movetime", "400"]);
    e.send("nboard 2");
    e.send(&format!(
        "set game (;GM[Othello]BO[8 {START}]B[f5]W[d6]B[c3]W[d3]B[c4]W[f4]B[c5]W[b4]B[c6]W[e6]B[a3]W[b3];)"
    ));
    common::keeps_budget("go by time", budget, || {
        e.send("go");
        let l = e.until("===", LONG);
        e.until("status", LONG);
        let secs: f64 = l
            .last()
            .unwrap()
            .rsplit('/')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let took = Duration::from_secs_f64(secs);
        assert!(took >= budget / 4, "{took:?} of {budget:?}");
        took
    });
    // FFO #40 with its last rank filled: 12 empties, black to move
    let board = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--XOOXXOOXX";
    let pos = Reversi::from_text(&format!("{board} X")).unwrap();
    let exact = qi_core::ai::endgame::Solver::new(4)
        .solve(&pos, None, None)
        .unwrap();
    let ggf_board: String = board
        .chars()
        .map(|c| if c == 'X' { '*' } else { c })
        .collect();
    e.send(&format!("set game (;GM[Othello]BO[8 {ggf_board} *];)"));
    e.send("go");
    let l = e.until("===", LONG);
    let reply = l.last().unwrap().strip_prefix("=== ").unwrap().to_string();
    let mut parts = reply.split('/');
    let mv = pos.parse_move(parts.next().unwrap()).unwrap();
    let eval: f64 = parts.next().unwrap().parse().unwrap();
    assert_eq!(eval, exact.score as f64, "{reply}");
    let mut after = pos;
    after.play(mv).unwrap();
    let rest = qi_core::ai::endgame::Solver::new(4)
        .solve(&after, None, None)
        .unwrap();
    assert_eq!(-rest.score, exact.score, "{reply}");
    e.send("quit");
    assert!(e.wait(LONG).success());
}
