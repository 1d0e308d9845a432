//! Gomoku in the window: stones on the crossings of a wooden board, 15×15 or 19×19, freestyle,
//! standard or renju (Black's forbidden points crossed out), the winning row lit up.

use bevy_egui::egui;
use qi_core::any::AnyPosition;
use qi_core::gomoku::{Gomoku, GomokuRule};
use qi_core::{Game, GameKind, Square};

use super::{BoardStyle, GameOptions, GameUi, hoshi, play_line};
use crate::board::Marker;
use crate::theme::palette;

pub struct GomokuUi;

fn rule_name(r: GomokuRule) -> String {
    match r {
        GomokuRule::Freestyle => t!("gomoku-freestyle"),
        GomokuRule::Standard => t!("gomoku-standard"),
        GomokuRule::Renju => t!("gomoku-renju"),
    }
}

impl GameUi for GomokuUi {
    fn kind(&self) -> GameKind {
        GameKind::Gomoku
    }

    fn title(&self) -> String {
        t!("game-gomoku")
    }

    /// Level 6 (and with it hints and analysis) scores by the learned evaluation, 400 units a
    /// logit (`qi_core::ai::gomoku::patterns::SCALE`), so with tanh(score / 800) the bar's
    /// share is Black's winning chance. (Until session 53 every level scored by report 004's
    /// rows of five, an open three about 300, and the scale was 2,000; levels 4-5 still do,
    /// and an open three of theirs now moves the bar about a third of the way.)
    fn eval_scale(&self) -> f32 {
        2.0 * qi_core::ai::gomoku::patterns::SCALE as f32
    }

    fn options_ui(&self, ui: &mut egui::Ui, o: &mut GameOptions) -> bool {
        let mut clicked = super::size_buttons(ui, GameKind::Gomoku, &mut o.size);
        ui.separator();
        let labels: Vec<String> = GomokuRule::ALL.iter().map(|r| rule_name(*r)).collect();
        if let Some(i) = super::choice_buttons(ui, &labels, o.variant) {
            o.variant = i;
            clicked = true;
        }
        clicked
    }

    fn cycle_option(&self, o: &mut GameOptions, delta: isize) {
        let options: Vec<(u8, usize)> = GameKind::Gomoku
            .info()
            .board_sizes
            .iter()
            .flat_map(|&n| (0..GomokuRule::ALL.len()).map(move |r| (n, r)))
            .collect();
        let (n, r) = super::cycle(&options, (o.size, o.variant), delta);
        o.size = n;
        o.variant = r;
    }

    fn start_text(&self, o: &GameOptions) -> Option<String> {
        let rule = GomokuRule::ALL[o.variant.min(GomokuRule::ALL.len() - 1)];
        Some(Gomoku::new(o.size, rule).to_text())
    }

    fn options_of(&self, start: &AnyPosition) -> Option<GameOptions> {
        let AnyPosition::Gomoku(g) = start else {
            return None;
        };
        Some(GameOptions {
            variant: GomokuRule::ALL.iter().position(|r| *r == g.rule())?,
            size: g.size(),
            ..self.default_options()
        })
    }

    fn board_style(&self) -> BoardStyle {
        BoardStyle {
            lined: true,
            rank_one_on_top: false,
            colors: palette::WOOD_BOARD,
        }
    }

    fn move_numbers_by_default(&self) -> bool {
        true
    }

    fn star_points(&self, size: u8) -> Vec<Square> {
        hoshi(size)
    }

    fn move_markers(
        &self,
        pos: &AnyPosition,
        _selected: Option<Square>,
        _show_legal: bool,
    ) -> Vec<(Square, Marker)> {
        pos.forbidden_points()
            .into_iter()
            .map(|sq| (sq, Marker::Forbidden))
            .collect()
    }

    /// The rule the game is played under, which the board shows only once Black has a
    /// forbidden point.
    fn variant_text(&self, pos: &AnyPosition) -> Option<String> {
        let AnyPosition::Gomoku(g) = pos else {
            return None;
        };
        Some(format!(
            "{} {}",
            t!("board-size", n = g.size()),
            rule_name(g.rule())
        ))
    }

    fn info_line(&self, pos: &AnyPosition) -> Option<String> {
        match pos {
            AnyPosition::Gomoku(g) => Some(t!("gomoku-rule-line", rule = rule_name(g.rule()))),
            _ => None,
        }
    }

    fn rules(&self) -> String {
        t!("rules-gomoku")
    }

    fn example_position(&self) -> Result<AnyPosition, String> {
        let start = AnyPosition::from_text(
            GameKind::Gomoku,
            &Gomoku::new(9, GomokuRule::Freestyle).to_text(),
        )
        .map_err(|e| e.0)?;
        play_line(start, &["e5", "f6", "d4", "f4", "c3", "f5"])
    }
}

