//! `qi-engine solve reversi --fen "<position>"`: the exact endgame result. The last line of
//! stdout is `<best move> <score>` (score from the side to move's view, empty squares to the
//! winner); nodes and time go to stderr.

use std::time::Instant;

use crate::ai::endgame::Solver;
use crate::game::Game;
use crate::reversi::Reversi;

pub fn run(fen: &str, hash_mb: usize) -> Result<(), String> {
    let pos = Reversi::from_text(fen).map_err(|e| format!("bad position: {e}"))?;
    let empties = 64 - (pos.discs[0] | pos.discs[1]).count_ones();
    let mut solver = Solver::new(hash_mb);
    let t = Instant::now();
    let sol = solver
        .solve(&pos, None, None)
        .ok_or_else(|| "the solve was stopped".to_string())?;
    let secs = t.elapsed().as_secs_f64();
    eprintln!(
        "solved {empties} empties: {} nodes in {secs:.3} s, {:.2} M nodes/s",
        solver.nodes,
        solver.nodes as f64 / secs.max(1e-9) / 1e6
    );
    let mv = match sol.best {
        Some(m) => pos.move_to_text(m),
        None => "none".to_string(),
    };
    println!("{mv} {:+}", sol.score);
    Ok(())
}
