//! GTP version 2 for Go (`qi-engine gtp`): the standard commands, `list_stones`, handicap,
//! `loadsgf` and scoring with the dead-stone estimate. `genmove` answers with the Monte Carlo
//! tree search of [`GoCpu`] (level 6 by default); `kgs-genmove_cleanup` plays in clean-up mode
//! (no pass until the board as it stands wins under Tromp-Taylor scoring, so dead stones get
//! captured first; never resigns).
//!
//! Move time: from `time_settings`/`kgs-time_settings`/`time_left` when the controller sends
//! them ([`crate::ai::go::time`]: the main time left shared over the moves still expected, more
//! in the opening and in close fights, a reserve kept; or the byo-yomi period over its stones
//! less a margin), else the `qi-movetime` setting (1000 ms unless changed; at least 75% of it
//! is used). Extensions: `qi-level <1-6>`,
//! `qi-movetime <ms>`, `qi-playouts <n>` (a playout cap a move, 0 = the level's), `qi-threads <n>`,
//! `qi-seed <n>` (the seed the next searches start from, so that parallel matches between
//! playout-bound players do not repeat each other's games).
//!
//! Every reply is `=[id] result` or `?[id] error` followed by an empty line. Garbage, unknown
//! commands, illegal moves, lines that are not UTF-8 text and lines longer than
//! [`super::MAX_LINE_BYTES`] get `? <reason>` and the engine goes on. Times saturate: a
//! `time_left` of `u64::MAX` seconds is a very long time, not an overflow.

use std::io::{self, BufRead, Write};

use crate::game::{Game, Side, Square};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::ai::go::GoCpu;
use crate::ai::go::time::{self, Clock, MoveTime};
use crate::any::CHECKPOINT_EVERY;
use crate::go::{self, Go, handicap_points, vertex_text};
use crate::search::MAX_TIME;
use crate::sgf::GameRecord;

/// Every command the engine knows, in the order `list_commands` gives them.
pub const COMMANDS: [&str; 31] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "final_status_list",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "loadsgf",
    "time_settings",
    "time_left",
    "kgs-time_settings",
    "list_stones",
    "get_komi",
    "estimate_score",
    "kgs-genmove_cleanup",
    "qi-level",
    "qi-movetime",
    "qi-playouts",
    "qi-threads",
    "qi-seed",
];

/// Time settings as the controller gave them (seconds): Canadian byo-yomi (`time_settings`,
/// `kgs-time_settings canadian`), or Japanese with `periods` periods of one stone
/// (`kgs-time_settings byoyomi`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    pub main: u64,
    pub byo_yomi: u64,
    pub byo_stones: u64,
    /// Japanese byo-yomi periods; 0: Canadian.
    pub periods: u64,
}

/// The state of one GTP session.
pub struct GtpEngine {
    pos: Go,
    /// For `undo`: the position the moves since the last `clear_board`, `boardsize`, handicap
    /// or `loadsgf` start from, those moves (who played, what), and the position after every
    /// [`CHECKPOINT_EVERY`] of them (not a copy of the game per move: a Go position carries its
    /// superko history, so that took memory in the square of the game's length).
    base: Go,
    moves: Vec<(Side, go::Move)>,
    checkpoints: Vec<Go>,
    cpu: GoCpu,
    /// Move time without time settings.
    pub movetime: Duration,
    seed: u64,
    pub time: TimeControl,
    /// `time_left` per side: seconds and stones.
    pub time_left: [Option<(u64, u64)>; 2],
    quit: bool,
}

impl Default for GtpEngine {
    fn default() -> Self {
        GtpEngine::new()
    }
}

type Reply = Result<String, String>;

fn parse_color(t: &str) -> Result<Side, String> {
    match t.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Side::Black),
        "w" | "white" => Ok(Side::White),
        _ => Err(format!("syntax error: '{t}' is not a color")),
    }
}

fn color_name(s: Side) -> &'static str {
    if s == Side::Black { "black" } else { "white" }
}