#[cfg(test)]
mod tests {
    use qi_core::GameKind;
    use qi_core::Side;
    use qi_core::search::SearchInfo;

    use crate::hud::eval_text;

    fn info(score: i32) -> SearchInfo {
        SearchInfo {
            depth: 6,
            score,
            nodes: 5000,
            ..Default::default()
        }
    }

    /// Defect (session 25, seen in the window): against level 2 the bar read "Black -85.8"
    /// and was all White after four even moves: level 2 adds up to 100 stones of noise to
    /// its evaluation, and the row scores filled a bar made for pieces at an ordinary three.
    /// Defect (session 60): at level 6 it read "Black +4.1" after two moves, the learned
    /// evaluation's logits (400 units one) shown as if they were stones: it now says Black's
    /// winning chance, as the bar's share does.
    #[test]
    fn the_bar_hides_the_weak_levels_and_fits_the_row_scores() {
        for level in 1..=3 {
            assert_eq!(
                eval_text(GameKind::Gomoku, &info(-8580), Side::White, level),
                None
            );
        }
        // levels 4-5 score rows of stones: an open three is about 300, and moves the bar
        // about a third of the way
        let (v, t) = eval_text(GameKind::Gomoku, &info(300), Side::Black, 4).unwrap();
        assert!((0.3..0.4).contains(&v), "{v}");
        assert_eq!(t, "Black +3.0 · depth 6");
        // level 6's learned evaluation, 400 units a logit: 1 / (1 + e^-1) = 73% at one logit,
        // in the text and in the bar's share
        let shown = |s, side| eval_text(GameKind::Gomoku, &info(s), side, 6).unwrap();
        let (v, t) = shown(400, Side::Black);
        assert!((0.5 + 0.5 * v - 0.731).abs() < 0.005, "{v}");
        assert_eq!(t, "Black 73% to win · depth 6");
        // White searching, a logit and a half ahead: Black has 18%
        let (v, t) = shown(600, Side::White);
        assert!((0.5 + 0.5 * v - 0.182).abs() < 0.005, "{v}");
        assert_eq!(t, "Black 18% to win · depth 6");
        let (v, t) = shown(-800, Side::Black);
        assert!((0.5 + 0.5 * v - 0.119).abs() < 0.005, "{v}");
        assert_eq!(t, "Black 12% to win · depth 6");
    }

    fn sample_analysis(kind: GameKind, scores: &[i32]) -> qi_core::analysis::GameAnalysis {
        let positions = scores
            .iter()
            .map(|&score| qi_core::analysis::PositionEval {
                score,
                best: Some("h8".into()),
                pv: Vec::new(),
                depth: 10,
                lead: None,
            })
            .collect();
        let moves = scores
            .windows(2)
            .enumerate()
            .map(|(i, w)| {
                let side = if i % 2 == 0 { Side::Black } else { Side::White };
                let mine = |v: i32| if side == Side::Black { v } else { -v };
                let (before, after) = (mine(w[0]), mine(w[1]));
                qi_core::analysis::MoveReview {
                    ply: i + 1,
                    side,
                    played: "i9".into(),
                    best: Some("h8".into()),
                    before,
                    after,
                    loss: (before - after).max(0),
                    mark: (before - after >= 400).then_some(qi_core::analysis::Mark::Mistake),
                }
            })
            .collect();
        qi_core::analysis::GameAnalysis {
            kind,
            positions,
            moves,
        }
    }

    /// Defect (session 60): Gomoku's game review read "Black +4.00 · loss 4.00", the learned
    /// evaluation's logits as if they were stones. It reads winning chances, as the eval bar.
    #[test]
    fn gomoku_review_reads_winning_chances() {
        // Black's chance 50%, then 73% after Black's move, then 88% after White's: White's
        // move lost 15 points of its chance (from 27% to 12%)
        let a = sample_analysis(GameKind::Gomoku, &[0, 400, 800]);
        let v = crate::analysis::AnalysisView::of(&a, 2, ["Ann", "Bo"]);
        let here = v.here.unwrap();
        assert!(
            here.starts_with("Black 88% · best h8 · loss 15% · mistake"),
            "{here}"
        );
        assert!(v.summary[0].contains("0.0%"), "{}", v.summary[0]);
        assert!(v.summary[1].contains("15.0%"), "{}", v.summary[1]);
        assert!((v.values[1] - (2.0 * 0.7311 - 1.0)).abs() < 1e-3);
    }

    /// Candidate labels: the mover's winning chance from level 6's logits.
    #[test]
    fn candidate_labels_read_as_winning_chances() {
        use crate::analysis::candidate_text;
        assert_eq!(candidate_text(GameKind::Gomoku, 400), "73%");
        assert_eq!(candidate_text(GameKind::Gomoku, -600), "18%");
    }
}
