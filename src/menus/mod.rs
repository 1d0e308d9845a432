//! Menus over the screens, as a Bevy state: main menu, new game, rules, settings, pause,
//! confirmations and the game-over panel. Each is drawn with egui by a panel function from
//! `panels`.

pub mod nav;
pub mod panels;
pub mod records;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use qi_core::GameKind;

use crate::game::{BoardReset, Match, MatchSetup, describe_outcome};
use crate::screens::Screen;
use crate::settings::Settings;
use panels::*;

pub fn plugin(app: &mut App) {
    app.init_state::<Menu>()
        .init_resource::<MenuModels>()
        .add_message::<StartMatch>()
        .add_message::<LoadMatch>()
        .add_systems(EguiPrimaryContextPass, draw_menus)
        .add_systems(
            Update,
            (start_matches, open_pause_menu, open_game_over).chain(),
        );
}

#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Menu {
    #[default]
    None,
    Main,
    NewGame,
    Rules,
    Settings,
    Pause,
    ConfirmLeave,
    ConfirmQuit,
    GameOver,
    Load,
    Save,
    ConfirmOverwrite,
    Records,
}

/// The state of every panel, kept while the app runs.
#[derive(Resource, Default)]
pub struct MenuModels {
    pub main: MainMenuModel,
    pub new_game: NewGameModel,
    pub pause: usize,
    pub confirm: usize,
    pub rules_kind: Option<GameKind>,
    /// Where Rules, Settings and the confirmations go back to.
    pub back_to: Option<Menu>,
    pub game_over: usize,
    /// What happened to the last "save the record".
    pub record_message: Option<String>,
    /// The slot list's selection, and the slot waiting for "overwrite?".
    pub slot: usize,
    pub pending_slot: Option<usize>,
    /// The slots as last read from disk (re-read when a slot menu opens).
    pub slots: Vec<qi_core::saves::SlotInfo>,
    pub slots_read: bool,
    /// The ply at which the game-over panel was shown (so it opens once per ending).
    pub game_over_shown_at: Option<(u64, usize)>,
    pub records: records::RecordsModel,
}

/// Start a game with these options.
#[derive(Message, Clone, Debug)]
pub struct StartMatch(pub MatchSetup);

/// Go on with a loaded game.
#[derive(Message, Clone, Debug)]
pub struct LoadMatch(pub Box<Match>);

fn panel_frame() -> egui::Frame {
    egui::Frame::window(&egui::Style::default())
        .fill(egui::Color32::from_rgba_unmultiplied(24, 26, 32, 240))
        .inner_margin(egui::Margin::same(24))
}

