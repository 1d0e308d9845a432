//! The board as entities: a cell entity per square, a piece entity per piece, markers for legal
//! moves and the last move. They are spawned from the core position when a game starts, the
//! position jumps or the window changes size (the board fills the room left by the panels), and
//! kept in step with it only through `MovePlayed` messages, which also start the animations.
//! How each game's board looks comes from `crate::games`.

mod anim;
pub mod art;
mod input;
mod marks;

use bevy::prelude::*;
use bevy::window::{PrimaryWindow, WindowResized};
use qi_core::{Cell, Side, Square};

use crate::AppSet;
use crate::game::{BoardReset, Match, MovePlayed};
use crate::games::GameUi;
use crate::screens::Screen;
use crate::settings::Settings;
use crate::theme::palette::{self, to_bevy};
pub use anim::{Anim, AnimKind, animate_moves, run_animations};
pub use art::PieceArt;
pub use input::CellClicked;
pub use marks::{MoveNumber, markers_for, move_numbers_of};
use marks::{update_markers, update_move_numbers};

pub fn plugin(app: &mut App) {
    // Bevy's window plugin registers it; headless apps (the tests) have none
    app.add_message::<WindowResized>()
        .init_resource::<BoardLayout>()
        .init_resource::<GameMarks>()
        .init_resource::<BoardGeneration>()
        .add_plugins((art::plugin, input::plugin))
        .add_systems(
            Update,
            (
                rebuild_board,
                animate_moves,
                run_animations,
                update_markers,
                update_move_numbers,
                log_board_at_rest,
            )
                .chain()
                .in_set(AppSet::Present)
                .run_if(in_state(Screen::Playing)),
        );
}

/// Whether the board is at rest: no piece animates and no move waits to be animated. The CPU's
/// move and the game-over panel wait for it.
pub fn board_idle(anims: Query<(), With<Anim>>, mut played: MessageReader<MovePlayed>) -> bool {
    // each use of the condition has its own reader: it sees each move once
    let fresh = played.read().count() > 0;
    anims.is_empty() && !fresh
}

/// Says in the log when the board has come to rest after a move or a rebuild (the window tests
/// wait for it instead of sleeping).
fn log_board_at_rest(
    anims: Query<(), With<Anim>>,
    game: Option<Res<Match>>,
    generation: Res<BoardGeneration>,
    mut played: MessageReader<MovePlayed>,
    mut last: Local<Option<(u64, usize)>>,
    mut frames: Local<u32>,
) {
    let moved = played.read().count() > 0;
    let Some(game) = game else { return };
    if moved || !anims.is_empty() {
        *frames = 0;
        return;
    }
    let key = (generation.0, game.history.ply());
    if *last == Some(key) {
        return;
    }
    // two quiet frames, so the last one is drawn
    *frames += 1;
    if *frames >= 2 {
        *last = Some(key);
        info!("qi: board at rest at ply {}", game.history.ply());
    }
}

/// A square of the board.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellTile {
    pub square: Square,
}

/// A piece (stone, disc) on the board.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    pub side: Side,
    pub square: Square,
}

/// Everything the board spawns (for clean-up on reset).
#[derive(Component, Debug, Clone, Copy)]
pub struct BoardPart;

/// Marks a game puts on the board beyond the usual ones (Go's dead stones and areas while
/// scoring).
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct GameMarks(pub Vec<(Square, Marker)>);

/// Counts board rebuilds, so that the markers are drawn again after each.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BoardGeneration(pub u64);

/// A highlight: a legal target, the selected piece, the last move.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    Legal,
    CloneTarget,
    JumpTarget,
    Selected,
    LastMove,
    Hint,
    /// A point Black may not play (renju).
    Forbidden,
    /// A stone of the winning row (Gomoku).
    Winning,
    /// A stone marked dead after two passes (Go).
    Dead,
    /// A point the side to move may not take now (Go's ko).
    Ko,
    /// Go after two passes: a point that counts for Black / White (empty or a dead stone).
    AreaBlack,
    AreaWhite,
}

