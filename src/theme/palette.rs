//! Every colour of the window, named once. Board code, the HUD and the menus take their colours
//! from here (egui's `Color32`; [`bevy`] colours through [`to_bevy`]).

use bevy::prelude::Color;
use bevy_egui::egui::Color32;

pub fn to_bevy(c: Color32) -> Color {
    Color::srgba_u8(c.r(), c.g(), c.b(), c.a())
}

/// The colours of the window around the board, for one theme.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UiColors {
    /// The window behind everything.
    pub clear: Color32,
    /// Menus and overlays: opaque, over a dimmed board.
    pub panel: Color32,
    /// Drawn over the board while a menu is open.
    pub dim: Color32,
    pub text_weak: Color32,
    pub error: Color32,
    pub outline: Color32,
    pub coordinates: Color32,
    /// The thin outline of the piece icons in the HUD.
    pub icon_rim: Color32,
    /// Moves marked by the analysis, and its graph.
    pub mark_inaccuracy: Color32,
    pub mark_mistake: Color32,
    pub mark_blunder: Color32,
    pub graph_black: Color32,
    pub graph_white: Color32,
}

pub const DARK: UiColors = UiColors {
    clear: Color32::from_rgb(22, 24, 30),
    panel: Color32::from_rgb(24, 26, 32),
    dim: Color32::from_rgba_premultiplied(0, 0, 0, 150),
    text_weak: Color32::from_rgb(170, 172, 180),
    error: Color32::from_rgb(255, 128, 128),
    outline: Color32::GRAY,
    coordinates: Color32::from_rgb(191, 191, 199),
    icon_rim: Color32::from_rgb(70, 72, 80),
    mark_inaccuracy: Color32::from_rgb(236, 200, 80),
    mark_mistake: Color32::from_rgb(240, 140, 50),
    mark_blunder: Color32::from_rgb(240, 80, 80),
    graph_black: Color32::from_rgb(12, 12, 14),
    graph_white: Color32::from_rgb(200, 200, 196),
};

pub const LIGHT: UiColors = UiColors {
    clear: Color32::from_rgb(236, 230, 218),
    panel: Color32::from_rgb(250, 247, 240),
    dim: Color32::from_rgba_premultiplied(20, 16, 10, 110),
    text_weak: Color32::from_rgb(88, 84, 78),
    error: Color32::from_rgb(176, 32, 32),
    outline: Color32::from_rgb(120, 114, 104),
    coordinates: Color32::from_rgb(70, 60, 48),
    icon_rim: Color32::from_rgb(120, 114, 104),
    mark_inaccuracy: Color32::from_rgb(170, 130, 0),
    mark_mistake: Color32::from_rgb(200, 100, 10),
    mark_blunder: Color32::from_rgb(190, 30, 30),
    graph_black: Color32::from_rgb(40, 38, 36),
    graph_white: Color32::from_rgb(255, 253, 248),
};

/// The two themes: a dark one and a light, warm one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Theme {
    #[default]
    Dark,
    Light,
}

impl Theme {
    pub fn colors(self) -> &'static UiColors {
        match self {
            Theme::Dark => &DARK,
            Theme::Light => &LIGHT,
        }
    }
}

static CURRENT: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Makes `theme` the one [`ui`] answers with (the app sets it from the settings).
pub fn set_theme(theme: Theme) {
    CURRENT.store(theme as u8, std::sync::atomic::Ordering::Relaxed);
}

pub fn theme() -> Theme {
    match CURRENT.load(std::sync::atomic::Ordering::Relaxed) {
        1 => Theme::Light,
        _ => Theme::Dark,
    }
}

/// The colours of the current theme.
pub fn ui() -> &'static UiColors {
    theme().colors()
}

// Pieces
pub const RED_PIECE: Color32 = Color32::from_rgb(214, 58, 58);
pub const BLUE_PIECE: Color32 = Color32::from_rgb(52, 112, 222);
pub const BLACK_PIECE: Color32 = Color32::from_rgb(22, 22, 24);
pub const WHITE_PIECE: Color32 = Color32::from_rgb(238, 238, 232);

/// A board's colours: the frame and lines, the cells (or the wood), blocked squares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardColors {
    pub frame: Color32,
    pub cell: Color32,
    pub blocked: Color32,
}

pub const SLATE_BOARD: BoardColors = BoardColors {
    frame: Color32::from_rgb(30, 33, 40),
    cell: Color32::from_rgb(88, 94, 108),
    blocked: Color32::from_rgb(40, 36, 40),
};
pub const GREEN_BOARD: BoardColors = BoardColors {
    frame: Color32::from_rgb(12, 52, 28),
    cell: Color32::from_rgb(34, 120, 66),
    blocked: Color32::from_rgb(12, 52, 28),
};
pub const WOOD_BOARD: BoardColors = BoardColors {
    frame: Color32::from_rgb(45, 30, 16),
    cell: Color32::from_rgb(222, 184, 120),
    blocked: Color32::from_rgb(70, 48, 24),
};

// Move numbers on the pieces
pub const NUMBER_ON_DARK: Color32 = Color32::from_rgb(235, 235, 235);
pub const NUMBER_ON_LIGHT: Color32 = Color32::from_rgb(25, 25, 25);

// Marks on the board
pub const LEGAL: Color32 = Color32::from_rgba_unmultiplied_const(255, 255, 255, 120);
pub const CLONE_TARGET: Color32 = Color32::from_rgba_unmultiplied_const(89, 255, 115, 140);
pub const JUMP_TARGET: Color32 = Color32::from_rgba_unmultiplied_const(255, 217, 64, 204);
pub const SELECTED: Color32 = Color32::from_rgba_unmultiplied_const(255, 255, 77, 230);
pub const LAST_MOVE: Color32 = Color32::from_rgba_unmultiplied_const(235, 64, 40, 240);
pub const HINT: Color32 = Color32::from_rgba_unmultiplied_const(77, 242, 255, 242);
pub const FORBIDDEN: Color32 = Color32::from_rgba_unmultiplied_const(230, 26, 26, 217);
pub const WINNING: Color32 = Color32::from_rgb(255, 51, 51);
pub const DEAD: Color32 = Color32::from_rgba_unmultiplied_const(255, 64, 51, 242);
pub const KO: Color32 = Color32::from_rgba_unmultiplied_const(255, 64, 51, 230);
pub const AREA_BLACK: Color32 = Color32::from_rgb(13, 13, 13);
pub const AREA_WHITE: Color32 = Color32::from_rgb(247, 247, 247);

// Small boards in menus (slots, rules)
pub const SMALL_LINE: Color32 = Color32::from_rgb(60, 40, 20);
