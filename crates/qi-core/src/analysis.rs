//! Whole-game analysis: the engine goes over every position of a game with a fixed budget, and
//! each move gets its loss against the engine's best move and, past a threshold of its game, a
//! mark (inaccuracy, mistake, blunder), as lichess and KaTrain mark them.
//!
//! Values are the searches' own scores, always from Black's side here (the first player: Red in
//! Ataxx): Ataxx and Reversi in hundredths of a piece (Reversi exact near the end, where the
//! solver runs), Gomoku in the learned evaluation's units (400 a logit), Go as a win rate (`score / 100` percentage
//! points above 50%), with a score lead from the playouts' ownership map. A decided game (a
//! forced win found by the search, or the game over) is beyond [`search::MATE_BOUND`].
//!
//! The analysis is kept in the game's record as one comment line per position
//! (`Qi: B +1.50 · best d3 · loss 0.80 · mistake`), which [`from_comments`] reads back.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::any::{AnyCpu, AnyMove, AnyPosition};
use crate::records::RecordError;
use crate::result::{GameResult, Reason};
use crate::search::{self, MATE, SearchInfo};
use crate::{GameKind, Side};

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    fn from_name(s: &str) -> Option<Mark> {
        [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder]
            .into_iter()
            .find(|m| m.name() == s)
    }
}

/// The losses (in the game's score units) from which a move is an inaccuracy, a mistake, a
/// blunder. Ataxx and Reversi: 1.5 / 3 / 6 pieces; Gomoku: half a logit, one and two of the
/// learned evaluation that level 6 searches with since session 53 (200 / 400 / 800 units of
/// [`crate::ai::gomoku::patterns::SCALE`], 400 a logit: from an even game a winning chance
/// lost of about 12, 23 and 38 points; until then 300 / 1,000 / 3,000 of the line score, in
/// which an open three was about 300); Go: 5 / 10 / 20 percentage points of win rate.
pub fn thresholds(kind: GameKind) -> [i32; 3] {
    match kind {
        GameKind::Ataxx => [150, 300, 600],
        GameKind::Reversi => [200, 400, 800],
        GameKind::Gomoku => {
            let logit = crate::ai::gomoku::patterns::SCALE as i32;
            [logit / 2, logit, 2 * logit]
        }
        GameKind::Go => [500, 1000, 2000],
    }
}

/// What the engine saw in one position.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionEval {
    /// Black's view (see the module's docs).
    pub score: i32,
    /// The engine's move here and its line (none once the game is over).
    pub best: Option<String>,
    pub pv: Vec<String>,
    pub depth: u32,
    /// Go: the score lead for Black in points from the ownership map, komi included.
    pub lead: Option<f32>,
}

/// One move of the game, reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// The move's number (1 is the first move).
    pub ply: usize,
    pub side: Side,
    pub played: String,
    /// The engine's move in the position before.
    pub best: Option<String>,
    /// The position before and after the move, from the mover's side.
    pub before: i32,
    pub after: i32,
    /// `before - after`, never below 0 (a move the short search liked better than its own is
    /// not a loss).
    pub loss: i32,
    pub mark: Option<Mark>,
}

/// A whole game's analysis: `positions[0]` is the start, `positions[n]` the position after move
/// `n`; `moves[n - 1]` reviews move `n`.
#[derive(Clone, Debug, PartialEq)]
pub struct GameAnalysis {
    pub kind: GameKind,
    pub positions: Vec<PositionEval>,
    pub moves: Vec<MoveReview>,
}

/// A player's part of the analysis: average loss, and the marks by phase of the game (thirds
/// of its moves: opening, middle game, endgame), `[inaccuracies, mistakes, blunders]` each.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Summary {
    pub moves: usize,
    pub average_loss: f32,
    pub by_phase: [[usize; 3]; 3],
}

/// The exact value of a finished game from `side`'s view, in the game's score units.
fn final_value(kind: GameKind, result: &GameResult, side: Side) -> i32 {
    let sign = match result.winner {
        None => 0,
        Some(w) if w == side => 1,
        Some(_) => -1,
    };
    match (kind, result.reason) {
        (_, Reason::Count { black, white }) => {
            let (mine, theirs) = if side == Side::Black {
                (black, white)
            } else {
                (white, black)
            };
            (mine as i32 - theirs as i32) * 100
        }
        // a win rate of 100% or 0%
        (GameKind::Go, _) => sign * 5_000,
        _ => sign * MATE,
    }
}

