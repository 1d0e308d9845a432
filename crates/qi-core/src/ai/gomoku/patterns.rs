//! The learned pattern evaluation of Gomoku: a value for every combination of the four line
//! shapes a stone would make on an empty point, summed over the empty points for each side,
//! and a value for the threats on the board seen from the side to move.
//!
//! Every empty point has, for each side, the shapes a stone of that side there would make on
//! its four lines ([`super::board::PointShape`]: none, one, two, three, four, open four, five,
//! blocked or free). The four shapes taken as a multiset (order of the directions left out)
//! are one of [`COMBOS`] combinations; each has a weight per colour, and the first part of the
//! evaluation is the sum of Black's weights over the empty points minus White's (kept up to
//! date stone by stone by the board, [`super::board::Board::keep_points`]). What that sum cannot
//! see is whose move it is: an open three of the side to move is a win in two, one of the
//! opponent must be answered. The second part is a weight per threat mask ([`THREAT_BITS`]
//! flags: for each side whether it has a four-three point, a four point, two of them, an
//! open-three point, a three-three point, and whether the opponent has an open-four point; [`super::board::Board::threat_mask`]), per colour
//! of the side to move.
//!
//! The weights are fitted by logistic regression on the results of self-play games (the
//! estimated winning chance of the side to move is `1 / (1 + exp(-v / SCALE))`), by the
//! training program `examples/gomoku_patterns.rs` (which gives the data recipe), one set for
//! freestyle (also used for the standard rule; both colours share it) and one for renju
//! (Black's and White's apart). They ship in `data/gomoku-patterns.bin` (22 kB), fitted on:
//!
//! ```text
//! gomoku_patterns gen --rule freestyle --games 1200 --seed 1 --nodes 30000 --out gf1.txt
//! gomoku_patterns train --rule freestyle gf1.txt --epochs 300 --l2 0    # held-out log loss 0.406
//! gomoku_patterns gen --rule renju --games 1000 --seed 2 --nodes 30000 --out gr1.txt
//! gomoku_patterns train --rule renju gr1.txt --epochs 200 --l2 0        # held-out log loss 0.399
//! ```
//!
//! In use: `qi-engine gomocup` in freestyle and the standard rule (in self-play at 200 ms a
//! move it won 65% against the line score, 40 games; against Rapfi's classical evaluation at
//! 1 s a move 13 of 80 games, where the line score had won 0-10%); in renju the patterns only
//! drew even (20-0-20) and the line score stays there; the levels with the match setting
//! `patterns=1`. A second round (1,200 more freestyle games played on these weights, a refit
//! on both sets) won 56 of 100 self-play games against them but only 3 of 40 against Rapfi,
//! and is not shipped; a second renju round lost in self-play (45%). Session 20 refitted the
//! freestyle weights from these ones to Rapfi's own evaluation (50 ms a position) of the
//! 24,614 positions of 900 self-play games (`gen --nodes 20000 --patterns 1`, seeds 5 and 6;
//! the recipe in the training program's doc): held-out log loss against Rapfi's labels 0.476
//! for these weights, 0.450 for the refit, which moved the point weights by 2.4 on average
//! (400 is one logit); in `gomocup` self-play at 200 ms a move it scored 51-5-44 against these
//! (seed 55, load 3.2-3.6) and against Rapfi at 1 s a move 4-0-36 (10%, the freestyle file,
//! load 3.7-4.0): no better, so not shipped.

use std::sync::OnceLock;

use super::search::Engine;
use crate::game::{Game, Side};
use crate::gomoku::{Gomoku, GomokuRule, STRIDE};

/// Multisets of four line shapes out of ten: C(13, 4).
pub const COMBOS: usize = 715;
/// Flags of the threat mask.
pub const THREAT_BITS: usize = 11;
pub const THREATS: usize = 1 << THREAT_BITS;
/// The evaluation's unit: a value of `SCALE` is odds of e to 1 for the side to move.
pub const SCALE: f64 = 400.0;
/// The point tables are padded to this many keys, so that a key masked by `KEYS - 1` needs
/// no bounds check.
pub const KEYS: usize = 1 << 14;

const MAGIC: &[u8; 4] = b"QGPW";
const VERSION: u8 = 1;

/// `COMBO_OF[key]`: the combination (0..COMBOS) of a point's key ([`super::board::PointShape`]'s
/// four shapes as a base-10 number).
pub fn combo_of(key: usize) -> usize {
    static T: OnceLock<Vec<u16>> = OnceLock::new();
    T.get_or_init(|| {
        // the sorted quadruples in lexicographic order get the indices 0..COMBOS
        let mut index = vec![u16::MAX; 10_000];
        let mut next = 0u16;
        for a in 0..10 {
            for b in a..10 {
                for c in b..10 {
                    for d in c..10 {
                        index[((a * 10 + b) * 10 + c) * 10 + d] = next;
                        next += 1;
                    }
                }
            }
        }
        assert_eq!(next as usize, COMBOS);
        (0..10_000)
            .map(|k| {
                let mut l = [k / 1000, k / 100 % 10, k / 10 % 10, k % 10];
                l.sort_unstable();
                index[((l[0] * 10 + l[1]) * 10 + l[2]) * 10 + l[3]]
            })
            .collect()
    })[key] as usize
}

/// The weights of one rule: `point[colour][combo]` and `threat[colour to move][mask]`.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleWeights {
    pub point: [Vec<i16>; 2],
    pub threat: [Vec<i16>; 2],
}

