//! The heads-up display around the board: scores and turn on top, the side panel with players,
//! buttons (undo, redo, pass, pause), the move box and the move list, and a status line.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use qi_core::{GameKind, Side};

use crate::game::{Match, MoveRequest, Player, RedoRequest, UndoRequest, side_name};
use crate::menus::{Menu, MenuModels, format_time};
use crate::replay::ReplayStep;
use crate::screens::Screen;

pub fn plugin(app: &mut App) {
    app.init_resource::<HudModel>()
        .add_systems(
            EguiPrimaryContextPass,
            draw_hud.run_if(in_state(Screen::Playing)),
        )
        .add_systems(
            Update,
            count_game_time
                .run_if(in_state(Screen::Playing))
                .run_if(in_state(Menu::None)),
        );
}

/// What the player typed and the HUD's own state.
#[derive(Resource, Default, Clone, Debug)]
pub struct HudModel {
    pub move_text: String,
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
    pub ply: usize,
    pub last_move: Option<String>,
    pub status: String,
    pub can_undo: bool,
    pub can_redo: bool,
    pub pass_legal: bool,
    pub moves: Vec<String>,
    pub elapsed: f32,
    pub thinking: Option<f32>,
    pub hint_allowed: bool,
    /// Go: captures and the area count now.
    pub go_line: Option<String>,
    /// Go after two passes: the score with the marked dead stones.
    pub marking: Option<String>,
    /// The CPU's last evaluation for Black, -1..1 (for the eval bar), with its text.
    pub eval: Option<(f32, String)>,
    /// A record being replayed.
    pub replay: Option<ReplayView>,
    /// Go: the person to move may resign.
    pub can_resign: bool,
}

/// The replay controls' view of the record.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayView {
    pub source: String,
    pub ply: usize,
    pub total: usize,
    pub autoplay: bool,
    /// The record's comment at this move.
    pub comment: Option<String>,
    pub result: Option<String>,
}

