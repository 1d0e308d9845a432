//! The Gomocup (Piskvork) protocol, with `qi-engine gomocup` and a `pbrain-qi` copy driven as
//! child processes.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};

struct Brain {
    child: Child,
    out: BufReader<ChildStdout>,
}

impl Brain {
    fn start(program: &Path, args: &[&str]) -> Brain {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the engine");
        let out = BufReader::new(child.stdout.take().unwrap());
        Brain { child, out }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\r\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line that is not a MESSAGE or DEBUG line.
    fn reply(&mut self) -> String {
        loop {
            let mut l = String::new();
            assert!(
                self.out.read_line(&mut l).unwrap() > 0,
                "the engine closed its output"
            );
            let l = l.trim().to_string();
            if !l.starts_with("MESSAGE") && !l.starts_with("DEBUG") {
                return l;
            }
        }
    }

    fn end(mut self) {
        self.send("END");
        let status = self.child.wait().unwrap();
        assert!(status.success());
    }
}

fn engine() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_qi-engine"))
}

fn coords(reply: &str) -> (u32, u32) {
    let (x, y) = reply
        .split_once(',')
        .unwrap_or_else(|| panic!("not x,y: {reply}"));
    (x.trim().parse().unwrap(), y.trim().parse().unwrap())
}

#[test]
fn a_session_with_garbage_in_it() {
    let mut b = Brain::start(engine(), &["gomocup"]);
    b.send("START 15");
    assert_eq!(b.reply(), "OK");
    b.send("INFO timeout_turn 300");
    b.send("INFO timeout_match 100000");
    b.send("INFO time_left 100000");
    b.send("INFO max_memory 83886080");
    b.send("INFO rule 0");
    b.send("this is not a command");
    assert!(b.reply().starts_with("ERROR"));
    b.send("INFO timeout_turn soon");
    assert!(b.reply().starts_with("ERROR"));
    b.send("ABOUT");
    assert!(b.reply().starts_with("name=\"Qi\""));
    b.send("BEGIN");
    let first = coords(&b.reply());
    assert!(first.0 < 15 && first.1 < 15);
    b.send("TURN 99,99");
    assert!(b.reply().starts_with("ERROR"));
    b.send(&format!("TURN {},{}", first.0, first.1));
    assert!(b.reply().starts_with("ERROR"), "an occupied point");
    b.send("TURN 0,0");
    let second = coords(&b.reply());
    assert_ne!(second, first);
    assert_ne!(second, (0, 0));
    b.send("TAKEBACK 0,0");
    assert_eq!(b.reply(), "OK");
    b.send("TAKEBACK 14,14");
    assert!(b.reply().starts_with("ERROR"));
    b.send("RESTART");
    assert_eq!(b.reply(), "OK");
    b.send("START 30");
    assert!(b.reply().starts_with("ERROR"));
    b.end();
}

#[test]
fn board_then_block_under_renju() {
    let mut b = Brain::start(engine(), &["gomocup"]);
    b.send("START 15");
    assert_eq!(b.reply(), "OK");
    b.send("INFO rule 4");
    b.send("INFO timeout_turn 300");
    // the opponent (2) has four in a column 7,3..7,6 with 7,2 taken by us (1): block 7,7
    b.send("BOARD");
    for l in [
        "7,3,2", "7,2,1", "7,4,2", "10,10,1", "7,5,2", "12,3,1", "7,6,2",
    ] {
        b.send(l);
    }
    b.send("bad,board,line");
    assert!(b.reply().starts_with("ERROR"));
    b.send("DONE");
    assert_eq!(b.reply(), "7,7");
    // the game goes on
    b.send("TURN 0,14");
    let r = coords(&b.reply());
    assert!(r.0 < 15 && r.1 < 15);
    b.end();
}

#[test]
fn takes_a_win_in_one() {
    let mut b = Brain::start(engine(), &["gomocup"]);
    b.send("START 15");
    assert_eq!(b.reply(), "OK");
    b.send("INFO timeout_turn 200");
    b.send("BOARD");
    for l in [
        "3,3,1", "4,3,1", "5,3,1", "6,3,1", "3,10,2", "9,12,2", "12,12,2", "2,3,2",
    ] {
        b.send(l);
    }
    b.send("DONE");
    assert_eq!(b.reply(), "7,3");
    b.end();
}

#[test]
fn started_as_pbrain_without_arguments() {
    let dir = std::env::temp_dir().join(format!("qi-pbrain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let name = if cfg!(windows) {
        "pbrain-qi.exe"
    } else {
        "pbrain-qi"
    };
    let copy = dir.join(name);
    std::fs::copy(engine(), &copy).unwrap();
    let mut b = Brain::start(&copy, &[]);
    b.send("START 19");
    assert_eq!(b.reply(), "OK");
    b.send("INFO timeout_turn 200");
    b.send("BEGIN");
    assert_eq!(coords(&b.reply()), (9, 9));
    b.send("garbage");
    assert!(b.reply().starts_with("ERROR"));
    b.end();
    let _ = std::fs::remove_dir_all(&dir);
}
