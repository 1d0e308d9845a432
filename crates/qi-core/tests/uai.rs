//! Drives `qi-engine uai` as a child process (every read with a time limit).

use std::time::{Duration, Instant};

mod common;

use common::Driven;
use qi_core::Game;
use qi_core::ataxx::Ataxx;

const LONG: Duration = Duration::from_secs(20);

fn uai() -> Driven {
    Driven::engine(&["uai"])
}

/// The move of a `bestmove` line.
fn best_of(lines: &[String]) -> String {
    lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string()
}

fn quit(mut e: Driven) {
    e.send("quit");
    assert!(e.wait(LONG).success());
}

#[test]
fn handshake_search_and_bestmove() {
    let mut e = uai();
    e.send("uai");
    let l = e.until("uaiok", LONG);
    assert!(l.iter().any(|x| x.starts_with("id name")));
    assert!(
        l.iter()
            .any(|x| x == "option name Hash type spin default 64 min 1 max 4096"),
        "{l:?}"
    );
    e.send("setoption name Hash value 8");
    e.send("uainewgame");
    e.send("isready");
    assert_eq!(e.until("readyok", LONG), ["readyok"]);
    e.send("position startpos moves f2 a1a3");
    e.send("go depth 4");
    let l = e.until("bestmove", LONG);
    let infos: Vec<&String> = l.iter().filter(|x| x.starts_with("info depth")).collect();
    assert_eq!(infos.len(), 4, "{l:?}");
    assert!(infos[3].contains(" pv "), "{l:?}");
    assert!(infos[3].contains(" score cp "), "{l:?}");
    let mut pos = Ataxx::start();
    for m in ["f2", "a1a3"] {
        pos.play(pos.parse_move(m).unwrap()).unwrap();
    }
    let best = best_of(&l);
    assert!(pos.is_legal(pos.parse_move(&best).unwrap()), "{best}");
    quit(e);
}

/// `setoption value 8 name Hash` (value first) once crashed the engine (exit 101): both orders
/// are read, and the value goes with the option.
#[test]
fn setoption_value_before_name_is_understood() {
    let mut e = uai();
    e.send("setoption value 8 name Hash");
    e.send("isready");
    // no error line before readyok: the option was taken
    assert_eq!(e.until("readyok", LONG), ["readyok"]);
    e.send("setoption value lots name Hash");
    let l = e.until("info string error", LONG);
    assert_eq!(l, ["info string error: Hash must be 1-4096 MB, not 'lots'"]);
    e.send("setoption value 99999 name Hash");
    let l = e.until("info string error", LONG);
    assert!(l[0].contains("not '99999'"), "{l:?}");
    for bad in ["setoption", "setoption value 8", "setoption 8 Hash"] {
        e.send(bad);
        let l = e.until("info string error", LONG);
        assert_eq!(l.len(), 1, "{bad}: {l:?}");
    }
    e.send("go depth 2");
    e.until("bestmove", LONG);
    quit(e);
}

#[test]
fn stop_ends_an_infinite_search_and_fen_positions_work() {
    let mut e = uai();
    e.send("position fen x5o/7/7/7/7/7/o5x o 0 1");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    e.until("readyok", LONG);
    e.send("stop");
    let l = e.until("bestmove", Duration::from_secs(5));
    let best = best_of(&l);
    let pos = Ataxx::from_text("x5o/7/7/7/7/7/o5x o 0 1").unwrap();
    assert!(pos.is_legal(pos.parse_move(&best).unwrap()), "{best}");
    quit(e);
}

/// `go infinite` and then the end of the input: the search is stopped, its move given, and the
/// engine exits (it used to search on forever at full CPU).
#[test]
fn infinite_search_ends_with_the_input() {
    let mut e = uai();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.close_input();
    let l = e.until("bestmove", Duration::from_secs(10));
    let best = best_of(&l);
    assert!(Ataxx::start().is_legal(Ataxx::start().parse_move(&best).unwrap()));
    assert!(e.wait(Duration::from_secs(10)).success());
    // a search with a limit is let finish at the end of the input
    let mut e = uai();
    e.send("go depth 3");
    e.close_input();
    let l = e.until("bestmove", LONG);
    assert!(l.iter().any(|x| x.starts_with("info depth 3")), "{l:?}");
    assert!(e.wait(LONG).success());
}

