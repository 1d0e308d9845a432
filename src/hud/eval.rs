//! The eval bar: the CPU's last evaluation for the first side, or who wins in how many moves.

use bevy_egui::egui;
use qi_core::any::AnyCpu;
use qi_core::search::Solved;
use qi_core::{GameKind, Side};

use crate::theme::palette;

/// The largest random term of a level's evaluation (100 = one piece) whose scores the bar
/// shows: one piece. Some games' weak levels add a tenth of a piece only to break ties,
/// others many pieces so as to play partly at random, and then their scores are chance.
pub const MAX_SHOWN_NOISE: i32 = 100;

/// The fewest playouts whose win rate the bar shows: below them a Monte Carlo search's value
/// is mostly its tree priors' virtual wins (a level of 60 playouts had the bar read "Black 74%
/// to win" after one move).
pub const MIN_SHOWN_PLAYOUTS: u64 = 2000;

/// The eval bar's text: the score for the first side (its winning chance where the searching
/// `level`'s evaluation is fitted to results, [`AnyCpu::level_logit_scale`]), or who wins in
/// how many moves when the search has found the game decided. `None` when the search has
/// nothing worth showing yet, or when the level adds more than [`MAX_SHOWN_NOISE`] of noise to
/// its evaluation ([`AnyCpu::level_noise`]). Hints search at level 6.
pub fn eval_text(
    kind: GameKind,
    info: &qi_core::search::SearchInfo,
    searching: Side,
    level: u8,
) -> Option<(f32, String)> {
    if info.nodes == 0 || info.depth < 2 || AnyCpu::level_noise(kind, level) > MAX_SHOWN_NOISE {
        return None;
    }
    let first = if searching == Side::Black {
        info.score
    } else {
        -info.score
    };
    if crate::games::ui_of(kind).score_is_win_rate() {
        if info.nodes < MIN_SHOWN_PLAYOUTS {
            return None;
        }
        // a Monte Carlo search: Black's chance to win, from the playouts (it read "Black
        // -24.1", a win rate shown as if it were points)
        let rate = ((first + 5000) as f32 / 100.0).clamp(0.0, 100.0);
        let text = t!(
            "eval-win-rate",
            side = crate::games::ui_of(kind).side_name(Side::Black),
            pct = format!("{rate:.0}"),
            playouts = info.nodes
        );
        return Some(((rate - 50.0) / 50.0, text));
    }
    let black = crate::games::ui_of(kind).side_name(Side::Black);
    let text = if info.solved == Solved::WinLossDraw {
        // proven: only who wins; the size is the evaluation's
        match first.signum() {
            0 => t!("eval-solved-draw"),
            s => t!(
                "eval-solved-win",
                side = crate::games::ui_of(kind).side_name(if s > 0 {
                    Side::Black
                } else {
                    Side::White
                })
            ),
        }
    } else if info.solved == Solved::Exact {
        // the exact final margin, in whole pieces
        if first == 0 {
            t!("eval-exact-draw")
        } else {
            t!(
                "eval-exact",
                side = black,
                score = format!("{:+}", first / 100)
            )
        }
    } else if qi_core::search::is_decided(first) {
        let plies = (qi_core::search::MATE - first.abs()).max(1);
        let winner = if first > 0 { Side::Black } else { Side::White };
        t!(
            "eval-wins-in",
            side = crate::games::ui_of(kind).side_name(winner),
            n = plies
        )
    } else if let Some(scale) = AnyCpu::level_logit_scale(kind, level) {
        // Gomoku's learned evaluation: Black's winning chance (it read "Black +4.1" after two
        // moves, a number no player could read)
        t!(
            "eval-chance",
            side = black,
            pct = format!("{:.0}", 100.0 * win_chance(first, scale)),
            depth = info.depth
        )
    } else {
        t!(
            "eval-score",
            side = black,
            score = signed_tenths(first),
            depth = info.depth
        )
    };
    let text = if info.nps >= 1000 {
        t!("eval-speed", text = text, knps = info.nps / 1000)
    } else {
        text
    };
    let value = if qi_core::search::is_decided(first) || info.solved == Solved::WinLossDraw {
        first.signum() as f32
    } else {
        ((first as f32) / crate::games::ui_of(kind).eval_scale()).tanh()
    };
    Some((value, text))
}

/// The winning chance (0 to 1) of a score `scale` units a logit.
pub fn win_chance(score: i32, scale: f32) -> f32 {
    1.0 / (1.0 + (-(score as f32) / scale).exp())
}

/// A score in hundredths as "+1.3", "-0.4" or "+0.0": one decimal, never "-0.0" (a score of
/// -3 read "Black -0.0" in the bar).
pub fn signed_tenths(score: i32) -> String {
    let tenths = (score as f32 / 10.0).round() as i32;
    let sign = if tenths < 0 { '-' } else { '+' };
    format!("{sign}{}.{}", tenths.abs() / 10, tenths.abs() % 10)
}

/// A horizontal bar: the first side's share grows to the left as the CPU's score for it rises.
pub fn eval_bar_ui(ui: &mut egui::Ui, kind: GameKind, value: f32, text: &str) {
    let game = crate::games::ui_of(kind);
    let width = ui.available_width();
    let (rect, _) = ui.allocate_exact_size(egui::vec2(width, 14.0), egui::Sense::hover());
    let split = rect.left() + rect.width() * (0.5 + 0.5 * value.clamp(-1.0, 1.0));
    let p = ui.painter();
    p.rect_filled(rect, 3.0, game.piece_color(Side::White));
    p.rect_filled(
        egui::Rect::from_min_max(rect.min, egui::pos2(split, rect.max.y)),
        3.0,
        game.piece_color(Side::Black),
    );
    // a light frame and a mark at the split, so that a dark side's share shows on a dark panel
    let ui_colors = palette::ui();
    p.line_segment(
        [
            egui::pos2(split, rect.top()),
            egui::pos2(split, rect.bottom()),
        ],
        egui::Stroke::new(2.0, ui_colors.outline),
    );
    p.rect_stroke(
        rect,
        3.0,
        egui::Stroke::new(1.5, ui_colors.coordinates),
        egui::StrokeKind::Inside,
    );
    ui.label(egui::RichText::new(text).size(13.0));
}
