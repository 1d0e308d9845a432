//! Drives `qi-engine nboard` as a child process.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

use qi_core::Game;
use qi_core::reversi::Reversi;

const START: &str = "---------------------------O*------*O--------------------------- *";

#[test]
fn nboard_session() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_qi-engine"))
        .arg("nboard")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let out = child.stdout.take().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for l in BufReader::new(out).lines() {
            if tx.send(l.unwrap()).is_err() {
                break;
            }
        }
    });
    let mut send = |l: &str| {
        writeln!(stdin, "{l}").unwrap();
        stdin.flush().unwrap();
    };
    let until = |prefix: &str| -> Vec<String> {
        let mut got = Vec::new();
        loop {
            let l = rx
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("no '{prefix}'; got {got:?}"));
            let done = l.starts_with(prefix);
            got.push(l);
            if done {
                return got;
            }
        }
    };
    send("nboard 1");
    send("set depth 4");
    send(&format!(
        "set game (;GM[Othello]PC[NBoard]PB[me]PW[qi]RE[?]TI[5:00]TY[8]BO[8 {START}]B[d3//1.5]W[c5];)"
    ));
    send("ping 1");
    until("pong 1");
    send("move e6/0.5/2.0");
    send("go");
    let l = until("===");
    until("status");
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
    ] {
        send(bad);
        let l = until("status error");
        assert_eq!(l.len(), 1, "{bad}: {l:?}");
    }
    send("hint 1");
    let l = until("search ");
    let hint = l
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    assert!(pos.is_legal(pos.parse_move(&hint).unwrap()), "{hint}");
    send("ping 2");
    until("pong 2");
    send("quit");
    assert!(child.wait().unwrap().success());
}
