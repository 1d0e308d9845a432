//! New game: the game and its options (each game draws its own options row, `crate::games`),
//! the mode, your colour, the CPU level (one per side for CPU against CPU), the clock (none,
//! absolute, Fischer, byo-yomi, with their values) and the names.
//! Up/Down pick a row, Left/Right change it, Enter starts from any row (on the names row it
//! leaves the name field first), Esc goes back.

use std::collections::BTreeMap;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use qi_core::any::{AnyCpu, AnyPosition};
use qi_core::{GameKind, Side};

use super::nav::NavKeys;
use super::{Menu, StartMatch, menu_area};
use crate::game::{MatchSetup, Player};
use crate::games::{GameOptions, cycle, ui_of};

/// The name a CPU player goes by in the HUD and the records: "CPU 3".
pub fn cpu_name(level: u8) -> String {
    t!("cpu-name", level = level)
}

pub fn plugin(app: &mut App) {
    app.init_resource::<NewGameModel>()
        .add_systems(OnEnter(Menu::NewGame), open_on_the_last_game)
        .add_systems(
            EguiPrimaryContextPass,
            draw_new_game.run_if(in_state(Menu::NewGame)),
        );
}

/// New game opens on the game played last (it always opened on Ataxx), with that game's CPU
/// level from the settings; the first time, each game's options, the mode and the colour
/// choice are the ones it was last started with (after that, those chosen while the app runs).
fn open_on_the_last_game(
    mut model: ResMut<NewGameModel>,
    settings: Option<Res<crate::settings::Settings>>,
    mut options_read: Local<bool>,
) {
    let Some(settings) = settings else { return };
    if let Some(kind) = settings.last_game().filter(|k| playable(*k)) {
        model.kind = kind;
    }
    model.level = settings.level(model.kind);
    if !std::mem::replace(&mut *options_read, true) {
        for kind in GameKind::ALL {
            if let Some(o) = settings.game(kind).options {
                model.options.insert(kind, o);
            }
        }
        // who plays: as last started, after a restart too
        if let Some(mode) = settings.new_game_mode {
            model.mode = mode;
        }
        if let Some(color) = settings.new_game_color {
            model.color = color;
        }
    }
}