#[allow(clippy::too_many_arguments)]
fn draw_menus(
    mut contexts: EguiContexts,
    menu: Res<State<Menu>>,
    mut next_menu: ResMut<NextState<Menu>>,
    mut next_screen: ResMut<NextState<Screen>>,
    mut models: ResMut<MenuModels>,
    mut settings: ResMut<Settings>,
    mut start: MessageWriter<StartMatch>,
    mut exit: MessageWriter<AppExit>,
    mut load: MessageWriter<LoadMatch>,
    store: Option<Res<crate::saves::Store>>,
    mut game: Option<ResMut<Match>>,
    history: Option<Res<crate::results::PlayerHistory>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let current = *menu.get();
    if current == Menu::None {
        return Ok(());
    }
    let models = &mut *models;
    let back = models.back_to.unwrap_or(Menu::Main);
    if !matches!(current, Menu::Load | Menu::Save | Menu::ConfirmOverwrite) {
        models.slots_read = false;
    } else if !models.slots_read {
        models.slots = store.as_ref().map(|s| s.0.list()).unwrap_or_default();
        models.slots_read = true;
    }
    models.main.can_continue = store.as_ref().is_some_and(|s| s.0.has_autosave());
    let dirty = game.as_ref().is_some_and(|g| g.dirty && !g.is_over());
    egui::Area::new(egui::Id::new("menu_area"))
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            panel_frame().show(ui, |ui| {
                ui.set_max_width(720.0);
                match current {
                    Menu::None => {}
                    Menu::Main => match main_menu_ui(ui, &mut models.main) {
                        Some(MainAction::Continue) => {
                            if let Some(store) = &store {
                                match store.0.load_autosave() {
                                    Ok(loaded) => {
                                        load.write(LoadMatch(Box::new(crate::saves::match_of(
                                            loaded,
                                        ))));
                                    }
                                    Err(e) => warn!("qi: cannot continue: {e}"),
                                }
                            }
                        }
                        Some(MainAction::Load) => {
                            models.back_to = Some(Menu::Main);
                            models.slot = 0;
                            next_menu.set(Menu::Load)
                        }
                        Some(MainAction::NewGame) => {
                            models.new_game.row = 0;
                            next_menu.set(Menu::NewGame)
                        }
                        Some(MainAction::Records) => {
                            let dir = store.as_ref().map(|s| s.0.dir().join("records"));
                            models.records.refresh(dir.as_deref());
                            models.records.message = None;
                            next_menu.set(Menu::Records)
                        }
                        Some(MainAction::Rules) => {
                            models.back_to = Some(Menu::Main);
                            next_menu.set(Menu::Rules)
                        }
                        Some(MainAction::Settings) => {
                            models.back_to = Some(Menu::Main);
                            next_menu.set(Menu::Settings)
                        }
                        Some(MainAction::Quit) => {
                            models.back_to = Some(Menu::Main);
                            models.confirm = 1;
                            next_menu.set(Menu::ConfirmQuit)
                        }
                        None => {}
                    },
                    Menu::NewGame => {
                        models.new_game.coin = rand_bit();
                        match new_game_ui(ui, &mut models.new_game) {
                            Some(NewGameAction::Start(setup)) => {
                                start.write(StartMatch(setup));
                            }
                            Some(NewGameAction::Back) => next_menu.set(Menu::Main),
                            None => {}
                        }
                    }
                    Menu::Records => {
                        let empty = qi_core::history::History::default();
                        let (h, problem) = history
                            .as_ref()
                            .map_or((&empty, None), |h| (&h.history, h.problem.as_deref()));
                        match records::records_ui(ui, &mut models.records, h, problem) {
                            Some(records::RecordsAction::Back) => next_menu.set(Menu::Main),
                            Some(records::RecordsAction::Open(src)) => {
                                let label = src.label();
                                match src
                                    .read()
                                    .and_then(|r| crate::replay::replay_match(&r, &label))
                                {
                                    Ok(m) => {
                                        info!("qi: replay {label}");
                                        models.records.message = None;
                                        load.write(LoadMatch(Box::new(m)));
                                    }
                                    Err(e) => {
                                        warn!("qi: cannot open {label}: {e}");
                                        models.records.message =
                                            Some(format!("Cannot open {label}: {e}"));
                                    }
                                }
                            }
                            None => {}
                        }
                    }
                    Menu::Rules => {
                        let kind = models
                            .rules_kind
                            .get_or_insert(game.as_ref().map_or(GameKind::Ataxx, |g| g.kind()));
                        if rules_ui(ui, kind) {
                            next_menu.set(back);
                        }
                    }
                    Menu::Settings => {
                        if settings_ui(ui, &mut settings) {
                            next_menu.set(back);
                        }
                    }
                    Menu::Pause => match pause_ui(ui, &mut models.pause) {
                        Some(PauseAction::Resume) => next_menu.set(Menu::None),
                        Some(PauseAction::Save) => {
                            models.back_to = Some(Menu::Pause);
                            models.slot = 0;
                            next_menu.set(Menu::Save)
                        }
                        Some(PauseAction::ExportRecord) => {
                            if let (Some(store), Some(g)) = (&store, game.as_deref_mut()) {
                                g.status = match crate::saves::export_record(&store.0, g) {
                                    Ok(path) => format!("Record saved: {}", path.display()),
                                    Err(e) => format!("Cannot save the record: {e}"),
                                };
                            }
                            next_menu.set(Menu::None)
                        }
                        Some(PauseAction::Load) => {
                            models.back_to = Some(Menu::Pause);
                            models.slot = 0;
                            next_menu.set(Menu::Load)
                        }
                        Some(PauseAction::Rules) => {
                            models.back_to = Some(Menu::Pause);
                            next_menu.set(Menu::Rules)
                        }
                        Some(PauseAction::Settings) => {
                            models.back_to = Some(Menu::Pause);
                            next_menu.set(Menu::Settings)
                        }
                        Some(PauseAction::MainMenu) => {
                            if dirty {
                                models.back_to = Some(Menu::Pause);
                                models.confirm = 1;
                                next_menu.set(Menu::ConfirmLeave)
                            } else {
                                next_screen.set(Screen::Title)
                            }
                        }
                        Some(PauseAction::Quit) => {
                            models.back_to = Some(Menu::Pause);
                            models.confirm = 1;
                            next_menu.set(Menu::ConfirmQuit)
                        }
                        None => {}
                    },
                    Menu::ConfirmLeave => {
                        if let Some(yes) =
                            confirm_ui(ui, "Leave this game? It is not saved.", &mut models.confirm)
                        {
                            if yes {
                                next_screen.set(Screen::Title);
                            } else {
                                next_menu.set(back);
                            }
                        }
                    }
                    Menu::ConfirmQuit => {
                        let q = if dirty {
                            "Quit Qi? The game in progress is not saved."
                        } else {
                            "Quit Qi?"
                        };
                        if let Some(yes) = confirm_ui(ui, q, &mut models.confirm) {
                            if yes {
                                info!("qi: quit");
                                exit.write(AppExit::Success);
                            } else {
                                next_menu.set(back);
                            }
                        }
                    }
                    Menu::Load | Menu::Save => {
                        let saving = current == Menu::Save;
                        let slots = models.slots.clone();
                        match slots_ui(ui, &slots, saving, &mut models.slot) {
                            Some(SlotAction::Back) => next_menu.set(back),
                            Some(SlotAction::Delete(slot)) => {
                                if let Some(store) = &store {
                                    let _ = store.0.delete(slot);
                                    info!("qi: deleted slot {slot}");
                                }
                                models.slots_read = false;
                            }
                            Some(SlotAction::Choose(slot)) => match (&store, saving) {
                                (Some(store), false) => match store.0.load(slot) {
                                    Ok(loaded) => {
                                        info!("qi: loaded slot {slot}");
                                        load.write(LoadMatch(Box::new(crate::saves::match_of(
                                            loaded,
                                        ))));
                                    }
                                    Err(e) => warn!("qi: cannot load slot {slot}: {e}"),
                                },
                                (Some(store), true) => {
                                    if let Some(g) = game.as_deref_mut() {
                                        match crate::saves::save_to_slot(&store.0, g, slot, false) {
                                            Ok(()) => next_menu.set(Menu::None),
                                            Err(e) if e.needs_confirmation() => {
                                                models.pending_slot = Some(slot);
                                                models.confirm = 1;
                                                next_menu.set(Menu::ConfirmOverwrite)
                                            }
                                            Err(e) => warn!("qi: cannot save in slot {slot}: {e}"),
                                        }
                                    }
                                }
                                (None, _) => {}
                            },
                            None => {}
                        }
                    }
                    Menu::ConfirmOverwrite => {
                        let slot = models.pending_slot.unwrap_or(1);
                        if let Some(yes) = confirm_ui(
                            ui,
                            &format!("Slot {slot} holds a save. Overwrite it?"),
                            &mut models.confirm,
                        ) {
                            if yes {
                                if let (Some(store), Some(g)) = (&store, game.as_deref_mut()) {
                                    match crate::saves::save_to_slot(&store.0, g, slot, true) {
                                        Ok(()) => next_menu.set(Menu::None),
                                        Err(e) => {
                                            warn!("qi: cannot save in slot {slot}: {e}");
                                            next_menu.set(Menu::Save)
                                        }
                                    }
                                }
                            } else {
                                next_menu.set(Menu::Save);
                            }
                        }
                    }
                    Menu::GameOver => {
                        let Some(g) = game.as_ref() else { return };
                        let outcome = g.position().outcome();
                        let mut model = GameOverModel {
                            headline: outcome
                                .map_or("Game over".into(), |o| describe_outcome(g, o)),
                            details: vec![
                                format!("{} vs {}", g.setup.names[0], g.setup.names[1]),
                                format!("{} moves in {}", g.history.ply(), format_time(g.elapsed)),
                            ]
                            .into_iter()
                            .chain(models.record_message.clone())
                            .collect(),
                            selected: models.game_over,
                        };
                        let action = game_over_ui(ui, &mut model);
                        models.game_over = model.selected;
                        match action {
                            Some(GameOverAction::PlayAgain) => {
                                start.write(StartMatch(g.setup.clone()));
                            }
                            Some(GameOverAction::SaveRecord) => {
                                if let Some(store) = &store {
                                    let msg = match crate::saves::export_record(&store.0, g) {
                                        Ok(path) => format!("Record saved: {}", path.display()),
                                        Err(e) => format!("Cannot save the record: {e}"),
                                    };
                                    models.record_message = Some(msg);
                                }
                            }
                            Some(GameOverAction::Review) => next_menu.set(Menu::None),
                            Some(GameOverAction::MainMenu) => next_screen.set(Screen::Title),
                            None => {}
                        }
                    }
                }
            });
        });
    Ok(())
}

