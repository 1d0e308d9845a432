//! The app's screens, as a Bevy state: the title screen (with the main menu over it) and the
//! game being played. Menus are a separate state (see `menus`).

use bevy::prelude::*;

use crate::menus::Menu;

pub fn plugin(app: &mut App) {
    app.init_state::<Screen>()
        .add_systems(OnEnter(Screen::Title), open_main_menu)
        .add_systems(OnEnter(Screen::Playing), close_menus)
        .add_systems(Update, log_screen_changes);
}

#[derive(States, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Screen {
    #[default]
    Title,
    Playing,
}

fn open_main_menu(mut next: ResMut<NextState<Menu>>) {
    next.set(Menu::Main);
}

fn close_menus(mut next: ResMut<NextState<Menu>>) {
    next.set(Menu::None);
}

fn log_screen_changes(
    screen: Res<State<Screen>>,
    menu: Res<State<Menu>>,
    mut windows: Query<&mut Window>,
) {
    if screen.is_changed() || menu.is_changed() {
        info!("qi: screen {:?} menu {:?}", screen.get(), menu.get());
        for mut w in &mut windows {
            let title = match (screen.get(), menu.get()) {
                (Screen::Title, _) => "Qi".to_string(),
                (Screen::Playing, Menu::Pause) => "Qi - paused".to_string(),
                (Screen::Playing, _) => "Qi - playing".to_string(),
            };
            if w.title != title {
                w.title = title;
            }
        }
    }
}