/// Analyses the game `start` + `moves` with `budget` per position at the strongest level.
/// `progress(done, total)` hears after each position; raising `stop` ends the analysis early
/// (`None`). The positions are analysed last to first, so that the tables the search keeps
/// help with the positions before, as strong analysers do.
pub fn analyse(
    start: &AnyPosition,
    moves: &[AnyMove],
    budget: Duration,
    stop: &Arc<AtomicBool>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Option<GameAnalysis>, RecordError> {
    let kind = start.kind();
    let mut positions = vec![start.clone()];
    for (i, &mv) in moves.iter().enumerate() {
        let mut next = positions[i].clone();
        next.play(mv).map_err(|e| RecordError::BadMove {
            number: i + 1,
            text: positions[i].move_to_text(mv),
            detail: format!("move {} is not legal: {}", i + 1, e.0),
        })?;
        positions.push(next);
    }
    // (every game has a CPU: `AnyCpu::new` fails for none)
    let mut cpu = AnyCpu::new(kind, 6).map_err(|e| RecordError::OtherGame {
        name: kind.name().to_string(),
        detail: e.0,
    })?;
    let total = positions.len();
    let mut evals: Vec<Option<PositionEval>> = vec![None; total];
    for (done, i) in (0..total).rev().enumerate() {
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        evals[i] = Some(evaluate(&mut cpu, &positions[i], budget, stop));
        progress(done + 1, total);
    }
    if stop.load(Ordering::Relaxed) {
        return Ok(None);
    }
    let evals: Vec<PositionEval> = evals
        .into_iter()
        .map(|e| e.expect("every position"))
        .collect();
    let reviews = review(kind, &positions, moves, &evals);
    Ok(Some(GameAnalysis {
        kind,
        positions: evals,
        moves: reviews,
    }))
}

/// The engine's view of one position, turned to Black's side.
fn evaluate(
    cpu: &mut AnyCpu,
    pos: &AnyPosition,
    budget: Duration,
    stop: &Arc<AtomicBool>,
) -> PositionEval {
    let kind = pos.kind();
    let stm = pos.side_to_move();
    let to_black = |v: i32| if stm == Side::Black { v } else { -v };
    if let Some(result) = GameResult::of(pos) {
        return PositionEval {
            score: to_black(final_value(kind, &result, stm)),
            best: None,
            pv: Vec::new(),
            depth: 0,
            lead: None,
        };
    }
    let mut last = None;
    let best = cpu.choose(pos, budget, stop, 0x5eed, &mut |info| {
        last = Some(info.clone())
    });
    let info = last.unwrap_or_default();
    let lead = match &*cpu {
        AnyCpu::Go(c) => pos.as_go().map(|g| {
            let own: f32 = c.ownership().iter().sum();
            // as the record keeps it, to a tenth of a point
            ((own - g.komi()) * 10.0).round() / 10.0
        }),
        _ => None,
    };
    // a decided value keeps its side, not its distance (which the record does not keep)
    let score = if search::is_decided(info.score) {
        info.score.signum() * (MATE - 1)
    } else {
        info.score
    };
    PositionEval {
        score: to_black(score),
        best: best.map(|m| pos.move_to_text(m)),
        pv: info.pv,
        depth: info.depth,
        lead,
    }
}

/// Each move's loss and mark from the values of the positions before and after it.
pub fn review(
    kind: GameKind,
    positions: &[AnyPosition],
    moves: &[AnyMove],
    evals: &[PositionEval],
) -> Vec<MoveReview> {
    moves
        .iter()
        .enumerate()
        .map(|(i, &mv)| {
            let side = positions[i].side_to_move();
            let mine = |v: i32| if side == Side::Black { v } else { -v };
            let before = mine(evals[i].score);
            let after = mine(evals[i + 1].score);
            let played = positions[i].move_to_text(mv);
            let best = evals[i].best.clone();
            // the engine's move, or one that reaches the same position turned or mirrored
            // (Reversi's four first moves), loses nothing
            let same_as_best = best.as_deref().is_some_and(|b| {
                b == played
                    || positions[i].parse_move(b).is_ok_and(|bm| {
                        crate::openings::same_after(&positions[i], bm, &positions[i + 1])
                    })
            });
            let loss = if same_as_best {
                0
            } else {
                loss_between(kind, before, after)
            };
            MoveReview {
                ply: i + 1,
                side,
                played,
                best,
                before,
                after,
                loss,
                mark: mark_of(kind, before, after, loss),
            }
        })
        .collect()
}

/// The loss from `before` to `after` (the mover's view); a decided value counts as a little
/// beyond the largest undecided one, so that throwing away a forced win is a large loss but not
/// a million. In Ataxx and Reversi a decided value may be a proven win of unknown margin (the
/// endgame solver's win/loss search), so it does not compare with an exact count of the same
/// sign: no loss.
fn loss_between(kind: GameKind, before: i32, after: i32) -> i32 {
    let counts = matches!(kind, GameKind::Ataxx | GameKind::Reversi);
    let decided = search::is_decided;
    if counts && (decided(before) || decided(after)) && before.signum() == after.signum() {
        return 0;
    }
    let clip = |v: i32| {
        if decided(v) {
            v.signum() * 10_000
        } else {
            v.clamp(-9_999, 9_999)
        }
    };
    (clip(before) - clip(after)).max(0)
}

fn mark_of(kind: GameKind, before: i32, after: i32, loss: i32) -> Option<Mark> {
    let won = |v: i32| search::is_decided(v) && v > 0;
    let lost = |v: i32| search::is_decided(v) && v < 0;
    // Ataxx and Reversi: a forced win thrown away, or a forced loss walked into from a
    // position not lost, is a blunder whatever the units (only when the sign changes: see
    // `loss_between`). Gomoku and Go go by the loss alone, in which a decided value counts
    // just beyond the largest undecided one: throwing away a forced win for an even game, or
    // walking into a forced loss from one, is a loss far above the blunder's threshold, while
    // a move from a forced win to a position the search calls overwhelming but has not proven
    // (or from a hopeless one into a proven loss) loses next to nothing and is not marked.
    let counts = matches!(kind, GameKind::Ataxx | GameKind::Reversi);
    if counts && ((won(before) && after <= 0) || (before >= 0 && lost(after))) {
        return Some(Mark::Blunder);
    }
    let [i, m, b] = thresholds(kind);
    if loss >= b {
        Some(Mark::Blunder)
    } else if loss >= m {
        Some(Mark::Mistake)
    } else if loss >= i {
        Some(Mark::Inaccuracy)
    } else {
        None
    }
}

impl GameAnalysis {
    /// The analysis as a record keeps it: values, best moves and Go's lead, without the lines
    /// and depths.
    pub fn stored(&self) -> GameAnalysis {
        let mut a = self.clone();
        for p in &mut a.positions {
            p.pv.clear();
            p.depth = 0;
        }
        a
    }

    /// Each player's summary, Black's first.
    pub fn summary(&self) -> [Summary; 2] {
        let mut out = [Summary::default(), Summary::default()];
        let n = self.moves.len().max(1);
        let mut losses = [0i64; 2];
        for m in &self.moves {
            let s = &mut out[m.side.index()];
            s.moves += 1;
            losses[m.side.index()] += m.loss as i64;
            if let Some(mark) = m.mark {
                let phase = ((m.ply - 1) * 3 / n).min(2);
                s.by_phase[phase][mark as usize] += 1;
            }
        }
        for (s, l) in out.iter_mut().zip(losses) {
            s.average_loss = if s.moves == 0 {
                0.0
            } else {
                l as f32 / s.moves as f32
            };
        }
        out
    }

    /// The next marked move after `ply` (wrapping), at least `min` bad; `None` when there is
    /// none. With `back`, the one before.
    pub fn next_marked(&self, ply: usize, min: Mark, back: bool) -> Option<usize> {
        let marked: Vec<usize> = self
            .moves
            .iter()
            .filter(|m| m.mark.is_some_and(|k| k >= min))
            .map(|m| m.ply)
            .collect();
        if back {
            marked
                .iter()
                .rev()
                .find(|&&p| p < ply)
                .or(marked.last())
                .copied()
        } else {
            marked
                .iter()
                .find(|&&p| p > ply)
                .or(marked.first())
                .copied()
        }
    }

    /// The comment line for the position after `ply` moves (0: the start).
    pub fn comment(&self, ply: usize) -> Option<String> {
        let p = self.positions.get(ply)?;
        let mut parts = vec![format!("Qi: {}", value_text(self.kind, p.score))];
        if let Some(lead) = p.lead {
            parts.push(format!("lead {}", signed(lead, 1)));
        }
        if let Some(b) = &p.best {
            parts.push(format!("best {b}"));
        }
        if ply > 0
            && let Some(m) = self.moves.get(ply - 1)
        {
            parts.push(format!(
                "loss {}",
                signed_units(self.kind, m.loss).trim_start_matches('+')
            ));
            if let Some(mark) = m.mark {
                parts.push(mark.name().to_string());
            }
        }
        Some(parts.join(" · "))
    }

    /// The record's comments with this analysis in them: each position's line replaces an
    /// earlier analysis line and keeps the rest of the comment.
    pub fn write_comments(&self, comments: &mut std::collections::BTreeMap<usize, String>) {
        for ply in 0..self.positions.len() {
            let line = self.comment(ply).expect("a position");
            let mut text = comments
                .get(&ply)
                .map(|c| without_analysis(c))
                .unwrap_or_default();
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&line);
            comments.insert(ply, text);
        }
    }
}

