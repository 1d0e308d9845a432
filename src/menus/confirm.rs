//! Yes/no questions: quit, leave the game, load over the game in progress, overwrite a slot.
//! Each says what is true: the game is autosaved after every move and on quit, so quitting or
//! leaving loses nothing; loading a slot replaces the game, which is lost unless it is in a slot.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::nav::{NavKeys, button_list};
use super::{InGame, Menu, menu_area};
use crate::game::Match;
use crate::saves::FileRequest;
use crate::screens::Screen;

pub fn plugin(app: &mut App) {
    app.init_resource::<ConfirmModel>()
        .init_resource::<PendingSlot>()
        .add_systems(
            EguiPrimaryContextPass,
            (
                draw_quit
                    .run_if(in_state(Menu::ConfirmQuit).or_else(in_state(InGame::ConfirmQuit))),
                draw_leave.run_if(in_state(InGame::ConfirmLeave)),
                draw_load.run_if(in_state(InGame::ConfirmLoad)),
                draw_overwrite.run_if(in_state(InGame::ConfirmOverwrite)),
            ),
        )
        .add_systems(OnEnter(Menu::ConfirmQuit), reset_choice)
        .add_systems(OnEnter(InGame::ConfirmQuit), reset_choice)
        .add_systems(OnEnter(InGame::ConfirmLeave), reset_choice)
        .add_systems(OnEnter(InGame::ConfirmLoad), reset_choice)
        .add_systems(OnEnter(InGame::ConfirmOverwrite), reset_choice);
}

/// The button selected (0 yes, 1 no: No is preselected).
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct ConfirmModel(pub usize);

/// The slot a question is about (load over the game, overwrite).
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct PendingSlot(pub usize);

fn reset_choice(mut m: ResMut<ConfirmModel>) {
    m.0 = 1;
}

/// A yes/no question; Esc answers no.
pub fn confirm_ui(ui: &mut egui::Ui, question: &str, selected: &mut usize) -> Option<bool> {
    let keys = NavKeys::read(ui);
    if keys.back {
        return Some(false);
    }
    ui.vertical_centered(|ui| {
        ui.add(egui::Label::new(egui::RichText::new(question).size(20.0)).wrap());
        ui.add_space(12.0);
        button_list(ui, &[(t!("yes"), true), (t!("no"), true)], selected, keys).map(|i| i == 0)
    })
    .inner
}

/// The question before quitting: true to what the autosave keeps.
pub fn quit_question(game: Option<&Match>) -> String {
    match game {
        Some(g) if g.replay.is_none() && !g.is_over() => t!("confirm-quit-saved"),
        _ => t!("confirm-quit"),
    }
}

/// Whether leaving for the main menu asks first: only a game still being played (a finished
/// game or a replayed record loses nothing and is not worth a question; the pause menu's Main
/// menu leaves at once then).
pub fn leaving_asks(game: Option<&Match>) -> bool {
    game.is_some_and(|g| g.replay.is_none() && !g.is_over())
}

pub fn leave_question(game: Option<&Match>) -> String {
    match game {
        Some(g) if g.replay.is_none() && !g.is_over() => t!("confirm-leave-saved"),
        _ => t!("confirm-leave"),
    }
}

pub fn load_question(game: Option<&Match>, slot: usize) -> String {
    match game {
        Some(g) if g.replay.is_none() && g.dirty && !g.is_over() => {
            t!("confirm-load-unsaved", slot = slot)
        }
        Some(g) if g.replay.is_none() && !g.is_over() => t!("confirm-load-saved", slot = slot),
        _ => t!("confirm-load", slot = slot),
    }
}

fn ask(ctx: &egui::Context, question: &str, selected: &mut usize) -> Option<bool> {
    menu_area(ctx, |ui| confirm_ui(ui, question, selected)).flatten()
}

