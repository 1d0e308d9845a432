//! Everything the window does differently per game, behind one trait: the options row of New
//! game, what a click means, the board's style and marks, the status texts, the rules page.
//! Nothing outside this folder names a particular game; the rest of the app asks [`ui_of`].
//!
//! Adding a game to the window: a new file here with a type that implements [`GameUi`], and one
//! line in [`REGISTRY`].

pub mod ataxx;
pub mod go;
pub mod gomoku;
pub mod reversi;

use bevy::prelude::*;
use bevy_egui::egui;
use qi_core::any::AnyPosition;
use qi_core::{GameKind, Side, Square};

use crate::board::Marker;
use crate::theme::palette::{self, BoardColors};

pub fn plugin(app: &mut App) {
    app.add_plugins(go::plugin);
}

/// The games the window knows, in [`GameKind`] order.
pub static REGISTRY: [&dyn GameUi; 4] = [
    &ataxx::AtaxxUi,
    &reversi::ReversiUi,
    &gomoku::GomokuUi,
    &go::GoUi,
];

/// The window's code for one game.
pub fn ui_of(kind: GameKind) -> &'static dyn GameUi {
    REGISTRY
        .iter()
        .copied()
        .find(|g| g.kind() == kind)
        .expect("every game kind has an entry in games::REGISTRY")
}

/// The options of New game for one game; each game reads the fields it has. Kept in the
/// settings file (the last ones a game was started with).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GameOptions {
    /// A start layout or a rule, by index into the game's list.
    pub variant: usize,
    /// Board size (Gomoku and Go).
    pub size: u8,
    /// Go: handicap stones (0, or 2-9).
    pub handicap: u8,
    /// Go: komi.
    pub komi: f32,
}

/// Whether options read from a file (the settings, edited by hand perhaps) make a game of
/// `kind`: a board size from the game's table, a handicap of 0-9, a finite komi within 200,
/// and a start position the game reads back (or none: the game's usual start).
pub fn options_are_valid(kind: GameKind, o: &GameOptions) -> bool {
    kind.info().board_sizes.contains(&o.size)
        && o.handicap <= 9
        && o.komi.is_finite()
        && o.komi.abs() <= 200.0
        && ui_of(kind)
            .start_text(o)
            .is_none_or(|t| AnyPosition::from_text(kind, &t).is_ok())
}

/// What a click on a square means in the position: a move, a selection, or a message.
#[derive(Debug, Clone, PartialEq)]
pub enum ClickResult {
    Play(qi_core::any::AnyMove),
    Select(Square),
    Deselect,
    Refuse(String),
}

/// How a game's board is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardStyle {
    /// Pieces stand on the line crossings (Go, Gomoku), not in squares.
    pub lined: bool,
    /// Row 1 at the top (Othello boards: a1 top left).
    pub rank_one_on_top: bool,
    pub colors: BoardColors,
}

