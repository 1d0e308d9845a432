//! Search speed: fixed-depth Ataxx and Reversi searches and exact Reversi endgame solves.
//!
//! `cargo bench -p qi-core --bench search`. The positions are fixed (random openings from a
//! fixed seed, and FFO #40 with its first moves played out), so runs compare across commits.

use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, criterion_group, criterion_main};
use qi_core::ai::Ai;
use qi_core::ai::endgame::Solver;
use qi_core::ataxx::Ataxx;
use qi_core::engine::matches::random_opening;
use qi_core::game::Game;
use qi_core::reversi::Reversi;
use qi_core::search::{Limits, Rng, Searcher};

fn positions<G: Game>(n: u32) -> Vec<G> {
    let mut rng = Rng::new(11);
    (0..n)
        .map(|i| random_opening(6 + 2 * i, &mut rng))
        .collect()
}

fn fixed_depth<G: Ai>(c: &mut Criterion, name: &str, depth: u32) {
    let pos = positions::<G>(4);
    let stop = Arc::new(AtomicBool::new(false));
    c.bench_function(name, |b| {
        b.iter(|| {
            let mut nodes = 0;
            for p in &pos {
                let mut s = Searcher::new(G::eval_for_level(6, 0), 4);
                nodes += s
                    .search(p, &Limits::depth(depth), &stop, &mut |_| {})
                    .info
                    .nodes;
            }
            black_box(nodes)
        })
    });
}

fn searches(c: &mut Criterion) {
    fixed_depth::<Ataxx>(c, "ataxx depth 5", 5);
    fixed_depth::<Reversi>(c, "reversi depth 7", 7);
}

fn endgame(c: &mut Criterion) {
    // FFO #40 (20 empties) with its best line played until 14 empties remain
    let mut pos =
        Reversi::from_text("O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X")
            .unwrap();
    let mut solver = Solver::new(16);
    while 64 - (pos.discs[0] | pos.discs[1]).count_ones() > 14 {
        solver.clear();
        let sol = solver.solve(&pos, None, None).unwrap();
        pos.play(sol.best.unwrap()).unwrap();
    }
    c.bench_function("reversi solve 14 empties", |b| {
        b.iter(|| {
            solver.clear();
            black_box(solver.solve(&pos, None, None).unwrap())
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = searches, endgame
}
criterion_main!(benches);
