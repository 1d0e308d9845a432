//! The CPU player in the window: its search runs on Bevy's AsyncComputeTaskPool with a stop
//! flag, so the window keeps drawing; undo, a new game, pausing or leaving stops it at once.
//! Its progress (depth, score, principal variation) feeds the HUD's "thinking" line and eval bar.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::tasks::futures::check_ready;
use bevy::tasks::{AsyncComputeTaskPool, Task};
use qi_core::any::{AnyCpu, AnyMove};
use qi_core::search::SearchInfo;

use crate::board::Anim;
use crate::game::{BoardReset, Match, MoveRequest, Player};
use crate::menus::Menu;
use crate::screens::Screen;
use crate::settings::Settings;

pub fn plugin(app: &mut App) {
    app.init_resource::<Thinking>()
        .add_message::<HintRequest>()
        .add_systems(
            Update,
            (
                cancel_stale_search,
                start_hint_search,
                start_cpu_search,
                collect_cpu_move,
            )
                .chain()
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
    /// The last info from the running or last search.
    pub info: Arc<Mutex<Option<SearchInfo>>>,
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

    /// Stops the search at once and forgets it.
    pub fn stop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.task = None;
        self.started = None;
        self.key = None;
    }

    pub fn last_info(&self) -> Option<SearchInfo> {
        self.info.lock().ok().and_then(|i| i.clone())
    }
}

fn stop_search(mut thinking: ResMut<Thinking>) {
    thinking.stop();
    thinking.engines = [None, None];
}

/// A search whose position is gone (undo, new game, load) or that runs while the game is
/// paused is stopped.
fn cancel_stale_search(
    mut thinking: ResMut<Thinking>,
    game: Option<Res<Match>>,
    menu: Res<State<Menu>>,
    mut resets: MessageReader<BoardReset>,
) {
    let reset = resets.read().count() > 0;
    if reset {
        thinking.engines = [None, None];
    }
    if !thinking.is_thinking() {
        return;
    }
    let current = game.map(|g| (g.position().hash(), g.history.ply()));
    if reset || current != thinking.key.map(|k| (k.hash, k.ply)) || *menu.get() != Menu::None {
        info!("qi: cpu search stopped");
        thinking.stop();
    }
}

fn start_cpu_search(
    mut thinking: ResMut<Thinking>,
    game: Option<Res<Match>>,
    menu: Res<State<Menu>>,
    settings: Res<Settings>,
    animating: Query<(), With<Anim>>,
) {
    let Some(game) = game else { return };
    if thinking.is_thinking()
        || *menu.get() != Menu::None
        || !animating.is_empty()
        || game.is_over()
    {
        return;
    }
    let Player::Cpu { level } = game.player_to_move() else {
        return;
    };
    let pos = game.position().clone();
    let side = pos.side_to_move().index();
    let kind = pos.kind();
    if !AnyCpu::available(kind) {
        return;
    }
    // The engine (and its table) is made inside the task, so the frame never waits for it.
    let engine = thinking.engines[side]
        .get_or_insert_with(|| Arc::new(Mutex::new(None)))
        .clone();
    let movetime = Duration::from_millis(settings.cpu_time_ms[kind as usize] as u64);
    let stop = Arc::new(AtomicBool::new(false));
    thinking.stop = stop.clone();
    thinking.key = Some(SearchKey {
        hash: pos.hash(),
        ply: game.history.ply(),
        hint: false,
    });
    thinking.started = Some(Instant::now());
    let info = thinking.info.clone();
    if let Ok(mut i) = info.lock() {
        *i = None;
    }
    let seed = pos.hash() ^ game.history.ply() as u64;
    info!(
        "qi: cpu thinking (level {level}, {} ms)",
        movetime.as_millis()
    );
    thinking.task = Some(AsyncComputeTaskPool::get().spawn(async move {
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
    game: Option<ResMut<Match>>,
    settings: Res<Settings>,
) {
    if hints.read().count() == 0 {
        return;
    }
    let Some(mut game) = game else { return };
    if !game.human_to_move() || thinking.is_thinking() {
        return;
    }
    let pos = game.position().clone();
    let kind = pos.kind();
    if !AnyCpu::available(kind) {
        game.status = format!("No hint: there is no CPU for {} yet", kind.title());
        return;
    }
    game.status = "Looking for a good move…".into();
    let movetime = Duration::from_millis((settings.cpu_time_ms[kind as usize] as u64).min(1000));
    let stop = Arc::new(AtomicBool::new(false));
    thinking.stop = stop.clone();
    thinking.key = Some(SearchKey {
        hash: pos.hash(),
        ply: game.history.ply(),
        hint: true,
    });
    thinking.started = Some(Instant::now());
    let info = thinking.info.clone();
    let seed = pos.hash();
    thinking.task = Some(AsyncComputeTaskPool::get().spawn(async move {
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
    game: Option<ResMut<Match>>,
    mut requests: MessageWriter<MoveRequest>,
    mut resigns: MessageWriter<crate::game::ResignRequest>,
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
    let Some(mut game) = game else { return };
    let Some(key) = key.filter(|k| (k.hash, k.ply) == (game.position().hash(), game.history.ply()))
    else {
        return;
    };
    if key.hint {
        if let Some((mv, _)) = result {
            let text = game.position().move_to_text(mv);
            info!("qi: hint {text}");
            game.status = format!("Hint: {text}");
            game.hint = Some(mv);
        }
        return;
    }
    match result {
        Some((_, true)) => {
            let side = game.position().side_to_move();
            info!("qi: cpu resigns after {took:.2} s");
            resigns.write(crate::game::ResignRequest(side));
        }
        Some((mv, false)) => {
            info!(
                "qi: cpu move {} after {took:.2} s",
                game.position().move_to_text(mv)
            );
            requests.write(MoveRequest(mv));
        }
        None => warn!("qi: the CPU found no move"),
    }
}
