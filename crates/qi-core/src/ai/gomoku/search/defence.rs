//! Pruning by threat type: the moves of a node where the opponent (not to move) threatens to
//! win by an open four, a four-three or a three-three. Only three kinds of moves can matter
//! there: the side to move's own fours (the opponent must answer them), its own open threes
//! when the opponent's threats are all three-threes (an open four of ours comes first), and
//! the points that take away every threat point of the opponent at once, found exactly from
//! the line codes ([`Board::shape_after_block`](super::super::board::Board::shape_after_block)).
//! A four-three point is also answered by a point after which the forced block of its four
//! makes a four of the side to move ([`Board::shape_after_stone`](super::super::board::Board::shape_after_stone)),
//! which wins the tempo to stop the three: session 22 found Qi counting such a four-three a
//! win against Rapfi (game 6 of its diagnosis match, the test position below), and losing
//! the game from a position Rapfi itself counted lost.
//!
//! With [`Config::answer33`] (off by default), where the opponent's threats are all
//! three-three points, a point that takes away at least one of them and makes a three or more
//! of the side to move answers them too; with [`Config::prune33`] off, three-three points do
//! not narrow the moves at all (session 46: the search module doc).
//!
//! With [`Config::fast_first`] only the faster threat points (open-four, four-four and
//! four-three points) need answers where there are any; the three-three points are left to
//! the next plies. Three-three points are often no win (the side to move has fours of its
//! own, or the three is not as open as its line shape says), and requiring one stone to stop
//! them together with the faster points left out moves that hold: in 2,000 random crowded
//! positions, 48 of 32,085 left-out moves had no VCT of the opponent after them (50,000
//! nodes) against 0 of 37,173 with the faster points first.

use super::super::board::{B3, B4, FIVE};
use super::*;
use crate::gomoku::STRIDE;

/// A threat point of the opponent: a stone there would make an open four or two fours
/// (`fast`), a four with an open three (`fast`), or two open threes.
fn is_threat(s: PointShape) -> bool {
    s.unstoppable() || s.four_three() || s.double_three()
}

/// The point that blocks the four a stone of `side` on the empty point `t` makes, when it
/// makes exactly one four and no open four (else `None`: nothing or two points to block).
fn four_block(e: &Engine, side: Side, t: Move) -> Option<Move> {
    let sh = e.b.shape(side, t);
    let mut lines = (0..4).filter(|&d| sh.lines[d] >= B4);
    let d = lines.next()?;
    if lines.next().is_some() || sh.lines[d] != B4 {
        return None;
    }
    let (dx, dy) = [(1, 0), (0, 1), (1, 1), (1, -1)][d];
    let (tx, ty) = ((t % STRIDE) as i32, (t / STRIDE) as i32);
    (-4i32..=4)
        .filter(|&k| k != 0)
        .map(|k| (tx + k * dx, ty + k * dy))
        .filter(|&(x, y)| e.b.on(x, y))
        .map(|(x, y)| (y * STRIDE as i32 + x) as Move)
        .find(|&q| {
            e.b.is_empty(q)
                && e.b
                    .shape_after_stone(side, q, t, true)
                    .is_some_and(|s| s.lines[d] == FIVE)
        })
}

impl Search {
    /// The opponent's threat points among the scanned candidates of `ply` (allowed for the
    /// opponent), into `self.threat_buf`; returns whether any is faster than a three-three.
    ///
    /// A four-three point comes with the one point that blocks the four it makes (the side to
    /// move's forced answer), where a four of the side to move would win back the tempo it
    /// needs against the three (see [`Search::blocks_all`]); a point whose block makes such a
    /// four already is no threat and left out.
    pub(super) fn opp_threat_points(&mut self, e: &Engine, ply: usize) -> bool {
        let (me, op) = (e.side(), e.side().other());
        let mut fast = false;
        self.threat_buf.clear();
        let flags = self.threat_flags();
        for c in &self.cands[ply][..self.cand_len[ply]] {
            if c.op & flags != 0 && e.allowed_for(op, c.mv) {
                let block = four_block(e, op, c.mv);
                if block.is_some_and(|f| e.b.shape(me, f).max() >= B4) {
                    continue;
                }
                fast |= c.op_fast();
                self.threat_buf.push((c.mv, block, c.op_fast()));
            }
        }
        if fast && self.cfg.fast_first {
            self.threat_buf.retain(|t| t.2);
        }
        fast
    }

