//! The heads-up display around the board: scores and turn on top, the side panel with players,
//! buttons (undo, redo, hint, pass, resign, pause), the move box and the move list, and a status
//! line. Moves are counted one way everywhere: "move N" is the N-th move played (a ply).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use qi_core::{GameKind, Side};

use crate::game::{
    ConfirmScoring, Match, MoveRequest, Player, RedoRequest, ScoreView, Status, StatusLine,
    UndoRequest,
};
use crate::menus::game_over::ShowResult;
use crate::menus::{InGame, format_time};
use crate::replay::ReplayStep;
use crate::screens::Screen;
use crate::theme::palette;

mod eval;
mod online_panel;
mod replay_panel;
mod top_bar;

pub use eval::{MAX_SHOWN_NOISE, MIN_SHOWN_PLAYOUTS, eval_bar_ui, eval_text, win_chance};
pub use online_panel::{OnlineView, online_panel_ui};
pub use replay_panel::{ReplayView, move_list_ui, replay_panel_ui};
pub use top_bar::{piece_icon, top_bar_ui};

pub fn plugin(app: &mut App) {
    app.init_resource::<HudModel>()
        .add_message::<CpuControl>()
        .add_systems(
            EguiPrimaryContextPass,
            draw_hud.run_if(in_state(Screen::Playing)),
        )
        .add_systems(
            Update,
            count_game_time
                .run_if(in_state(Screen::Playing))
                .run_if(in_state(InGame::None)),
        );
}

/// What the player typed and the HUD's own state.
#[derive(Resource, Default, Clone, Debug)]
pub struct HudModel {
    pub move_text: String,
    /// Give the move box the keyboard again next frame (after a typed move).
    pub refocus: bool,
    /// The move box has the keyboard only because a move was just typed there (nothing typed
    /// since): Escape then opens the pause menu at once, as it does from the board, rather
    /// than only leaving the box.
    pub kept_keys: bool,
    /// The chat line being typed (online games).
    pub chat_text: String,
}

/// CPU against CPU: pause, go on, one move.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CpuControl {
    Pause,
    Resume,
    Step,
}

/// What the HUD shows, taken from the game each frame.
#[derive(Clone, Debug, PartialEq)]
pub struct HudView {
    pub kind: GameKind,
    pub names: [String; 2],
    pub players: [Player; 2],
    pub counts: [u32; 2],
    pub to_move: Side,
    pub over: bool,
    /// Moves played.
    pub ply: usize,
    pub last_move: Option<String>,
    pub status: String,
    pub can_undo: bool,
    pub can_redo: bool,
    /// The person to move may pass now.
    pub pass_legal: bool,
    /// The game has a pass button (Go; Ataxx and Reversi pass by themselves, Gomoku has no
    /// pass).
    pub has_pass: bool,
    pub moves: Vec<String>,
    pub elapsed: f32,
    pub thinking: Option<f32>,
    pub hint_allowed: bool,
    /// The game's own line (Go: captures and the area count now).
    pub info_line: Option<String>,
    /// The score while the game is being scored (Go after two passes).
    pub scoring: Option<String>,
    /// The CPU's last evaluation for the first side, -1..1 (for the eval bar), with its text.
    pub eval: Option<(f32, String)>,
    /// A record being replayed.
    pub replay: Option<ReplayView>,
    /// The game has a resign button, and whether the person to move may resign now.
    pub has_resign: bool,
    pub can_resign: bool,
    /// The result, once the game is over.
    pub result: Option<String>,
    /// CPU against CPU: `Some(paused)`.
    pub cpu_vs_cpu: Option<bool>,
    /// The clocks' texts (`[first, second]`) and whose clock runs, in a game with a clock.
    pub clocks: Option<([String; 2], Option<Side>)>,
    /// An online game.
    pub online: Option<OnlineView>,
    /// The named opening (or Go joseki) the game has reached.
    pub opening: Option<String>,
}

