//! Pruning by threat type: the moves of a node where the opponent (not to move) threatens to
//! win by an open four, a four-three or a three-three. Only three kinds of moves can matter
//! there: the side to move's own fours (the opponent must answer them), its own open threes
//! when the opponent's threats are all three-threes (an open four of ours comes first), and
//! the points that take away every threat point of the opponent at once, found exactly from
//! the line codes ([`Board::shape_after_block`](super::super::board::Board::shape_after_block)).

use super::*;

/// A threat point of the opponent: a stone there would make an open four or two fours
/// (`fast`), a four with an open three (`fast`), or two open threes.
fn is_threat(s: PointShape) -> bool {
    s.unstoppable() || s.four_three() || s.double_three()
}

impl Search {
    /// The opponent's threat points among the scanned candidates of `ply` (allowed for the
    /// opponent), into `self.threat_buf`; returns whether any is faster than a three-three.
    fn opp_threat_points(&mut self, e: &Engine, ply: usize) -> bool {
        let op = e.side().other();
        let mut fast = false;
        self.threat_buf.clear();
        for c in &self.cands[ply][..self.cand_len[ply]] {
            if c.op_double() && e.allowed_for(op, c.mv) {
                fast |= c.op_fast();
                self.threat_buf.push(c.mv);
            }
        }
        fast
    }

    /// Whether a stone of the side to move on `p` leaves the opponent no threat point of
    /// `self.threat_buf`.
    fn blocks_all(&self, e: &Engine, p: Move) -> bool {
        let op = e.side().other();
        self.threat_buf.iter().all(|&t| {
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
        for c in self.cands(ply) {
            let keep = c.my_fours() > 0 || (!fast && c.my_threat()) || self.blocks_all(e, c.mv);
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

    /// The answers [`Search::defence_moves`] gives in the position after `moves` (the opponent
    /// of the side to move threatening), as move texts, sorted.
    fn answers(rule: GomokuRule, moves: &[&str]) -> Vec<String> {
        let mut g = Gomoku::new(15, rule);
        for t in moves {
            let m = g.parse_move(t).unwrap();
            g.make(m);
        }
        let e = Engine::new(&g);
        let mut s = Search::new(Config::default(), 1);
        s.scan(&e, 0);
        assert!(s.opp_threat(&e, 0), "no threat after {moves:?}");
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
            let rule = [
                GomokuRule::Freestyle,
                GomokuRule::Standard,
                GomokuRule::Renju,
            ][i % 3];
            let mut g = Gomoku::new(15, rule);
            for _ in 0..rnd(36) {
                let m = move_at(Square::new(4 + rnd(7) as u8, 4 + rnd(7) as u8));
                if g.outcome().is_none() && g.is_legal(m) {
                    g.make(m);
                }
            }
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