impl RuleWeights {
    pub fn zero() -> RuleWeights {
        RuleWeights {
            point: [vec![0; COMBOS], vec![0; COMBOS]],
            threat: [vec![0; THREATS], vec![0; THREATS]],
        }
    }
}

/// The weights of freestyle (index 0) and renju (index 1).
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    pub rules: [RuleWeights; 2],
}

impl Weights {
    /// The file form: `QGPW`, a version byte, then per rule the two point tables and the two
    /// threat tables as little-endian `i16`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.push(VERSION);
        for r in &self.rules {
            for t in r.point.iter().chain(r.threat.iter()) {
                for &w in t {
                    out.extend_from_slice(&w.to_le_bytes());
                }
            }
        }
        out
    }

    pub fn from_bytes(b: &[u8]) -> Result<Weights, String> {
        let size = 5 + 2 * 2 * (2 * COMBOS + 2 * THREATS);
        if b.len() != size || &b[..4] != MAGIC || b[4] != VERSION {
            return Err(format!(
                "not a Gomoku pattern weights file of version {VERSION} ({} bytes, {size} expected)",
                b.len()
            ));
        }
        let mut at = 5;
        let mut read = |n: usize| -> Vec<i16> {
            let v = b[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let mut rule = || RuleWeights {
            point: [read(COMBOS), read(COMBOS)],
            threat: [read(THREATS), read(THREATS)],
        };
        let rules = [rule(), rule()];
        Ok(Weights { rules })
    }

    /// The shipped weights.
    pub fn embedded() -> &'static Weights {
        static W: OnceLock<Weights> = OnceLock::new();
        W.get_or_init(|| {
            Weights::from_bytes(include_bytes!("../../../data/gomoku-patterns.bin"))
                .expect("the embedded Gomoku pattern weights")
        })
    }
}

/// The tables the board reads: the point weights expanded to every key, per colour.
pub struct Tables {
    pub point: [Box<[i16; KEYS]>; 2],
    pub threat: [Box<[i16; THREATS]>; 2],
}

impl Tables {
    pub fn new(w: &RuleWeights) -> Tables {
        let point = |c: usize| -> Box<[i16; KEYS]> {
            let mut t = Box::new([0i16; KEYS]);
            for (k, v) in t.iter_mut().take(10_000).enumerate() {
                *v = w.point[c][combo_of(k)];
            }
            t
        };
        let threat = |c: usize| -> Box<[i16; THREATS]> {
            let mut t = Box::new([0i16; THREATS]);
            t.copy_from_slice(&w.threat[c]);
            t
        };
        Tables {
            point: [point(0), point(1)],
            threat: [threat(0), threat(1)],
        }
    }

    /// The shipped tables of `rule` (renju has its own; standard reads freestyle's).
    pub fn for_rule(rule: GomokuRule) -> &'static Tables {
        static T: OnceLock<[Tables; 2]> = OnceLock::new();
        let t = T.get_or_init(|| {
            let w = Weights::embedded();
            [Tables::new(&w.rules[0]), Tables::new(&w.rules[1])]
        });
        &t[(rule == GomokuRule::Renju) as usize]
    }
}

/// The index of `rule`'s weights in [`Weights::rules`].
pub fn rule_index(rule: GomokuRule) -> usize {
    (rule == GomokuRule::Renju) as usize
}

/// What the fit reads of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Features {
    /// Per colour (Black, White), the combination of the shapes a stone of that colour would
    /// make on each empty point.
    pub combos: [Vec<u16>; 2],
    /// [`super::board::Board::threat_mask`] with the side to move.
    pub mask: u16,
    /// The side to move: 0 Black, 1 White.
    pub side: usize,
}

/// The features of `pos`, or `None` where the search decides the game before it evaluates:
/// the side to move has a five or an open-four point, or the opponent has a five point.
pub fn features(pos: &Gomoku) -> Option<Features> {
    if pos.outcome().is_some() {
        return None;
    }
    let e = Engine::new(pos);
    let me = pos.side_to_move();
    let (tm, to) = (&e.b.threats[me.index()], &e.b.threats[me.other().index()]);
    if !tm.five.is_empty() || !tm.open.is_empty() || !to.five.is_empty() {
        return None;
    }
    let n = pos.size() as u16;
    let mut combos = [Vec::new(), Vec::new()];
    for y in 0..n {
        for x in 0..n {
            let p = y * STRIDE + x;
            if e.b.is_empty(p) {
                for (c, side) in [Side::Black, Side::White].into_iter().enumerate() {
                    combos[c].push(combo_of(e.b.shape(side, p).key()) as u16);
                }
            }
        }
    }
    Some(Features {
        combos,
        mask: e.b.threat_mask(me) as u16,
        side: me.index(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_ignore_the_order_of_directions() {
        assert_eq!(combo_of(0), 0);
        assert_eq!(combo_of(9999), COMBOS - 1);
        assert_eq!(combo_of(1234), combo_of(4321));
        assert_eq!(combo_of(1234), combo_of(3142));
        assert_ne!(combo_of(1234), combo_of(1235));
        let mut seen = vec![false; COMBOS];
        for k in 0..10_000 {
            seen[combo_of(k)] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn weights_round_trip_through_bytes() {
        let mut w = Weights {
            rules: [RuleWeights::zero(), RuleWeights::zero()],
        };
        w.rules[1].point[1][7] = -123;
        w.rules[0].threat[0][2000] = 456;
        let b = w.to_bytes();
        assert_eq!(Weights::from_bytes(&b).unwrap(), w);
        assert!(Weights::from_bytes(&b[..b.len() - 1]).is_err());
        // the shipped file reads
        let _ = Weights::embedded();
    }
}
