//! The training program of the Reversi pattern evaluation ([`qi_core::ai::patterns`]): it makes
//! the training positions by self-play and fits the pattern weights to them.
//!
//! The data recipe (what `data/reversi-patterns.bin` was trained on is in the module doc of
//! `qi_core::ai::patterns`):
//!
//! ```text
//! # 1. self-play positions, one process per core, different seeds:
//! cargo run --release -p qi-core --example reversi_patterns -- gen --games 20000 --seed 1 --out /tmp/rp1.txt
//! cargo run --release -p qi-core --example reversi_patterns -- gen --games 20000 --seed 2 --out /tmp/rp2.txt
//! # 2. the fit, written as the weights file the crate embeds:
//! cargo run --release -p qi-core --example reversi_patterns -- train /tmp/rp1.txt /tmp/rp2.txt --out crates/qi-core/data/reversi-patterns.bin
//! ```
//!
//! `gen` plays games from the start position: a random number (4-11) of uniformly random
//! moves, then moves chosen by a 2-ply search on the hand-made evaluation
//! ([`ReversiWeights::FULL`]) with a random move one time in ten, until `--solve-at` empty
//! squares (18 by default); with `--play-depth D`, by a D-ply alpha-beta search on the same
//! evaluation and no random moves (slower, but the game results are closer to the positions'
//! values). From there the exact solver plays both sides perfectly to the end.
//! Every position with `--solve-at` empties or fewer is labelled with its exact score (the
//! solver's value); at each of those positions one other legal move is also played and the
//! position after it solved and kept, so that the data holds positions off the perfect line
//! too. The positions before `--solve-at` are labelled with the game's final disc difference
//! from the side to move's view (perfect play from `--solve-at` on), a noisier label.
//! With `--label-depth D`, the moves before `--solve-at` come from level 6's search (the
//! trained patterns with ProbCut) to depth D, one in ten random after the opening, and each
//! of those positions is labelled by that search's value instead of the game's result (a
//! position whose search finds the game decided keeps the game result).
//! Output lines: `<own bitboard hex> <opponent bitboard hex> <score> <1 exact | 0 game result
//! | 2 searched>`; `train` weighs searched and game-result labels alike (`--game-weight` or
//! `file@w`).
//!
//! `train` fits the weights by least squares (see [`qi_core::ai::patterns::train`]; with
//! `--base embedded` or `--base FILE` the ridge penalty pulls towards those weights rather than
//! zero, [`qi_core::ai::patterns::train_from`]) and prints
//! the mean squared error per phase on the training positions and on the positions held out:
//! every tenth block of 1,000 lines, so that the held-out positions come from other games than
//! the fitted ones (a game writes about 80 lines in a row). Until session 18 every tenth line
//! was held out: its neighbours from the same game were fitted, and the held-out error came out
//! too low. On 35,000 lines of games of their own, round four's weights erred 7.39 discs at
//! 20-23 empties and a refit on 198,000 lines of other games 8.13 (prior 4; 7.45 with prior
//! 256), where the every-tenth-line figure had said 7.32 against 6.95.
//! `train FILE --base W --epochs 0` measures weights `W` on `FILE` unchanged.

use std::io::{BufWriter, Write};

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use qi_core::ai::endgame::{Solver, final_score};
use qi_core::ai::reversi::{ReversiEval, ReversiWeights};
use qi_core::game::Side;
use qi_core::reversi::{flips, mobility};
use qi_core::search::{Limits, Rng, Searcher};

#[path = "common/args.rs"]
mod args;
use args::*;

fn play(p: u64, o: u64, sq: u8) -> (u64, u64) {
    let f = flips(p, o, sq);
    (o & !f, p | f | (1u64 << sq))
}

fn moves_of(m: u64) -> Vec<u8> {
    let mut v = Vec::new();
    let mut m = m;
    while m != 0 {
        v.push(m.trailing_zeros() as u8);
        m &= m - 1;
    }
    v
}

