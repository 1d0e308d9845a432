//! `qi-engine uai`: the UAI protocol (UCI with Ataxx positions and moves) for Ataxx GUIs and
//! tournament tools.
//!
//! Commands: `uai`, `isready`, `uainewgame`, `setoption name Hash value N`,
//! `position startpos|fen <fen> [moves …]`, `go [movetime|depth|nodes|infinite|btime|wtime|
//! binc|winc|movestogo …]`, `stop`, `quit`, and the extras `perft N` (N up to 7) and `d`. The
//! search runs on its own thread so that `stop` and `isready` are answered while it thinks. A
//! line the engine cannot use (garbage, a line that is not UTF-8 text, a line longer than
//! [`super::MAX_LINE_BYTES`]) gets an `info string error: …` line and is otherwise ignored.
//! Times and counts saturate: `go movetime 99999999999999999999` searches "forever" (see
//! [`crate::search::MAX_TIME`]) instead of overflowing.
//!
//! At the end of the input a search started with `go infinite` (or `go` with no limit) is
//! stopped and its `bestmove` printed; a search with a limit (depth, nodes, time) is let finish
//! first.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::ai::ataxx::AtaxxEval;
use crate::ataxx::Ataxx;
use crate::game::{Game, Side, perft};
use crate::search::ataxx::AtaxxSearcher;
use crate::search::tt::MAX_HASH_MB;
use crate::search::{Limits, MATE, SearchInfo, is_decided};

const DEFAULT_HASH_MB: usize = 64;
/// The deepest `perft` the protocol runs: perft cannot be stopped, and depth 7 already counts
/// five billion leaves.
const MAX_PERFT: u32 = 7;

/// The `score …` part of an info line: centipieces, or moves to a decided end.
pub fn score_text(score: i32) -> String {
    if is_decided(score) {
        let plies = MATE - score.abs();
        let moves = (plies + 1) / 2;
        format!("mate {}", if score > 0 { moves } else { -moves })
    } else {
        format!("cp {score}")
    }
}

/// An `info` line for a finished iteration.
pub fn info_line(i: &SearchInfo) -> String {
    let mut s = format!(
        "info depth {} score {} nodes {} nps {} time {}",
        i.depth,
        score_text(i.score),
        i.nodes,
        i.nps,
        i.elapsed.as_millis()
    );
    if !i.pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&i.pv.join(" "));
    }
    s
}