pub trait GameUi: Sync + Send + 'static {
    fn kind(&self) -> GameKind;

    /// The game's name in the player's language.
    fn title(&self) -> String;

    /// The side's name: Red/Blue in Ataxx, Black/White elsewhere.
    fn side_name(&self, side: Side) -> String {
        match side {
            Side::Black => t!("side-black"),
            Side::White => t!("side-white"),
        }
    }

    /// A result read from a record ([`qi_core::GameResult::from_record`]), in words.
    fn record_result_text(&self, r: &qi_core::GameResult) -> String {
        result_text(self.kind(), r)
    }

    fn piece_color(&self, side: Side) -> egui::Color32 {
        match side {
            Side::Black => palette::BLACK_PIECE,
            Side::White => palette::WHITE_PIECE,
        }
    }

    /// The most a CPU move may take by default, in milliseconds.
    fn default_cpu_time_ms(&self) -> u32 {
        1000
    }

    /// Whether the CPU's search score is a win rate (a Monte Carlo search: hundredths of a
    /// percent minus 5000) rather than a score in hundredths of a unit (pieces, stones).
    fn score_is_win_rate(&self) -> bool {
        false
    }

    /// The score (hundredths) at which the eval bar is three quarters of the way to its end
    /// (the bar is tanh(score / scale)): 8 pieces by default.
    fn eval_scale(&self) -> f32 {
        800.0
    }

    // ---------------------------------------------------------------- New game

    fn default_options(&self) -> GameOptions {
        GameOptions {
            variant: 0,
            size: self.kind().info().board_sizes[0],
            handicap: 0,
            komi: 0.0,
        }
    }

    /// Draws the options row; returns whether the player clicked in it.
    fn options_ui(&self, ui: &mut egui::Ui, options: &mut GameOptions) -> bool {
        let _ = options;
        ui.label(t!("option-standard-start"));
        false
    }

    /// Left/Right on the options row.
    fn cycle_option(&self, options: &mut GameOptions, delta: isize) {
        let _ = (options, delta);
    }

    /// The start position these options give (`None`: the standard start).
    fn start_text(&self, options: &GameOptions) -> Option<String> {
        let _ = options;
        None
    }

    /// The options that start a game like one that started from `start` (its size, rule,
    /// layout or komi), so that New game offers the game just played however it was started
    /// (a loaded slot, `--fen`, a replayed record); `None`: the options stay as they were.
    fn options_of(&self, start: &AnyPosition) -> Option<GameOptions> {
        let _ = start;
        None
    }

    // ---------------------------------------------------------------- board

    fn board_style(&self) -> BoardStyle;

    /// The label of a column: `a`…; Go skips `I`.
    fn column_label(&self, x: u8) -> String {
        ((b'a' + x) as char).to_string()
    }

    /// Dots on the crossings of the grid lines, counted from the bottom-left corner in cells
    /// (Othello's four dots).
    fn grid_dots(&self) -> Vec<(u8, u8)> {
        Vec::new()
    }

    /// Whether stones show their move numbers unless the player turns them off (Gomoku, as
    /// Piskvork and Yixin show them).
    fn move_numbers_by_default(&self) -> bool {
        false
    }

    /// Points marked on an empty board (Go and Gomoku star points).
    fn star_points(&self, size: u8) -> Vec<Square> {
        let _ = size;
        Vec::new()
    }

    /// What a click on `sq` means; `selected` is the piece picked up (Ataxx).
    fn click(&self, pos: &AnyPosition, selected: Option<Square>, sq: Square) -> ClickResult {
        let _ = selected;
        let name = qi_core::game::square_text(sq);
        if let Some(mv) = pos
            .legal_moves()
            .into_iter()
            .find(|m| pos.move_squares(*m).to == Some(sq))
        {
            ClickResult::Play(mv)
        } else if pos.cell(sq) != qi_core::Cell::Empty {
            ClickResult::Refuse(t!("refuse-taken", square = name))
        } else {
            ClickResult::Refuse(t!("refuse-not-legal", square = name))
        }
    }

    /// The marks for the side to move: legal moves (when shown), the selection and its targets.
    fn move_markers(
        &self,
        pos: &AnyPosition,
        selected: Option<Square>,
        show_legal: bool,
    ) -> Vec<(Square, Marker)> {
        let _ = (pos, selected, show_legal);
        Vec::new()
    }

    /// A point where the side to move may not play by a rule the player should see (Go's ko).
    fn ko_point(&self, pos: &AnyPosition) -> Option<Square> {
        let _ = pos;
        None
    }

    /// A side whose only move is a pass passes at once (Ataxx and Reversi force it).
    fn passes_automatically(&self) -> bool {
        false
    }

    /// A player passes by choosing to (Go): the HUD has a Pass button and P passes. Gomoku has
    /// no pass (its Pass button was always greyed, and P did nothing there).
    fn passes_by_choice(&self) -> bool {
        false
    }

    /// A person may resign (Go).
    fn can_resign(&self) -> bool {
        false
    }

    /// What sets this game apart from others of its kind, for the list of saved games (Gomoku:
    /// the board size and rule; Go: the board size): `None` where every game is alike.
    fn variant_text(&self, pos: &AnyPosition) -> Option<String> {
        let _ = pos;
        None
    }

    /// Lines for the side panel (Go: the komi, captures and the area count; Gomoku: the rule).
    fn info_line(&self, pos: &AnyPosition) -> Option<String> {
        let _ = pos;
        None
    }

    // ---------------------------------------------------------------- rules

    /// The rules page's text (its title is [`GameUi::title`]).
    fn rules(&self) -> String;

    /// A position that shows the game's typical shape, for the rules page.
    fn example_position(&self) -> Result<AnyPosition, String>;
}

/// A finished game's result as a sentence in the player's language: "Red wins 30-19", "White
/// wins by 3.5 points", "Black wins by resignation", "Draw 32-32".
/// Why `mv` (typed, or sent by anything but a click) cannot be played in `pos`, in the same
/// words a click on its square would give: a stone placed (Reversi, Gomoku, Go) gets the
/// game's own reason (taken, ko, suicide, forbidden); a piece moved (Ataxx) or a pass, that
/// the square is taken or the move is not legal.
pub fn refusal(pos: &AnyPosition, mv: qi_core::any::AnyMove) -> String {
    let squares = pos.move_squares(mv);
    let text = pos.move_to_text(mv);
    match (squares.from, squares.to) {
        (None, Some(to)) => match ui_of(pos.kind()).click(pos, None, to) {
            ClickResult::Refuse(why) => why,
            _ => t!("refuse-not-legal", square = text),
        },
        (Some(_), Some(to)) if pos.cell(to) != qi_core::Cell::Empty => {
            t!("refuse-taken", square = qi_core::game::square_text(to))
        }
        _ => t!("refuse-not-legal", square = text),
    }
}