impl GtpEngine {
    /// A 19×19 board with komi 7.5.
    pub fn new() -> GtpEngine {
        GtpEngine {
            pos: Go::start(),
            base: Go::start(),
            moves: Vec::new(),
            checkpoints: Vec::new(),
            cpu: GoCpu::new(6),
            movetime: Duration::from_millis(1000),
            seed: 0x6770,
            time: TimeControl::default(),
            time_left: [None, None],
            quit: false,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Go {
        &self.pos
    }

    /// Whether `quit` was received.
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    /// Handles one input line; returns the full reply (ending in an empty line), or `None` for
    /// a line that is empty or only a comment.
    pub fn handle_line(&mut self, raw: &str) -> Option<String> {
        // control characters other than tab and newline go; tabs are spaces; '#' starts a
        // comment
        let clean: String = raw
            .chars()
            .filter(|&c| !c.is_control() || c == '\t')
            .map(|c| if c == '\t' { ' ' } else { c })
            .collect();
        let line = clean.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            return None;
        }
        let mut words = line.split_whitespace();
        let first = words.next()?;
        let (id, cmd) = if first.bytes().all(|b| b.is_ascii_digit()) {
            match words.next() {
                Some(c) => (first.to_string(), c),
                None => {
                    return Some(format!(
                        "?{first} syntax error: no command after the id\n\n"
                    ));
                }
            }
        } else {
            (String::new(), first)
        };
        let args: Vec<&str> = words.collect();
        let reply = self.run(cmd, &args);
        Some(match reply {
            Ok(text) if text.is_empty() => format!("={id}\n\n"),
            Ok(text) if text.starts_with('\n') => format!("={id}{text}\n\n"),
            Ok(text) => format!("={id} {text}\n\n"),
            Err(msg) => format!("?{id} {msg}\n\n"),
        })
    }

    fn run(&mut self, cmd: &str, args: &[&str]) -> Reply {
        let arg = |i: usize| -> Result<&str, String> {
            args.get(i)
                .copied()
                .ok_or_else(|| format!("syntax error: {cmd} needs more arguments"))
        };
        let num = |i: usize| -> Result<u64, String> {
            let t = arg(i)?;
            t.parse()
                .map_err(|_| format!("syntax error: '{t}' is not a number"))
        };
        // times: saturating at u64::MAX rather than refused
        let time = |i: usize| -> Result<u64, String> {
            let t = arg(i)?;
            super::parse_saturating(t).ok_or_else(|| format!("syntax error: '{t}' is not a number"))
        };
        match cmd {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("Qi".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Ok(COMMANDS.contains(&arg(0)?).to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => {
                self.quit = true;
                Ok(String::new())
            }
            "boardsize" => {
                let n = num(0)?;
                if !(go::MIN_SIZE as u64..=go::MAX_SIZE as u64).contains(&n) {
                    return Err("unacceptable size".into());
                }
                self.pos = Go::new(n as u8, self.pos.komi()).map_err(|e| e.0)?;
                self.new_base();
                self.cpu.new_game();
                Ok(String::new())
            }
            "clear_board" => {
                self.pos = Go::new(self.pos.size(), self.pos.komi()).map_err(|e| e.0)?;
                self.new_base();
                self.cpu.new_game();
                Ok(String::new())
            }
            "komi" => {
                let t = arg(0)?;
                let k: f32 = t
                    .parse()
                    .map_err(|_| format!("syntax error: komi '{t}' is not a number"))?;
                self.pos.set_komi(k).map_err(|e| e.0)?;
                for p in std::iter::once(&mut self.base).chain(&mut self.checkpoints) {
                    let _ = p.set_komi(k);
                }
                Ok(String::new())
            }
            "get_komi" => Ok(go::komi_text(self.pos.komi())),
            "play" => {
                let side = parse_color(arg(0)?)?;
                let mv = self
                    .pos
                    .parse_move(arg(1)?)
                    .map_err(|e| format!("syntax error: {e}"))?;
                self.play(side, mv).map(|_| String::new())
            }
            "genmove" | "kgs-genmove_cleanup" => {
                let side = parse_color(arg(0)?)?;
                let mut p = self.pos.clone();
                p.set_to_move(side);
                if p.is_over() && p.resigned().is_none() {
                    p.resume();
                }
                self.cpu.set_cleanup(cmd == "kgs-genmove_cleanup");
                let time = self.move_time(&p);
                self.seed = self.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let stop = Arc::new(AtomicBool::new(false));
                let r = self
                    .cpu
                    .choose_timed(&p, time, &stop, self.seed, &mut |_| {});
                let (n, t) = self.cpu.last_playouts();
                eprintln!(
                    "qi: {} playouts in {:.2} s ({:.0}/s), win rate {:.1}%, pv {}",
                    n,
                    t.as_secs_f64(),
                    n as f64 / t.as_secs_f64().max(1e-6),
                    (r.score + 5000) as f64 / 100.0,
                    r.info.pv.join(" ")
                );
                if self.cpu.resigns() {
                    return Ok("resign".into());
                }
                let mv = r.best.unwrap_or(go::PASS);
                self.play(side, mv)?;
                Ok(self.pos.move_to_text(mv))
            }
            "qi-level" => {
                let n = num(0)?;
                if !(1..=6).contains(&n) {
                    return Err("level is 1 to 6".into());
                }
                self.cpu.set_level(n as u8);
                Ok(String::new())
            }
            "qi-movetime" => {
                self.movetime = Duration::from_millis(time(0)?.max(1));
                Ok(String::new())
            }
            "qi-playouts" => {
                let n = num(0)?;
                self.cpu.set_playouts(if n == 0 { None } else { Some(n) });
                Ok(String::new())
            }
            "qi-seed" => {
                self.seed = num(0)?;
                Ok(String::new())
            }
            "qi-threads" => {
                self.cpu.set_threads(num(0)?.clamp(1, 64) as usize);
                Ok(String::new())
            }
            "undo" => {
                if self.moves.pop().is_none() {
                    return Err("cannot undo".into());
                }
                self.pos = self.rebuild();
                Ok(String::new())
            }
            "showboard" => Ok(format!("\n{}", self.pos.diagram())),
            "final_score" | "estimate_score" => {
                let dead = self.pos.estimate_dead();
                let s = self.pos.score_with_dead(&dead);
                Ok(if s.margin() == 0.0 {
                    "0".into()
                } else {
                    s.result_text()
                })
            }
            "final_status_list" => {
                let want = arg(0)?.to_ascii_lowercase();
                if !["alive", "dead", "seki"].contains(&want.as_str()) {
                    return Err(format!("syntax error: unknown status '{want}'"));
                }
                Ok(self.status_list(&want))
            }
            "fixed_handicap" => {
                let n = num(0)?;
                let pts = handicap_points(self.pos.size(), n.min(255) as u8)
                    .map_err(|e| format!("invalid number of stones: {e}"))?;
                self.set_handicap(&pts)
            }
            "place_free_handicap" => {
                let n = num(0)? as usize;
                let total = (self.pos.size() as usize).pow(2);
                if n < 2 || n >= total {
                    return Err("invalid number of stones".into());
                }
                let pts = free_handicap_points(self.pos.size(), n);
                self.set_handicap(&pts)
            }
            "set_free_handicap" => {
                if args.is_empty() {
                    return Err("syntax error: set_free_handicap needs vertices".into());
                }
                let mut pts = Vec::new();
                for t in args {
                    let sq = go::parse_vertex(t, self.pos.size())
                        .map_err(|e| format!("bad vertex list: {e}"))?;
                    if pts.contains(&sq) {
                        return Err(format!("bad vertex list: {t} is given twice"));
                    }
                    pts.push(sq);
                }
                self.set_handicap(&pts).map(|_| String::new())
            }
            "loadsgf" => {
                let file = arg(0)?;
                let stop = match args.get(1) {
                    None => None,
                    Some(_) => Some(num(1)? as usize),
                };
                self.load_sgf(file, stop)
            }
            "time_settings" => {
                self.time = TimeControl {
                    main: time(0)?,
                    byo_yomi: time(1)?,
                    byo_stones: time(2)?,
                    periods: 0,
                };
                self.time_left = [None, None];
                Ok(String::new())
            }
            "kgs-time_settings" => {
                self.time = match arg(0)? {
                    "none" => TimeControl::default(),
                    "absolute" => TimeControl {
                        main: time(1)?,
                        ..TimeControl::default()
                    },
                    "byoyomi" => TimeControl {
                        main: time(1)?,
                        byo_yomi: time(2)?,
                        byo_stones: 1,
                        periods: time(3)?,
                    },
                    "canadian" => TimeControl {
                        main: time(1)?,
                        byo_yomi: time(2)?,
                        byo_stones: time(3)?,
                        periods: 0,
                    },
                    other => return Err(format!("syntax error: unknown time system '{other}'")),
                };
                self.time_left = [None, None];
                Ok(String::new())
            }
            "time_left" => {
                let side = parse_color(arg(0)?)?;
                self.time_left[side.index()] = Some((time(1)?, time(2)?));
                Ok(String::new())
            }
            "list_stones" => {
                let side = parse_color(arg(0)?)?;
                let n = self.pos.size();
                let mut v = Vec::new();
                for y in 0..n {
                    for x in 0..n {
                        let sq = Square::new(x, y);
                        if self.pos.cell(sq) == crate::game::Cell::Piece(side) {
                            v.push(vertex_text(sq));
                        }
                    }
                }
                Ok(v.join(" "))
            }
            _ => Err(format!("unknown command '{cmd}'")),
        }
    }

    /// The most time `genmove` would give `side` now (see [`GtpEngine::planned_time`]).
    pub fn planned_move_time(&self, side: Side) -> Duration {
        self.planned_time(side).max
    }

    /// The time `genmove` would give `side` now (see [`GtpEngine::move_time`]).
    pub fn planned_time(&self, side: Side) -> MoveTime {
        let mut p = self.pos.clone();
        p.set_to_move(side);
        self.move_time(&p)
    }

    /// The clock of the side to move in `p` as the controller stated it: `time_left` if sent
    /// (no stones: main time left; stones: in byo-yomi, the time left for them), else the
    /// settings. `None` without time settings.
    fn clock(&self, p: &Go) -> Option<Clock> {
        let tc = self.time;
        let secs = |s: u64| Duration::from_secs(s.min(MAX_TIME.as_secs()));
        let clamp = |n: u64| n.min(u32::MAX as u64) as u32;
        // Japanese byo-yomi: one stone a period (the other periods are the reserve)
        let stones = |n: u64| if tc.periods > 0 { 1 } else { clamp(n) };
        let byo = |period: u64| {
            if period > 0 && tc.byo_stones > 0 {
                (secs(period), stones(tc.byo_stones))
            } else {
                (Duration::ZERO, 0)
            }
        };
        let (main, (period, n)) = match self.time_left[p.side_to_move().index()] {
            Some((left, st)) if st > 0 => (Duration::ZERO, (secs(left), stones(st))),
            Some((left, _)) => (secs(left), byo(tc.byo_yomi)),
            None if tc.main > 0 || (tc.byo_yomi > 0 && tc.byo_stones > 0) => {
                (secs(tc.main), byo(tc.byo_yomi))
            }
            None => return None,
        };
        Some(Clock {
            main,
            period,
            stones: n,
            increment: Duration::ZERO,
        })
    }

    /// The time for the next move from the clock ([`time::allocate`]: the byo-yomi period
    /// over its stones less a margin, or the main time left over the moves still expected, more
    /// in the opening, up to three times that for a close choice, a reserve always kept).
    /// Without time settings, [`GtpEngine::movetime`] (at least 75% of it used).
    fn move_time(&self, p: &Go) -> MoveTime {
        let stones = p.piece_counts();
        let size = p.size() as usize;
        let empty = (size * size).saturating_sub((stones[0] + stones[1]) as usize);
        self.clock(p)
            .and_then(|c| time::allocate(&c, p.size(), empty, p.history_len()))
            .unwrap_or_else(|| MoveTime::fixed(self.movetime.min(MAX_TIME)))
    }

    fn play(&mut self, side: Side, mv: go::Move) -> Result<(), String> {
        let mut p = self.pos.clone();
        if !step(&mut p, side, mv) {
            return Err("illegal move".into());
        }
        self.pos = p;
        self.record_move(side, mv);
        Ok(())
    }

    /// Notes a move just played in `self.pos`, for `undo`.
    fn record_move(&mut self, side: Side, mv: go::Move) {
        self.moves.push((side, mv));
        if self.moves.len().is_multiple_of(CHECKPOINT_EVERY) {
            self.checkpoints.push(self.pos.clone());
        }
    }

    /// The position now becomes the one `undo` goes back to at most.
    fn new_base(&mut self) {
        self.base = self.pos.clone();
        self.moves.clear();
        self.checkpoints.clear();
    }

    /// The position after `self.moves`, replayed from the last checkpoint at or before it.
    fn rebuild(&mut self) -> Go {
        let n = self.moves.len();
        self.checkpoints.truncate(n / CHECKPOINT_EVERY);
        let from = self.checkpoints.len() * CHECKPOINT_EVERY;
        let mut p = self.checkpoints.last().unwrap_or(&self.base).clone();
        for &(side, mv) in &self.moves[from..] {
            let ok = step(&mut p, side, mv);
            debug_assert!(ok, "a move that was legal replays");
        }
        p
    }

    fn set_handicap(&mut self, pts: &[Square]) -> Reply {
        if self.pos.piece_counts() != [0, 0] || !self.moves.is_empty() {
            return Err("board not empty".into());
        }
        let mut p = self.pos.clone();
        p.set_handicap_stones(pts)
            .map_err(|e| format!("bad vertex list: {e}"))?;
        self.pos = p;
        self.new_base();
        Ok(pts
            .iter()
            .map(|&s| vertex_text(s))
            .collect::<Vec<_>>()
            .join(" "))
    }

    /// Stones by status, one chain per line: dead from the estimate, seki for live chains whose
    /// liberties all lie in dame, alive for the rest.
    fn status_list(&self, want: &str) -> String {
        let dead = self.pos.estimate_dead();
        let score = self.pos.score_with_dead(&dead);
        let n = self.pos.size() as usize;
        let mut lines = Vec::new();
        let mut seen = vec![false; go::POINTS];
        for p in self.pos.points() {
            if self.pos.stone_at(p).is_none() || seen[p] {
                continue;
            }
            let chain = self.pos.chain_points(p);
            for &s in &chain {
                seen[s] = true;
            }
            let sq = Go::square_of(p as go::Move).expect("a point");
            let status = if dead.contains(&sq) {
                "dead"
            } else if self.pos.liberty_points(p).iter().all(|&l| {
                let ls = Go::square_of(l as go::Move).expect("a point");
                score.owner[ls.y as usize * n + ls.x as usize].is_none()
            }) {
                "seki"
            } else {
                "alive"
            };
            if status == want {
                let mut v: Vec<Square> = chain
                    .iter()
                    .filter_map(|&s| Go::square_of(s as go::Move))
                    .collect();
                v.sort();
                lines.push(v.into_iter().map(vertex_text).collect::<Vec<_>>().join(" "));
            }
        }
        if lines.is_empty() {
            String::new()
        } else {
            format!("\n{}", lines.join("\n"))
        }
    }

    fn load_sgf(&mut self, file: &str, stop: Option<usize>) -> Reply {
        // the one size cap of every record (checked before the file is read)
        let text = match crate::storage::read_text(std::path::Path::new(file)) {
            Ok(Some(t)) => t,
            Ok(None) => return Err(format!("cannot load file '{file}': no such file")),
            Err(e) => return Err(format!("cannot load file '{file}': it {e}")),
        };
        let rec = GameRecord::from_sgf(&text).map_err(|e| format!("cannot load file: {e}"))?;
        let (start, moves) = rec
            .replay_go()
            .map_err(|e| format!("cannot load file: {e}"))?;
        let sides: Vec<Side> = rec.moves().map(|(s, _)| s).collect();
        let upto = match stop {
            Some(k) => k.saturating_sub(1).min(moves.len()),
            None => moves.len(),
        };
        self.pos = start;
        self.new_base();
        for i in 0..upto {
            // the record's replay checked every move: play them in place, no copy a move
            if !step(&mut self.pos, sides[i], moves[i]) {
                // (the replay and GTP play by the same rules: not expected) the record's start
                self.pos = self.base.clone();
                self.new_base();
                return Err(format!("cannot load file: move {}: illegal move", i + 1));
            }
            self.record_move(sides[i], moves[i]);
        }
        // the side to move after the last move played, or the record's next mover
        if let Some(&next) = sides.get(upto) {
            self.pos.set_to_move(next);
            // a position kept at this very move is the one `undo` must come back to
            if upto == 0 {
                self.base = self.pos.clone();
            } else if upto.is_multiple_of(CHECKPOINT_EVERY) {
                self.checkpoints.pop();
                self.checkpoints.push(self.pos.clone());
            }
        }
        Ok(color_name(self.pos.side_to_move()).into())
    }
}

/// Plays `mv` for `side` in `p` as GTP `play` does: whoever is to move, `side` plays, and a
/// game ended by two passes goes on. Returns false for an illegal move (`p` may then have
/// changed hands: callers step a copy).
fn step(p: &mut Go, side: Side, mv: go::Move) -> bool {
    p.set_to_move(side);
    if p.is_over() && p.resigned().is_none() {
        p.resume();
    }
    if !p.is_legal(mv) {
        return false;
    }
    p.make(mv);
    true
}

/// `n` free handicap points: the fixed ones as far as they go, then points on the third and
/// fourth lines and inside, each as far as possible from the stones already chosen.
pub fn free_handicap_points(size: u8, n: usize) -> Vec<Square> {
    let max_fixed = (2..=9u8)
        .rev()
        .find(|&k| handicap_points(size, k).is_ok())
        .unwrap_or(0);
    let mut pts = if max_fixed >= 2 {
        handicap_points(size, (n as u8).min(max_fixed)).unwrap_or_default()
    } else {
        Vec::new()
    };
    let margin = if size >= 9 { 2 } else { 1 };
    while pts.len() < n {
        let mut best: Option<(u32, Square)> = None;
        for y in 0..size {
            for x in 0..size {
                let sq = Square::new(x, y);
                if pts.contains(&sq) {
                    continue;
                }
                let inner = x >= margin && y >= margin && x + margin < size && y + margin < size;
                let d = pts
                    .iter()
                    .map(|p| (p.x.abs_diff(x) as u32) + (p.y.abs_diff(y) as u32))
                    .min()
                    .unwrap_or(u32::MAX / 2);
                let key = if inner { d * 2 + 1 } else { d * 2 };
                if best.is_none_or(|(b, _)| key > b) {
                    best = Some((key, sq));
                }
            }
        }
        match best {
            Some((_, sq)) => pts.push(sq),
            None => break,
        }
    }
    pts
}

/// Runs a GTP session from `input` to `output` until `quit` or the end of input.
pub fn run_gtp<R: BufRead, W: Write>(input: R, mut output: W) -> io::Result<()> {
    let mut engine = GtpEngine::new();
    let mut input = input;
    while let Some(line) = super::read_input_line(&mut input)? {
        let reply = match line {
            super::InputLine::Text(text) => engine.handle_line(&text),
            super::InputLine::NotUtf8(lossy) => Some(format!(
                "?{} syntax error: the line is not UTF-8 text\n\n",
                command_id(&lossy)
            )),
            super::InputLine::TooLong => Some(format!(
                "? syntax error: the line is longer than {} bytes\n\n",
                super::MAX_LINE_BYTES
            )),
        };
        if let Some(reply) = reply {
            output.write_all(reply.as_bytes())?;
            output.flush()?;
        }
        if engine.has_quit() {
            break;
        }
    }
    Ok(())
}

/// The id a command line starts with (digits), or nothing.
fn command_id(line: &str) -> &str {
    let first = line.split_whitespace().next().unwrap_or("");
    if !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()) {
        first
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_points_extend_the_fixed_ones() {
        let p = free_handicap_points(19, 12);
        assert_eq!(p.len(), 12);
        let mut q = p.clone();
        q.sort();
        q.dedup();
        assert_eq!(q.len(), 12);
        assert_eq!(&p[..9], &handicap_points(19, 9).unwrap()[..]);
        assert_eq!(free_handicap_points(5, 3).len(), 3);
    }
}