impl HudView {
    pub fn of(game: &Match) -> HudView {
        let pos = game.position();
        let moves = game.history.move_texts();
        HudView {
            kind: game.kind(),
            names: game.setup.names.clone(),
            players: game.setup.players,
            counts: pos.piece_counts(),
            to_move: pos.side_to_move(),
            over: game.is_over(),
            ply: game.history.ply(),
            last_move: moves.last().cloned(),
            status: game.status.clone(),
            can_undo: crate::game::can_undo_for_player(game),
            can_redo: game.history.can_redo(),
            pass_legal: game.human_to_move() && pos.legal_pass().is_some(),
            moves,
            elapsed: game.elapsed,
            thinking: None,
            hint_allowed: game.human_to_move() && qi_core::any::AnyCpu::available(game.kind()),
            marking: if game.marking_dead() {
                game.marked_score().map(|s| s.result_text())
            } else {
                None
            },
            go_line: pos.captures().map(|[b, w]| {
                let counts = pos.piece_counts();
                // the area count means little until both colours are on the board (one stone
                // alone "owns" every empty point)
                if counts[0] > 0 && counts[1] > 0 {
                    format!(
                        "Captures: Black {b}, White {w} · Area now {}",
                        pos.area_result().unwrap_or_default()
                    )
                } else {
                    format!("Captures: Black {b}, White {w}")
                }
            }),
            eval: None,
            can_resign: game.human_to_move() && pos.as_go().is_some(),
            replay: game.replay.as_ref().map(|r| ReplayView {
                source: r.source.clone(),
                ply: game.history.ply(),
                total: game.history.all_moves().len(),
                autoplay: r.autoplay,
                comment: r.comments.get(&game.history.ply()).cloned(),
                result: r.result.clone(),
            }),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HudAction {
    ConfirmDead,
    Hint,
    Undo,
    Redo,
    Pass,
    Pause,
    /// A move typed into the move box.
    Typed(String),
    Replay(ReplayStep),
    Resign,
}

fn player_line(v: &HudView, side: Side) -> String {
    let who = match v.players[side.index()] {
        Player::Human => v.names[side.index()].clone(),
        Player::Cpu { level } => format!("CPU level {level}"),
    };
    format!("{} ({who})", side_name(v.kind, side))
}

/// The top bar: the score and whose turn it is.
pub fn top_bar_ui(ui: &mut egui::Ui, v: &HudView) {
    ui.horizontal_centered(|ui| {
        ui.label(egui::RichText::new(v.kind.title()).size(22.0).strong());
        ui.separator();
        for side in Side::BOTH {
            let c = crate::board::piece_color32(v.kind, side);
            let (rect, _) = ui.allocate_exact_size(egui::vec2(18.0, 18.0), egui::Sense::hover());
            ui.painter().circle_filled(rect.center(), 8.0, c);
            ui.painter().circle_stroke(
                rect.center(),
                8.0,
                egui::Stroke::new(1.0, egui::Color32::GRAY),
            );
            let mut t = egui::RichText::new(format!(
                "{}  {}",
                player_line(v, side),
                v.counts[side.index()]
            ))
            .size(18.0);
            if side == v.to_move && !v.over {
                t = t.strong().underline();
            }
            ui.label(t);
            ui.add_space(12.0);
        }
        ui.separator();
        let turn = if v.over {
            "Game over".to_string()
        } else if let Some(t) = v.thinking {
            format!(
                "{} to move — CPU thinking… {:.1} s",
                side_name(v.kind, v.to_move),
                t
            )
        } else {
            format!("{} to move", side_name(v.kind, v.to_move))
        };
        ui.label(egui::RichText::new(turn).size(16.0));
        ui.separator();
        ui.label(format!("Move {}  ·  {}", v.ply + 1, format_time(v.elapsed)));
    });
}

/// A horizontal bar: Black's share grows to the left as the CPU's score for Black rises.
pub fn eval_bar_ui(ui: &mut egui::Ui, kind: GameKind, value: f32, text: &str) {
    let width = ui.available_width();
    let (rect, _) = ui.allocate_exact_size(egui::vec2(width, 14.0), egui::Sense::hover());
    let split = rect.left() + rect.width() * (0.5 + 0.5 * value.clamp(-1.0, 1.0));
    let p = ui.painter();
    p.rect_filled(rect, 3.0, crate::board::piece_color32(kind, Side::White));
    p.rect_filled(
        egui::Rect::from_min_max(rect.min, egui::pos2(split, rect.max.y)),
        3.0,
        crate::board::piece_color32(kind, Side::Black),
    );
    p.rect_stroke(
        rect,
        3.0,
        egui::Stroke::new(1.0, egui::Color32::GRAY),
        egui::StrokeKind::Inside,
    );
    ui.label(egui::RichText::new(text).small());
}

/// The replay controls: first, back, forward, last, a slider to jump, autoplay, and "play from
/// here".
pub fn replay_panel_ui(ui: &mut egui::Ui, r: &ReplayView) -> Option<HudAction> {
    let mut action = None;
    ui.heading("Replay");
    ui.label(egui::RichText::new(&r.source).weak());
    if let Some(result) = &r.result {
        ui.label(format!("Result: {result}"));
    }
    ui.label(egui::RichText::new(format!("Move {} of {}", r.ply, r.total)).size(18.0));
    ui.horizontal(|ui| {
        for (label, step, on) in [
            ("|<", ReplayStep::First, r.ply > 0),
            ("<", ReplayStep::Back, r.ply > 0),
            (">", ReplayStep::Forward, r.ply < r.total),
            (">|", ReplayStep::Last, r.ply < r.total),
        ] {
            if ui
                .add_enabled(
                    on,
                    egui::Button::new(egui::RichText::new(label).size(18.0).monospace())
                        .min_size(egui::vec2(44.0, 30.0)),
                )
                .clicked()
            {
                action = Some(HudAction::Replay(step));
            }
        }
    });
    let mut ply = r.ply;
    if ui
        .add(egui::Slider::new(&mut ply, 0..=r.total).text("move"))
        .changed()
    {
        action = Some(HudAction::Replay(ReplayStep::To(ply)));
    }
    let auto = if r.autoplay {
        "Stop autoplay (Space)"
    } else {
        "Autoplay (Space)"
    };
    if ui
        .add_enabled(r.autoplay || r.ply < r.total, egui::Button::new(auto))
        .clicked()
    {
        action = Some(HudAction::Replay(ReplayStep::ToggleAutoplay));
    }
    ui.label(egui::RichText::new("Left / Right step, Home / End first / last").weak());
    if let Some(c) = &r.comment {
        ui.add_space(4.0);
        egui::ScrollArea::vertical()
            .id_salt("comment")
            .max_height(120.0)
            .show(ui, |ui| ui.label(egui::RichText::new(c).italics()));
    }
    ui.add_space(8.0);
    ui.label(egui::RichText::new("Play from here").strong());
    ui.horizontal(|ui| {
        if ui.button("Against the CPU").clicked() {
            action = Some(HudAction::Replay(ReplayStep::PlayFromHere { vs_cpu: true }));
        }
        if ui.button("Two players").clicked() {
            action = Some(HudAction::Replay(ReplayStep::PlayFromHere {
                vs_cpu: false,
            }));
        }
    });
    if ui.button("Menu (Esc)").clicked() {
        action = Some(HudAction::Pause);
    }
    action
}

/// The side panel; returns what the player asked for.
pub fn side_panel_ui(ui: &mut egui::Ui, v: &HudView, model: &mut HudModel) -> Option<HudAction> {
    if let Some(r) = &v.replay {
        let action = replay_panel_ui(ui, r);
        ui.add_space(8.0);
        move_list_ui(ui, v);
        return action;
    }
    let mut action = None;
    if let Some((e, text)) = &v.eval {
        eval_bar_ui(ui, v.kind, *e, text);
        ui.add_space(6.0);
    }
    ui.heading("Game");
    ui.label(format!(
        "Last move: {}",
        v.last_move.as_deref().unwrap_or("—")
    ));
    if let Some(line) = &v.go_line {
        ui.label(line);
    }
    if let Some(score) = &v.marking {
        ui.add_space(6.0);
        ui.label(egui::RichText::new("Both players passed.").strong());
        ui.label("Click a group to mark it dead (red cross) or alive again.");
        ui.label(egui::RichText::new(format!("Score: {score}")).size(18.0));
        if ui
            .button(egui::RichText::new("Confirm the score").size(16.0))
            .clicked()
        {
            action = Some(HudAction::ConfirmDead);
        }
        ui.add_space(6.0);
    }
    ui.add_space(6.0);
    ui.horizontal_wrapped(|ui| {
        if ui
            .add_enabled(v.can_undo, egui::Button::new("Undo (U)"))
            .clicked()
        {
            action = Some(HudAction::Undo);
        }
        if ui
            .add_enabled(v.can_redo, egui::Button::new("Redo (R)"))
            .clicked()
        {
            action = Some(HudAction::Redo);
        }
        if ui
            .add_enabled(v.hint_allowed, egui::Button::new("Hint (H)"))
            .clicked()
        {
            action = Some(HudAction::Hint);
        }
        if v.pass_legal && ui.button("Pass").clicked() {
            action = Some(HudAction::Pass);
        }
        if v.can_resign && ui.button("Resign").clicked() {
            action = Some(HudAction::Resign);
        }
        if ui.button("Pause (Esc)").clicked() {
            action = Some(HudAction::Pause);
        }
    });
    ui.add_space(8.0);
    ui.label("Type a move (a1c3, d3, pass) and press Enter:");
    let edit = ui.add(
        egui::TextEdit::singleline(&mut model.move_text)
            .hint_text("move")
            .desired_width(160.0)
            .id(egui::Id::new("move_box")),
    );
    if edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
        let text = model.move_text.trim().to_string();
        if !text.is_empty() {
            action = Some(HudAction::Typed(text));
        }
        model.move_text.clear();
    }
    ui.add_space(8.0);
    move_list_ui(ui, v);
    action
}

fn move_list_ui(ui: &mut egui::Ui, v: &HudView) {
    ui.label(egui::RichText::new("Moves").strong());
    egui::ScrollArea::vertical()
        .max_height(360.0)
        .stick_to_bottom(true)
        .show(ui, |ui| {
            egui::Grid::new("moves_grid").num_columns(3).show(ui, |ui| {
                for (i, pair) in v.moves.chunks(2).enumerate() {
                    ui.label(format!("{}.", i + 1));
                    ui.label(&pair[0]);
                    ui.label(pair.get(1).map(String::as_str).unwrap_or(""));
                    ui.end_row();
                }
            });
        });
}

fn draw_hud(
    mut contexts: EguiContexts,
    game: Option<ResMut<Match>>,
    mut model: ResMut<HudModel>,
    mut undo: MessageWriter<UndoRequest>,
    mut redo: MessageWriter<RedoRequest>,
    mut requests: MessageWriter<MoveRequest>,
    mut next_menu: ResMut<NextState<Menu>>,
    mut models: ResMut<MenuModels>,
    mut hint: MessageWriter<crate::cpu::HintRequest>,
    mut replay: MessageWriter<ReplayStep>,
    mut resign: MessageWriter<crate::game::ResignRequest>,
    thinking: Res<crate::cpu::Thinking>,
    settings: Res<crate::settings::Settings>,
) -> Result {
    let Some(mut game) = game else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let mut view = HudView::of(&game);
    view.thinking = thinking.elapsed();
    view.hint_allowed &= !thinking.is_thinking();
    if settings.eval_bar {
        view.eval = thinking.last_info().map(|i| {
            // The info is from the searching side's view: turn it to Black's.
            let searching = if thinking.is_thinking() {
                game.position().side_to_move()
            } else {
                game.position().side_to_move().other()
            };
            let black = if searching == Side::Black {
                i.score
            } else {
                -i.score
            };
            let text = format!(
                "{} {:+.1} · depth {} · {} kn/s",
                side_name(view.kind, Side::Black),
                black as f32 / 100.0,
                i.depth,
                i.nps / 1000
            );
            (((black as f32) / 800.0).tanh(), text)
        });
    }
    let mut root = egui::Ui::new(
        ctx.clone(),
        "hud".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    egui::Panel::top("hud_top")
        .exact_size(crate::board::TOP_BAR)
        .show(&mut root, |ui| top_bar_ui(ui, &view));
    egui::Panel::bottom("hud_status")
        .exact_size(crate::board::BOTTOM_BAR)
        .show(&mut root, |ui| {
            ui.horizontal_centered(|ui| ui.label(egui::RichText::new(&view.status).size(15.0)));
        });
    let action = egui::Panel::right("hud_side")
        .exact_size(crate::board::SIDE_PANEL)
        .resizable(false)
        .show(&mut root, |ui| side_panel_ui(ui, &view, &mut model))
        .inner;
    match action {
        Some(HudAction::ConfirmDead) => crate::game::confirm_dead_stones(&mut game),
        Some(HudAction::Replay(step)) => {
            replay.write(step);
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
        Some(HudAction::Pause) => {
            models.pause = 0;
            next_menu.set(Menu::Pause);
        }
        Some(HudAction::Typed(text)) => {
            if !game.human_to_move() {
                game.status = "Wait for your turn".into();
            } else {
                match game.position().parse_move(&text) {
                    Ok(mv) => {
                        requests.write(MoveRequest(mv));
                    }
                    Err(e) => game.status = format!("Cannot read '{text}': {e}"),
                }
            }
        }
        None => {}
    }
    Ok(())
}

fn count_game_time(time: Res<Time>, game: Option<ResMut<Match>>) {
    if let Some(mut g) = game {
        if !g.is_over() {
            g.elapsed += time.delta_secs();
        }
    }
}
