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
    let (w, h) = pos.dimensions();
    let size = egui::vec2(w as f32 * cell, h as f32 * cell);
    let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
    ui.painter_at(rect)
        .extend(small_board_shapes(pos, rect, cell));
}

/// Cells narrower than this (pixels) leave out a lined board's inner lines and draw its
/// stones as dots that fill the cell: at 2 pixels a cell, a 19×19 thumbnail's 1-pixel lines
/// covered half of it and its stones, 1.7 pixels across with a half-pixel outline, could not
/// be told from the lines.
const FINE_CELL: f32 = 4.0;

/// The shapes of [`draw_small_board`] for a board in `rect` with cells of `cell` pixels.
pub fn small_board_shapes(pos: &AnyPosition, rect: egui::Rect, cell: f32) -> Vec<egui::Shape> {
    let game = ui_of(pos.kind());
    let style = game.board_style();
    let (w, h) = pos.dimensions();
    let colors = style.colors;
    let fine = cell < FINE_CELL;
    let mut out = Vec::new();
    let center = |x: u8, y: u8| {
        let row = if style.rank_one_on_top { y } else { h - 1 - y };
        rect.min + egui::vec2((x as f32 + 0.5) * cell, (row as f32 + 0.5) * cell)
    };
    if style.lined {
        out.push(egui::Shape::rect_filled(rect, 2.0, colors.cell));
        let stroke = egui::Stroke::new(1.0, colors.frame);
        if fine {
            // the outer lines only: the board's edge
            out.push(egui::Shape::rect_stroke(
                egui::Rect::from_two_pos(center(0, 0), center(w - 1, h - 1)),
                0.0,
                stroke,
                egui::StrokeKind::Middle,
            ));
        } else {
            for x in 0..w {
                out.push(egui::Shape::line_segment(
                    [center(x, 0), center(x, h - 1)],
                    stroke,
                ));
            }
            for y in 0..h {
                out.push(egui::Shape::line_segment(
                    [center(0, y), center(w - 1, y)],
                    stroke,
                ));
            }
        }
    } else {
        out.push(egui::Shape::rect_filled(rect, 2.0, colors.frame));
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
                out.push(egui::Shape::rect_filled(r, 1.0, fill));
            }
            if let qi_core::Cell::Piece(side) = c {
                if fine {
                    out.push(egui::Shape::circle_filled(
                        p,
                        cell * 0.5 + 0.3,
                        game.piece_color(side),
                    ));
                } else {
                    out.push(egui::Shape::circle_filled(
                        p,
                        cell * 0.42,
                        game.piece_color(side),
                    ));
                    out.push(egui::Shape::circle_stroke(
                        p,
                        cell * 0.42,
                        egui::Stroke::new(0.5, palette::ui().outline),
                    ));
                }
            }
        }
    }
    out
}

/// The cell size of a position's picture in the save slots: every picture is the same size
/// (44 pixels square) whatever the board, a cell of 2.3 pixels on 19×19, 6.3 on 7×7.
pub fn thumbnail_cell(pos: &AnyPosition) -> f32 {
    const SIDE: f32 = 44.0;
    let (w, h) = pos.dimensions();
    SIDE / w.max(h) as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use qi_core::GameKind;

    /// Every game's pieces show on a save slot's picture: each is at least 2.6 pixels across,
    /// and on cells under 4 pixels (the 15×15 and 19×19 boards) no grid line is drawn, where the
    /// 1-pixel lines of a 2-pixel grid had hidden stones 1.7 pixels across. Checked at each
    /// game's own picture size and at a 19-line board's, for every game's example position.
    #[test]
    fn pieces_show_on_the_small_pictures_of_the_save_slots() {
        let mut fine_seen = false;
        for kind in GameKind::ALL {
            let pos = ui_of(kind).example_position().unwrap();
            let pieces = pos.piece_counts().iter().sum::<u32>() as usize;
            assert!(pieces > 0, "{kind:?}: an example with pieces");
            for cell in [thumbnail_cell(&pos), 44.0 / 19.0] {
                let (w, h) = pos.dimensions();
                let rect = egui::Rect::from_min_size(
                    egui::pos2(0.0, 0.0),
                    egui::vec2(w as f32 * cell, h as f32 * cell),
                );
                let shapes = small_board_shapes(&pos, rect, cell);
                let stones: Vec<f32> = shapes
                    .iter()
                    .filter_map(|s| match s {
                        egui::Shape::Circle(c) if c.fill != egui::Color32::TRANSPARENT => {
                            Some(c.radius * 2.0)
                        }
                        _ => None,
                    })
                    .collect();
                assert_eq!(stones.len(), pieces, "{kind:?} at {cell:.1} pixels a cell");
                for d in &stones {
                    assert!(*d >= 2.6, "{kind:?}: a piece {d:.1} pixels across");
                }
                if cell < 4.0 {
                    fine_seen = true;
                    let lines = shapes
                        .iter()
                        .filter(|s| matches!(s, egui::Shape::LineSegment { .. }))
                        .count();
                    assert_eq!(lines, 0, "{kind:?}: grid lines at {cell:.1} pixels a cell");
                }
            }
        }
        assert!(fine_seen);
    }
}
