//! Drives `qi-engine uai` as a child process.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use qi_core::Game;
use qi_core::ataxx::Ataxx;

struct Uai {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Uai {
    fn start() -> Uai {
        let mut child = Command::new(env!("CARGO_BIN_EXE_qi-engine"))
            .arg("uai")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start qi-engine uai");
        let stdin = child.stdin.take().unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines() {
                if tx.send(l.unwrap()).is_err() {
                    break;
                }
            }
        });
        Uai {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str, within: Duration) -> Vec<String> {
        let end = Instant::now() + within;
        let mut got = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            let l = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no '{prefix}' within {within:?}; got {got:?}"));
            let done = l.starts_with(prefix);
            got.push(l);
            if done {
                return got;
            }
        }
    }
}

const LONG: Duration = Duration::from_secs(20);

#[test]
fn handshake_search_and_bestmove() {
    let mut e = Uai::start();
    e.send("uai");
    let l = e.until("uaiok", LONG);
    assert!(l.iter().any(|x| x.starts_with("id name")));
    assert!(l.iter().any(|x| x.starts_with("option name Hash")));
    e.send("setoption name Hash value 8");
    e.send("uainewgame");
    e.send("isready");
    e.until("readyok", LONG);
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
    let best = l
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    assert!(pos.is_legal(pos.parse_move(&best).unwrap()), "{best}");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn stop_ends_an_infinite_search_and_fen_positions_work() {
    let mut e = Uai::start();
    e.send("position fen x5o/7/7/7/7/7/o5x o 0 1");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    e.until("readyok", LONG);
    e.send("stop");
    let l = e.until("bestmove", Duration::from_secs(5));
    let best = l
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    let pos = Ataxx::from_text("x5o/7/7/7/7/7/o5x o 0 1").unwrap();
    assert!(pos.is_legal(pos.parse_move(&best).unwrap()), "{best}");
    // clocks: o to move uses wtime
    e.send("go btime 100000 wtime 300 binc 0 winc 0");
    let t = Instant::now();
    e.until("bestmove", LONG);
    assert!(t.elapsed() < Duration::from_secs(3));
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn garbage_lines_get_an_error_and_the_engine_goes_on() {
    let mut e = Uai::start();
    for bad in [
        "hello there",
        "position fen x5o/7/7 x",
        "position startpos moves a1a4",
        "position startpos moves zz",
        "go depth",
        "go sideways 5",
        "setoption name Hash value lots",
        "perft",
    ] {
        e.send(bad);
        let l = e.until("info string error", LONG);
        assert_eq!(l.len(), 1, "{bad}: {l:?}");
    }
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
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn finished_game_answers_a_null_move() {
    let mut e = Uai::start();
    e.send("position fen 7/7/7/7/7/7/x6 o 0 1");
    e.send("go movetime 10");
    let l = e.until("bestmove", LONG);
    assert_eq!(l.last().unwrap(), "bestmove 0000");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}
