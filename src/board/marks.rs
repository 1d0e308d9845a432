//! The marks on the board: legal moves, the selection and its targets, the last move, the
//! hint, the ko point, Go's scoring marks, the winning line, and move numbers on the pieces.

use bevy::prelude::*;
use qi_core::{Cell, Side, Square};

use super::{Anim, BoardGeneration, BoardLayout, BoardPart, GameMarks, Marker, PieceArt};
use crate::game::{Hint, Match, Selection};
use crate::screens::Screen;
use crate::settings::Settings;
use crate::theme::palette::{self, to_bevy};

/// A move number drawn on a piece.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveNumber(pub usize);

/// The number of the move that put each piece on the board now (the latest, where a point was
/// played more than once).
pub fn move_numbers_of(game: &Match) -> Vec<(Square, usize)> {
    let mut at: std::collections::BTreeMap<Square, usize> = Default::default();
    let moves = game.history.moves();
    for (i, mv) in moves.iter().enumerate() {
        let before = game.history.position_at(i);
        if let Some(to) = before.move_squares(*mv).to {
            at.insert(to, i + 1);
        }
    }
    let pos = game.position();
    at.into_iter()
        .filter(|(sq, _)| matches!(pos.cell(*sq), Cell::Piece(_)))
        .collect()
}

/// Draws the move numbers on the pieces when the game shows them (Gomoku by default).
#[allow(clippy::too_many_arguments)]
pub(super) fn update_move_numbers(
    mut commands: Commands,
    game: Option<Res<Match>>,
    settings: Res<Settings>,
    generation: Res<BoardGeneration>,
    layout: Res<BoardLayout>,
    numbers: Query<Entity, With<MoveNumber>>,
    anims: Query<(), With<Anim>>,
    mut last: Local<Option<(u64, usize, u64, bool)>>,
) {
    let Some(game) = game else { return };
    let on = settings.move_numbers(game.kind());
    let key = (game.position().hash(), game.history.ply(), generation.0, on);
    if *last == Some(key) || !anims.is_empty() {
        return;
    }
    *last = Some(key);
    for e in &numbers {
        commands.entity(e).despawn();
    }
    if !on {
        return;
    }
    let pos = game.position();
    let size = (layout.cell * 0.36).clamp(8.0, 18.0);
    for (sq, n) in move_numbers_of(&game) {
        let color = match pos.cell(sq) {
            Cell::Piece(Side::Black) => palette::NUMBER_ON_DARK,
            _ => palette::NUMBER_ON_LIGHT,
        };
        commands.spawn((
            Name::new(format!("Move number {n}")),
            MoveNumber(n),
            BoardPart,
            Text2d::new(n.to_string()),
            TextFont {
                font_size: FontSize::Px(size),
                ..default()
            },
            TextColor(to_bevy(color)),
            // above the marks, so a winning line or the last-move ring never hides a number
            Transform::from_translation(layout.center_of(sq).extend(6.0)),
            Pickable::IGNORE,
            DespawnOnExit(Screen::Playing),
        ));
    }
}

/// What the markers depend on: they are rebuilt when it changes.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct MarkerKey {
    hash: u64,
    ply: usize,
    selected: Option<Square>,
    show_legal: bool,
    busy: bool,
    hint: Option<qi_core::any::AnyMove>,
    marks: Vec<(Square, Marker)>,
    generation: u64,
    can_play: bool,
}

/// Which marks the position gets now: the last move, the game's own marks (Go's scoring), the
/// winning row, the ko point, and for the person to move the hint, the legal moves and the
/// selection.
pub fn markers_for(
    game: &Match,
    selection: Option<Square>,
    hint: Option<qi_core::any::AnyMove>,
    show_legal: bool,
    game_marks: &[(Square, Marker)],
    busy: bool,
) -> Vec<(Square, Marker)> {
    let pos = game.position();
    let ui = game.ui();
    let mut out = Vec::new();
    if let (Some(last), Some(prev)) = (game.history.last_move(), game.history.previous())
        && let Some(to) = prev.move_squares(last).to
    {
        out.push((to, Marker::LastMove));
    }
    out.extend_from_slice(game_marks);
    if busy {
        return out;
    }
    for sq in pos.winning_line().unwrap_or_default() {
        out.push((sq, Marker::Winning));
    }
    if let Some(ko) = ui.ko_point(pos) {
        out.push((ko, Marker::Ko));
    }
    if !game.human_to_move() {
        return out;
    }
    if let Some(h) = hint {
        let s = pos.move_squares(h);
        for sq in [s.from, s.to].into_iter().flatten() {
            out.push((sq, Marker::Hint));
        }
    }
    out.extend(ui.move_markers(pos, selection, show_legal));
    out
}

