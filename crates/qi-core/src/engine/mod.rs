//! The `qi-engine` command line: perft and the engine protocols. Each protocol or tool lives in
//! its own module here and is one subcommand.

pub mod external;
pub mod gomocup;
pub mod gtp;
pub mod matches;
pub mod nboard;
pub mod solve;
pub mod uai;

use std::ffi::OsString;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};

use crate::ataxx::Ataxx;
use crate::game::{Game, GameKind, ParseError, perft, perft_divide};
use crate::go::Go;
use crate::gomoku::Gomoku;
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
        #[arg(long, allow_hyphen_values = true)]
        fen: Option<String>,
        /// List the count under each first move.
        #[arg(long)]
        divide: bool,
    },
    /// Play two engines against each other under Qi's referee (colours alternate) and print
    /// wins/draws/losses, the score, the Elo difference and, when asked, an SPRT verdict.
    Match {
        /// ataxx, reversi, gomoku or go
        game: String,
        /// Engine A: a Qi level (`level=6`, `level=6,frontier=5`) or an external engine
        /// `uai:"<command>"` (Ataxx), `nboard:"<command>"` (Reversi), `gtp:"<command>"` (Go),
        /// `gomocup:"<command>"` (Gomoku).
        #[arg(long, default_value = "level=6")]
        a: String,
        /// Engine B.
        #[arg(long, default_value = "level=5")]
        b: String,
        /// A line sent to external engine A after its handshake (repeatable), e.g.
        /// `setoption name Hash value 64`, `set depth 8`, `qi-playouts 500`.
        #[arg(long = "a-init", allow_hyphen_values = true)]
        a_init: Vec<String>,
        /// A line sent to external engine B after its handshake (repeatable).
        #[arg(long = "b-init", allow_hyphen_values = true)]
        b_init: Vec<String>,
        #[arg(long, default_value_t = 20)]
        games: u32,
        /// Milliseconds per move (unless --tc gives a clock).
        #[arg(long, default_value_t = 50)]
        movetime: u64,
        /// A clock per side instead: `base+inc` in seconds, e.g. `10+0.1`.
        #[arg(long)]
        tc: Option<String>,
        /// Milliseconds an external engine may exceed its time before it loses on time.
        #[arg(long, default_value_t = 1000)]
        margin: u64,
        /// Random plies played from the start before the engines take over: `k` or `lo-hi`.
        #[arg(long, default_value = "4")]
        openings: String,
        /// Openings from a file instead, one a line: a position in the game's text form,
        /// moves from the start, or `<position> moves <m1> <m2> …` (# starts a comment).
        #[arg(long = "openings-file")]
        openings_file: Option<std::path::PathBuf>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at the same time (each with its own engine processes).
        #[arg(long, default_value_t = 1)]
        concurrency: u32,
        /// Stop when a sequential test decides, e.g. `elo0=0,elo1=10,alpha=0.05,beta=0.05`.
        #[arg(long)]
        sprt: Option<String>,
        /// Go and Gomoku board size (Go 9, Gomoku 15 if left out).
        #[arg(long)]
        size: Option<u8>,
        /// Go komi (7 if left out).
        #[arg(long, allow_hyphen_values = true)]
        komi: Option<f32>,
        /// Gomoku rule: freestyle, standard or renju.
        #[arg(long)]
        rule: Option<String>,
        /// A line per game on stderr.
        #[arg(long, short)]
        verbose: bool,
        /// Every line to and from external engines on stderr (and their own stderr).
        #[arg(long)]
        debug: bool,
    },
    /// Solve a Reversi endgame exactly (the last line is `<best move> <score>`), or find a
    /// Gomoku forced win by fours (the last line is its first move or `none`).
    Solve {
        /// reversi or gomoku
        game: String,
        /// Reversi: the position, 64 squares a1..h8 (X, O, -) and the side to move.
        #[arg(long, allow_hyphen_values = true)]
        fen: Option<String>,
        /// Table size in megabytes.
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// Gomoku: freestyle, standard or renju.
        #[arg(long, default_value = "freestyle")]
        rule: String,
        /// Gomoku: the moves from the empty board (`h8 i9` or Gomocup `7,7 8,6`).
        #[arg(long, default_value = "", allow_hyphen_values = true)]
        moves: String,
        /// Gomoku: the board size.
        #[arg(long, default_value_t = 15)]
        size: u8,
        /// Gomoku: the node budget of the search.
        #[arg(long, default_value_t = 5_000_000)]
        nodes: u64,
    },
    /// Speak the NBoard protocol (Reversi) on stdin/stdout.
    Nboard,
    /// Speak the UAI protocol (UCI for Ataxx) on stdin/stdout.
    Uai,
    /// Speak the Gomocup (Piskvork) protocol on stdin/stdout (also when started as
    /// `pbrain-*` with no arguments).
    Gomocup,
    /// Search speed: fixed-depth searches of a fixed set of positions; nodes/s last.
    Bench {
        /// ataxx, reversi or gomoku
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
    if args.len() == 1 && started_as_pbrain(&args[0]) {
        return match gomocup::run() {
            Ok(()) => 0,
            Err(msg) => {
                eprintln!("qi-engine: {msg}");
                2
            }
        };
    }
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

/// Whether the program file's name begins `pbrain-` (how Piskvork starts Gomocup engines).
fn started_as_pbrain(arg0: &OsString) -> bool {
    std::path::Path::new(arg0)
        .file_name()
        .map(|f| {
            f.to_string_lossy()
                .to_ascii_lowercase()
                .starts_with("pbrain-")
        })
        .unwrap_or(false)
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
            a_init,
            b_init,
            games,
            movetime,
            tc,
            margin,
            openings,
            openings_file,
            seed,
            concurrency,
            sprt,
            size,
            komi,
            rule,
            verbose,
            debug,
        } => {
            let kind: GameKind = game.parse().map_err(|e: ParseError| e.0)?;
            let spec = |text: &str, init: Vec<String>, which: &str| {
                let mut s: matches::Spec = text.parse().map_err(|e| format!("--{which}: {e}"))?;
                match &mut s {
                    matches::Spec::External { init: i, .. } => *i = init,
                    matches::Spec::Qi(_) if !init.is_empty() => {
                        return Err(format!("--{which}-init is for external engines"));
                    }
                    matches::Spec::Qi(_) => {}
                }
                Ok::<_, String>(s)
            };
            let a = spec(&a, a_init, "a")?;
            let b = spec(&b, b_init, "b")?;
            let tc = match tc {
                Some(t) => matches::parse_clock(&t)?,
                None => matches::TimeControl::MoveTime(Duration::from_millis(movetime.max(1))),
            };
            let openings = match openings_file {
                Some(path) => {
                    let text = std::fs::read_to_string(&path)
                        .map_err(|e| format!("{}: {e}", path.display()))?;
                    matches::Openings::Lines(
                        text.lines()
                            .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
                            .filter(|l| !l.is_empty())
                            .collect(),
                    )
                }
                None => matches::Openings::parse_plies(&openings)?,
            };
            let opts = matches::MatchOptions {
                games,
                tc,
                margin: Duration::from_millis(margin),
                openings,
                board: matches::BoardOptions { size, komi, rule },
                seed,
                concurrency: concurrency.max(1),
                sprt: sprt.map(|s| s.parse()).transpose()?,
                verbose,
                debug,
            };
            let s = match kind {
                GameKind::Ataxx => matches::run_match::<Ataxx>(&a, &b, &opts)?,
                GameKind::Reversi => matches::run_match::<Reversi>(&a, &b, &opts)?,
                GameKind::Gomoku => matches::run_match::<Gomoku>(&a, &b, &opts)?,
                GameKind::Go => matches::run_match::<Go>(&a, &b, &opts)?,
            };
            let t = s.tally;
            println!(
                "{kind} A({a}) vs B({b}) {} games at {}, {}",
                t.games(),
                opts.tc,
                opts.openings_text()
            );
            println!(
                "W/D/L {}/{}/{}  score {:.1}%  {}",
                t.wins,
                t.draws,
                t.losses,
                100.0 * t.score(),
                t.elo_text()
            );
            if s.faults != [0, 0] {
                println!("games lost by faults: A {}, B {}", s.faults[0], s.faults[1]);
            }
            if let Some(sp) = &opts.sprt {
                println!("{}", sp.text(&t));
            }
            Ok(())
        }
        Command::Uai => uai::run(),
        Command::Gomocup => gomocup::run(),
        Command::Nboard => nboard::run(),
        Command::Solve {
            game,
            fen,
            hash,
            rule,
            moves,
            size,
            nodes,
        } => {
            let kind: GameKind = game.parse().map_err(|e: ParseError| e.0)?;
            match kind {
                GameKind::Reversi => solve::run(
                    &fen.ok_or_else(|| "solve reversi needs --fen".to_string())?,
                    hash,
                ),
                GameKind::Gomoku => solve::run_gomoku(&rule, &moves, size, nodes),
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
                GameKind::Gomoku => matches::bench::<Gomoku>(depth, positions, 7),
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