    /// Whether a stone of the side to move on `p` leaves the opponent no threat point of
    /// `self.threat_buf`: each is taken, or no longer a threat, or (a four-three) its four's
    /// block makes a four of the side to move, which gains the tempo to stop the three.
    fn blocks_all(&self, e: &Engine, p: Move, fast: bool) -> bool {
        let (me, op) = (e.side(), e.side().other());
        let fast_only = fast && self.cfg.fast_first;
        self.threat_buf.iter().all(|&(t, block, _)| {
            t == p
                || e.b.shape_after_block(op, t, p).is_some_and(|s| {
                    if fast_only {
                        !(s.unstoppable() || s.four_three())
                    } else {
                        !is_threat(s)
                    }
                })
                || block.is_some_and(|f| {
                    f != p
                        && e.b
                            .shape_after_stone(me, f, p, true)
                            .is_some_and(|s| s.max() >= B4)
                })
        })
    }

    /// Whether a stone of the side to move on `p` takes away at least one threat point of
    /// `self.threat_buf` (takes it, or leaves it no threat).
    fn blocks_any(&self, e: &Engine, p: Move) -> bool {
        let op = e.side().other();
        self.threat_buf.iter().any(|&(t, _, _)| {
            t == p
                || e.b
                    .shape_after_block(op, t, p)
                    .is_some_and(|s| !is_threat(s))
        })
    }

