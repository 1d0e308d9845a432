//! Whole-game analysis in the window (KaTrain's and lichess's review): while replaying a game,
//! the engine goes over every position in the background with the budget chosen in the side
//! panel (a progress bar, Cancel; the window stays smooth); then the panel draws the evaluation
//! graph, each player's summary and the marked moves, and N / B jump to the next / previous
//! marked move. The result is kept in the replay and written into the record's comments when
//! it is saved; a record that carries an analysis opens with it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, block_on, poll_once};
use qi_core::analysis::{self, GameAnalysis, Mark};

mod candidates;
pub use candidates::candidate_text;

pub use candidates::{CandidateLabel, Candidates, LineLabel};

use crate::game::{Match, Status};
use crate::menus::InGame;
use crate::replay::ReplayStep;
use crate::screens::Screen;

pub fn plugin(app: &mut App) {
    app.add_message::<AnalysisRequest>()
        .init_resource::<AnalysisRun>()
        .add_plugins(candidates::plugin)
        .add_systems(
            Update,
            (start_analysis, follow_analysis, jump_keys)
                .chain()
                .in_set(crate::AppSet::Input)
                .run_if(in_state(Screen::Playing)),
        )
        .add_systems(First, time_update_start)
        .add_systems(Last, time_update_end)
        .add_systems(OnExit(Screen::Playing), cancel_on_leave);
}

/// What the side panel asks for.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub enum AnalysisRequest {
    /// Analyse the replayed game with this many milliseconds a position.
    Start {
        budget_ms: u64,
    },
    Cancel,
}

/// The analysis running in the background, if any.
#[derive(Resource, Default)]
pub struct AnalysisRun {
    task: Option<Task<Result<Option<GameAnalysis>, qi_core::records::RecordError>>>,
    stop: Arc<AtomicBool>,
    done: Arc<AtomicUsize>,
    total: usize,
    started: Option<std::time::Instant>,
    /// The longest frame while it ran, in seconds (the log reports it).
    longest_frame: f32,
    /// The longest time the main schedule took (the game's own systems, without drawing),
    /// in seconds.
    longest_update: f32,
    update_began: Option<std::time::Instant>,
}

impl AnalysisRun {
    /// Positions analysed and the total, while an analysis runs.
    pub fn progress(&self) -> Option<(usize, usize)> {
        self.task
            .as_ref()
            .map(|_| (self.done.load(Ordering::Relaxed), self.total))
    }
}

fn start_analysis(
    mut requests: MessageReader<AnalysisRequest>,
    mut run: ResMut<AnalysisRun>,
    game: Option<Res<Match>>,
    mut status: MessageWriter<Status>,
    mut waiting: Local<Option<(AnalysisRequest, u32)>>,
) {
    // a request that came with the replay it is for (the game-over panel's Analyse) waits a
    // few frames for the replay to be loaded
    let tries = waiting.map_or(0, |(_, n)| n);
    let mut all: Vec<AnalysisRequest> = waiting.take().map(|(r, _)| r).into_iter().collect();
    all.extend(requests.read().copied());
    for r in all {
        if let AnalysisRequest::Start { .. } = r
            && game.as_deref().is_some_and(|g| g.replay.is_none())
            && tries < 10
        {
            *waiting = Some((r, tries + 1));
            continue;
        }
        match r {
            AnalysisRequest::Cancel => {
                run.stop.store(true, Ordering::Relaxed);
            }
            AnalysisRequest::Start { budget_ms } => {
                let Some(game) = game.as_deref() else {
                    continue;
                };
                if run.task.is_some() || game.replay.is_none() {
                    continue;
                }
                let start = game.history.start().clone();
                let moves = game.history.all_moves().to_vec();
                let stop = Arc::new(AtomicBool::new(false));
                let done = Arc::new(AtomicUsize::new(0));
                run.stop = stop.clone();
                run.done = done.clone();
                run.total = moves.len() + 1;
                run.started = Some(std::time::Instant::now());
                run.longest_frame = 0.0;
                run.longest_update = 0.0;
                info!(
                    "qi: analysis of {} positions at {budget_ms} ms each",
                    moves.len() + 1
                );
                status.write(Status(t!("status-analysing")));
                run.task = Some(AsyncComputeTaskPool::get().spawn(async move {
                    analysis::analyse(
                        &start,
                        &moves,
                        Duration::from_millis(budget_ms),
                        &stop,
                        &mut |d, _| done.store(d, Ordering::Relaxed),
                    )
                }));
            }
        }
    }
}

/// While an analysis runs: when this frame's main schedule began…
fn time_update_start(mut run: ResMut<AnalysisRun>) {
    if run.task.is_some() {
        run.update_began = Some(std::time::Instant::now());
    }
}

