//! Command-line options: `qi --game ataxx --mode cpu --level 3` starts straight into a game.

use bevy::prelude::*;
use clap::builder::TypedValueParser;
use clap::{Parser, ValueEnum};
use qi_core::GameKind;

use crate::i18n::Lang;

#[derive(Parser, Debug, Clone, Resource, Default)]
#[command(
    name = "qi",
    version,
    about = "Qi: Ataxx, Reversi, Gomoku and Go against a friend or the CPU",
    disable_help_flag = true,
    disable_version_flag = true
)]
pub struct Args {
    /// The window's language (en-US, zh-CN); the default is the one chosen in Settings, or on
    /// the first start the system's.
    #[arg(long, value_parser = lang_parser())]
    pub lang: Option<Lang>,
    /// Start straight into a game of this kind.
    #[arg(long, value_parser = game_parser())]
    pub game: Option<GameKind>,
    /// Who plays: vs the CPU, two players on this machine, or CPU against CPU.
    #[arg(long, value_enum, default_value_t = ModeArg::Cpu)]
    pub mode: ModeArg,
    /// CPU level, 1 (easiest) to 6 (strongest); without it, the level this game was last
    /// started with (3 the first time).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=6))]
    pub level: Option<u8>,
    /// Your colour against the CPU: black (moves first), white, or random.
    #[arg(long, value_enum, default_value_t = ColorArg::Black)]
    pub color: ColorArg,
    /// Start from this position (the game's own text form, e.g. an Ataxx FEN).
    #[arg(long, allow_hyphen_values = true)]
    pub fen: Option<String>,
    /// Open this game record (SGF, or PGN for Ataxx) to replay, at the last move or at --at.
    #[arg(long)]
    pub record: Option<std::path::PathBuf>,
    /// With --record: the move to show (0 is the start).
    #[arg(long)]
    pub at: Option<usize>,
    /// Save a screenshot to this PNG file once the first screen is drawn.
    #[arg(long)]
    pub screenshot: Option<std::path::PathBuf>,
    /// Quit after the --screenshot is written (for tests).
    #[arg(long)]
    pub exit_after_screenshot: bool,
    /// Folder where F12 screenshots are written (default: the current folder).
    #[arg(long)]
    pub screenshot_dir: Option<std::path::PathBuf>,
    /// Folder for save slots and the autosave (default: the platform's data folder).
    #[arg(long)]
    pub save_dir: Option<std::path::PathBuf>,
    /// Animation speed factor (0 turns animations off).
    #[arg(long)]
    pub animation_speed: Option<f32>,
    /// Print help.
    #[arg(short = 'h', long, action = clap::ArgAction::Help)]
    pub help: Option<bool>,
    /// Print the version.
    #[arg(short = 'V', long, action = clap::ArgAction::Version)]
    pub version: Option<bool>,
}

/// The language `qi --help` speaks: `--lang` if given, else the system's.
fn help_lang(argv: &[std::ffi::OsString]) -> Lang {
    let mut it = argv.iter().filter_map(|a| a.to_str());
    while let Some(a) = it.next() {
        let value = match a.strip_prefix("--lang") {
            Some("") => it.next(),
            Some(v) => v.strip_prefix('='),
            None => None,
        };
        if let Some(l) = value.and_then(Lang::from_tag) {
            return l;
        }
    }
    Lang::from_env()
}

/// The command line with every help text from the translation files.
pub fn localized_command() -> clap::Command {
    use clap::CommandFactory;
    let help = |id: &str| match id {
        "lang" => t!("cli-lang"),
        "game" => t!("cli-game"),
        "mode" => t!("cli-mode"),
        "level" => t!("cli-level"),
        "color" => t!("cli-color"),
        "fen" => t!("cli-fen"),
        "record" => t!("cli-record"),
        "at" => t!("cli-at"),
        "screenshot" => t!("cli-screenshot"),
        "exit_after_screenshot" => t!("cli-exit-after-screenshot"),
        "screenshot_dir" => t!("cli-screenshot-dir"),
        "save_dir" => t!("cli-save-dir"),
        "animation_speed" => t!("cli-animation-speed"),
        "help" => t!("cli-help"),
        "version" => t!("cli-version"),
        _ => String::new(),
    };
    let mut cmd = Args::command()
        .about(t!("cli-about"))
        .help_template(format!(
            "{{about-with-newline}}\n{}: {{usage}}\n\n{}:\n{{options}}{{after-help}}",
            t!("cli-usage"),
            t!("cli-options")
        ));
    let ids: Vec<String> = cmd
        .get_arguments()
        .map(|a| a.get_id().to_string())
        .collect();
    for id in ids {
        let text = help(&id);
        if !text.is_empty() {
            cmd = cmd.mut_arg(id, |a| a.help(text));
        }
    }
    cmd
}

/// Reads the command line; `--help` is printed in the player's language.
pub fn parse() -> Args {
    use clap::FromArgMatches;
    let argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    crate::i18n::set_lang(help_lang(&argv));
    let matches = localized_command().get_matches_from(argv);
    Args::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

fn lang_parser() -> impl clap::builder::TypedValueParser<Value = Lang> {
    clap::builder::PossibleValuesParser::new(Lang::ALL.map(Lang::code))
        .map(|s| s.parse::<Lang>().expect("a code from the list"))
}

/// Every game of the core's table, by name (so `qi --help` lists them all), read back as a
/// [`GameKind`].
fn game_parser() -> impl clap::builder::TypedValueParser<Value = GameKind> {
    clap::builder::PossibleValuesParser::new(qi_core::GAMES.iter().map(|g| g.name))
        .map(|s| s.parse::<GameKind>().expect("a name from the table"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// Defect: `qi --help` listed only ataxx and reversi for `--game`.
    #[test]
    fn help_lists_every_game() {
        let help = Args::command().render_long_help().to_string();
        for g in qi_core::GAMES {
            assert!(help.contains(g.name), "{} missing from:\n{help}", g.name);
        }
        let a = Args::try_parse_from(["qi", "--game", "go"]).unwrap();
        assert_eq!(a.game, Some(GameKind::Go));
        assert!(Args::try_parse_from(["qi", "--game", "chess"]).is_err());
    }

    /// `qi --help` speaks the language of `--lang`, every option has its help text, and the
    /// language is read back.
    #[test]
    fn help_in_both_languages() {
        let os = |v: &[&str]| v.iter().map(std::ffi::OsString::from).collect::<Vec<_>>();
        assert_eq!(help_lang(&os(&["qi", "--lang", "zh-CN"])), Lang::ZhCn);
        assert_eq!(help_lang(&os(&["qi", "--lang=en-US"])), Lang::EnUs);
        let cmd = localized_command();
        for a in cmd.get_arguments() {
            assert!(a.get_help().is_some(), "--{} has no help", a.get_id());
        }
        let a = Args::try_parse_from(["qi", "--lang", "zh-CN"]).unwrap();
        assert_eq!(a.lang, Some(Lang::ZhCn));
        assert!(Args::try_parse_from(["qi", "--lang", "fr"]).is_err());
    }
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ModeArg {
    #[default]
    Cpu,
    Two,
    CpuVsCpu,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorArg {
    #[default]
    Black,
    White,
    Random,
}
