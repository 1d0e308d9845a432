//! Qi, the game window: Bevy app with egui menus. The rules and the AI live in `qi_core`; this
//! crate turns the core's positions into entities and the player's input into moves.

#[macro_use]
pub mod i18n;

pub mod analysis;
pub mod audio;
pub mod board;
pub mod cli;
pub mod clock;
pub mod cpu;
pub mod fonts;
pub mod game;
pub mod games;
pub mod hud;
pub mod menus;
pub mod online;
pub mod openings;
pub mod replay;
pub mod results;
pub mod saves;
pub mod screens;
pub mod screenshot;
pub mod settings;
pub mod theme;

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
                    resizable: true,
                    resize_constraints: bevy::window::WindowResizeConstraints {
                        min_width: board::MIN_WINDOW.x,
                        min_height: board::MIN_WINDOW.y,
                        ..default()
                    },
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
    .insert_resource(ClearColor(theme::palette::to_bevy(
        theme::palette::ui().clear,
    )))
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

/// The order of the app's work in a frame: the player's input becomes requests, the requests
/// change the game, the game's own follow-ups run (a scoring phase), then the board and the HUD
/// show the result.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppSet {
    Input,
    Apply,
    Follow,
    Present,
}

/// Every plugin of the game (the caller adds Bevy's own).
pub fn plugin(app: &mut App) {
    app.configure_sets(
        Update,
        (
            AppSet::Input,
            AppSet::Apply,
            AppSet::Follow,
            AppSet::Present,
        )
            .chain(),
    );
    app.add_systems(Update, toggle_fullscreen);
    app.init_resource::<ClearColor>();
    app.add_plugins((
        games::plugin,
        (theme::plugin, fonts::plugin),
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
        (replay::plugin, analysis::plugin, openings::plugin),
        (results::plugin, clock::plugin, online::plugin),
        start_from_args,
    ));
}

/// F11 switches between a window and borderless fullscreen.
fn toggle_fullscreen(
    keys: Res<ButtonInput<KeyCode>>,
    mut windows: Query<&mut Window, With<bevy::window::PrimaryWindow>>,
) {
    if !keys.just_pressed(KeyCode::F11) {
        return;
    }
    for mut w in &mut windows {
        w.mode = match w.mode {
            bevy::window::WindowMode::Windowed => bevy::window::WindowMode::BorderlessFullscreen(
                bevy::window::MonitorSelection::Current,
            ),
            _ => bevy::window::WindowMode::Windowed,
        };
        info!("qi: window mode {:?}", w.mode);
    }
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((Name::new("Camera"), Camera2d));
}

/// `qi --game ataxx …` starts straight into a game.
fn start_from_args(app: &mut App) {
    app.add_systems(
        Startup,
        |args: Option<Res<Args>>,
         mut start: MessageWriter<menus::StartMatch>,
         mut load: MessageWriter<menus::LoadMatch>,
         mut main_menu: ResMut<menus::main_menu::MainMenuModel>,
         settings: Option<Res<settings::Settings>>| {
            let Some(args) = args else { return };
            if let Some(path) = &args.record {
                let label = path.file_name().map_or_else(
                    || path.display().to_string(),
                    |n| n.to_string_lossy().into(),
                );
                match qi_core::records::read_record(path)
                    .and_then(|r| replay::replay_match(&r, &label))
                {
                    Ok(mut m) => {
                        let last = m.history.all_moves().len();
                        m.history.go_to(args.at.unwrap_or(last).min(last));
                        info!("qi: replay {label} at move {}", m.history.ply());
                        load.write(menus::LoadMatch(Box::new(m)));
                    }
                    Err(e) => {
                        // the player is told on the main menu, which opens instead
                        error!("qi: cannot open {}: {e}", path.display());
                        main_menu.notice = Some(t!(
                            "cannot-open",
                            name = label.as_str(),
                            why = replay::record_error_text(&e)
                        ));
                    }
                }
                return;
            }
            let Some(kind) = args.game else { return };
            // no `--level`: the game's own, as New game would offer it (a plain `qi --game go`
            // had set the level New game keeps back to 3)
            let level = args
                .level
                .or(settings.as_ref().map(|s| s.level(kind)))
                .unwrap_or(3);
            let mut model = menus::new_game::NewGameModel {
                kind,
                level,
                second_level: level,
                ..Default::default()
            };
            model.mode = match args.mode {
                cli::ModeArg::Cpu => menus::new_game::Mode::VsCpu,
                cli::ModeArg::Two => menus::new_game::Mode::TwoPlayers,
                cli::ModeArg::CpuVsCpu => menus::new_game::Mode::CpuVsCpu,
            };
            model.color = match args.color {
                cli::ColorArg::Black => menus::new_game::ColorChoice::First,
                cli::ColorArg::White => menus::new_game::ColorChoice::Second,
                cli::ColorArg::Random => menus::new_game::ColorChoice::Random,
            };
            let mut setup = model.setup();
            if let Some(fen) = &args.fen {
                setup.start_text = Some(fen.clone());
            }
            start.write(menus::StartMatch(setup));
        },
    );
}
