//! The training program of the Gomoku pattern evaluation ([`qi_core::ai::gomoku::patterns`]):
//! it plays self-play games and fits the pattern weights to their results.
//!
//! The data recipe (what `data/gomoku-patterns.bin` holds is in the module doc of
//! `qi_core::ai::gomoku::patterns`):
//!
//! ```text
//! # 1. self-play games (one process at a time on a shared machine), per rule:
//! cargo run --release -p qi-core --example gomoku_patterns -- gen --rule freestyle --games 1000 --seed 1 --out /tmp/gf1.txt
//! cargo run --release -p qi-core --example gomoku_patterns -- gen --rule renju --games 1000 --seed 2 --out /tmp/gr1.txt
//! # 2. the fit of each rule, written into the weights file the crate embeds (the other
//! #    rule's weights in the file are kept; a new file starts from the shipped ones):
//! cargo run --release -p qi-core --example gomoku_patterns -- train --rule freestyle /tmp/gf1.txt --out crates/qi-core/data/gomoku-patterns.bin
//! cargo run --release -p qi-core --example gomoku_patterns -- train --rule renju /tmp/gr1.txt --out crates/qi-core/data/gomoku-patterns.bin
//! ```
//!
//! `gen` plays games on 15 × 15 from random openings (3 or 4 stones, alternately Black and
//! White, on distinct points at most 3 from the centre), then both sides play `qi-engine
//! gomocup`'s search (level 6 with its settings for the rule, so the `ab` search under freestyle
//! and renju; until session 54 without the rule's settings, so the older search) bound by
//! `--nodes` nodes a move (20,000 by default) instead of the clock, with
//! smaller budgets for the threat searches (VCF 20,000 and VCT 10,000 nodes at the root, 5,000
//! and 2,000 for the checks of the opponent's); with `--patterns 1` on the embedded pattern
//! evaluation instead of the line score. A game that fills the board is a draw. Output: a line
//! a game, `<rule> <B|W|D> <moves>` (moves in the game's notation, the opening's included).
//!
//! `train` replays the games and takes every position after the opening where the search
//! would evaluate (the side to move has no five or open-four point, the opponent no five
//! point), labelled by the game's result for the side to move (1, 0, or 1/2 for a draw); it
//! fits the weights by logistic regression (full-batch Adam, `--epochs`, `--lr`, ridge
//! penalty `--l2`) and prints the log loss and the share of results predicted on the
//! training games and on every tenth game, held out of the fit. Freestyle ties Black's and
//! White's tables (the same weights for both colours); renju fits them apart.
//!
//! `--avg2 1` fits the weights for the search's `avg2` reading (`qi-engine gomocup --set
//! avg2=1`): each position's point features are those of the position and of the one before
//! its last stone, half each (the threat mask is the position's). Session 48's fits and
//! their matches are in the module doc of `qi_core::ai::gomoku::patterns`.
//!
//! Labels instead of results: a line `<rule> P <p> <moves>` is one position (after all its
//! moves) whose label is the side to move's winning chance `p`, for instance from a deeper
//! search of every position of `gen`'s games (the lines of one game, which share their first
//! moves, are held out together). Session 20 tried Rapfi's evaluation as the label, with a
//! script kept outside the repo like the engine itself. With
//! `--base embedded` the fit starts from the shipped weights of the rule and its ridge penalty
//! pulls towards them instead of towards zero. Session 20's refit, not shipped (53.5% in
//! self-play, 4 of 40 against Rapfi; the module doc of `qi_core::ai::gomoku::patterns`):
//!
//! ```text
//! gomoku_patterns gen --rule freestyle --games 300 --seed 5 --nodes 20000 --patterns 1 --out gf5.txt
//! gomoku_patterns gen --rule freestyle --games 600 --seed 6 --nodes 20000 --patterns 1 --out gf6.txt
//! # (outside the repo) Rapfi's 50 ms evaluation of each position: lf5.txt (7,977 positions), lf6.txt (16,637)
//! gomoku_patterns train --rule freestyle lf5.txt lf6.txt --base embedded --epochs 200 --lr 2 \
//!     --out crates/qi-core/data/gomoku-patterns.bin
//! ```

