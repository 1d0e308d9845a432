//! The CPU player in the window: its search runs on Bevy's AsyncComputeTaskPool with a stop
//! flag, so the window keeps drawing; undo, a new game, pausing or leaving stops it at once.
//! Its move waits until the board is at rest, so the player sees their own move land first.
//! Its progress (depth, score, principal variation) feeds the HUD's "thinking" line and eval
//! bar. In CPU-against-CPU games the moves come with a pause between them, and the game can be
//! paused and stepped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::tasks::futures::check_ready;
use bevy::tasks::{AsyncComputeTaskPool, Task};
use qi_core::Side;
use qi_core::any::{AnyCpu, AnyMove};
use qi_core::search::SearchInfo;

use crate::AppSet;
use crate::board::board_idle;
use crate::game::{BoardReset, Hint, Match, MoveRequest, Player, Status};
use crate::hud::CpuControl;
use crate::menus::InGame;
use crate::screens::Screen;
use crate::settings::Settings;

pub fn plugin(app: &mut App) {
    app.init_resource::<Thinking>()
        .add_message::<HintRequest>()
        .add_systems(
            Update,
            (
                cancel_stale_search,
                control_cpu_games,
                start_hint_search,
                start_cpu_search,
                collect_cpu_move,
                play_pending_move.run_if(board_idle),
            )
                .chain()
                .in_set(AppSet::Input)
                .run_if(in_state(Screen::Playing)),
        )
        .add_systems(OnExit(Screen::Playing), stop_search);
}

/// Ask the CPU where the person to move should play.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct HintRequest;

/// What the CPU's search is for: the position (hash and ply) and whether it is a hint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SearchKey {
    hash: u64,
    ply: usize,
    hint: bool,
    side: Side,
}

/// The search in progress, if any, and the latest info it reported.
#[derive(Resource, Default)]
pub struct Thinking {
    task: Option<Task<Option<(AnyMove, bool)>>>,
    stop: Arc<AtomicBool>,
    started: Option<Instant>,
    key: Option<SearchKey>,
    /// The players' engines, one per side, kept between moves (their tables too).
    engines: [Option<Arc<Mutex<Option<AnyCpu>>>>; 2],
    /// The last info from the running or last search, and the side that searched.
    info: Arc<Mutex<Option<SearchInfo>>>,
    info_side: Option<Side>,
    /// The searching level (6 for hints), whose noise and scale the eval bar reads.
    info_level: u8,
    /// The info is from a hint the player asked for.
    hint_info: bool,
    /// A CPU move found, waiting for the board to come to rest: (hash, ply, move, resigns).
    pending: Option<(u64, usize, AnyMove, bool)>,
    /// When the last CPU move was played (the pause between moves in CPU-against-CPU games).
    last_move_at: Option<Instant>,
    /// Seconds the last CPU move's search took (from its start to its answer).
    pub last_search_secs: Option<f32>,
    /// CPU against CPU: paused by the player, and one move allowed while paused.
    pub cpu_paused: bool,
    step_once: bool,
    /// Searches whose threads are still running (a stopped one ends soon after its flag).
    running: Arc<std::sync::atomic::AtomicUsize>,
    /// The finished searches of this game, newest last, so that the eval bar can show the
    /// one of the position an undo, a redo or a jump comes back to (the start included).
    done: Vec<Done>,
}

/// A finished search: the position it searched (hash and ply) and what it reported.
#[derive(Clone, Debug)]
pub struct Done {
    pub hash: u64,
    pub ply: usize,
    pub info: SearchInfo,
    pub side: Side,
    pub level: u8,
    pub hint: bool,
}

/// The finished searches the eval bar remembers at most.
const DONE_KEPT: usize = 2048;

/// The search whose value the eval bar shows for the position `now` (hash and ply), whose
/// position before is `before`: the newest search of this position, or else of the position
/// before (the CPU's search that chose the move leading here, as the bar shows it during
/// play).
pub fn recalled(done: &[Done], now: (u64, usize), before: Option<(u64, usize)>) -> Option<&Done> {
    let of = |key: (u64, usize)| done.iter().rev().find(|d| (d.hash, d.ply) == key);
    of(now).or_else(|| before.and_then(of))
}

/// Counts a running search while it lives.
struct RunningGuard(Arc<std::sync::atomic::AtomicUsize>);

