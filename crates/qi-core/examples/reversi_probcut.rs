//! Calibration of level 6's ProbCut ([`qi_core::ai::reversi::ReversiEval::probcut`]): how far a
//! search to depth `D` lands from the search to the shallow depth that ProbCut probes with,
//! over positions of the `reversi_patterns gen` files.
//!
//! ```text
//! cargo run --release -p qi-core --example reversi_probcut -- rl8-3.txt --positions 300 --max-depth 10
//! ```
//!
//! For each searched position of the files (label type 2, above the solver's empties), every
//! fourth taken until `--positions`, both searches run without ProbCut (the pattern
//! evaluation, a fresh table each). The program prints, per depth `D` from 3 and each shallow
//! depth `d` that level 6 probes it with (two from 10 plies), the mean and standard deviation
//! of `v(D) - v(d)` in discs, the regression `v(D) ≈ a v(d) + b` and its residual deviation,
//! and the margin level 6 uses today (`probcut + 25 D` hundredths) in those deviations. Positions whose search finds the game decided are left out.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use qi_core::ai::reversi::{PROBCUT_MARGIN, ReversiEval};
use qi_core::game::Side;
use qi_core::reversi::Reversi;
use qi_core::search::{Evaluator, Limits, Searcher, is_decided};

#[path = "common/args.rs"]
mod args;
use args::*;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let positions: usize = arg(&args, "--positions", 200);
    let max_depth: i32 = arg(&args, "--max-depth", 10);
    let files = positional(&args);
    if files.is_empty() {
        eprintln!("usage: reversi_probcut FILE... [--positions N] [--max-depth D]");
        std::process::exit(2);
    }
    let mut list = Vec::new();
    let mut seen = 0usize;
    'files: for f in &files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{f}: {e}");
                std::process::exit(2);
            }
        };
        for line in text.lines() {
            let w: Vec<&str> = line.split_whitespace().collect();
            if w.len() != 4 || w[3] != "2" {
                continue;
            }
            seen += 1;
            if !seen.is_multiple_of(4) {
                continue;
            }
            let (Ok(p), Ok(o)) = (u64::from_str_radix(w[0], 16), u64::from_str_radix(w[1], 16))
            else {
                continue;
            };
            list.push(Reversi::from_parts([p, o], Side::Black));
            if list.len() >= positions {
                break 'files;
            }
        }
    }
    eprintln!("{} positions", list.len());
    let eval = ReversiEval {
        probcut: 0,
        ..ReversiEval::default()
    };
    let stop = Arc::new(AtomicBool::new(false));
    let value = |pos: &Reversi, depth: i32| -> Option<f64> {
        let mut s = Searcher::new(eval.clone(), 4);
        let r = s.search(pos, &Limits::depth(depth as u32), &stop, &mut |_| {});
        (!is_decided(r.score)).then_some(r.score as f64 / 100.0)
    };
    let with_cut = ReversiEval {
        probcut: PROBCUT_MARGIN,
        ..ReversiEval::default()
    };
    println!("D d n mean_diff sd_diff a b sd_resid margin_now margin_now/sd_resid");
    let pairs: Vec<(i32, i32, i32)> = (3..=max_depth)
        .flat_map(|depth| {
            (0..4)
                .map_while(|k| with_cut.probcut_try(depth, k))
                .map(move |(d, m)| (depth, d, m))
                .collect::<Vec<_>>()
        })
        .collect();
    for (depth, d, margin) in pairs {
        let mut pairs = Vec::new();
        for pos in &list {
            if let (Some(deep), Some(shallow)) = (value(pos, depth), value(pos, d)) {
                pairs.push((shallow, deep));
            }
        }
        let n = pairs.len() as f64;
        if n < 3.0 {
            continue;
        }
        let diffs: Vec<f64> = pairs.iter().map(|(s, d)| d - s).collect();
        let mean = diffs.iter().sum::<f64>() / n;
        let sd = (diffs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        let (mx, my) = (
            pairs.iter().map(|p| p.0).sum::<f64>() / n,
            pairs.iter().map(|p| p.1).sum::<f64>() / n,
        );
        let sxy: f64 = pairs.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
        let sxx: f64 = pairs.iter().map(|(x, _)| (x - mx).powi(2)).sum();
        let a = sxy / sxx;
        let b = my - a * mx;
        let resid = (pairs
            .iter()
            .map(|(x, y)| (y - a * x - b).powi(2))
            .sum::<f64>()
            / (n - 2.0))
            .sqrt();
        let m = margin as f64 / 100.0;
        println!(
            "{depth} {d} {} {mean:.2} {sd:.2} {a:.3} {b:.2} {resid:.2} {m:.2} {:.2}",
            pairs.len(),
            m / resid
        );
    }
}
