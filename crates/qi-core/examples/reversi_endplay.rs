//! How well level 6 plays late-midgame positions under a move time, two settings side by
//! side: for each position (one a line, `qi-engine solve`'s form: 64 squares a1..h8 of X, O
//! and -, then the side to move) each setting chooses a move, and the solver says whether the
//! move keeps the position's win/loss/draw outcome (a lost position counts only when the move
//! loses by no more: its exact score is compared there).
//!
//! ```text
//! cargo run --release -p qi-core --example reversi_endplay -- positions.txt --movetime 1000 --a "" --b exact=20
//! ```
//!
//! The settings are `qi-engine match`'s (`key=value`, comma-separated, see `Tunable`). Each line
//! of output: empties, the outcome, and per setting `ok` or `LOST`/`DRAWN` with the move; then a
//! tally per number of empties.

#[path = "common/args.rs"]
mod args;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use args::{arg, positional};
use qi_core::Game;
use qi_core::ai::Cpu;
use qi_core::ai::endgame::Solver;
use qi_core::engine::matches::{Config, Tunable};
use qi_core::reversi::Reversi;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let files = positional(&args);
    let movetime = Duration::from_millis(arg(&args, "--movetime", 1000u64));
    // `qi-engine match`'s engine settings (the level is always 6 here)
    let sets: Vec<Vec<(String, i32)>> = ["--a", "--b"]
        .iter()
        .map(|n| {
            arg(&args, n, String::new())
                .parse::<Config>()
                .map(|c| c.settings)
        })
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| {
            eprintln!("reversi_endplay: {e}");
            std::process::exit(2);
        });
    // unknown keys are refused here, before any work
    for set in &sets {
        let mut e = <Reversi as qi_core::ai::Ai>::eval_for_level(6, 0);
        for (key, v) in set {
            if let Err(err) = Reversi::tune(&mut e, key, *v) {
                eprintln!("reversi_endplay: {err}");
                std::process::exit(2);
            }
        }
    }
    let Some(file) = files.first() else {
        eprintln!("usage: reversi_endplay FILE [--movetime MS] [--a SETTINGS] [--b SETTINGS]");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| {
        eprintln!("reversi_endplay: {file}: {e}");
        std::process::exit(2);
    });
    let stop = Arc::new(AtomicBool::new(false));
    let mut oracle = Solver::new(64);
    // per empties: positions, and moves that kept the outcome per setting
    let mut tally: BTreeMap<u32, (u32, [u32; 2])> = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = match Reversi::from_text(line) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("line {}: {e}", n + 1);
                continue;
            }
        };
        if pos.is_over() {
            continue;
        }
        let empties = 64 - (pos.discs[0] | pos.discs[1]).count_ones();
        let truth = oracle.solve(&pos, None, None).expect("no stop").score;
        let mut out = format!("{empties} {truth:+}");
        let entry = tally.entry(empties).or_insert((0, [0, 0]));
        entry.0 += 1;
        for (k, set) in sets.iter().enumerate() {
            let mut cpu = Cpu::<Reversi>::new(6, 16);
            let r = cpu.choose_tuned(
                &pos,
                movetime,
                &stop,
                n as u64,
                &mut |e| {
                    for (key, v) in set {
                        Reversi::tune(e, key, *v).expect("a known setting");
                    }
                },
                &mut |_| {},
            );
            let m = r.best.expect("a move");
            let mut q = pos;
            q.play(m).expect("a legal move");
            let after = -oracle.solve(&q, None, None).expect("no stop").score;
            // a won or drawn position must stay so; a lost one must not lose more
            let kept = if truth >= 0 {
                after.signum() == truth.signum()
            } else {
                after == truth
            };
            if kept {
                entry.1[k] += 1;
            }
            let word = if kept { "ok" } else { "MISSED" };
            out.push_str(&format!(" | {word} {} {after:+}", pos.move_to_text(m)));
        }
        println!("{out}");
    }
    println!("empties positions kept(a) kept(b)");
    for (e, (n, k)) in &tally {
        println!("{e} {n} {} {}", k[0], k[1]);
    }
}
