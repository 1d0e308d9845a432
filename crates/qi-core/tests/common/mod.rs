//! Helpers shared by the core crate's test files.

#![allow(dead_code)]

use qi_core::any::{AnyPosition, GameHistory};

/// A game from `start` with up to `n` moves: at ply `i` the `pick(i, count)`-th legal move that
/// is not a pass (a pass when it is the only move), so the line is deterministic.
pub fn play_line(
    start: AnyPosition,
    n: usize,
    pick: impl Fn(usize, usize) -> usize,
) -> GameHistory {
    let mut h = GameHistory::new(start);
    for i in 0..n {
        let pos = h.current();
        if pos.outcome().is_some() {
            break;
        }
        let moves = pos.legal_moves();
        let pass = pos.legal_pass();
        let non_pass: Vec<_> = moves.iter().filter(|m| Some(**m) != pass).collect();
        let mv = if non_pass.is_empty() {
            moves[0]
        } else {
            *non_pass[pick(i, non_pass.len()) % non_pass.len()]
        };
        h.play(mv).unwrap();
    }
    h
}
