//! Animations of the pieces: a placed piece grows, a jumping one travels, a captured one turns
//! over or fades out. `MovePlayed` carries the changes; these systems turn them into motion.

use bevy::prelude::*;
use qi_core::Cell;

use super::{BoardLayout, Piece, PieceArt, piece_bundle, piece_color};
use crate::game::MovePlayed;
use crate::games::ui_of;
use crate::settings::Settings;

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

/// Turns each played move's changes into piece changes and their animations.
pub fn animate_moves(
    mut played: MessageReader<MovePlayed>,
    mut commands: Commands,
    mut pieces: Query<(Entity, &mut Piece)>,
    layout: Res<BoardLayout>,
    art: Res<PieceArt>,
    settings: Res<Settings>,
) {
    for m in played.read() {
        let ui = ui_of(m.before.kind());
        let speed = settings.animation_speed;
        let dur = |d: f32| if speed <= 0.0 { 0.0 } else { d / speed };
        let squares = m.before.move_squares(m.mv);
        let Some(to) = squares.to else { continue };
        // a jump: the piece leaves the square it came from
        let jump_from = squares.from.filter(|f| {
            *f != to
                && m.changes
                    .iter()
                    .any(|(sq, a, b)| sq == f && *a == Cell::Piece(m.side) && *b == Cell::Empty)
        });
        for &(sq, _was, now) in &m.changes {
            let dist = (sq.x as i32 - to.x as i32)
                .abs()
                .max((sq.y as i32 - to.y as i32).abs()) as f32;
            let existing = pieces.iter_mut().find(|(_, p)| p.square == sq);
            match (existing, now) {
                (Some((e, mut piece)), Cell::Piece(side)) => {
                    piece.side = side;
                    commands.entity(e).insert(Anim {
                        kind: AnimKind::Flip {
                            to: piece_color(ui, side),
                        },
                        delay: dur(BASE_DURATION * 0.6 + 0.07 * dist),
                        elapsed: 0.0,
                        duration: dur(BASE_DURATION),
                    });
                }
                (Some((e, _)), _) if Some(sq) == jump_from => {
                    // the jumping piece leaves; its entity travels (handled at the target)
                    commands.entity(e).despawn();
                }
                (Some((e, _)), _) => {
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
                    let mut entity = commands.spawn(piece_bundle(ui, side, sq, &layout, &art));
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