pub fn result_text(kind: GameKind, r: &qi_core::GameResult) -> String {
    use qi_core::result::Reason;
    let side = |s: Side| ui_of(kind).side_name(s);
    match (r.winner, r.reason) {
        (None, Reason::Count { black, white }) => {
            t!("result-draw-count", black = black, white = white)
        }
        (None, Reason::Score { .. }) => t!("result-jigo"),
        (None, Reason::BoardFull) => t!("result-draw-board-full"),
        (None, _) => t!("result-draw"),
        (Some(s), Reason::Count { black, white }) => {
            let (a, b) = if s == Side::Black {
                (black, white)
            } else {
                (white, black)
            };
            t!("result-win-count", side = side(s), won = a, lost = b)
        }
        (Some(s), Reason::Score { margin }) => t!(
            "result-win-score",
            side = side(s),
            points = margin.abs() as f64
        ),
        (Some(s), Reason::Line | Reason::BoardFull) => t!("result-win-line", side = side(s)),
        (Some(s), Reason::Resignation) => t!("result-win-resignation", side = side(s)),
        (Some(s), Reason::Time) => t!("result-win-time", side = side(s)),
        (Some(s), Reason::Forfeit) => t!("result-win-forfeit", side = side(s)),
        (Some(s), Reason::Agreement) => t!("result-win", side = side(s)),
    }
}

/// A record's result text (`W+R`, `B+3.5`, PGN's `1-0`) in the player's words, or as the file
/// has it when Qi does not know the form.
pub fn record_result(kind: GameKind, raw: &str) -> String {
    qi_core::GameResult::from_record(kind, raw)
        .map(|r| ui_of(kind).record_result_text(&r))
        .unwrap_or_else(|| raw.to_string())
}

/// Plays `moves` (in the game's notation) from `start`.
pub fn play_line(mut pos: AnyPosition, moves: &[&str]) -> Result<AnyPosition, String> {
    for m in moves {
        let mv = pos.parse_move(m).map_err(|e| e.0)?;
        pos.play(mv).map_err(|e| e.0)?;
    }
    Ok(pos)
}

/// Legal moves as dots (Ataxx and Reversi).
pub fn legal_dots(pos: &AnyPosition) -> Vec<(Square, Marker)> {
    let mut seen = std::collections::HashSet::new();
    pos.legal_moves()
        .into_iter()
        .filter_map(|mv| pos.move_squares(mv).to)
        .filter(|to| seen.insert(*to))
        .map(|to| (to, Marker::Legal))
        .collect()
}

pub fn cycle<T: Copy + PartialEq>(options: &[T], current: T, delta: isize) -> T {
    let i = options.iter().position(|&o| o == current).unwrap_or(0) as isize;
    options[(i + delta).rem_euclid(options.len() as isize) as usize]
}

/// Buttons for the game's board sizes (smallest first); returns whether one was clicked.
pub fn size_buttons(ui: &mut egui::Ui, kind: GameKind, size: &mut u8) -> bool {
    let mut sizes = kind.info().board_sizes.to_vec();
    sizes.sort();
    let mut clicked = false;
    for n in sizes {
        if ui
            .add(egui::Button::new(t!("board-size", n = n)).selected(*size == n))
            .clicked()
        {
            *size = n;
            clicked = true;
        }
    }
    clicked
}

/// A row of buttons, one per choice; returns the index clicked.
pub fn choice_buttons(ui: &mut egui::Ui, labels: &[String], current: usize) -> Option<usize> {
    let mut out = None;
    for (i, l) in labels.iter().enumerate() {
        if ui
            .add(egui::Button::new(l).selected(current == i))
            .clicked()
        {
            out = Some(i);
        }
    }
    out
}

