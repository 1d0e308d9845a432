//! The training program of the Go move models ([`qi_core::ai::go::features`]): it reads game
//! records (the `-v` logs of `qi-engine match`, or folders of SGF files with `--sgf`) and fits
//! the feature weights of the tree priors; `--spatial N` adds the spatial patterns played at
//! least `N` times in the training games.
//!
//! The spatial model (`data/go-spatial.txt`, what 13×13 uses by default, session
//! 30) was trained on the 7,259 files ending in `.sgf` of the public collection
//! github.com/yenw/computer-go-dataset at commit d40334f (19×19 games of strong programs,
//! mostly against strong players on Fox and Tygem; its zipped collections are not read):
//!
//! ```text
//! git clone https://github.com/yenw/computer-go-dataset && git -C computer-go-dataset checkout d40334f
//! cargo run --release -p qi-core --example go_features -- --sgf computer-go-dataset \
//!     --spatial 10 --rounds 8 --out crates/qi-core/data/go-spatial.txt
//! ```
//!
//! 7,192 games were read (45 had setup stones or handicap, or could not be read): 1,063,545
//! training positions and 118,234 held out; 32,093 spatial patterns were played at least 10
//! times. The model's highest weight is the played move in 38.8% of the held-out positions
//! (39.6% of the training ones), where the search's hand-set priors give it the highest value
//! in 23.4%; the same features without spatial patterns on the first 300 games: 26.7%, with
//! them 31.2%. The run took 7.5 minutes of one core and 18 GB of memory (every candidate's
//! features are kept; `--max-games` trains on fewer).
//!
//! 9×9 (`--size 9`, the default for logs) and 13×13 (`--size 13`) logs of GNU Go games:
//! the data recipe of `data/go-features.txt` (9×9, used with `QI_GO_PRIOR=learned`): GNU Go 3.8 (Debian's `gnugo`
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
//! highest value in 21.9% (22.7% of the training positions). The spatial model replaced it.
//!
//! Every game line (`… moves <opening> | <game>`) gives one training position for each move
//! after the `|` that is not a pass; a game seen twice (GNU Go is deterministic, so the same
//! opening with the colours swapped can repeat a game) counts once. Every tenth game is held
//! out: the program prints the log-likelihood per move after each pass and how often the
//! played move has the highest weight, on the training games and on the held-out ones.

use std::collections::{HashMap, HashSet};

use qi_core::ai::go::features::{Dict, GROUPS, Sample, played_keys, samples_of_game, top1, train};
use qi_core::game::Game;
use qi_core::go::{Go, Move};
use qi_core::sgf::GameRecord;

/// The games of the SGF files in `dir` (and its subfolders) that start from an empty board
/// without handicap: (size, moves). Unreadable records are counted and skipped.
fn sgf_games(dir: &std::path::Path, out: &mut Vec<(u8, Vec<Move>)>, bad: &mut usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("go_features: cannot read the folder {}", dir.display());
        return;
    };
    let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            sgf_games(&path, out, bad);
            continue;
        }
        if !path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
        {
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else {
            *bad += 1;
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let handicap = text
            .split("HA[")
            .nth(1)
            .is_some_and(|t| t.starts_with(|c: char| ('1'..='9').contains(&c)));
        if handicap {
            *bad += 1;
            continue;
        }
        let game = GameRecord::from_sgf(&text).and_then(|r| r.replay_go());
        match game {
            Ok((start, moves))
                if start.points().all(|p| start.stone_at(p).is_none()) && moves.len() >= 20 =>
            {
                out.push((start.size(), moves))
            }
            _ => *bad += 1,
        }
    }
}

fn main() {
    let mut files = Vec::new();
    let mut out = None;
    let mut rounds = 12usize;
    let mut size = 9u8;
    let mut sgf_dirs = Vec::new();
    let mut min_count = 0usize;
    let mut max_games = usize::MAX;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--out" => out = args.next(),
            "--sgf" => sgf_dirs.extend(args.next()),
            "--spatial" => min_count = args.next().and_then(|s| s.parse().ok()).unwrap_or(20),
            "--max-games" => {
                max_games = args
                    .next()
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(max_games)
            }
            "--rounds" => rounds = args.next().and_then(|s| s.parse().ok()).unwrap_or(rounds),
            "--size" => size = args.next().and_then(|s| s.parse().ok()).unwrap_or(size),
            _ => files.push(a),
        }
    }
    if files.is_empty() && sgf_dirs.is_empty() {
        eprintln!(
            "usage: go_features <match -v logs…> [--sgf DIR]… [--out FILE] [--rounds N] [--size 9] \
             [--spatial MIN_COUNT] [--max-games N]"
        );
        std::process::exit(2);
    }
    let Ok(g) = Go::new(size, 7.0) else {
        eprintln!("go_features: no {size}×{size} board");
        std::process::exit(2)
    };
    let head_size = format!("{size} ");
    let mut seen = HashSet::new();
    // (size, moves, the first move that is a training position)
    let mut all: Vec<(u8, Vec<Move>, usize)> = Vec::new();
    let mut bad = 0usize;
    for d in &sgf_dirs {
        let mut games = Vec::new();
        sgf_games(std::path::Path::new(d), &mut games, &mut bad);
        for (sz, moves) in games {
            if seen.insert(format!("{sz} {moves:?}")) {
                all.push((sz, moves, 0));
            }
        }
    }
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
            if !ok {
                bad += 1;
                continue;
            }
            all.push((size, moves, from));
        }
    }
    all.truncate(max_games);
    // every tenth game is held out; the spatial patterns are those played at least
    // `min_count` times in the training games
    let mut dict = Dict::new();
    if min_count > 0 {
        let mut counts: HashMap<u64, u32> = HashMap::new();
        for (k, (sz, moves, from)) in all.iter().enumerate() {
            if k % 10 == 9 {
                continue;
            }
            for keys in played_keys(*sz, moves, *from).unwrap_or_default() {
                for key in keys {
                    *counts.entry(key).or_default() += 1;
                }
            }
        }
        let mut common: Vec<(u32, u64)> = counts
            .into_iter()
            .filter(|&(_, n)| n as usize >= min_count)
            .map(|(k, n)| (n, k))
            .collect();
        common.sort_unstable_by(|a, b| b.cmp(a));
        common.truncate(GROUPS[1].1 as usize - 1);
        for (i, &(_, key)) in common.iter().enumerate() {
            dict.insert(key, i as u32 + 1);
        }
        eprintln!(
            "{} spatial patterns played at least {min_count} times",
            dict.len()
        );
    }
    let (mut train_set, mut held): (Vec<Sample>, Vec<Sample>) = (Vec::new(), Vec::new());
    let mut games = 0usize;
    for (k, (sz, moves, from)) in all.iter().enumerate() {
        let Some(s) = samples_of_game(*sz, moves, *from, &dict) else {
            bad += 1;
            continue;
        };
        games += 1;
        if k % 10 == 9 {
            held.extend(s);
        } else {
            train_set.extend(s);
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
    let mut model = train(&train_set, rounds, &mut |r, ll| {
        eprintln!("pass {:2}: log-likelihood per move {ll:.4}", r + 1)
    });
    model.dict = dict;
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
            "# Go move model for the {} tree priors: `<feature group> <value> <weight>`,\n\
             # `key <spatial pattern key> <value>`.\n\
             # Trained by examples/go_features.rs on {games} games ({} positions); see there.\n{}",
            if sgf_dirs.is_empty() {
                format!("{size}x{size}")
            } else {
                "13x13 and 19x19".to_string()
            },
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