//!
//! The freestyle weights shipped since session 42 are such a refit (`train --rule freestyle
//! <labels…> --base embedded --epochs 200 --lr 2`) on Rapfi's evaluation of positions from the
//! principal variations of `qi-engine gomocup` in positions of its games against Rapfi, and of
//! positions of those games and of Rapfi's own (the data and its scripts stay outside the repo;
//! the module doc of `qi_core::ai::gomoku::patterns` has the figures). The renju weights
//! shipped since session 43 are the same kind of refit (`train --rule renju <labels…> --base
//! embedded --epochs 200 --lr 2`), with `gomocup --set patterns=1`'s principal variations
//! (renju's `gomocup` was on the line score then). Since session 62 the renju weights are a refit to the results of
//! Rapfi's own renju games (`train --rule renju GAMES --base embedded --epochs 400 --lr 2 --l2
//! 0`, on 3,951 games of Rapfi against itself at 50 ms a move; the module doc).
//!
//! Line weights (session 21, [`qi_core::ai::gomoku::patterns::LineWeights`], `qi-engine gomocup
//! --lines`): `label` searches every position of `gen`'s games with `--nodes` nodes (the
//! shipped pattern evaluation, or with `--lines 1` the line weights too) and writes it as a
//! `P` line labelled with the search's score as a winning chance (`--mix m` mixes in the
//! game's result with weight `m`); `train --lines 1` fits a weight per line key (a key and
//! its mirror image share one) with the point and threat weights (`--fit-base 0`: those stay
//! the base's; `--l2-lines`: the line weights' own ridge penalty) and writes all three into `--lines-out` (`data/gomoku-lines.bin`):
//!
//! ```text
//! # session 20's games (gen --nodes 20000 --patterns 1, seeds 5 and 6: 900 games)
//! gomoku_patterns label --rule freestyle --nodes 60000 --out lab.txt gf5.txt gf6.txt
//! # the distinct freestyle games of `qi-engine match -v` self-play logs (Qi against Qi, 200 ms
//! # a move: 785 games), as game lines with an unknown result (not read with --mix 0)
//! cat logs*.txt | grep '^  15 freestyle 15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 x moves' \
//!     | sed 's/^  15 freestyle [0-9/]* x moves /freestyle D /; s/ | / /' | sort -u > sp.txt
//! gomoku_patterns label --rule freestyle --nodes 60000 --out lab2.txt sp.txt
//! gomoku_patterns train --rule freestyle lab.txt lab2.txt --lines 1 --base embedded \
//!     --epochs 400 --lr 2 --l2 0 --l2-lines 3e-7 --lines-out crates/qi-core/data/gomoku-lines.bin
//! ```
//!
//! Move ordering (session 40, [`qi_core::ai::gomoku::patterns::OrderWeights`], `qi-engine
//! gomocup --set order=1`): `policy` reads game lines (the result is not read) and fits a
//! weight per shape combination of the side to move on a candidate point, one per the
//! opponent's and one for a point next to a stone, as a softmax over the candidates of every
//! position after the opening with the played move as the target (full-batch Adam,
//! `--epochs`, `--lr`, ridge penalty `--l2`; renju fits each colour apart). It prints how
//! often the played move is first and among the first 3, 6 and 10 by the learned score and
//! by the search's shape values, on every tenth game held out, and writes `--out` (the other
//! rule's weights in the file kept). `--rel 1` adds how the point lies from the last two
//! moves (on their lines at distance 1-4, near, far), which the search does not read (1,458
//! freestyle games: first 44.2% against 43.3% without). The shipped weights come from Rapfi's
//! classical evaluation playing itself at 100 ms a move from random 3-stone openings (games
//! made outside the repo with `qi-engine match gomoku --movetime 100 --a gomocup:RAPFI --b
//! gomocup:RAPFI --openings-file F -v`, whose move lines become game lines as in the `sed`
//! above; the result letter taken from each game's line before them):
//!
//! ```text
//! gomoku_patterns policy --rule freestyle rapfi-freestyle.txt --epochs 400 --lr 0.2 --out crates/qi-core/data/gomoku-order.bin
//! gomoku_patterns policy --rule renju rapfi-renju.txt --epochs 400 --lr 0.2 --out crates/qi-core/data/gomoku-order.bin
//! ```

use std::collections::HashMap;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use qi_core::ai::gomoku::GomokuEval;
use qi_core::ai::gomoku::patterns::{
    COMBOS, LINE_KEYS, LineWeights, OrderWeights, RuleWeights, SCALE, THREATS, Weights, features,
    line_mirror, point_combos, rule_index,
};
use qi_core::ai::gomoku::search::Search;
use qi_core::game::{Game, Side};
use qi_core::gomoku::{Gomoku, GomokuRule, STRIDE};
use qi_core::search::{Limits, MATE_BOUND, Rng};

#[path = "common/args.rs"]
mod args;
use args::*;

fn rule_of(args: &[String]) -> GomokuRule {
    match arg(args, "--rule", "freestyle".to_string()).as_str() {
        "renju" => GomokuRule::Renju,
        "standard" => GomokuRule::Standard,
        _ => GomokuRule::Freestyle,
    }
}

/// `gomocup`'s search under `rule` (its settings for the rule, [`GomokuEval::for_rule`]) bound
/// by `nodes` nodes a move, with smaller threat-search budgets (see the program's doc);
/// `patterns` > 0: the learned evaluation, with the line weights too when `lines`.
fn search_config(
    rule: GomokuRule,
    seed: u64,
    nodes: u64,
    patterns: u32,
    lines: bool,
) -> qi_core::ai::gomoku::search::Config {
    let mut eval = GomokuEval::for_level(6, seed).for_rule(rule);
    eval.depth = 0;
    eval.nodes = nodes;
    eval.lmr = true;
    eval.prune = true;
    eval.vcf_root = 20_000;
    eval.vct_root = 10_000;
    eval.vcf_defend = 5_000;
    eval.vct_defend = 2_000;
    eval.eval_kind = if patterns > 0 { 2 } else { 0 };
    eval.lines = lines;
    eval.config(&Limits {
        time: None,
        depth: None,
        nodes: None,
    })
}

