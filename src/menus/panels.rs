//! The menu panels, each a function of an `egui::Ui` and a model that returns what the player
//! chose. They know nothing of Bevy's world, so egui_kittest tests drive them directly.

use bevy_egui::egui;
use qi_core::Game;
use qi_core::GameKind;
use qi_core::any::AnyCpu;
use qi_core::any::AnyPosition;
use qi_core::ataxx::Ataxx;
use qi_core::go::Go;
use qi_core::gomoku::{Gomoku, GomokuRule};

use super::nav::{NavKeys, button_list};
use crate::game::{MatchSetup, Player, side_name};
use crate::settings::Settings;

// ---------------------------------------------------------------- main menu

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MainAction {
    Continue,
    NewGame,
    Load,
    Records,
    Rules,
    Settings,
    Quit,
}

#[derive(Clone, Debug, Default)]
pub struct MainMenuModel {
    pub selected: usize,
    /// Whether there is an autosave to continue.
    pub can_continue: bool,
}

pub fn main_menu_ui(ui: &mut egui::Ui, model: &mut MainMenuModel) -> Option<MainAction> {
    let keys = NavKeys::read(ui);
    ui.vertical_centered(|ui| {
        ui.add_space(20.0);
        ui.label(egui::RichText::new("Qi").size(48.0).strong());
        ui.label(egui::RichText::new("Ataxx · Reversi · Gomoku · Go").size(16.0));
        ui.add_space(24.0);
        let items = [
            ("Continue", model.can_continue),
            ("New game", true),
            ("Load", true),
            ("Records", true),
            ("Rules", true),
            ("Settings", true),
            ("Quit", true),
        ];
        let chosen = button_list(ui, &items, &mut model.selected, keys);
        ui.add_space(16.0);
        ui.label(egui::RichText::new("Arrows or Tab to move, Enter or Space to choose").weak());
        chosen.map(|i| {
            [
                MainAction::Continue,
                MainAction::NewGame,
                MainAction::Load,
                MainAction::Records,
                MainAction::Rules,
                MainAction::Settings,
                MainAction::Quit,
            ][i]
        })
    })
    .inner
}

// ---------------------------------------------------------------- save slots

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotAction {
    Choose(usize),
    Delete(usize),
    Back,
}

/// The nine slots, each with its game, players, score, moves, date and a small board; an empty
/// slot can be saved into but not loaded, an unreadable one shows why.
pub fn slots_ui(
    ui: &mut egui::Ui,
    slots: &[qi_core::saves::SlotInfo],
    saving: bool,
    selected: &mut usize,
) -> Option<SlotAction> {
    use qi_core::saves::SlotState;
    let keys = NavKeys::read(ui);
    if keys.back {
        return Some(SlotAction::Back);
    }
    ui.vertical_centered(|ui| {
        ui.heading(egui::RichText::new(if saving { "Save game" } else { "Load game" }).size(26.0))
    });
    let enabled: Vec<bool> = slots
        .iter()
        .map(|s| saving || matches!(s.state, SlotState::Ok(_)))
        .collect();
    super::nav::step(selected, &enabled, keys);
    let mut action = None;
    egui::ScrollArea::vertical()
        .max_height(520.0)
        .show(ui, |ui| {
            for (i, info) in slots.iter().enumerate() {
                ui.horizontal(|ui| {
                    let label = format!("Slot {}", info.slot);
                    let button = egui::Button::new(egui::RichText::new(label).size(17.0))
                        .selected(i == *selected)
                        .min_size(egui::vec2(90.0, 28.0));
                    if ui.add_enabled(enabled[i], button).clicked() {
                        *selected = i;
                        action = Some(SlotAction::Choose(info.slot));
                    }
                    match &info.state {
                        SlotState::Empty => {
                            ui.label(egui::RichText::new("empty").weak());
                        }
                        SlotState::Unreadable(why) => {
                            ui.label(
                                egui::RichText::new(format!("unreadable: {why}"))
                                    .color(egui::Color32::LIGHT_RED),
                            );
                            if !saving && ui.small_button("Delete").clicked() {
                                action = Some(SlotAction::Delete(info.slot));
                            }
                        }
                        SlotState::Ok(sum) => {
                            draw_small_board(
                                ui,
                                &sum.position,
                                (36.0 / sum.position.dimensions().0 as f32).max(2.0),
                            );
                            ui.label(format!(
                                "{} · {} vs {} · {}-{} · {} moves · {}",
                                sum.game.title(),
                                sum.players[0].name,
                                sum.players[1].name,
                                sum.score[0],
                                sum.score[1],
                                sum.move_count,
                                sum.saved_at_text
                            ));
                            if !saving && ui.small_button("Delete").clicked() {
                                action = Some(SlotAction::Delete(info.slot));
                            }
                        }
                    }
                });
            }
        });
    if keys.choose && enabled.get(*selected).copied().unwrap_or(false) {
        action = Some(SlotAction::Choose(slots[*selected].slot));
    }
    ui.add_space(8.0);
    if ui
        .vertical_centered(|ui| ui.button(egui::RichText::new("Back").size(18.0)).clicked())
        .inner
    {
        action = Some(SlotAction::Back);
    }
    action
}

