//! The openings browser (main menu → Openings): Othello's named openings, the 26 renju
//! openings and the Go joseki as trees. The tree shows the top level and opens along the chosen
//! line; the chosen position is drawn with its names and moves, and can be stepped through
//! (a replay whose comments name each position) or played on against the CPU or a friend.
//!
//! Keys: Left/Right the game, Up/Down the line, Enter steps through it, Esc goes back.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use qi_core::GameKind;
use qi_core::openings::{OpeningBook, book};

use super::nav::NavKeys;
use super::widgets::draw_small_board;
use super::{LoadMatch, Menu, menu_area};
use crate::games::{cycle, ui_of};
use crate::openings::{display_name, line_record};
use crate::replay::{ReplayStep, replay_match};
use crate::theme::palette;

pub fn plugin(app: &mut App) {
    app.init_resource::<OpeningsModel>().add_systems(
        EguiPrimaryContextPass,
        draw_openings.run_if(in_state(Menu::Openings)),
    );
}

/// The games with openings to browse.
pub const KINDS: [GameKind; 3] = [GameKind::Reversi, GameKind::Gomoku, GameKind::Go];

/// The game shown and the chosen node of its tree.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct OpeningsModel {
    pub kind: GameKind,
    pub selected: usize,
}

impl Default for OpeningsModel {
    fn default() -> Self {
        OpeningsModel {
            kind: KINDS[0],
            selected: 0,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningsAction {
    /// Replay the chosen line from its first move.
    StepThrough(GameKind, usize),
    /// Play on from the end of the chosen line.
    Play {
        kind: GameKind,
        node: usize,
        vs_cpu: bool,
    },
    Back,
}

/// The rows the tree shows: the top level, and the children of every node on the way to the
/// chosen one (and of the chosen one), depth first; with each row's depth.
pub fn visible_rows(b: &OpeningBook, selected: usize) -> Vec<(usize, usize)> {
    let mut open = vec![false; b.nodes.len()];
    let mut at = Some(selected.min(b.nodes.len() - 1));
    while let Some(i) = at {
        open[i] = true;
        at = b.nodes[i].parent;
    }
    let mut rows = Vec::new();
    let mut stack: Vec<(usize, usize)> =
        b.nodes[0].children.iter().rev().map(|&c| (c, 0)).collect();
    while let Some((i, depth)) = stack.pop() {
        rows.push((i, depth));
        if open[i] {
            stack.extend(b.nodes[i].children.iter().rev().map(|&c| (c, depth + 1)));
        }
    }
    rows
}

/// A row's text: the line's last move and the position's name (a move number for the others).
fn row_text(b: &OpeningBook, i: usize) -> String {
    let n = &b.nodes[i];
    let mv = n.line.last().map(String::as_str).unwrap_or("");
    match &n.name {
        Some(name) => format!("{}. {mv}  {}", n.line.len(), display_name(name)),
        None => format!("{}. {mv}", n.line.len()),
    }
}

pub fn openings_ui(ui: &mut egui::Ui, m: &mut OpeningsModel) -> Option<OpeningsAction> {
    let keys = NavKeys::read(ui);
    let mut action = None;
    if keys.left || keys.right {
        m.kind = cycle(&KINDS, m.kind, if keys.right { 1 } else { -1 });
        m.selected = 0;
    }
    ui.horizontal(|ui| {
        for k in KINDS {
            let tab = egui::Button::new(egui::RichText::new(ui_of(k).title()).size(17.0))
                .selected(m.kind == k)
                .min_size(egui::vec2(110.0, 30.0));
            if ui.add(tab).clicked() && m.kind != k {
                m.kind = k;
                m.selected = 0;
            }
        }
    });
    let Some(b) = book(m.kind) else {
        return Some(OpeningsAction::Back);
    };
    if m.selected >= b.nodes.len() {
        m.selected = 0;
    }
    let about = match m.kind {
        GameKind::Reversi => t!("openings-about-reversi"),
        GameKind::Gomoku => t!("openings-about-gomoku"),
        _ => t!("openings-about-go"),
    };
    ui.add(egui::Label::new(egui::RichText::new(about).color(palette::ui().text_weak)).wrap());
    ui.add_space(6.0);
    let rows = visible_rows(b, m.selected);
    if keys.up || keys.down {
        let at = rows.iter().position(|&(i, _)| i == m.selected);
        let next = match (at, keys.down) {
            (None, _) => 0,
            (Some(p), true) => (p + 1).min(rows.len() - 1),
            (Some(p), false) => p.saturating_sub(1),
        };
        m.selected = rows[next].0;
    }
    let wide = ui.available_width() >= 620.0;
    if wide {
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| tree_ui(ui, b, &rows, m, keys, 300.0, 420.0));
            ui.add_space(16.0);
            ui.vertical(|ui| action = details_ui(ui, b, m));
        });
    } else {
        let width = ui.available_width();
        tree_ui(ui, b, &rows, m, keys, width, 200.0);
        ui.separator();
        action = details_ui(ui, b, m);
    }
    ui.add_space(8.0);
    ui.vertical_centered(|ui| {
        if ui
            .button(egui::RichText::new(t!("back")).size(18.0))
            .clicked()
        {
            action = Some(OpeningsAction::Back);
        }
    });
    if keys.back {
        action = Some(OpeningsAction::Back);
    }
    if keys.choose && m.selected != 0 {
        action = Some(OpeningsAction::StepThrough(m.kind, m.selected));
    }
    action
}

