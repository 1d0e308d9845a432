//! The pause menu over a game: resume, save, save the record, load, rules, settings, analyse
//! the game so far (not online), main menu, quit. Esc or P opens it (Esc first drops an Ataxx selection).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::nav::{NavKeys, button_list};
use super::{InGame, menu_area};
use crate::game::{Selection, Status};
use crate::saves::FileRequest;
use crate::screens::Screen;

pub fn plugin(app: &mut App) {
    app.init_resource::<PauseModel>()
        .add_systems(
            EguiPrimaryContextPass,
            draw_pause.run_if(in_state(InGame::Pause)),
        )
        .add_systems(
            Update,
            open_pause_menu
                .in_set(crate::AppSet::Input)
                .run_if(in_state(InGame::None)),
        )
        .add_systems(OnEnter(InGame::Pause), |mut m: ResMut<PauseModel>| m.0 = 0);
}

#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct PauseModel(pub usize);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PauseAction {
    Resume,
    Save,
    ExportRecord,
    Load,
    Rules,
    Settings,
    /// The game so far as an analysed replay.
    Analyse,
    MainMenu,
    Quit,
}

/// The pause menu; `can_analyse`: the game may become an analysed replay (not an online one);
/// `record`: the format the game's record is written in (`SGF`, or `PGN` for Ataxx).
pub fn pause_ui(
    ui: &mut egui::Ui,
    selected: &mut usize,
    can_analyse: bool,
    record: &str,
) -> Option<PauseAction> {
    let keys = NavKeys::read(ui);
    if keys.back {
        return Some(PauseAction::Resume);
    }
    ui.vertical_centered(|ui| {
        ui.heading(egui::RichText::new(t!("pause-title")).size(28.0));
        ui.add_space(12.0);
        let items = [
            (t!("pause-resume"), true),
            (t!("pause-save"), true),
            (t!("pause-save-record", format = record), true),
            (t!("menu-load"), true),
            (t!("menu-rules"), true),
            (t!("menu-settings"), true),
            (t!("pause-analyse"), can_analyse),
            (t!("main-menu"), true),
            (t!("menu-quit"), true),
        ];
        button_list(ui, &items, selected, keys).map(|i| {
            [
                PauseAction::Resume,
                PauseAction::Save,
                PauseAction::ExportRecord,
                PauseAction::Load,
                PauseAction::Rules,
                PauseAction::Settings,
                PauseAction::Analyse,
                PauseAction::MainMenu,
                PauseAction::Quit,
            ][i]
        })
    })
    .inner
}

fn draw_pause(
    mut contexts: EguiContexts,
    mut model: ResMut<PauseModel>,
    mut next: ResMut<NextState<InGame>>,
    mut files: MessageWriter<FileRequest>,
    game: Option<Res<crate::game::Match>>,
    mut load: MessageWriter<super::LoadMatch>,
    mut analyse: MessageWriter<crate::analysis::AnalysisRequest>,
    mut next_screen: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let can_analyse = game
        .as_ref()
        .is_some_and(|g| !g.is_online() && g.history.ply() > 0);
    let record = game
        .as_ref()
        .map(|g| qi_core::records::RecordFormat::for_game(g.kind()).extension())
        .unwrap_or("sgf")
        .to_ascii_uppercase();
    let Some(action) =
        menu_area(ctx, |ui| pause_ui(ui, &mut model.0, can_analyse, &record)).flatten()
    else {
        return Ok(());
    };
    match action {
        PauseAction::Resume => next.set(InGame::None),
        PauseAction::Save => next.set(InGame::Save),
        PauseAction::ExportRecord => {
            files.write(FileRequest::ExportRecord);
            next.set(InGame::None);
        }
        PauseAction::Load => next.set(InGame::Load),
        PauseAction::Rules => next.set(InGame::Rules),
        PauseAction::Settings => next.set(InGame::Settings),
        PauseAction::Analyse => {
            let Some(g) = game.filter(|_| can_analyse) else {
                return Ok(());
            };
            match crate::analysis::review_match(&g) {
                Ok(m) => {
                    info!("qi: analyse the game so far ({} moves)", g.history.ply());
                    load.write(super::LoadMatch(Box::new(m)));
                    analyse.write(crate::analysis::AnalysisRequest::Start { budget_ms: 500 });
                    next.set(InGame::None);
                }
                Err(e) => warn!("qi: cannot replay the game: {e}"),
            }
        }
        PauseAction::MainMenu if super::confirm::leaving_asks(game.as_deref()) => {
            next.set(InGame::ConfirmLeave)
        }
        PauseAction::MainMenu => {
            info!("qi: leave the finished game for the main menu");
            next_screen.set(Screen::Title);
        }
        PauseAction::Quit => next.set(InGame::ConfirmQuit),
    }
    Ok(())
}

fn open_pause_menu(
    keys: Res<ButtonInput<KeyCode>>,
    screen: Res<State<Screen>>,
    mut next: ResMut<NextState<InGame>>,
    egui_input: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut selection: ResMut<Selection>,
    mut status: MessageWriter<Status>,
    game: Option<Res<crate::game::Match>>,
) {
    if *screen.get() != Screen::Playing {
        return;
    }
    let typing = egui_input.is_some_and(|e| e.wants_keyboard_input());
    if typing {
        return; // Esc leaves the move box first
    }
    if selection.0.is_some() && keys.just_pressed(KeyCode::Escape) {
        // Esc first drops the piece picked up, and the status line says so
        selection.0 = None;
        status.write(Status(t!("status-selection-dropped")));
        return;
    }
    // P pauses too, except where a player passes by choice (Go): there P passes, as in
    // KaTrain
    let p_pauses = game.is_none_or(|g| !g.ui().passes_by_choice());
    if keys.just_pressed(KeyCode::Escape) || (p_pauses && keys.just_pressed(KeyCode::KeyP)) {
        next.set(InGame::Pause);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    #[test]
    fn pause_buttons_do_what_they_say() {
        let mut h = Harness::new_ui_state(
            |ui, s: &mut (usize, Option<PauseAction>)| {
                if let Some(a) = pause_ui(ui, &mut s.0, true, "PGN") {
                    s.1 = Some(a);
                }
            },
            (0, None),
        );
        h.run();
        h.get_by_label("Save the record (PGN)").click();
        h.run();
        assert_eq!(h.state().1, Some(PauseAction::ExportRecord));
        h.get_by_label("Main menu").click();
        h.run();
        assert_eq!(h.state().1, Some(PauseAction::MainMenu));
        h.get_by_label("Analyse the game so far").click();
        h.run();
        assert_eq!(h.state().1, Some(PauseAction::Analyse));
    }
}
