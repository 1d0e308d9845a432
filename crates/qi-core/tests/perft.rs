//! perft against the tables in tests/data (copied from the project's shared/data).

use qi_core::ataxx::Ataxx;
use qi_core::game::{Game, perft};
use qi_core::reversi::Reversi;

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn ataxx_perft_table_depths_1_to_5() {
    let text = data("ataxx-perft.txt");
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (fen, counts) = line.split_once(';').unwrap();
        let mut pos = Ataxx::from_text(fen.trim()).unwrap();
        assert_eq!(pos.to_text(), fen.trim(), "FEN round trip");
        for (i, want) in counts.split_whitespace().take(5).enumerate() {
            let want: u64 = want.parse().unwrap();
            let got = perft(&mut pos, i as u32 + 1);
            assert_eq!(got, want, "{fen} depth {}", i + 1);
            checked += 1;
        }
    }
    assert_eq!(checked, 7 * 5);
}

#[test]
fn reversi_perft_depths_1_to_9() {
    let text = data("reversi-perft.txt");
    let line = text.lines().find(|l| l.starts_with("finished=0")).unwrap();
    let counts: Vec<u64> = line
        .split_once(';')
        .unwrap()
        .1
        .split_whitespace()
        .map(|s| s.parse().unwrap())
        .collect();
    let mut pos = Reversi::start();
    for depth in 1..=9 {
        assert_eq!(
            perft(&mut pos, depth),
            counts[depth as usize - 1],
            "depth {depth}"
        );
    }
    assert_eq!(
        pos,
        Reversi::start(),
        "perft leaves the position as it found it"
    );
}