/// Draws the markers again whenever what they show changes.
#[allow(clippy::too_many_arguments)]
pub(super) fn update_markers(
    mut commands: Commands,
    game: Option<Res<Match>>,
    settings: Res<Settings>,
    selection: Res<Selection>,
    hint: Res<Hint>,
    game_marks: Res<GameMarks>,
    generation: Res<BoardGeneration>,
    markers: Query<Entity, With<Marker>>,
    art: Res<PieceArt>,
    layout: Res<BoardLayout>,
    mut last_key: Local<Option<MarkerKey>>,
    animating: Query<(), With<Anim>>,
) {
    let Some(game) = game else { return };
    let busy = !animating.is_empty();
    let key = MarkerKey {
        hash: game.position().hash(),
        ply: game.history.ply(),
        selected: selection.0,
        show_legal: settings.show_legal_moves,
        busy,
        hint: hint.0,
        marks: game_marks.0.clone(),
        generation: generation.0,
        can_play: game.human_to_move(),
    };
    if last_key.as_ref() == Some(&key) {
        return;
    }
    *last_key = Some(key);
    for e in &markers {
        commands.entity(e).despawn();
    }
    let list = markers_for(
        &game,
        selection.0,
        hint.0,
        settings.show_legal_moves,
        &game_marks.0,
        busy,
    );
    // a line through the winning row
    if let Some(line) = game.position().winning_line().filter(|l| l.len() >= 2) {
        let (a, b) = (
            layout.center_of(line[0]),
            layout.center_of(line[line.len() - 1]),
        );
        let d = b - a;
        commands.spawn((
            Name::new("Winning line"),
            Marker::Winning,
            BoardPart,
            Sprite::from_color(
                to_bevy(palette::WINNING),
                Vec2::new(
                    d.length() + layout.cell * 0.5,
                    (layout.cell * 0.08).max(3.0),
                ),
            ),
            Transform::from_translation(((a + b) / 2.0).extend(5.5))
                .with_rotation(Quat::from_rotation_z(d.y.atan2(d.x))),
            Pickable::IGNORE,
            DespawnOnExit(Screen::Playing),
        ));
    }
    for (sq, m) in list {
        let (color, scale, image) = match m {
            Marker::Legal => (palette::LEGAL, 0.3, art.disc.clone()),
            Marker::CloneTarget => (palette::CLONE_TARGET, 0.4, art.disc.clone()),
            Marker::JumpTarget => (palette::JUMP_TARGET, 0.55, art.ring.clone()),
            Marker::Selected => (palette::SELECTED, 0.95, art.ring.clone()),
            // a ring that shows on black and white stones alike
            Marker::LastMove => (palette::LAST_MOVE, 0.5, art.ring.clone()),
            Marker::Hint => (palette::HINT, 0.9, art.ring.clone()),
            Marker::Forbidden => (palette::FORBIDDEN, 0.3, art.cross.clone()),
            Marker::Winning => (palette::WINNING, 0.98, art.ring.clone()),
            Marker::Dead => (palette::DEAD, 0.4, art.cross.clone()),
            Marker::Ko => (palette::KO, 0.45, art.ring.clone()),
            // small squares, as Go programs show the area
            Marker::AreaBlack => (palette::AREA_BLACK, 0.3, Handle::default()),
            Marker::AreaWhite => (palette::AREA_WHITE, 0.3, Handle::default()),
        };
        let z = match m {
            Marker::LastMove
            | Marker::Selected
            | Marker::Hint
            | Marker::Winning
            | Marker::Dead
            | Marker::Ko => 5.0,
            Marker::AreaBlack | Marker::AreaWhite => 4.0,
            _ => 2.0,
        };
        commands.spawn((
            Name::new(format!("Marker {m:?} {}", qi_core::game::square_text(sq))),
            m,
            BoardPart,
            Sprite {
                image,
                color: to_bevy(color),
                custom_size: Some(Vec2::splat(layout.cell * scale)),
                ..default()
            },
            Transform::from_translation(layout.center_of(sq).extend(z)),
            Pickable::IGNORE,
            DespawnOnExit(Screen::Playing),
        ));
    }
}
