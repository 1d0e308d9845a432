//! Candidate moves for the analysis (as KaTrain and Lizzie show them): the most visited moves
//! at the root of a search, with their win rates.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::PASS;
use super::board::Board;
use super::mcts::Tree;
use crate::go::{Go, Move};

/// The `max` most visited moves at the root after searching `pos` for `budget` (or until
/// `stop`; at least `min_playouts` playouts either way), most visited first: the move, its playouts and the win rate (0..1) of the side to
/// move after it. A pass is left out.
pub fn root_candidates(
    pos: &Go,
    budget: Duration,
    stop: &AtomicBool,
    seed: u64,
    max: usize,
    min_playouts: u32,
) -> Vec<(Move, u32, f32)> {
    let start = Instant::now();
    let mut t = Tree::new(seed, 400_000);
    t.set_root(pos);
    let mut b = Board::from_go(pos, PASS);
    b.passes = 0;
    let mut done = 0u32;
    while done < min_playouts || (start.elapsed() < budget && !stop.load(Ordering::Relaxed)) {
        for _ in 0..64 {
            t.iterate(&b, 4);
        }
        done += 64;
        if done >= 2_000_000 {
            break;
        }
    }
    let mut out: Vec<(Move, u32, f32)> = t
        .root_children()
        .iter()
        .filter(|n| n.visits > 0 && n.mv != PASS)
        .map(|n| (n.mv, n.visits, if n.n > 0.0 { n.w / n.n } else { 0.5 }))
        .collect();
    out.sort_by_key(|c| std::cmp::Reverse(c.1));
    out.truncate(max);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Square};

    #[test]
    fn the_candidates_are_legal_and_the_capture_comes_first() {
        // White's stone at E5 in atari (Black on D5, F5, E6): capturing at E4 is the move
        let mut g = Go::new(9, 7.0).unwrap();
        for (b, w) in [("D5", "E5"), ("F5", "A1"), ("E6", "J1")] {
            let m = g.parse_move(b).unwrap();
            g.make(m);
            let m = g.parse_move(w).unwrap();
            g.make(m);
        }
        let stop = AtomicBool::new(false);
        // a fixed number of playouts (no time budget): the same answer on any machine
        let c = root_candidates(&g, Duration::ZERO, &stop, 1, 5, 3_000);
        assert!(!c.is_empty() && c.len() <= 5);
        for w in c.windows(2) {
            assert!(w[0].1 >= w[1].1, "most visited first");
        }
        for &(m, _, wr) in &c {
            assert!(g.is_legal(m));
            assert!((0.0..=1.0).contains(&wr));
        }
        assert_eq!(
            Go::square_of(c[0].0),
            Some(Square::new(4, 3)),
            "E4 captures"
        );
    }
}
