//! The `qi-engine` command line: perft and the engine protocols. Each protocol or tool lives in
//! its own module here and is one subcommand.

pub mod analyse;
pub mod external;
pub mod gomocup;
pub mod gtp;
pub mod matches;
pub mod nboard;
pub mod solve;
pub mod uai;

use std::ffi::OsString;
use std::io::{self, BufRead};
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
        /// Table size in megabytes (1 to 4096).
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=crate::search::tt::MAX_HASH_MB as u64))]
        hash: u64,
        /// Reversi: threads solving together (1 to 64).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
        threads: u64,
        /// Reversi: win, loss or draw only (the last line is `<best move> win|draw|loss`),
        /// faster than the exact score.
        #[arg(long)]
        wld: bool,
        /// Gomoku: freestyle, standard or renju.
        #[arg(long, default_value = "freestyle")]
        rule: String,
        /// Gomoku: the moves from the empty board (`h8 i9` or Gomocup `7,7 8,6`).
        #[arg(long, default_value = "", allow_hyphen_values = true)]
        moves: String,
        /// Gomoku: the board size (5 to 19).
        #[arg(long, default_value_t = 15)]
        size: u8,
        /// Gomoku: the node budget of the search.
        #[arg(long, default_value_t = 5_000_000)]
        nodes: u64,
    },
    /// Benchmark: solve the FFO endgame test positions exactly (#40-#59, 20-24 empty squares)
    /// and time each. One line per position (move, score, expected, nodes, wall and CPU time),
    /// then the total; exit code 2 if a result is wrong. All twenty take about an hour on one
    /// core of the machine in the README; #40, #41, #44, #47 and #59 take seconds.
    Ffo {
        /// The first position (40 to 59).
        #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(40..=59))]
        from: u32,
        /// The last position (40 to 59).
        #[arg(long, default_value_t = 59, value_parser = clap::value_parser!(u32).range(40..=59))]
        to: u32,
        /// Table size in megabytes (1 to 4096).
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=crate::search::tt::MAX_HASH_MB as u64))]
        hash: u64,
        /// Threads solving each position together (1 to 64); the CPU time shown is that of
        /// all of them.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
        threads: u64,
    },
    /// Analyse a game record (SGF, or PGN for Ataxx): a line per move with the values before
    /// and after it (the mover's view), its loss against the engine's move and its mark, then
    /// each player's summary. With --write, the record is written again with the analysis in
    /// its comments (which the window reads back).
    Analyse {
        /// The record file.
        file: std::path::PathBuf,
        /// Milliseconds of search per position.
        #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(10..=600_000))]
        budget: u64,
        /// Write the record with its analysis to this file.
        #[arg(long)]
        write: Option<std::path::PathBuf>,
    },
    /// Speak the NBoard protocol (Reversi) on stdin/stdout.
    Nboard {
        /// Think this many milliseconds a move (level 6's search and exact solve) instead of
        /// searching to the depth NBoard sets (10 by default, at most 10 s a move).
        #[arg(long)]
        movetime: Option<u64>,
    },
    /// Speak the UAI protocol (UCI for Ataxx) on stdin/stdout.
    Uai,
    /// Speak the Gomocup (Piskvork) protocol on stdin/stdout (also when started as
    /// `pbrain-*` with no arguments).
    Gomocup {
        /// Evaluate with the line pattern weights too (freestyle and standard; see
        /// `qi_core::ai::gomoku::patterns::LineWeights`).
        #[arg(long)]
        lines: bool,
        /// Against an open-four, four-four or four-three point of the opponent, search only
        /// the moves that answer those, leaving its three-three points to the next plies
        /// (`--fast-first false`: answer every threat point at once, as before session 22).
        #[arg(long, default_value_t = gomocup::FAST_FIRST, action = clap::ArgAction::Set)]
        fast_first: bool,
        /// Search settings on top of the defaults, `key=value,...` with the keys of `qi-engine
        /// match`'s Gomoku settings (e.g. `select=1,selk=80`), and `hash=N`: the
        /// transposition table's megabytes (16 by default, at most half of `INFO max_memory`).
        #[arg(long, default_value = "")]
        set: String,
    },
    /// Search speed: fixed-depth searches of a fixed set of positions (Go: searches of a fixed
    /// number of playouts); nodes/s (Go: playouts/s) last.
    Bench {
        /// ataxx, reversi, gomoku or go
        game: String,
        /// Go: the board size (5 to 19).
        #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u8).range(5..=19))]
        size: u8,
        /// Go: the playouts a search (1,000 to 10,000,000).
        #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1_000..=10_000_000))]
        playouts: u64,
        /// The search depth (1 to 30).
        #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(1..=30))]
        depth: u32,
        /// How many positions (1 to 1000).
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=1000))]
        positions: u32,
        /// Evaluation settings of the level as in `match`, `key=value` (e.g. Gomoku
        /// `patterns=1`, `lines=1`); may be repeated.
        #[arg(long = "set")]
        set: Vec<String>,
    },
    /// Play Go over the Go Text Protocol (version 2) on stdin/stdout.
    Gtp,
}

