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

    /// A record's `B+12` is a margin of discs (its counts are not in the file).
    fn record_result_text(&self, r: &qi_core::GameResult) -> String {
        match (r.winner, r.reason) {
            (Some(side), qi_core::result::Reason::Score { margin }) => t!(
                "result-win-discs",
                side = self.side_name(side),
                discs = margin.abs() as f64
            ),
            _ => super::result_text(GameKind::Reversi, r),
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use qi_core::Side;
    use qi_core::search::{SearchInfo, Solved};

    /// Defect: a Reversi endgame's exact margin read "Black +6.0 · depth 20" like an evaluation,
    /// and a proven win like one too. Solved scores say so, from the first side's view.
    #[test]
    fn solved_scores_say_they_are_proven() {
        let solved = |score, searching, how| {
            let i = SearchInfo {
                depth: 20,
                score,
                nodes: 90_000,
                solved: how,
                ..Default::default()
            };
            crate::hud::eval_text(GameKind::Reversi, &i, searching, 6).unwrap()
        };
        // White to move, losing by 6 discs for sure: Black +6
        let (v, t) = solved(-600, Side::White, Solved::Exact);
        assert_eq!(t, "Black +6 · exact");
        assert!(v > 0.0 && v < 1.0, "{v}");
        assert_eq!(solved(0, Side::Black, Solved::Exact).1, "Draw · exact");
        // a proven win for White, whose size is only the evaluation's
        let (v, t) = solved(350, Side::White, Solved::WinLossDraw);
        assert_eq!(t, "White wins · solved");
        assert_eq!(v, -1.0);
        assert_eq!(
            solved(0, Side::White, Solved::WinLossDraw).1,
            "Draw · solved"
        );
        // the same score unproven stays an evaluation
        let (_, t) = solved(-600, Side::White, Solved::No);
        assert_eq!(t, "Black +6.0 · depth 20");
    }
}
