//! `qi-engine gomocup`: the Gomocup (Piskvork) protocol on stdin/stdout, played at level 6.
//!
//! Commands: `START n`, `RECTSTART w,h` (square boards only), `BEGIN`, `TURN x,y`,
//! `BOARD` … `x,y,who` … `DONE`, `INFO key value` (`timeout_turn`, `timeout_match`,
//! `time_left`, `max_memory`, `rule`: 0 freestyle, 1 exactly five, 4 renju; others are
//! accepted and ignored), `RESTART`, `TAKEBACK x,y`, `ABOUT`, `END`. Moves are written `x,y`
//! (0-based, `y` from the top). Search reports go out as `MESSAGE` lines, and anything that
//! cannot be understood (garbage, a line that is not UTF-8 text, a line longer than
//! [`super::MAX_LINE_BYTES`]) gets an `ERROR` line; the engine keeps running.
//!
//! Time: a move gets 92% of `timeout_turn` less 20 ms (900 ms at 1 s a move; 85% less 30 ms
//! until session 45, when `qi-engine gomocup` answered 820-845 ms after the board at 1 s), and with
//! a match clock at most a fifteenth of `time_left`; `timeout_turn 0` means "play at once" (the
//! search stops at its first check and answers its best so far). Numbers saturate.
//!
//! The search is level 6's for the session's rule (since session 53 the app's level 6 is
//! this search; until then `gomocup` added the settings below to the app's level, which
//! searched with a fixed beam to depth 11 with the line score), bound by the clock: a node
//! budget of 5,000 a millisecond of the move's time (300,000 to 100,000,000; the 2,000 of
//! before came close to binding at 1 s a move on a quiet machine) only keeps huge move
//! times finite; it starts new depths until 75% of the move's time is gone ([`SPEND`]),
//! searches only the exact answers where the opponent threatens (pruning by threat
//! type), searches with the selectivity by remaining depth ([`SELECT`], with its own
//! reductions) instead of a fixed beam, ends its lines in
//! a quiescence of fours near the side's own last stone instead of a leaf VCF, counts a
//! four-three point as a win where the opponent has no four ([`WIN43`], [`QVCF`]), and
//! evaluates with the learned pattern evaluation ([`crate::ai::gomoku::patterns`]) instead of
//! the line score (under renju too since session 43), and where the opponent would win
//! by a VCF or a VCT were it to pass, checks every root move that is about to become the best
//! for such a win after it ([`VERIFY`] nodes; session 45). Under the rules of [`AB_RULES`]
//! (freestyle since session 50, renju since session 51) the main search after the root's
//! steps is the `ab` module's, after the whole shape of Rapfi's, with Rapfi's history
//! ordering, and in freestyle ([`NO_P33_RULES`]) without narrowing to the answers of an
//! opponent's three-three point and, since session 58 ([`WIDE_RULES`]), with candidates from
//! Rapfi's wider `square3_line4` range; under renju a Black open-four point that is forbidden is no
//! threat there (`Config::open4_allowed`, session 52). Its
//! transposition table ([`HASH_MB`], 16 MB, or half of `max_memory` where that is less) is
//! kept from move to move within a game, also when the manager
//! sends the whole board with `BOARD` every move (as `qi-engine match` does): the table is
//! only emptied when the new board is not the old one with stones added, or the rule changes.
//!
//! `qi-engine gomocup --set key=value,...` changes search settings for experiments (the keys
//! of `qi-engine match`'s Gomoku settings, e.g. `select=0` for session 23's search, and
//! `hash`, the table's megabytes).
//!
//! Piskvork starts engines as `pbrain-<name>` with no arguments: `qi-engine` copied or linked
//! under such a name speaks this protocol straight away.

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::ai::gomoku::search::{Config, Search};
pub use crate::ai::gomoku::{
    AB_RULES, NO_P33_RULES, QVCF, SELECT, SPEND, VERIFY, WIDE_RULES, WIN43,
};
use crate::ai::gomoku::{GomokuEval, search_ms};
use crate::game::{Game, Side, Square};
use crate::gomoku::{Gomoku, GomokuRule, MAX_SIZE, MIN_SIZE, move_square};
use crate::search::tt::MAX_HASH_MB;
use crate::search::{Limits, MATE_BOUND, SearchInfo};

