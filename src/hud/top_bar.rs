//! The top bar over the board: the game, each player with their piece and count, whose turn it
//! is, the move number and the time (and the clocks, when the game has them).

use super::*;

/// A player in the top bar: "Black (Ann)"; in a narrow window only the name, beside the
/// piece icon that shows the colour.
pub(super) fn player_line(v: &HudView, side: Side, narrow: bool) -> String {
    let who = match v.players[side.index()] {
        Player::Human | Player::Remote => v.names[side.index()].clone(),
        Player::Cpu { level } => t!("records-cpu-level", level = level),
    };
    let side_name = crate::games::ui_of(v.kind).side_name(side);
    // a name that is only the side's own ("Black (Black)") is said once
    if narrow || who == side_name {
        return who;
    }
    t!("hud-player", side = side_name, who = who)
}

/// A piece icon that reads as its colour on the dark panel: a solid stone with a highlight (a
/// dark stone with only a rim read as a hollow, white circle).
pub fn piece_icon(ui: &mut egui::Ui, kind: GameKind, side: Side) {
    let c = crate::games::ui_of(kind).piece_color(side);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(22.0, 22.0), egui::Sense::hover());
    let p = ui.painter();
    let center = rect.center();
    p.circle_filled(center, 10.0, c);
    // a soft highlight up and left, lighter than the stone
    let lift = |v: u8| v.saturating_add(70);
    p.circle_filled(
        center + egui::vec2(-3.5, -3.5),
        3.0,
        egui::Color32::from_rgb(lift(c.r()), lift(c.g()), lift(c.b())),
    );
    p.circle_stroke(center, 10.0, egui::Stroke::new(1.0, palette::ui().icon_rim));
}

/// A side's count of pieces in a framed badge after its name: run on as "Player  2", the
/// count read as a part of the name in a narrow window.
fn count_badge(ui: &mut egui::Ui, n: u32) {
    let text = n.to_string();
    let color = ui.visuals().text_color();
    let galley = ui
        .painter()
        .layout_no_wrap(text.clone(), egui::FontId::monospace(16.0), color);
    // as tall as the piece icon, centred on the bar as it is
    let (rect, response) = ui.allocate_exact_size(
        egui::vec2(galley.size().x + 12.0, 22.0),
        egui::Sense::hover(),
    );
    let p = ui.painter();
    p.rect_stroke(
        rect,
        6.0,
        egui::Stroke::new(1.0, palette::ui().icon_rim),
        egui::StrokeKind::Inside,
    );
    p.galley(rect.center() - galley.size() / 2.0, galley, color);
    response.widget_info(|| egui::WidgetInfo::labeled(egui::WidgetType::Label, true, &text));
}

/// The top bar: the score and whose turn it is.
pub fn top_bar_ui(ui: &mut egui::Ui, v: &HudView) {
    let narrow = ui.available_width() < 1100.0;
    ui.horizontal_centered(|ui| {
        ui.label(
            egui::RichText::new(crate::games::ui_of(v.kind).title())
                .size(22.0)
                .strong(),
        );
        ui.separator();
        for side in Side::BOTH {
            piece_icon(ui, v.kind, side);
            let mut t = egui::RichText::new(player_line(v, side, narrow)).size(18.0);
            if side == v.to_move && !v.over {
                t = t.strong().underline();
            }
            ui.label(t);
            count_badge(ui, v.counts[side.index()]);
            if let Some((texts, running)) = &v.clocks {
                let mut c = egui::RichText::new(format!("[{}]", texts[side.index()]))
                    .size(18.0)
                    .monospace();
                if *running == Some(side) {
                    c = c.strong().underline();
                }
                ui.label(c);
            }
            ui.add_space(12.0);
        }
        ui.separator();
        let side = crate::games::ui_of(v.kind).side_name(v.to_move);
        let turn = if v.over {
            t!("game-over")
        } else if let Some(secs) = v.thinking {
            t!("hud-cpu-thinking", side = side, secs = format!("{secs:.1}"))
        } else {
            t!("hud-to-move", side = side)
        };
        ui.label(egui::RichText::new(turn).size(16.0));
        ui.separator();
        ui.label(
            egui::RichText::new(t!(
                "hud-move-time",
                n = v.ply,
                time = format_time(v.elapsed)
            ))
            .size(16.0),
        );
    });
}
