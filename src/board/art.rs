//! Piece images drawn at start-up: an anti-aliased white disc and a ring, tinted per piece by
//! the sprite colour. Nothing is loaded from disk.

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

pub fn plugin(app: &mut App) {
    app.init_resource::<PieceArt>()
        .add_systems(Startup, draw_piece_art);
}

#[derive(Resource, Default, Clone)]
pub struct PieceArt {
    pub disc: Handle<Image>,
    pub ring: Handle<Image>,
    pub cross: Handle<Image>,
}

const SIZE: u32 = 128;

/// Coverage of a pixel by an annulus from radius `inner` to `outer` (in pixels), with a
/// one-pixel soft edge; a slight shade towards the bottom-right gives the disc some depth.
pub fn shape_pixels(inner: f32, outer: f32, shade: bool) -> Vec<u8> {
    let c = SIZE as f32 / 2.0;
    let mut data = Vec::with_capacity((SIZE * SIZE * 4) as usize);
    for y in 0..SIZE {
        for x in 0..SIZE {
            let (dx, dy) = (x as f32 + 0.5 - c, y as f32 + 0.5 - c);
            let d = (dx * dx + dy * dy).sqrt();
            let a = (outer - d + 0.5).clamp(0.0, 1.0) * (d - inner + 0.5).clamp(0.0, 1.0);
            let light = if shade {
                (1.0 - 0.18 * ((dx + dy) / (2.0 * c)).max(0.0) - 0.1 * (d / c)).clamp(0.0, 1.0)
            } else {
                1.0
            };
            let v = (255.0 * light) as u8;
            data.extend_from_slice(&[v, v, v, (a * 255.0) as u8]);
        }
    }
    data
}

/// An X, for forbidden points.
pub fn cross_pixels() -> Vec<u8> {
    let mut data = Vec::with_capacity((SIZE * SIZE * 4) as usize);
    let s = SIZE as f32;
    for y in 0..SIZE {
        for x in 0..SIZE {
            let (fx, fy) = (x as f32 + 0.5, y as f32 + 0.5);
            let d = ((fx - fy).abs()).min((fx + fy - s).abs()) / std::f32::consts::SQRT_2;
            let inside = fx > 8.0 && fx < s - 8.0 && fy > 8.0 && fy < s - 8.0;
            let a = if inside {
                (10.0 - d).clamp(0.0, 1.0)
            } else {
                0.0
            };
            data.extend_from_slice(&[255, 255, 255, (a * 255.0) as u8]);
        }
    }
    data
}

fn draw_piece_art(images: Option<ResMut<Assets<Image>>>, mut art: ResMut<PieceArt>) {
    let Some(mut images) = images else { return };
    let make = |data: Vec<u8>| {
        Image::new(
            Extent3d {
                width: SIZE,
                height: SIZE,
                depth_or_array_layers: 1,
            },
            TextureDimension::D2,
            data,
            TextureFormat::Rgba8UnormSrgb,
            RenderAssetUsages::MAIN_WORLD | RenderAssetUsages::RENDER_WORLD,
        )
    };
    let r = SIZE as f32 / 2.0 - 2.0;
    art.disc = images.add(make(shape_pixels(-1.0, r, true)));
    art.ring = images.add(make(shape_pixels(r - 12.0, r, false)));
    art.cross = images.add(make(cross_pixels()));
}
