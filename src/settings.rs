//! Player settings: sound, animation speed, legal-move dots, the eval bar, and per game (kept
//! by the game's name, so adding a game needs no change here) the default CPU level and the
//! CPU's time per move. A settings file in the older format (arrays indexed by game) is read and
//! converted; loaded values are clamped to what the app accepts.

use std::collections::BTreeMap;

use bevy::prelude::*;
use qi_core::GameKind;

pub fn plugin(app: &mut App) {
    app.init_resource::<Settings>()
        .add_systems(PreStartup, load_settings.after(crate::saves::open_store))
        .add_systems(Update, apply_language.in_set(crate::AppSet::Input))
        .add_systems(Update, write_settings_when_changed);
}

/// The settings' language becomes the window's, from the next text drawn on. A switch is
/// said in the status line in the new language: the line held the last message in the old
/// one ("c3 is taken" under a Chinese window).
fn apply_language(
    settings: Res<Settings>,
    mut applied: Local<Option<crate::i18n::Lang>>,
    mut status: MessageWriter<crate::game::Status>,
) {
    if *applied == Some(settings.language) {
        return;
    }
    crate::i18n::set_lang(settings.language);
    info!("qi: language {}", settings.language.code());
    if applied.is_some() {
        status.write(crate::game::Status(t!(
            "status-language",
            language = settings.language.native_name()
        )));
    }
    *applied = Some(settings.language);
}

/// Where the settings file lives: beside the saves.
#[derive(Resource, Clone, Debug)]
pub struct SettingsFile(pub std::path::PathBuf);

/// A game's own settings.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct GameSettings {
    /// The CPU level New game starts with, 1-6.
    pub level: u8,
    /// The most a CPU move may take, in milliseconds (100-60000).
    pub cpu_time_ms: u32,
    /// Move numbers on the pieces (`None`: the game's default).
    pub move_numbers: Option<bool>,
    /// The options (board size, rule, handicap, komi, layout) the game was last started
    /// with: New game offers them again.
    pub options: Option<crate::games::GameOptions>,
}

impl Default for GameSettings {
    fn default() -> Self {
        GameSettings {
            level: 3,
            cpu_time_ms: 1000,
            move_numbers: None,
            options: None,
        }
    }
}

/// The CPU's default time per move for a game (each game's own, `crate::games`).
pub fn default_cpu_time_ms(kind: GameKind) -> u32 {
    crate::games::ui_of(kind).default_cpu_time_ms()
}

#[derive(Resource, Clone, Debug, PartialEq, serde::Serialize)]
pub struct Settings {
    /// 0.0 ..= 1.0
    pub volume: f32,
    pub mute: bool,
    /// 1.0 normal, 0.0 no animation.
    pub animation_speed: f32,
    /// Show where the side to move may play (Ataxx and Reversi).
    pub show_legal_moves: bool,
    pub eval_bar: bool,
    /// CPU against CPU: seconds between two moves, so a person can follow.
    pub cpu_vs_cpu_delay: f32,
    /// The window's colours: dark or light.
    pub theme: crate::theme::palette::Theme,
    /// The window's language.
    pub language: crate::i18n::Lang,
    /// Per game, by its name (`ataxx`, `go`, …).
    pub games: BTreeMap<String, GameSettings>,
    /// The game played last (started or loaded), by its name: New game opens on it.
    pub last_game: Option<String>,
    /// New game's mode and colour choice when a game was last started from it.
    pub new_game_mode: Option<crate::menus::new_game::Mode>,
    pub new_game_color: Option<crate::menus::new_game::ColorChoice>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            volume: 0.6,
            mute: false,
            animation_speed: 1.0,
            show_legal_moves: true,
            eval_bar: true,
            cpu_vs_cpu_delay: 0.5,
            theme: Default::default(),
            language: Default::default(),
            games: GameKind::ALL
                .into_iter()
                .map(|k| {
                    (
                        k.name().to_string(),
                        GameSettings {
                            level: 3,
                            cpu_time_ms: default_cpu_time_ms(k),
                            move_numbers: None,
                            options: None,
                        },
                    )
                })
                .collect(),
            last_game: None,
            new_game_mode: None,
            new_game_color: None,
        }
    }
}

impl Settings {
    /// The game New game opens on: the one played last, or the first of the table.
    pub fn last_game(&self) -> Option<GameKind> {
        self.last_game.as_deref().and_then(|n| n.parse().ok())
    }