/// A value in the game's units for people: "B +1.50" (pieces or points), "B 62.3%" (Go),
/// "B wins" for a decided game.
pub fn value_text(kind: GameKind, score: i32) -> String {
    if search::is_decided(score) {
        return if score > 0 { "B wins" } else { "W wins" }.to_string();
    }
    match kind {
        GameKind::Go => format!("B {:.2}%", 50.0 + score as f32 / 100.0),
        _ => format!("B {}", signed_units(kind, score)),
    }
}

fn signed_units(kind: GameKind, v: i32) -> String {
    match kind {
        GameKind::Go => format!("{:.2}%", v as f32 / 100.0),
        _ => signed(v as f32 / 100.0, 2),
    }
}

fn signed(v: f32, decimals: usize) -> String {
    format!("{v:+.decimals$}")
}

/// Reads an analysis written by [`GameAnalysis::write_comments`] back from a record's
/// comments: `None` unless every position has its line. Lines that do not parse count as
/// missing.
pub fn from_comments(
    kind: GameKind,
    positions: &[AnyPosition],
    moves: &[AnyMove],
    comments: &std::collections::BTreeMap<usize, String>,
) -> Option<GameAnalysis> {
    let mut evals = Vec::with_capacity(positions.len());
    for ply in 0..positions.len() {
        evals.push(parse_line(kind, analysis_line(comments.get(&ply)?)?)?);
    }
    let reviews = review(kind, positions, moves, &evals);
    Some(GameAnalysis {
        kind,
        positions: evals,
        moves: reviews,
    })
}