pub fn format_time(secs: f32) -> String {
    let s = secs.max(0.0) as u64;
    format!("{}:{:02}", s / 60, s % 60)
}

fn rand_bit() -> bool {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(false, |d| d.subsec_nanos() & 1 == 1)
}

/// Replaces the game with a new one and goes to the playing screen.
fn start_matches(
    mut requests: MessageReader<StartMatch>,
    mut loads: MessageReader<LoadMatch>,
    mut commands: Commands,
    mut next_screen: ResMut<NextState<Screen>>,
    mut next_menu: ResMut<NextState<Menu>>,
    mut reset: MessageWriter<BoardReset>,
    mut models: ResMut<MenuModels>,
) {
    if let Some(LoadMatch(m)) = loads.read().last() {
        info!(
            "qi: new game {} (loaded at ply {})",
            m.kind(),
            m.history.ply()
        );
        commands.insert_resource((**m).clone());
        models.game_over_shown_at = Some((m.position().hash(), m.history.ply()));
        next_screen.set(Screen::Playing);
        next_menu.set(Menu::None);
        reset.write(BoardReset);
        return;
    }
    if let Some(StartMatch(setup)) = requests.read().last() {
        match Match::new(setup.clone()) {
            Ok(m) => {
                info!(
                    "qi: new game {} {:?} {:?}",
                    setup.kind, setup.players, setup.start_text
                );
                commands.insert_resource(m);
                models.game_over_shown_at = None;
                models.record_message = None;
                next_screen.set(Screen::Playing);
                next_menu.set(Menu::None);
                reset.write(BoardReset);
            }
            Err(e) => warn!("qi: cannot start the game: {e}"),
        }
    }
}