// ---------------------------------------------------------------- new game

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    VsCpu,
    TwoPlayers,
    CpuVsCpu,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    First,
    Second,
    Random,
}

#[derive(Clone, Debug)]
pub struct NewGameModel {
    pub kind: GameKind,
    /// Ataxx start layout (index into `Ataxx::start_layouts`).
    pub layout: usize,
    pub mode: Mode,
    pub color: ColorChoice,
    pub level: u8,
    pub names: [String; 2],
    pub row: usize,
    /// A number from the app for the random colour choice.
    pub coin: bool,
    /// Gomoku: 15 or 19, and the rule.
    pub gomoku_size: u8,
    pub gomoku_rule: GomokuRule,
    /// Go: 9, 13 or 19; handicap stones (0 or 2-9); komi.
    pub go_size: u8,
    pub go_handicap: u8,
    pub go_komi: f32,
}

impl Default for NewGameModel {
    fn default() -> Self {
        NewGameModel {
            kind: GameKind::Ataxx,
            layout: 0,
            mode: Mode::VsCpu,
            color: ColorChoice::First,
            level: 3,
            names: ["Player".into(), "Player 2".into()],
            row: 0,
            coin: false,
            gomoku_size: 15,
            gomoku_rule: GomokuRule::Freestyle,
            go_size: 19,
            go_handicap: 0,
            go_komi: qi_core::go::DEFAULT_KOMI,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum NewGameAction {
    Start(MatchSetup),
    Back,
}

pub fn playable(kind: GameKind) -> bool {
    AnyPosition::start(kind).is_ok()
}

impl NewGameModel {
    /// The game these choices describe.
    pub fn setup(&self) -> MatchSetup {
        let cpu = Player::Cpu { level: self.level };
        let human_first = match self.color {
            ColorChoice::First => true,
            ColorChoice::Second => false,
            ColorChoice::Random => self.coin,
        };
        let mode = if AnyCpu::available(self.kind) {
            self.mode
        } else {
            Mode::TwoPlayers
        };
        let (players, names) = match mode {
            Mode::TwoPlayers => ([Player::Human, Player::Human], self.names.clone()),
            Mode::CpuVsCpu => (
                [cpu, cpu],
                [format!("CPU {}", self.level), format!("CPU {}", self.level)],
            ),
            Mode::VsCpu if human_first => (
                [Player::Human, cpu],
                [self.names[0].clone(), format!("CPU {}", self.level)],
            ),
            Mode::VsCpu => (
                [cpu, Player::Human],
                [format!("CPU {}", self.level), self.names[0].clone()],
            ),
        };
        let start_text = match self.kind {
            GameKind::Ataxx => Some(Ataxx::start_layouts()[self.layout].1.to_string()),
            GameKind::Gomoku => Some(Gomoku::new(self.gomoku_size, self.gomoku_rule).to_text()),
            GameKind::Go => {
                let pos = if self.go_handicap >= 2 {
                    Go::with_handicap(self.go_size, self.go_handicap, self.go_komi)
                } else {
                    Go::new(self.go_size, self.go_komi)
                };
                pos.ok().map(|p| p.to_text())
            }
            _ => None,
        };
        MatchSetup {
            kind: self.kind,
            start_text,
            players,
            names,
        }
    }
}

fn cycle<T: Copy + PartialEq>(options: &[T], current: T, delta: isize) -> T {
    let i = options.iter().position(|&o| o == current).unwrap_or(0) as isize;
    options[(i + delta).rem_euclid(options.len() as isize) as usize]
}

pub fn new_game_ui(ui: &mut egui::Ui, m: &mut NewGameModel) -> Option<NewGameAction> {
    let keys = NavKeys::read(ui);
    if keys.back {
        return Some(NewGameAction::Back);
    }
    const ROWS: usize = 7; // game, options, mode, colour, level, start, back
    if keys.down {
        m.row = (m.row + 1) % ROWS;
    }
    if keys.up {
        m.row = (m.row + ROWS - 1) % ROWS;
    }
    let delta: isize = if keys.right {
        1
    } else if keys.left {
        -1
    } else {
        0
    };
    let games: Vec<GameKind> = GameKind::ALL.into_iter().filter(|k| playable(*k)).collect();
    if delta != 0 {
        match m.row {
            0 => m.kind = cycle(&games, m.kind, delta),
            1 if m.kind == GameKind::Ataxx => {
                m.layout = (m.layout as isize + delta)
                    .rem_euclid(Ataxx::start_layouts().len() as isize)
                    as usize
            }
            1 if m.kind == GameKind::Gomoku => {
                let options: Vec<(u8, GomokuRule)> = [15u8, 19]
                    .iter()
                    .flat_map(|&n| GomokuRule::ALL.iter().map(move |&r| (n, r)))
                    .collect();
                let (n, r) = cycle(&options, (m.gomoku_size, m.gomoku_rule), delta);
                m.gomoku_size = n;
                m.gomoku_rule = r;
            }
            1 if m.kind == GameKind::Go => m.go_size = cycle(&[9u8, 13, 19], m.go_size, delta),
            2 => {
                m.mode = cycle(
                    &[Mode::VsCpu, Mode::TwoPlayers, Mode::CpuVsCpu],
                    m.mode,
                    delta,
                )
            }
            3 => {
                m.color = cycle(
                    &[ColorChoice::First, ColorChoice::Second, ColorChoice::Random],
                    m.color,
                    delta,
                )
            }
            4 => m.level = (m.level as isize + delta).clamp(1, 6) as u8,
            _ => {}
        }
    }
    let mut action = None;
    let row_label = |ui: &mut egui::Ui, row: usize, sel: usize, text: &str| {
        let t = egui::RichText::new(text).size(17.0);
        ui.label(if row == sel {
            t.strong().underline()
        } else {
            t
        });
    };
    ui.vertical_centered(|ui| {
        ui.heading(egui::RichText::new("New game").size(28.0));
        ui.add_space(10.0);
    });
    egui::Grid::new("new_game_grid")
        .num_columns(2)
        .spacing([24.0, 12.0])
        .show(ui, |ui| {
            row_label(ui, 0, m.row, "Game");
            ui.horizontal(|ui| {
                for k in GameKind::ALL {
                    let on = playable(k);
                    if ui
                        .add_enabled(on, egui::Button::new(k.title()).selected(m.kind == k))
                        .clicked()
                    {
                        m.kind = k;
                        m.row = 0;
                    }
                }
            });
            ui.end_row();

            row_label(ui, 1, m.row, "Board");
            ui.horizontal(|ui| match m.kind {
                GameKind::Ataxx => {
                    for (i, (name, _)) in Ataxx::start_layouts().iter().enumerate() {
                        if ui
                            .add(egui::Button::new(*name).selected(m.layout == i))
                            .clicked()
                        {
                            m.layout = i;
                            m.row = 1;
                        }
                    }
                }
                GameKind::Go => {
                    for n in [9u8, 13, 19] {
                        if ui
                            .add(egui::Button::new(format!("{n}x{n}")).selected(m.go_size == n))
                            .clicked()
                        {
                            m.go_size = n;
                            m.row = 1;
                        }
                    }
                    ui.separator();
                    ui.label("Handicap");
                    let before = m.go_handicap;
                    let max = if m.go_size % 2 == 1 { 9 } else { 4 };
                    egui::ComboBox::from_id_salt("go_handicap")
                        .selected_text(if m.go_handicap < 2 {
                            "none".to_string()
                        } else {
                            m.go_handicap.to_string()
                        })
                        .show_ui(ui, |ui| {
                            ui.selectable_value(&mut m.go_handicap, 0, "none");
                            for h in 2..=max {
                                ui.selectable_value(&mut m.go_handicap, h, h.to_string());
                            }
                        });
                    if before != m.go_handicap {
                        m.go_komi = if m.go_handicap >= 2 {
                            qi_core::go::DEFAULT_HANDICAP_KOMI
                        } else {
                            qi_core::go::DEFAULT_KOMI
                        };
                    }
                    ui.label("Komi");
                    ui.add(
                        egui::DragValue::new(&mut m.go_komi)
                            .speed(0.5)
                            .range(-50.0..=50.0),
                    );
                    m.go_komi = (m.go_komi * 2.0).round() / 2.0;
                }
                GameKind::Gomoku => {
                    for n in [15u8, 19] {
                        if ui
                            .add(egui::Button::new(format!("{n}x{n}")).selected(m.gomoku_size == n))
                            .clicked()
                        {
                            m.gomoku_size = n;
                            m.row = 1;
                        }
                    }
                    ui.separator();
                    for r in GomokuRule::ALL {
                        let label = match r {
                            GomokuRule::Freestyle => "Freestyle",
                            GomokuRule::Standard => "Standard",
                            GomokuRule::Renju => "Renju",
                        };
                        if ui
                            .add(egui::Button::new(label).selected(m.gomoku_rule == r))
                            .clicked()
                        {
                            m.gomoku_rule = r;
                            m.row = 1;
                        }
                    }
                }
                _ => {
                    ui.label("Standard start position");
                }
            });
            ui.end_row();

            row_label(ui, 2, m.row, "Mode");
            let has_cpu = AnyCpu::available(m.kind);
            if !has_cpu {
                m.mode = Mode::TwoPlayers;
            }
            ui.horizontal(|ui| {
                for (mode, label) in [
                    (Mode::VsCpu, "vs CPU"),
                    (Mode::TwoPlayers, "Two players"),
                    (Mode::CpuVsCpu, "CPU vs CPU"),
                ] {
                    let on = has_cpu || mode == Mode::TwoPlayers;
                    if ui
                        .add_enabled(on, egui::Button::new(label).selected(m.mode == mode))
                        .clicked()
                    {
                        m.mode = mode;
                        m.row = 2;
                    }
                }
            });
            ui.end_row();

            row_label(ui, 3, m.row, "You play");
            ui.horizontal(|ui| {
                let on = m.mode == Mode::VsCpu;
                let first = format!("{} (moves first)", side_name(m.kind, qi_core::Side::Black));
                let second = format!(
                    "{} (CPU moves first)",
                    side_name(m.kind, qi_core::Side::White)
                );
                for (c, label) in [
                    (ColorChoice::First, first.as_str()),
                    (ColorChoice::Second, second.as_str()),
                    (ColorChoice::Random, "Random"),
                ] {
                    if ui
                        .add_enabled(on, egui::Button::new(label).selected(m.color == c))
                        .clicked()
                    {
                        m.color = c;
                        m.row = 3;
                    }
                }
            });
            ui.end_row();

            row_label(ui, 4, m.row, "CPU level");
            ui.horizontal(|ui| {
                let on = m.mode != Mode::TwoPlayers;
                for l in 1..=6u8 {
                    if ui
                        .add_enabled(on, egui::Button::new(l.to_string()).selected(m.level == l))
                        .clicked()
                    {
                        m.level = l;
                        m.row = 4;
                    }
                }
            });
            ui.end_row();

            ui.label(egui::RichText::new("Names").size(17.0));
            ui.horizontal(|ui| {
                ui.add(
                    egui::TextEdit::singleline(&mut m.names[0])
                        .desired_width(120.0)
                        .char_limit(20),
                );
                if m.mode == Mode::TwoPlayers {
                    ui.add(
                        egui::TextEdit::singleline(&mut m.names[1])
                            .desired_width(120.0)
                            .char_limit(20),
                    );
                }
            });
            ui.end_row();
        });
    ui.add_space(16.0);
    ui.vertical_centered(|ui| {
        let start = ui.add(
            egui::Button::new(egui::RichText::new("Start").size(20.0))
                .selected(m.row == 5)
                .min_size(egui::vec2(200.0, 34.0)),
        );
        let back = ui.add(
            egui::Button::new(egui::RichText::new("Back").size(18.0))
                .selected(m.row == 6)
                .min_size(egui::vec2(200.0, 30.0)),
        );
        if start.clicked() || (keys.choose && m.row == 5) {
            action = Some(NewGameAction::Start(m.setup()));
        }
        if back.clicked() || (keys.choose && m.row == 6) {
            action = Some(NewGameAction::Back);
        }
        ui.add_space(8.0);
        ui.label(
            egui::RichText::new("Up/Down pick a row, Left/Right change it, Enter starts").weak(),
        );
    });
    action
}

// ---------------------------------------------------------------- pause, confirm, game over

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PauseAction {
    Resume,
    Save,
    ExportRecord,
    Load,
    Rules,
    Settings,
    MainMenu,
    Quit,
}

pub fn pause_ui(ui: &mut egui::Ui, selected: &mut usize) -> Option<PauseAction> {
    let keys = NavKeys::read(ui);
    if keys.back {
        return Some(PauseAction::Resume);
    }
    ui.vertical_centered(|ui| {
        ui.heading(egui::RichText::new("Paused").size(28.0));
        ui.add_space(12.0);
        let items = [
            ("Resume", true),
            ("Save game", true),
            ("Save the record (SGF/PGN)", true),
            ("Load", true),
            ("Rules", true),
            ("Settings", true),
            ("Main menu", true),
            ("Quit", true),
        ];
        button_list(ui, &items, selected, keys).map(|i| {
            [
                PauseAction::Resume,
                PauseAction::Save,
                PauseAction::ExportRecord,
                PauseAction::Load,
                PauseAction::Rules,
                PauseAction::Settings,
                PauseAction::MainMenu,
                PauseAction::Quit,
            ][i]
        })
    })
    .inner
}

/// A yes/no question; Esc answers no.
pub fn confirm_ui(ui: &mut egui::Ui, question: &str, selected: &mut usize) -> Option<bool> {
    let keys = NavKeys::read(ui);
    if keys.back {
        return Some(false);
    }
    ui.vertical_centered(|ui| {
        ui.label(egui::RichText::new(question).size(20.0));
        ui.add_space(12.0);
        button_list(ui, &[("Yes", true), ("No", true)], selected, keys).map(|i| i == 0)
    })
    .inner
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameOverAction {
    PlayAgain,
    SaveRecord,
    Review,
    MainMenu,
}

pub struct GameOverModel {
    pub headline: String,
    pub details: Vec<String>,
    pub selected: usize,
}

pub fn game_over_ui(ui: &mut egui::Ui, m: &mut GameOverModel) -> Option<GameOverAction> {
    let keys = NavKeys::read(ui);
    if keys.back {
        return Some(GameOverAction::Review);
    }
    ui.vertical_centered(|ui| {
        ui.label(egui::RichText::new(&m.headline).size(30.0).strong());
        for d in &m.details {
            ui.label(egui::RichText::new(d).size(16.0));
        }
        ui.add_space(12.0);
        let items = [
            ("Play again", true),
            ("Save the record", true),
            ("Look at the board", true),
            ("Main menu", true),
        ];
        button_list(ui, &items, &mut m.selected, keys).map(|i| {
            [
                GameOverAction::PlayAgain,
                GameOverAction::SaveRecord,
                GameOverAction::Review,
                GameOverAction::MainMenu,
            ][i]
        })
    })
    .inner
}

// ---------------------------------------------------------------- settings

pub fn settings_ui(ui: &mut egui::Ui, s: &mut Settings) -> bool {
    let keys = NavKeys::read(ui);
    ui.vertical_centered(|ui| ui.heading(egui::RichText::new("Settings").size(28.0)));
    ui.add_space(8.0);
    egui::Grid::new("settings_grid")
        .num_columns(2)
        .spacing([24.0, 10.0])
        .show(ui, |ui| {
            ui.label("Volume");
            ui.add(egui::Slider::new(&mut s.volume, 0.0..=1.0).show_value(true));
            ui.end_row();
            ui.label("Mute");
            ui.checkbox(&mut s.mute, "");
            ui.end_row();
            ui.label("Animation speed");
            ui.add(egui::Slider::new(&mut s.animation_speed, 0.0..=3.0).text("0 = off"));
            ui.end_row();
            ui.label("Show legal moves");
            ui.checkbox(&mut s.show_legal_moves, "");
            ui.end_row();
            ui.label("Eval bar");
            ui.checkbox(&mut s.eval_bar, "");
            ui.end_row();
            for k in GameKind::ALL {
                ui.label(format!("{} CPU level", k.title()));
                ui.add(egui::Slider::new(&mut s.default_level[k as usize], 1..=6));
                ui.end_row();
                ui.label(format!("{} CPU time per move (ms)", k.title()));
                ui.add(
                    egui::Slider::new(&mut s.cpu_time_ms[k as usize], 100..=10000)
                        .logarithmic(true),
                );
                ui.end_row();
            }
        });
    ui.add_space(12.0);
    let back = ui
        .vertical_centered(|ui| ui.button(egui::RichText::new("Back").size(18.0)).clicked())
        .inner;
    back || keys.back
}

// ---------------------------------------------------------------- rules

pub fn rules_text(kind: GameKind) -> (&'static str, &'static str) {
    match kind {
        GameKind::Ataxx => (
            "Ataxx",
            "Two players, Red (x) and Blue (o), on a 7x7 board; Red moves first.\n\
             • Clone: move to an empty square next to one of your pieces (also diagonally); the new piece appears and the old one stays.\n\
             • Jump: move a piece exactly two squares away; it leaves its square.\n\
             • Every enemy piece next to the square you move to turns into yours.\n\
             • Grey squares are blocked. With no move you pass; the game ends when the board is full, a side has no pieces, \
             neither side can move, or after 100 plies without a clone (a draw). Most pieces wins.\n\
             Type moves as g2 (clone) or a1c3 (jump).",
        ),
        GameKind::Reversi => (
            "Reversi (Othello)",
            "Black and White on an 8x8 board; Black moves first from the four centre discs.\n\
             • Place a disc so that it encloses a straight line (row, column or diagonal) of your opponent's discs \
             between it and another of your discs: all enclosed discs turn over.\n\
             • A move must turn at least one disc; with no such move you pass.\n\
             • The game ends when neither side can move. Most discs wins; empty squares go to the winner.\n\
             Type moves as d3; 'pass' when you must pass.",
        ),
        GameKind::Gomoku => (
            "Gomoku",
            "Black and White take turns placing stones on a 15x15 board; Black first.\n\
             Five in a row (across, down or diagonally) wins. Standard rule: exactly five. Renju: Black may not make \
             a double three, a double four or an overline.",
        ),
        GameKind::Go => (
            "Go",
            "Black and White place stones on the intersections; Black first. A group with no liberties is captured. \
             A move may not repeat an earlier whole-board position (superko). Two passes end the game; \
             area scoring: stones plus surrounded points, plus komi for White.",
        ),
    }
}

/// A small picture of a position, drawn with egui's painter.
pub fn draw_small_board(ui: &mut egui::Ui, pos: &AnyPosition, cell: f32) {
    let (w, h) = pos.dimensions();
    let size = egui::vec2(w as f32 * cell, h as f32 * cell);
    let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let (bg, line) = match pos.kind() {
        GameKind::Reversi => (
            egui::Color32::from_rgb(30, 110, 60),
            egui::Color32::from_rgb(10, 50, 25),
        ),
        GameKind::Ataxx => (
            egui::Color32::from_rgb(70, 75, 85),
            egui::Color32::from_rgb(35, 38, 45),
        ),
        _ => (
            egui::Color32::from_rgb(220, 180, 110),
            egui::Color32::from_rgb(60, 40, 20),
        ),
    };
    painter.rect_filled(rect, 2.0, line);
    for y in 0..h {
        for x in 0..w {
            // row 1 at the bottom, but at the top for Reversi (as the big board draws it)
            let row = if pos.kind() == GameKind::Reversi {
                y
            } else {
                h - 1 - y
            };
            let min = rect.min + egui::vec2(x as f32 * cell, row as f32 * cell);
            let r = egui::Rect::from_min_size(
                min + egui::vec2(1.0, 1.0),
                egui::vec2(cell - 2.0, cell - 2.0),
            );
            let c = pos.cell(qi_core::Square::new(x, y));
            painter.rect_filled(
                r,
                1.0,
                if c == qi_core::Cell::Blocked {
                    line
                } else {
                    bg
                },
            );
            if let qi_core::Cell::Piece(side) = c {
                let color = crate::board::piece_color32(pos.kind(), side);
                painter.circle_filled(r.center(), cell * 0.38, color);
            }
        }
    }
}

pub fn rules_ui(ui: &mut egui::Ui, kind: &mut GameKind) -> bool {
    let keys = NavKeys::read(ui);
    if keys.left || keys.right {
        let d = if keys.right { 1 } else { -1 };
        *kind = cycle(&GameKind::ALL, *kind, d);
    }
    ui.horizontal(|ui| {
        for k in GameKind::ALL {
            if ui
                .add(egui::Button::new(k.title()).selected(*kind == k))
                .clicked()
            {
                *kind = k;
            }
        }
    });
    let (title, text) = rules_text(*kind);
    ui.heading(egui::RichText::new(title).size(26.0));
    if let Ok(pos) = example_position(*kind) {
        let cell = (200.0 / pos.dimensions().0 as f32).min(26.0);
        draw_small_board(ui, &pos, cell);
    }
    ui.add_space(8.0);
    ui.add(egui::Label::new(egui::RichText::new(text).size(15.0)).wrap());
    ui.add_space(10.0);
    let back = ui
        .vertical_centered(|ui| ui.button(egui::RichText::new("Back").size(18.0)).clicked())
        .inner;
    back || keys.back || keys.choose
}

/// A position that shows the game's typical shape, for the rules page.
pub fn example_position(kind: GameKind) -> Result<AnyPosition, String> {
    let (start, moves): (AnyPosition, &[&str]) = match kind {
        GameKind::Ataxx => (
            AnyPosition::from_text(kind, "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1").map_err(|e| e.0)?,
            &["g1f2", "a1b2", "f2f3", "b2c2"],
        ),
        GameKind::Reversi => (
            AnyPosition::start(kind).map_err(|e| e.0)?,
            &["d3", "c3", "c4", "e3"],
        ),
        GameKind::Gomoku => (
            AnyPosition::from_text(kind, &Gomoku::new(9, GomokuRule::Freestyle).to_text())
                .map_err(|e| e.0)?,
            &["e5", "f6", "d4", "f4", "c3", "f5"],
        ),
        GameKind::Go => (
            AnyPosition::from_text(kind, &Go::new(9, 7.5).map_err(|e| e.0)?.to_text())
                .map_err(|e| e.0)?,
            &["E5", "E6", "D6", "F5", "D5", "E4", "F4", "D4"],
        ),
    };
    let mut pos = start;
    for m in moves {
        let mv = pos.parse_move(m).map_err(|e| e.0)?;
        pos.play(mv).map_err(|e| e.0)?;
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    #[test]
    fn main_menu_by_mouse_and_by_keyboard() {
        let mut h = Harness::new_ui_state(
            |ui, s: &mut (MainMenuModel, Option<MainAction>)| {
                if let Some(a) = main_menu_ui(ui, &mut s.0) {
                    s.1 = Some(a);
                }
            },
            (MainMenuModel::default(), None),
        );
        h.run();
        h.get_by_label("Rules").click();
        h.run();
        assert_eq!(h.state().1, Some(MainAction::Rules));
        h.state_mut().1 = None;
        h.state_mut().0.selected = 0;
        h.run(); // a frame without keys moves the selection off the disabled Continue
        assert_eq!(h.state().0.selected, 1);
        // keyboard only (no autosave, so Continue is skipped): down four times to Settings
        for _ in 0..4 {
            h.key_press(egui::Key::ArrowDown);
            h.run();
        }
        h.key_press(egui::Key::Enter);
        h.run();
        assert_eq!(h.state().1, Some(MainAction::Settings));
        h.state_mut().1 = None;
        // Settings → Rules → Records → Load → New game → (Continue is disabled) → Quit
        for _ in 0..5 {
            h.key_press(egui::Key::ArrowUp);
            h.run();
        }
        h.key_press(egui::Key::Space);
        h.run();
        assert_eq!(
            h.state().1,
            Some(MainAction::Quit),
            "Up from New game skips the disabled Continue and wraps to Quit"
        );
    }

    #[test]
    fn pause_and_game_over_buttons_do_what_they_say() {
        let mut h = Harness::new_ui_state(
            |ui, s: &mut (usize, Option<PauseAction>)| {
                if let Some(a) = pause_ui(ui, &mut s.0) {
                    s.1 = Some(a);
                }
            },
            (0, None),
        );
        h.run();
        h.get_by_label("Save the record (SGF/PGN)").click();
        h.run();
        assert_eq!(h.state().1, Some(PauseAction::ExportRecord));
        h.get_by_label("Main menu").click();
        h.run();
        assert_eq!(h.state().1, Some(PauseAction::MainMenu));
        let mut h = Harness::new_ui_state(
            |ui, s: &mut (GameOverModel, Option<GameOverAction>)| {
                if let Some(a) = game_over_ui(ui, &mut s.0) {
                    s.1 = Some(a);
                }
            },
            (
                GameOverModel {
                    headline: "Black wins".into(),
                    details: vec![],
                    selected: 0,
                },
                None,
            ),
        );
        h.run();
        for (label, action) in [
            ("Play again", GameOverAction::PlayAgain),
            ("Save the record", GameOverAction::SaveRecord),
            ("Look at the board", GameOverAction::Review),
            ("Main menu", GameOverAction::MainMenu),
        ] {
            h.get_by_label(label).click();
            h.run();
            assert_eq!(h.state().1, Some(action), "{label}");
        }
    }

    #[test]
    fn new_game_panel_builds_the_setup() {
        let mut h = Harness::new_ui_state(
            |ui, s: &mut (NewGameModel, Option<NewGameAction>)| {
                if let Some(a) = new_game_ui(ui, &mut s.0) {
                    s.1 = Some(a);
                }
            },
            (NewGameModel::default(), None),
        );
        h.run();
        h.get_by_label("Reversi").click();
        h.run();
        h.get_by_label("Two players").click();
        h.run();
        h.get_by_label("Start").click();
        h.run();
        match h.state().1.clone() {
            Some(NewGameAction::Start(setup)) => {
                assert_eq!(setup.kind, GameKind::Reversi);
                assert_eq!(setup.players, [Player::Human, Player::Human]);
            }
            other => panic!("{other:?}"),
        }
        // keyboard: row 0 is the game; Left goes back to Ataxx; rows down to level, Right raises it
        h.state_mut().1 = None;
        h.state_mut().0 = NewGameModel::default();
        for key in [egui::Key::ArrowRight, egui::Key::ArrowLeft] {
            h.key_press(key);
            h.run();
        }
        assert_eq!(h.state().0.kind, GameKind::Ataxx);
        for _ in 0..4 {
            h.key_press(egui::Key::ArrowDown);
            h.run();
        }
        h.key_press(egui::Key::ArrowRight);
        h.run();
        assert_eq!(h.state().0.level, 4);
        h.key_press(egui::Key::ArrowDown);
        h.run();
        h.key_press(egui::Key::Enter);
        h.run();
        match h.state().1.clone() {
            Some(NewGameAction::Start(setup)) => {
                assert_eq!(setup.kind, GameKind::Ataxx);
                assert_eq!(setup.players, [Player::Human, Player::Cpu { level: 4 }]);
                assert_eq!(setup.start_text.as_deref(), Some("x5o/7/7/7/7/7/o5x x 0 1"));
            }
            other => panic!("{other:?}"),
        }
        // Esc goes back
        h.state_mut().1 = None;
        h.key_press(egui::Key::Escape);
        h.run();
        assert_eq!(h.state().1, Some(NewGameAction::Back));
    }

    #[test]
    fn every_rules_page_has_a_legal_example_board() {
        for kind in GameKind::ALL {
            let pos = example_position(kind).unwrap_or_else(|e| panic!("{kind}: {e}"));
            assert!(pos.piece_counts()[0] > 0, "{kind}");
        }
    }

    #[test]
    fn confirm_defaults_to_no_on_escape() {
        let mut h = Harness::new_ui_state(
            |ui, s: &mut (usize, Option<bool>)| {
                if let Some(a) = confirm_ui(ui, "Quit?", &mut s.0) {
                    s.1 = Some(a);
                }
            },
            (1, None),
        );
        h.run();
        h.key_press(egui::Key::Escape);
        h.run();
        assert_eq!(h.state().1, Some(false));
        h.state_mut().1 = None;
        h.get_by_label("Yes").click();
        h.run();
        assert_eq!(h.state().1, Some(true));
    }
}