impl RunningGuard {
    fn new(counter: &Arc<std::sync::atomic::AtomicUsize>) -> RunningGuard {
        counter.fetch_add(1, Ordering::SeqCst);
        RunningGuard(counter.clone())
    }
}

impl Drop for RunningGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Thinking {
    /// Seconds the CPU has been thinking, while it is.
    pub fn elapsed(&self) -> Option<f32> {
        self.task
            .as_ref()
            .and(self.started)
            .map(|t| t.elapsed().as_secs_f32())
    }

    pub fn is_thinking(&self) -> bool {
        self.task.is_some()
    }

    /// How many search threads are still working (including stopped ones not yet ended).
    pub fn searches_running(&self) -> usize {
        self.running.load(Ordering::SeqCst)
    }

    /// Stops the search at once and forgets it.
    pub fn stop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.task = None;
        self.started = None;
        self.key = None;
        self.pending = None;
    }

    /// The latest search info, the side whose search it is and its level.
    pub fn last_info(&self) -> Option<(SearchInfo, Side, u8)> {
        let info = self.info.lock().ok().and_then(|i| i.clone())?;
        Some((info, self.info_side?, self.info_level))
    }

    /// The info shown comes from a hint.
    pub fn hint_shown(&self) -> bool {
        self.hint_info
    }

    /// Shows the finished search of the position `game` is at, or of the one before it, if
    /// there was one ([`recalled`]).
    fn recall_info(&mut self, game: &Match) {
        let ply = game.history.ply();
        let now = (game.position().hash(), ply);
        let before = ply
            .checked_sub(1)
            .map(|p| (game.history.position_at(p).hash(), p));
        let Some(d) = recalled(&self.done, now, before).cloned() else {
            return;
        };
        if let Ok(mut i) = self.info.lock() {
            *i = Some(d.info);
        }
        self.info_side = Some(d.side);
        self.info_level = d.level;
        self.hint_info = d.hint;
    }

    /// Remembers the search just finished, of the position `key`, with its last info.
    fn remember(&mut self, key: SearchKey) {
        let Some(info) = self.info.lock().ok().and_then(|i| i.clone()) else {
            return;
        };
        if self.done.len() >= DONE_KEPT {
            self.done.drain(..DONE_KEPT / 2);
        }
        self.done.push(Done {
            hash: key.hash,
            ply: key.ply,
            info,
            side: key.side,
            level: self.info_level,
            hint: key.hint,
        });
    }

    fn forget_info(&mut self) {
        if let Ok(mut i) = self.info.lock() {
            *i = None;
        }
        self.info_side = None;
        self.info_level = 0;
        self.hint_info = false;
    }
}

fn stop_search(mut thinking: ResMut<Thinking>) {
    thinking.stop();
    thinking.engines = [None, None];
    thinking.forget_info();
    thinking.done.clear();
    thinking.cpu_paused = false;
}

/// A search whose position is gone (undo, new game, load) or that runs while a menu is open is
/// stopped; after an undo, a new game or a jump the eval bar shows the finished search of the
/// position reached (or of the one before it), or nothing.
fn cancel_stale_search(
    mut thinking: ResMut<Thinking>,
    game: Option<Res<Match>>,
    menu: Res<State<InGame>>,
    mut resets: MessageReader<BoardReset>,
) {
    let reset = resets.read().count() > 0;
    if reset {
        thinking.engines = [None, None];
        thinking.forget_info();
        thinking.pending = None;
        if let Some(g) = game.as_ref() {
            if g.is_added() {
                // a new game (or one loaded): the searches of another game are gone
                thinking.done.clear();
            }
            thinking.recall_info(g);
        }
    }
    if !thinking.is_thinking() {
        return;
    }
    let current = game.map(|g| (g.position().hash(), g.history.ply()));
    if reset || current != thinking.key.map(|k| (k.hash, k.ply)) || *menu.get() != InGame::None {
        info!("qi: cpu search stopped");
        thinking.stop();
    }
}

fn control_cpu_games(
    mut controls: MessageReader<CpuControl>,
    mut thinking: ResMut<Thinking>,
    mut status: MessageWriter<Status>,
) {
    for c in controls.read() {
        match c {
            CpuControl::Pause => {
                thinking.cpu_paused = true;
                status.write(Status(t!("status-cpu-paused")));
            }
            CpuControl::Resume => {
                thinking.cpu_paused = false;
                status.write(Status(t!("status-cpu-resumed")));
            }
            CpuControl::Step => thinking.step_once = true,
        }
    }
}

