//! The board as entities: a cell entity per square, a piece entity per piece, markers for legal
//! moves and the last move. They are spawned from the core position when a game starts (or the
//! position is reset) and kept in step with it only through `MovePlayed` messages, which also
//! start the animations.

mod art;
mod input;

use bevy::prelude::*;
use bevy_egui::egui;
use qi_core::any::AnyPosition;
use qi_core::{Cell, GameKind, Side, Square};

use crate::game::{BoardReset, Match, MovePlayed};
use crate::screens::Screen;
use crate::settings::Settings;
pub use art::PieceArt;
pub use input::CellClicked;

pub fn plugin(app: &mut App) {
    app.init_resource::<BoardLayout>()
        .add_plugins((art::plugin, input::plugin))
        .add_systems(
            Update,
            (rebuild_board, animate_moves, run_animations, update_markers)
                .chain()
                .run_if(in_state(Screen::Playing)),
        );
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
        BoardLayout::for_board((8, 8))
    }
}

/// The window the layout is planned for; the side panel takes the right part.
pub const WINDOW: Vec2 = Vec2::new(1200.0, 800.0);
pub const SIDE_PANEL: f32 = 300.0;
pub const TOP_BAR: f32 = 64.0;
pub const BOTTOM_BAR: f32 = 30.0;

impl BoardLayout {
    pub fn for_board(size: (u8, u8)) -> BoardLayout {
        let avail_w = WINDOW.x - SIDE_PANEL - 60.0;
        let avail_h = WINDOW.y - TOP_BAR - BOTTOM_BAR - 60.0;
        let cell = (avail_w / size.0 as f32)
            .min(avail_h / size.1 as f32)
            .floor();
        let center = Vec2::new(-SIDE_PANEL / 2.0, (BOTTOM_BAR - TOP_BAR) / 2.0);
        let origin = center - Vec2::new(size.0 as f32, size.1 as f32) * cell / 2.0;
        BoardLayout {
            origin,
            cell,
            size,
            rank_one_on_top: false,
        }
    }