/// The usual star points (hoshi) of a square board of Go or Gomoku.
pub fn hoshi(n: u8) -> Vec<Square> {
    if n < 7 {
        return vec![];
    }
    let edge = if n >= 13 { 3 } else { 2 };
    let (a, m, b) = (edge, n / 2, n - 1 - edge);
    let mut v = vec![
        Square::new(a, a),
        Square::new(a, b),
        Square::new(b, a),
        Square::new(b, b),
    ];
    if n % 2 == 1 {
        v.push(Square::new(m, m));
        if n >= 15 {
            v.extend([
                Square::new(a, m),
                Square::new(b, m),
                Square::new(m, a),
                Square::new(m, b),
            ]);
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_has_every_game_once_in_kind_order() {
        for (i, k) in GameKind::ALL.into_iter().enumerate() {
            assert_eq!(REGISTRY[i].kind(), k);
            assert_eq!(ui_of(k).kind(), k);
        }
    }

    #[test]
    fn every_rules_page_has_a_legal_example_board() {
        for g in REGISTRY {
            let pos = g
                .example_position()
                .unwrap_or_else(|e| panic!("{}: {e}", g.kind()));
            assert!(pos.piece_counts()[0] > 0, "{}", g.kind());
            assert!(!g.rules().is_empty());
        }
    }

    #[test]
    fn options_come_back_from_the_start_they_give() {
        // every option New game can reach by Left/Right (and each Go handicap) reads back
        // from its start position, so New game offers a loaded or `--fen` game's own options
        for kind in GameKind::ALL {
            let ui = ui_of(kind);
            let first = ui.default_options();
            let mut o = first;
            let mut seen = 0;
            loop {
                let mut all = vec![o];
                if kind == GameKind::Go && o.size != 9 {
                    for h in 2..=9u8 {
                        all.push(GameOptions {
                            handicap: h,
                            komi: qi_core::go::DEFAULT_HANDICAP_KOMI,
                            ..o
                        });
                    }
                }
                for o in all {
                    let Some(text) = ui.start_text(&o) else {
                        assert!(ui.options_of(&AnyPosition::start(kind).unwrap()).is_none());
                        continue;
                    };
                    let start = AnyPosition::from_text(kind, &text).unwrap();
                    assert_eq!(ui.options_of(&start), Some(o), "{kind:?} {text}");
                    seen += 1;
                }
                ui.cycle_option(&mut o, 1);
                if o == first {
                    break;
                }
            }
            let least = match kind {
                GameKind::Reversi => 0,
                GameKind::Ataxx => 5,
                GameKind::Gomoku => 6,
                GameKind::Go => 3 + 2 * 8,
            };
            assert!(seen >= least, "{kind:?}: {seen} option sets");
        }
        // a game in progress keeps its size and rule, and Go its komi, with no handicap
        let mut renju = qi_core::gomoku::Gomoku::new(19, qi_core::gomoku::GomokuRule::Renju);
        let m = qi_core::Game::parse_move(&renju, "j10").unwrap();
        qi_core::Game::make(&mut renju, m);
        let o = ui_of(GameKind::Gomoku)
            .options_of(&AnyPosition::Gomoku(Box::new(renju)))
            .unwrap();
        assert_eq!((o.size, o.variant), (19, 2));
        let go = play_line(
            AnyPosition::from_text(
                GameKind::Go,
                &qi_core::Game::to_text(&qi_core::go::Go::new(13, 0.5).unwrap()),
            )
            .unwrap(),
            &["d4", "k10"],
        )
        .unwrap();
        let o = ui_of(GameKind::Go).options_of(&go).unwrap();
        assert_eq!((o.size, o.handicap, o.komi), (13, 0, 0.5));
    }

    #[test]
    fn default_options_give_a_start_position() {
        for g in REGISTRY {
            let o = g.default_options();
            let text = g.start_text(&o);
            let pos = match text {
                Some(t) => AnyPosition::from_text(g.kind(), &t),
                None => AnyPosition::start(g.kind()),
            };
            assert!(pos.is_ok(), "{}", g.kind());
            // and the settings keep them (options that fail this are forgotten on reading)
            assert!(options_are_valid(g.kind(), &o), "{}", g.kind());
        }
    }

    /// The list says a record's result in words, each game as its files mean it: PGN's `1-0`
    /// is a win of Ataxx's second side (Blue), a Go `B+2` a score, a Gomoku `B+` five in a row.
    #[test]
    fn record_titles_say_the_result_in_words() {
        let mut rec = qi_core::records::import_text(
            "[White \"Ann\"]\n[Black \"Bo\"]\n[Result \"1-0\"]\n\n1. b6 b2 1-0\n",
        )
        .unwrap();
        assert_eq!(rec.result.as_deref(), Some("1-0"));
        assert_eq!(
            crate::menus::records::record_title(&rec),
            "Ataxx · Bo vs Ann · Blue wins · 2 moves"
        );
        // a form Qi does not know stays as the file has it
        rec.result = Some("Void".into());
        assert_eq!(
            crate::menus::records::record_title(&rec),
            "Ataxx · Bo vs Ann · Void · 2 moves"
        );
        let title = |i: usize| {
            crate::menus::records::record_title(
                &crate::menus::records::RecordSource::Sample(i)
                    .read()
                    .unwrap(),
            )
        };
        let go = title(0);
        assert!(go.contains(" · Black wins by 2 points · "), "{go}");
        let gomoku = title(4);
        assert!(
            gomoku.contains(" · Black wins with five in a row · "),
            "{gomoku}"
        );
    }
}
