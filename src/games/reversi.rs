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

    fn rules(&self) -> (&'static str, &'static str) {
        (
            "Reversi (Othello)",
            "Black and White on an 8x8 board; Black moves first from the four centre discs.\n\
             • Place a disc so that it encloses a straight line (row, column or diagonal) of your opponent's discs \
             between it and another of your discs: all enclosed discs turn over.\n\
             • A move must turn at least one disc; with no such move you pass.\n\
             • The game ends when neither side can move. Most discs wins; empty squares go to the winner.\n\
             Type moves as d3; 'pass' when you must pass.",
        )
    }

    fn example_position(&self) -> Result<AnyPosition, String> {
        let start = AnyPosition::start(GameKind::Reversi).map_err(|e| e.0)?;
        play_line(start, &["d3", "c3", "c4", "e3"])
    }
}