/// Where the board is drawn: the world position of the bottom-left corner and the cell size.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct BoardLayout {
    pub origin: Vec2,
    pub cell: f32,
    pub size: (u8, u8),
    /// Row 1 at the top (Reversi, as Othello boards are labelled: a1 top left); otherwise
    /// row 1 is at the bottom.
    pub rank_one_on_top: bool,
}

impl Default for BoardLayout {
    fn default() -> Self {
        BoardLayout::for_board((8, 8), WINDOW)
    }
}

/// The window's size at start.
pub const WINDOW: Vec2 = Vec2::new(1200.0, 800.0);
/// The smallest window the layout is made for.
pub const MIN_WINDOW: Vec2 = Vec2::new(800.0, 600.0);
pub const TOP_BAR: f32 = 64.0;
pub const BOTTOM_BAR: f32 = 30.0;

/// The side panel's width in a window this wide: it flexes between 250 and 380 px.
pub fn side_panel_width(window_width: f32) -> f32 {
    (window_width * 0.27).clamp(250.0, 380.0)
}

impl BoardLayout {
    /// The largest board that fits the window beside the side panel, centred in that room.
    pub fn for_board(size: (u8, u8), window: Vec2) -> BoardLayout {
        let side = side_panel_width(window.x);
        // room for the coordinates around the board (outside the wood's margin on lined boards)
        let margin = 72.0;
        let avail_w = (window.x - side - margin).max(100.0);
        let avail_h = (window.y - TOP_BAR - BOTTOM_BAR - margin).max(100.0);
        let cell = (avail_w / size.0 as f32)
            .min(avail_h / size.1 as f32)
            .floor()
            .max(4.0);
        let center = Vec2::new(-side / 2.0, (BOTTOM_BAR - TOP_BAR) / 2.0);
        let origin = center - Vec2::new(size.0 as f32, size.1 as f32) * cell / 2.0;
        BoardLayout {
            origin,
            cell,
            size,
            rank_one_on_top: false,
        }
    }

    /// The layout of a game's board in a window of this size.
    pub fn for_game(ui: &dyn GameUi, size: (u8, u8), window: Vec2) -> BoardLayout {
        BoardLayout {
            rank_one_on_top: ui.board_style().rank_one_on_top,
            ..BoardLayout::for_board(size, window)
        }
    }

    /// The row counted from the bottom of the drawing.
    fn drawn_row(&self, y: u8) -> u8 {
        if self.rank_one_on_top {
            self.size.1 - 1 - y
        } else {
            y
        }
    }

    pub fn center_of(&self, sq: Square) -> Vec2 {
        let y = self.drawn_row(sq.y);
        self.origin + (Vec2::new(sq.x as f32, y as f32) + 0.5) * self.cell
    }

    /// The square under a world position, if any.
    pub fn square_at(&self, p: Vec2) -> Option<Square> {
        let q = (p - self.origin) / self.cell;
        if q.x < 0.0 || q.y < 0.0 || q.x >= self.size.0 as f32 || q.y >= self.size.1 as f32 {
            None
        } else {
            Some(Square::new(q.x as u8, self.drawn_row(q.y as u8)))
        }
    }

    /// The board's rectangle in window pixels (origin top left), for tests and screenshots.
    pub fn screen_rect(&self, window: Vec2) -> Rect {
        let min = self.origin;
        let max = self.origin + Vec2::new(self.size.0 as f32, self.size.1 as f32) * self.cell;
        let to_screen = |p: Vec2| Vec2::new(p.x + window.x / 2.0, window.y / 2.0 - p.y);
        Rect::from_corners(to_screen(min), to_screen(max))
    }
}

pub fn piece_color(ui: &dyn GameUi, side: Side) -> Color {
    to_bevy(ui.piece_color(side))
}