/// Whether `qi-engine gomocup` answers the opponent's faster threats first
/// ([`Session::fast_first`]) unless told otherwise: off, since it gained nothing in session
/// 22's matches (self-play at 200 ms a move 49-2-49 against the build before; against Rapfi
/// at 1 s a move 6-0-34 and 4-0-36, where the build before scored 5-0-35 in between, load
/// 2.8-4.8), though it leaves out fewer moves that hold (see the `defence` module of the
/// search).
pub const FAST_FIRST: bool = false;

/// The transposition table's size in megabytes unless told otherwise (`--set hash=N`), or
/// half of the manager's `max_memory` where that is smaller (at least 1). A 1 s move fills
/// it: on positions of games against Rapfi, searches of 3 s with 128 MB reached a depth more
/// than with 16 MB in 4 of 10 and never one less. But against Rapfi at 1 s a move (session 46,
/// the openings files, load about 2) 64 MB scored renju 13-0-27, 9-0-31, 9-0-31 and 10-0-30
/// (25.6% in 160 games) and freestyle 5-0-35 (a build and tests beside it), 9-1-30 and
/// 9-1-30 (20.0% in 120), where 16 MB had scored 28.8% and 22.8% in 160 games each in
/// session 45: no gain, so 16 MB stays. Rapfi's default is 32 MB.
pub const HASH_MB: usize = 16;

/// The node budget a millisecond of the move's time: above the speed of the search (about
/// 1.8 M nodes a second on a quiet machine), so that the clock binds, not the budget.
const NODES_PER_MS: u64 = 5_000;

/// A Gomocup session: the board as the manager sees it (own stones and the opponent's, in the
/// order played) and the time settings.
pub struct Session {
    size: Option<u8>,
    rule: GomokuRule,
    /// (point, own stone)
    stones: Vec<(Square, bool)>,
    timeout_turn: u64,
    timeout_match: u64,
    time_left: Option<u64>,
    max_memory: u64,
    /// Level 6's search, its table kept from move to move within a game.
    search: Search,
    seed: u64,
    /// Inside `BOARD` … `DONE`.
    reading_board: bool,
    /// The learned evaluation reads the line pattern weights too (`qi-engine gomocup
    /// --lines`; not under renju, which has no line weights).
    pub lines: bool,
    /// Against the opponent's faster threats, answer only those first
    /// ([`crate::ai::gomoku::search::Config::fast_first`]; `qi-engine gomocup --fast-first`).
    pub fast_first: bool,
    /// Level settings applied on top of the search settings (`qi-engine gomocup --set
    /// select=1,selk=80`: the keys of `qi-engine match`'s Gomoku settings).
    pub settings: Vec<(String, i32)>,
    /// The stones before the last `BOARD`: the table is kept when the new board only adds to
    /// them (a manager that sends the whole board every move, as `qi-engine match` does).
    board_before: Vec<(Square, bool)>,
}

impl Default for Session {
    fn default() -> Session {
        Session::new()
    }
}

impl Session {
    pub fn new() -> Session {
        Session {
            size: None,
            rule: GomokuRule::Freestyle,
            stones: Vec::new(),
            timeout_turn: 5000,
            timeout_match: 0,
            time_left: None,
            max_memory: 0,
            search: Search::new(Config::default(), HASH_MB),
            seed: 1,
            reading_board: false,
            lines: false,
            fast_first: FAST_FIRST,
            settings: Vec::new(),
            board_before: Vec::new(),
        }
    }