/// …and how long it took (the longest is logged when the analysis ends).
fn time_update_end(mut run: ResMut<AnalysisRun>) {
    if let Some(began) = run.update_began.take() {
        run.longest_update = run.longest_update.max(began.elapsed().as_secs_f32());
    }
}

fn follow_analysis(
    mut run: ResMut<AnalysisRun>,
    game: Option<ResMut<Match>>,
    mut status: MessageWriter<Status>,
    time: Res<Time>,
) {
    if run.task.is_none() {
        return;
    }
    run.longest_frame = run.longest_frame.max(time.delta_secs());
    let Some(task) = run.task.as_mut() else {
        return;
    };
    let Some(outcome) = block_on(poll_once(task)) else {
        return;
    };
    run.task = None;
    let secs = run.started.map_or(0.0, |s| s.elapsed().as_secs_f32());
    match outcome {
        Ok(Some(a)) => {
            info!(
                "qi: analysis done: {} positions in {secs:.1} s, {} marked moves, longest frame {:.0} ms, longest update {:.0} ms",
                a.positions.len(),
                a.moves.iter().filter(|m| m.mark.is_some()).count(),
                run.longest_frame * 1000.0,
                run.longest_update * 1000.0
            );
            status.write(Status(t!("status-analysis-done")));
            if let Some(mut game) = game
                && let Some(replay) = game.replay.as_mut()
            {
                a.write_comments(&mut replay.comments);
                replay.analysis = Some(a);
            }
        }
        Ok(None) => {
            info!("qi: analysis cancelled");
            status.write(Status(t!("status-analysis-cancelled")));
        }
        Err(e) => {
            warn!("qi: analysis failed: {e}");
            let why = crate::replay::record_error_text(&e);
            status.write(Status(t!("status-analysis-failed", why = why)));
        }
    }
}

/// While replaying: A analyses the game (half a second a position), N / B jump to the next /
/// previous marked move.
fn jump_keys(
    keys: Res<ButtonInput<KeyCode>>,
    game: Option<Res<Match>>,
    in_game: Option<Res<State<InGame>>>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut steps: MessageWriter<ReplayStep>,
    mut start: MessageWriter<AnalysisRequest>,
) {
    if in_game.is_some_and(|s| *s.get() != InGame::None)
        || egui.is_some_and(|e| e.wants_keyboard_input())
    {
        return;
    }
    let Some(game) = game else { return };
    if keys.just_pressed(KeyCode::KeyA)
        && game.replay.as_ref().is_some_and(|r| r.analysis.is_none())
    {
        start.write(AnalysisRequest::Start { budget_ms: 500 });
    }
    let Some(a) = game.replay.as_ref().and_then(|r| r.analysis.as_ref()) else {
        return;
    };
    let back = keys.just_pressed(KeyCode::KeyB);
    if !(back || keys.just_pressed(KeyCode::KeyN)) {
        return;
    }
    // the position after the marked move shows it on the board
    if let Some(ply) = a.next_marked(game.history.ply(), Mark::Inaccuracy, back) {
        steps.write(ReplayStep::To(ply));
    }
}

/// A game (finished or not) as a replay at the move it has reached, to be analysed: its record
/// with the result when it is over; "play from here" in the replay goes on with it.
pub fn review_match(g: &Match) -> Result<Match, qi_core::records::RecordError> {
    let mut record =
        qi_core::records::Record::from_history(&g.history, &g.setup.names[0], &g.setup.names[1]);
    record.result = g.result().map(|r| r.sgf());
    let label = crate::games::ui_of(g.kind()).title();
    let mut m = crate::replay::replay_match(&record, &label)?;
    let at = g.history.ply().min(m.history.all_moves().len());
    m.history.go_to(at);
    Ok(m)
}

fn cancel_on_leave(mut run: ResMut<AnalysisRun>) {
    run.stop.store(true, Ordering::Relaxed);
    run.task = None;
}

/// The analysis as the replay panel draws it.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct AnalysisView {
    /// Black's view by position, -1..1 (a win rate for Go, a squashed score for the others).
    pub values: Vec<f32>,
    /// The mark of each move, by ply (index 0 is move 1).
    pub marks: Vec<Option<Mark>>,
    /// Each player's summary line, Black's first.
    pub summary: [String; 2],
    /// The current position's line: value, the engine's move, the last move's loss.
    pub here: Option<String>,
}