    pub fn game(&self, kind: GameKind) -> GameSettings {
        self.games
            .get(kind.name())
            .copied()
            .unwrap_or(GameSettings {
                level: 3,
                cpu_time_ms: default_cpu_time_ms(kind),
                move_numbers: None,
                options: None,
            })
    }

    pub fn game_mut(&mut self, kind: GameKind) -> &mut GameSettings {
        self.games
            .entry(kind.name().to_string())
            .or_insert(GameSettings {
                level: 3,
                cpu_time_ms: default_cpu_time_ms(kind),
                move_numbers: None,
                options: None,
            })
    }

    pub fn level(&self, kind: GameKind) -> u8 {
        self.game(kind).level
    }

    pub fn cpu_time_ms(&self, kind: GameKind) -> u32 {
        self.game(kind).cpu_time_ms
    }

    /// Whether the pieces of this game show their move numbers.
    pub fn move_numbers(&self, kind: GameKind) -> bool {
        self.game(kind)
            .move_numbers
            .unwrap_or_else(|| crate::games::ui_of(kind).move_numbers_by_default())
    }

    /// Every value brought into its range: a file edited by hand (time 0, level 99, a volume
    /// that is not a number) cannot break the app.
    pub fn clamped(mut self) -> Settings {
        let d = Settings::default();
        let fix = |v: f32, lo: f32, hi: f32, default: f32| {
            if v.is_finite() {
                v.clamp(lo, hi)
            } else {
                default
            }
        };
        self.volume = fix(self.volume, 0.0, 1.0, d.volume);
        self.animation_speed = fix(self.animation_speed, 0.0, 3.0, d.animation_speed);
        self.cpu_vs_cpu_delay = fix(self.cpu_vs_cpu_delay, 0.0, 5.0, d.cpu_vs_cpu_delay);
        for (name, g) in self.games.iter_mut() {
            g.level = g.level.clamp(1, 6);
            g.cpu_time_ms = g.cpu_time_ms.clamp(100, 60_000);
            // options that make no game (a board size the game lacks, a komi of 1e9) are forgotten
            let kind = name.parse::<GameKind>();
            if g.options.is_some_and(|o| {
                kind.as_ref()
                    .is_ok_and(|k| !crate::games::options_are_valid(*k, &o))
            }) {
                g.options = None;
            }
        }
        for k in GameKind::ALL {
            self.game_mut(k);
        }
        self
    }
}

/// The file as written by this version or by earlier ones (whose per-game settings were arrays
/// in the order Ataxx, Reversi, Gomoku, Go).
#[derive(serde::Deserialize)]
#[serde(default)]
struct SettingsOnDisk {
    volume: f32,
    mute: bool,
    animation_speed: f32,
    show_legal_moves: bool,
    eval_bar: bool,
    cpu_vs_cpu_delay: f32,
    theme: crate::theme::palette::Theme,
    /// `None` in a file from before languages, and on the first start: the system's language.
    #[serde(deserialize_with = "some_lang")]
    language: Option<crate::i18n::Lang>,
    games: BTreeMap<String, GameSettings>,
    last_game: Option<String>,
    new_game_mode: Option<crate::menus::new_game::Mode>,
    new_game_color: Option<crate::menus::new_game::ColorChoice>,
    /// The old format.
    default_level: Vec<u8>,
    cpu_time_ms: Vec<u32>,
}

impl Default for SettingsOnDisk {
    fn default() -> Self {
        let s = Settings::default();
        SettingsOnDisk {
            volume: s.volume,
            mute: s.mute,
            animation_speed: s.animation_speed,
            show_legal_moves: s.show_legal_moves,
            eval_bar: s.eval_bar,
            cpu_vs_cpu_delay: s.cpu_vs_cpu_delay,
            theme: s.theme,
            language: None,
            games: BTreeMap::new(),
            last_game: None,
            new_game_mode: None,
            new_game_color: None,
            default_level: Vec::new(),
            cpu_time_ms: Vec::new(),
        }
    }
}

impl SettingsOnDisk {
    fn into_settings(self) -> Settings {
        let mut s = Settings {
            volume: self.volume,
            mute: self.mute,
            animation_speed: self.animation_speed,
            show_legal_moves: self.show_legal_moves,
            eval_bar: self.eval_bar,
            cpu_vs_cpu_delay: self.cpu_vs_cpu_delay,
            theme: self.theme,
            language: self.language.unwrap_or_else(crate::i18n::Lang::from_env),
            // a name this version does not know is forgotten (New game opens on the first game)
            last_game: self.last_game.filter(|n| n.parse::<GameKind>().is_ok()),
            new_game_mode: self.new_game_mode,
            new_game_color: self.new_game_color,
            ..Settings::default()
        };
        // the old arrays held the first four games of the table, in its order
        for (i, k) in GameKind::ALL.into_iter().take(4).enumerate() {
            if let Some(&l) = self.default_level.get(i) {
                s.game_mut(k).level = l;
            }
            if let Some(&t) = self.cpu_time_ms.get(i) {
                s.game_mut(k).cpu_time_ms = t;
            }
        }
        for (name, g) in self.games {
            s.games.insert(name, g);
        }
        s.clamped()
    }
}

