//! Diagnosis of lost Gomoku games (a tool for looking at match games, not a test).
//!
//! ```text
//! gomoku_diag threats "<game line>" [--vct N] [--depth D]
//! gomoku_diag forbidden "<game line>"
//! gomoku_diag defend "<game line>" <stones> [--vct N] [--depth D]
//! gomoku_diag solve "<game line>" <stones> [--vct N] [--depth D]
//! gomoku_diag think "<game line>" <stones> [--turn T] [--prune 0|1] [--lmr 0|1] [--width W]
//!     [--leaf N] [--verify N] [--depth D] [--hash MB] [--p33 0|1] [--a33 0|1]
//!     [--ab 0|1] [--range R] [--avg2 0|1] [--then <moves…>]
//! ```
//!
//! The game line is `qi-engine match -v`'s second line of a game (`<position> moves <m1> … |
//! <m…>`). `threats`: for every position of the game, the side to move's VCF (1,000,000
//! nodes) and VCT (Qi's solvers, `--vct` nodes, 200,000 by default, `--depth` threats, 8) and
//! the opponent's if the side to move passed. `think`: `qi-engine gomocup`'s search with its own
//! settings for the game's rule (`Session::config`; `--turn`: the turn time in ms that
//! `INFO timeout_turn` would give, 1000 by default) on the position with `<stones>`
//! stones (the opening's included), and `--then` moves after them, with its reports; the
//! other options change its settings (`--depth`: a fixed depth instead of the clock).
//! `solve`: the side to move's VCF and VCT (as `threats`) in the one position with `<stones>`
//! stones. `defend`: the moves near the stones in that position after which the opponent
//! has neither a VCF nor a VCT (`--vct` nodes each), those after which it has one, and the
//! opponent's VCT were the side to move to pass. The VCT may use `QI_VCTQ` quiet threats (the environment variable; 0 by default,
//! see `Config::vct_quiet`). `forbidden` (renju): at every Black move, the points where White would make five next and
//! Black's forbidden points, the fives on forbidden points marked.
//!
//! Session 22 found with it that Qi's pruning by threat type counted a four-three with a
//! counter-four a win (`think` with `--prune 0` and `1` on game 6 of its diagnosis match), and
//! that Qi's VCT saw Rapfi's wins only 8-18 stones after Rapfi announced them. Session 25
//! found with `forbidden` that 12 of 60 renju games Qi lost as Black to Rapfi ended on a four
//! of White's whose only block was forbidden for Black (11 a three-three point, one an
//! overline), and with `threats` that Qi had no VCF of its own (1,000,000 nodes) in any
//! position of the 199 games it lost to Rapfi in session 24. With `solve`: of the 40 renju
//! games Qi lost as Black to Rapfi (session 24's matches `renju-pat` and `renju-sel100`),
//! Rapfi's evaluation (150 ms a position) proved a win for White at the 9th-49th stone
//! (at the 9th-13th in 21 games); Qi's VCT with 1,000,000 nodes and 12 threats found it in 1
//! of the 40 positions, 4 plies later (as the games went on) in 5 of 40, 8 plies later in 16
//! of 39: Qi's threat search sees the wins that decide these games far later than Rapfi's
//! search.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use qi_core::ai::gomoku::search::{Config, Search};
use qi_core::ai::gomoku::threat_search;
use qi_core::engine::gomocup::Session;
use qi_core::game::Game;
use qi_core::gomoku::move_at;
use qi_core::gomoku::{Gomoku, GomokuRule};

fn parse_game(line: &str) -> (Gomoku, Vec<String>) {
    let line = line.trim();
    let (head, rest) = line.split_once(" moves ").expect("a game line with moves");
    let g = Gomoku::from_text(head.trim()).expect("a position");
    let moves = rest
        .split_whitespace()
        .filter(|t| *t != "|")
        .map(|t| t.to_string())
        .collect();
    (g, moves)
}

/// The game's position with `stones` stones (the opening's included).
fn position_at(g0: &Gomoku, moves: &[String], stones: usize) -> Gomoku {
    let mut g = g0.clone();
    let start = g.piece_counts().iter().sum::<u32>() as usize;
    for t in &moves[..stones - start] {
        let m = g.parse_move(t).unwrap();
        g.make(m);
    }
    g
}

