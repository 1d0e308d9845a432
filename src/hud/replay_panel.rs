//! The side panel while a record is replayed: step, jump, autoplay and its speed, the moves
//! (click one to go there), and "play from here".

use bevy_egui::egui;

use super::HudAction;
use crate::replay::ReplayStep;
use crate::theme::palette;

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
    /// Every move of the record, for click-to-jump.
    pub all_moves: Vec<String>,
    /// Seconds between moves in autoplay.
    pub speed: f32,
}

/// The replay controls: first, back, forward, last, a slider to jump, autoplay with its speed,
/// the moves (click one to go there), and "play from here".
pub fn replay_panel_ui(ui: &mut egui::Ui, r: &ReplayView) -> Option<HudAction> {
    let mut action = None;
    // sliders as wide as the panel allows beside their value box, so nothing runs off its edge
    ui.spacing_mut().slider_width = (ui.available_width() - 80.0).clamp(60.0, 160.0);
    ui.heading(t!("replay-title"));
    ui.label(egui::RichText::new(&r.source).color(palette::ui().text_weak));
    if let Some(result) = &r.result {
        ui.label(t!("replay-result", result = result.as_str()));
    }
    ui.label(egui::RichText::new(t!("replay-move-of", n = r.ply, total = r.total)).size(18.0));
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
        .add(egui::Slider::new(&mut ply, 0..=r.total))
        .changed()
    {
        action = Some(HudAction::Replay(ReplayStep::To(ply)));
    }
    {
        let auto = if r.autoplay {
            t!("replay-stop-autoplay")
        } else {
            t!("replay-autoplay")
        };
        if ui
            .add_enabled(r.autoplay || r.ply < r.total, egui::Button::new(auto))
            .clicked()
        {
            action = Some(HudAction::Replay(ReplayStep::ToggleAutoplay));
        }
        let mut speed = r.speed;
        if ui
            .add(
                egui::Slider::new(&mut speed, 0.2..=5.0)
                    .logarithmic(true)
                    .suffix(t!("seconds-suffix")),
            )
            .changed()
        {
            action = Some(HudAction::Replay(ReplayStep::Speed(speed)));
        }
    }
    ui.add(
        egui::Label::new(egui::RichText::new(t!("replay-keys-hint")).color(palette::ui().text_weak))
            .wrap(),
    );
    if let Some(c) = &r.comment {
        ui.add_space(4.0);
        egui::ScrollArea::vertical()
            .id_salt("comment")
            .max_height(120.0)
            .show(ui, |ui| ui.label(egui::RichText::new(c).italics()));
    }
    ui.add_space(8.0);
    ui.label(egui::RichText::new(t!("replay-play-from-here")).strong());
    ui.horizontal(|ui| {
        if ui.button(t!("replay-vs-cpu")).clicked() {
            action = Some(HudAction::Replay(ReplayStep::PlayFromHere { vs_cpu: true }));
        }
        if ui.button(t!("mode-two-players")).clicked() {
            action = Some(HudAction::Replay(ReplayStep::PlayFromHere {
                vs_cpu: false,
            }));
        }
    });
    if ui.button(t!("replay-menu")).clicked() {
        action = Some(HudAction::Pause);
    }
    ui.add_space(8.0);
    if let Some(n) = move_list_ui(ui, &r.all_moves, Some(r.ply)) {
        action = Some(HudAction::Replay(ReplayStep::To(n)));
    }
    action
}

/// The moves, numbered by ply as the HUD counts them; with `current`, each is a button that
/// jumps there. Returns the ply clicked.
pub fn move_list_ui(ui: &mut egui::Ui, moves: &[String], current: Option<usize>) -> Option<usize> {
    let mut clicked = None;
    ui.label(egui::RichText::new(t!("replay-moves")).strong());
    // the list scrolls to the current move once each time it or the list's size changes (not
    // every frame, so the player can still scroll it by hand)
    let scrolled_id = egui::Id::new("move_list_scrolled_to");
    let scrolled: Option<(usize, i32, i32)> = ui.data(|d| d.get_temp(scrolled_id));
    let size = (ui.available_width() as i32, ui.available_height() as i32);

    egui::ScrollArea::vertical()
        .max_height(ui.available_height().max(80.0))
        .stick_to_bottom(current.is_none())
        .show(ui, |ui| {
            egui::Grid::new("moves_grid").num_columns(4).show(ui, |ui| {
                for (i, pair) in moves.chunks(2).enumerate() {
                    for (j, m) in pair.iter().enumerate() {
                        let ply = i * 2 + j + 1;
                        ui.label(
                            egui::RichText::new(format!("{ply}.")).color(palette::ui().text_weak),
                        );
                        match current {
                            Some(c) => {
                                let r = ui.selectable_label(c == ply, m);
                                if r.clicked() {
                                    clicked = Some(ply);
                                }
                                let key = (c, size.0, size.1);
                                if c == ply && scrolled != Some(key) {
                                    r.scroll_to_me(Some(egui::Align::Center));
                                    ui.data_mut(|d| d.insert_temp(scrolled_id, key));
                                }
                            }
                            None => {
                                ui.label(m);
                            }
                        }
                    }
                    ui.end_row();
                }
            });
        });
    clicked
}
