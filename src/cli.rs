//! Command-line options: `qi --game ataxx --mode cpu --level 3` starts straight into a game.

use bevy::prelude::*;
use clap::builder::TypedValueParser;
use clap::{Parser, ValueEnum};
use qi_core::GameKind;

#[derive(Parser, Debug, Clone, Resource, Default)]
#[command(
    name = "qi",
    version,
    about = "Qi: Ataxx, Reversi, Gomoku and Go against a friend or the CPU"
)]
pub struct Args {
    /// Start straight into a game of this kind.
    #[arg(long, value_parser = game_parser())]
    pub game: Option<GameKind>,
    /// Who plays: vs the CPU, two players on this machine, or CPU against CPU.
    #[arg(long, value_enum, default_value_t = ModeArg::Cpu)]
    pub mode: ModeArg,
    /// CPU level, 1 (easiest) to 6 (strongest).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=6))]
    pub level: u8,
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
