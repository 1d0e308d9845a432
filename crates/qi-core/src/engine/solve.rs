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

/// `qi-engine solve gomoku --rule <rule> --moves "<moves>"`: a forced win by continuous fours
/// (VCF, a win in one included) for the side to move after `moves` (from the empty board;
/// `h8` or Gomocup `7,7`, separated by spaces or `;`). The last line of stdout is the first
/// move of the win, or `none`; the win's length, nodes and time go to stderr.
pub fn run_gomoku(rule: &str, moves: &str, size: u8, budget: u64) -> Result<(), String> {
    use crate::gomoku::{Gomoku, GomokuRule, MAX_SIZE, MIN_SIZE};
    let rule: GomokuRule = rule.parse().map_err(|e: crate::game::ParseError| e.0)?;
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(format!(
            "board size {size} is not from {MIN_SIZE} to {MAX_SIZE}"
        ));
    }
    let mut pos = Gomoku::new(size, rule);
    for token in moves
        .split(|c: char| c.is_whitespace() || c == ';')
        .filter(|t| !t.is_empty())
    {
        let mv = if token.contains(',') {
            pos.parse_gomocup(token)
        } else {
            pos.parse_move(token)
        }
        .map_err(|e| format!("move '{token}': {e}"))?;
        pos.play(mv).map_err(|e| format!("move '{token}': {e}"))?;
    }
    if pos.outcome().is_some() {
        return Err("the game is already over".into());
    }
    let t = Instant::now();
    let found = crate::ai::gomoku::find_vcf(&pos, budget);
    eprintln!("searched in {:.3} s", t.elapsed().as_secs_f64());
    match found {
        Some((m, plies)) => {
            eprintln!(
                "{:?} wins by fours in {} moves",
                pos.side_to_move(),
                plies.div_ceil(2)
            );
            println!("{}", pos.move_to_text(m));
        }
        None => println!("none"),
    }
    Ok(())
}
