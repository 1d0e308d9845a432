//! The Gomocup (Piskvork) protocol, with `qi-engine gomocup` and a `pbrain-qi` copy driven as
//! child processes.

use std::path::Path;
use std::time::{Duration, Instant};

mod common;

use common::Driven;
use qi_core::engine::gomocup::Session;
use qi_core::game::{Game, Side};
use qi_core::gomoku::{Gomoku, GomokuRule, move_at};
use qi_core::search::Rng;

/// Every read waits at most this long (a move takes well under a second here).
const LONG: Duration = Duration::from_secs(30);

struct Brain(Driven);

impl Brain {
    fn start(program: &Path, args: &[&str]) -> Brain {
        Brain(Driven::start(program.to_str().unwrap(), args))
    }

    fn send(&mut self, line: &str) {
        self.0.send_bytes(format!("{line}\r\n").as_bytes());
    }

    /// The next line that is not a MESSAGE or DEBUG line (within [`LONG`]).
    fn reply(&mut self) -> String {
        loop {
            let l = self.0.line(LONG).trim().to_string();
            if !l.starts_with("MESSAGE") && !l.starts_with("DEBUG") {
                return l;
            }
        }
    }

    fn end(mut self) {
        self.send("END");
        assert!(self.0.wait(LONG).success());
    }
}

fn engine() -> &'static Path {
    Path::new(common::engine_path())
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

/// Bytes that are not UTF-8 and a line of 2 MB get an ERROR line, and the session goes on.
#[test]
fn bad_bytes_and_long_lines() {
    let mut b = Brain::start(engine(), &["gomocup"]);
    b.0.send_bytes(b"\xff\xfe START 15\r\n");
    assert_eq!(b.reply(), "ERROR the line is not UTF-8 text");
    let mut long = vec![b'9'; 2 << 20];
    long.extend_from_slice(b"\r\n");
    b.0.send_bytes(&long);
    assert!(b.reply().starts_with("ERROR the line is longer than"));
    b.send("START 15");
    assert_eq!(b.reply(), "OK");
    b.end();
}

/// The replies of one in-process session line, MESSAGE lines left out.
fn handle(s: &mut Session, line: &str) -> Vec<String> {
    let mut out = Vec::new();
    assert!(s.handle(line, &mut out));
    String::from_utf8(out)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("MESSAGE"))
        .map(str::to_string)
        .collect()
}

/// A session on 15x15 with a few stones of each side on the board, the engine to move: level
/// 6 would search for seconds here (300,000 nodes and its threat searches), so the clock binds.
fn middle_game(infos: &[&str]) -> Session {
    let mut s = Session::new();
    assert_eq!(handle(&mut s, "START 15"), ["OK"]);
    for i in infos {
        assert_eq!(
            handle(&mut s, &format!("INFO {i}")),
            Vec::<String>::new(),
            "{i}"
        );
    }
    assert!(handle(&mut s, "BOARD").is_empty());
    for l in [
        "7,7,2", "8,8,1", "6,8,2", "8,6,1", "9,9,2", "6,6,1", "7,9,2",
    ] {
        assert!(handle(&mut s, l).is_empty(), "{l}");
    }
    s
}

/// A move, timed: the reply must be one `x,y` line.
fn timed_move(s: &mut Session, line: &str) -> Duration {
    let t = Instant::now();
    let r = handle(s, line);
    let took = t.elapsed();
    assert_eq!(r.len(), 1, "{r:?}");
    assert!(r[0].split_once(',').is_some(), "{r:?}");
    took
}

/// `INFO timeout_turn 0` means "play at once" (it used to mean 5 s): the move comes at once.
#[test]
fn timeout_turn_zero_plays_at_once() {
    let probe = middle_game(&["timeout_turn 0"]);
    assert_eq!(probe.movetime(), Duration::ZERO);
    common::keeps_budget("timeout_turn 0", Duration::ZERO, || {
        let mut s = middle_game(&["timeout_turn 0"]);
        timed_move(&mut s, "DONE")
    });
}

