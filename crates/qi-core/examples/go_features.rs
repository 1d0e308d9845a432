//! The training program of the Go move model ([`qi_core::ai::go::features`]): it reads game
//! records and fits the feature weights that the tree priors use on 9×9 (`--size 13` reads the
//! 13×13 records of the logs instead, for a model of that size; only 9×9's is shipped).
//!
//! The data recipe (what `data/go-features.txt` was trained on): GNU Go 3.8 (Debian's `gnugo`
//! package) playing itself on 9×9 from 2-4 random opening plies, through `qi-engine match`,
//! whose `-v` output holds every game's moves:
//!
//! ```text
//! G="/usr/games/gnugo --mode gtp --chinese-rules --level 10"
//! qi-engine match go --a gtp:"$G" --b gtp:"$G" --games 800 --openings 2-4 --seed 102 \
//!     --movetime 10000 -v 2> gnugo-102.log
//! cargo run --release -p qi-core --example go_features -- gnugo-102.log \
//!     --out crates/qi-core/data/go-features.txt
//! ```
//!
//! 13×13 (session 27): `data/go13-gnugo-selfplay.txt` holds the 82 distinct games of 99 that
//! the same command played with `--size 13 --games 400 --seed 2771` in 25 minutes (stopped
//! there; one game a line). `go_features data/go13-gnugo-selfplay.txt --size 13 --rounds 8`
//! fits a model on 8,087 positions whose highest weight is the played move in 27.6% of the 898
//! held-out positions, where the search's hand-set tree priors give the played move the
//! highest value in 21.9% (22.7% of the training positions). The search does not use a 13×13
//! model yet: that needs matches.
//!
//! Every game line (`… moves <opening> | <game>`) gives one training position for each move
//! after the `|` that is not a pass; a game seen twice (GNU Go is deterministic, so the same
//! opening with the colours swapped can repeat a game) counts once. Every tenth game is held
//! out: the program prints the log-likelihood per move after each pass and how often the
//! played move has the highest weight, on the training games and on the held-out ones.

use std::collections::HashSet;

use qi_core::ai::go::features::{Sample, samples_of_game, top1, train};
use qi_core::game::Game;
use qi_core::go::{Go, Move};

fn main() {
    let mut files = Vec::new();
    let mut out = None;
    let mut rounds = 12usize;
    let mut size = 9u8;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--out" => out = args.next(),
            "--rounds" => rounds = args.next().and_then(|s| s.parse().ok()).unwrap_or(rounds),
            "--size" => size = args.next().and_then(|s| s.parse().ok()).unwrap_or(size),
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        eprintln!("usage: go_features <match -v logs…> [--out FILE] [--rounds N] [--size 9]");
        std::process::exit(2);
    }
    let Ok(g) = Go::new(size, 7.0) else {
        eprintln!("go_features: no {size}×{size} board");
        std::process::exit(2)
    };
    let head_size = format!("{size} ");
    let mut seen = HashSet::new();
    let (mut train_set, mut held): (Vec<Sample>, Vec<Sample>) = (Vec::new(), Vec::new());
    let (mut games, mut bad) = (0usize, 0usize);
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| {
            eprintln!("go_features: cannot read {f}: {e}");
            std::process::exit(1)
        });
        for line in text.lines() {
            let Some((head, rest)) = line.split_once(" moves ") else {
                continue;
            };
            if !head.trim_start().starts_with(&head_size) || !seen.insert(rest.to_string()) {
                continue;
            }
            let mut moves: Vec<Move> = Vec::new();
            let mut from = 0;
            let mut ok = true;
            for t in rest.split_whitespace() {
                if t == "|" {
                    from = moves.len();
                    continue;
                }
                match g.parse_move(t) {
                    Ok(m) => moves.push(m),
                    Err(_) => {
                        ok = false;
                        break;
                    }
                }
            }
            let Some(s) = ok.then(|| samples_of_game(size, &moves, from)).flatten() else {
                bad += 1;
                continue;
            };
            games += 1;
            if games % 10 == 0 {
                held.extend(s);
            } else {
                train_set.extend(s);
            }
        }
    }
    eprintln!(
        "{games} games ({bad} unreadable): {} training positions, {} held out",
        train_set.len(),
        held.len()
    );
    if train_set.is_empty() {
        eprintln!("go_features: no training positions in {files:?}");
        std::process::exit(1);
    }
    let model = train(&train_set, rounds, &mut |r, ll| {
        eprintln!("pass {:2}: log-likelihood per move {ll:.4}", r + 1)
    });
    eprintln!(
        "played move weighted highest: {:.1}% of training positions, {:.1}% held out",
        100.0 * top1(&model, &train_set),
        100.0 * top1(&model, &held)
    );
    let prior_top = |set: &[Sample]| {
        100.0 * set.iter().filter(|s| s.prior_top).count() as f64 / set.len().max(1) as f64
    };
    eprintln!(
        "the search's hand-set tree priors value the played move highest: {:.1}% of training positions, {:.1}% held out",
        prior_top(&train_set),
        prior_top(&held)
    );
    let uniform: f64 = train_set
        .iter()
        .map(|s| -(s.candidates.len() as f64).ln())
        .sum::<f64>()
        / train_set.len().max(1) as f64;
    eprintln!("(choosing at random: log-likelihood per move {uniform:.4})");
    if let Some(path) = out {
        let text = format!(
            "# Go move model for the {size}x{size} tree priors: `<feature group> <value> <weight>`.\n\
             # Trained by examples/go_features.rs on {games} games ({} positions); see there.\n{}",
            train_set.len(),
            model.write()
        );
        // written beside the target first and renamed over it: a failed write keeps the old model
        let tmp = format!("{path}.tmp");
        if let Err(e) = std::fs::write(&tmp, text).and_then(|_| std::fs::rename(&tmp, &path)) {
            eprintln!("go_features: cannot write {path}: {e}");
            std::process::exit(1);
        }
        eprintln!("wrote {path}");
    }
}
