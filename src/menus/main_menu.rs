//! The main menu: Continue (when an autosave loads), New game, Load, Play online, Openings, Records,
//! Rules, Settings,
//! Quit. A message about the autosave (a damaged one set aside) shows here once.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::nav::{NavKeys, button_list};
use super::{Menu, menu_area};
use crate::saves::{Autosave, FileOutcome, FileRequest};
use crate::theme::palette;

pub fn plugin(app: &mut App) {
    app.init_resource::<MainMenuModel>()
        .add_systems(
            EguiPrimaryContextPass,
            draw_main_menu.run_if(in_state(Menu::Main)),
        )
        .add_systems(OnExit(Menu::Main), forget_notice)
        .add_systems(
            Update,
            show_file_failures
                .in_set(crate::AppSet::Follow)
                .run_if(in_state(Menu::Main)),
        );
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MainAction {
    Continue,
    NewGame,
    Load,
    Online,
    Openings,
    Records,
    Rules,
    Settings,
    Quit,
}

#[derive(Resource, Clone, Debug, Default)]
pub struct MainMenuModel {
    pub selected: usize,
    /// Whether there is an autosave to continue.
    pub can_continue: bool,
    /// A message for the player (shown until the menu is left).
    pub notice: Option<String>,
}

pub fn main_menu_ui(ui: &mut egui::Ui, model: &mut MainMenuModel) -> Option<MainAction> {
    let keys = NavKeys::read(ui);
    ui.vertical_centered(|ui| {
        ui.add_space(12.0);
        ui.label(egui::RichText::new(t!("app-name")).size(48.0).strong());
        let games: Vec<String> = qi_core::GameKind::ALL
            .into_iter()
            .map(|k| crate::games::ui_of(k).title())
            .collect();
        ui.label(egui::RichText::new(games.join(" · ")).size(16.0));
        ui.add_space(20.0);
        if let Some(n) = &model.notice {
            ui.label(egui::RichText::new(n).color(palette::ui().error).size(15.0));
            ui.add_space(10.0);
        }
        let items = [
            (t!("menu-continue"), model.can_continue),
            (t!("menu-new-game"), true),
            (t!("menu-load"), true),
            (t!("menu-online"), true),
            (t!("menu-openings"), true),
            (t!("menu-records"), true),
            (t!("menu-rules"), true),
            (t!("menu-settings"), true),
            (t!("menu-quit"), true),
        ];
        let chosen = button_list(ui, &items, &mut model.selected, keys);
        ui.add_space(16.0);
        ui.label(egui::RichText::new(t!("menu-keys-hint")).color(palette::ui().text_weak));
        chosen.map(|i| {
            [
                MainAction::Continue,
                MainAction::NewGame,
                MainAction::Load,
                MainAction::Online,
                MainAction::Openings,
                MainAction::Records,
                MainAction::Rules,
                MainAction::Settings,
                MainAction::Quit,
            ][i]
        })
    })
    .inner
}

#[allow(clippy::too_many_arguments)]
fn draw_main_menu(
    mut contexts: EguiContexts,
    mut model: ResMut<MainMenuModel>,
    mut autosave: ResMut<Autosave>,
    mut next: ResMut<NextState<Menu>>,
    mut files: MessageWriter<FileRequest>,
    mut new_game: ResMut<super::new_game::NewGameModel>,
    mut records: ResMut<super::records::RecordsModel>,
    store: Option<Res<crate::saves::Store>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    model.can_continue = autosave.available;
    if let Some(n) = autosave.notice.take() {
        model.notice = Some(n);
    }
    let Some(action) = menu_area(ctx, |ui| main_menu_ui(ui, &mut model)).flatten() else {
        return Ok(());
    };
    match action {
        MainAction::Continue => {
            files.write(FileRequest::Continue);
        }
        MainAction::NewGame => {
            new_game.row = 0;
            next.set(Menu::NewGame)
        }
        MainAction::Load => next.set(Menu::Load),
        MainAction::Online => next.set(Menu::Online),
        MainAction::Openings => next.set(Menu::Openings),
        MainAction::Records => {
            let dir = store.as_ref().map(|s| s.0.dir().join("records"));
            records.refresh(dir.as_deref());
            records.message = None;
            next.set(Menu::Records)
        }
        MainAction::Rules => next.set(Menu::Rules),
        MainAction::Settings => next.set(Menu::Settings),
        MainAction::Quit => next.set(Menu::ConfirmQuit),
    }
    Ok(())
}

fn forget_notice(mut model: ResMut<MainMenuModel>) {
    model.notice = None;
}

fn show_file_failures(mut outcomes: MessageReader<FileOutcome>, mut model: ResMut<MainMenuModel>) {
    for o in outcomes.read() {
        if let FileOutcome::Failed(msg) = o {
            model.notice = Some(msg.clone());
        }
    }
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
        // keyboard only (no autosave, so Continue is skipped): down six times to Settings
        for _ in 0..6 {
            h.key_press(egui::Key::ArrowDown);
            h.run();
        }
        h.key_press(egui::Key::Enter);
        h.run();
        assert_eq!(h.state().1, Some(MainAction::Settings));
        h.state_mut().1 = None;
        // Settings → Rules → Records → Openings → Play online → Load → New game → (Continue
        // is disabled) → Quit
        for _ in 0..7 {
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
    fn a_notice_is_shown() {
        let mut h = Harness::new_ui_state(
            |ui, m: &mut MainMenuModel| {
                main_menu_ui(ui, m);
            },
            MainMenuModel {
                notice: Some("Your last game could not be continued".into()),
                ..Default::default()
            },
        );
        h.run();
        h.get_by_label_contains("could not be continued");
    }
}
