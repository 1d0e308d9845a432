//! Candidate moves for the analysis (as KaTrain and Lizzie show them): the most visited moves
//! at the root of a search, with their win rates.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::PASS;
use super::board::Board;
use super::mcts::Tree;
use crate::go::{Go, Move};

/// A move at the root with what the search found of it.
#[derive(Clone, Debug, PartialEq)]
pub struct RootCandidate {
    pub mv: Move,
    /// Playouts through the move.
    pub visits: u32,
    /// The chance of the side that plays it to win, 0..1.
    pub win_rate: f32,
    /// The move and its most visited continuation.
    pub line: Vec<Move>,
}

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
) -> Vec<RootCandidate> {
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
    let root = t.nodes.first().copied().unwrap_or_default();
    let mut out: Vec<RootCandidate> = (root.first..root.first + root.n_children as u32)
        .map(|i| i as usize)
        .filter(|&i| t.nodes[i].visits > 0 && t.nodes[i].mv != PASS)
        .map(|i| {
            let n = t.nodes[i];
            RootCandidate {
                mv: n.mv,
                visits: n.visits,
                win_rate: if n.n > 0.0 { n.w / n.n } else { 0.5 },
                line: line_from(&t, i, 10),
            }
        })
        .collect();
    out.sort_by_key(|c| std::cmp::Reverse(c.visits));
    out.truncate(max);
    out
}

/// Node `i`'s move and then the most visited child's, down the tree (at most `max` moves,
/// while the children have been visited).
fn line_from(t: &Tree, mut i: usize, max: usize) -> Vec<Move> {
    let mut line = vec![t.nodes[i].mv];
    while line.len() < max {
        let n = t.nodes[i];
        let best = (n.first..n.first + n.n_children as u32)
            .map(|c| c as usize)
            .filter(|&c| c < t.nodes.len() && t.nodes[c].visits > 0)
            .max_by_key(|&c| t.nodes[c].visits);
        match best {
            Some(c) if n.n_children > 0 => {
                line.push(t.nodes[c].mv);
                i = c;
            }
            _ => break,
        }
    }
    line
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
            assert!(w[0].visits >= w[1].visits, "most visited first");
        }
        for cand in &c {
            assert!(g.is_legal(cand.mv));
            assert!((0.0..=1.0).contains(&cand.win_rate));
            // the line starts with the move and is played out legally
            assert_eq!(cand.line[0], cand.mv);
            let mut p = g.clone();
            for &m in &cand.line {
                assert!(p.is_legal(m), "{:?}", cand.line);
                p.make(m);
            }
        }
        assert_eq!(
            Go::square_of(c[0].mv),
            Some(Square::new(4, 3)),
            "E4 captures"
        );
        assert!(c[0].line.len() > 1, "a line after the capture");
    }
}
