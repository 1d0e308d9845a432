//! Player settings: sound, animation speed, legal-move hints, default CPU levels.

use bevy::prelude::*;
use qi_core::GameKind;

pub fn plugin(app: &mut App) {
    app.init_resource::<Settings>()
        .add_systems(PreStartup, load_settings.after(crate::saves::open_store))
        .add_systems(Update, write_settings_when_changed);
}

/// Where the settings file lives: beside the saves.
#[derive(Resource, Clone, Debug)]
pub struct SettingsFile(pub std::path::PathBuf);

/// Reads the settings file; one that cannot be read is set aside (kept beside it) and the
/// defaults are used, with a message in the log. `--animation-speed` still wins over the file.
fn load_settings(
    mut commands: Commands,
    store: Option<Res<crate::saves::Store>>,
    args: Option<Res<crate::cli::Args>>,
) {
    let Some(store) = store else { return };
    let path = store.0.dir().join(qi_core::storage::SETTINGS_FILE);
    let (mut settings, message) = qi_core::storage::load_or_default::<Settings>(&path);
    if let Some(m) = message {
        warn!("qi: settings: {m}");
    }
    if let Some(speed) = args.and_then(|a| a.animation_speed) {
        settings.animation_speed = speed.max(0.0);
    }
    commands.insert_resource(settings);
    commands.insert_resource(SettingsFile(path));
}

/// Writes the settings (atomically) whenever they change.
fn write_settings_when_changed(
    settings: Res<Settings>,
    file: Option<Res<SettingsFile>>,
    mut last: Local<Option<Settings>>,
) {
    let Some(file) = file else { return };
    if !settings.is_changed() || last.as_ref() == Some(&*settings) {
        return;
    }
    if last.is_some() {
        if let Err(e) = qi_core::storage::save_ron(&file.0, &*settings) {
            warn!("qi: cannot write the settings: {e}");
        }
    }
    *last = Some(settings.clone());
}

#[derive(Resource, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Settings {
    /// 0.0 ..= 1.0
    pub volume: f32,
    pub mute: bool,
    /// 1.0 normal, 0.0 no animation.
    pub animation_speed: f32,
    /// Show where the side to move may play (on by default for Ataxx and Reversi).
    pub show_legal_moves: bool,
    pub eval_bar: bool,
    /// Default CPU level per game (Ataxx, Reversi, Gomoku, Go).
    pub default_level: [u8; 4],
    /// CPU time per move in milliseconds per game: the most a move may take. Go gets 5 s, the
    /// time its level 6 needs on 9×9 (one core) for most of its 96,000 playouts; levels 1-5 of
    /// every game are bound by depth, nodes or playouts and usually answer sooner.
    pub cpu_time_ms: [u32; 4],
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            volume: 0.6,
            mute: false,
            animation_speed: 1.0,
            show_legal_moves: true,
            eval_bar: true,
            default_level: [3; 4],
            cpu_time_ms: [1000, 1000, 1000, 5000],
        }
    }
}

impl Settings {
    pub fn level(&self, kind: GameKind) -> u8 {
        self.default_level[kind as usize]
    }
}