/// The longest protocol line the engines read: a longer one is answered with an error and
/// skipped to its end, so that a line without an end cannot fill the memory.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One line of a protocol's input, without its line end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputLine {
    /// A line of UTF-8 text.
    Text(String),
    /// A line that is not UTF-8: the protocols answer it with an error and go on. The text is
    /// the line with the bad bytes replaced by U+FFFD (GTP reads the command id from it).
    NotUtf8(String),
    /// A line longer than [`MAX_LINE_BYTES`], skipped.
    TooLong,
}

/// Reads the next line of a protocol's input; `Ok(None)` at the end of the input. A line end is
/// `\n` or `\r\n`; the last line may have none. Never holds more than [`MAX_LINE_BYTES`] of
/// one line in memory.
pub fn read_input_line(input: &mut dyn BufRead) -> io::Result<Option<InputLine>> {
    let mut line: Vec<u8> = Vec::new();
    let mut too_long = false;
    let mut seen_any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            if !seen_any {
                return Ok(None);
            }
            break;
        }
        seen_any = true;
        let (part, found) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], true),
            None => (chunk, false),
        };
        if !too_long {
            if line.len() + part.len() > MAX_LINE_BYTES {
                too_long = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(part);
            }
        }
        let used = part.len() + usize::from(found);
        input.consume(used);
        if found {
            break;
        }
    }
    if too_long {
        return Ok(Some(InputLine::TooLong));
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Some(match String::from_utf8(line) {
        Ok(text) => InputLine::Text(text),
        Err(e) => InputLine::NotUtf8(String::from_utf8_lossy(e.as_bytes()).into_owned()),
    }))
}