    /// The layout of a game's board: Reversi puts row 1 at the top.
    pub fn for_game(kind: GameKind, size: (u8, u8)) -> BoardLayout {
        BoardLayout {
            rank_one_on_top: kind == GameKind::Reversi,
            ..BoardLayout::for_board(size)
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
}

pub fn piece_color(kind: GameKind, side: Side) -> Color {
    let c = piece_color32(kind, side);
    Color::srgb_u8(c.r(), c.g(), c.b())
}

pub fn piece_color32(kind: GameKind, side: Side) -> egui::Color32 {
    match (kind, side) {
        (GameKind::Ataxx, Side::Black) => egui::Color32::from_rgb(214, 58, 58),
        (GameKind::Ataxx, Side::White) => egui::Color32::from_rgb(52, 112, 222),
        (_, Side::Black) => egui::Color32::from_rgb(22, 22, 24),
        (_, Side::White) => egui::Color32::from_rgb(238, 238, 232),
    }
}

fn board_colors(kind: GameKind) -> (Color, Color, Color) {
    // (background/lines, cell, blocked)
    match kind {
        GameKind::Ataxx => (
            Color::srgb_u8(30, 33, 40),
            Color::srgb_u8(88, 94, 108),
            Color::srgb_u8(40, 36, 40),
        ),
        GameKind::Reversi => (
            Color::srgb_u8(12, 52, 28),
            Color::srgb_u8(34, 120, 66),
            Color::srgb_u8(12, 52, 28),
        ),
        _ => (
            Color::srgb_u8(70, 48, 24),
            Color::srgb_u8(222, 184, 120),
            Color::srgb_u8(70, 48, 24),
        ),
    }
}

/// The bundle for one piece entity.
pub fn piece_bundle(
    kind: GameKind,
    side: Side,
    sq: Square,
    layout: &BoardLayout,
    art: &PieceArt,
) -> impl Bundle {
    let size = Vec2::splat(layout.cell * 0.8);
    (
        Name::new(format!(
            "Piece {:?} {}",
            side,
            qi_core::game::square_text(sq)
        )),
        Piece { side, square: sq },
        BoardPart,
        Sprite {
            image: art.disc.clone(),
            color: piece_color(kind, side),
            custom_size: Some(size),
            ..default()
        },
        Transform::from_translation(layout.center_of(sq).extend(3.0)),
        Pickable::default(),
        DespawnOnExit(Screen::Playing),
    )
}

/// Rebuilds every board entity from the position when a game starts or the position jumps.
pub fn rebuild_board(
    mut resets: MessageReader<BoardReset>,
    mut commands: Commands,
    game: Option<Res<Match>>,
    parts: Query<Entity, With<BoardPart>>,
    art: Res<PieceArt>,
    mut layout: ResMut<BoardLayout>,
) {
    if resets.read().count() == 0 {
        return;
    }
    let Some(game) = game else { return };
    for e in &parts {
        commands.entity(e).despawn();
    }
    let pos = game.position();
    let kind = pos.kind();
    *layout = BoardLayout::for_game(kind, pos.dimensions());
    let (w, h) = pos.dimensions();
    let (bg, cell_color, blocked_color) = board_colors(kind);
    let board_px = Vec2::new(w as f32, h as f32) * layout.cell;
    let center = layout.origin + board_px / 2.0;
    let board_color = if matches!(kind, GameKind::Gomoku | GameKind::Go) {
        cell_color
    } else {
        bg
    };
    commands.spawn((
        Name::new("Board"),
        BoardPart,
        Sprite::from_color(board_color, board_px + Vec2::splat(layout.cell * 0.12)),
        Transform::from_translation(center.extend(0.0)),
        DespawnOnExit(Screen::Playing),
    ));
    let lined = matches!(kind, GameKind::Gomoku | GameKind::Go);
    if lined {
        spawn_grid_lines(&mut commands, &layout, (w, h), bg, &art);
    }
    let gap = (layout.cell * 0.04).max(1.0);
    for y in 0..h {
        for x in 0..w {
            let sq = Square::new(x, y);
            let c = pos.cell(sq);
            let color = if lined {
                Color::NONE // the lines and the wood show through; the square still takes clicks
            } else if c == Cell::Blocked {
                blocked_color
            } else {
                cell_color
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
                commands.spawn(piece_bundle(kind, side, sq, &layout, &art));
            }
        }
    }
    // Coordinates along the left and the bottom edge (the top edge for Reversi, whose row 1 is
    // at the top).
    for x in 0..w {
        let edge = layout.cell * 0.5 + 14.0;
        let p = layout.center_of(Square::new(x, 0))
            + Vec2::new(0.0, if layout.rank_one_on_top { edge } else { -edge });
        let letter = if kind == GameKind::Go {
            // Go columns skip I, as GTP and the game records write them
            let c = b'A' + x + u8::from(x >= 8);
            (c as char).to_string()
        } else {
            ((b'a' + x) as char).to_string()
        };
        commands.spawn(coord_label(letter, p));
    }
    for y in 0..h {
        let p = layout.center_of(Square::new(0, y)) - Vec2::new(layout.cell * 0.5 + 16.0, 0.0);
        commands.spawn(coord_label((y + 1).to_string(), p));
    }
}

/// Lines through the points and the star points, for Go and Gomoku.
fn spawn_grid_lines(
    commands: &mut Commands,
    layout: &BoardLayout,
    (w, h): (u8, u8),
    color: Color,
    art: &PieceArt,
) {
    let thick = (layout.cell * 0.045).clamp(1.0, 2.5);
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
    for sq in star_points(w) {
        commands.spawn((
            Name::new(format!("Star point {}", qi_core::game::square_text(sq))),
            BoardPart,
            Sprite {
                image: art.disc.clone(),
                color,
                custom_size: Some(Vec2::splat(thick * 4.0)),
                ..default()
            },
            Transform::from_translation(layout.center_of(sq).extend(0.6)),
            DespawnOnExit(Screen::Playing),
        ));
    }
}

/// The usual star points (hoshi) of a square board.
pub fn star_points(n: u8) -> Vec<Square> {
    let edge = if n >= 13 { 3 } else { 2 };
    if n < 7 {
        return vec![];
    }
    let (a, m, b) = (edge, n / 2, n - 1 - edge);
    let mut v = vec![
        Square::new(a, a),
        Square::new(a, b),
        Square::new(b, a),
        Square::new(b, b),
    ];
    if n % 2 == 1 {
        v.push(Square::new(m, m));
        if n >= 15 {
            v.extend([
                Square::new(a, m),
                Square::new(b, m),
                Square::new(m, a),
                Square::new(m, b),
            ]);
        }
    }
    v
}

fn coord_label(text: String, p: Vec2) -> impl Bundle {
    (
        Name::new(format!("Coordinate {text}")),
        BoardPart,
        Text2d::new(text),
        TextFont {
            font_size: FontSize::Px(16.0),
            ..default()
        },
        TextColor(Color::srgb(0.75, 0.75, 0.78)),
        Transform::from_translation(p.extend(2.0)),
        DespawnOnExit(Screen::Playing),
    )
}

/// A running animation on a piece.
#[derive(Component, Debug, Clone)]
pub struct Anim {
    pub kind: AnimKind,
    pub delay: f32,
    pub elapsed: f32,
    pub duration: f32,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AnimKind {
    /// Grows from nothing (a clone, a placed disc).
    Grow,
    /// Travels from a point (an Ataxx jump).
    Travel { from: Vec2, to: Vec2 },
    /// Turns over to the other colour.
    Flip { to: Color },
    /// Fades out and is removed (a captured stone).
    FadeOut,
}

const BASE_DURATION: f32 = 0.28;

/// Turns each played move into piece changes and their animations.
pub fn animate_moves(
    mut played: MessageReader<MovePlayed>,
    mut commands: Commands,
    mut pieces: Query<(Entity, &mut Piece, &mut Sprite, &mut Transform)>,
    layout: Res<BoardLayout>,
    art: Res<PieceArt>,
    settings: Res<Settings>,
) {
    for m in played.read() {
        let kind = m.before.kind();
        let speed = settings.animation_speed;
        let dur = |d: f32| if speed <= 0.0 { 0.0 } else { d / speed };
        let squares = m.before.move_squares(m.mv);
        let Some(to) = squares.to else { continue };
        let jump_from = squares
            .from
            .filter(|f| *f != to && m.before.cell(*f) == Cell::Piece(m.side));
        let jump_from = jump_from.filter(|f| {
            let mut after = m.before.clone();
            after.play(m.mv).is_ok() && after.cell(*f) == Cell::Empty
        });
        for (sq, _was, now) in m.before.changes(m.mv) {
            let dist = (sq.x as i32 - to.x as i32)
                .abs()
                .max((sq.y as i32 - to.y as i32).abs()) as f32;
            let existing = pieces.iter_mut().find(|(_, p, _, _)| p.square == sq);
            match (existing, now) {
                (Some((e, mut piece, _sprite, _t)), Cell::Piece(side)) => {
                    piece.side = side;
                    commands.entity(e).insert(Anim {
                        kind: AnimKind::Flip {
                            to: piece_color(kind, side),
                        },
                        delay: dur(BASE_DURATION * 0.6 + 0.07 * dist),
                        elapsed: 0.0,
                        duration: dur(BASE_DURATION),
                    });
                }
                (Some((e, ..)), _) if Some(sq) == jump_from => {
                    // the jumping piece leaves; its entity travels (handled at the target)
                    commands.entity(e).despawn();
                }
                (Some((e, ..)), _) => {
                    commands.entity(e).insert(Anim {
                        kind: AnimKind::FadeOut,
                        delay: 0.0,
                        elapsed: 0.0,
                        duration: dur(BASE_DURATION),
                    });
                }
                (None, Cell::Piece(side)) => {
                    let anim = if let Some(from) = jump_from.filter(|_| sq == to) {
                        AnimKind::Travel {
                            from: layout.center_of(from),
                            to: layout.center_of(sq),
                        }
                    } else {
                        AnimKind::Grow
                    };
                    let mut entity = commands.spawn(piece_bundle(kind, side, sq, &layout, &art));
                    entity.insert(Anim {
                        kind: anim,
                        delay: 0.0,
                        elapsed: 0.0,
                        duration: dur(BASE_DURATION * 1.3),
                    });
                    if let AnimKind::Travel { from, .. } = anim {
                        entity.insert(Transform::from_translation(from.extend(4.0)));
                    } else {
                        entity.insert(
                            Transform::from_translation(layout.center_of(sq).extend(3.0))
                                .with_scale(Vec3::splat(0.01)),
                        );
                    }
                }
                (None, _) => {}
            }
        }
    }
}

/// Advances the animations; a finished one leaves the piece at rest.
pub fn run_animations(
    time: Res<Time>,
    mut commands: Commands,
    mut q: Query<(Entity, &mut Anim, &mut Sprite, &mut Transform, &Piece)>,
    layout: Res<BoardLayout>,
) {
    let dt = time.delta_secs();
    for (e, mut a, mut sprite, mut t, piece) in &mut q {
        a.elapsed += dt;
        let local = a.elapsed - a.delay;
        let done = local >= a.duration;
        let f = if a.duration <= 0.0 {
            1.0
        } else {
            (local / a.duration).clamp(0.0, 1.0)
        };
        let ease = f * f * (3.0 - 2.0 * f);
        let rest = layout.center_of(piece.square).extend(3.0);
        match a.kind {
            AnimKind::Grow => t.scale = Vec3::splat(if done { 1.0 } else { ease.max(0.01) }),
            AnimKind::Travel { from, to } => {
                t.translation = if done {
                    rest
                } else {
                    from.lerp(to, ease).extend(4.0)
                };
            }
            AnimKind::Flip { to } => {
                if local <= 0.0 {
                    continue;
                }
                let sx = (f * std::f32::consts::PI).cos().abs();
                t.scale = Vec3::new(if done { 1.0 } else { sx.max(0.02) }, 1.0, 1.0);
                if f >= 0.5 || done {
                    sprite.color = to;
                }
            }
            AnimKind::FadeOut => {
                sprite.color = sprite.color.with_alpha(1.0 - f);
                if done {
                    commands.entity(e).despawn();
                    continue;
                }
            }
        }
        if done {
            t.scale = Vec3::ONE;
            t.translation = rest;
            commands.entity(e).remove::<Anim>();
        }
    }
}

/// What the markers depend on: they are rebuilt when it changes.
type MarkerKey = (
    u64,
    usize,
    Option<Square>,
    bool,
    bool,
    Option<qi_core::any::AnyMove>,
    Option<Vec<Square>>,
);

/// Shows legal moves (if the setting is on), the Ataxx selection with its clone and jump
/// targets, and the last move.
pub fn update_markers(
    mut commands: Commands,
    game: Option<Res<Match>>,
    settings: Res<Settings>,
    markers: Query<Entity, With<Marker>>,
    art: Res<PieceArt>,
    layout: Res<BoardLayout>,
    mut last_key: Local<Option<MarkerKey>>,
    animating: Query<(), With<Anim>>,
) {
    let Some(game) = game else { return };
    let busy = !animating.is_empty();
    let key = (
        game.position().hash(),
        game.history.ply(),
        game.selected,
        settings.show_legal_moves,
        busy,
        game.hint,
        game.dead_marking.clone(),
    );
    if last_key.as_ref() == Some(&key) {
        return;
    }
    *last_key = Some(key);
    for e in &markers {
        commands.entity(e).despawn();
    }
    let pos = game.position();
    let spawn = |commands: &mut Commands, sq: Square, m: Marker| {
        let (color, scale, image) = match m {
            Marker::Legal => (Color::srgba(1.0, 1.0, 1.0, 0.28), 0.3, art.disc.clone()),
            Marker::CloneTarget => (Color::srgba(0.35, 1.0, 0.45, 0.55), 0.4, art.disc.clone()),
            Marker::JumpTarget => (Color::srgba(1.0, 0.85, 0.25, 0.8), 0.55, art.ring.clone()),
            Marker::Selected => (Color::srgba(1.0, 1.0, 0.3, 0.9), 0.95, art.ring.clone()),
            Marker::LastMove => (Color::srgba(1.0, 0.55, 0.1, 0.9), 0.25, art.disc.clone()),
            Marker::Hint => (Color::srgba(0.3, 0.95, 1.0, 0.95), 0.9, art.ring.clone()),
            Marker::Forbidden => (Color::srgba(0.9, 0.1, 0.1, 0.85), 0.3, art.cross.clone()),
            Marker::Winning => (Color::srgba(1.0, 0.2, 0.2, 1.0), 0.98, art.ring.clone()),
            Marker::Dead => (Color::srgba(1.0, 0.25, 0.2, 0.95), 0.6, art.cross.clone()),
            // small squares, as Go programs show the area
            Marker::AreaBlack => (Color::srgba(0.05, 0.05, 0.05, 1.0), 0.32, Handle::default()),
            Marker::AreaWhite => (Color::srgba(0.97, 0.97, 0.97, 1.0), 0.32, Handle::default()),
        };
        let z = if matches!(
            m,
            Marker::LastMove | Marker::Selected | Marker::Hint | Marker::Winning | Marker::Dead
        ) {
            5.0
        } else if matches!(m, Marker::AreaBlack | Marker::AreaWhite) {
            4.0
        } else {
            2.0
        };
        commands.spawn((
            Name::new(format!("Marker {m:?} {}", qi_core::game::square_text(sq))),
            m,
            BoardPart,
            Sprite {
                image,
                color,
                custom_size: Some(Vec2::splat(layout.cell * scale)),
                ..default()
            },
            Transform::from_translation(layout.center_of(sq).extend(z)),
            Pickable::IGNORE,
            DespawnOnExit(Screen::Playing),
        ));
    };
    if let Some(last) = game.history.last_move() {
        if let Some(prev) = game.history.previous() {
            if let Some(to) = prev.move_squares(last).to {
                spawn(&mut commands, to, Marker::LastMove);
            }
        }
    }
    for &sq in game.dead_marking.iter().flatten() {
        spawn(&mut commands, sq, Marker::Dead);
    }
    // Go after two passes: the area each side counts, with the stones marked dead taken off
    if let (Some(go), Some(score)) = (pos.as_go(), game.marked_score())
        && game.dead_marking.is_some()
    {
        let n = go.size();
        for y in 0..n {
            for x in 0..n {
                let sq = Square::new(x, y);
                let Some(side) = score.owner[y as usize * n as usize + x as usize] else {
                    continue;
                };
                let stone = pos.cell(sq);
                if stone == qi_core::Cell::Piece(side) {
                    continue; // a living stone counts for its side anyway
                }
                let m = if side == Side::Black {
                    Marker::AreaBlack
                } else {
                    Marker::AreaWhite
                };
                spawn(&mut commands, sq, m);
            }
        }
    }
    if !busy {
        for sq in pos.winning_line().unwrap_or_default() {
            spawn(&mut commands, sq, Marker::Winning);
        }
    }
    if busy || !game.human_to_move() {
        return;
    }
    for sq in pos.forbidden_points() {
        spawn(&mut commands, sq, Marker::Forbidden);
    }
    if let Some(h) = game.hint {
        let s = pos.move_squares(h);
        for sq in [s.from, s.to].into_iter().flatten() {
            spawn(&mut commands, sq, Marker::Hint);
        }
    }
    for (sq, m) in legal_markers(pos, game.selected, settings.show_legal_moves) {
        spawn(&mut commands, sq, m);
    }
}

/// Which squares to highlight, and how.
pub fn legal_markers(
    pos: &AnyPosition,
    selected: Option<Square>,
    show_legal: bool,
) -> Vec<(Square, Marker)> {
    let mut out = Vec::new();
    let moves = pos.legal_moves();
    if let Some(sel) = selected {
        out.push((sel, Marker::Selected));
        for mv in &moves {
            let s = pos.move_squares(*mv);
            if let (Some(from), Some(to)) = (s.from, s.to) {
                if from == sel && to != sel {
                    out.push((to, Marker::JumpTarget));
                } else if from == to && is_next_to(sel, to) {
                    out.push((to, Marker::CloneTarget));
                }
            }
        }
        return out;
    }
    if show_legal && matches!(pos.kind(), GameKind::Ataxx | GameKind::Reversi) {
        let mut seen = std::collections::HashSet::new();
        for mv in &moves {
            if let Some(to) = pos.move_squares(*mv).to {
                if seen.insert(to) {
                    out.push((to, Marker::Legal));
                }
            }
        }
    }
    out
}

pub fn is_next_to(a: Square, b: Square) -> bool {
    a != b && (a.x as i32 - b.x as i32).abs() <= 1 && (a.y as i32 - b.y as i32).abs() <= 1
}