/// The language as written: a bare tag, `language: "zh-CN"`.
fn some_lang<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<crate::i18n::Lang>, D::Error> {
    <crate::i18n::Lang as serde::Deserialize>::deserialize(d).map(Some)
}

/// Reads settings from RON text, in today's format or the older one.
pub fn settings_from_text(text: &str) -> Result<Settings, String> {
    qi_core::storage::from_ron::<SettingsOnDisk>(text).map(SettingsOnDisk::into_settings)
}

/// Reads the settings file; one that cannot be read is set aside (kept beside it) and the
/// defaults are used, with a message in the log. `--animation-speed` still wins over the file.
fn load_settings(
    mut commands: Commands,
    store: Option<Res<crate::saves::Store>>,
    args: Option<Res<crate::cli::Args>>,
) {
    let Some(store) = store else { return };
    let path = store.0.dir().join(qi_core::storage::SETTINGS_FILE);
    let (on_disk, message) = qi_core::storage::load_or_default::<SettingsOnDisk>(&path);
    if let Some(m) = message {
        warn!("qi: settings: {m}");
    }
    let mut settings = on_disk.into_settings();
    if let Some(speed) = args.as_ref().and_then(|a| a.animation_speed) {
        settings.animation_speed = speed.max(0.0);
    }
    if let Some(lang) = args.and_then(|a| a.lang) {
        settings.language = lang;
    }
    // the first frame already speaks the language
    crate::i18n::set_lang(settings.language);
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
    if last.is_some()
        && let Err(e) = qi_core::storage::save_ron(&file.0, &*settings)
    {
        warn!("qi: cannot write the settings: {e}");
    }
    *last = Some(settings.clone());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_old_format_is_converted() {
        let old = "(volume: 0.3, mute: true, animation_speed: 1.5, show_legal_moves: false, \
                   eval_bar: true, default_level: [2, 4, 5, 6], cpu_time_ms: [700, 800, 900, 2000])";
        let s = settings_from_text(old).unwrap();
        assert_eq!(s.volume, 0.3);
        assert!(s.mute);
        assert!(!s.show_legal_moves);
        assert_eq!(s.level(GameKind::Reversi), 4);
        assert_eq!(s.level(GameKind::Go), 6);
        assert_eq!(s.cpu_time_ms(GameKind::Ataxx), 700);
        assert_eq!(s.cpu_time_ms(GameKind::Go), 2000);
    }

    #[test]
    fn todays_format_round_trips_and_values_are_clamped() {
        let mut s = Settings::default();
        s.game_mut(GameKind::Gomoku).level = 5;
        let text = qi_core::storage::to_ron(&s).unwrap();
        assert!(text.contains("gomoku"), "{text}");
        assert_eq!(settings_from_text(&text).unwrap(), s);
        let bad = "(volume: NaN, games: {\"go\": (level: 99, cpu_time_ms: 0)})";
        let s = settings_from_text(bad).unwrap();
        assert_eq!(s.volume, Settings::default().volume);
        assert_eq!(s.level(GameKind::Go), 6);
        assert_eq!(s.cpu_time_ms(GameKind::Go), 100);
        // a byte-order mark is skipped
        let bom = format!("\u{feff}{text}");
        assert!(settings_from_text(&bom).is_ok());
    }

    /// The language is kept in the file; a file without one (older, or none at all on the
    /// first start) takes the system's.
    #[test]
    fn the_language_is_kept() {
        let s = Settings {
            language: crate::i18n::Lang::ZhCn,
            ..Default::default()
        };
        let text = qi_core::storage::to_ron(&s).unwrap();
        assert!(text.contains("zh-CN"), "{text}");
        assert_eq!(
            settings_from_text(&text).unwrap().language,
            crate::i18n::Lang::ZhCn
        );
        let old = "(volume: 0.3)";
        assert_eq!(
            settings_from_text(old).unwrap().language,
            crate::i18n::Lang::from_env()
        );
    }
}
