//! The font with the Chinese glyphs: Noto Sans SC (SIL Open Font License 1.1), cut down by
//! `scripts/make-fonts.sh` to the characters the window needs (`assets/fonts/`). It is built
//! into the program and registered for egui (after egui's own fonts, so Latin text keeps its
//! look and Chinese falls back to it) and for Bevy's text (the board's coordinates and move
//! numbers).

use std::sync::Arc;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

use crate::i18n::{self, Lang};

const CJK_FONT: &[u8] = include_bytes!("../assets/fonts/NotoSansSC-Qi.otf");
const EGUI_NAME: &str = "noto-sans-sc";

pub fn cjk_font_bytes() -> &'static [u8] {
    CJK_FONT
}

pub fn plugin(app: &mut App) {
    app.init_resource::<UiFont>().add_systems(
        EguiPrimaryContextPass,
        (register_egui_font, check_glyphs).chain(),
    );
}

/// The font of Bevy's text on the board.
#[derive(Resource, Clone, Debug)]
pub struct UiFont(pub Handle<Font>);

impl FromWorld for UiFont {
    fn from_world(world: &mut World) -> Self {
        let Some(mut fonts) = world.get_resource_mut::<Assets<Font>>() else {
            // headless app tests have no text assets
            return UiFont(Handle::default());
        };
        UiFont(fonts.add(Font::from_bytes(CJK_FONT.to_vec())))
    }
}

/// egui's font list with the Chinese font after its own in each family.
pub fn font_definitions() -> egui::FontDefinitions {
    let mut fonts = egui::FontDefinitions::default();
    fonts.font_data.insert(
        EGUI_NAME.to_string(),
        Arc::new(egui::FontData::from_static(CJK_FONT)),
    );
    for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
        fonts
            .families
            .entry(family)
            .or_default()
            .push(EGUI_NAME.to_string());
    }
    fonts
}

fn register_egui_font(mut contexts: EguiContexts, mut done: Local<bool>) -> Result {
    if *done {
        return Ok(());
    }
    contexts.ctx_mut()?.set_fonts(font_definitions());
    *done = true;
    Ok(())
}

/// Once per language, after the fonts are in: logs whether every character of the language's
/// texts has a glyph ("qi: glyphs zh-CN: all N characters"), which the window test reads.
fn check_glyphs(
    mut contexts: EguiContexts,
    mut checked: Local<Vec<Lang>>,
    mut frames: Local<u32>,
) -> Result {
    // egui takes new fonts at the start of its next pass
    *frames += 1;
    let lang = i18n::lang();
    if *frames < 3 || checked.contains(&lang) {
        return Ok(());
    }
    checked.push(lang);
    let ctx = contexts.ctx_mut()?;
    let mut chars: Vec<char> = i18n::all_texts(lang)
        .chars()
        .filter(|c| !c.is_control())
        .collect();
    chars.sort_unstable();
    chars.dedup();
    let font = egui::FontId::proportional(15.0);
    let missing: String =
        ctx.fonts_mut(|f| chars.iter().filter(|&&c| !f.has_glyph(&font, c)).collect());
    if missing.is_empty() {
        info!("qi: glyphs {}: all {} characters", lang.code(), chars.len());
    } else {
        error!("qi: glyphs {}: missing {missing:?}", lang.code());
    }
    Ok(())
}