/// What New game keeps for next time when a game starts from it: the options, for that game,
/// and who plays (the mode and the colour choice, for every game; the CPU's level is kept for
/// every game started, by `super::start_matches`).
pub fn remember_choices(
    settings: &mut crate::settings::Settings,
    model: &NewGameModel,
    setup: &MatchSetup,
) {
    let options = model.options.get(&setup.kind).copied();
    if options.is_some() && options != settings.game(setup.kind).options {
        settings.game_mut(setup.kind).options = options;
    }
    if settings.new_game_mode != Some(model.mode) {
        settings.new_game_mode = Some(model.mode);
    }
    if settings.new_game_color != Some(model.color) {
        settings.new_game_color = Some(model.color);
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Mode {
    VsCpu,
    TwoPlayers,
    CpuVsCpu,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ColorChoice {
    First,
    Second,
    Random,
}

/// The rows, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    Game,
    Options,
    Mode,
    Color,
    Level,
    SecondLevel,
    Clock,
    Names,
    Start,
    Back,
}

pub const ROWS: [Row; 10] = [
    Row::Game,
    Row::Options,
    Row::Mode,
    Row::Color,
    Row::Level,
    Row::SecondLevel,
    Row::Clock,
    Row::Names,
    Row::Start,
    Row::Back,
];

#[derive(Resource, Clone, Debug)]
pub struct NewGameModel {
    pub kind: GameKind,
    /// Each game's options, kept while the app runs.
    pub options: BTreeMap<GameKind, GameOptions>,
    pub mode: Mode,
    pub color: ColorChoice,
    /// The CPU's level; in CPU against CPU, the first side's.
    pub level: u8,
    /// CPU against CPU: the second side's level.
    pub second_level: u8,
    pub names: [String; 2],
    pub row: usize,
    /// A number from the app for the random colour choice.
    pub coin: bool,
    /// The game clock.
    pub clock: crate::clock::ClockChoice,
}

impl Default for NewGameModel {
    fn default() -> Self {
        NewGameModel {
            kind: GameKind::ALL[0],
            options: GameKind::ALL
                .into_iter()
                .map(|k| (k, ui_of(k).default_options()))
                .collect(),
            mode: Mode::VsCpu,
            color: ColorChoice::First,
            level: 3,
            second_level: 3,
            names: [t!("player-default-name"), t!("player-default-name-2")],
            row: 0,
            coin: false,
            clock: Default::default(),
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
    pub fn options_mut(&mut self) -> &mut GameOptions {
        let kind = self.kind;
        self.options
            .entry(kind)
            .or_insert_with(|| ui_of(kind).default_options())
    }

    pub fn row(&self) -> Row {
        ROWS[self.row % ROWS.len()]
    }

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
                [
                    cpu,
                    Player::Cpu {
                        level: self.second_level,
                    },
                ],
                [cpu_name(self.level), cpu_name(self.second_level)],
            ),
            Mode::VsCpu if human_first => (
                [Player::Human, cpu],
                [self.names[0].clone(), cpu_name(self.level)],
            ),
            Mode::VsCpu => (
                [cpu, Player::Human],
                [cpu_name(self.level), self.names[0].clone()],
            ),
        };
        let default = ui_of(self.kind).default_options();
        let options = self.options.get(&self.kind).unwrap_or(&default);
        MatchSetup {
            kind: self.kind,
            start_text: ui_of(self.kind).start_text(options),
            players,
            names,
            clock: self.clock.control(),
        }
    }
}

pub fn new_game_ui(ui: &mut egui::Ui, m: &mut NewGameModel) -> Option<NewGameAction> {
    let keys = NavKeys::read(ui);
    if keys.back {
        return Some(NewGameAction::Back);
    }
    let name_id = egui::Id::new("new_game_name_0");
    let typing = ui.memory(|mem| mem.has_focus(name_id))
        || ui.memory(|mem| mem.has_focus(egui::Id::new("new_game_name_1")));
    let before = m.row;
    if keys.down {
        m.row = (m.row + 1) % ROWS.len();
    }
    if keys.up {
        m.row = (m.row + ROWS.len() - 1) % ROWS.len();
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
        match m.row() {
            Row::Game => m.kind = cycle(&games, m.kind, delta),
            Row::Options => {
                let kind = m.kind;
                ui_of(kind).cycle_option(m.options_mut(), delta)
            }
            Row::Mode => {
                m.mode = cycle(
                    &[Mode::VsCpu, Mode::TwoPlayers, Mode::CpuVsCpu],
                    m.mode,
                    delta,
                )
            }
            Row::Color => {
                m.color = cycle(
                    &[ColorChoice::First, ColorChoice::Second, ColorChoice::Random],
                    m.color,
                    delta,
                )
            }
            Row::Level => m.level = (m.level as isize + delta).clamp(1, 6) as u8,
            Row::SecondLevel => {
                m.second_level = (m.second_level as isize + delta).clamp(1, 6) as u8
            }
            Row::Clock => m.clock.cycle(delta),
            _ => {}
        }
    }
    let mut action = None;
    let row_label = |ui: &mut egui::Ui, row: Row, sel: Row, text: &str| {
        let t = egui::RichText::new(text).size(17.0);
        ui.label(if row == sel {
            t.strong().underline()
        } else {
            t
        });
    };
    let sel = m.row();
    ui.vertical_centered(|ui| {
        ui.heading(egui::RichText::new(t!("new-game-title")).size(28.0));
        ui.add_space(10.0);
    });
    let mut enter_in_name = false;
    egui::Grid::new("new_game_grid")
        .num_columns(2)
        .spacing([24.0, 12.0])
        .show(ui, |ui| {
            row_label(ui, Row::Game, sel, &t!("new-game-game"));
            ui.horizontal(|ui| {
                for k in GameKind::ALL {
                    let on = playable(k);
                    if ui
                        .add_enabled(
                            on,
                            egui::Button::new(ui_of(k).title()).selected(m.kind == k),
                        )
                        .clicked()
                    {
                        m.kind = k;
                        m.row = 0;
                    }
                }
            });
            ui.end_row();

            row_label(ui, Row::Options, sel, &t!("new-game-board"));
            let kind = m.kind;
            let clicked = ui
                .horizontal(|ui| ui_of(kind).options_ui(ui, m.options_mut()))
                .inner;
            if clicked {
                m.row = 1;
            }
            ui.end_row();

            row_label(ui, Row::Mode, sel, &t!("new-game-mode"));
            let has_cpu = AnyCpu::available(m.kind);
            if !has_cpu {
                m.mode = Mode::TwoPlayers;
            }
            ui.horizontal(|ui| {
                for (mode, label) in [
                    (Mode::VsCpu, t!("mode-vs-cpu")),
                    (Mode::TwoPlayers, t!("mode-two-players")),
                    (Mode::CpuVsCpu, t!("mode-cpu-vs-cpu")),
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

            row_label(ui, Row::Color, sel, &t!("new-game-you-play"));
            ui.horizontal(|ui| {
                let on = m.mode == Mode::VsCpu;
                let game = ui_of(m.kind);
                let first = t!("color-first", side = game.side_name(Side::Black));
                let second = t!("color-second", side = game.side_name(Side::White));
                let random = t!("color-random");
                for (c, label) in [
                    (ColorChoice::First, first.as_str()),
                    (ColorChoice::Second, second.as_str()),
                    (ColorChoice::Random, random.as_str()),
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

            let level_label = if m.mode == Mode::CpuVsCpu {
                t!(
                    "new-game-side-level",
                    side = ui_of(m.kind).side_name(Side::Black)
                )
            } else {
                t!("new-game-level")
            };
            row_label(ui, Row::Level, sel, &level_label);
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

            row_label(
                ui,
                Row::SecondLevel,
                sel,
                &t!(
                    "new-game-side-level",
                    side = ui_of(m.kind).side_name(Side::White)
                ),
            );
            ui.horizontal(|ui| {
                let on = m.mode == Mode::CpuVsCpu;
                for l in 1..=6u8 {
                    if ui
                        .add_enabled(
                            on,
                            egui::Button::new(l.to_string()).selected(m.second_level == l),
                        )
                        .clicked()
                    {
                        m.second_level = l;
                        m.row = 5;
                    }
                }
            });
            ui.end_row();

            row_label(ui, Row::Clock, sel, &t!("new-game-clock"));
            if crate::clock::clock_choice_ui(ui, &mut m.clock) {
                m.row = 6;
            }
            ui.end_row();

            row_label(ui, Row::Names, sel, &t!("new-game-names"));
            ui.horizontal(|ui| {
                let first = ui.add(
                    egui::TextEdit::singleline(&mut m.names[0])
                        .desired_width(140.0)
                        .char_limit(20)
                        .id(name_id),
                );
                // reaching the row by keys puts the cursor in the first name
                if sel == Row::Names && before != m.row {
                    first.request_focus();
                }
                enter_in_name |=
                    first.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if m.mode == Mode::TwoPlayers {
                    let second = ui.add(
                        egui::TextEdit::singleline(&mut m.names[1])
                            .desired_width(140.0)
                            .char_limit(20)
                            .id(egui::Id::new("new_game_name_1")),
                    );
                    enter_in_name |=
                        second.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                }
            });
            ui.end_row();
        });
    ui.add_space(16.0);
    ui.vertical_centered(|ui| {
        let start = ui.add(
            egui::Button::new(egui::RichText::new(t!("new-game-start")).size(20.0))
                .selected(sel == Row::Start)
                .min_size(egui::vec2(200.0, 34.0)),
        );
        let back = ui.add(
            egui::Button::new(egui::RichText::new(t!("back")).size(18.0))
                .selected(sel == Row::Back)
                .min_size(egui::vec2(200.0, 30.0)),
        );
        // Enter starts from every row but Back (Space too, but not while typing a name)
        let enter = keys.choose && !typing;
        if start.clicked() || (enter && sel != Row::Back) || enter_in_name {
            action = Some(NewGameAction::Start(m.setup()));
        }
        if back.clicked() || (enter && sel == Row::Back) {
            action = Some(NewGameAction::Back);
        }
        ui.add_space(8.0);
        ui.label(
            egui::RichText::new(t!("new-game-keys-hint"))
                .color(crate::theme::palette::ui().text_weak),
        );
    });
    action
}

fn draw_new_game(
    mut contexts: EguiContexts,
    mut model: ResMut<NewGameModel>,
    mut next: ResMut<NextState<Menu>>,
    mut start: MessageWriter<StartMatch>,
    settings: Option<ResMut<crate::settings::Settings>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    model.coin = rand_bit();
    let kind = model.kind;
    let action = menu_area(ctx, |ui| new_game_ui(ui, &mut model)).flatten();
    if let Some(mut settings) = settings {
        if model.kind != kind {
            // another game: its own CPU level
            model.level = settings.level(model.kind);
        }
        if let Some(NewGameAction::Start(setup)) = &action {
            // the options chosen here are the ones New game offers next time (the level too:
            // `super::start_matches` keeps it)
            remember_choices(&mut settings, &model, setup);
        }
    }
    match action {
        Some(NewGameAction::Start(setup)) => {
            start.write(StartMatch(setup));
        }
        Some(NewGameAction::Back) => next.set(Menu::Main),
        None => {}
    }
    Ok(())
}

fn rand_bit() -> bool {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .is_ok_and(|d| d.subsec_nanos() & 1 == 1)
}

#[cfg(test)]
mod tests;
