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
    /// The whole-game analysis, once made.
    pub analysis: Option<crate::analysis::AnalysisView>,
    /// Positions analysed and the total, while the analysis runs.
    pub progress: Option<(usize, usize)>,
    /// The named opening reached at the move shown.
    pub opening: Option<String>,
    /// The game's lines of the in-game side panel ([`crate::games::GameUi::info_line`]), at
    /// the move shown.
    pub info_line: Option<String>,
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
    if let Some(o) = &r.opening {
        ui.label(egui::RichText::new(o).strong());
    }
    // the game's own lines: small, and only where the panel has the height
    // (at 800×600 the move list below needs it all)
    if let Some(line) = r
        .info_line
        .as_ref()
        .filter(|_| ui.available_height() > 440.0)
    {
        ui.label(
            egui::RichText::new(line.replace('\n', " · "))
                .size(13.0)
                .color(palette::ui().text_weak),
        );
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
    if ui.add(egui::Slider::new(&mut ply, 0..=r.total)).changed() {
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
        egui::Label::new(
            egui::RichText::new(t!("replay-keys-hint")).color(palette::ui().text_weak),
        )
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
    ui.add_space(6.0);
    if let Some(a) = analysis_ui(ui, r) {
        action = Some(a);
    }
    ui.add_space(6.0);
    let marks = r
        .analysis
        .as_ref()
        .map(|a| a.marks.as_slice())
        .unwrap_or(&[]);
    if let Some(n) = move_list_ui(ui, &r.all_moves, Some(r.ply), marks) {
        action = Some(HudAction::Replay(ReplayStep::To(n)));
    }
    action
}

/// The moves, numbered by ply as the HUD counts them; with `current`, each is a button that
/// jumps there. Returns the ply clicked.
pub fn move_list_ui(
    ui: &mut egui::Ui,
    moves: &[String],
    current: Option<usize>,
    marks: &[Option<qi_core::analysis::Mark>],
) -> Option<usize> {
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
                                let text = match marks.get(ply - 1).copied().flatten() {
                                    Some(k) => egui::RichText::new(m)
                                        .color(crate::analysis::mark_color(k))
                                        .strong(),
                                    None => egui::RichText::new(m),
                                };
                                let r = ui.selectable_label(c == ply, text);
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

/// The analysis part of the replay panel: the budget buttons, or the progress and Cancel, or
/// the graph (click to go there), the summaries and the jumps between marked moves.
fn analysis_ui(ui: &mut egui::Ui, r: &ReplayView) -> Option<HudAction> {
    use crate::analysis::AnalysisRequest;
    let mut action = None;
    ui.label(egui::RichText::new(t!("analysis-title")).strong());
    if let Some((done, total)) = r.progress {
        ui.add(
            egui::ProgressBar::new(done as f32 / total.max(1) as f32).text(t!(
                "analysis-progress",
                done = done,
                total = total
            )),
        );
        if ui.button(t!("analysis-cancel")).clicked() {
            action = Some(HudAction::Analysis(AnalysisRequest::Cancel));
        }
        return action;
    }
    let Some(a) = &r.analysis else {
        ui.horizontal_wrapped(|ui| {
            for (ms, secs) in [(100u64, "0.1"), (500, "0.5"), (2000, "2")] {
                if ui.button(t!("analysis-start", secs = secs)).clicked() {
                    action = Some(HudAction::Analysis(AnalysisRequest::Start {
                        budget_ms: ms,
                    }));
                }
            }
        });
        return action;
    };
    if let Some(ply) = graph_ui(ui, &a.values, &a.marks, r.ply) {
        action = Some(HudAction::Replay(ReplayStep::To(ply)));
    }
    if let Some(here) = &a.here {
        ui.label(egui::RichText::new(here).size(13.0));
    }
    for line in &a.summary {
        ui.add(egui::Label::new(egui::RichText::new(line).size(13.0)).wrap());
    }
    ui.horizontal_wrapped(|ui| {
        if ui.button(t!("analysis-previous")).clicked() {
            action = Some(HudAction::JumpMark { back: true });
        }
        if ui.button(t!("analysis-next")).clicked() {
            action = Some(HudAction::JumpMark { back: false });
        }
    });
    action
}

/// The evaluation over the moves: Black's advantage up, White's down, the marked moves as
/// coloured dots and the position shown as a line. Returns the position clicked.
pub fn graph_ui(
    ui: &mut egui::Ui,
    values: &[f32],
    marks: &[Option<qi_core::analysis::Mark>],
    current: usize,
) -> Option<usize> {
    let colors = palette::ui();
    let width = ui.available_width().max(100.0);
    let (rect, resp) = ui.allocate_exact_size(egui::vec2(width, 72.0), egui::Sense::click());
    let p = ui.painter_at(rect);
    p.rect_filled(rect, 2.0, colors.graph_white);
    let n = values.len().max(2) - 1;
    let x = |i: usize| rect.left() + rect.width() * i as f32 / n as f32;
    let y = |v: f32| rect.center().y - v.clamp(-1.0, 1.0) * rect.height() / 2.0;
    // Black's share is the dark area above the curve's mirror: the area under the curve down
    // to the bottom edge is Black's
    let mut shape = vec![egui::pos2(rect.left(), rect.bottom())];
    shape.extend(
        values
            .iter()
            .enumerate()
            .map(|(i, &v)| egui::pos2(x(i), y(v))),
    );
    shape.push(egui::pos2(x(values.len().saturating_sub(1)), rect.bottom()));
    for w in shape
        .windows(2)
        .skip(1)
        .take(values.len().saturating_sub(1))
    {
        // one quad per step keeps the filled area convex
        p.add(egui::Shape::convex_polygon(
            vec![
                w[0],
                w[1],
                egui::pos2(w[1].x, rect.bottom()),
                egui::pos2(w[0].x, rect.bottom()),
            ],
            colors.graph_black,
            egui::Stroke::NONE,
        ));
    }
    let curve: Vec<egui::Pos2> = values
        .iter()
        .enumerate()
        .map(|(i, &v)| egui::pos2(x(i), y(v)))
        .collect();
    p.add(egui::Shape::line(
        curve,
        egui::Stroke::new(1.5, colors.graph_black),
    ));
    p.hline(
        rect.x_range(),
        rect.center().y,
        egui::Stroke::new(1.0, colors.outline),
    );
    for (i, m) in marks.iter().enumerate() {
        if let Some(k) = m {
            let ply = i + 1;
            p.circle_filled(
                egui::pos2(x(ply), y(values.get(ply).copied().unwrap_or(0.0))),
                3.5,
                crate::analysis::mark_color(*k),
            );
        }
    }
    p.vline(
        x(current.min(n)),
        rect.y_range(),
        egui::Stroke::new(1.5, colors.mark_blunder),
    );
    if resp.clicked()
        && let Some(pos) = resp.interact_pointer_pos()
    {
        let f = ((pos.x - rect.left()) / rect.width()).clamp(0.0, 1.0);
        return Some((f * n as f32).round() as usize);
    }
    None
}
