//! Screenshots: `--screenshot FILE` once the first screen has been drawn (with
//! `--exit-after-screenshot` for tests), and F12 at any time.

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

use crate::cli::Args;

pub fn plugin(app: &mut App) {
    app.add_systems(Update, (take_startup_screenshot, take_screenshot_on_f12));
}

/// Frames to draw before the start-up screenshot, so that egui has laid out the menu.
const SETTLE_FRAMES: u32 = 30;

fn take_startup_screenshot(
    mut commands: Commands,
    args: Res<Args>,
    mut frames: Local<u32>,
    mut done: Local<bool>,
) {
    let Some(path) = args.screenshot.clone() else {
        return;
    };
    if *done {
        return;
    }
    *frames += 1;
    if *frames < SETTLE_FRAMES {
        return;
    }
    *done = true;
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let exit_after = args.exit_after_screenshot;
    let mut save = save_to_disk(path.clone());
    commands
        .spawn((
            Name::new("Start-up screenshot"),
            Screenshot::primary_window(),
        ))
        .observe(
            move |captured: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
                save(captured);
                info!("qi: screenshot {}", path.display());
                if exit_after {
                    info!("qi: quit after screenshot");
                    exit.write(AppExit::Success);
                }
            },
        );
}

fn take_screenshot_on_f12(
    mut commands: Commands,
    keys: Res<ButtonInput<KeyCode>>,
    args: Res<Args>,
    mut count: Local<u32>,
) {
    if !keys.just_pressed(KeyCode::F12) {
        return;
    }
    *count += 1;
    let dir = args.screenshot_dir.clone().unwrap_or_else(|| ".".into());
    let _ = std::fs::create_dir_all(&dir);
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let path = dir.join(format!("qi-{stamp}-{}.png", *count));
    info!("qi: screenshot {}", path.display());
    commands
        .spawn((Name::new("Screenshot"), Screenshot::primary_window()))
        .observe(save_to_disk(path));
}
