//! `qi-engine solve reversi --fen "<position>"`: the exact endgame result. The last line of
//! stdout is `<best move> <score>` (score from the side to move's view, empty squares to the
//! winner), or with `--wld` `<best move> win|draw|loss` (the move is the first tried when the
//! position is lost); nodes and time go to stderr. `qi-engine ffo`: the FFO endgame benchmark.

use std::time::Instant;

use crate::ai::endgame::Solver;
use crate::game::Game;
use crate::reversi::Reversi;

pub fn run(fen: &str, hash_mb: usize, threads: usize, wld: bool) -> Result<(), String> {
    let pos = Reversi::from_text(fen).map_err(|e| format!("bad position: {e}"))?;
    let empties = 64 - (pos.discs[0] | pos.discs[1]).count_ones();
    let mut solver = Solver::new(hash_mb);
    solver.threads = threads;
    let t = Instant::now();
    let sol = if wld {
        solver.solve_wld(&pos, None, None)
    } else {
        solver.solve(&pos, None, None)
    }
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
    if wld {
        let word = match sol.score {
            1.. => "win",
            0 => "draw",
            _ => "loss",
        };
        println!("{mv} {word}");
    } else {
        println!("{mv} {:+}", sol.score);
    }
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

/// The FFO endgame test positions #40-#59 (Edax's `fforum-40-59.obf`): board, side to move,
/// best moves (`/`-separated when several are as good) and the exact score, one a line.
pub const FFO_40_59: &str = include_str!("../../data/reversi-ffo40-59.txt");

/// An FFO position: its number, the position, the best moves and the exact score.
pub struct FfoPosition {
    pub number: u32,
    pub pos: Reversi,
    pub best: Vec<String>,
    pub score: i32,
}

/// The positions of [`FFO_40_59`].
pub fn ffo_positions() -> Vec<FfoPosition> {
    FFO_40_59
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| {
            let w: Vec<&str> = l.split_whitespace().collect();
            FfoPosition {
                number: 40 + i as u32,
                pos: Reversi::from_text(&format!("{} {}", w[0], w[1])).expect("an FFO position"),
                best: w[2].split('/').map(str::to_string).collect(),
                score: w[3].parse().expect("an FFO score"),
            }
        })
        .collect()
}

/// The CPU time of this process (all its threads), so that a run on a busy machine can be
/// judged.
#[cfg(target_os = "linux")]
fn cpu_seconds() -> Option<f64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec we pass it
    let r = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    (r == 0).then(|| ts.tv_sec as f64 + ts.tv_nsec as f64 / 1e9)
}

#[cfg(not(target_os = "linux"))]
fn cpu_seconds() -> Option<f64> {
    None
}

/// `qi-engine ffo --from <a> --to <b>`: solves FFO #a-#b and checks each result.
pub fn run_ffo(from: u32, to: u32, hash_mb: usize, threads: usize) -> Result<(), String> {
    if from > to {
        return Err(format!("--from {from} is after --to {to}"));
    }
    let mut solver = Solver::new(hash_mb);
    solver.threads = threads;
    let (mut wall, mut cpu, mut nodes, mut wrong, mut count) = (0.0, 0.0, 0u64, 0, 0);
    for p in ffo_positions()
        .into_iter()
        .filter(|p| (from..=to).contains(&p.number))
    {
        solver.clear();
        let (t, c) = (Instant::now(), cpu_seconds());
        let sol = solver
            .solve(&p.pos, None, None)
            .ok_or_else(|| "the solve was stopped".to_string())?;
        let secs = t.elapsed().as_secs_f64();
        let csecs = match (c, cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => secs,
        };
        let mv = sol
            .best
            .map_or_else(|| "none".to_string(), |m| p.pos.move_to_text(m));
        let ok = sol.score == p.score && p.best.contains(&mv);
        println!(
            "#{} {mv} {:+} (expected {} {:+}) {} nodes {secs:.2} s wall {csecs:.2} s cpu{} {}",
            p.number,
            sol.score,
            p.best.join("/"),
            p.score,
            solver.nodes,
            if threads > 1 {
                format!(" {} splits", solver.splits)
            } else {
                String::new()
            },
            if ok { "ok" } else { "WRONG" },
        );
        wall += secs;
        cpu += csecs;
        nodes += solver.nodes;
        count += 1;
        wrong += usize::from(!ok);
    }
    println!(
        "total #{from}-#{to}: {count} positions, {wrong} wrong, {nodes} nodes, {wall:.1} s wall, \
         {cpu:.1} s cpu, {:.1} M nodes/s",
        nodes as f64 / cpu.max(1e-9) / 1e6
    );
    if wrong > 0 {
        return Err(format!("{wrong} of {count} results wrong"));
    }
    Ok(())
}
