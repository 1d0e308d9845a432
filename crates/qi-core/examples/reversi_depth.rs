//! The depth level 6's midgame search reaches in a given time: 20 positions of random play
//! `plies` into the game (seed 3), each searched afresh for `ms` milliseconds; prints each
//! search's depth and thousands of nodes, then the mean depth.
//!
//! `cargo run --release -p qi-core --example reversi_depth -- [plies] [ms] [key=value,...]`
//! (defaults 12 and 600; the settings as in `qi-engine match`, e.g. `frontier=0,ttdepth=1`).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use qi_core::ai::reversi::ReversiEval;
use qi_core::engine::matches::{Tunable, random_opening};
use qi_core::reversi::Reversi;
use qi_core::search::{Limits, Rng, Searcher};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let plies: u32 = args.first().map_or(12, |a| a.parse().expect("plies"));
    let ms: u64 = args
        .get(1)
        .map_or(600, |a| a.parse().expect("milliseconds"));
    let mut eval = ReversiEval::default();
    for kv in args
        .get(2)
        .map_or("", |s| s.as_str())
        .split(',')
        .filter(|s| !s.is_empty())
    {
        let (k, v) = kv.split_once('=').expect("key=value");
        Reversi::tune(&mut eval, k, v.parse().expect("a number")).expect("a setting");
    }
    let mut rng = Rng::new(3);
    let stop = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        depth: Some(60),
        ..Limits::movetime(Duration::from_millis(ms))
    };
    let mut depths = 0;
    for _ in 0..20 {
        let pos = random_opening::<Reversi>(plies, &mut rng);
        let mut s = Searcher::new(eval.clone(), 16);
        let r = s.search(&pos, &limits, &stop, &mut |_| {});
        depths += r.info.depth;
        print!("{}/{}k ", r.info.depth, r.info.nodes / 1000);
    }
    println!("\nmean depth {:.2}", depths as f64 / 20.0);
}