    /// Handles one input line, writing the replies; returns `false` after `END`.
    pub fn handle(&mut self, line: &str, out: &mut dyn Write) -> bool {
        let line = line.trim();
        if line.is_empty() {
            return true;
        }
        if self.reading_board {
            if line.eq_ignore_ascii_case("DONE") {
                self.reading_board = false;
                // the same game a few moves on: the table's entries still hold (they are keyed
                // by the position); another game: a fresh table
                if !self.board_before.iter().all(|s| self.stones.contains(s)) {
                    self.search.clear();
                }
                self.think(out);
            } else if let Err(e) = self.board_line(line) {
                say(out, &format!("ERROR {e}"));
            }
            return true;
        }
        let (cmd, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        match cmd.to_ascii_uppercase().as_str() {
            "START" => match rest.parse::<u32>() {
                Ok(n) if (MIN_SIZE as u32..=MAX_SIZE as u32).contains(&n) => {
                    self.size = Some(n as u8);
                    self.stones.clear();
                    self.search.clear();
                    say(out, "OK");
                }
                _ => say(
                    out,
                    &format!("ERROR unsupported size '{rest}' (from {MIN_SIZE} to {MAX_SIZE})"),
                ),
            },
            "RECTSTART" => {
                let dims: Vec<Option<u32>> =
                    rest.split(',').map(|p| p.trim().parse().ok()).collect();
                match dims.as_slice() {
                    [Some(w), Some(h)]
                        if w == h && (MIN_SIZE as u32..=MAX_SIZE as u32).contains(w) =>
                    {
                        self.size = Some(*w as u8);
                        self.stones.clear();
                        self.search.clear();
                        say(out, "OK");
                    }
                    _ => say(
                        out,
                        &format!("ERROR unsupported board '{rest}': square boards 5-19 only"),
                    ),
                }
            }
            "RESTART" => {
                if self.size.is_none() {
                    say(out, "ERROR RESTART before START");
                } else {
                    self.stones.clear();
                    self.search.clear();
                    say(out, "OK");
                }
            }
            "BEGIN" => {
                if self.size.is_none() {
                    say(out, "ERROR BEGIN before START");
                } else if !self.stones.is_empty() {
                    say(out, "ERROR BEGIN on a board that is not empty");
                } else {
                    self.think(out);
                }
            }
            "TURN" => match self.point(rest) {
                Ok(sq) => {
                    if self.stones.iter().any(|&(s, _)| s == sq) {
                        say(out, &format!("ERROR {rest} is already taken"));
                    } else {
                        self.stones.push((sq, false));
                        self.think(out);
                    }
                }
                Err(e) => say(out, &format!("ERROR {e}")),
            },
            "BOARD" => {
                if self.size.is_none() {
                    say(out, "ERROR BOARD before START");
                } else {
                    self.board_before = std::mem::take(&mut self.stones);
                    self.reading_board = true;
                }
            }
            "TAKEBACK" => match self.point(rest) {
                Ok(sq) => match self.stones.iter().position(|&(s, _)| s == sq) {
                    Some(i) => {
                        self.stones.remove(i);
                        say(out, "OK");
                    }
                    None => say(out, &format!("ERROR no stone on {rest}")),
                },
                Err(e) => say(out, &format!("ERROR {e}")),
            },
            "INFO" => {
                if let Err(e) = self.info(rest) {
                    say(out, &format!("ERROR {e}"));
                }
            }
            "ABOUT" => say(
                out,
                &format!(
                    "name=\"Qi\", version=\"{}\", author=\"Qi developers\", country=\"-\", www=\"-\"",
                    env!("CARGO_PKG_VERSION")
                ),
            ),
            "END" => return false,
            _ => {
                let shown: String = line.chars().take(60).collect();
                say(out, &format!("ERROR unknown command '{shown}'"));
            }
        }
        true
    }

    fn point(&self, text: &str) -> Result<Square, String> {
        let n = self.size.ok_or("no board yet: START first")?;
        let g = Gomoku::new(n, self.rule);
        let mv = g.parse_gomocup(text).map_err(|e| e.0)?;
        Ok(move_square(mv))
    }

    fn board_line(&mut self, line: &str) -> Result<(), String> {
        let parts: Vec<&str> = line.split(',').map(str::trim).collect();
        if parts.len() != 3 {
            return Err(format!("'{line}' is not x,y,who"));
        }
        let sq = self.point(&format!("{},{}", parts[0], parts[1]))?;
        let own = match parts[2] {
            "1" | "3" => true,
            "2" => false,
            other => return Err(format!("'{other}' is not 1, 2 or 3 in '{line}'")),
        };
        if self.stones.iter().any(|&(s, _)| s == sq) {
            return Err(format!("{},{} is given twice", parts[0], parts[1]));
        }
        self.stones.push((sq, own));
        Ok(())
    }

    fn info(&mut self, rest: &str) -> Result<(), String> {
        let (key, value) = rest
            .split_once(char::is_whitespace)
            .ok_or_else(|| format!("INFO '{rest}' needs a key and a value"))?;
        let value = value.trim();
        let num = || -> Result<u64, String> {
            super::parse_saturating(value)
                .ok_or_else(|| format!("INFO {key}: '{value}' is not a number"))
        };
        match key.to_ascii_lowercase().as_str() {
            "timeout_turn" => self.timeout_turn = num()?,
            "timeout_match" => self.timeout_match = num()?,
            "time_left" => self.time_left = Some(num()?),
            "max_memory" => self.max_memory = num()?,
            "rule" => {
                let r = num()?;
                let rule = if r & 4 != 0 {
                    GomokuRule::Renju
                } else if r & 1 != 0 {
                    GomokuRule::Standard
                } else {
                    GomokuRule::Freestyle
                };
                // (the table's values are the old rule's)
                if rule != self.rule {
                    self.search.clear();
                }
                self.rule = rule;
            }
            // game_type, evaluate, folder and the like need nothing from us
            _ => {}
        }
        Ok(())
    }

    /// The position with us to move: our colour follows from the stone counts.
    fn position(&self) -> Result<Gomoku, String> {
        let n = self.size.ok_or("no board yet: START first")?;
        let own = self.stones.iter().filter(|s| s.1).count();
        let theirs = self.stones.len() - own;
        let us = if own == theirs {
            Side::Black
        } else if theirs == own + 1 {
            Side::White
        } else {
            return Err(format!(
                "{own} own stones and {theirs} of the opponent's: not our turn"
            ));
        };
        let mut grid = vec![vec!['.'; n as usize]; n as usize];
        let ch = |s: Side| if s == Side::Black { 'x' } else { 'o' };
        for &(sq, mine) in &self.stones {
            let side = if mine { us } else { us.other() };
            grid[(n - 1 - sq.y) as usize][sq.x as usize] = ch(side);
        }
        let rows: Vec<String> = grid.iter().map(|r| r.iter().collect()).collect();
        let text = format!("{n} {} {} {}", self.rule.name(), rows.join("/"), ch(us));
        Gomoku::from_text(&text).map_err(|e| e.0)
    }

    /// The time for the next move (see the module doc).
    pub fn movetime(&self) -> Duration {
        let mut ms = self.timeout_turn;
        if let Some(left) = self.time_left
            && self.timeout_match > 0
        {
            ms = ms.min(left / 15);
        }
        if ms == 0 {
            // play at once
            return Duration::ZERO;
        }
        // room for the reply and the manager's own overhead
        Duration::from_millis(search_ms(ms).max(5))
    }

    /// The transposition table's size in megabytes: [`HASH_MB`] or the `hash` setting, at
    /// most half of `max_memory` (bytes; 0: no limit), at least 1.
    pub fn hash_mb(&self) -> usize {
        let mut mb = self
            .settings
            .iter()
            .rev()
            .find(|(k, _)| k == "hash")
            .map_or(HASH_MB, |&(_, v)| v.max(1) as usize);
        if self.max_memory > 0 {
            mb = mb.min(((self.max_memory / 2) >> 20) as usize);
        }
        mb.max(1)
    }

    /// The search settings of the next move: level 6's for the session's rule, bound by the
    /// clock (see the module doc).
    pub fn config(&self) -> Config {
        let t = self.movetime();
        let mut eval = GomokuEval::for_level(6, self.seed);
        eval.nodes = (t.as_millis() as u64)
            .saturating_mul(NODES_PER_MS)
            .clamp(300_000, 100_000_000);
        eval.fast_first = self.fast_first;
        // (the line weights are freestyle's only)
        if self.rule != GomokuRule::Renju {
            eval.lines = self.lines;
        }
        for (k, v) in &self.settings {
            // (checked when the session starts; the table's size is the session's own)
            if k != "hash" {
                let _ = <Gomoku as crate::engine::matches::Tunable>::tune(&mut eval, k, *v);
            }
        }
        eval.for_rule(self.rule).config(&Limits {
            time: Some(t),
            depth: None,
            nodes: None,
        })
    }

    fn think(&mut self, out: &mut dyn Write) {
        let pos = match self.position() {
            Ok(p) => p,
            Err(e) => {
                say(out, &format!("ERROR {e}"));
                return;
            }
        };
        if pos.outcome().is_some() {
            say(out, "ERROR the game is already over");
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        self.seed = self.seed.wrapping_add(1);
        let mut last: Option<SearchInfo> = None;
        self.search.cfg = self.config();
        self.search.set_table_size(self.hash_mb());
        let r = self
            .search
            .think(&pos, &stop, &mut |i| last = Some(i.clone()));
        if let Some(i) = last {
            let score = if i.score > MATE_BOUND {
                "win".to_string()
            } else if i.score < -MATE_BOUND {
                "loss".to_string()
            } else {
                i.score.to_string()
            };
            say(
                out,
                &format!(
                    "MESSAGE depth {} score {score} nodes {} time {} ms pv {}",
                    i.depth,
                    i.nodes,
                    i.elapsed.as_millis(),
                    i.pv.join(" ")
                ),
            );
        }
        match r.best {
            Some(m) => {
                self.stones.push((move_square(m), true));
                say(out, &pos.to_gomocup(m));
            }
            None => say(out, "ERROR no legal move"),
        }
    }
}

fn say(out: &mut dyn Write, text: &str) {
    let _ = writeln!(out, "{text}");
    let _ = out.flush();
}

/// Runs a session on `input` and `output` until `END` or the end of the input (or an input
/// error).
pub fn run_io(input: &mut dyn BufRead, output: &mut dyn Write) {
    run_io_with(input, output, false, FAST_FIRST);
}

/// [`run_io`], with the line pattern weights when `lines` (see [`Session::lines`]) and
/// [`Session::fast_first`] as given.
pub fn run_io_with(input: &mut dyn BufRead, output: &mut dyn Write, lines: bool, fast_first: bool) {
    let mut s = Session::new();
    s.lines = lines;
    s.fast_first = fast_first;
    run_session(s, input, output);
}

/// Runs the session `s` on `input` and `output` until `END` or the end of the input.
fn run_session(mut s: Session, input: &mut dyn BufRead, output: &mut dyn Write) {
    loop {
        let line = match super::read_input_line(input) {
            Ok(Some(super::InputLine::Text(l))) => l,
            Ok(Some(super::InputLine::NotUtf8(_))) => {
                say(output, "ERROR the line is not UTF-8 text");
                continue;
            }
            Ok(Some(super::InputLine::TooLong)) => {
                say(
                    output,
                    &format!(
                        "ERROR the line is longer than {} bytes",
                        super::MAX_LINE_BYTES
                    ),
                );
                continue;
            }
            Ok(None) | Err(_) => break,
        };
        if !s.handle(&line, output) {
            break;
        }
    }
}

/// `qi-engine gomocup` on stdin/stdout.
pub fn run(lines: bool, fast_first: bool, settings: &str) -> Result<(), String> {
    let settings = parse_settings(settings)?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut output = stdout.lock();
    let mut s = Session::new();
    s.lines = lines;
    s.fast_first = fast_first;
    s.settings = settings;
    run_session(s, &mut input, &mut output);
    Ok(())
}

/// `key=value,...` settings of [`Session::settings`], each checked.
pub fn parse_settings(text: &str) -> Result<Vec<(String, i32)>, String> {
    let mut out = Vec::new();
    for item in text.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        let (k, v) = item
            .split_once('=')
            .ok_or_else(|| format!("setting '{item}' is not key=value"))?;
        let v: i32 = v
            .trim()
            .parse()
            .map_err(|_| format!("setting '{item}': not a number"))?;
        if k.trim() == "hash" {
            // the transposition table's megabytes ([`Session::hash_mb`])
            if !(1..=MAX_HASH_MB as i32).contains(&v) {
                return Err(format!(
                    "setting '{item}': the table takes 1 to {MAX_HASH_MB} MB"
                ));
            }
        } else {
            let mut eval = GomokuEval::for_level(6, 0);
            <Gomoku as crate::engine::matches::Tunable>::tune(&mut eval, k.trim(), v)?;
        }
        out.push((k.trim().to_string(), v));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Session {
        /// The position before the last `k` stones.
        fn clone_stones_position(&self, k: usize) -> Gomoku {
            let mut t = Session::new();
            t.size = self.size;
            t.rule = self.rule;
            t.stones = self.stones[..self.stones.len() - k].to_vec();
            t.position().unwrap()
        }
    }

    fn session(lines: &[&str]) -> Vec<String> {
        let text = lines.join("\n");
        let mut out = Vec::new();
        run_io(&mut text.as_bytes(), &mut out);
        String::from_utf8(out)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("MESSAGE"))
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn start_turn_and_errors() {
        let out = session(&[
            "START 15",
            "INFO timeout_turn 100",
            "hello there",
            "TURN 7,7",
            "TURN 7,7",
            "END",
        ]);
        assert_eq!(out[0], "OK");
        assert!(out[1].starts_with("ERROR"), "{out:?}");
        assert!(out[2].contains(','), "{out:?}");
        assert!(out[3].starts_with("ERROR"), "{out:?}");
    }

    /// The opponent has 3,3 4,3 5,3 6,3: the answer must be 2,3 or 7,3.
    const FOUR_TO_BLOCK: [&str; 12] = [
        "START 15",
        "INFO timeout_turn 200",
        "BOARD",
        "3,3,2",
        "4,3,2",
        "5,3,2",
        "6,3,2",
        "7,7,1",
        "8,8,1",
        "9,10,1",
        "DONE",
        "END",
    ];

    #[test]
    fn board_blocks_a_four() {
        let out = session(&FOUR_TO_BLOCK);
        assert!(out[1] == "2,3" || out[1] == "7,3", "{out:?}");
    }

    #[test]
    fn with_the_line_weights_it_still_blocks_a_four() {
        // `--lines`: the same position as above, the answer at one end of the four
        let text = FOUR_TO_BLOCK.join("\n");
        let mut out = Vec::new();
        run_io_with(&mut text.as_bytes(), &mut out, true, FAST_FIRST);
        let out: Vec<String> = String::from_utf8(out)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with("MESSAGE"))
            .map(str::to_string)
            .collect();
        assert!(out[1] == "2,3" || out[1] == "7,3", "{out:?}");
    }

    #[test]
    fn the_table_is_kept_while_the_board_only_grows() {
        let mut s = Session::new();
        let mut out = Vec::new();
        let first = [
            "START 15",
            "INFO timeout_turn 300",
            "BOARD",
            "7,7,1",
            "8,8,2",
            "7,9,1",
            "9,7,2",
            "DONE",
        ];
        for l in first {
            s.handle(l, &mut out);
        }
        // the position searched (before our answer was added to the stones)
        let mut searched = s.clone_stones_position(1);
        assert!(s.search.knows(&searched), "the root is in the table");
        // the same game two stones on (our answer and the opponent's reply)
        let (ours, _) = *s.stones.last().unwrap();
        let again = format!("{},{},1", ours.x, s.size.unwrap() - 1 - ours.y);
        for l in [
            "BOARD", "7,7,1", "8,8,2", "7,9,1", "9,7,2", &again, "10,10,2", "DONE",
        ] {
            s.handle(l, &mut out);
        }
        assert!(s.search.knows(&searched), "kept within a game");
        // another board: a fresh table
        for l in ["BOARD", "3,3,1", "4,4,2", "DONE"] {
            s.handle(l, &mut out);
        }
        searched = s.clone_stones_position(1);
        assert!(s.search.knows(&searched));
        let old = {
            let mut t = Session::new();
            for l in [
                "START 15", "BOARD", "7,7,1", "8,8,2", "7,9,1", "9,7,2", "DONE",
            ] {
                if l != "DONE" {
                    t.handle(l, &mut Vec::new());
                }
            }
            t.reading_board = false;
            t.position().unwrap()
        };
        assert!(!s.search.knows(&old), "cleared for another game");
    }

    #[test]
    fn settings_are_checked_and_applied() {
        assert!(parse_settings("select=0, selk=70").is_ok());
        assert!(parse_settings("").unwrap().is_empty());
        for bad in ["select", "select=x", "nosuch=1"] {
            assert!(parse_settings(bad).is_err(), "{bad}");
        }
        // the message for an unknown key lists the keys, each of which is taken
        let mut eval = GomokuEval::for_level(6, 0);
        let msg =
            <Gomoku as crate::engine::matches::Tunable>::tune(&mut eval, "nosuch", 1).unwrap_err();
        let list = &msg[msg.find('(').unwrap() + 1..msg.rfind(')').unwrap()];
        let keys: Vec<&str> = list.split(", ").collect();
        assert!(
            keys.contains(&"w43") && keys.contains(&"qvcf") && keys.contains(&"verify"),
            "{msg}"
        );
        for k in keys {
            assert!(parse_settings(&format!("{k}=1")).is_ok(), "{k}");
        }
        let mut s = Session::new();
        assert_eq!((s.config().select, s.config().select_k), (SELECT, 100));
        s.settings = parse_settings("select=0,selk=70,width=12").unwrap();
        let c = s.config();
        assert!(!c.select && c.select_k == 70 && c.width == 12);
        // the quiescence and the four-three win on by default, off when told
        s.settings.clear();
        assert_eq!((s.config().qvcf, s.config().win43), (QVCF, WIN43));
        s.settings = parse_settings("qvcf=0,w43=0").unwrap();
        assert!(!s.config().qvcf && !s.config().win43);
        // the check of the best root moves: on by default, its budget set or turned off
        s.settings.clear();
        assert_eq!(s.config().verify, VERIFY);
        s.settings = parse_settings("verify=150000").unwrap();
        assert_eq!(s.config().verify, 150_000);
        s.settings = parse_settings("verify=0").unwrap();
        assert_eq!(s.config().verify, 0);
    }

    #[test]
    fn the_table_takes_its_megabytes_from_the_setting_and_max_memory() {
        let mut s = Session::new();
        assert_eq!(s.hash_mb(), HASH_MB);
        assert!(parse_settings("hash=0").is_err() && parse_settings("hash=5000").is_err());
        s.settings = parse_settings("hash=8,select=0").unwrap();
        assert_eq!(s.hash_mb(), 8);
        // the setting is the session's own, not the search's: the others still apply
        assert!(!s.config().select);
        // half of max_memory at most, at least one megabyte
        s.settings.clear();
        let mut out = Vec::new();
        s.handle("INFO max_memory 20971520", &mut out);
        assert_eq!(s.hash_mb(), 10);
        s.handle("INFO max_memory 1000", &mut out);
        assert_eq!(s.hash_mb(), 1);
        s.handle("INFO max_memory 0", &mut out);
        assert_eq!(s.hash_mb(), HASH_MB);
        // the search gets a table of that size with the next move
        s.settings = parse_settings("hash=2").unwrap();
        let out = {
            let mut out = Vec::new();
            for l in ["START 15", "INFO timeout_turn 50", "BEGIN"] {
                s.handle(l, &mut out);
            }
            String::from_utf8(out).unwrap()
        };
        assert!(out.lines().any(|l| l.contains(',')), "{out}");
        assert!(s.search.table_has_size(2) && !s.search.table_has_size(HASH_MB));
    }

    #[test]
    fn the_learned_evaluation_under_every_rule_the_line_weights_not_under_renju() {
        let mut s = Session::new();
        s.lines = true;
        let mut out = Vec::new();
        assert!(s.config().patterns && !s.config().simple_eval);
        assert!(s.config().lines);
        s.handle("INFO rule 4", &mut out);
        assert!(s.config().patterns && !s.config().simple_eval);
        assert!(!s.config().lines);
        s.handle("INFO rule 1", &mut out);
        assert!(s.config().patterns && s.config().lines);
        // (the ab search with its history where AB_RULES says, and a setting turns it off)
        for (rule, r) in [
            (0, GomokuRule::Freestyle),
            (1, GomokuRule::Standard),
            (4, GomokuRule::Renju),
        ] {
            s.handle(&format!("INFO rule {rule}"), &mut out);
            let c = s.config();
            let on = AB_RULES.contains(&r);
            let p33 = !(on && NO_P33_RULES.contains(&r));
            let range = if on && WIDE_RULES.contains(&r) { 3 } else { 0 };
            assert_eq!(
                (
                    c.ab,
                    c.history,
                    c.prune33,
                    c.open4_allowed,
                    c.open4_eval,
                    c.range
                ),
                (on, on, p33, on, false, range),
                "{r:?}"
            );
        }
        s.handle("INFO rule 0", &mut out);
        assert_eq!(s.config().range, 3, "freestyle's default range");
        s.settings = parse_settings("ab=0,history=0,p33=1,f4=0,range=0").unwrap();
        let c = s.config();
        assert!(!c.ab && !c.history && c.prune33 && !c.open4_allowed);
        assert_eq!(c.range, 0, "a range setting stays as given");
        s.handle("INFO rule 4", &mut out);
        s.settings = parse_settings("f4=2").unwrap();
        let c = s.config();
        assert!(c.ab && c.open4_allowed && c.open4_eval);
    }

    #[test]
    fn the_clock_bounds_the_search() {
        let mut s = Session::new();
        let mut out = Vec::new();
        s.handle("INFO timeout_turn 1000", &mut out);
        let c = s.config();
        assert_eq!(c.depth, None);
        assert_eq!(c.time, Some(Duration::from_millis(900)));
        assert_eq!(c.nodes, Some(900 * NODES_PER_MS));
        assert_eq!(c.spend, SPEND);
        assert!(c.lmr);
        s.handle("INFO timeout_turn 50", &mut out);
        assert_eq!(s.config().nodes, Some(300_000));
        s.handle("INFO timeout_turn 100000", &mut out);
        assert_eq!(s.config().nodes, Some(100_000_000));
    }
}
