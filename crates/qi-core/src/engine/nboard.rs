//! `qi-engine nboard`: the NBoard protocol, so that the engine runs inside the NBoard GUI.
//!
//! Commands: `nboard <version>`, `set depth <n>`, `set game <GGF>`, `set contempt <n>`,
//! `move <mv>[/<eval>[/<time>]]`, `hint <n>`, `go`, `ping <n>`, `learn`, `analyze`, `quit`.
//! Answers: `=== <move>/<eval>/<seconds>` to `go`, `search <move> <eval> 0 <depth>` lines to
//! `hint`, `pong <n>`, `learned`, and `status …` lines. A line the engine cannot use (garbage, a
//! line that is not UTF-8 text, a line longer than [`super::MAX_LINE_BYTES`]) gets a
//! `status error: …` line and is otherwise ignored.
//!
//! Time: NBoard gives the engine a depth, not a clock. By default one `go` or `hint` searches to
//! that depth (10 unless set) and never takes more than 10 s (the exact solve, from 18 empties,
//! and the search together). With a move time (`qi-engine nboard --movetime <ms>`, or the
//! extension `set movetime <ms>`) the engine plays like level 6 at that time a move: iterative
//! deepening up to the deadline (depth 60 unless `set depth` says less), the exact solve from
//! 24 empties when it fits in the time (after a shorter search, whose move stands if the solve
//! does not finish). Numbers saturate, so a huge move time means "no limit to speak of".

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::ai::Ai;
use crate::ai::endgame::Solver;
use crate::ai::reversi::{ReversiEval, empties};
use crate::game::{Game, Side};
use crate::reversi::Reversi;
use crate::search::{Limits, Searcher, deadline_after, is_decided};

/// Solve exactly from this many empties.
const SOLVE_EMPTIES: u32 = 18;
/// The default cap on any one `go` or `hint`, whatever the depth asked for.
pub const DEFAULT_MOVETIME: Duration = Duration::from_secs(10);

fn say(line: &str) {
    let out = std::io::stdout();
    let mut out = out.lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn error(msg: &str) {
    say(&format!("status error: {msg}"));
}

/// Reads a GGF game record: the start board and the moves played from it.
pub fn parse_ggf(text: &str) -> Result<Reversi, String> {
    let t = text.trim();
    let body = t
        .strip_prefix("(;")
        .and_then(|b| b.strip_suffix(";)"))
        .ok_or("a GGF game starts with '(;' and ends with ';)'")?;
    let mut pos: Option<Reversi> = None;
    let mut rest = body;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            break;
        }
        let name_len = rest
            .find('[')
            .ok_or_else(|| format!("GGF: no '[' after '{rest}'"))?;
        let name = rest[..name_len].trim();
        let after = &rest[name_len + 1..];
        let close = after
            .find(']')
            .ok_or_else(|| format!("GGF: property {name} is not closed"))?;
        let value = &after[..close];
        rest = &after[close + 1..];
        match name {
            "BO" => {
                let mut parts = value.split_whitespace();
                if parts.next() != Some("8") {
                    return Err("GGF: only 8x8 boards".into());
                }
                let board: String = parts.next().ok_or("GGF: BO without a board")?.to_string();
                let side = parts.next().ok_or("GGF: BO without a side to move")?;
                let p = Reversi::from_text(&format!("{board} {side}"))
                    .map_err(|e| format!("GGF board: {e}"))?;
                pos = Some(p);
            }
            "B" | "W" => {
                let p = pos.as_mut().ok_or("GGF: a move before the board (BO)")?;
                let mv_text = value.split('/').next().unwrap_or("");
                let side = if name == "B" {
                    Side::Black
                } else {
                    Side::White
                };
                play_as(p, side, mv_text)?;
            }
            _ => {}
        }
    }
    pos.ok_or_else(|| "GGF: no board (BO)".to_string())
}

/// Plays `text` for `side`, passing for the other side first if the record skips a pass.
fn play_as(p: &mut Reversi, side: Side, text: &str) -> Result<(), String> {
    let mv = p
        .parse_move(text)
        .map_err(|e| format!("move '{text}': {e}"))?;
    if p.side_to_move() != side {
        let pass = p.pass_move().expect("reversi passes");
        p.play(pass)
            .map_err(|_| format!("move '{text}': it is not {side:?}'s turn"))?;
    }
    p.play(mv).map_err(|e| format!("move '{text}': {e}"))
}

struct Engine {
    pos: Reversi,
    depth: u32,
    /// The cap on one `go` or `hint` when searching to a depth.
    cap: Duration,
    /// The time a move when thinking by time.
    movetime: Option<Duration>,
    searcher: Searcher<ReversiEval>,
    solver: Solver,
}

