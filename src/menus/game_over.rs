//! The game-over panel: the result, the players, moves and time; play again, save the record,
//! look at the board (the side panel then offers the result again and a new game), main menu.
//! It opens once per ending, when the board has come to rest.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use super::nav::{NavKeys, button_list};
use super::{InGame, StartMatch, format_time, menu_area};
use crate::game::Match;
use crate::saves::{FileOutcome, FileRequest};
use crate::screens::Screen;

pub fn plugin(app: &mut App) {
    app.init_resource::<GameOverShown>()
        .init_resource::<GameOverModel>()
        .add_message::<ShowResult>()
        .add_systems(
            EguiPrimaryContextPass,
            draw_game_over.run_if(in_state(InGame::GameOver)),
        )
        .add_systems(
            Update,
            (
                open_game_over.run_if(crate::board::board_idle),
                show_result_again,
            )
                .in_set(crate::AppSet::Present)
                .run_if(in_state(InGame::None)),
        )
        .add_systems(
            Update,
            note_exports
                .in_set(crate::AppSet::Follow)
                .run_if(in_state(InGame::GameOver)),
        )
        .add_systems(OnEnter(InGame::GameOver), |mut m: ResMut<GameOverModel>| {
            m.selected = 0;
        })
        .add_systems(OnExit(Screen::Playing), |mut m: ResMut<GameOverModel>| {
            m.record_message = None;
        });
}

/// The position (hash, ply) whose ending the panel was shown for, so it opens once.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct GameOverShown(pub Option<(u64, usize)>);

/// Open the result panel again (from the side panel, after "Look at the board").
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct ShowResult;

#[derive(Resource, Clone, Debug, Default)]
pub struct GameOverModel {
    pub selected: usize,
    /// What happened to the last "save the record".
    pub record_message: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameOverAction {
    PlayAgain,
    SaveRecord,
    /// Replay the game with its analysis.
    Analyse,
    Review,
    MainMenu,
}

pub fn game_over_ui(
    ui: &mut egui::Ui,
    headline: &str,
    details: &[String],
    selected: &mut usize,
) -> Option<GameOverAction> {
    let keys = NavKeys::read(ui);
    if keys.back {
        return Some(GameOverAction::Review);
    }
    ui.vertical_centered(|ui| {
        ui.label(egui::RichText::new(headline).size(30.0).strong());
        for d in details {
            ui.label(egui::RichText::new(d).size(16.0));
        }
        ui.add_space(12.0);
        let items = [
            (t!("game-over-play-again"), true),
            (t!("game-over-save-record"), true),
            (t!("game-over-analyse"), true),
            (t!("game-over-look"), true),
            (t!("main-menu"), true),
        ];
        button_list(ui, &items, selected, keys).map(|i| {
            [
                GameOverAction::PlayAgain,
                GameOverAction::SaveRecord,
                GameOverAction::Analyse,
                GameOverAction::Review,
                GameOverAction::MainMenu,
            ][i]
        })
    })
    .inner
}

#[allow(clippy::too_many_arguments)]
fn draw_game_over(
    mut contexts: EguiContexts,
    mut model: ResMut<GameOverModel>,
    game: Option<Res<Match>>,
    mut next_in_game: ResMut<NextState<InGame>>,
    mut next_screen: ResMut<NextState<Screen>>,
    mut start: MessageWriter<StartMatch>,
    mut files: MessageWriter<FileRequest>,
    mut load: MessageWriter<super::LoadMatch>,
    mut analyse: MessageWriter<crate::analysis::AnalysisRequest>,
    mut title_menu: ResMut<crate::screens::TitleMenu>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Some(g) = game else { return Ok(()) };
    let headline = g
        .result()
        .map_or(t!("game-over"), |r| crate::games::result_text(g.kind(), &r));
    let details: Vec<String> = [
        t!(
            "players-vs",
            black = g.setup.names[0].as_str(),
            white = g.setup.names[1].as_str()
        ),
        t!(
            "game-over-moves-in",
            n = g.history.ply(),
            time = format_time(g.elapsed)
        ),
    ]
    .into_iter()
    .chain(model.record_message.clone())
    .collect();
    let model = &mut *model;
    let action = menu_area(ctx, |ui| {
        game_over_ui(ui, &headline, &details, &mut model.selected)
    })
    .flatten();
    match action {
        // an online game is played again by hosting or joining a new one
        Some(GameOverAction::PlayAgain) if g.is_online() => {
            title_menu.0 = super::Menu::Online;
            next_screen.set(Screen::Title);
        }
        Some(GameOverAction::PlayAgain) => {
            start.write(StartMatch(g.setup.clone()));
        }
        Some(GameOverAction::SaveRecord) => {
            files.write(FileRequest::ExportRecord);
        }
        Some(GameOverAction::Analyse) => match crate::analysis::review_match(&g) {
            // the finished game becomes a replay at its last move, and the analysis starts
            Ok(m) => {
                load.write(super::LoadMatch(Box::new(m)));
                analyse.write(crate::analysis::AnalysisRequest::Start { budget_ms: 500 });
            }
            Err(e) => warn!("qi: cannot replay the game: {e}"),
        },
        Some(GameOverAction::Review) => next_in_game.set(InGame::None),
        Some(GameOverAction::MainMenu) => next_screen.set(Screen::Title),
        None => {}
    }
    Ok(())
}

fn note_exports(mut outcomes: MessageReader<FileOutcome>, mut model: ResMut<GameOverModel>) {
    for o in outcomes.read() {
        match o {
            FileOutcome::Exported(p) => {
                model.record_message = Some(t!("record-saved", path = p.display().to_string()))
            }
            FileOutcome::Failed(m) => model.record_message = Some(m.clone()),
            _ => {}
        }
    }
}

/// Shows the game-over panel once when a game ends (after its last move has come to rest).
fn open_game_over(
    game: Option<Res<Match>>,
    mut next: ResMut<NextState<InGame>>,
    mut shown: ResMut<GameOverShown>,
) {
    let Some(game) = game else { return };
    if game.result().is_none() || game.replay.is_some() {
        return;
    }
    let key = (game.position().hash(), game.history.ply());
    if shown.0 != Some(key) {
        shown.0 = Some(key);
        next.set(InGame::GameOver);
    }
}

fn show_result_again(
    mut asks: MessageReader<ShowResult>,
    game: Option<Res<Match>>,
    mut next: ResMut<NextState<InGame>>,
) {
    if asks.read().count() > 0 && game.is_some_and(|g| g.result().is_some()) {
        next.set(InGame::GameOver);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    #[test]
    fn game_over_buttons_do_what_they_say() {
        let mut h = Harness::new_ui_state(
            |ui, s: &mut (usize, Option<GameOverAction>)| {
                if let Some(a) = game_over_ui(ui, "Black wins", &[], &mut s.0) {
                    s.1 = Some(a);
                }
            },
            (0, None),
        );
        h.run();
        for (label, action) in [
            ("Play again", GameOverAction::PlayAgain),
            ("Save the record", GameOverAction::SaveRecord),
            ("Analyse the game", GameOverAction::Analyse),
            ("Look at the board", GameOverAction::Review),
            ("Main menu", GameOverAction::MainMenu),
        ] {
            h.get_by_label(label).click();
            h.run();
            assert_eq!(h.state().1, Some(action), "{label}");
        }
    }
}