impl HudView {
    pub fn of(game: &Match, status: &StatusLine, scoring: &ScoreView) -> HudView {
        let pos = game.position();
        let ui = game.ui();
        let moves = game.history.move_texts();
        let human = game.human_to_move();
        HudView {
            kind: game.kind(),
            names: game.setup.names.clone(),
            players: game.setup.players,
            counts: pos.piece_counts(),
            to_move: pos.side_to_move(),
            over: game.is_over(),
            ply: game.history.ply(),
            last_move: moves.last().cloned(),
            status: status.0.clone(),
            can_undo: crate::game::can_undo_for_player(game),
            can_redo: game.history.can_redo(),
            pass_legal: human && pos.legal_pass().is_some(),
            has_pass: ui.passes_by_choice(),
            moves,
            elapsed: game.elapsed,
            thinking: None,
            hint_allowed: human && qi_core::any::AnyCpu::available(game.kind()),
            info_line: ui.info_line(pos),
            scoring: scoring.0.clone(),
            eval: None,
            has_resign: ui.can_resign(),
            can_resign: human,
            result: game
                .result()
                .map(|r| crate::games::result_text(game.kind(), &r)),
            cpu_vs_cpu: None,
            clocks: game.clock.as_ref().map(crate::clock::clock_texts),
            online: None,
            opening: None,
            replay: game.replay.as_ref().map(|r| ReplayView {
                source: r.source.clone(),
                ply: game.history.ply(),
                total: game.history.all_moves().len(),
                autoplay: r.autoplay,
                comment: r
                    .comments
                    .get(&game.history.ply())
                    .map(|c| qi_core::analysis::without_analysis(c))
                    .filter(|c| !c.is_empty()),
                result: r
                    .result
                    .as_deref()
                    .map(|raw| crate::games::record_result(game.kind(), raw)),
                all_moves: game.history.all_move_texts(),
                speed: r.seconds_per_move,
                analysis: r.analysis.as_ref().map(|a| {
                    crate::analysis::AnalysisView::of(
                        a,
                        game.history.ply(),
                        [&game.setup.names[0], &game.setup.names[1]],
                    )
                }),
                progress: None,
                opening: None,
                info_line: ui.info_line(pos),
            }),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum HudAction {
    ConfirmScore,
    Hint,
    Undo,
    Redo,
    Pass,
    Pause,
    /// A move typed into the move box.
    Typed(String),
    Replay(ReplayStep),
    Resign,
    /// The analysis: start or cancel it.
    Analysis(crate::analysis::AnalysisRequest),
    /// The next (or previous) marked move of the analysis.
    JumpMark {
        back: bool,
    },
    ShowResult,
    NewGame,
    Cpu(CpuControl),
    Online(qi_net::Action),
}

/// The side panel; returns what the player asked for.
pub fn side_panel_ui(ui: &mut egui::Ui, v: &HudView, model: &mut HudModel) -> Option<HudAction> {
    if let Some(r) = &v.replay {
        return replay_panel_ui(ui, r);
    }
    let mut action = None;
    if let Some((e, text)) = &v.eval {
        eval_bar_ui(ui, v.kind, *e, text);
        ui.add_space(6.0);
    }
    if let Some(result) = &v.result {
        ui.label(egui::RichText::new(result).size(20.0).strong());
        ui.horizontal(|ui| {
            if ui.button(t!("hud-result")).clicked() {
                action = Some(HudAction::ShowResult);
            }
            if ui.button(t!("menu-new-game")).clicked() {
                action = Some(HudAction::NewGame);
            }
        });
        ui.add_space(6.0);
    }
    ui.label(t!(
        "hud-last-move",
        mv = v.last_move.as_deref().unwrap_or("—")
    ));
    if let Some(line) = &v.info_line {
        ui.label(line);
    }
    if let Some(o) = &v.opening {
        ui.label(o);
    }
    if let Some(score) = &v.scoring {
        ui.add_space(6.0);
        ui.label(egui::RichText::new(t!("hud-both-passed")).strong());
        ui.label(t!("hud-mark-dead"));
        ui.label(egui::RichText::new(t!("hud-score", score = score.as_str())).size(18.0));
        if ui
            .button(egui::RichText::new(t!("hud-confirm-score")).size(16.0))
            .clicked()
        {
            action = Some(HudAction::ConfirmScore);
        }
        ui.add_space(6.0);
    }
    if let Some(o) = &v.online {
        ui.add_space(4.0);
        if let Some(a) = online_panel_ui(ui, o, model) {
            action = Some(HudAction::Online(a));
        }
    }
    if let Some(paused) = v.cpu_vs_cpu {
        ui.horizontal(|ui| {
            if paused {
                if ui.button(t!("hud-cpu-go-on")).clicked() {
                    action = Some(HudAction::Cpu(CpuControl::Resume));
                }
                if ui.button(t!("hud-cpu-one-move")).clicked() {
                    action = Some(HudAction::Cpu(CpuControl::Step));
                }
            } else if ui.button(t!("hud-cpu-pause")).clicked() {
                action = Some(HudAction::Cpu(CpuControl::Pause));
            }
        });
    }
    ui.add_space(6.0);
    // every button keeps its place: one that cannot be used now is greyed, never hidden
    ui.horizontal_wrapped(|ui| {
        if ui
            .add_enabled(v.can_undo, egui::Button::new(t!("hud-undo")))
            .clicked()
        {
            action = Some(HudAction::Undo);
        }
        if ui
            .add_enabled(v.can_redo, egui::Button::new(t!("hud-redo")))
            .clicked()
        {
            action = Some(HudAction::Redo);
        }
        if ui
            .add_enabled(v.hint_allowed, egui::Button::new(t!("hud-hint")))
            .clicked()
        {
            action = Some(HudAction::Hint);
        }
        if v.has_pass
            && ui
                .add_enabled(v.pass_legal, egui::Button::new(t!("hud-pass")))
                .clicked()
        {
            action = Some(HudAction::Pass);
        }
        if v.has_resign
            && ui
                .add_enabled(v.can_resign, egui::Button::new(t!("hud-resign")))
                .clicked()
        {
            action = Some(HudAction::Resign);
        }
        if ui.button(t!("hud-pause")).clicked() {
            action = Some(HudAction::Pause);
        }
    });
    ui.add_space(8.0);
    ui.label(t!("hud-type-move", notation = v.kind.info().notation));
    let box_id = egui::Id::new("move_box");
    let box_has_keys = ui.memory(|m| m.has_focus(box_id));
    // Enter gives the box the keyboard when nothing else has it (the letters alone are the
    // board's shortcuts), unless it confirms a count after two passes or a menu is open over the HUD (which
    // then is disabled and the Enter is the menu's)
    let enter_opens = !box_has_keys
        && ui.is_enabled()
        && v.scoring.is_none()
        && ui.memory(|m| m.focused().is_none())
        && ui.input(|i| i.key_pressed(egui::Key::Enter));
    let edit = ui.add(
        egui::TextEdit::singleline(&mut model.move_text)
            .hint_text(if box_has_keys {
                t!("hud-move-hint")
            } else {
                t!("hud-move-hint-enter")
            })
            .desired_width(160.0)
            .id(box_id),
    );
    if enter_opens {
        edit.request_focus();
    }
    // U in the empty box undoes, as it does on the board: after a typed move the box keeps
    // the keyboard, and no move of any game begins with a U (Go's columns end at T)
    if box_has_keys && model.move_text.eq_ignore_ascii_case("u") {
        model.move_text.clear();
        if v.can_undo {
            action = Some(HudAction::Undo);
        }
    }
    if model.refocus {
        edit.request_focus();
        model.refocus = false;
    }
    if !model.move_text.is_empty() {
        model.kept_keys = false;
    }
    if edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
        let text = model.move_text.trim().to_string();
        if !text.is_empty() {
            action = Some(HudAction::Typed(text));
        }
        model.move_text.clear();
        // the box keeps the keyboard for the next move (it looked focused but was not)
        model.refocus = true;
        model.kept_keys = true;
    } else if edit.lost_focus() {
        // Escape (or a click elsewhere) leaves the box: what was half typed goes with it, so
        // the next Enter opens an empty box rather than playing stale text
        model.move_text.clear();
        // right after a typed move the box only kept the keyboard for the next one: Escape
        // pauses as from the board (the first Escape had only left the box)
        if std::mem::take(&mut model.kept_keys) && ui.input(|i| i.key_pressed(egui::Key::Escape)) {
            action = Some(HudAction::Pause);
        }
    }
    ui.add_space(8.0);
    move_list_ui(ui, &v.moves, None, &[]);
    action
}

/// Where the HUD's buttons send their requests.
#[derive(bevy::ecs::system::SystemParam)]
pub struct HudWriters<'w> {
    undo: MessageWriter<'w, UndoRequest>,
    redo: MessageWriter<'w, RedoRequest>,
    requests: MessageWriter<'w, MoveRequest>,
    hint: MessageWriter<'w, crate::cpu::HintRequest>,
    replay: MessageWriter<'w, ReplayStep>,
    analysis: MessageWriter<'w, crate::analysis::AnalysisRequest>,
    resign: MessageWriter<'w, crate::game::ResignRequest>,
    confirm: MessageWriter<'w, ConfirmScoring>,
    show_result: MessageWriter<'w, ShowResult>,
    cpu_control: MessageWriter<'w, CpuControl>,
    online: MessageWriter<'w, crate::online::OnlineAction>,
    status: MessageWriter<'w, Status>,
    next_in_game: ResMut<'w, NextState<InGame>>,
    next_screen: ResMut<'w, NextState<Screen>>,
    title_menu: ResMut<'w, crate::screens::TitleMenu>,
}

/// What the HUD reads besides the game.
#[derive(bevy::ecs::system::SystemParam)]
pub struct HudSources<'w> {
    in_game: Res<'w, State<InGame>>,
    thinking: Res<'w, crate::cpu::Thinking>,
    online: Option<Res<'w, crate::online::Online>>,
    settings: Res<'w, crate::settings::Settings>,
    status_line: Res<'w, StatusLine>,
    scoring: Res<'w, ScoreView>,
    analysis_run: Res<'w, crate::analysis::AnalysisRun>,
    opening: Res<'w, crate::openings::OpeningShown>,
}

