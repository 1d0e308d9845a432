//! The quiescence search at the leaves ([`super::Config::qvcf`], after the idea of Rapfi's
//! quick VCF search, no code of it): the side to move may stand on its evaluation or play a
//! four near its own last stone, which the opponent must block; the first two fours of a line
//! may be any four, later ones only fours that make a two or more on another line as well.

use super::super::board::F2;
use super::{Engine, MATE, MAX_PLY, Scan, Search};
use crate::game::Side;
use crate::gomoku::Move;

/// Whether `m` is near `last`: within two points in both directions, or on one of its
/// lines within four points.
#[inline]
fn near(m: Move, last: Move) -> bool {
    let (dx, dy) = (
        ((m & 31) as i32 - (last & 31) as i32).abs(),
        ((m >> 5) as i32 - (last >> 5) as i32).abs(),
    );
    let d = dx.max(dy);
    d <= 2 || (d <= 4 && (dx == 0 || dy == 0 || dx == dy))
}

impl Search {
    /// The quiescence search with the side to move attacking by fours: `qd` counts the fours
    /// played in it (0 at the leaf).
    pub(super) fn qsearch(
        &mut self,
        e: &mut Engine,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        qd: u32,
    ) -> i32 {
        if self.enter_node() {
            return 0;
        }
        let sc = match self.qscan(e, ply) {
            Ok(sc) => sc,
            Err(v) => return v,
        };
        let me = e.side();
        if sc.opp_fives == 1 {
            // the block is the only move; the opponent goes on only if it blocked with a four
            let m = sc.opp_five;
            if !e.allowed(m) {
                return -(MATE - (ply as i32 + 2));
            }
            if ply >= MAX_PLY - 2 {
                return self.evaluate(e, &sc);
            }
            let u = e.make(m);
            let v = -self.qdefend(e, ply + 1, -beta, -alpha, qd);
            e.unmake(m, u);
            return v;
        }
        if let Some(w) = self.quick_win(e, ply) {
            return w;
        }
        let stand = self.evaluate(e, &sc);
        if stand >= beta || ply >= MAX_PLY - 2 || sc.my_fours == 0 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let last = if ply >= 2 { self.path[ply - 2] } else { None };
        let mut fours = self.four_bufs.pop().unwrap_or_default();
        fours.clear();
        for p in e.b.threats[me.index()].four.iter() {
            if last.is_some_and(|l| !near(p, l)) || !e.allowed(p) {
                continue;
            }
            let s = e.b.shape(me, p);
            if qd >= 2 && s.count(F2) < 2 {
                continue;
            }
            fours.push((s.value(), p));
        }
        fours.sort_unstable_by_key(|f| std::cmp::Reverse(f.0));
        for &(_, m) in fours.iter() {
            self.path[ply] = Some(m);
            let u = e.make(m);
            let v = -self.qdefend(e, ply + 1, -beta, -alpha, qd + 1);
            e.unmake(m, u);
            if self.stopped {
                break;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.four_bufs.push(fours);
        best
    }

    /// The defender's node of [`Search::qsearch`]: the forced block of the attacker's four,
    /// else the evaluation.
    fn qdefend(&mut self, e: &mut Engine, ply: usize, alpha: i32, beta: i32, qd: u32) -> i32 {
        self.nodes += 1;
        let sc = match self.qscan(e, ply) {
            Ok(sc) => sc,
            Err(v) => return v,
        };
        if sc.opp_fives == 0 || ply >= MAX_PLY - 2 {
            return self.evaluate(e, &sc);
        }
        let m = sc.opp_five;
        if !e.allowed(m) {
            return -(MATE - (ply as i32 + 2));
        }
        self.path[ply] = Some(m);
        let u = e.make(m);
        let v = -self.qsearch(e, ply + 1, -beta, -alpha, qd);
        e.unmake(m, u);
        v
    }

    /// The scan of a quiescence node (a full one for the shape evaluation, which reads its
    /// counts), or its score where a five decides it: the side to move's own, or two of the
    /// opponent's.
    fn qscan(&mut self, e: &Engine, ply: usize) -> Result<Scan, i32> {
        let sc = if self.cfg.simple_eval || self.cfg.patterns {
            Self::quick_scan(e)
        } else {
            self.scan(e, ply)
        };
        if sc.my_five.is_some() {
            return Err(MATE - (ply as i32 + 1));
        }
        if sc.opp_fives >= 2 {
            return Err(-(MATE - (ply as i32 + 2)));
        }
        Ok(sc)
    }

    /// The wins the threat point sets show without a search, for the side to move (which
    /// faces no five): an open four point, or with [`super::Config::win43`] a four-three
    /// point where the opponent has no point for a four.
    #[inline]
    pub(super) fn quick_win(&self, e: &Engine, ply: usize) -> Option<i32> {
        let me = e.side();
        let t = &e.b.threats[me.index()];
        if t.open.iter().any(|p| e.allowed_for(me, p)) {
            return Some(MATE - (ply as i32 + 3));
        }
        if self.cfg.win43 && (!e.renju || me == Side::White) {
            let o = &e.b.threats[me.other().index()];
            if o.four.is_empty() && o.open.is_empty() && !t.four.and(&t.three).is_empty() {
                return Some(MATE - (ply as i32 + 5));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Config, Engine, INF, MATE_BOUND, Search};
    use crate::game::Game;
    use crate::gomoku::{Gomoku, GomokuRule};

    /// The position after `moves` (Black first) under `rule`.
    fn play(rule: GomokuRule, moves: &str) -> Gomoku {
        let mut g = Gomoku::new(15, rule);
        for t in moves.split_whitespace() {
            let m = g.parse_move(t).unwrap();
            g.make(m);
        }
        g
    }

    #[test]
    fn a_four_three_wins_only_where_the_opponent_has_no_four() {
        // Black to move: h8 makes a four on row 8 (blocked at d8) and an open three h8 h9
        // h10; White's scattered stones make no four
        let quiet = "e8 d8 f8 a1 g8 a15 h9 o1 h10 o15";
        // the same with White's a1 b1 c1: a point for a four (d1)
        let four = "e8 d8 f8 a1 g8 b1 h9 c1 h10 o15";
        for (rule, moves, win) in [
            (GomokuRule::Freestyle, quiet, true),
            (GomokuRule::Standard, quiet, true),
            (GomokuRule::Freestyle, four, false),
            // (never for Black under renju)
            (GomokuRule::Renju, quiet, false),
        ] {
            let e = Engine::new(&play(rule, moves));
            for win43 in [false, true] {
                let s = Search::new(
                    Config {
                        win43,
                        ..Config::default()
                    },
                    1,
                );
                let found = s.quick_win(&e, 3);
                let want = (win43 && win).then_some(super::MATE - 8);
                assert_eq!(found, want, "{rule:?} {moves} win43 {win43}");
            }
        }
        // the four-three of White under renju counts
        let e = Engine::new(&play(GomokuRule::Renju, &format!("a2 {quiet}")));
        let s = Search::new(
            Config {
                win43: true,
                ..Config::default()
            },
            1,
        );
        assert!(e.side() == crate::game::Side::White && s.quick_win(&e, 0).is_some());
    }

    #[test]
    fn quiescence_plays_the_fours_near_the_last_stone() {
        // Black to move, its last stone j7: the four h7 (h7-h10, White blocks h6) then g7 or
        // k7 makes an open four on row 7
        let g = play(GomokuRule::Freestyle, "h8 h11 h9 a1 h10 a15 i7 o1 j7 o15");
        for patterns in [false, true] {
            let cfg = Config {
                patterns,
                ..Config::default()
            };
            let mut s = Search::new(cfg, 1);
            let mut e = Engine::new(&g);
            let j7 = g.parse_move("j7").unwrap();
            // near the last stone: the mate in five plies from ply 2
            s.path[0] = Some(j7);
            let v = s.qsearch(&mut e, 2, -INF, INF, 0);
            assert_eq!(v, super::MATE - 7, "patterns {patterns}");
            // the evaluation alone sees no mate, nor does the quiescence when Black's last
            // stone is far from the four
            let sc = Search::quick_scan(&e);
            assert!(s.evaluate(&e, &sc).abs() < MATE_BOUND);
            s.path[0] = Some(g.parse_move("a15").unwrap());
            let v = s.qsearch(&mut e, 2, -INF, INF, 0);
            assert!(v.abs() < MATE_BOUND, "patterns {patterns}: {v}");
            // and it took back every stone it played
            assert_eq!(e.hash(), g.hash());
        }
    }
}
