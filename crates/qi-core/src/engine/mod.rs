//! The `qi-engine` command line: perft and the engine protocols. Each protocol or tool lives in
//! its own module here and is one subcommand.

pub mod matches;
pub mod nboard;
pub mod solve;
pub mod uai;
pub mod gtp;

use std::ffi::OsString;
use std::time::{Duration, Instant};

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
    /// Play two engine configurations against each other (colours alternate) and print
    /// wins/draws/losses, the score and the Elo difference.
    Match {
        /// ataxx or reversi
        game: String,
        /// Configuration A, e.g. `level=6` or `level=6,frontier=5`.
        #[arg(long, default_value = "level=6")]
        a: String,
        /// Configuration B.
        #[arg(long, default_value = "level=5")]
        b: String,
        #[arg(long, default_value_t = 20)]
        games: u32,
        /// Milliseconds per move.
        #[arg(long, default_value_t = 50)]
        movetime: u64,
        /// Random plies played from the start before the engines take over.
        #[arg(long, default_value_t = 4)]
        openings: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A line per game on stderr.
        #[arg(long, short)]
        verbose: bool,
    },
    /// Solve a Reversi endgame exactly; the last line is `<best move> <score>`.
    Solve {
        /// reversi
        game: String,
        /// The position: 64 squares a1..h8 (X, O, -) and the side to move.
        #[arg(long, allow_hyphen_values = true)]
        fen: String,
        /// Table size in megabytes.
        #[arg(long, default_value_t = 64)]
        hash: usize,
    },
    /// Speak the NBoard protocol (Reversi) on stdin/stdout.
    Nboard,
    /// Speak the UAI protocol (UCI for Ataxx) on stdin/stdout.
    Uai,
    /// Search speed: fixed-depth searches of a fixed set of positions; nodes/s last.
    Bench {
        /// ataxx or reversi
        game: String,
        #[arg(long, default_value_t = 7)]
        depth: u32,
        #[arg(long, default_value_t = 8)]
        positions: u32,
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
        Command::Match {
            game,
            a,
            b,
            games,
            movetime,
            openings,
            seed,
            verbose,
        } => {
            let kind: GameKind = game.parse().map_err(|e: ParseError| e.0)?;
            let a: matches::Config = a.parse().map_err(|e| format!("--a: {e}"))?;
            let b: matches::Config = b.parse().map_err(|e| format!("--b: {e}"))?;
            let mt = Duration::from_millis(movetime.max(1));
            let t = match kind {
                GameKind::Ataxx => {
                    matches::run_match::<Ataxx>(&a, &b, games, mt, openings, seed, verbose)?
                }
                GameKind::Reversi => {
                    matches::run_match::<Reversi>(&a, &b, games, mt, openings, seed, verbose)?
                }
                other => return Err(format!("match is not available for {other}")),
            };
            println!(
                "{kind} A({}) vs B({}) {} games at {movetime} ms/move, {openings} random plies",
                describe(&a),
                describe(&b),
                t.games()
            );
            println!(
                "W/D/L {}/{}/{}  score {:.1}%  {}",
                t.wins,
                t.draws,
                t.losses,
                100.0 * t.score(),
                t.elo_text()
            );
            Ok(())
        }
        Command::Uai => uai::run(),
        Command::Nboard => nboard::run(),
        Command::Solve { game, fen, hash } => {
            let kind: GameKind = game.parse().map_err(|e: ParseError| e.0)?;
            match kind {
                GameKind::Reversi => solve::run(&fen, hash),
                other => Err(format!("solve is not available for {other}")),
            }
        }
        Command::Bench {
            game,
            depth,
            positions,
        } => {
            let kind: GameKind = game.parse().map_err(|e: ParseError| e.0)?;
            let (nodes, secs) = match kind {
                GameKind::Ataxx => matches::bench::<Ataxx>(depth, positions, 7),
                GameKind::Reversi => matches::bench::<Reversi>(depth, positions, 7),
                other => return Err(format!("bench is not available for {other}")),
            };
            println!(
                "{kind} bench depth {depth}, {positions} positions: {nodes} nodes in {secs:.3} s"
            );
            println!("{:.0} nodes/s", nodes as f64 / secs.max(1e-9));
            Ok(())
        }
        Command::Gtp => {
            let stdin = std::io::stdin();
            gtp::run_gtp(stdin.lock(), std::io::stdout().lock()).map_err(|e| format!("gtp: {e}"))
        }
    }
}

fn describe(c: &matches::Config) -> String {
    let mut s = format!("level={}", c.level);
    for (k, v) in &c.settings {
        s.push_str(&format!(",{k}={v}"));
    }
    s
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
