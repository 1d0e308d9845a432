//! Drives the `qi-engine` binary as a child process (killed, and the test failed, if it runs
//! past a time limit).

use std::time::Duration;

mod common;

fn engine(args: &[&str]) -> (i32, String, String) {
    let (code, out, err) = common::run_engine(args, Duration::from_secs(120));
    // no code: killed by a signal (an abort on a failed allocation, for one)
    (code.unwrap_or(-1), out, err)
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
    // win/loss/draw only: FFO #40 is won for X, and after X's a2 lost for O
    let (code, out, err) = engine(&["solve", "reversi", "--wld", "--fen", fen]);
    assert_eq!(code, 0, "{err}");
    let last = out.lines().last().unwrap_or("");
    assert!(last.ends_with(" win"), "{last}");
    let after = {
        use qi_core::Game;
        let mut p = qi_core::reversi::Reversi::from_text(fen).unwrap();
        p.play(p.parse_move("a2").unwrap()).unwrap();
        p.to_text()
    };
    let (code, out, err) = engine(&["solve", "reversi", "--wld", "--fen", &after]);
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().last().unwrap_or("").ends_with(" loss"), "{out}");
    let (code, _, _) = engine(&["solve", "reversi", "--fen", "garbage"]);
    assert_eq!(code, 2);
}

/// Size options are range-checked: a table of 99,999,999,999 MB used to abort the program on
/// the failed allocation; now it is a usage error (exit code 2) before anything is allocated.
#[test]
fn size_options_are_range_checked() {
    let fen = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
    for bad in [
        &["solve", "reversi", "--fen", fen, "--hash", "99999999999"][..],
        &["solve", "reversi", "--fen", fen, "--hash", "0"],
        &["solve", "reversi", "--fen", fen, "--hash", "-5"],
        &["solve", "gomoku", "--size", "300"],
        &["solve", "gomoku", "--size", "4"],
        &["bench", "ataxx", "--depth", "99999"],
        &["bench", "ataxx", "--positions", "0"],
        &["bench", "go", "--size", "4"],
        &["bench", "go", "--size", "20"],
        &["bench", "go", "--playouts", "10"],
    ] {
        let (code, out, err) = engine(bad);
        assert_eq!(code, 2, "{bad:?}: {err}");
        assert!(out.is_empty(), "{bad:?}: {out}");
        assert!(!err.contains("panicked"), "{bad:?}: {err}");
    }
    // a table within the range works
    let (code, out, err) = engine(&["solve", "reversi", "--fen", fen, "--hash", "1"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().last(), Some("a2 +38"));
}

/// `qi-engine bench go`: playouts a second last, and the same searches (the same checksum of
/// their moves and win rates) on every run, so that speed work can show it left the search
/// as it was.
#[test]
fn go_bench_is_repeatable() {
    let bench = |positions: &str| {
        let args = ["bench", "go", "--size", "9", "--playouts", "1000"];
        let (code, out, err) = engine(&[&args[..], &["--positions", positions]].concat());
        assert_eq!(code, 0, "{err}");
        let checksum = out
            .split("checksum ")
            .nth(1)
            .and_then(|t| t.split_whitespace().next())
            .map(str::to_string)
            .unwrap_or_else(|| panic!("no checksum in {out}"));
        (out, checksum)
    };
    let (out, first) = bench("3");
    assert!(
        out.lines().last().unwrap().ends_with(" playouts/s"),
        "{out}"
    );
    assert!(out.contains("3 positions: "), "{out}");
    assert_eq!(bench("3").1, first);
    // one more position is one more search in the checksum
    assert_ne!(bench("4").1, first);
}

/// `qi-engine ffo`, the FFO endgame benchmark: one line per position with its result and
/// times, then the total; bad ranges are usage errors. (All of #40-#59 take about an hour; the
/// test solves the two quickest.)
#[test]
fn ffo_benchmark_command() {
    let (code, out, err) = engine(&["ffo", "--from", "59", "--to", "59"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].starts_with("#59 "), "{out}");
    assert!(lines[0].contains(" +64 (expected h4/g8/e8 +64) "), "{out}");
    assert!(lines[0].ends_with(" ok"), "{out}");
    assert!(
        lines[1].starts_with("total #59-#59: 1 positions, 0 wrong"),
        "{out}"
    );
    let (code, out, err) = engine(&["ffo", "--from", "40", "--to", "40", "--hash", "16"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("#40 a2 +38 (expected a2 +38)"), "{out}");
    // two threads: the same result, and the nodes split between threads are shown
    let (code, out, err) = engine(&["ffo", "--from", "40", "--to", "40", "--threads", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("#40 a2 +38 (expected a2 +38)"), "{out}");
    assert!(out.lines().next().unwrap().ends_with(" splits ok"), "{out}");
    for bad in [
        &["ffo", "--from", "39"][..],
        &["ffo", "--to", "60"],
        &["ffo", "--from", "50", "--to", "45"],
        &["ffo", "--hash", "0"],
        &["ffo", "--threads", "0"],
    ] {
        let (code, _, err) = engine(bad);
        assert_eq!(code, 2, "{bad:?}: {err}");
        assert!(!err.contains("panicked"), "{bad:?}: {err}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_closed_output_ends_the_engine_without_a_panic() {
    // the reader takes the first line of a benchmark and closes the pipe, as `| head -1` does
    use std::io::{BufRead, BufReader, Read};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_qi-engine"))
        .args(["ffo", "--from", "40", "--to", "44", "--hash", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("qi-engine starts");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("a first line");
    assert!(first.starts_with("#40 "), "{first}");
    // the reader (and the pipe) dropped here: the next line has nowhere to go
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .expect("stderr read");
    let status = child.wait().expect("qi-engine ends");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        !status.success(),
        "the engine cannot have printed every line"
    );
}