fn passed(pos: &Gomoku) -> Gomoku {
    let text = pos.to_text();
    let (head, side) = text.rsplit_once(' ').unwrap();
    let other = if side == "x" { "o" } else { "x" };
    Gomoku::from_text(&format!("{head} {other}")).unwrap()
}

fn solve(pos: &Gomoku, vct: bool, budget: u64, depth: u32) -> Option<(String, u32, u64)> {
    let (r, used) = threat_search(pos, budget, |s, e, b| {
        if vct {
            s.cfg.vct_quiet = quiet();
            s.vct(e, b, depth)
        } else {
            s.vcf(e, b, 60)
        }
    });
    r.map(|(m, k)| (pos.move_to_text(m), k, used))
}

/// The quiet threats a VCT line may use (`QI_VCTQ`, 0 by default).
fn quiet() -> u32 {
    std::env::var("QI_VCTQ")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

fn show(r: Option<(String, u32, u64)>) -> String {
    match r {
        Some((m, k, n)) => format!("{m}/{k}p/{n}n"),
        None => "-".into(),
    }
}

/// `qi-engine gomocup`'s own settings for a move of a game under `rule` with `turn_ms` a
/// turn (`INFO timeout_turn`): the session's [`Session::config`], so that this tool searches as
/// the engine plays (the learned evaluation under every rule, the selectivity, the quiescence
/// of fours…).
fn gomocup_config(rule: GomokuRule, turn_ms: u64) -> Config {
    let code = match rule {
        GomokuRule::Freestyle => 0,
        GomokuRule::Standard => 1,
        GomokuRule::Renju => 4,
    };
    let mut session = Session::new();
    let mut sink = Vec::new();
    for line in [
        "START 15".to_string(),
        format!("INFO rule {code}"),
        format!("INFO timeout_turn {turn_ms}"),
    ] {
        session.handle(&line, &mut sink);
    }
    session.config()
}

fn arg(args: &[String], name: &str, default: u64) -> u64 {
    args.iter()
        .position(|a| a == name)
        .map(|i| args[i + 1].parse().unwrap())
        .unwrap_or(default)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (g0, moves) = parse_game(&args[2]);
    match args[1].as_str() {
        "threats" => {
            let budget = arg(&args, "--vct", 200_000);
            let depth = arg(&args, "--depth", 8) as u32;
            let mut g = g0.clone();
            for (i, t) in moves.iter().enumerate() {
                let n = g.piece_counts().iter().sum::<u32>();
                let side = if g.side_to_move() == qi_core::game::Side::Black {
                    "x"
                } else {
                    "o"
                };
                let p = passed(&g);
                println!(
                    "{n:>3} {side} to move, plays {t:<4} | own VCF {:<16} VCT {:<16} | opp (pass) VCF {:<16} VCT {}",
                    show(solve(&g, false, 1_000_000, 60)),
                    show(solve(&g, true, budget, depth)),
                    show(solve(&p, false, 1_000_000, 60)),
                    show(solve(&p, true, budget, depth)),
                );
                let m = g.parse_move(t).unwrap();
                g.make(m);
                let _ = i;
            }
        }
        "think" => {
            let ply: usize = args[3].parse().unwrap();
            let turn = arg(&args, "--turn", 1000);
            let mut g = position_at(&g0, &moves, ply);
            let mut cfg = gomocup_config(g.rule(), turn);
            cfg.prune = arg(&args, "--prune", 1) > 0;
            cfg.prune33 = arg(&args, "--p33", 1) > 0;
            cfg.answer33 = arg(&args, "--a33", 0) > 0;
            cfg.lmr = arg(&args, "--lmr", 1) > 0;
            cfg.width = arg(&args, "--width", cfg.width as u64) as usize;
            cfg.vcf_leaf = arg(&args, "--leaf", cfg.vcf_leaf);
            cfg.verify = arg(&args, "--verify", cfg.verify);
            cfg.ab = arg(&args, "--ab", 0) > 0;
            cfg.range = arg(&args, "--range", 0).min(3) as u8;
            cfg.avg2 = arg(&args, "--avg2", 0) > 0;
            if let Some(d) = args.iter().position(|a| a == "--depth") {
                cfg.depth = Some(args[d + 1].parse().unwrap());
                cfg.time = None;
            }
            for extra in args.iter().skip_while(|a| *a != "--then").skip(1) {
                let m = g.parse_move(extra).unwrap();
                g.make(m);
            }
            println!("{}", g.to_text());
            let mut s = Search::new(cfg, arg(&args, "--hash", 16) as usize);
            let stop = Arc::new(AtomicBool::new(false));
            let r = s.think(&g, &stop, &mut |i| {
                println!(
                    "depth {} score {} nodes {} {} ms pv {}",
                    i.depth,
                    i.score,
                    i.nodes,
                    i.elapsed.as_millis(),
                    i.pv.join(" ")
                )
            });
            println!("best {}", g.move_to_text(r.best.unwrap()));
        }
        "solve" => {
            let stones: usize = args[3].parse().unwrap();
            let g = position_at(&g0, &moves, stones);
            let budget = arg(&args, "--vct", 200_000);
            let depth = arg(&args, "--depth", 8) as u32;
            println!(
                "{stones} stones: VCF {} VCT {}",
                show(solve(&g, false, 1_000_000, 60)),
                show(solve(&g, true, budget, depth))
            );
        }
        "defend" => {
            // The side to move's moves near the stones after which the opponent has neither
            // a VCF nor a VCT (the solvers with `--vct` nodes each, `--depth` threats): the
            // moves a root defence with that budget would keep.
            let stones: usize = args[3].parse().unwrap();
            let g = position_at(&g0, &moves, stones);
            let budget = arg(&args, "--vct", 200_000);
            let depth = arg(&args, "--depth", 8) as u32;
            let start = g0.piece_counts().iter().sum::<u32>() as usize;
            let played = moves.get(stones - start).cloned().unwrap_or_default();
            let pass = solve(&passed(&g), true, budget, depth);
            let n = g.size() as i32;
            let near = |x: i32, y: i32| {
                (-2..=2).any(|dy| {
                    (-2..=2).any(|dx| {
                        let (a, b) = (x + dx, y + dy);
                        (0..n).contains(&a)
                            && (0..n).contains(&b)
                            && g.cell(qi_core::game::Square::new(a as u8, b as u8))
                                != qi_core::game::Cell::Empty
                    })
                })
            };
            let (mut safe, mut lost) = (Vec::new(), Vec::new());
            for y in 0..n {
                for x in 0..n {
                    let m = move_at(qi_core::game::Square::new(x as u8, y as u8));
                    if !g.is_legal(m) || !near(x, y) {
                        continue;
                    }
                    let mut q = g.clone();
                    q.make(m);
                    let name = g.move_to_text(m);
                    let r =
                        solve(&q, false, 1_000_000, 60).or_else(|| solve(&q, true, budget, depth));
                    match r {
                        None => safe.push(name),
                        Some((_, k, used)) => lost.push(format!("{name}({k}p/{used}n)")),
                    }
                }
            }
            println!(
                "{stones} stones, plays {played}: opponent's VCT on a pass {} | safe {}: {} | lost {}: {}",
                show(pass),
                safe.len(),
                safe.join(" "),
                lost.len(),
                lost.join(" ")
            );
        }
        "forbidden" => {
            // At every Black move under renju: Black's forbidden points, and White's fives
            // (the points where White would win next) with those among them Black may not take.
            let mut g = g0.clone();
            for t in &moves {
                if g.side_to_move() == qi_core::game::Side::Black {
                    let n = g.piece_counts().iter().sum::<u32>();
                    let bad = g.forbidden_points();
                    let p = passed(&g);
                    let mut all = Vec::new();
                    p.legal_moves(&mut all);
                    let fives: Vec<String> = all
                        .into_iter()
                        .filter(|&m| {
                            let mut q = p.clone();
                            q.make(m);
                            q.outcome().is_some()
                        })
                        .map(|m| {
                            let f = bad.iter().any(|(sq, _)| move_at(*sq) == m);
                            format!(
                                "{}{}",
                                p.move_to_text(m),
                                if f { "(forbidden)" } else { "" }
                            )
                        })
                        .collect();
                    let list: Vec<String> = bad
                        .iter()
                        .map(|(sq, f)| format!("{}:{f:?}", g.move_to_text(move_at(*sq))))
                        .collect();
                    println!(
                        "{n:>3} x plays {t:<4} | white fives [{}] | forbidden [{}]",
                        fives.join(" "),
                        list.join(" ")
                    );
                }
                let m = g.parse_move(t).unwrap();
                g.make(m);
            }
        }
        other => panic!("unknown mode {other}"),
    }
}