fn open_pause_menu(
    keys: Res<ButtonInput<KeyCode>>,
    screen: Res<State<Screen>>,
    menu: Res<State<Menu>>,
    mut next_menu: ResMut<NextState<Menu>>,
    egui_input: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut models: ResMut<MenuModels>,
    game: Option<ResMut<Match>>,
) {
    if *screen.get() != Screen::Playing || *menu.get() != Menu::None {
        return;
    }
    let typing = egui_input.is_some_and(|e| e.wants_keyboard_input());
    if typing && !keys.just_pressed(KeyCode::Escape) {
        return;
    }
    if let Some(mut g) = game {
        if g.selected.is_some() && keys.just_pressed(KeyCode::Escape) {
            g.selected = None; // Esc first drops the piece picked up
            return;
        }
    }
    if keys.just_pressed(KeyCode::Escape) || keys.just_pressed(KeyCode::KeyP) {
        models.pause = 0;
        next_menu.set(Menu::Pause);
    }
}

/// Shows the game-over panel once when a game ends.
fn open_game_over(
    game: Option<Res<Match>>,
    screen: Res<State<Screen>>,
    menu: Res<State<Menu>>,
    mut next_menu: ResMut<NextState<Menu>>,
    mut models: ResMut<MenuModels>,
    animating: Query<(), With<crate::board::Anim>>,
) {
    let Some(game) = game else { return };
    if *screen.get() != Screen::Playing
        || *menu.get() != Menu::None
        || !game.is_over()
        || game.marking_dead()
        || game.replay.is_some()
        || !animating.is_empty()
    {
        return;
    }
    let key = (game.position().hash(), game.history.ply());
    if models.game_over_shown_at != Some(key) {
        models.game_over_shown_at = Some(key);
        models.game_over = 0;
        next_menu.set(Menu::GameOver);
    }
}
