//! What the menus share: the opaque panel over a dimmed board, small boards, times.

use bevy_egui::egui;
use qi_core::any::AnyPosition;

use crate::games::ui_of;
use crate::theme::palette;

/// Draws the board dimmed and a centred, opaque panel over it; `add` fills the panel.
pub fn menu_area<R>(ctx: &egui::Context, add: impl FnOnce(&mut egui::Ui) -> R) -> Option<R> {
    let screen = ctx.viewport_rect();
    egui::Area::new(egui::Id::new("menu_dim"))
        .order(egui::Order::Middle)
        .fixed_pos(screen.min)
        .interactable(true)
        .show(ctx, |ui| {
            // the dim layer also swallows clicks meant for the HUD behind it
            let (rect, _) = ui.allocate_exact_size(screen.size(), egui::Sense::click());
            ui.painter().rect_filled(rect, 0.0, palette::ui().dim);
        });
    let max_h = (screen.height() - 40.0).max(200.0);
    egui::Area::new(egui::Id::new("menu_area"))
        .order(egui::Order::Foreground)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            egui::Frame::window(&ctx.global_style())
                .fill(palette::ui().panel)
                .inner_margin(egui::Margin::same(24))
                .show(ui, |ui| {
                    ui.set_max_width((screen.width() - 60.0).clamp(300.0, 760.0));
                    ui.set_max_height(max_h);
                    egui::ScrollArea::vertical()
                        .max_height(max_h - 48.0)
                        .show(ui, add)
                        .inner
                })
                .inner
        })
        .inner
        .into()
}

pub fn format_time(secs: f32) -> String {
    let s = secs.max(0.0) as u64;
    format!("{}:{:02}", s / 60, s % 60)
}

/// A small picture of a position, drawn with egui's painter: stones on the crossings of lined
/// boards (Go, Gomoku), pieces in the squares of the others, as the big board draws them.
pub fn draw_small_board(ui: &mut egui::Ui, pos: &AnyPosition, cell: f32) {
    let game = ui_of(pos.kind());
    let style = game.board_style();
    let (w, h) = pos.dimensions();
    let size = egui::vec2(w as f32 * cell, h as f32 * cell);
    let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let colors = style.colors;
    let center = |x: u8, y: u8| {
        let row = if style.rank_one_on_top { y } else { h - 1 - y };
        rect.min + egui::vec2((x as f32 + 0.5) * cell, (row as f32 + 0.5) * cell)
    };
    if style.lined {
        painter.rect_filled(rect, 2.0, colors.cell);
        let stroke = egui::Stroke::new(1.0, colors.frame);
        for x in 0..w {
            painter.line_segment([center(x, 0), center(x, h - 1)], stroke);
        }
        for y in 0..h {
            painter.line_segment([center(0, y), center(w - 1, y)], stroke);
        }
    } else {
        painter.rect_filled(rect, 2.0, colors.frame);
    }
    for y in 0..h {
        for x in 0..w {
            let sq = qi_core::Square::new(x, y);
            let c = pos.cell(sq);
            let p = center(x, y);
            if !style.lined {
                let r = egui::Rect::from_center_size(p, egui::vec2(cell - 2.0, cell - 2.0));
                let fill = if c == qi_core::Cell::Blocked {
                    colors.blocked
                } else {
                    colors.cell
                };
                painter.rect_filled(r, 1.0, fill);
            }
            if let qi_core::Cell::Piece(side) = c {
                painter.circle_filled(p, cell * 0.42, game.piece_color(side));
                painter.circle_stroke(
                    p,
                    cell * 0.42,
                    egui::Stroke::new(0.5, palette::ui().outline),
                );
            }
        }
    }
}
