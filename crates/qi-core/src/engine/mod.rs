//! The `qi-engine` command line: perft and the engine protocols. Each protocol or tool lives in
//! its own module here and is one subcommand.

pub mod gtp;

use std::ffi::OsString;
use std::time::Instant;

use clap::{Parser, Subcommand};

use crate::ataxx::Ataxx;
use crate::game::{Game, GameKind, ParseError, perft, perft_divide};
use crate::reversi::Reversi;

#[derive(Parser, Debug)]
#[command(
    name = "qi-engine",
    version,
    about = "Qi's headless engine: perft, solvers and the games' engine protocols"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the leaves of the move tree: the count is the last line of stdout, time and
    /// nodes/s go to stderr.
    Perft {
        /// ataxx or reversi
        game: String,
        depth: u32,
        /// The start position (the game's own text form); the standard start if left out.
        #[arg(long)]
        fen: Option<String>,
        /// List the count under each first move.
        #[arg(long)]
        divide: bool,
    },
    /// Play Go over the Go Text Protocol (version 2) on stdin/stdout.
    Gtp,
}

/// Runs the command line; returns the process exit code (2 for bad input).
pub fn main_with_args(args: Vec<OsString>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match run(cli) {
        Ok(()) => 0,
        Err(msg) => {
            eprintln!("qi-engine: {msg}");
            2
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Perft {
            game,
            depth,
            fen,
            divide,
        } => {
            let kind: GameKind = game.parse().map_err(|e: ParseError| e.0)?;
            match kind {
                GameKind::Ataxx => run_perft::<Ataxx>(fen.as_deref(), depth, divide),
                GameKind::Reversi => run_perft::<Reversi>(fen.as_deref(), depth, divide),
                other => Err(format!("perft is not available for {other}")),
            }
        }
        Command::Gtp => {
            let stdin = std::io::stdin();
            gtp::run_gtp(stdin.lock(), std::io::stdout().lock()).map_err(|e| format!("gtp: {e}"))
        }
    }
}

fn run_perft<G: Game>(fen: Option<&str>, depth: u32, divide: bool) -> Result<(), String> {
    let mut pos = match fen {
        Some(text) => G::from_text(text).map_err(|e| format!("bad position: {e}"))?,
        None => G::start(),
    };
    let t0 = Instant::now();
    let total = if divide {
        let mut total = 0;
        for (mv, n) in perft_divide(&mut pos, depth) {
            println!("{mv} {n}");
            total += n;
        }
        total
    } else {
        perft(&mut pos, depth)
    };
    let secs = t0.elapsed().as_secs_f64();
    eprintln!(
        "perft {} depth {depth}: {total} leaves in {secs:.3} s, {:.1} M nodes/s",
        G::KIND,
        total as f64 / secs.max(1e-9) / 1e6
    );
    println!("{total}");
    Ok(())
}
