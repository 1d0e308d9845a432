//! Drives the `qi-engine` binary as a child process.

use std::process::Command;

fn engine(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_qi-engine"))
        .args(args)
        .output()
        .expect("run qi-engine");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn perft_prints_the_count_last() {
    let (code, out, err) = engine(&["perft", "ataxx", "4"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().last(), Some("155888"));
    assert!(err.contains("nodes/s"), "{err}");
    let (code, out, _) = engine(&["perft", "reversi", "6"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().last(), Some("8200"));
    // a Reversi position starting with '-' is a value, not an option
    let (code, out, err) = engine(&[
        "perft",
        "reversi",
        "1",
        "--fen",
        "-------------------X-------XX------XO--------------------------- O",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().last(), Some("3"));
    let (code, out, _) = engine(&["perft", "ataxx", "3", "--fen", "7/7/7/2x1o2/7/7/7 x 0 1"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().last(), Some("7887"));
}

#[test]
fn perft_divide_sums_to_the_total() {
    let (code, out, _) = engine(&["perft", "reversi", "3", "--divide"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5);
    let sum: u64 = lines[..4]
        .iter()
        .map(|l| l.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 56);
    assert_eq!(lines[4], "56");
}

#[test]
fn bad_input_is_a_one_line_error_with_exit_2() {
    for args in [
        &["perft", "chess", "3"][..],
        &["perft", "ataxx", "3", "--fen", "x5o/7/7"],
        &["perft", "reversi", "2", "--fen", "garbage"],
        &["perft", "ataxx", "notanumber"],
    ] {
        let (code, out, err) = engine(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let (_, _, err) = engine(&["perft", "ataxx", "3", "--fen", "x5o/7/7"]);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

#[test]
fn solve_prints_move_and_score_last() {
    // FFO #40 (20 empties)
    let fen = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
    let (code, out, err) = engine(&["solve", "reversi", "--fen", fen]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().last(), Some("a2 +38"));
    assert!(err.contains("nodes"), "{err}");
    let (code, _, _) = engine(&["solve", "reversi", "--fen", "garbage"]);
    assert_eq!(code, 2);
}