/// Huge clock values saturate instead of overflowing (the deadline of a `u64::MAX` ms clock is
/// a year away, not a panic).
#[test]
fn huge_times_do_not_overflow() {
    let mut e = uai();
    for go in [
        "go movetime 99999999999999999999 depth 2",
        "go wtime 18446744073709551615 btime 18446744073709551615 winc 18446744073709551615 binc 18446744073709551615 movestogo 18446744073709551615 depth 2",
        "go btime 9223372036854775807 binc 9223372036854775807 nodes 2000",
        "go movetime 18446744073709551615 nodes 18446744073709551615 depth 1",
    ] {
        e.send(go);
        let l = e.until("bestmove", LONG);
        let best = best_of(&l);
        assert!(
            Ataxx::start().is_legal(Ataxx::start().parse_move(&best).unwrap()),
            "{go}: {l:?}"
        );
    }
    quit(e);
}

/// The clock commands set the time the search uses: a short clock gives a move within its
/// budget (clock / 25, see `clock_budget`; overshoot at most 10% or 20 ms, measured from `go`
/// to `bestmove`, one try in five), a long one a search that runs past that budget.
#[test]
fn clock_commands_change_the_time_used() {
    let mut e = uai();
    // the start: a position the search cannot find decided (it stops early, rightly, in one
    // it has solved)
    e.send("position startpos");
    e.send("isready");
    e.until("readyok", LONG);
    // x to move: btime counts. 10 s on the clock, 25 moves expected: 400 ms
    common::keeps_budget("go btime 10000", Duration::from_millis(400), || {
        let t = Instant::now();
        e.send("go btime 10000 wtime 100000000 binc 0 winc 0");
        e.until("bestmove", LONG);
        t.elapsed()
    });
    // 30 s on the clock: 1.2 s a move; a new iteration starts only before 45% of it is spent,
    // so the search takes more than half a second (more than the short clock's whole budget)
    let t = Instant::now();
    e.send("go btime 30000 wtime 100 binc 0 winc 0");
    e.until("bestmove", LONG);
    let took = t.elapsed();
    assert!(took >= Duration::from_millis(540), "{took:?}");
    quit(e);
}

#[test]
fn garbage_lines_get_an_error_and_the_engine_goes_on() {
    let mut e = uai();
    for bad in [
        "hello there",
        "position fen x5o/7/7 x",
        "position startpos moves a1a4",
        "position startpos moves zz",
        "go depth",
        "go sideways 5",
        "go movetime soon",
        "setoption name Hash value lots",
        "perft",
    ] {
        e.send(bad);
        let l = e.until("info string error", LONG);
        assert_eq!(l.len(), 1, "{bad}: {l:?}");
    }
    // bytes that are not UTF-8, alone and inside a command
    for bad in [
        &b"\xff\xfe\n"[..],
        b"isready \xc3\x28\n",
        b"\x80go depth 1\n",
    ] {
        e.send_bytes(bad);
        let l = e.until("info string error", LONG);
        assert_eq!(
            l,
            ["info string error: the line is not UTF-8 text"],
            "{bad:?}"
        );
    }
    // a line of 2 MB: an error, and the line after it is read as usual
    let mut long = vec![b'x'; 2 << 20];
    long.extend_from_slice(b"\nisready\n");
    e.send_bytes(&long);
    let l = e.until("info string error", LONG);
    assert!(l[0].contains("longer than"), "{l:?}");
    assert_eq!(e.line(LONG), "readyok");
    // the bad position commands left the start position in place
    e.send("d");
    let l = e.until("side", LONG);
    assert!(
        l.iter().any(|x| x == "fen x5o/7/7/7/7/7/o5x x 0 1"),
        "{l:?}"
    );
    e.send("perft 3");
    let l = e.until("nodes", LONG);
    assert_eq!(l.last().unwrap(), "nodes 6460");
    e.send("go movetime 50");
    e.until("bestmove", LONG);
    quit(e);
}

#[test]
fn finished_game_answers_a_null_move() {
    let mut e = uai();
    e.send("position fen 7/7/7/7/7/7/x6 o 0 1");
    e.send("go movetime 10");
    let l = e.until("bestmove", LONG);
    assert_eq!(l.last().unwrap(), "bestmove 0000");
    quit(e);
}