/// `label`: every position of the games in the files (after the opening's stones, where the
/// search would evaluate) searched with `--nodes` nodes (on the learned evaluation, with the
/// line weights with `--lines 1`), written as a `P` line whose chance is the search's score
/// turned into the side to move's winning chance (`1 / (1 + exp(-score / SCALE))`, 1 or 0 for
/// a forced win or loss), mixed with the game's result by `--mix` (0: the search alone).
fn label(args: &[String]) {
    let rule = rule_of(args);
    let nodes: u64 = arg(args, "--nodes", 100_000);
    let lines: u32 = arg(args, "--lines", 0);
    let mix: f64 = arg(args, "--mix", 0.0);
    let out: String = arg(args, "--out", "gomoku-labels.txt".to_string());
    let files = positional(args);
    let mut w = BufWriter::new(std::fs::File::create(&out).expect("output file"));
    let cfg = search_config(rule, 1, nodes, 1, lines > 0);
    let stop = Arc::new(AtomicBool::new(false));
    let start = std::time::Instant::now();
    let (mut games, mut positions) = (0u64, 0u64);
    for f in &files {
        let file = std::fs::File::open(f).unwrap_or_else(|e| {
            eprintln!("{f}: {e}");
            std::process::exit(2);
        });
        for line in BufReader::new(file).lines() {
            let Ok(line) = line else { break };
            let mut it = line.split_whitespace();
            let (Some(rname), Some(res)) = (it.next(), it.next()) else {
                continue;
            };
            if rname != rule.name() || res == "P" {
                continue;
            }
            let result = match res {
                "B" => [1.0, 0.0],
                "W" => [0.0, 1.0],
                _ => [0.5, 0.5],
            };
            let moves: Vec<&str> = it.collect();
            let mut g = Gomoku::new(15, rule);
            let mut s = Search::new(cfg.clone(), 16);
            for (i, t) in moves.iter().enumerate() {
                let Some(m) = g.parse_move(t).ok().filter(|&m| g.is_legal(m)) else {
                    eprintln!("{f}: skipped the rest of a bad line: {line}");
                    break;
                };
                g.make(m);
                if i < 3 || features(&g).is_none() {
                    continue;
                }
                let th = s.think(&g, &stop, &mut |_| {});
                let p = if th.score >= MATE_BOUND {
                    1.0
                } else if th.score <= -MATE_BOUND {
                    0.0
                } else {
                    1.0 / (1.0 + (-(th.score as f64) / SCALE).exp())
                };
                let p = (1.0 - mix) * p + mix * result[g.side_to_move().index()];
                writeln!(w, "{} P {p:.4} {}", rule.name(), moves[..=i].join(" ")).unwrap();
                positions += 1;
            }
            games += 1;
            w.flush().unwrap();
            if games % 20 == 0 {
                eprintln!(
                    "{games} games, {positions} positions, {:.0} s",
                    start.elapsed().as_secs_f64()
                );
            }
        }
    }
    eprintln!(
        "{games} games, {positions} positions, {:.0} s",
        start.elapsed().as_secs_f64()
    );
}

fn generate(args: &[String]) {
    let rule = rule_of(args);
    let games: u64 = arg(args, "--games", 100);
    let seed: u64 = arg(args, "--seed", 1);
    let nodes: u64 = arg(args, "--nodes", 20_000);
    let patterns: u32 = arg(args, "--patterns", 0);
    let out: String = arg(args, "--out", "gomoku-games.txt".to_string());
    let mut w = BufWriter::new(std::fs::File::create(&out).expect("output file"));
    let mut rng = Rng::new(seed);
    let stop = Arc::new(AtomicBool::new(false));
    let cfg = search_config(rule, seed, nodes, patterns, false);
    let start = std::time::Instant::now();
    let mut results = [0u32; 3];
    for gi in 0..games {
        let mut g = Gomoku::new(15, rule);
        let mut moves = Vec::new();
        let stones = 3 + rng.below(2);
        while (moves.len() as u64) < stones {
            let (x, y) = (4 + rng.below(7) as u16, 4 + rng.below(7) as u16);
            let m = y * STRIDE + x;
            if g.is_legal(m) {
                moves.push(g.move_to_text(m));
                g.make(m);
            }
        }
        // a new table each game, as in a match
        let mut s = Search::new(cfg.clone(), 16);
        while g.outcome().is_none() && g.stone_count() < 225 {
            let t = s.think(&g, &stop, &mut |_| {});
            let Some(m) = t.best else { break };
            assert!(g.is_legal(m), "illegal move from the search");
            moves.push(g.move_to_text(m));
            g.make(m);
        }
        let r = match g.outcome().and_then(|o| o.winner()) {
            Some(Side::Black) => 'B',
            Some(Side::White) => 'W',
            None => 'D',
        };
        results[match r {
            'B' => 0,
            'W' => 1,
            _ => 2,
        }] += 1;
        writeln!(w, "{} {r} {}", rule.name(), moves.join(" ")).unwrap();
        w.flush().unwrap();
        if (gi + 1) % 20 == 0 {
            eprintln!(
                "{} games, Black {} White {} draws {}, {:.0} s",
                gi + 1,
                results[0],
                results[1],
                results[2],
                start.elapsed().as_secs_f64()
            );
        }
    }
}