    /// The candidates of `ply` (the opponent threatening, see the module doc) that answer the
    /// threats, with their ordering scores, into `list`; empty when none does (the side to move
    /// cannot stop every threat, or the threats are not what the shapes say, e.g. under renju).
    pub(super) fn defence_moves(
        &mut self,
        e: &Engine,
        ply: usize,
        hash_move: Option<Move>,
        list: &mut Vec<(i32, Move)>,
    ) {
        list.clear();
        let fast = self.opp_threat_points(e, ply);
        if self.threat_buf.is_empty() {
            // every threat point is answered by a four already: no exact answers
            return;
        }
        let me = e.side();
        for c in self.cands(ply) {
            let keep = c.my_fours() > 0
                || (!fast && c.my_threat())
                || self.blocks_all(e, c.mv, fast)
                || (!fast
                    && self.cfg.answer33
                    && e.b.shape(me, c.mv).max() >= B3
                    && self.blocks_any(e, c.mv));
            if keep {
                let k = if Some(c.mv) == hash_move {
                    i32::MAX
                } else {
                    c.order
                };
                list.push((k, c.mv));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(text: &str) -> Gomoku {
        Gomoku::from_text(text).unwrap()
    }

    /// The answers [`Search::defence_moves`] gives in the position after `moves` (the opponent
    /// of the side to move threatening), as move texts, sorted.
    fn answers(rule: GomokuRule, moves: &[&str]) -> Vec<String> {
        let mut g = Gomoku::new(15, rule);
        for t in moves {
            let m = g.parse_move(t).unwrap();
            g.make(m);
        }
        answers_in(&g, Config::default())
    }

    /// The answers [`Search::defence_moves`] gives in `g` with `cfg`, as move texts, sorted.
    fn answers_in(g: &Gomoku, cfg: Config) -> Vec<String> {
        let e = Engine::new(g);
        let mut s = Search::new(cfg, 1);
        s.scan(&e, 0);
        assert!(s.opp_threat(&e, 0), "no threat in {}", g.to_text());
        let mut list = Vec::new();
        s.defence_moves(&e, 0, None, &mut list);
        let mut out: Vec<String> = list.iter().map(|&(_, m)| g.move_to_text(m)).collect();
        out.sort();
        out
    }

    #[test]
    fn answers_to_an_open_three_are_its_defence_points() {
        for rule in [GomokuRule::Freestyle, GomokuRule::Renju] {
            // Black h8 i8 j8 with room on both sides: only the two ends stop the open four
            assert_eq!(
                answers(rule, &["h8", "b2", "i8", "b14", "j8"]),
                ["g8", "k8"],
                "{rule:?}"
            );
            // the split three h8 . j8 k8: the gap and both ends
            assert_eq!(
                answers(rule, &["h8", "b2", "j8", "b14", "k8"]),
                ["g8", "i8", "l8"],
                "{rule:?}"
            );
            // White's own fours (k2 l2 m2, blocked at j2: n2 and o2) come with them
            assert_eq!(
                answers(rule, &["h8", "k2", "i8", "l2", "j8", "m2", "j2"]),
                ["g8", "k8", "n2", "o2"],
                "{rule:?}"
            );
        }
    }

    /// Session 22's diagnosis match against Rapfi, game 6 (Qi White), to the 24th stone,
    /// White's f7: White's four-three point i4 (the four i4 i5 . i7 i8, whose block is i6, and
    /// the three f7 . h5 i4). Qi's search counted f7 a win, Rapfi answered g8 (its own split
    /// three g8 h7 . j5, which the forced block i6 makes an open four) and won the game.
    const FOUR_THREE_WITH_A_COUNTER: [&str; 24] = [
        "f8", "j9", "j7", "i10", "h6", "k8", "l7", "i8", "h7", "i7", "i9", "h8", "j8", "h10", "g7",
        "i5", "g10", "g9", "f10", "h5", "j5", "j6", "k5", "f7",
    ];

    #[test]
    fn answers_to_a_four_three_include_the_points_whose_block_makes_a_four() {
        let got = answers(GomokuRule::Freestyle, &FOUR_THREE_WITH_A_COUNTER);
        // the point itself, the four's block and the three's points, and Black's fours
        for m in ["i4", "i6", "g6", "e8", "j3", "e9", "d10"] {
            assert!(got.contains(&m.to_string()), "{m}: {got:?}");
        }
        // after which the block i6 makes a four of Black on the diagonal f9-l3
        for m in ["g8", "f9", "k4", "l3"] {
            assert!(got.contains(&m.to_string()), "{m}: {got:?}");
        }
        // not a quiet point elsewhere
        assert!(!got.contains(&"m8".to_string()), "{got:?}");
    }

    #[test]
    fn the_pruned_search_does_not_count_a_four_three_with_a_counter_a_win() {
        // White to move before f7 (the game's position): f7 is no win for White; Black to
        // move after it is not lost
        let stop = Arc::new(AtomicBool::new(false));
        let cfg = Config {
            patterns: true,
            prune: true,
            lmr: true,
            depth: Some(7),
            time: None,
            ..Config::default()
        };
        let mut g = Gomoku::new(15, GomokuRule::Freestyle);
        for t in &FOUR_THREE_WITH_A_COUNTER[..23] {
            let m = g.parse_move(t).unwrap();
            g.make(m);
        }
        let f7 = g.parse_move("f7").unwrap();
        let t = Search::new(cfg.clone(), 4).think(&g, &stop, &mut |_| {});
        assert!(
            !(t.best == Some(f7) && t.score > MATE_BOUND),
            "f7 counted a win ({})",
            t.score
        );
        g.make(f7);
        let t = Search::new(cfg, 4).think(&g, &stop, &mut |_| {});
        assert!(
            t.score > -MATE_BOUND,
            "Black counted lost after f7 ({}, {})",
            t.score,
            g.move_to_text(t.best.unwrap())
        );
    }

    /// White's open three d7 e6 f5 and three-three points elsewhere, Black to move (a random
    /// position).
    const OPEN_THREE_AND_THREE_THREES: &str = "15 freestyle 15/15/15/5oxx1x5/3xo2x1x5/6xo7/8xo5/3o2xo1o5/3o6x4/4o2x7/4oo4ox3/15/15/15/15 x";

    #[test]
    fn fast_first_answers_the_open_three_and_leaves_the_three_three_points() {
        // White's open three d7 e6 f5 (open-four points c8 and g4) and three-three points
        // elsewhere that no stone of Black stops together with the three: answering every
        // point at once leaves only Black's fours, answering the faster ones first the ends
        // of the three (the three-three points come up again at the next ply)
        let g = pos(OPEN_THREE_AND_THREE_THREES);
        let all = answers_in(&g, Config::default());
        assert!(!all.contains(&"c8".to_string()), "{all:?}");
        let fast = answers_in(
            &g,
            Config {
                fast_first: true,
                ..Config::default()
            },
        );
        for m in ["c8", "g4"] {
            assert!(fast.contains(&m.to_string()), "{m}: {fast:?}");
        }
        // Black's fours still come with them
        assert!(all.iter().all(|m| fast.contains(m)), "{all:?} {fast:?}");
    }

    #[test]
    fn with_fast_first_the_left_out_moves_lose_to_a_vct() {
        // random crowded freestyle positions where the opponent has an open-four, four-four
        // or four-three point and the pruning keeps some answers: after nearly every move it
        // leaves out, the opponent's VCT (50,000 nodes) wins; answering every threat point at
        // once (three-three points too) leaves out more moves after which none is found
        let mut rng = crate::rng::Rng::new(7);
        let mut rnd = move |k: u64| rng.below(k);
        let mut count = [[0u32; 2]; 2];
        for _ in 0..2000 {
            let mut g = Gomoku::new(15, GomokuRule::Freestyle);
            for _ in 0..(10 + rnd(30)) {
                let m = move_at(Square::new(3 + rnd(9) as u8, 3 + rnd(9) as u8));
                if g.outcome().is_none() && g.is_legal(m) {
                    g.make(m);
                }
            }
            if g.outcome().is_some() {
                continue;
            }
            for (i, fast_first) in [false, true].into_iter().enumerate() {
                let mut e = Engine::new(&g);
                let cfg = Config {
                    time: None,
                    fast_first,
                    ..Config::default()
                };
                let mut s = Search::new(cfg, 1);
                s.begin(&Arc::new(AtomicBool::new(false)));
                let sc = s.scan(&e, 0);
                // (no five on the board, no open-four point of the side to move: the search
                // decides those before it looks for answers)
                let me = e.side().index();
                if sc.opp_fives > 0 || sc.my_five.is_some() || !e.b.threats[me].open.is_empty() {
                    continue;
                }
                if !s.opp_threat(&e, 0) || !s.opp_threat_points(&e, 0) {
                    continue;
                }
                let mut list = Vec::new();
                s.defence_moves(&e, 0, None, &mut list);
                if list.is_empty() {
                    continue;
                }
                let left_out: Vec<Move> = s
                    .cands(0)
                    .iter()
                    .map(|c| c.mv)
                    .filter(|&p| list.iter().all(|&(_, m)| m != p))
                    .collect();
                for p in left_out {
                    let u = e.make(p);
                    let mut budget = 50_000;
                    let won = s.vct(&mut e, &mut budget, 8).is_some();
                    e.unmake(p, u);
                    count[i][won as usize] += 1;
                }
            }
        }
        let [[all_held, all_lost], [fast_held, fast_lost]] = count;
        assert!(fast_lost > 5_000, "{count:?}");
        assert!(fast_held * 1000 <= fast_lost, "{count:?}");
        assert!(
            all_held > 5 * fast_held.max(1) && all_lost > 5_000,
            "{count:?}"
        );
    }

    #[test]
    fn answers_to_a_three_three_include_own_threes() {
        // Black threatens the three-three at h8 (f8 g8 and h6 h7); White may answer with a
        // three of its own (an open four of White comes first) or take the point
        let got = answers(
            GomokuRule::Freestyle,
            &["f8", "b2", "g8", "b14", "h6", "m12", "h7", "m13", "o1"],
        );
        assert!(got.contains(&"h8".to_string()), "{got:?}");
        assert!(got.contains(&"m11".to_string()) || got.contains(&"m14".to_string()));
        // not a quiet point far from every line
        assert!(!got.contains(&"c2".to_string()), "{got:?}");
    }

    #[test]
    fn pruned_search_plays_legal_moves_and_answers_threats() {
        // random crowded positions on every rule: with the pruning the move is legal (never
        // forbidden for Black under renju), and an open three of the opponent with no four
        // of either side gets one of its exact answers or a four
        let mut rng = crate::rng::Rng::new(99);
        let mut rnd = move |k: u64| rng.below(k);
        let stop = Arc::new(AtomicBool::new(false));
        let mut checked = 0;
        for i in 0..240 {
            let stones = rnd(36);
            let g = super::super::random_position(&mut rnd, i, stones, 4, 7);
            if g.outcome().is_some() {
                continue;
            }
            let cfg = Config {
                prune: true,
                lmr: true,
                depth: Some(4),
                time: None,
                ..Config::default()
            };
            let mut s = Search::new(cfg, 1);
            let m = s.think(&g, &stop, &mut |_| {}).best.unwrap();
            assert!(g.is_legal(m), "{} in {}", g.move_to_text(m), g.to_text());
            checked += 1;
        }
        assert!(checked > 150, "{checked}");
    }
}