/// The bundle for one piece entity: a shaded stone on lined boards (Go, Gomoku), a disc in the
/// piece's colour on the others, each with a soft shadow under it.
pub fn piece_bundle(
    ui: &dyn GameUi,
    side: Side,
    sq: Square,
    layout: &BoardLayout,
    art: &PieceArt,
) -> impl Bundle {
    let stones = ui.board_style().lined;
    let scale = if stones { 0.94 } else { 0.8 };
    let size = Vec2::splat(layout.cell * scale);
    let (image, color) = match (stones, side) {
        (true, Side::Black) => (art.black_stone.clone(), Color::WHITE),
        (true, Side::White) => (art.white_stone.clone(), Color::WHITE),
        (false, _) => (art.disc.clone(), piece_color(ui, side)),
    };
    let offset = layout.cell * 0.05;
    (
        Name::new(format!(
            "Piece {:?} {}",
            side,
            qi_core::game::square_text(sq)
        )),
        Piece { side, square: sq },
        BoardPart,
        Sprite {
            image,
            color,
            custom_size: Some(size),
            ..default()
        },
        Transform::from_translation(layout.center_of(sq).extend(3.0)),
        Pickable::default(),
        DespawnOnExit(Screen::Playing),
        children![(
            Name::new("Shadow"),
            Sprite {
                image: art.shadow.clone(),
                custom_size: Some(size * 1.08),
                ..default()
            },
            Transform::from_xyz(offset, -offset, -0.5),
            Pickable::IGNORE,
        )],
    )
}

fn window_size(window: &Query<&Window, With<PrimaryWindow>>) -> Vec2 {
    window
        .single()
        .map(|w| Vec2::new(w.width(), w.height()))
        .unwrap_or(WINDOW)
}

/// Rebuilds every board entity from the position when a game starts, the position jumps, or
/// the window changes size.
#[allow(clippy::too_many_arguments)]
pub fn rebuild_board(
    mut resets: MessageReader<BoardReset>,
    mut resized: MessageReader<WindowResized>,
    mut commands: Commands,
    game: Option<Res<Match>>,
    parts: Query<Entity, With<BoardPart>>,
    art: Res<PieceArt>,
    mut layout: ResMut<BoardLayout>,
    mut generation: ResMut<BoardGeneration>,
    window: Query<&Window, With<PrimaryWindow>>,
    settings: Res<Settings>,
    ui_font: Res<crate::fonts::UiFont>,
    mut drawn_theme: Local<Option<crate::theme::palette::Theme>>,
) {
    // a new theme redraws the board (its coordinates take the theme's colour)
    let themed = drawn_theme.is_some_and(|t| t != settings.theme);
    let reset = resets.read().count() > 0 || themed;
    let resize = resized.read().count() > 0;
    let Some(game) = game else { return };
    let pos = game.position();
    let ui = game.ui();
    let wanted = BoardLayout::for_game(ui, pos.dimensions(), window_size(&window));
    if !(reset || (resize && wanted != *layout)) {
        return;
    }
    for e in &parts {
        commands.entity(e).despawn();
    }
    generation.0 += 1;
    *layout = wanted;
    *drawn_theme = Some(settings.theme);
    palette::set_theme(settings.theme);
    let (w, h) = pos.dimensions();
    let style = ui.board_style();
    let colors = style.colors;
    let board_px = Vec2::new(w as f32, h as f32) * layout.cell;
    let center = layout.origin + board_px / 2.0;
    // lined boards are wood with a margin around the outer lines; the others a frame
    let board = if style.lined {
        Sprite {
            image: art.wood.clone(),
            custom_size: Some(board_px + Vec2::splat(layout.cell * 0.5)),
            ..default()
        }
    } else {
        Sprite::from_color(
            to_bevy(colors.frame),
            board_px + Vec2::splat(layout.cell * 0.12),
        )
    };
    commands.spawn((
        Name::new("Board"),
        BoardPart,
        board,
        Transform::from_translation(center.extend(0.0)),
        DespawnOnExit(Screen::Playing),
    ));
    // dots on the grid's crossings (Othello's four)
    for (gx, gy) in ui.grid_dots() {
        let p = layout.origin + Vec2::new(gx as f32, gy as f32) * layout.cell;
        commands.spawn((
            Name::new("Grid dot"),
            BoardPart,
            Sprite {
                image: art.disc.clone(),
                color: to_bevy(colors.frame),
                custom_size: Some(Vec2::splat((layout.cell * 0.14).max(5.0))),
                ..default()
            },
            Transform::from_translation(p.extend(1.5)),
            DespawnOnExit(Screen::Playing),
        ));
    }
    if style.lined {
        spawn_grid_lines(
            &mut commands,
            &layout,
            (w, h),
            to_bevy(colors.frame),
            &art,
            ui,
        );
    }
    let gap = (layout.cell * 0.04).max(1.0);
    for y in 0..h {
        for x in 0..w {
            let sq = Square::new(x, y);
            let c = pos.cell(sq);
            let color = if style.lined {
                Color::NONE // the lines and the wood show through; the square still takes clicks
            } else if c == Cell::Blocked {
                to_bevy(colors.blocked)
            } else {
                to_bevy(colors.cell)
            };
            commands.spawn((
                Name::new(format!("Cell {}", qi_core::game::square_text(sq))),
                CellTile { square: sq },
                BoardPart,
                Sprite::from_color(color, Vec2::splat(layout.cell - gap)),
                Transform::from_translation(layout.center_of(sq).extend(1.0)),
                Pickable::default(),
                DespawnOnExit(Screen::Playing),
            ));
            if let Cell::Piece(side) = c {
                commands.spawn(piece_bundle(ui, side, sq, &layout, &art));
            }
        }
    }
    // Coordinates along the left and the bottom edge (the top edge when row 1 is at the top).
    let font = (layout.cell * 0.38).clamp(12.0, 16.0);
    // beyond the wood's margin on lined boards, beyond the frame on the others
    let out = if style.lined {
        layout.cell * 0.75 + font * 0.9
    } else {
        layout.cell * 0.5 + font
    };
    for x in 0..w {
        let edge = out;
        let p = layout.center_of(Square::new(x, 0))
            + Vec2::new(0.0, if layout.rank_one_on_top { edge } else { -edge });
        commands.spawn(coord_label(ui.column_label(x), p, font, &ui_font));
    }
    for y in 0..h {
        let p = layout.center_of(Square::new(0, y)) - Vec2::new(out, 0.0);
        commands.spawn(coord_label((y + 1).to_string(), p, font, &ui_font));
    }
}