impl AnalysisView {
    pub fn of(a: &GameAnalysis, ply: usize, names: [&str; 2]) -> AnalysisView {
        let squash = |score: i32| -> f32 {
            if qi_core::search::is_decided(score) {
                return score.signum() as f32;
            }
            if crate::games::ui_of(a.kind).score_is_win_rate() {
                (score as f32 / 5_000.0).clamp(-1.0, 1.0)
            } else if let Some(scale) = chance_scale(a.kind) {
                // Black's winning chance, as the eval bar's share
                2.0 * crate::hud::win_chance(score, scale) - 1.0
            } else {
                // a few pieces' lead is most of the way
                (score as f32 / 1_000.0).tanh()
            }
        };
        let summary = a.summary();
        let line = |i: usize| {
            let s = &summary[i];
            let count = |k: usize| s.by_phase.iter().map(|p| p[k]).sum::<usize>();
            let loss = match chance_scale(a.kind) {
                Some(scale) => {
                    let mine: Vec<f32> = a
                        .moves
                        .iter()
                        .filter(|m| m.side.index() == i)
                        .map(|m| chance_loss(m, scale))
                        .collect();
                    let avg = mine.iter().sum::<f32>() / mine.len().max(1) as f32;
                    format!("{avg:.1}%")
                }
                None => analysis::value_text(a.kind, s.average_loss.round() as i32)
                    .trim_start_matches("B ")
                    .trim_start_matches('+')
                    .to_string(),
            };
            t!(
                "analysis-summary",
                name = names[i],
                loss = loss,
                inaccuracies = count(0),
                mistakes = count(1),
                blunders = count(2)
            )
        };
        AnalysisView {
            values: a.positions.iter().map(|p| squash(p.score)).collect(),
            marks: a.moves.iter().map(|m| m.mark).collect(),
            summary: [line(0), line(1)],
            here: here_line(a, ply),
        }
    }
}

/// The logit scale of the analysing level's scores (level 6, [`qi_core::any::AnyCpu::level_logit_scale`]):
/// where there is one (Gomoku) the panel shows winning chances and losses of chance, in
/// percent, as the eval bar does, instead of logits read as stones ("Black +4.10").
fn chance_scale(kind: qi_core::GameKind) -> Option<f32> {
    qi_core::any::AnyCpu::level_logit_scale(kind, 6)
}

/// The mover's winning chance (percentage points) a move gave away: none where the analysis
/// counts no loss (the engine's own move, or one the short search liked better).
fn chance_loss(m: &qi_core::analysis::MoveReview, scale: f32) -> f32 {
    if m.loss <= 0 {
        return 0.0;
    }
    let chance = |v| crate::hud::win_chance(v, scale);
    (100.0 * (chance(m.before) - chance(m.after))).max(0.0)
}

/// The position's value, the engine's move here and the last move's loss and mark, in the
/// player's language.
fn here_line(a: &GameAnalysis, ply: usize) -> Option<String> {
    let p = a.positions.get(ply)?;
    let value = if qi_core::search::is_decided(p.score) {
        let side = if p.score > 0 {
            qi_core::Side::Black
        } else {
            qi_core::Side::White
        };
        t!(
            "analysis-decided",
            side = crate::games::ui_of(a.kind).side_name(side)
        )
    } else {
        let value = match chance_scale(a.kind) {
            Some(scale) => format!("{:.0}%", 100.0 * crate::hud::win_chance(p.score, scale)),
            None => analysis::value_text(a.kind, p.score)
                .trim_start_matches("B ")
                .to_string(),
        };
        t!(
            "analysis-value",
            side = crate::games::ui_of(a.kind).side_name(qi_core::Side::Black),
            value = value
        )
    };
    let mut parts = vec![value];
    if let Some(best) = &p.best {
        parts.push(t!("analysis-best", mv = best.as_str()));
    }
    if ply > 0
        && let Some(m) = a.moves.get(ply - 1)
        && m.loss > 0
    {
        let loss = match chance_scale(a.kind) {
            Some(scale) => format!("{:.0}%", chance_loss(m, scale)),
            None => analysis::value_text(a.kind, m.loss)
                .trim_start_matches("B ")
                .trim_start_matches('+')
                .to_string(),
        };
        parts.push(t!("analysis-loss", loss = loss));
        if let Some(k) = m.mark {
            parts.push(mark_name(k));
        }
    }
    Some(parts.join(" · "))
}

/// The name of a mark, translated.
pub fn mark_name(m: Mark) -> String {
    match m {
        Mark::Inaccuracy => t!("mark-inaccuracy"),
        Mark::Mistake => t!("mark-mistake"),
        Mark::Blunder => t!("mark-blunder"),
    }
}

/// The colour a mark is shown in.
pub fn mark_color(m: Mark) -> bevy_egui::egui::Color32 {
    let ui = crate::theme::palette::ui();
    match m {
        Mark::Inaccuracy => ui.mark_inaccuracy,
        Mark::Mistake => ui.mark_mistake,
        Mark::Blunder => ui.mark_blunder,
    }
}
