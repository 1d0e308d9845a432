//! The look: every colour the window uses is named once, in [`palette`]; the theme (dark or
//! light, chosen in Settings) decides the window's colours around the board.

pub mod palette;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::settings::Settings;

pub fn plugin(app: &mut App) {
    app.add_systems(Update, apply_theme.in_set(crate::AppSet::Input))
        .add_systems(EguiPrimaryContextPass, apply_egui_theme);
}

/// Applies the settings' theme to the palette and the window's background.
fn apply_theme(
    settings: Res<Settings>,
    mut clear: ResMut<ClearColor>,
    mut applied: Local<Option<palette::Theme>>,
) {
    let theme = settings.theme;
    if *applied == Some(theme) {
        return;
    }
    palette::set_theme(theme);
    clear.0 = palette::to_bevy(palette::ui().clear);
    info!("qi: theme {theme:?}");
    *applied = Some(theme);
}

/// egui's widgets in the theme's colours.
fn apply_egui_theme(
    mut contexts: EguiContexts,
    settings: Res<Settings>,
    mut applied: Local<Option<palette::Theme>>,
) -> Result {
    if *applied == Some(settings.theme) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    ctx.set_visuals(match settings.theme {
        palette::Theme::Dark => egui::Visuals::dark(),
        palette::Theme::Light => egui::Visuals::light(),
    });
    ctx.all_styles_mut(text_sizes);
    *applied = Some(settings.theme);
    Ok(())
}

/// Readable sizes: body text and buttons 15 px, small print 12.5 px.
pub fn text_sizes(style: &mut egui::Style) {
    for (text_style, font) in style.text_styles.iter_mut() {
        font.size = match text_style {
            egui::TextStyle::Small => 12.5,
            egui::TextStyle::Body | egui::TextStyle::Button => 15.0,
            egui::TextStyle::Monospace => 14.0,
            egui::TextStyle::Heading => 24.0,
            egui::TextStyle::Name(_) => font.size.max(14.0),
        };
    }
}
