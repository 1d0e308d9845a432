//! Ataxx in the window: red and blue pieces on a slate board, the start layouts, clone and jump
//! targets around the piece picked up.

use bevy_egui::egui;
use qi_core::any::AnyPosition;
use qi_core::ataxx::Ataxx;
use qi_core::{Cell, GameKind, Side, Square};

use super::{BoardStyle, ClickResult, GameOptions, GameUi, legal_dots, play_line};
use crate::board::Marker;
use crate::theme::palette;

pub struct AtaxxUi;

/// The name of a start layout of `Ataxx::start_layouts`, by index.
fn layout_name(i: usize) -> String {
    match i {
        0 => t!("ataxx-layout-classic"),
        1 => t!("ataxx-layout-four-blocks"),
        2 => t!("ataxx-layout-cross"),
        3 => t!("ataxx-layout-pillars"),
        4 => t!("ataxx-layout-corridor"),
        _ => Ataxx::start_layouts()
            .get(i)
            .map_or_else(String::new, |(n, _)| n.to_string()),
    }
}

pub fn is_next_to(a: Square, b: Square) -> bool {
    a != b && (a.x as i32 - b.x as i32).abs() <= 1 && (a.y as i32 - b.y as i32).abs() <= 1
}

impl GameUi for AtaxxUi {
    fn kind(&self) -> GameKind {
        GameKind::Ataxx
    }

    fn title(&self) -> String {
        t!("game-ataxx")
    }

    fn side_name(&self, side: Side) -> String {
        match side {
            Side::Black => t!("side-red"),
            Side::White => t!("side-blue"),
        }
    }

    fn piece_color(&self, side: Side) -> egui::Color32 {
        match side {
            Side::Black => palette::RED_PIECE,
            Side::White => palette::BLUE_PIECE,
        }
    }

    fn options_ui(&self, ui: &mut egui::Ui, o: &mut GameOptions) -> bool {
        let labels: Vec<String> = (0..Ataxx::start_layouts().len()).map(layout_name).collect();
        match super::choice_buttons(ui, &labels, o.variant) {
            Some(i) => {
                o.variant = i;
                true
            }
            None => false,
        }
    }

    fn cycle_option(&self, o: &mut GameOptions, delta: isize) {
        let n = Ataxx::start_layouts().len() as isize;
        o.variant = (o.variant as isize + delta).rem_euclid(n) as usize;
    }

    fn start_text(&self, o: &GameOptions) -> Option<String> {
        let layouts = Ataxx::start_layouts();
        Some(layouts[o.variant.min(layouts.len() - 1)].1.to_string())
    }

    /// The layout whose blocked squares and pieces the start has (`None` for another start).
    fn options_of(&self, start: &AnyPosition) -> Option<GameOptions> {
        let text = start.to_text();
        let board = text.split_whitespace().next()?;
        let variant = Ataxx::start_layouts()
            .iter()
            .position(|(_, t)| t.split_whitespace().next() == Some(board))?;
        Some(GameOptions {
            variant,
            ..self.default_options()
        })
    }

    fn board_style(&self) -> BoardStyle {
        BoardStyle {
            lined: false,
            rank_one_on_top: false,
            colors: palette::SLATE_BOARD,
        }
    }

    fn click(&self, pos: &AnyPosition, selected: Option<Square>, sq: Square) -> ClickResult {
        let moves = pos.legal_moves();
        let side = pos.side_to_move();
        let name = qi_core::game::square_text(sq);
        let own = pos.cell(sq) == Cell::Piece(side);
        if let Some(sel) = selected {
            if sel == sq {
                return ClickResult::Deselect;
            }
            if own {
                return ClickResult::Select(sq);
            }
            for mv in &moves {
                let s = pos.move_squares(*mv);
                if s.to == Some(sq)
                    && (s.from == Some(sel) || (s.from == s.to && is_next_to(sel, sq)))
                {
                    return ClickResult::Play(*mv);
                }
            }
            return ClickResult::Refuse(t!(
                "refuse-ataxx-unreachable",
                square = name,
                from = qi_core::game::square_text(sel)
            ));
        }
        if own {
            let has = moves.iter().any(|m| {
                let s = pos.move_squares(*m);
                s.from == Some(sq) || (s.from == s.to && s.to.is_some_and(|t| is_next_to(sq, t)))
            });
            return if has {
                ClickResult::Select(sq)
            } else {
                ClickResult::Refuse(t!("refuse-ataxx-stuck", square = name))
            };
        }
        // A click on an empty square next to one of ours clones there directly.
        if let Some(mv) = moves.iter().find(|m| {
            let s = pos.move_squares(**m);
            s.to == Some(sq) && s.from == s.to
        }) {
            return ClickResult::Play(*mv);
        }
        ClickResult::Refuse(t!("refuse-ataxx-pick", square = name))
    }

    fn move_markers(
        &self,
        pos: &AnyPosition,
        selected: Option<Square>,
        show_legal: bool,
    ) -> Vec<(Square, Marker)> {
        let Some(sel) = selected else {
            return if show_legal {
                legal_dots(pos)
            } else {
                Vec::new()
            };
        };
        let mut out = vec![(sel, Marker::Selected)];
        for mv in pos.legal_moves() {
            let s = pos.move_squares(mv);
            if let (Some(from), Some(to)) = (s.from, s.to) {
                if from == sel && to != sel {
                    out.push((to, Marker::JumpTarget));
                } else if from == to && is_next_to(sel, to) {
                    out.push((to, Marker::CloneTarget));
                }
            }
        }
        out
    }

    fn passes_automatically(&self) -> bool {
        true
    }

    fn rules(&self) -> String {
        t!("rules-ataxx")
    }

    fn example_position(&self) -> Result<AnyPosition, String> {
        let start = AnyPosition::from_text(GameKind::Ataxx, "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1")
            .map_err(|e| e.0)?;
        play_line(start, &["g1f2", "a1b2", "f2f3", "b2c2"])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_then_a_target_makes_a_jump() {
        let pos = AnyPosition::start(GameKind::Ataxx).unwrap();
        let g1 = Square::new(6, 0);
        assert_eq!(AtaxxUi.click(&pos, None, g1), ClickResult::Select(g1));
        match AtaxxUi.click(&pos, Some(g1), Square::new(4, 2)) {
            ClickResult::Play(mv) => assert_eq!(pos.move_to_text(mv), "g1e3"),
            other => panic!("{other:?}"),
        }
        assert_eq!(AtaxxUi.click(&pos, Some(g1), g1), ClickResult::Deselect);
        let marks = AtaxxUi.move_markers(&pos, Some(g1), true);
        assert!(marks.contains(&(Square::new(5, 1), Marker::CloneTarget)));
        assert!(marks.contains(&(Square::new(4, 2), Marker::JumpTarget)));
    }
}