/// One training position: the sparse features from the side to move's view and its label.
struct Sample {
    x: Vec<(u32, f32)>,
    y: f32,
}

/// The parameter index of a point weight and of a threat weight.
fn point_param(table: usize, combo: usize) -> u32 {
    (table * COMBOS + combo) as u32
}
fn threat_param(table: usize, mask: usize) -> u32 {
    (2 * COMBOS + table * THREATS + mask) as u32
}
const BASE_PARAMS: usize = 2 * COMBOS + 2 * THREATS;
/// With the line weights: a key and its mirror share a weight.
fn line_param(table: usize, key: usize) -> u32 {
    (BASE_PARAMS + table * LINE_KEYS + key.min(line_mirror(key))) as u32
}
const PARAMS: usize = BASE_PARAMS + 2 * LINE_KEYS;

fn load(files: &[String], rule: GomokuRule, lines: bool, avg2: bool) -> (Vec<Sample>, Vec<Sample>) {
    let tie = rule != GomokuRule::Renju;
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let mut game_index = 0;
    // (labelled positions of one game, `P` lines, share its held-out lot: the lines of a
    // game follow one another with the same first moves)
    let mut last_opening = String::new();
    for f in files {
        let file = std::fs::File::open(f).unwrap_or_else(|e| {
            eprintln!("{f}: {e}");
            std::process::exit(2);
        });
        for line in BufReader::new(file).lines() {
            let line = line.unwrap_or_else(|e| {
                eprintln!("{f}: {e}");
                std::process::exit(2);
            });
            let mut it = line.split_whitespace();
            let (Some(rname), Some(res)) = (it.next(), it.next()) else {
                continue;
            };
            if rname != rule.name() {
                continue;
            }
            let winner = match res {
                "B" => Some(0),
                "W" => Some(1),
                _ => None,
            };
            // `P <p>`: one position (after all the moves) labelled with the side to move's
            // winning chance `p` (e.g. another engine's evaluation), not a game's result
            let soft: Option<f32> = if res == "P" {
                // a chance: NaN, infinities and values outside 0..=1 are bad lines
                match it.next().and_then(|t| t.parse::<f32>().ok()) {
                    Some(v) if (0.0..=1.0).contains(&v) => Some(v),
                    _ => {
                        eprintln!("{f}: skipped a bad line: {line}");
                        continue;
                    }
                }
            } else {
                None
            };
            let mut g = Gomoku::new(15, rule);
            let moves: Vec<&str> = it.collect();
            if soft.is_some() {
                let opening = moves.iter().take(4).copied().collect::<Vec<_>>().join(" ");
                if opening == last_opening && game_index > 0 {
                    game_index -= 1;
                }
                last_opening = opening;
            }
            // a line whose moves do not all parse and play legally is skipped, not a panic
            let mut check = Gomoku::new(15, rule);
            let legal = moves.iter().all(|t| match check.parse_move(t) {
                Ok(m) if check.is_legal(m) => {
                    check.make(m);
                    true
                }
                _ => false,
            });
            if !legal {
                eprintln!("{f}: skipped a bad line: {line}");
                continue;
            }
            // the opening's stones (3 or 4) are not the engines' choice; positions from 4
            // stones on
            let mut before: Option<Gomoku> = None;
            for (i, t) in moves.iter().enumerate() {
                let m = g.parse_move(t).expect("a move");
                if avg2 {
                    before = Some(g.clone());
                }
                g.make(m);
                if i < 3 || (soft.is_some() && i + 1 < moves.len()) {
                    continue;
                }
                let Some(f) = features(&g) else { continue };
                let table = |c: usize| if tie { 0 } else { c };
                let sign = if f.side == 0 { 1.0 } else { -1.0 };
                let mut acc: HashMap<u32, f32> = HashMap::new();
                // `--avg2 1`: the point sum averaged over this position and the one before its
                // last stone, as the search's `avg2` reads it (the threat mask of this one)
                let shapes_before = before.as_ref().map(point_combos);
                let share = if shapes_before.is_some() { 0.5 } else { 1.0 };
                for c in 0..2 {
                    let s = if c == 0 { sign } else { -sign };
                    for &k in &f.combos[c] {
                        *acc.entry(point_param(table(c), k as usize)).or_default() += s * share;
                    }
                    if let Some(b) = &shapes_before {
                        for &k in &b[c] {
                            *acc.entry(point_param(table(c), k as usize)).or_default() += s * share;
                        }
                    }
                }
                if lines {
                    for c in 0..2 {
                        let s = if c == 0 { sign } else { -sign };
                        for &k in &f.lines[c] {
                            *acc.entry(line_param(table(c), k as usize)).or_default() += s;
                        }
                    }
                }
                *acc.entry(threat_param(table(f.side), f.mask as usize))
                    .or_default() += 1.0;
                let x: Vec<(u32, f32)> = acc.into_iter().filter(|&(_, v)| v != 0.0).collect();
                let y = match (soft, winner) {
                    (Some(p), _) => p,
                    (None, Some(w)) if w == f.side => 1.0,
                    (None, Some(_)) => 0.0,
                    (None, None) => 0.5,
                };
                let s = Sample { x, y };
                if game_index % 10 == 9 {
                    held.push(s);
                } else {
                    train.push(s);
                }
            }
            game_index += 1;
        }
    }
    eprintln!(
        "{game_index} games: {} training positions, {} held out",
        train.len(),
        held.len()
    );
    (train, held)
}