/// The analysis part of a comment: from its `Qi: ` to the end of that line (PGN comments come
/// back with their lines joined by spaces).
/// The SGF properties other programs read for a node whose comment holds Qi's analysis line:
/// the move's mark as the standard move annotations (`BM[2]` blunder, `BM[1]` mistake, `DO[]`
/// inaccuracy), and for Go Black's win rate in percent as Sabaki's `SBKV`, which its win-rate
/// graph shows.
pub fn sgf_annotations(kind: GameKind, comment: &str) -> Vec<crate::sgf::SgfProperty> {
    use crate::sgf::SgfProperty;
    let Some(line) = analysis_line(comment) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if kind == GameKind::Go
        && let Some(e) = parse_line(kind, line)
    {
        let pct = if search::is_decided(e.score) {
            if e.score > 0 { 100.0 } else { 0.0 }
        } else {
            (50.0 + e.score as f32 / 100.0).clamp(0.0, 100.0)
        };
        out.push(SgfProperty::one("SBKV", format!("{pct:.2}")));
    }
    let mark = line
        .trim_start_matches("Qi: ")
        .split(" · ")
        .find_map(Mark::from_name);
    match mark {
        Some(Mark::Blunder) => out.push(SgfProperty::one("BM", "2")),
        Some(Mark::Mistake) => out.push(SgfProperty::one("BM", "1")),
        Some(Mark::Inaccuracy) => out.push(SgfProperty::one("DO", "")),
        None => {}
    }
    out
}

fn analysis_line(comment: &str) -> Option<&str> {
    let start = comment.rfind("Qi: ")?;
    let rest = &comment[start..];
    Some(rest.lines().next().unwrap_or(rest))
}

/// A comment without its analysis part (what a person wrote).
pub fn without_analysis(comment: &str) -> String {
    match (comment.rfind("Qi: "), analysis_line(comment)) {
        (Some(start), Some(line)) => {
            let mut s = comment[..start].trim_end().to_string();
            let after = comment[start + line.len()..].trim_start();
            if !after.is_empty() {
                if !s.is_empty() {
                    s.push('\n');
                }
                s.push_str(after);
            }
            s
        }
        _ => comment.to_string(),
    }
}