fn draw_quit(
    mut contexts: EguiContexts,
    mut model: ResMut<ConfirmModel>,
    game: Option<Res<Match>>,
    screen: Res<State<Screen>>,
    mut next_menu: ResMut<NextState<Menu>>,
    mut next_in_game: ResMut<NextState<InGame>>,
    mut exit: MessageWriter<AppExit>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let playing = *screen.get() == Screen::Playing;
    let q = quit_question(game.as_deref().filter(|_| playing));
    match ask(ctx, &q, &mut model.0) {
        Some(true) => {
            info!("qi: quit");
            exit.write(AppExit::Success);
        }
        Some(false) if playing => next_in_game.set(InGame::Pause),
        Some(false) => next_menu.set(Menu::Main),
        None => {}
    }
    Ok(())
}

fn draw_leave(
    mut contexts: EguiContexts,
    mut model: ResMut<ConfirmModel>,
    game: Option<Res<Match>>,
    mut next_screen: ResMut<NextState<Screen>>,
    mut next_in_game: ResMut<NextState<InGame>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    match ask(ctx, &leave_question(game.as_deref()), &mut model.0) {
        Some(true) => next_screen.set(Screen::Title),
        Some(false) => next_in_game.set(InGame::Pause),
        None => {}
    }
    Ok(())
}

fn draw_load(
    mut contexts: EguiContexts,
    mut model: ResMut<ConfirmModel>,
    game: Option<Res<Match>>,
    slot: Res<PendingSlot>,
    mut files: MessageWriter<FileRequest>,
    mut next_in_game: ResMut<NextState<InGame>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    match ask(ctx, &load_question(game.as_deref(), slot.0), &mut model.0) {
        Some(true) => {
            files.write(FileRequest::Load(slot.0));
        }
        Some(false) => next_in_game.set(InGame::Load),
        None => {}
    }
    Ok(())
}

fn draw_overwrite(
    mut contexts: EguiContexts,
    mut model: ResMut<ConfirmModel>,
    slot: Res<PendingSlot>,
    mut files: MessageWriter<FileRequest>,
    mut next_in_game: ResMut<NextState<InGame>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let q = t!("confirm-overwrite", slot = slot.0);
    match ask(ctx, &q, &mut model.0) {
        Some(true) => {
            files.write(FileRequest::Save {
                slot: slot.0,
                overwrite: true,
            });
        }
        Some(false) => next_in_game.set(InGame::Save),
        None => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

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

    /// A game of two people, not started.
    fn new_match() -> Match {
        let setup = crate::game::MatchSetup {
            kind: qi_core::GameKind::Reversi,
            start_text: None,
            players: [crate::game::Player::Human; 2],
            names: ["A".into(), "B".into()],
            clock: None,
        };
        Match::new(setup).unwrap()
    }

    /// Defect: Quit and Main menu warned "not saved" although the game is autosaved.
    #[test]
    fn the_questions_say_what_is_true() {
        let mut g = new_match();
        g.dirty = true;
        assert!(!quit_question(Some(&g)).contains("not saved"));
        assert!(quit_question(Some(&g)).contains("saved automatically"));
        assert!(leave_question(Some(&g)).contains("saved automatically"));
        assert!(load_question(Some(&g), 3).contains("not in a save slot"));
        g.dirty = false;
        assert!(load_question(Some(&g), 3).contains("in a slot"));
        assert_eq!(quit_question(None), "Quit Qi?");
    }

    /// Main menu from the pause menu asked "Leave for the main menu?" after a finished game,
    /// which loses nothing; a game still being played is asked about.
    #[test]
    fn only_a_game_being_played_asks_before_leaving() {
        let mut g = new_match();
        let m = g.position().legal_moves()[0];
        g.history.play(m).unwrap();
        assert!(leaving_asks(Some(&g)));
        g.final_result = Some(qi_core::GameResult {
            winner: Some(qi_core::Side::White),
            reason: qi_core::result::Reason::Resignation,
        });
        assert!(g.is_over());
        assert!(!leaving_asks(Some(&g)));
        assert!(!leaving_asks(None));
    }
}
