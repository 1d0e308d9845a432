//! Piece and board images drawn at start-up: an anti-aliased white disc and a ring (tinted per
//! piece by the sprite colour), shaded Go stones with a highlight, a soft shadow, and a wooden
//! board texture with grain. Nothing is loaded from disk: the pictures are made by the code
//! below, so there is no generated file to keep in step.

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
    /// Go and Gomoku stones: shaded, with a highlight up and to the left.
    pub black_stone: Handle<Image>,
    pub white_stone: Handle<Image>,
    /// A soft round shadow, drawn under a stone a little down and to the right.
    pub shadow: Handle<Image>,
    /// Wood with grain, for the boards of Go and Gomoku.
    pub wood: Handle<Image>,
}

/// A shaded stone: `base` and `light` are the colours at the rim and at the highlight
/// (sRGB, 0-255), with an anti-aliased edge.
pub fn stone_pixels(base: [f32; 3], light: [f32; 3]) -> Vec<u8> {
    let c = SIZE as f32 / 2.0;
    let r = c - 2.0;
    let (hx, hy) = (c - 0.35 * r, c - 0.38 * r);
    let mut data = Vec::with_capacity((SIZE * SIZE * 4) as usize);
    for y in 0..SIZE {
        for x in 0..SIZE {
            let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
            let d = ((px - c).powi(2) + (py - c).powi(2)).sqrt();
            let a = (r - d + 0.5).clamp(0.0, 1.0);
            // distance from the highlight, 0 there and 1 at the far rim
            let h = (((px - hx).powi(2) + (py - hy).powi(2)).sqrt() / (1.6 * r)).clamp(0.0, 1.0);
            let t = (1.0 - h).powf(2.2);
            let mut rgb = [0u8; 3];
            for i in 0..3 {
                rgb[i] = (base[i] + (light[i] - base[i]) * t).clamp(0.0, 255.0) as u8;
            }
            data.extend_from_slice(&[rgb[0], rgb[1], rgb[2], (a * 255.0) as u8]);
        }
    }
    data
}

/// A soft shadow: black, most opaque in the middle, fading to nothing at the rim.
pub fn shadow_pixels() -> Vec<u8> {
    let c = SIZE as f32 / 2.0;
    let mut data = Vec::with_capacity((SIZE * SIZE * 4) as usize);
    for y in 0..SIZE {
        for x in 0..SIZE {
            let d = ((x as f32 + 0.5 - c).powi(2) + (y as f32 + 0.5 - c).powi(2)).sqrt() / c;
            let a = (1.0 - d).clamp(0.0, 1.0).powf(0.8) * 0.45;
            data.extend_from_slice(&[0, 0, 0, (a * 255.0) as u8]);
        }
    }
    data
}

/// Wood: a warm base with long, gently waving grain lines and a little fine noise (the same
/// picture every run).
pub fn wood_pixels(size: u32) -> Vec<u8> {
    let mut data = Vec::with_capacity((size * size * 4) as usize);
    let base = [220.0f32, 179.0, 112.0];
    for y in 0..size {
        for x in 0..size {
            let (fx, fy) = (x as f32 / size as f32, y as f32 / size as f32);
            let wave = (fy * 9.0 + (fx * 3.1).sin() * 0.6 + (fx * 11.0).sin() * 0.08).sin();
            let grain = (fy * 61.0 + (fx * 5.0 + fy * 3.0).sin() * 2.2).sin();
            let (_, n) = qi_core::zobrist::splitmix64((y as u64) << 20 | x as u64);
            let noise = (n >> 56) as f32 / 255.0 - 0.5;
            let shade = 1.0 + 0.045 * wave + 0.035 * grain + 0.025 * noise;
            for b in base {
                data.push((b * shade).clamp(0.0, 255.0) as u8);
            }
            data.push(255);
        }
    }
    data
}

const SIZE: u32 = 128;
const WOOD_SIZE: u32 = 512;

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
    let make_sized = |data: Vec<u8>, size: u32| {
        Image::new(
            Extent3d {
                width: size,
                height: size,
                depth_or_array_layers: 1,
            },
            TextureDimension::D2,
            data,
            TextureFormat::Rgba8UnormSrgb,
            RenderAssetUsages::MAIN_WORLD | RenderAssetUsages::RENDER_WORLD,
        )
    };
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
    art.black_stone = images.add(make(stone_pixels(
        [14.0, 14.0, 16.0],
        [105.0, 105.0, 112.0],
    )));
    art.white_stone = images.add(make(stone_pixels(
        [196.0, 196.0, 190.0],
        [255.0, 255.0, 252.0],
    )));
    art.shadow = images.add(make(shadow_pixels()));
    art.wood = images.add(make_sized(wood_pixels(WOOD_SIZE), WOOD_SIZE));
}