fn sigmoid(v: f64) -> f64 {
    1.0 / (1.0 + (-v).exp())
}

/// Log loss and the share of decided results on the right side of one half.
fn loss(w: &[f64], data: &[Sample]) -> (f64, f64) {
    let (mut l, mut right, mut decided) = (0.0f64, 0.0f64, 0.0f64);
    for s in data {
        let v: f64 = s.x.iter().map(|&(i, c)| w[i as usize] * c as f64).sum();
        let p = sigmoid(v / SCALE).clamp(1e-9, 1.0 - 1e-9);
        let y = s.y as f64;
        l -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
        if y != 0.5 {
            decided += 1.0;
            if (p > 0.5) == (y > 0.5) {
                right += 1.0;
            }
        }
    }
    (l / data.len().max(1) as f64, right / decided.max(1.0))
}

fn train(args: &[String]) {
    let rule = rule_of(args);
    let epochs: usize = arg(args, "--epochs", 400);
    let lr: f64 = arg(args, "--lr", 4.0);
    let l2: f64 = arg(args, "--l2", 1e-6);
    let out: String = arg(args, "--out", "gomoku-patterns.bin".to_string());
    // the game files: the arguments that are neither options nor their values
    let files = positional(args);
    // `--lines 1`: the line weights too, written with the point and threat weights fitted
    // with them into the line weights file `--lines-out` (the other rule's kept)
    let lines = arg(args, "--lines", 0u32) > 0;
    let lines_out: String = arg(args, "--lines-out", "gomoku-lines.bin".to_string());
    // `--fit-base 0` (with `--lines 1`): the point and threat weights stay the base's
    let fit_base = arg(args, "--fit-base", 1u32) > 0;
    // the ridge penalty of the line weights (`--l2` is the point and threat weights')
    let l2_lines: f64 = arg(args, "--l2-lines", l2);
    // `--avg2 1`: fitted for the search's `avg2` (the point sum of the last two positions)
    let avg2 = arg(args, "--avg2", 0u32) > 0;
    let (train, held) = load(&files, rule, lines, avg2);
    if train.is_empty() {
        eprintln!("no positions to fit: nothing written");
        std::process::exit(2);
    }
    let n = train.len() as f64;
    // `--base embedded`: start from the shipped weights of the rule, and pull towards them
    // (the ridge penalty on the difference) instead of towards zero
    let base = arg(args, "--base", String::new()) == "embedded";
    let mut w0 = vec![0.0f64; PARAMS];
    if base {
        let rw = &Weights::embedded().rules[rule_index(rule)];
        let tie = rule != GomokuRule::Renju;
        for c in 0..(if tie { 1 } else { 2 }) {
            for k in 0..COMBOS {
                w0[point_param(c, k) as usize] = rw.point[c][k] as f64;
            }
            for m in 0..THREATS {
                w0[threat_param(c, m) as usize] = rw.threat[c][m] as f64;
            }
        }
        let (l, a) = loss(&w0, &held);
        eprintln!(
            "held out log loss of the shipped weights: {l:.4} ({:.1}% right)",
            100.0 * a
        );
    }
    let mut w = w0.clone();
    let (mut m1, mut m2) = (vec![0.0f64; PARAMS], vec![0.0f64; PARAMS]);
    let (b1, b2) = (0.9f64, 0.999f64);
    for epoch in 1..=epochs {
        let mut grad = vec![0.0f64; PARAMS];
        for s in &train {
            let v: f64 = s.x.iter().map(|&(i, c)| w[i as usize] * c as f64).sum();
            let err = (sigmoid(v / SCALE) - s.y as f64) / SCALE;
            for &(i, c) in &s.x {
                grad[i as usize] += err * c as f64;
            }
        }
        for (j, g) in grad.iter_mut().enumerate() {
            if lines && !fit_base && j < BASE_PARAMS {
                continue;
            }
            let l2 = if j < BASE_PARAMS { l2 } else { l2_lines };
            *g = *g / n + l2 * (w[j] - w0[j]);
            m1[j] = b1 * m1[j] + (1.0 - b1) * *g;
            m2[j] = b2 * m2[j] + (1.0 - b2) * *g * *g;
            let mh = m1[j] / (1.0 - b1.powi(epoch as i32));
            let vh = m2[j] / (1.0 - b2.powi(epoch as i32));
            w[j] -= lr * mh / (vh.sqrt() + 1e-12);
        }
        if epoch % 50 == 0 || epoch == epochs {
            let (lt, at) = loss(&w, &train);
            let (lh, ah) = loss(&w, &held);
            eprintln!(
                "epoch {epoch}: training log loss {lt:.4} ({:.1}% right), held out {lh:.4} ({:.1}% right)",
                100.0 * at,
                100.0 * ah
            );
        }
    }
    let (l0, _) = loss(&vec![0.0; PARAMS], &held);
    eprintln!("held out log loss of a coin: {l0:.4}");
    let q = |v: f64| v.round().clamp(-32_000.0, 32_000.0) as i16;
    let tie = rule != GomokuRule::Renju;
    let mut rw = RuleWeights::zero();
    for c in 0..2 {
        let t = if tie { 0 } else { c };
        for k in 0..COMBOS {
            rw.point[c][k] = q(w[point_param(t, k) as usize]);
        }
        for m in 0..THREATS {
            rw.threat[c][m] = q(w[threat_param(t, m) as usize]);
        }
    }
    if lines {
        let mut lw = match std::fs::read(&lines_out) {
            Ok(b) => LineWeights::from_bytes(&b).unwrap_or_else(|e| {
                eprintln!("{lines_out}: {e}");
                std::process::exit(2);
            }),
            Err(_) => LineWeights {
                base: Weights::embedded().clone(),
                ..LineWeights::zero()
            },
        };
        let r = rule_index(rule);
        lw.base.rules[r] = rw;
        for c in 0..2 {
            let t = if tie { 0 } else { c };
            for k in 0..LINE_KEYS {
                lw.line[r][c][k] = q(w[line_param(t, k) as usize]);
            }
        }
        let used: usize = (0..LINE_KEYS).filter(|&k| lw.line[r][0][k] != 0).count();
        let tmp = format!("{lines_out}.tmp");
        if let Err(e) =
            std::fs::write(&tmp, lw.to_bytes()).and_then(|_| std::fs::rename(&tmp, &lines_out))
        {
            eprintln!("{lines_out}: {e}");
            std::process::exit(2);
        }
        eprintln!(
            "wrote {lines_out} ({} rule, {used} non-zero line weights of Black)",
            rule.name()
        );
        return;
    }
    // a new file gets the shipped weights of the other rule (not zeros, which would silently
    // wipe that rule's evaluation if the file were copied into `data/`)
    let mut weights =
        read_existing(&out, Weights::from_bytes).unwrap_or_else(|| Weights::embedded().clone());
    weights.rules[rule_index(rule)] = rw;
    let tmp = format!("{out}.tmp");
    if let Err(e) =
        std::fs::write(&tmp, weights.to_bytes()).and_then(|_| std::fs::rename(&tmp, &out))
    {
        eprintln!("{out}: {e}");
        std::process::exit(2);
    }
    eprintln!("wrote {out} ({} rule)", rule.name());
}

