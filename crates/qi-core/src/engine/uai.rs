//! `qi-engine uai`: the UAI protocol (UCI with Ataxx positions and moves) for Ataxx GUIs and
//! tournament tools.
//!
//! Commands: `uai`, `isready`, `uainewgame`, `setoption name Hash value N`,
//! `position startpos|fen <fen> [moves …]`, `go [movetime|depth|nodes|infinite|btime|wtime|
//! binc|winc|movestogo …]`, `stop`, `quit`, and the extras `perft N` and `d`. The search runs on
//! its own thread so that `stop` and `isready` are answered while it thinks. A line the engine
//! cannot use gets an `info string error: …` line and is otherwise ignored.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::ai::ataxx::AtaxxEval;
use crate::ataxx::Ataxx;
use crate::game::{Game, Side, perft};
use crate::search::ataxx::AtaxxSearcher;
use crate::search::{Limits, MATE, SearchInfo, is_decided};

const DEFAULT_HASH_MB: usize = 64;

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
    };
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| e.to_string())?;
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else {
            continue;
        };
        match cmd {
            "uai" | "uci" => {
                say("id name Qi");
                say("id author the Qi developers");
                say("option name Hash type spin default 64 min 1 max 4096");
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
                    Ok(limits) => go(&mut e, limits),
                    Err(msg) => error(&msg),
                }
            }
            "stop" => e.finish_search(),
            "quit" => {
                e.finish_search();
                return Ok(());
            }
            "perft" => match words.get(1).and_then(|d| d.parse::<u32>().ok()) {
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
            _ => error(&format!("unknown command '{}'", line.trim())),
        }
    }
    e.wait_search();
    Ok(())
}

fn setoption(e: &mut Engine, words: &[&str]) {
    // setoption name <id> [value <x>]
    let name_at = words.iter().position(|w| w.eq_ignore_ascii_case("name"));
    let value_at = words.iter().position(|w| w.eq_ignore_ascii_case("value"));
    let Some(n) = name_at else {
        error("setoption needs 'name <option> value <value>'");
        return;
    };
    let name = words[n + 1..value_at.unwrap_or(words.len())].join(" ");
    let value = value_at.map(|v| words[v + 1..].join(" "));
    match (name.to_ascii_lowercase().as_str(), value) {
        ("hash", Some(v)) => match v.parse::<usize>() {
            Ok(mb) if (1..=4096).contains(&mb) => {
                e.searcher.lock().expect("searcher").set_hash_mb(mb)
            }
            _ => error(&format!("Hash must be 1-4096 MB, not '{v}'")),
        },
        ("threads", Some(v)) => {
            if v != "1" {
                error("this engine searches on one thread");
            }
        }
        (other, _) => error(&format!("unknown option '{other}' or missing value")),
    }
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

/// The limits of a `go` command; the clock of `x` is `btime`.
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
        let num: u64 = val
            .parse::<i64>()
            .map_err(|_| format!("go: '{key} {val}' is not a number"))?
            .max(0) as u64;
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
        let share = match mtg {
            Some(n) => c / (n + 1),
            None => c / 25,
        };
        let budget = (share + inc * 3 / 4).min(c.saturating_sub(20) / 2).max(1);
        limits.time =
            Some(Duration::from_millis(limits.time.map_or(budget, |t| {
                t.as_millis().min(budget as u128) as u64
            })));
    }
    Ok(limits)
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