/// A 2-ply negamax on the hand-made evaluation; returns the best move.
fn pick(p: u64, o: u64) -> u8 {
    let w = ReversiWeights::FULL;
    let mut best = (i32::MIN, 0u8);
    for sq in moves_of(mobility(p, o)) {
        let (np, no) = play(p, o, sq);
        // np is now the opponent (to move)
        let replies = mobility(np, no);
        let v = if replies == 0 {
            -w.evaluate(np, no)
        } else {
            let mut worst = i32::MAX;
            for r in moves_of(replies) {
                let (a, b) = play(np, no, r);
                // a = our discs, to move again
                worst = worst.min(w.evaluate(a, b));
            }
            worst
        };
        if v > best.0 {
            best = (v, sq);
        }
    }
    best.1
}

/// A search score (side to move's view, 100 a disc, 1000 a disc for a finished game) as a
/// label in discs; `None` for a decided game, whose disc count the score does not keep.
fn label_in_discs(score: i32) -> Option<f32> {
    if qi_core::search::is_decided(score) {
        None
    } else if score.abs() > 6400 {
        Some(score as f32 / 1000.0)
    } else {
        Some(score as f32 / 100.0)
    }
}

fn generate(args: &[String]) {
    let games: u64 = arg(args, "--games", 1000);
    let seed: u64 = arg(args, "--seed", 1);
    let solve_at: u32 = arg(args, "--solve-at", 18);
    let out: String = arg(args, "--out", "/tmp/reversi-patterns.txt".to_string());
    let play_depth: u32 = arg(args, "--play-depth", 0);
    let label_depth: u32 = arg(args, "--label-depth", 0);
    let mut searcher = Searcher::new(ReversiEval::new(ReversiWeights::FULL), 16);
    // level 6's search (the trained patterns, ProbCut, ordering by the patterns) for the labels
    let mut labeller = Searcher::new(ReversiEval::default(), 16);
    let stop = Arc::new(AtomicBool::new(false));
    let mut file = BufWriter::new(std::fs::File::create(&out).expect("the output file"));
    let mut rng = Rng::new(seed);
    let mut solver = Solver::new(64);
    let started = std::time::Instant::now();
    let (mut exact, mut noisy, mut labelled) = (0u64, 0u64, 0u64);
    for g in 0..games {
        // (own, opp) of the side to move, and whether that side is black
        let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
        let mut black = true;
        let mut before: Vec<(u64, u64, bool)> = Vec::new();
        // positions labelled by a search, with the label in discs
        let mut searched: Vec<(u64, u64, f32)> = Vec::new();
        let random_plies = 4 + rng.below(8);
        let mut ply = 0;
        // the midgame, up to `solve_at` empties
        loop {
            let empties = 64 - (p | o).count_ones();
            if empties <= solve_at {
                break;
            }
            let m = mobility(p, o);
            if m == 0 {
                if mobility(o, p) == 0 {
                    break;
                }
                (p, o, black) = (o, p, !black);
                continue;
            }
            let list = moves_of(m);
            if label_depth > 0 {
                // one search gives the label and the move (one in ten random after the opening)
                let pos = qi_core::reversi::Reversi::from_parts(
                    if black { [p, o] } else { [o, p] },
                    if black { Side::Black } else { Side::White },
                );
                let r = labeller.search(&pos, &Limits::depth(label_depth), &stop, &mut |_| {});
                if let Some(label) = label_in_discs(r.score) {
                    searched.push((p, o, label));
                } else {
                    before.push((p, o, black));
                }
                let sq = if ply < random_plies || rng.below(10) == 0 {
                    list[rng.below(list.len() as u64) as usize]
                } else {
                    r.best.expect("a move")
                };
                (p, o) = play(p, o, sq);
                black = !black;
                ply += 1;
                continue;
            }
            before.push((p, o, black));
            let sq = if ply < random_plies || (play_depth == 0 && rng.below(10) == 0) {
                list[rng.below(list.len() as u64) as usize]
            } else if play_depth > 0 {
                let pos = qi_core::reversi::Reversi::from_parts(
                    if black { [p, o] } else { [o, p] },
                    if black { Side::Black } else { Side::White },
                );
                let r = searcher.search(&pos, &Limits::depth(play_depth), &stop, &mut |_| {});
                r.best.expect("a move")
            } else {
                pick(p, o)
            };
            (p, o) = play(p, o, sq);
            black = !black;
            ply += 1;
        }
        // the endgame, perfect play; `result_black` is the final score from black's view
        let mut result_black = None;
        loop {
            let m = mobility(p, o);
            if m == 0 && mobility(o, p) == 0 {
                let s = final_score(p, o);
                result_black.get_or_insert(if black { s } else { -s });
                writeln!(file, "{p:016x} {o:016x} {s} 1").unwrap();
                exact += 1;
                break;
            }
            if m == 0 {
                (p, o, black) = (o, p, !black);
                continue;
            }
            let pos = qi_core::reversi::Reversi::from_parts(
                if black { [p, o] } else { [o, p] },
                if black { Side::Black } else { Side::White },
            );
            let sol = solver.solve(&pos, None, None).expect("no stop flag");
            result_black.get_or_insert(if black { sol.score } else { -sol.score });
            writeln!(file, "{p:016x} {o:016x} {} 1", sol.score).unwrap();
            exact += 1;
            let best = sol.best.expect("a move");
            let list = moves_of(m);
            if list.len() > 1 {
                let others: Vec<u8> = list.iter().copied().filter(|&s| s != best).collect();
                let alt = others[rng.below(others.len() as u64) as usize];
                let (ap, ao) = play(p, o, alt);
                let apos = qi_core::reversi::Reversi::from_parts(
                    if black { [ao, ap] } else { [ap, ao] },
                    if black { Side::White } else { Side::Black },
                );
                let s = solver.solve(&apos, None, None).expect("no stop flag");
                writeln!(file, "{ap:016x} {ao:016x} {} 1", s.score).unwrap();
                exact += 1;
            }
            (p, o) = play(p, o, best);
            black = !black;
        }
        for (sp, so, label) in searched {
            writeln!(file, "{sp:016x} {so:016x} {label:.2} 2").unwrap();
            labelled += 1;
        }
        let rb = result_black.unwrap_or(0);
        for (bp, bo, bb) in before {
            writeln!(file, "{bp:016x} {bo:016x} {} 0", if bb { rb } else { -rb }).unwrap();
            noisy += 1;
        }
        if (g + 1) % 200 == 0 {
            file.flush().unwrap();
            eprintln!(
                "{} games, {exact} exact, {labelled} searched and {noisy} game-result positions, {:.0} s",
                g + 1,
                started.elapsed().as_secs_f64()
            );
        }
    }
    file.flush().unwrap();
    eprintln!(
        "done: {games} games, {exact} exact, {labelled} searched and {noisy} game-result positions, {:.0} s",
        started.elapsed().as_secs_f64()
    );
}