/// How a point lies from an earlier move: on one of its lines at distance 1-4 (0-3), off
/// them within distance 2 (4) or 3 (5), farther (6); `REL - 1` (7) for no such move.
const REL: usize = 8;
fn relation(a: u16, p: u16) -> usize {
    let (ax, ay) = ((a % STRIDE) as i32, (a / STRIDE) as i32);
    let (px, py) = ((p % STRIDE) as i32, (p / STRIDE) as i32);
    let (dx, dy) = ((px - ax).abs(), (py - ay).abs());
    let d = dx.max(dy);
    let aligned = dx == 0 || dy == 0 || dx == dy;
    if aligned && (1..=4).contains(&d) {
        d as usize - 1
    } else if d <= 2 {
        4
    } else if d <= 3 {
        5
    } else {
        6
    }
}

/// One position of `policy`: each candidate's shape combinations for the side to move and the
/// opponent, whether it touches a stone, the search's present ordering score, and which
/// candidate was played.
struct Choice {
    cands: Vec<(u16, u16, bool, i32, u8, u8)>,
    played: usize,
    /// The parameters' offset: the colour to move's under renju, 0 otherwise.
    base: usize,
}

/// `policy`: a move-ordering score learned from the moves of the games in the files (for
/// instance another engine's): a weight per shape combination of the side to move on the
/// point and one per the opponent's, fitted as a softmax over the candidates of every
/// position (the position's played move is the target); prints how often the played move is
/// among the first k of the learned score and of the search's present ordering score, on
/// every tenth game held out.
fn policy(args: &[String]) {
    use qi_core::ai::gomoku::patterns::combo_of;
    use qi_core::ai::gomoku::search::Engine;
    let rule = rule_of(args);
    let epochs: usize = arg(args, "--epochs", 200);
    let lr: f64 = arg(args, "--lr", 0.05);
    let l2: f64 = arg(args, "--l2", 1e-5);
    let files = positional(args);
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let mut games = 0usize;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| {
            eprintln!("{f}: {e}");
            std::process::exit(2);
        });
        for line in text.lines() {
            let mut it = line.split_whitespace();
            let (Some(rname), Some(_res)) = (it.next(), it.next()) else {
                continue;
            };
            if rname != rule.name() {
                continue;
            }
            let mut g = Gomoku::new(15, rule);
            let mut out = Vec::new();
            let mut hist: Vec<u16> = Vec::new();
            for (i, t) in it.enumerate() {
                let Ok(m) = g.parse_move(t) else { break };
                if !g.is_legal(m) {
                    break;
                }
                if i >= 3 {
                    let e = Engine::new(&g);
                    let me = e.side();
                    let op = me.other();
                    let adjacent = e.b.adjacent_set();
                    let mut cands = Vec::new();
                    let mut played = None;
                    e.b.cands().for_each_with(&adjacent, |p, near| {
                        if p == m {
                            played = Some(cands.len());
                        }
                        let (sm, so) = (e.b.shape(me, p), e.b.shape(op, p));
                        let order = sm.value() + so.value() * 7 / 8 + if near { 2 } else { 0 };
                        let rel = |back: usize| {
                            hist.len()
                                .checked_sub(back)
                                .map_or(REL - 1, |j| relation(hist[j], p))
                        };
                        cands.push((
                            combo_of(sm.key()) as u16,
                            combo_of(so.key()) as u16,
                            near,
                            order,
                            rel(1) as u8,
                            rel(2) as u8,
                        ));
                    });
                    if let Some(played) = played {
                        let base = if rule == GomokuRule::Renju {
                            me.index() * SIDE_PARAMS
                        } else {
                            0
                        };
                        out.push(Choice {
                            cands,
                            played,
                            base,
                        });
                    }
                }
                g.make(m);
                hist.push(m);
            }
            if games % 10 == 9 {
                held.extend(out);
            } else {
                train.extend(out);
            }
            games += 1;
        }
    }
    eprintln!(
        "{games} games: {} training positions, {} held out",
        train.len(),
        held.len()
    );
    // parameters: the side to move's combination, the opponent's, and touching a stone
    // `--rel 1`: the relations to the last two moves too (not read by the search)
    let rels: usize = arg(args, "--rel", 0);
    let out: String = arg(args, "--out", String::new());
    let np = 2 * SIDE_PARAMS;
    let score = |w: &[f64], b: usize, c: &(u16, u16, bool, i32, u8, u8)| {
        w[b + c.0 as usize]
            + w[b + COMBOS + c.1 as usize]
            + if c.2 { w[b + 2 * COMBOS] } else { 0.0 }
            + if rels > 0 {
                w[b + 2 * COMBOS + 1 + c.4 as usize] + w[b + 2 * COMBOS + 1 + REL + c.5 as usize]
            } else {
                0.0
            }
    };
    // the played move's rank (0 is first) by a score, ties counted against it
    let rank = |s: &[f64], played: usize| s.iter().filter(|&&v| v >= s[played]).count() - 1;
    let report = |name: &str, w: Option<&[f64]>, data: &[Choice]| {
        let mut hits = [0usize; 4];
        let mut ll = 0.0;
        for ch in data {
            let s: Vec<f64> = ch
                .cands
                .iter()
                .map(|c| match w {
                    Some(w) => score(w, ch.base, c),
                    None => c.3 as f64,
                })
                .collect();
            let r = rank(&s, ch.played);
            for (j, k) in [1, 3, 6, 10].into_iter().enumerate() {
                if r < k {
                    hits[j] += 1;
                }
            }
            if w.is_some() {
                let mx = s.iter().cloned().fold(f64::MIN, f64::max);
                let z: f64 = s.iter().map(|v| (v - mx).exp()).sum();
                ll += z.ln() - (s[ch.played] - mx);
            }
        }
        let n = data.len().max(1) as f64;
        eprintln!(
            "{name}: played move first {:.1}%, in the first 3 {:.1}%, 6 {:.1}%, 10 {:.1}%{}",
            100.0 * hits[0] as f64 / n,
            100.0 * hits[1] as f64 / n,
            100.0 * hits[2] as f64 / n,
            100.0 * hits[3] as f64 / n,
            if w.is_some() {
                format!(", log loss {:.3}", ll / n)
            } else {
                String::new()
            }
        );
    };
    report("present ordering, held out", None, &held);
    let mut w = vec![0.0f64; np];
    let (mut m1, mut m2) = (vec![0.0f64; np], vec![0.0f64; np]);
    let (b1, b2) = (0.9f64, 0.999f64);
    let n = train.len().max(1) as f64;
    for epoch in 1..=epochs {
        let mut grad = vec![0.0f64; np];
        for ch in &train {
            let b = ch.base;
            let s: Vec<f64> = ch.cands.iter().map(|c| score(&w, b, c)).collect();
            let mx = s.iter().cloned().fold(f64::MIN, f64::max);
            let z: f64 = s.iter().map(|v| (v - mx).exp()).sum();
            for (j, c) in ch.cands.iter().enumerate() {
                let p = (s[j] - mx).exp() / z - if j == ch.played { 1.0 } else { 0.0 };
                grad[b + c.0 as usize] += p;
                grad[b + COMBOS + c.1 as usize] += p;
                if c.2 {
                    grad[b + 2 * COMBOS] += p;
                }
                if rels > 0 {
                    grad[b + 2 * COMBOS + 1 + c.4 as usize] += p;
                    grad[b + 2 * COMBOS + 1 + REL + c.5 as usize] += p;
                }
            }
        }
        for j in 0..np {
            let g = grad[j] / n + l2 * w[j];
            m1[j] = b1 * m1[j] + (1.0 - b1) * g;
            m2[j] = b2 * m2[j] + (1.0 - b2) * g * g;
            let mh = m1[j] / (1.0 - b1.powi(epoch as i32));
            let vh = m2[j] / (1.0 - b2.powi(epoch as i32));
            w[j] -= lr * mh / (vh.sqrt() + 1e-12);
        }
        if epoch % 50 == 0 || epoch == epochs {
            eprintln!("epoch {epoch}");
            report("  learned, training", Some(&w), &train);
            report("  learned, held out", Some(&w), &held);
        }
    }
    if out.is_empty() {
        return;
    }
    // the logits times 100, into the ordering weights file (the other rule's kept; a new
    // file starts from the shipped ones)
    let q = |v: f64| (100.0 * v).round().clamp(-32_000.0, 32_000.0) as i16;
    let mut ow = read_existing(&out, OrderWeights::from_bytes)
        .unwrap_or_else(|| OrderWeights::embedded().clone());
    for c in 0..2 {
        let b = if rule == GomokuRule::Renju {
            c * SIDE_PARAMS
        } else {
            0
        };
        let side = &mut ow.rules[rule_index(rule)][c];
        for k in 0..COMBOS {
            side.me[k] = q(w[b + k]);
            side.op[k] = q(w[b + COMBOS + k]);
        }
        side.near = q(w[b + 2 * COMBOS]);
    }
    let tmp = format!("{out}.tmp");
    if let Err(e) = std::fs::write(&tmp, ow.to_bytes()).and_then(|_| std::fs::rename(&tmp, &out)) {
        eprintln!("{out}: {e}");
        std::process::exit(2);
    }
    eprintln!("wrote {out} ({} rule)", rule.name());
}