fn start_cpu_search(
    mut thinking: ResMut<Thinking>,
    game: Option<Res<Match>>,
    menu: Res<State<InGame>>,
    settings: Res<Settings>,
) {
    let Some(game) = game else { return };
    if thinking.is_thinking()
        || thinking.pending.is_some()
        || *menu.get() != InGame::None
        || game.is_over()
        || game.replay.is_some()
    {
        return;
    }
    let Player::Cpu { level } = game.player_to_move() else {
        return;
    };
    let cpu_only = game.setup.players.iter().all(|p| p.is_cpu());
    if cpu_only {
        if thinking.cpu_paused && !thinking.step_once {
            return;
        }
        let wait = Duration::from_secs_f32(settings.cpu_vs_cpu_delay.max(0.0));
        if !thinking.step_once && thinking.last_move_at.is_some_and(|t| t.elapsed() < wait) {
            return;
        }
        thinking.step_once = false;
    }
    let pos = game.position().clone();
    let side = pos.side_to_move();
    let kind = pos.kind();
    if !AnyCpu::available(kind) {
        return;
    }
    // The engine (and its table) is made inside the task, so the frame never waits for it.
    let engine = thinking.engines[side.index()]
        .get_or_insert_with(|| Arc::new(Mutex::new(None)))
        .clone();
    let cap = Duration::from_millis(settings.cpu_time_ms(kind) as u64);
    // under a clock the CPU keeps to a budget of its time left
    let movetime = game
        .clock
        .as_ref()
        .map_or(cap, |c| crate::clock::cpu_budget(c, side, cap));
    let stop = Arc::new(AtomicBool::new(false));
    thinking.stop = stop.clone();
    thinking.key = Some(SearchKey {
        hash: pos.hash(),
        ply: game.history.ply(),
        hint: false,
        side,
    });
    thinking.started = Some(Instant::now());
    thinking.info_side = Some(side);
    thinking.info_level = level;
    thinking.hint_info = false;
    let info = thinking.info.clone();
    if let Ok(mut i) = info.lock() {
        *i = None;
    }
    let seed = pos.hash() ^ game.history.ply() as u64;
    info!(
        "qi: cpu thinking (level {level}, {} ms)",
        movetime.as_millis()
    );
    let guard = RunningGuard::new(&thinking.running);
    thinking.task = Some(AsyncComputeTaskPool::get().spawn(async move {
        let _running = guard;
        let mut slot = engine.lock().ok()?;
        if slot.is_none() {
            *slot = AnyCpu::with_cores(kind, level).ok();
        }
        let cpu = slot.as_mut()?;
        let mut on_info = |i: &SearchInfo| {
            if let Ok(mut slot) = info.lock() {
                *slot = Some(i.clone());
            }
        };
        let mv = cpu.choose(&pos, movetime, &stop, seed, &mut on_info)?;
        Some((mv, cpu.resigns()))
    }));
}

/// Hints: the strongest level searches the position for the person to move, briefly.
fn start_hint_search(
    mut thinking: ResMut<Thinking>,
    mut hints: MessageReader<HintRequest>,
    game: Option<Res<Match>>,
    settings: Res<Settings>,
    mut status: MessageWriter<Status>,
) {
    if hints.read().count() == 0 {
        return;
    }
    let Some(game) = game else { return };
    // no help from the CPU against a person over the network
    if !game.human_to_move() || thinking.is_thinking() || game.is_online() {
        return;
    }
    let pos = game.position().clone();
    let kind = pos.kind();
    if !AnyCpu::available(kind) {
        status.write(Status(t!(
            "status-no-hint",
            game = crate::games::ui_of(kind).title()
        )));
        return;
    }
    status.write(Status(t!("status-hint-thinking")));
    let movetime = Duration::from_millis((settings.cpu_time_ms(kind) as u64).min(1000));
    let stop = Arc::new(AtomicBool::new(false));
    thinking.stop = stop.clone();
    thinking.key = Some(SearchKey {
        hash: pos.hash(),
        ply: game.history.ply(),
        hint: true,
        side: pos.side_to_move(),
    });
    thinking.started = Some(Instant::now());
    thinking.info_side = Some(pos.side_to_move());
    thinking.info_level = 6;
    thinking.hint_info = true;
    let info = thinking.info.clone();
    let seed = pos.hash();
    let guard = RunningGuard::new(&thinking.running);
    thinking.task = Some(AsyncComputeTaskPool::get().spawn(async move {
        let _running = guard;
        let mut cpu = AnyCpu::with_cores(kind, 6).ok()?;
        let mut on_info = |i: &SearchInfo| {
            if let Ok(mut slot) = info.lock() {
                *slot = Some(i.clone());
            }
        };
        cpu.choose(&pos, movetime, &stop, seed, &mut on_info)
            .map(|mv| (mv, false))
    }));
}

