//! The app's screens, as a Bevy state: the title screen (with the main menu over it) and the
//! game being played. The menus are states of their own (see `menus`).

use bevy::prelude::*;

use crate::menus::{InGame, Menu};

pub fn plugin(app: &mut App) {
    app.init_state::<Screen>()
        .init_resource::<TitleMenu>()
        .add_systems(OnEnter(Screen::Title), open_title_menu)
        .add_systems(OnEnter(Screen::Playing), close_menus)
        .add_systems(Update, log_screen_changes);
}

#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Screen {
    #[default]
    Title,
    Playing,
}

/// The menu the title screen opens with next time (the main menu, or New game when the player
/// asked for a new game from a finished one).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct TitleMenu(pub Menu);

impl Default for TitleMenu {
    fn default() -> Self {
        TitleMenu(Menu::Main)
    }
}

fn open_title_menu(mut next: ResMut<NextState<Menu>>, mut first: ResMut<TitleMenu>) {
    next.set(first.0);
    first.0 = Menu::Main;
}

fn close_menus(mut next: ResMut<NextState<Menu>>) {
    next.set(Menu::None);
}

/// Frames drawn after a change of screen or menu before the log says it is drawn (egui lays a
/// new panel out over a frame or two); tests wait for that line instead of sleeping.
const DRAWN_AFTER_FRAMES: u32 = 5;

fn log_screen_changes(
    screen: Res<State<Screen>>,
    menu: Res<State<Menu>>,
    in_game: Option<Res<State<InGame>>>,
    mut windows: Query<&mut Window>,
    mut frames_since: Local<Option<u32>>,
) {
    let in_game_changed = in_game.as_ref().is_some_and(|s| s.is_changed());
    let shown_now = || match (screen.get(), &in_game) {
        (Screen::Playing, Some(g)) => format!("{:?}", g.get()),
        (Screen::Playing, None) => "None".to_string(),
        (Screen::Title, _) => format!("{:?}", menu.get()),
    };
    if !(screen.is_changed() || menu.is_changed() || in_game_changed) {
        if let Some(n) = frames_since.as_mut() {
            *n += 1;
            if *n == DRAWN_AFTER_FRAMES {
                info!("qi: drawn screen {:?} menu {}", screen.get(), shown_now());
                *frames_since = None;
            }
        }
        return;
    }
    *frames_since = Some(0);
    let shown = match (screen.get(), &in_game) {
        (Screen::Playing, Some(g)) => format!("{:?}", g.get()),
        (Screen::Playing, None) => "None".to_string(),
        (Screen::Title, _) => format!("{:?}", menu.get()),
    };
    // the title screen's menu settles a frame after the screen: log once it has
    if *screen.get() == Screen::Title && *menu.get() == Menu::None {
        return;
    }
    info!("qi: screen {:?} menu {shown}", screen.get());
    let title = match (screen.get(), in_game.as_ref().map(|g| *g.get())) {
        (Screen::Title, _) => t!("window-title"),
        (Screen::Playing, Some(InGame::Pause)) => t!("window-title-paused"),
        (Screen::Playing, _) => t!("window-title-playing"),
    };
    for mut w in &mut windows {
        if w.title != title {
            w.title = title.clone();
        }
    }
}