fn draw_hud(
    mut contexts: EguiContexts,
    game: Option<Res<Match>>,
    mut model: ResMut<HudModel>,
    out: HudWriters,
    src: HudSources,
) -> Result {
    let HudWriters {
        mut undo,
        mut redo,
        mut requests,
        mut hint,
        mut replay,
        mut analysis,
        mut resign,
        mut confirm,
        mut show_result,
        mut cpu_control,
        mut online,
        mut status,
        mut next_in_game,
        mut next_screen,
        mut title_menu,
    } = out;
    let HudSources {
        in_game,
        thinking,
        settings,
        status_line,
        scoring,
        analysis_run,
        online: net,
        opening,
    } = src;
    let Some(game) = game else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let mut view = HudView::of(&game, &status_line, &scoring);
    view.opening = opening.text.clone();
    if let Some(r) = view.replay.as_mut() {
        r.progress = analysis_run.progress();
        r.opening = opening.text.clone();
    }
    view.thinking = thinking.elapsed();
    view.hint_allowed &= !thinking.is_thinking();
    if let Some(o) = net.as_ref().filter(|_| game.is_online()) {
        let ov = OnlineView::of(o, game.is_over());
        // undo is a request to the opponent; no redo, no hint; resign has its own button
        let me = crate::online::my_side(o);
        let ply = game.history.ply();
        let mine_to_undo =
            (ply.saturating_sub(3)..ply).any(|p| game.history.position_at(p).side_to_move() == me);
        view.can_undo = ov.can_act && ov.asked.is_none() && !view.over && mine_to_undo;
        view.can_redo = false;
        view.hint_allowed = false;
        view.has_resign = false;
        view.clocks = crate::online::clock_now(o)
            .as_ref()
            .map(crate::clock::clock_texts);
        view.online = Some(ov);
    }
    if game.setup.players.iter().all(|p| p.is_cpu()) {
        view.cpu_vs_cpu = Some(thinking.cpu_paused);
    }
    // the eval bar shows the CPU's own searches (and hints), never in a game between people
    let cpu_in_game = game.setup.players.iter().any(|p| p.is_cpu());
    if settings.eval_bar && (cpu_in_game || thinking.hint_shown()) {
        view.eval = thinking
            .last_info()
            .and_then(|(info, side, level)| eval_text(view.kind, &info, side, level));
    }
    let window = ctx.viewport_rect();
    let side_width = crate::board::side_panel_width(window.width());
    let mut root = egui::Ui::new(
        ctx.clone(),
        "hud".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(window),
    );
    // under a menu the HUD stays visible but takes no clicks
    if *in_game.get() != InGame::None {
        root.disable();
    }
    egui::Panel::top("hud_top")
        .exact_size(crate::board::TOP_BAR)
        .show(&mut root, |ui| top_bar_ui(ui, &view));
    egui::Panel::bottom("hud_status")
        .exact_size(crate::board::BOTTOM_BAR)
        .show(&mut root, |ui| {
            ui.horizontal_centered(|ui| ui.label(egui::RichText::new(&view.status).size(15.0)));
        });
    let action = egui::Panel::right("hud_side")
        .exact_size(side_width)
        .resizable(false)
        .show(&mut root, |ui| side_panel_ui(ui, &view, &mut model))
        .inner;
    match action {
        Some(HudAction::ConfirmScore) => {
            confirm.write(ConfirmScoring);
        }
        Some(HudAction::Replay(step)) => {
            replay.write(step);
        }
        Some(HudAction::Analysis(r)) => {
            analysis.write(r);
        }
        Some(HudAction::JumpMark { back }) => {
            if let Some(ply) = game
                .replay
                .as_ref()
                .and_then(|r| r.analysis.as_ref())
                .and_then(|a| {
                    a.next_marked(
                        game.history.ply(),
                        qi_core::analysis::Mark::Inaccuracy,
                        back,
                    )
                })
            {
                replay.write(ReplayStep::To(ply));
            }
        }
        Some(HudAction::Resign) => {
            resign.write(crate::game::ResignRequest(game.position().side_to_move()));
        }
        Some(HudAction::Hint) => {
            hint.write(crate::cpu::HintRequest);
        }
        Some(HudAction::Undo) => {
            undo.write(UndoRequest);
        }
        Some(HudAction::Redo) => {
            redo.write(RedoRequest);
        }
        Some(HudAction::Pass) => {
            if let Some(p) = game.position().legal_pass() {
                requests.write(MoveRequest(p));
            }
        }
        Some(HudAction::Pause) => next_in_game.set(InGame::Pause),
        Some(HudAction::ShowResult) => {
            show_result.write(ShowResult);
        }
        Some(HudAction::NewGame) => {
            title_menu.0 = crate::menus::Menu::NewGame;
            next_screen.set(Screen::Title);
        }
        Some(HudAction::Cpu(c)) => {
            cpu_control.write(c);
        }
        Some(HudAction::Online(a)) => {
            online.write(crate::online::OnlineAction(a));
        }
        Some(HudAction::Typed(text)) => {
            if !game.human_to_move() {
                status.write(Status(t!("status-wait-turn")));
            } else {
                match game.position().parse_move(&text) {
                    Ok(mv) => {
                        requests.write(MoveRequest(mv));
                    }
                    Err(e) => {
                        info!("qi: cannot read the typed move {text:?}: {e}");
                        status.write(Status(t!(
                            "status-cannot-read-move",
                            text = text.as_str(),
                            notation = game.kind().info().notation
                        )));
                    }
                }
            }
        }
        None => {}
    }
    Ok(())
}

fn count_game_time(time: Res<Time>, game: Option<ResMut<Match>>) {
    if let Some(mut g) = game
        && !g.is_over()
        && g.replay.is_none()
        && !g.hold
    {
        g.elapsed += time.delta_secs();
    }
}

#[cfg(test)]
mod tests;