/// A count or a time as a protocol sends it, read without overflow: digits (an optional `+`)
/// give the number, saturated at `u64::MAX`; a negative number gives 0. `None` for anything
/// else (an empty word, letters, a fraction).
pub fn parse_saturating(text: &str) -> Option<u64> {
    let t = text.trim();
    let (negative, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if negative {
        return Some(0);
    }
    Some(digits.bytes().fold(0u64, |n, b| {
        n.saturating_mul(10).saturating_add(u64::from(b - b'0'))
    }))
}

/// Runs the command line; returns the process exit code (2 for bad input).
pub fn main_with_args(args: Vec<OsString>) -> i32 {
    if args.len() == 1 && started_as_pbrain(&args[0]) {
        return match gomocup::run(false, gomocup::FAST_FIRST, "") {
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
            let avg = s.average_move_time();
            let avg_text = |d: Option<Duration>| {
                d.map_or("-".to_string(), |d| format!("{:.2} s", d.as_secs_f64()))
            };
            println!(
                "average time a move: A {}, B {}",
                avg_text(avg[0]),
                avg_text(avg[1])
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
        Command::Gomocup {
            lines,
            fast_first,
            set,
        } => gomocup::run(lines, fast_first, &set),
        Command::Nboard { movetime } => {
            nboard::run(movetime.map(|ms| Duration::from_millis(ms.max(1))))
        }
        Command::Solve {
            game,
            fen,
            hash,
            threads,
            wld,
            rule,
            moves,
            size,
            nodes,
        } => {
            let kind: GameKind = game.parse().map_err(|e: ParseError| e.0)?;
            match kind {
                GameKind::Reversi => solve::run(
                    &fen.ok_or_else(|| "solve reversi needs --fen".to_string())?,
                    hash as usize,
                    threads as usize,
                    wld,
                ),
                GameKind::Gomoku => solve::run_gomoku(&rule, &moves, size, nodes),
                other => Err(format!("solve is not available for {other}")),
            }
        }
        Command::Ffo {
            from,
            to,
            hash,
            threads,
        } => solve::run_ffo(from, to, hash as usize, threads as usize),
        Command::Analyse {
            file,
            budget,
            write,
        } => analyse::run(&file, budget, write.as_deref()),
        Command::Bench {
            game,
            size,
            playouts,
            depth,
            positions,
            set,
        } => {
            let mut settings = Vec::new();
            for kv in &set {
                let (k, v) = kv
                    .split_once('=')
                    .and_then(|(k, v)| Some((k.to_string(), v.parse::<i32>().ok()?)))
                    .ok_or_else(|| format!("--set '{kv}': expected key=number"))?;
                settings.push((k, v));
            }
            let kind: GameKind = game.parse().map_err(|e: ParseError| e.0)?;
            if kind == GameKind::Go {
                let b = matches::bench_go(size, playouts, positions, 7)?;
                println!(
                    "go bench {size}x{size}, {playouts} playouts a search, {positions} positions: \
                     {} playouts in {:.3} s, checksum {:016x}",
                    b.playouts, b.seconds, b.checksum
                );
                println!("{:.0} playouts/s", b.playouts as f64 / b.seconds.max(1e-9));
                return Ok(());
            }
            let (nodes, secs, checksum) = match kind {
                GameKind::Ataxx => matches::bench::<Ataxx>(depth, positions, 7, &settings)?,
                GameKind::Reversi => matches::bench::<Reversi>(depth, positions, 7, &settings)?,
                GameKind::Gomoku => matches::bench::<Gomoku>(depth, positions, 7, &settings)?,
                other => return Err(format!("bench is not available for {other}")),
            };
            println!(
                "{kind} bench depth {depth}, {positions} positions: {nodes} nodes in {secs:.3} s, \
                 checksum {checksum:016x}"
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

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<InputLine> {
        // a small buffer, so that lines are split over several reads
        let mut r = io::BufReader::with_capacity(7, bytes);
        let mut out = Vec::new();
        while let Some(l) = read_input_line(&mut r).unwrap() {
            out.push(l);
        }
        out
    }

    #[test]
    fn input_lines_text_bad_bytes_and_long_lines() {
        use InputLine::*;
        assert_eq!(
            lines(b"uai\r\nisready\n\nlast"),
            [
                Text("uai".into()),
                Text("isready".into()),
                Text("".into()),
                Text("last".into())
            ]
        );
        assert_eq!(
            lines(b"12 name\xff\xfe\nok\n"),
            [NotUtf8("12 name\u{fffd}\u{fffd}".into()), Text("ok".into())]
        );
        let mut long = vec![b'a'; MAX_LINE_BYTES + 1];
        long.extend_from_slice(b"\nafter\n");
        assert_eq!(lines(&long), [TooLong, Text("after".into())]);
        let mut exact = vec![b'b'; MAX_LINE_BYTES];
        exact.push(b'\n');
        assert_eq!(lines(&exact).len(), 1);
        assert!(matches!(&lines(&exact)[0], Text(t) if t.len() == MAX_LINE_BYTES));
        assert_eq!(lines(b""), []);
    }

    #[test]
    fn numbers_saturate() {
        assert_eq!(parse_saturating("300"), Some(300));
        assert_eq!(parse_saturating("+7"), Some(7));
        assert_eq!(parse_saturating("-5"), Some(0));
        assert_eq!(parse_saturating("18446744073709551615"), Some(u64::MAX));
        assert_eq!(
            parse_saturating("99999999999999999999999999999999"),
            Some(u64::MAX)
        );
        for bad in ["", "-", "1.5", "ten", "1e9", "0x10"] {
            assert_eq!(parse_saturating(bad), None, "{bad}");
        }
    }
}