fn train(args: &[String]) {
    use qi_core::ai::patterns::{Sample, TrainOptions, Weights, phase_error, train_from};
    let files: Vec<&String> = args.iter().take_while(|a| !a.starts_with("--")).collect();
    // an unknown option (`--help` among them) or no data file writes nothing: the default
    // output is the weights file the crate embeds
    const OPTIONS: [&str; 6] = [
        "--out",
        "--epochs",
        "--prior",
        "--overlap",
        "--game-weight",
        "--base",
    ];
    let rest = &args[files.len()..];
    let bad = rest
        .iter()
        .step_by(2)
        .find(|a| !OPTIONS.contains(&a.as_str()))
        .or((rest.len() % 2 == 1).then(|| &rest[rest.len() - 1]));
    if files.is_empty() || bad.is_some() {
        if let Some(b) = bad {
            eprintln!("train: unknown option or missing value: {b}");
        }
        eprintln!("{USAGE}");
        std::process::exit(2);
    }
    let out: String = arg(
        args,
        "--out",
        "crates/qi-core/data/reversi-patterns.bin".to_string(),
    );
    let d = TrainOptions::default();
    let opts = TrainOptions {
        epochs: arg(args, "--epochs", d.epochs),
        prior: arg(args, "--prior", d.prior),
        overlap: arg(args, "--overlap", d.overlap),
    };
    let game_weight: f32 = arg(args, "--game-weight", 0.5);
    // `--base embedded` or `--base FILE`: a refit pulling towards those weights, not zero
    let base: Option<Weights> = match arg(args, "--base", String::new()).as_str() {
        "" => None,
        "embedded" => Some(Weights::embedded()),
        f => match std::fs::read(f)
            .map_err(|e| e.to_string())
            .and_then(|b| Weights::from_bytes(&b).map_err(|e| e.to_string()))
        {
            Ok(w) => Some(w),
            Err(e) => {
                eprintln!("--base {f}: {e}");
                std::process::exit(2);
            }
        },
    };
    let started = std::time::Instant::now();
    let (mut fit, mut held) = (Vec::new(), Vec::new());
    let mut line_no = 0u64;
    for spec in files {
        // `file@w`: this file's game-result positions weigh `w` instead of --game-weight
        let (f, game_weight) = match spec.split_once('@') {
            Some((f, w)) => (f, w.parse().expect("a weight after @")),
            None => (spec.as_str(), game_weight),
        };
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| {
            eprintln!("{f}: {e}");
            std::process::exit(2);
        });
        for line in text.lines() {
            let parts: Vec<&str> = line.split_whitespace().collect();
            let parsed = (|| {
                let p = u64::from_str_radix(parts.first()?, 16).ok()?;
                let o = u64::from_str_radix(parts.get(1)?, 16).ok()?;
                let s: f32 = parts.get(2)?.parse().ok()?;
                let exact = match *parts.get(3)? {
                    "1" => true,
                    "0" | "2" => false,
                    _ => return None,
                };
                (p & o == 0).then_some((p, o, s, exact))
            })();
            let Some((p, o, s, exact)) = parsed else {
                eprintln!("{f}: skipped a bad line: {line}");
                continue;
            };
            let sample = Sample::new(p, o, s, if exact { 1.0 } else { game_weight });
            line_no += 1;
            // whole blocks of lines, so that a game's positions fall on one side (but the few
            // games cut by a block's edge)
            if (line_no / 1000) % 10 == 9 {
                held.push(sample);
            } else {
                fit.push(sample);
            }
        }
    }
    eprintln!(
        "{} positions to fit, {} held out, read in {:.1} s; {opts:?}",
        fit.len(),
        held.len(),
        started.elapsed().as_secs_f64()
    );
    if fit.is_empty() {
        eprintln!("no positions to fit: nothing written");
        std::process::exit(2);
    }
    let held_ref = &held;
    let w = train_from(&fit, &opts, base.as_ref(), |ph, n, err, w, sc| {
        let lo = ph as u32 * qi_core::ai::patterns::PHASE_WIDTH;
        let hi = lo + qi_core::ai::patterns::PHASE_WIDTH - 1;
        let test: Vec<&Sample> = held_ref
            .iter()
            .filter(|s| s.empties >= lo && s.empties <= hi)
            .collect();
        let exact: Vec<&Sample> = test.iter().copied().filter(|s| s.weight == 1.0).collect();
        eprintln!(
            "phase {ph:2} ({lo:2}-{hi:2} empties): {n:7} positions, fit rms {:.2} discs, held-out rms {:.2} ({} positions), exact-score held-out rms {:.2} ({}), bias {:.2} mobility {:.2}",
            err.sqrt(),
            phase_error(&test, w, sc).sqrt(),
            test.len(),
            phase_error(&exact, w, sc).sqrt(),
            exact.len(),
            sc[0],
            sc[1]
        );
    });
    let bytes = w.to_bytes();
    let tmp = format!("{out}.tmp");
    std::fs::write(&tmp, &bytes).expect("writing the weights");
    std::fs::rename(&tmp, &out).expect("moving the weights into place");
    eprintln!(
        "wrote {out} ({} bytes) after {:.1} s",
        bytes.len(),
        started.elapsed().as_secs_f64()
    );
}

const USAGE: &str = "usage: reversi_patterns gen [--games N] [--seed S] [--solve-at E] [--play-depth D] [--label-depth D] [--out FILE]
       reversi_patterns train FILE[@W]... [--out FILE] [--epochs N] [--prior P] [--overlap E] [--game-weight W] [--base embedded|FILE]";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("gen") => generate(&args[2..]),
        Some("train") => train(&args[2..]),
        _ => {
            eprintln!("{USAGE}");
            std::process::exit(2);
        }
    }
}