/// `timeout_turn` and the match clock set the time a move takes: 92% of the turn's time less
/// 20 ms, at most a fifteenth of the time left when the match has a clock.
#[test]
fn time_controls_set_the_move_time() {
    let s = middle_game(&["timeout_turn 300"]);
    assert_eq!(s.movetime(), Duration::from_millis(256));
    common::keeps_budget("timeout_turn 300", Duration::from_millis(256), || {
        let mut s = middle_game(&["timeout_turn 300"]);
        timed_move(&mut s, "DONE")
    });
    let infos = [
        "timeout_turn 5000",
        "timeout_match 100000",
        "time_left 1500",
    ];
    let s = middle_game(&infos);
    // 1500 / 15 = 100 ms: 92 less 20
    assert_eq!(s.movetime(), Duration::from_millis(72));
    common::keeps_budget("time_left 1500", Duration::from_millis(72), || {
        let mut s = middle_game(&infos);
        timed_move(&mut s, "DONE")
    });
    // no match clock: time_left does not count
    let s = middle_game(&["timeout_turn 1000", "timeout_match 0", "time_left 150"]);
    assert_eq!(s.movetime(), Duration::from_millis(900));
}

/// Huge numbers saturate: the move still comes (level 6 is bound by its node budget).
#[test]
fn huge_times_do_not_overflow() {
    let mut s = middle_game(&[
        "timeout_turn 18446744073709551615",
        "timeout_match 99999999999999999999999",
        "time_left 18446744073709551615",
        "max_memory 18446744073709551615",
    ]);
    let r = handle(&mut s, "DONE");
    assert_eq!(r.len(), 1, "{r:?}");
    assert!(r[0].contains(','), "{r:?}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(100))]

    /// Any bytes through a Gomocup session: it ends at the end of the input, and every line
    /// out is an ERROR, OK, a MESSAGE, ABOUT's answer or a move.
    #[test]
    fn random_bytes_through_gomocup(
        lines in proptest::collection::vec(proptest::collection::vec(proptest::prelude::any::<u8>(), 0..3000), 0..20),
    ) {
        let mut input = Vec::new();
        for l in &lines {
            input.extend_from_slice(l);
            input.extend_from_slice(b"\r\n");
        }
        let mut out = Vec::new();
        qi_core::engine::gomocup::run_io(&mut input.as_slice(), &mut out);
        let text = String::from_utf8(out).unwrap();
        for l in text.lines() {
            proptest::prop_assert!(
                l.starts_with("ERROR") || l == "OK" || l.starts_with("MESSAGE") || l.starts_with("name=") || l.contains(','),
                "{l}"
            );
        }
    }
}

/// Under renju `gomocup` searches with the learned renju weights (session 43): in random
/// crowded positions where Black to move has forbidden points, every answer is a legal move,
/// never one of those points.
#[test]
fn renju_answers_are_never_forbidden() {
    let mut rng = Rng::new(4343);
    let mut checked = 0;
    for _ in 0..3000 {
        if checked == 25 {
            break;
        }
        let mut pos = Gomoku::new(15, GomokuRule::Renju);
        let mut played = Vec::new();
        for _ in 0..16 + rng.below(20) {
            let m = move_at(qi_core::Square::new(
                4 + rng.below(7) as u8,
                4 + rng.below(7) as u8,
            ));
            if pos.outcome().is_none() && pos.is_legal(m) {
                pos.make(m);
                played.push(m);
            }
        }
        if pos.outcome().is_some()
            || pos.side_to_move() != Side::Black
            || pos.forbidden_points().is_empty()
        {
            continue;
        }
        let mut s = Session::new();
        assert_eq!(handle(&mut s, "START 15"), ["OK"]);
        handle(&mut s, "INFO rule 4");
        handle(&mut s, "INFO timeout_turn 100");
        handle(&mut s, "BOARD");
        for (i, &m) in played.iter().enumerate() {
            // Black (to move) is "own" (1): Black played the even plies
            let who = if i % 2 == 0 { 1 } else { 2 };
            assert!(handle(&mut s, &format!("{},{who}", pos.to_gomocup(m))).is_empty());
        }
        let r = handle(&mut s, "DONE");
        assert_eq!(r.len(), 1, "{r:?}");
        let m = pos.parse_gomocup(&r[0]).expect("an x,y answer");
        assert!(
            pos.is_legal(m),
            "{} is not legal for Black in {}",
            r[0],
            pos.to_text()
        );
        checked += 1;
    }
    assert_eq!(checked, 25, "too few positions with forbidden points");
}
