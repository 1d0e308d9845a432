//! The rules of each game, with a small example board; Left/Right change the game. The panel
//! keeps one width for every game, so the tab row does not move under the mouse.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use qi_core::GameKind;

use super::nav::NavKeys;
use super::widgets::draw_small_board;
use super::{InGame, Menu, back_from_page, menu_area};
use crate::games::{cycle, ui_of};
use crate::screens::Screen;

pub fn plugin(app: &mut App) {
    app.init_resource::<RulesModel>().add_systems(
        EguiPrimaryContextPass,
        draw_rules.run_if(in_state(Menu::Rules).or_else(in_state(InGame::Rules))),
    );
}

/// The game whose rules are shown (the game being played, when there is one).
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct RulesModel(pub Option<GameKind>);

/// The width of the rules panel, the same for every game.
pub const RULES_WIDTH: f32 = 640.0;

pub fn rules_ui(ui: &mut egui::Ui, kind: &mut GameKind) -> bool {
    let keys = NavKeys::read(ui);
    if keys.left || keys.right {
        let d = if keys.right { 1 } else { -1 };
        *kind = cycle(&GameKind::ALL, *kind, d);
    }
    let width = RULES_WIDTH.min(ui.available_width().max(300.0));
    ui.set_width(width);
    ui.horizontal(|ui| {
        for k in GameKind::ALL {
            if ui
                .add(
                    egui::Button::new(egui::RichText::new(ui_of(k).title()).size(17.0))
                        .selected(*kind == k)
                        .min_size(egui::vec2(120.0, 30.0)),
                )
                .clicked()
            {
                *kind = k;
            }
        }
    });
    let game = ui_of(*kind);
    let text = game.rules();
    ui.heading(egui::RichText::new(game.title()).size(26.0));
    if let Ok(pos) = game.example_position() {
        let cell = (200.0 / pos.dimensions().0 as f32).min(26.0);
        draw_small_board(ui, &pos, cell);
    }
    ui.add_space(8.0);
    ui.add(egui::Label::new(egui::RichText::new(text).size(15.0)).wrap());
    ui.add_space(10.0);
    let back = ui
        .vertical_centered(|ui| {
            ui.button(egui::RichText::new(t!("back")).size(18.0))
                .clicked()
        })
        .inner;
    back || keys.back || keys.choose
}

fn draw_rules(
    mut contexts: EguiContexts,
    mut model: ResMut<RulesModel>,
    game: Option<Res<crate::game::Match>>,
    screen: Res<State<Screen>>,
    mut next_menu: ResMut<NextState<Menu>>,
    mut next_in_game: ResMut<NextState<InGame>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let playing = (*screen.get() == Screen::Playing)
        .then(|| game.as_ref().map(|g| g.kind()))
        .flatten();
    let kind = model.0.get_or_insert(playing.unwrap_or(GameKind::ALL[0]));
    if menu_area(ctx, |ui| rules_ui(ui, kind)) == Some(true) {
        model.0 = None;
        back_from_page(&screen, &mut next_menu, &mut next_in_game);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    /// Defect: the tab row moved when a tab was chosen, so the next click missed.
    #[test]
    fn the_tab_row_stays_put() {
        let mut h = Harness::new_ui_state(
            |ui, k: &mut GameKind| {
                rules_ui(ui, k);
            },
            GameKind::Ataxx,
        );
        h.run();
        let tab = |h: &Harness<'_, GameKind>, l: &str| {
            h.get_by_role_and_label(egui::accesskit::Role::Button, l)
                .rect()
        };
        let before = tab(&h, "Go");
        h.get_by_role_and_label(egui::accesskit::Role::Button, "Go")
            .click();
        h.run();
        assert_eq!(*h.state(), GameKind::Go);
        assert_eq!(tab(&h, "Go"), before, "the Go tab moved");
        h.get_by_role_and_label(egui::accesskit::Role::Button, "Reversi")
            .click();
        h.run();
        assert_eq!(*h.state(), GameKind::Reversi);
        assert_eq!(tab(&h, "Go"), before);
    }
}
