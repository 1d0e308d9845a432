//! Qi, the game window: Bevy app with egui menus. The rules and the AI live in `qi_core`; this
//! crate turns the core's positions into entities and the player's input into moves.

pub mod audio;
pub mod board;
pub mod cli;
pub mod cpu;
pub mod game;
pub mod hud;
pub mod menus;
pub mod replay;
pub mod results;
pub mod saves;
pub mod screens;
pub mod screenshot;
pub mod settings;

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_egui::EguiPlugin;

use cli::Args;

/// The whole app, with a window.
pub fn build_app(args: Args) -> App {
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: "Qi".into(),
                    resolution: WindowResolution::from((
                        board::WINDOW.x as u32,
                        board::WINDOW.y as u32,
                    )),
                    ..default()
                }),
                ..default()
            })
            .set(bevy::log::LogPlugin {
                filter: "wgpu=error,naga=warn,bevy_render=info,qi=info".into(),
                ..default()
            }),
    )
    .add_plugins(EguiPlugin::default())
    .insert_resource(ClearColor(Color::srgb_u8(22, 24, 30)))
    // Cells of Go and Gomoku boards are invisible squares that still take clicks.
    .insert_resource(bevy::sprite::SpritePickingSettings {
        picking_mode: bevy::sprite::SpritePickingMode::BoundingBox,
        ..default()
    });
    if let Some(speed) = args.animation_speed {
        app.insert_resource(settings::Settings {
            animation_speed: speed.max(0.0),
            ..default()
        });
    }
    app.insert_resource(args);
    app.add_systems(Startup, spawn_camera);
    app.add_plugins(plugin);
    app
}

/// Every plugin of the game (the caller adds Bevy's own).
pub fn plugin(app: &mut App) {
    app.add_plugins((
        settings::plugin,
        screens::plugin,
        menus::plugin,
        saves::plugin,
        game::plugin,
        board::plugin,
        cpu::plugin,
        hud::plugin,
        audio::plugin,
        screenshot::plugin,
        replay::plugin,
        results::plugin,
        start_from_args,
    ));
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((Name::new("Camera"), Camera2d));
}

/// `qi --game ataxx …` starts straight into a game.
fn start_from_args(app: &mut App) {
    app.add_systems(
        Startup,
        |args: Option<Res<Args>>, mut start: MessageWriter<menus::StartMatch>| {
            let Some(args) = args else { return };
            let Some(kind) = args.game else { return };
            let mut model = menus::panels::NewGameModel {
                kind,
                level: args.level,
                ..Default::default()
            };
            model.mode = match args.mode {
                cli::ModeArg::Cpu => menus::panels::Mode::VsCpu,
                cli::ModeArg::Two => menus::panels::Mode::TwoPlayers,
                cli::ModeArg::CpuVsCpu => menus::panels::Mode::CpuVsCpu,
            };
            model.color = match args.color {
                cli::ColorArg::Black => menus::panels::ColorChoice::First,
                cli::ColorArg::White => menus::panels::ColorChoice::Second,
                cli::ColorArg::Random => menus::panels::ColorChoice::Random,
            };
            let mut setup = model.setup();
            if let Some(fen) = &args.fen {
                setup.start_text = Some(fen.clone());
            }
            start.write(menus::StartMatch(setup));
        },
    );
}