fn say(line: &str) {
    let out = std::io::stdout();
    let mut out = out.lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn error(msg: &str) {
    say(&format!("info string error: {msg}"));
}

struct Engine {
    pos: Ataxx,
    searcher: Arc<Mutex<AtaxxSearcher>>,
    stop: Arc<AtomicBool>,
    thinking: Option<JoinHandle<()>>,
    /// Whether the running search has no limit (`go infinite`): only `stop` ends it.
    infinite: bool,
}

impl Engine {
    fn finish_search(&mut self) {
        if let Some(h) = self.thinking.take() {
            self.stop.store(true, Ordering::Relaxed);
            let _ = h.join();
        }
    }

    fn wait_search(&mut self) {
        if let Some(h) = self.thinking.take() {
            let _ = h.join();
        }
    }
}

/// Runs the protocol on stdin/stdout until `quit` or the end of input.
pub fn run() -> Result<(), String> {
    let mut e = Engine {
        pos: Ataxx::start(),
        searcher: Arc::new(Mutex::new(AtaxxSearcher::new(
            AtaxxEval::default(),
            DEFAULT_HASH_MB,
        ))),
        stop: Arc::new(AtomicBool::new(false)),
        thinking: None,
        infinite: false,
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    loop {
        let line = match super::read_input_line(&mut input) {
            Ok(Some(super::InputLine::Text(l))) => l,
            Ok(Some(super::InputLine::NotUtf8(_))) => {
                error("the line is not UTF-8 text");
                continue;
            }
            Ok(Some(super::InputLine::TooLong)) => {
                error(&format!(
                    "the line is longer than {} bytes",
                    super::MAX_LINE_BYTES
                ));
                continue;
            }
            Ok(None) => break,
            Err(err) => {
                e.finish_search();
                return Err(err.to_string());
            }
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else {
            continue;
        };
        match cmd {
            "uai" | "uci" => {
                say("id name Qi");
                say("id author the Qi developers");
                say(&format!(
                    "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
                ));
                say("option name Threads type spin default 1 min 1 max 1");
                say(if cmd == "uai" { "uaiok" } else { "uciok" });
            }
            "isready" => say("readyok"),
            "uainewgame" | "ucinewgame" => {
                e.finish_search();
                e.pos = Ataxx::start();
                e.searcher.lock().expect("searcher").clear();
            }
            "setoption" => {
                e.finish_search();
                setoption(&mut e, &words[1..]);
            }
            "position" => {
                e.finish_search();
                match parse_position(&words[1..]) {
                    Ok(p) => e.pos = p,
                    Err(msg) => error(&msg),
                }
            }
            "go" => {
                e.finish_search();
                match parse_go(&words[1..], e.pos.side_to_move()) {
                    Ok(limits) => {
                        e.infinite = limits == Limits::default();
                        go(&mut e, limits)
                    }
                    Err(msg) => error(&msg),
                }
            }
            "stop" => e.finish_search(),
            "quit" => {
                e.finish_search();
                return Ok(());
            }
            "perft" => match words.get(1).and_then(|d| d.parse::<u32>().ok()) {
                Some(d) if d > MAX_PERFT => error(&format!(
                    "perft depth is 0 to {MAX_PERFT} here (it cannot be stopped); \
                     `qi-engine perft` counts deeper"
                )),
                Some(d) => {
                    e.finish_search();
                    let t = Instant::now();
                    let mut p = e.pos;
                    let n = perft(&mut p, d);
                    let ms = t.elapsed().as_millis();
                    say(&format!(
                        "info depth {d} nodes {n} time {ms} nps {}",
                        (n as f64 / t.elapsed().as_secs_f64().max(1e-9)) as u64
                    ));
                    say(&format!("nodes {n}"));
                }
                None => error("perft needs a depth, e.g. 'perft 4'"),
            },
            "d" => display(&e.pos),
            _ => {
                let shown: String = line.trim().chars().take(80).collect();
                error(&format!("unknown command '{shown}'"))
            }
        }
    }
    // the end of the input: an infinite search would never end, so it is stopped; a search
    // with a limit finishes
    if e.infinite {
        e.finish_search();
    } else {
        e.wait_search();
    }
    Ok(())
}

fn setoption(e: &mut Engine, words: &[&str]) {
    let (name, value) = match parse_setoption(words) {
        Ok(nv) => nv,
        Err(msg) => {
            error(&msg);
            return;
        }
    };
    match (name.to_ascii_lowercase().as_str(), value) {
        ("hash", Some(v)) => match v.parse::<usize>() {
            Ok(mb) if (1..=MAX_HASH_MB).contains(&mb) => {
                e.searcher.lock().expect("searcher").set_hash_mb(mb)
            }
            _ => error(&format!("Hash must be 1-{MAX_HASH_MB} MB, not '{v}'")),
        },
        ("threads", Some(v)) => {
            if v != "1" {
                error("this engine searches on one thread");
            }
        }
        (other, _) => error(&format!("unknown option '{other}' or missing value")),
    }
}

/// The words after `setoption`: `name <id…> [value <x…>]`, the two parts in either order
/// (some tools send `value` first). Returns the name and the value, if any.
pub fn parse_setoption(words: &[&str]) -> Result<(String, Option<String>), String> {
    let mut name: Option<Vec<&str>> = None;
    let mut value: Option<Vec<&str>> = None;
    // which part the words go to: none yet, the name, the value
    let mut into_value: Option<bool> = None;
    for &w in words {
        if w.eq_ignore_ascii_case("name") && name.is_none() {
            name = Some(Vec::new());
            into_value = Some(false);
        } else if w.eq_ignore_ascii_case("value") && value.is_none() {
            value = Some(Vec::new());
            into_value = Some(true);
        } else {
            let part = match into_value {
                Some(false) => name.as_mut(),
                Some(true) => value.as_mut(),
                None => None,
            };
            part.ok_or_else(|| format!("setoption: '{w}' before 'name'"))?
                .push(w);
        }
    }
    let name = name
        .map(|n| n.join(" "))
        .filter(|n| !n.is_empty())
        .ok_or("setoption needs 'name <option> value <value>'")?;
    Ok((name, value.map(|v| v.join(" "))))
}

/// `startpos|fen <fen> [moves …]`.
pub fn parse_position(words: &[&str]) -> Result<Ataxx, String> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let head = &words[..moves_at.unwrap_or(words.len())];
    let mut pos = match head.first() {
        Some(&"startpos") if head.len() == 1 => Ataxx::start(),
        Some(&"fen") if head.len() > 1 => {
            Ataxx::from_text(&head[1..].join(" ")).map_err(|e| format!("bad fen: {e}"))?
        }
        _ => return Err("position needs 'startpos' or 'fen <fen>'".into()),
    };
    if let Some(m) = moves_at {
        for t in &words[m + 1..] {
            let mv = pos
                .parse_move(t)
                .map_err(|e| format!("bad move '{t}': {e}"))?;
            pos.play(mv).map_err(|e| format!("move '{t}': {e}"))?;
        }
    }
    Ok(pos)
}

/// The limits of a `go` command; the clock of `x` is `btime`. Numbers saturate (a clock of
/// 10^30 ms is `u64::MAX`), and no computation on them overflows.
pub fn parse_go(words: &[&str], side: Side) -> Result<Limits, String> {
    let mut limits = Limits::default();
    let (mut btime, mut wtime, mut binc, mut winc, mut mtg) = (None, None, 0u64, 0u64, None);
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        if key == "infinite" {
            i += 1;
            continue;
        }
        let val = words
            .get(i + 1)
            .ok_or_else(|| format!("go: '{key}' needs a value"))?;
        let num = super::parse_saturating(val)
            .ok_or_else(|| format!("go: '{key} {val}' is not a number"))?;
        match key {
            "movetime" => limits.time = Some(Duration::from_millis(num.max(1))),
            "depth" => limits.depth = Some(num.clamp(1, 100) as u32),
            "nodes" => limits.nodes = Some(num.max(1)),
            "btime" => btime = Some(num),
            "wtime" => wtime = Some(num),
            "binc" => binc = num,
            "winc" => winc = num,
            "movestogo" => mtg = Some(num.max(1)),
            other => return Err(format!("go: unknown parameter '{other}'")),
        }
        i += 2;
    }
    let (clock, inc) = match side {
        Side::Black => (btime, binc),
        Side::White => (wtime, winc),
    };
    if let Some(c) = clock {
        let budget = clock_budget(c, inc, mtg);
        limits.time =
            Some(Duration::from_millis(limits.time.map_or(budget, |t| {
                t.as_millis().min(budget as u128) as u64
            })));
    }
    Ok(limits)
}

/// Milliseconds for a move from the clock `c`, the increment `inc` and the moves to go (if
/// given): the clock shared over the moves to go (25 when not given) plus three quarters of
/// the increment, never more than half the clock less 20 ms, at least 1 ms.
pub fn clock_budget(c: u64, inc: u64, moves_to_go: Option<u64>) -> u64 {
    let share = c / moves_to_go.map_or(25, |n| n.saturating_add(1));
    let with_inc = share as u128 + inc as u128 * 3 / 4;
    let cap = c.saturating_sub(20) / 2;
    (with_inc.min(cap as u128) as u64).max(1)
}

fn go(e: &mut Engine, limits: Limits) {
    e.stop = Arc::new(AtomicBool::new(false));
    let stop = e.stop.clone();
    let searcher = e.searcher.clone();
    let pos = e.pos;
    e.thinking = Some(std::thread::spawn(move || {
        let mut s = searcher.lock().expect("searcher");
        let mut last_depth = 0;
        let r = s.search(&pos, &limits, &stop, &mut |i| {
            if i.depth > last_depth {
                last_depth = i.depth;
                say(&info_line(i));
            }
        });
        match r.best {
            Some(m) => say(&format!("bestmove {}", pos.move_to_text(m))),
            None => say("bestmove 0000"),
        }
    }));
}

fn display(p: &Ataxx) {
    let mut s = String::new();
    for r in (0..7u8).rev() {
        s.push_str(&format!(" {} ", r + 1));
        for f in 0..7u8 {
            s.push(match p.cell(crate::game::Square::new(f, r)) {
                crate::game::Cell::Piece(Side::Black) => 'x',
                crate::game::Cell::Piece(Side::White) => 'o',
                crate::game::Cell::Blocked => '-',
                crate::game::Cell::Empty => '.',
            });
            s.push(' ');
        }
        s.push('\n');
    }
    s.push_str("   a b c d e f g\n");
    let [x, o] = p.piece_counts();
    s.push_str(&format!(
        "fen {}\nside {}  x {x}  o {o}",
        p.to_text(),
        if p.side_to_move() == Side::Black {
            "x"
        } else {
            "o"
        }
    ));
    say(&s);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setoption_takes_name_and_value_in_either_order() {
        let p = |t: &str| parse_setoption(&t.split_whitespace().collect::<Vec<_>>());
        assert_eq!(
            p("name Hash value 8"),
            Ok(("Hash".into(), Some("8".into())))
        );
        assert_eq!(
            p("value 8 name Hash"),
            Ok(("Hash".into(), Some("8".into())))
        );
        assert_eq!(
            p("name Clear Hash"),
            Ok(("Clear Hash".into(), None)),
            "a button has no value"
        );
        assert_eq!(
            p("value 1 2 name Some Option"),
            Ok(("Some Option".into(), Some("1 2".into())))
        );
        assert!(p("").is_err());
        assert!(p("value 8").is_err());
        assert!(p("Hash 8").is_err());
        assert!(p("name").is_err());
    }

    #[test]
    fn clocks_never_overflow() {
        // 100 s on the clock, 25 moves expected: 4 s
        assert_eq!(clock_budget(100_000, 0, None), 4_000);
        // 10 moves to go: 100/11 s, plus three quarters of the 2 s increment
        assert_eq!(clock_budget(100_000, 2_000, Some(10)), 9_090 + 1_500);
        // never more than half the clock less 20 ms
        assert_eq!(clock_budget(300, 10_000, None), 140);
        assert_eq!(clock_budget(0, 0, None), 1);
        let huge = clock_budget(u64::MAX, u64::MAX, Some(u64::MAX));
        assert_eq!(huge, (u64::MAX - 20) / 2);
        let l = parse_go(
            &[
                "wtime",
                "18446744073709551615",
                "winc",
                "99999999999999999999999",
            ],
            Side::White,
        )
        .unwrap();
        assert_eq!(l.time, Some(Duration::from_millis((u64::MAX - 20) / 2)));
        let l = parse_go(
            &["movetime", "99999999999999999999", "depth", "3"],
            Side::Black,
        )
        .unwrap();
        assert_eq!(l.time, Some(Duration::from_millis(u64::MAX)));
        assert_eq!(l.depth, Some(3));
        // a movetime under the clock's budget stays
        let l = parse_go(&["btime", "100000", "movetime", "50"], Side::Black).unwrap();
        assert_eq!(l.time, Some(Duration::from_millis(50)));
        assert!(parse_go(&["movetime", "soon"], Side::Black).is_err());
        assert_eq!(parse_go(&["infinite"], Side::Black), Ok(Limits::default()));
    }
}
