//! Solves FFO-style endgame positions and reports each result with its time.
//!
//! `cargo run --release -p qi-core --example ffo -- [file] [numbers]` (numbers and ranges,
//! comma-separated, e.g. `40-53,55`), for example
//! `cargo run --release -p qi-core --example ffo -- crates/qi-core/data/reversi-ffo40-59.txt 40-59`.
//! File lines are `<board> <side> <best moves /-separated> <score>`; line k is number 39 + k.
//! Times are wall time and this thread's CPU time (from /proc/thread-self/schedstat on Linux),
//! so runs on a loaded machine can be judged by the CPU time. The solver's switch points can be
//! set with QI_SHALLOW, QI_TT, QI_ETC, QI_SORT, QI_D2, QI_D3, QI_SMOB, QI_FULL, QI_PAT, QI_PMAX, QI_SWIN, QI_LATEST and QI_SPLIT (see
//! `SolverOptions`); QI_HASH the table size in MB, QI_INC=0 the ordering searches without incremental features
//! (64 by default); QI_THREADS the solving threads (1 by default); QI_MTD=<score> starts the null-window probes there instead of at 0;
//! QI_STATS=1 prints, after each position, its nodes per number of empties (from 7) with how
//! often they cut and how often on the first move searched.

use std::time::Instant;

use qi_core::ai::endgame::{Solver, SolverOptions};
use qi_core::game::Game;
use qi_core::reversi::Reversi;

fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let file = args
        .get(1)
        .cloned()
        .unwrap_or_else(|| "crates/qi-core/data/reversi-ffo40-59.txt".to_string());
    // numbers and ranges, comma-separated: `40-53,55`
    let wanted: Vec<(u32, u32)> = args
        .get(2)
        .map_or("40-59", String::as_str)
        .split(',')
        .map(|r| {
            let mut it = r.split('-');
            let a: u32 = it.next().unwrap().parse().expect("a number");
            let b: u32 = it.next().map_or(a, |b| b.parse().expect("a number"));
            (a, b)
        })
        .collect();
    let text = std::fs::read_to_string(&file).expect("the positions file");
    let env = |k: &str, d: u32| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let mut solver = Solver::new(env("QI_HASH", 64) as usize);
    let o = SolverOptions::default();
    solver.options = SolverOptions {
        shallow: env("QI_SHALLOW", o.shallow),
        tt_min: env("QI_TT", o.tt_min),
        etc_min: env("QI_ETC", o.etc_min),
        sort_search: env("QI_SORT", o.sort_search),
        sort_depth1: env("QI_D1", o.sort_depth1),
        sort_depth2: env("QI_D2", o.sort_depth2),
        sort_depth3: env("QI_D3", o.sort_depth3),
        split_min: env("QI_SPLIT", o.split_min),
        sort_mobility: env("QI_SMOB", o.sort_mobility as u32) as i32,
        sort_full_eval: env("QI_FULL", o.sort_full_eval as u32) != 0,
        sort_patterns: env("QI_PAT", o.sort_patterns as u32) != 0,
        pattern_max_empties: env("QI_PMAX", o.pattern_max_empties),
        sort_window: env("QI_SWIN", o.sort_window as u32) as i32,
        latest_within: env("QI_LATEST", o.latest_within as u32) as i32,
        incremental: env("QI_INC", o.incremental as u32) != 0,
        pc_margin: env("QI_PC", o.pc_margin as u32) as i32,
        pc_min: env("QI_PCMIN", o.pc_min),
        pc_depth: env("QI_PCD", o.pc_depth),
        pc_levels: env("QI_PCL", o.pc_levels),
        pc_root: env("QI_PCROOT", o.pc_root),
        pc_guess: env("QI_PCG", o.pc_guess as u32) as i32,
    };
    solver.threads = env("QI_THREADS", 1) as usize;
    solver.collect_stats = std::env::var("QI_STATS").is_ok();
    eprintln!("{:?}, {} threads", solver.options, solver.threads);
    let (mut wall, mut cpu, mut nodes, mut failures) = (0.0, 0.0, 0u64, 0);
    for (i, line) in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .enumerate()
    {
        let n = 40 + i as u32;
        if !wanted.iter().any(|&(a, b)| (a..=b).contains(&n)) {
            continue;
        }
        let w: Vec<&str> = line.split_whitespace().collect();
        let pos = Reversi::from_text(&format!("{} {}", w[0], w[1])).expect("a position");
        let best: Vec<&str> = w[2].split('/').collect();
        let score: i32 = w[3].parse().expect("a score");
        solver.clear();
        let (t, c) = (Instant::now(), cpu_seconds());
        let sol = if let Ok(g) = std::env::var("QI_MTD") {
            solver.solve_mtd(&pos, g.parse::<i32>().unwrap(), None, None)
        } else {
            solver.solve(&pos, None, None)
        }
        .expect("not stopped");
        let secs = t.elapsed().as_secs_f64();
        let csecs = match (c, cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => secs,
        };
        let mv = pos.move_to_text(sol.best.expect("a move"));
        let ok = sol.score == score && best.contains(&mv.as_str());
        if !ok {
            failures += 1;
        }
        println!(
            "#{n} {mv} {:+} (expected {} {score:+}, first guess {:+}) {} nodes {secs:.2} s wall {csecs:.2} s cpu \
             {:.1} Mn/s{}",
            sol.score,
            w[2],
            solver.estimate(&pos),
            solver.nodes,
            solver.nodes as f64 / csecs.max(1e-9) / 1e6,
            if ok { "" } else { " WRONG" }
        );
        wall += secs;
        cpu += csecs;
        if std::env::var("QI_STATS").is_ok() {
            for (e, st) in solver.stats.iter().enumerate() {
                if st[0] > 0 {
                    eprintln!(
                        "  e{e:2} nodes {:>10} cuts {:>9} first {:5.1}% multi {:>9} avg_cut_idx {:.2}",
                        st[0],
                        st[1],
                        100.0 * st[2] as f64 / st[1].max(1) as f64,
                        st[3],
                        st[4] as f64 / st[1].max(1) as f64
                    );
                }
            }
            solver.stats.iter_mut().for_each(|s| *s = [0; 5]);
        }
        nodes += solver.nodes;
    }
    println!(
        "total {nodes} nodes {wall:.1} s wall {cpu:.1} s cpu {:.1} Mn/s, {failures} wrong",
        nodes as f64 / cpu.max(1e-9) / 1e6
    );
}