fn parse_line(kind: GameKind, line: &str) -> Option<PositionEval> {
    let mut parts = line.trim_start_matches("Qi: ").split(" · ");
    let value = parts.next()?;
    let score = match value {
        "B wins" => MATE - 1,
        "W wins" => -(MATE - 1),
        v => {
            let v = v.strip_prefix("B ")?;
            match kind {
                GameKind::Go => {
                    let pct: f32 = v.strip_suffix('%')?.parse().ok()?;
                    ((pct - 50.0) * 100.0).round() as i32
                }
                _ => (v.parse::<f32>().ok()? * 100.0).round() as i32,
            }
        }
    };
    let mut eval = PositionEval {
        score,
        best: None,
        pv: Vec::new(),
        depth: 0,
        lead: None,
    };
    for p in parts {
        if let Some(b) = p.strip_prefix("best ") {
            eval.best = Some(b.to_string());
        } else if let Some(l) = p.strip_prefix("lead ") {
            eval.lead = l.parse().ok();
        } else if p.starts_with("loss ") || Mark::from_name(p).is_some() {
            // follows from the values
        } else {
            return None;
        }
    }
    Some(eval)
}

#[cfg(test)]
mod tests;

/// A candidate move: its value from the mover's side, and the line the engine expects after
/// it (the move first).
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub mv: AnyMove,
    pub value: i32,
    pub line: Vec<AnyMove>,
}

/// The values of the moves worth showing in `pos` (Egaroucid and KaTrain draw them on the
/// board), best first, from the mover's side, at most `max` (see [`candidate_lines`]).
pub fn candidates(
    pos: &AnyPosition,
    budget: Duration,
    max: usize,
    stop: &Arc<AtomicBool>,
) -> Vec<(AnyMove, i32)> {
    candidate_lines(pos, budget, max, stop)
        .into_iter()
        .map(|c| (c.mv, c.value))
        .collect()
}

/// The moves worth showing in `pos` with their values and expected lines, best first: each
/// move's position is searched with an equal share of `budget` (at least 20 ms); Gomoku looks
/// at the points near the stones. Go's are the most visited moves of one search of `budget`,
/// valued by their win rates, each with its most visited line.
pub fn candidate_lines(
    pos: &AnyPosition,
    budget: Duration,
    max: usize,
    stop: &Arc<AtomicBool>,
) -> Vec<Candidate> {
    let kind = pos.kind();
    if GameResult::of(pos).is_some() {
        return Vec::new();
    }
    if let Some(go) = pos.as_go() {
        // Go: the most visited moves of one search, valued by their win rates
        return crate::ai::go::candidates::root_candidates(go, budget, stop, 0x5eed, max, 500)
            .into_iter()
            .map(|c| Candidate {
                mv: AnyMove::Go(c.mv),
                value: ((c.win_rate - 0.5) * 10_000.0).round() as i32,
                line: c.line.into_iter().map(AnyMove::Go).collect(),
            })
            .collect();
    }
    let mut moves = pos.legal_moves();
    if kind == GameKind::Gomoku {
        let (w, h) = pos.dimensions();
        let near = |sq: crate::Square| {
            (sq.x.saturating_sub(2)..=(sq.x + 2).min(w - 1)).any(|x| {
                (sq.y.saturating_sub(2)..=(sq.y + 2).min(h - 1))
                    .any(|y| pos.cell(crate::Square::new(x, y)) != crate::Cell::Empty)
            })
        };
        moves.retain(|&m| pos.move_squares(m).to.is_some_and(near));
        moves.truncate(60);
    }
    let Ok(mut cpu) = AnyCpu::new(kind, 6) else {
        return Vec::new();
    };
    let side = pos.side_to_move();
    let each = (budget / moves.len().max(1) as u32).max(Duration::from_millis(20));
    let mut out = Vec::new();
    for m in moves {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let mut child = pos.clone();
        if child.play(m).is_err() {
            continue;
        }
        let mut line = vec![m];
        let value = if let Some(result) = GameResult::of(&child) {
            final_value(kind, &result, side)
        } else {
            let mut last: Option<SearchInfo> = None;
            cpu.choose(&child, each, stop, 0x5eed, &mut |i| last = Some(i.clone()));
            let v = last.as_ref().map_or(0, |i| i.score);
            // the search's line, as far as it reads as legal moves
            let mut p = child.clone();
            for t in last.iter().flat_map(|i| i.pv.iter()).take(9) {
                match p.parse_move(t) {
                    Ok(mv) if p.play(mv).is_ok() => line.push(mv),
                    _ => break,
                }
            }
            let v = if search::is_decided(v) {
                v.signum() * (MATE - 1)
            } else {
                v
            };
            if child.side_to_move() == side { v } else { -v }
        };
        out.push(Candidate { mv: m, value, line });
    }
    out.sort_by_key(|c| std::cmp::Reverse(c.value));
    out.truncate(max);
    out
}