/// The tree's visible rows, indented by depth; a click chooses.
fn tree_ui(
    ui: &mut egui::Ui,
    b: &OpeningBook,
    rows: &[(usize, usize)],
    m: &mut OpeningsModel,
    keys: NavKeys,
    width: f32,
    height: f32,
) {
    egui::ScrollArea::vertical()
        .id_salt("openings_tree")
        .max_height(height)
        .show(ui, |ui| {
            ui.set_width(width);
            for &(i, depth) in rows {
                ui.horizontal(|ui| {
                    ui.add_space(depth as f32 * 14.0);
                    let r = ui.selectable_label(m.selected == i, row_text(b, i));
                    if r.clicked() {
                        m.selected = i;
                    }
                    if m.selected == i && (keys.up || keys.down) {
                        r.scroll_to_me(Some(egui::Align::Center));
                    }
                });
            }
        });
}

/// The chosen position: its names, moves and board, and what can be done with it.
fn details_ui(ui: &mut egui::Ui, b: &OpeningBook, m: &OpeningsModel) -> Option<OpeningsAction> {
    let node = &b.nodes[m.selected];
    let names: Vec<String> = b
        .names_to(m.selected)
        .into_iter()
        .map(display_name)
        .collect();
    let title = names
        .last()
        .cloned()
        .unwrap_or_else(|| t!("openings-choose"));
    ui.label(egui::RichText::new(title).size(20.0).strong());
    if names.len() > 1 {
        ui.label(egui::RichText::new(names.join(" › ")).color(palette::ui().text_weak));
    }
    if let Some(ja) = node.name.as_ref().and_then(|n| n.ja.as_ref()) {
        ui.label(t!("openings-japanese", name = ja.as_str()));
    }
    if !node.line.is_empty() {
        let moves: Vec<String> = node
            .line
            .iter()
            .enumerate()
            .map(|(i, mv)| format!("{}. {mv}", i + 1))
            .collect();
        ui.add(egui::Label::new(moves.join("  ")).wrap());
    }
    if let Ok(pos) = b.position(m.selected) {
        let cell = (260.0 / pos.dimensions().0 as f32).min(30.0);
        draw_small_board(ui, &pos, cell);
    }
    ui.add_space(6.0);
    let mut action = None;
    ui.add_enabled_ui(m.selected != 0, |ui| {
        ui.horizontal_wrapped(|ui| {
            if ui.button(t!("openings-step-through")).clicked() {
                action = Some(OpeningsAction::StepThrough(m.kind, m.selected));
            }
            if ui.button(t!("replay-vs-cpu")).clicked() {
                action = Some(OpeningsAction::Play {
                    kind: m.kind,
                    node: m.selected,
                    vs_cpu: true,
                });
            }
            if ui.button(t!("mode-two-players")).clicked() {
                action = Some(OpeningsAction::Play {
                    kind: m.kind,
                    node: m.selected,
                    vs_cpu: false,
                });
            }
        });
    });
    action
}

fn draw_openings(
    mut contexts: EguiContexts,
    mut model: ResMut<OpeningsModel>,
    mut next: ResMut<NextState<Menu>>,
    mut loads: MessageWriter<LoadMatch>,
    settings: Res<crate::settings::Settings>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Some(action) = menu_area(ctx, |ui| openings_ui(ui, &mut model)).flatten() else {
        return Ok(());
    };
    let (kind, node, play) = match action {
        OpeningsAction::Back => {
            next.set(Menu::Main);
            return Ok(());
        }
        OpeningsAction::StepThrough(kind, node) => (kind, node, None),
        OpeningsAction::Play { kind, node, vs_cpu } => (kind, node, Some(vs_cpu)),
    };
    let Some(b) = book(kind) else { return Ok(()) };
    let record = line_record(b, node);
    let source = record.event.clone().unwrap_or_default();
    match replay_match(&record, &source) {
        Ok(mut m) => {
            if let Some(vs_cpu) = play {
                let end = m.history.all_moves().len();
                let level = settings.level(kind);
                crate::replay::step(&mut m, ReplayStep::To(end), level);
                crate::replay::step(&mut m, ReplayStep::PlayFromHere { vs_cpu }, level);
            }
            info!(
                "qi: opening {kind} {} ({})",
                record.moves.join(" "),
                if play.is_some() {
                    "play"
                } else {
                    "step through"
                }
            );
            loads.write(LoadMatch(Box::new(m)));
        }
        Err(e) => error!("qi: opening line {}: {e}", record.moves.join(" ")),
    }
    Ok(())
}

#[cfg(test)]
mod tests;