fn collect_cpu_move(
    mut thinking: ResMut<Thinking>,
    game: Option<Res<Match>>,
    mut hint: ResMut<Hint>,
    mut status: MessageWriter<Status>,
) {
    let Some(task) = thinking.task.as_mut() else {
        return;
    };
    let Some(result) = check_ready(task) else {
        return;
    };
    let key = thinking.key;
    let took = thinking.started.map_or(0.0, |t| t.elapsed().as_secs_f32());
    thinking.task = None;
    thinking.started = None;
    let Some(game) = game else { return };
    let Some(key) = key.filter(|k| (k.hash, k.ply) == (game.position().hash(), game.history.ply()))
    else {
        return;
    };
    if result.is_some() {
        thinking.remember(key);
    }
    if key.hint {
        if let Some((mv, _)) = result {
            let text = game.position().move_to_text(mv);
            info!("qi: hint {text}");
            status.write(Status(t!("status-hint", mv = text.as_str())));
            hint.0 = Some(mv);
        }
        return;
    }
    match result {
        Some((mv, resigns)) => {
            info!(
                "qi: cpu found {} after {took:.2} s",
                game.position().move_to_text(mv)
            );
            thinking.last_search_secs = Some(took);
            thinking.pending = Some((key.hash, key.ply, mv, resigns));
        }
        None => warn!("qi: the CPU found no move"),
    }
}

/// The CPU's move, once the board is at rest (the player's own move has landed).
fn play_pending_move(
    mut thinking: ResMut<Thinking>,
    game: Option<Res<Match>>,
    menu: Res<State<InGame>>,
    mut requests: MessageWriter<MoveRequest>,
    mut resigns: MessageWriter<crate::game::ResignRequest>,
) {
    if *menu.get() != InGame::None {
        return;
    }
    let Some((hash, ply, mv, resign)) = thinking.pending.take() else {
        return;
    };
    let Some(game) = game else { return };
    if (game.position().hash(), game.history.ply()) != (hash, ply) {
        return;
    }
    thinking.last_move_at = Some(Instant::now());
    if resign {
        let side = game.position().side_to_move();
        info!("qi: cpu resigns");
        resigns.write(crate::game::ResignRequest(side));
    } else {
        info!("qi: cpu move {}", game.position().move_to_text(mv));
        requests.write(MoveRequest(mv));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn done(hash: u64, ply: usize, score: i32) -> Done {
        Done {
            hash,
            ply,
            info: SearchInfo {
                depth: 5,
                score,
                nodes: 5000,
                ..SearchInfo::default()
            },
            side: Side::Black,
            level: 6,
            hint: false,
        }
    }

    #[test]
    fn an_undo_recalls_the_search_of_the_position_reached() {
        let searches = [done(11, 1, 10), done(33, 3, 30), done(11, 1, 15)];
        // back at a searched position: its newest search
        let d = recalled(&searches, (11, 1), Some((7, 0))).unwrap();
        assert_eq!(d.info.score, 15);
        // a position nobody searched, after one that was: the search before it
        let d = recalled(&searches, (44, 4), Some((33, 3))).unwrap();
        assert_eq!(d.info.score, 30);
        // the same hash at another ply is another position
        assert!(recalled(&searches, (33, 5), Some((20, 4))).is_none());
        // nothing before the first position
        assert!(recalled(&searches, (99, 0), None).is_none());
        assert!(recalled(&[], (11, 1), Some((7, 0))).is_none());
    }
}