/// Lines through the points and the star points, for Go and Gomoku.
fn spawn_grid_lines(
    commands: &mut Commands,
    layout: &BoardLayout,
    (w, h): (u8, u8),
    color: Color,
    art: &PieceArt,
    ui: &dyn GameUi,
) {
    // thin lines, as on a real board
    let thick = (layout.cell * 0.03).clamp(1.0, 1.6);
    let first = layout.center_of(Square::new(0, 0));
    let last = layout.center_of(Square::new(w - 1, h - 1));
    for x in 0..w {
        let cx = layout.center_of(Square::new(x, 0)).x;
        commands.spawn((
            Name::new(format!("Line file {x}")),
            BoardPart,
            Sprite::from_color(color, Vec2::new(thick, last.y - first.y + thick)),
            Transform::from_xyz(cx, (first.y + last.y) / 2.0, 0.5),
            DespawnOnExit(Screen::Playing),
        ));
    }
    for y in 0..h {
        let cy = layout.center_of(Square::new(0, y)).y;
        commands.spawn((
            Name::new(format!("Line rank {y}")),
            BoardPart,
            Sprite::from_color(color, Vec2::new(last.x - first.x + thick, thick)),
            Transform::from_xyz((first.x + last.x) / 2.0, cy, 0.5),
            DespawnOnExit(Screen::Playing),
        ));
    }
    for sq in ui.star_points(w) {
        commands.spawn((
            Name::new(format!("Star point {}", qi_core::game::square_text(sq))),
            BoardPart,
            Sprite {
                image: art.disc.clone(),
                color,
                custom_size: Some(Vec2::splat((layout.cell * 0.16).max(4.0))),
                ..default()
            },
            Transform::from_translation(layout.center_of(sq).extend(0.6)),
            DespawnOnExit(Screen::Playing),
        ));
    }
}

fn coord_label(text: String, p: Vec2, size: f32, font: &crate::fonts::UiFont) -> impl Bundle {
    (
        Name::new(format!("Coordinate {text}")),
        BoardPart,
        Text2d::new(text),
        TextFont {
            font: bevy::text::FontSource::Handle(font.0.clone()),
            font_size: FontSize::Px(size),
            ..default()
        },
        TextColor(to_bevy(palette::ui().coordinates)),
        Transform::from_translation(p.extend(2.0)),
        DespawnOnExit(Screen::Playing),
    )
}
