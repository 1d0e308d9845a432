//! perft speed (release, one core): Ataxx depth 6 from the start and from a position with
//! blocked squares, Reversi depth 9 from the start. Each run also checks the count against the
//! tables in tests/data, so a fast but wrong move generator cannot pass unnoticed.
//! `cargo bench -p qi-core --bench perft`; the deepest counts (Ataxx depth 7-8) run with
//! `qi-engine perft ataxx 8`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use qi_core::ataxx::Ataxx;
use qi_core::game::{Game, perft};
use qi_core::reversi::Reversi;

fn table(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn ataxx_count(fen: &str, depth: usize) -> u64 {
    let text = table("ataxx-perft.txt");
    let line = text.lines().find(|l| l.starts_with(fen)).unwrap();
    line.split_once(';')
        .unwrap()
        .1
        .split_whitespace()
        .nth(depth - 1)
        .unwrap()
        .parse()
        .unwrap()
}

fn bench_perft(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    for (name, fen) in [
        ("ataxx start", "x5o/7/7/7/7/7/o5x x 0 1"),
        ("ataxx blocked", "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1"),
    ] {
        let want = ataxx_count(fen, 6);
        g.throughput(Throughput::Elements(want));
        g.bench_function(format!("{name} depth 6"), |b| {
            b.iter(|| {
                let mut p = Ataxx::from_text(fen).unwrap();
                assert_eq!(perft(&mut p, 6), want);
            })
        });
    }
    let text = table("reversi-perft.txt");
    let row = text.lines().find(|l| l.starts_with("finished=0")).unwrap();
    let want: u64 = row
        .split_once(';')
        .unwrap()
        .1
        .split_whitespace()
        .nth(8)
        .unwrap()
        .parse()
        .unwrap();
    g.throughput(Throughput::Elements(want));
    g.bench_function("reversi start depth 9", |b| {
        b.iter(|| {
            let mut p = Reversi::start();
            assert_eq!(perft(&mut p, 9), want);
        })
    });
    g.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