impl Engine {
    /// The best move, its value in discs (side to move's view) and the depth reached.
    fn think(&mut self) -> Option<(String, f64, String)> {
        let stop = Arc::new(AtomicBool::new(false));
        if let Some(t) = self.movetime {
            return self.think_timed(t, &stop);
        }
        let start = Instant::now();
        let e = empties(&self.pos);
        if e <= SOLVE_EMPTIES {
            let deadline = deadline_after(start, self.cap);
            if let Some(sol) = self.solver.solve(&self.pos, Some(&stop), Some(deadline)) {
                let mv = sol.best?;
                return Some((
                    self.pos.move_to_text(mv),
                    sol.score as f64,
                    format!("{e}@100%"),
                ));
            }
        }
        // what the solve left of the cap (at least a moment, to find a move)
        let left = self
            .cap
            .saturating_sub(start.elapsed())
            .max(Duration::from_millis(1));
        let limits = Limits {
            time: Some(left),
            depth: Some(self.depth),
            nodes: None,
        };
        let r = self.searcher.search(&self.pos, &limits, &stop, &mut |_| {});
        let mv = r.best?;
        let eval = if is_decided(r.score) {
            // a decided game: the disc margin is not known, only the winner
            if r.score > 0 { 64.0 } else { -64.0 }
        } else {
            r.score as f64 / 100.0
        };
        Some((self.pos.move_to_text(mv), eval, r.info.depth.to_string()))
    }

    /// [`Engine::think`] by time: level 6's search and solve with `movetime` for the move.
    fn think_timed(
        &mut self,
        movetime: Duration,
        stop: &Arc<AtomicBool>,
    ) -> Option<(String, f64, String)> {
        let limits = Limits {
            time: Some(movetime),
            depth: Some(self.depth),
            nodes: None,
        };
        let r = <Reversi as Ai>::search_at_level(
            &mut self.searcher,
            &self.pos,
            6,
            &limits,
            stop,
            &mut |_| {},
        );
        let mv = r.best?;
        // an exact solve scores the disc difference × 100, like the evaluation
        let eval = if is_decided(r.score) {
            if r.score > 0 { 64.0 } else { -64.0 }
        } else {
            r.score as f64 / 100.0
        };
        let depth = r.info.depth.to_string();
        Some((self.pos.move_to_text(mv), eval, depth))
    }
}

/// Runs the protocol on stdin/stdout until `quit` or the end of input; with `movetime` the
/// engine thinks that long a move (see the module's notes).
pub fn run(movetime: Option<Duration>) -> Result<(), String> {
    let mut e = Engine {
        pos: Reversi::start(),
        depth: if movetime.is_some() { 60 } else { 10 },
        cap: DEFAULT_MOVETIME,
        movetime,
        searcher: Searcher::new(ReversiEval::default(), 64),
        solver: Solver::new(64),
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
            Err(err) => return Err(err.to_string()),
        };
        let t = line.trim();
        let (cmd, rest) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
        let rest = rest.trim();
        match cmd {
            "" => {}
            "nboard" => {
                if rest != "1" && rest != "2" {
                    error(&format!("protocol version '{rest}' (1 expected)"));
                }
                say("set myname Qi");
            }
            "set" => {
                let (what, val) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                match what {
                    "depth" => match val.trim().parse::<u32>() {
                        Ok(d) if (1..=60).contains(&d) => e.depth = d,
                        _ => error(&format!("depth must be 1-60, not '{val}'")),
                    },
                    "game" => match parse_ggf(val) {
                        Ok(p) => {
                            e.pos = p;
                        }
                        Err(m) => error(&m),
                    },
                    "contempt" => {}
                    "movetime" => match super::parse_saturating(val) {
                        Some(ms) => e.movetime = Some(Duration::from_millis(ms.max(1))),
                        None => error(&format!("movetime must be milliseconds, not '{val}'")),
                    },
                    other => error(&format!("unknown setting '{other}'")),
                }
            }
            "move" => {
                let mv_text = rest.split('/').next().unwrap_or("");
                let side = e.pos.side_to_move();
                let mut p = e.pos;
                match play_as(&mut p, side, mv_text) {
                    Ok(()) => e.pos = p,
                    Err(m) => error(&m),
                }
            }
            "go" => {
                say("status thinking");
                let t0 = Instant::now();
                match e.think() {
                    Some((mv, eval, _)) => say(&format!(
                        "=== {mv}/{eval:.2}/{:.2}",
                        t0.elapsed().as_secs_f64()
                    )),
                    None => error("the game is over"),
                }
                say("status");
            }
            "hint" => {
                say("status thinking");
                match e.think() {
                    Some((mv, eval, depth)) => say(&format!("search {mv} {eval:.2} 0 {depth}")),
                    None => error("the game is over"),
                }
                say("status");
            }
            "ping" => say(&format!("pong {rest}")),
            "learn" => say("learned"),
            "analyze" => {}
            "quit" => return Ok(()),
            _ => {
                let shown: String = t.chars().take(80).collect();
                error(&format!("unknown command '{shown}'"))
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "---------------------------O*------*O--------------------------- *";

    #[test]
    fn ggf_games_parse() {
        let g = format!(
            "(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[8 {START}]B[d3//1.2]W[c5];)"
        );
        let p = parse_ggf(&g).unwrap();
        let mut q = Reversi::start();
        for m in ["d3", "c5"] {
            q.play(q.parse_move(m).unwrap()).unwrap();
        }
        assert_eq!(p, q);
        assert!(parse_ggf("(;GM[Othello];)").is_err());
        assert!(parse_ggf(&format!("(;BO[8 {START}]B[a1];)")).is_err());
        assert!(parse_ggf("garbage").is_err());
    }
}