/// The weights already in `path`, whose other rule a fit keeps: `None` if there is no such
/// file; a file that does not read stops the program (it is not overwritten).
fn read_existing<T>(path: &str, parse: impl Fn(&[u8]) -> Result<T, String>) -> Option<T> {
    match std::fs::read(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
        Ok(b) => Some(parse(&b).unwrap_or_else(|e| {
            eprintln!("{path}: {e}; not overwritten");
            std::process::exit(2);
        })),
    }
}

/// `policy`'s parameters of one colour: the two combination tables, `near`, the relations.
const SIDE_PARAMS: usize = 2 * COMBOS + 1 + 2 * REL;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("gen") => generate(&args[1..]),
        Some("train") => train(&args[1..]),
        Some("label") => label(&args[1..]),
        Some("policy") => policy(&args[1..]),
        _ => {
            eprintln!("usage: gomoku_patterns gen|label|train [options] (see the program's doc)");
            std::process::exit(2);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// A few short self-play games of `rule` (small node budgets), written by `gen`.
    fn games(dir: &std::path::Path, rule: &str) -> String {
        let path = dir
            .join(format!("{rule}.txt"))
            .to_string_lossy()
            .into_owned();
        generate(&args(&[
            "--rule", rule, "--games", "3", "--seed", "7", "--nodes", "300", "--out", &path,
        ]));
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 3, "{text}");
        path
    }

    /// Session 62's fix: a fit of one rule into a new file keeps the other rule's shipped
    /// weights (it wrote zeros for them before), and a second fit into that file keeps the
    /// first fit's weights.
    #[test]
    fn train_into_a_new_file_keeps_the_other_rules_shipped_weights() {
        let dir = tempfile::tempdir().unwrap();
        let renju = games(dir.path(), "renju");
        let freestyle = games(dir.path(), "freestyle");
        let out = dir.path().join("w.bin").to_string_lossy().into_owned();
        let fi = rule_index(GomokuRule::Freestyle);
        let ri = rule_index(GomokuRule::Renju);
        train(&args(&[
            "--rule", "renju", &renju, "--epochs", "3", "--out", &out,
        ]));
        let w = Weights::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
        assert_eq!(w.rules[fi], Weights::embedded().rules[fi]);
        // the renju weights are the fit's (from zeros, three epochs), not the shipped ones
        assert_ne!(w.rules[ri], Weights::embedded().rules[ri]);
        assert!(w.rules[ri].point[0].iter().any(|&v| v != 0));
        let fitted_renju = w.rules[ri].clone();
        train(&args(&[
            "--rule",
            "freestyle",
            &freestyle,
            "--epochs",
            "3",
            "--out",
            &out,
        ]));
        let w = Weights::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
        assert_eq!(w.rules[ri], fitted_renju);
        assert_ne!(w.rules[fi], Weights::embedded().rules[fi]);
        assert!(!std::path::Path::new(&format!("{out}.tmp")).exists());
    }

    /// The same for the move ordering's fit (`policy`).
    #[test]
    fn policy_into_a_new_file_keeps_the_other_rules_shipped_ordering() {
        let dir = tempfile::tempdir().unwrap();
        let renju = games(dir.path(), "renju");
        let out = dir.path().join("o.bin").to_string_lossy().into_owned();
        policy(&args(&[
            "--rule", "renju", &renju, "--epochs", "3", "--out", &out,
        ]));
        let o = OrderWeights::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
        let fi = rule_index(GomokuRule::Freestyle);
        let ri = rule_index(GomokuRule::Renju);
        assert_eq!(o.rules[fi], OrderWeights::embedded().rules[fi]);
        assert_ne!(o.rules[ri], OrderWeights::embedded().rules[ri]);
    }
}
