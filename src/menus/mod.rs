//! Menus over the screens. The title screen's menus are the [`Menu`] state; the menus over a
//! game (pause, game over, saving, the confirmations, and the rules, settings and load pages
//! reached from the pause menu) are [`InGame`], a sub-state of the playing screen, so leaving the
//! game closes them. Each menu lives in its own file with its own plugin; a panel is a function
//! of an `egui::Ui` and a model that returns what the player chose, so egui_kittest tests drive
//! it without Bevy. File work (saving, loading, deleting, exporting) is sent to `crate::saves` as
//! messages.

pub mod confirm;
pub mod game_over;
pub mod main_menu;
pub mod nav;
pub mod new_game;
pub mod online;
pub mod openings;
pub mod pause;
pub mod records;
pub mod rules;
pub mod settings;
pub mod slots;
pub mod widgets;

use bevy::prelude::*;

use crate::game::{BoardReset, Match, MatchSetup};
use crate::screens::Screen;

pub use widgets::{format_time, menu_area};

pub fn plugin(app: &mut App) {
    app.init_state::<Menu>()
        .add_sub_state::<InGame>()
        .add_message::<StartMatch>()
        .add_message::<LoadMatch>()
        .add_systems(Update, start_matches)
        .add_plugins((
            main_menu::plugin,
            new_game::plugin,
            online::plugin,
            openings::plugin,
            records::plugin,
            rules::plugin,
            settings::plugin,
            pause::plugin,
            confirm::plugin,
            slots::plugin,
            game_over::plugin,
        ));
}

/// The title screen's menus (and `None` while a game is played).
#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Menu {
    #[default]
    None,
    Main,
    NewGame,
    /// Play online: host or join.
    Online,
    /// The openings browser.
    Openings,
    Records,
    Rules,
    Settings,
    Load,
    ConfirmQuit,
}

/// The menus over a game; `None`: the board is played.
#[derive(SubStates, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[source(Screen = Screen::Playing)]
pub enum InGame {
    #[default]
    None,
    Pause,
    GameOver,
    Save,
    ConfirmOverwrite,
    Load,
    ConfirmLoad,
    ConfirmLeave,
    ConfirmQuit,
    Rules,
    Settings,
}

/// A page that opens from the title screen and from the pause menu: it goes back where it came
/// from.
pub fn back_from_page(
    screen: &State<Screen>,
    next_menu: &mut NextState<Menu>,
    next_in_game: &mut NextState<InGame>,
) {
    match screen.get() {
        Screen::Title => next_menu.set(Menu::Main),
        Screen::Playing => next_in_game.set(InGame::Pause),
    }
}

/// Start a game with these options.
#[derive(Message, Clone, Debug)]
pub struct StartMatch(pub MatchSetup);

/// Go on with a loaded game (a slot, the autosave, a record to replay).
#[derive(Message, Clone, Debug)]
pub struct LoadMatch(pub Box<Match>);

/// Replaces the game with a new one and goes to the playing screen.
#[allow(clippy::too_many_arguments)]
fn start_matches(
    mut requests: MessageReader<StartMatch>,
    mut loads: MessageReader<LoadMatch>,
    mut commands: Commands,
    screen: Res<State<Screen>>,
    mut next_screen: ResMut<NextState<Screen>>,
    mut next_in_game: ResMut<NextState<InGame>>,
    mut reset: MessageWriter<BoardReset>,
    mut status: MessageWriter<crate::game::Status>,
    mut shown: ResMut<game_over::GameOverShown>,
    settings: Option<ResMut<crate::settings::Settings>>,
    main_menu: Option<ResMut<main_menu::MainMenuModel>>,
    new_game: Option<ResMut<new_game::NewGameModel>>,
) {
    let started = loads.is_empty();
    let new = if let Some(LoadMatch(m)) = loads.read().last() {
        info!(
            "qi: new game {} (loaded at ply {})",
            m.kind(),
            m.history.ply()
        );
        // a loaded game that is already over does not open the game-over panel again
        shown.0 = Some((m.position().hash(), m.history.ply()));
        // an online game says itself how it started (crate::online)
        if !m.is_online() {
            status.write(crate::game::Status(if m.replay.is_some() {
                t!(
                    "status-replaying",
                    source = m.replay.as_ref().map_or("", |r| r.source.as_str()),
                    n = m.history.all_moves().len()
                )
            } else {
                t!("status-loaded", n = m.history.ply())
            }));
        }
        Some((**m).clone())
    } else if let Some(StartMatch(setup)) = requests.read().last() {
        match Match::new(setup.clone()) {
            Ok(m) => {
                info!(
                    "qi: new game {} {:?} {:?}",
                    setup.kind, setup.players, setup.start_text
                );
                shown.0 = None;
                status.write(crate::game::Status(t!(
                    "status-new-game",
                    side = m.side_name(m.position().side_to_move())
                )));
                Some(m)
            }
            Err(e) => {
                warn!("qi: cannot start the game: {e}");
                // the player is told on the main menu (a bad `--fen` was only logged)
                if let Some(mut menu) = main_menu {
                    menu.notice = Some(t!("cannot-start", why = e.as_str()));
                }
                None
            }
        }
    } else {
        None
    };
    let Some(m) = new else { return };
    // New game offers a game like this one (its size, rule, layout or komi) however it was
    // started: a renju game loaded from a slot or given by `--fen` had New game offer the
    // options chosen there last (freestyle)
    let options = m
        .setup
        .start_position()
        .ok()
        .and_then(|start| crate::games::ui_of(m.kind()).options_of(&start))
        .filter(|o| crate::games::options_are_valid(m.kind(), o));
    if let (Some(o), Some(mut model)) = (options, new_game) {
        model.options.insert(m.kind(), o);
    }
    if let Some(mut settings) = settings {
        // New game opens on the game played last, after a restart too
        if settings.last_game() != Some(m.kind()) {
            settings.last_game = Some(m.kind().name().to_string());
        }
        if options.is_some() && settings.game(m.kind()).options != options {
            settings.game_mut(m.kind()).options = options;
        }
        // and at the CPU level of the game last started, however it was started (New game,
        // Play again, or `qi --level 2` on the command line, which New game had ignored)
        if started
            && let Some(level) = m.setup.players.iter().find_map(|p| match p {
                crate::game::Player::Cpu { level } => Some(*level),
                _ => None,
            })
            && settings.level(m.kind()) != level
        {
            settings.game_mut(m.kind()).level = level;
        }
    }
    commands.insert_resource(m);
    if *screen.get() == Screen::Playing {
        // a game replaced from the pause menu: back to the board
        next_in_game.set(InGame::None);
    }
    // not `set`: setting the screen it already is would leave and re-enter it, and leaving
    // despawns the board that the reset just rebuilt (the board vanished on Pause → Load)
    NextState::set_if_neq(&mut *next_screen, Screen::Playing);
    reset.write(BoardReset);
}
