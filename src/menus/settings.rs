//! The settings page: sound, animation, legal-move dots, the eval bar, the pause between CPU
//! moves in CPU-against-CPU games, and per game the default CPU level and time per move.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use qi_core::GameKind;

use super::nav::NavKeys;
use super::{InGame, Menu, back_from_page, menu_area};
use crate::screens::Screen;
use crate::settings::Settings;

pub fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        draw_settings.run_if(in_state(Menu::Settings).or_else(in_state(InGame::Settings))),
    );
}

pub fn settings_ui(ui: &mut egui::Ui, s: &mut Settings) -> bool {
    let keys = NavKeys::read(ui);
    ui.vertical_centered(|ui| ui.heading(egui::RichText::new(t!("settings-title")).size(28.0)));
    ui.add_space(8.0);
    egui::Grid::new("settings_grid")
        .num_columns(2)
        .spacing([24.0, 10.0])
        .show(ui, |ui| {
            ui.label(t!("settings-language"));
            ui.horizontal(|ui| {
                for l in crate::i18n::Lang::ALL {
                    if ui
                        .add(egui::Button::new(l.native_name()).selected(s.language == l))
                        .clicked()
                    {
                        s.language = l;
                    }
                }
            });
            ui.end_row();
            ui.label(t!("settings-theme"));
            ui.horizontal(|ui| {
                use crate::theme::palette::Theme;
                for (t, label) in [
                    (Theme::Dark, t!("theme-dark")),
                    (Theme::Light, t!("theme-light")),
                ] {
                    if ui
                        .add(egui::Button::new(label).selected(s.theme == t))
                        .clicked()
                    {
                        s.theme = t;
                    }
                }
            });
            ui.end_row();
            ui.label(t!("settings-volume"));
            ui.add(egui::Slider::new(&mut s.volume, 0.0..=1.0).show_value(true));
            ui.end_row();
            ui.label(t!("settings-mute"));
            ui.checkbox(&mut s.mute, "");
            ui.end_row();
            ui.label(t!("settings-animation"));
            ui.add(
                egui::Slider::new(&mut s.animation_speed, 0.0..=3.0)
                    .text(t!("settings-animation-off")),
            );
            ui.end_row();
            ui.label(t!("settings-legal-moves"));
            ui.checkbox(&mut s.show_legal_moves, "");
            ui.end_row();
            ui.label(t!("settings-eval-bar"));
            ui.checkbox(&mut s.eval_bar, "");
            ui.end_row();
            ui.label(t!("settings-cpu-delay"));
            ui.add(egui::Slider::new(&mut s.cpu_vs_cpu_delay, 0.0..=5.0));
            ui.end_row();
            for k in GameKind::ALL {
                let g = s.game_mut(k);
                let title = crate::games::ui_of(k).title();
                ui.label(t!("settings-game-level", game = title.as_str()));
                ui.add(egui::Slider::new(&mut g.level, 1..=6));
                ui.end_row();
                ui.label(t!("settings-game-time", game = title.as_str()));
                ui.add(egui::Slider::new(&mut g.cpu_time_ms, 100..=10000).logarithmic(true));
                ui.end_row();
                let mut on = g
                    .move_numbers
                    .unwrap_or_else(|| crate::games::ui_of(k).move_numbers_by_default());
                ui.label(t!("settings-game-numbers", game = title.as_str()));
                if ui.checkbox(&mut on, "").changed() {
                    g.move_numbers = Some(on);
                }
                ui.end_row();
            }
        });
    ui.add_space(12.0);
    let back = ui
        .vertical_centered(|ui| {
            ui.button(egui::RichText::new(t!("back")).size(18.0))
                .clicked()
        })
        .inner;
    back || keys.back
}

fn draw_settings(
    mut contexts: EguiContexts,
    mut settings: ResMut<Settings>,
    screen: Res<State<Screen>>,
    mut next_menu: ResMut<NextState<Menu>>,
    mut next_in_game: ResMut<NextState<InGame>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // edit a copy, so the settings resource changes (and is written) only when a value does
    let mut s = settings.clone();
    let back = menu_area(ctx, |ui| settings_ui(ui, &mut s)) == Some(true);
    if s != *settings {
        *settings = s;
    }
    if back {
        back_from_page(&screen, &mut next_menu, &mut next_in_game);
    }
    Ok(())
}
