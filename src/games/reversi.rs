//! Reversi (Othello) in the window: a green board labelled as Othello boards are (a1 top left),
//! legal moves as dots.

use qi_core::any::AnyPosition;
use qi_core::{GameKind, Square};

use super::{BoardStyle, GameUi, legal_dots, play_line};
use crate::board::Marker;
use crate::theme::palette;

pub struct ReversiUi;

impl GameUi for ReversiUi {
    fn kind(&self) -> GameKind {
        GameKind::Reversi
    }

    fn title(&self) -> String {
        t!("game-reversi")
    }

    fn board_style(&self) -> BoardStyle {
        BoardStyle {
            lined: false,
            rank_one_on_top: true,
            colors: palette::GREEN_BOARD,
        }
    }

    fn grid_dots(&self) -> Vec<(u8, u8)> {
        vec![(2, 2), (6, 2), (2, 6), (6, 6)]
    }

    fn move_markers(
        &self,
        pos: &AnyPosition,
        _selected: Option<Square>,
        show_legal: bool,
    ) -> Vec<(Square, Marker)> {
        if show_legal {
            legal_dots(pos)
        } else {
            Vec::new()
        }
    }

    fn passes_automatically(&self) -> bool {
        true
    }

    fn rules(&self) -> String {
        t!("rules-reversi")
    }

    fn example_position(&self) -> Result<AnyPosition, String> {
        let start = AnyPosition::start(GameKind::Reversi).map_err(|e| e.0)?;
        play_line(start, &["d3", "c3", "c4", "e3"])
    }
}
