//! The quiescence search at the leaves ([`super::Config::qvcf`], after the idea of Rapfi's
//! quick VCF search, no code of it): the side to move may stand on its evaluation or play a
//! four near its own last stone, which the opponent must block; the first two fours of a line
//! may be any four, later ones only fours that make a two or more on another line as well.
//!
//! Its quick wins ([`Search::quick_win`], read at every node of the main search too) count,
//! with [`super::Config::win43`], a four-three point as a win where the opponent has no point
//! for a four. Until session 44 that was never so for Black under renju, where a three can be
//! false and the four-three point forbidden; since then Black's four-three is played out on
//! the board ([`renju_black_43`]: the point allowed, White's one block leaves White no point
//! for a four, then a point for an open four that is allowed), and a four of White's whose
//! one block is forbidden for Black counts as White's win in three plies
//! ([`renju_white_four`]; session 25 had found that 12 of 60 renju games Qi lost as Black
//! ended on such a four). Over random crowded renju positions the VCF solver, which plays the
//! forbidden points exactly, finds a win wherever either claims one (the tests below).

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
    /// faces no five): an open four point; with [`super::Config::win43`] a four-three
    /// point where the opponent has no point for a four (for Black under renju only one that
    /// [`renju_black_43`] plays out), and for White under renju a four whose one block is
    /// forbidden for Black ([`renju_white_four`]).
    #[inline]
    pub(super) fn quick_win(&self, e: &mut Engine, ply: usize) -> Option<i32> {
        let me = e.side();
        let t = e.b.threats[me.index()];
        if t.open.iter().any(|p| e.allowed_for(me, p)) {
            return Some(MATE - (ply as i32 + 3));
        }
        if self.cfg.win43 && e.renju && me == Side::White && renju_white_four(e) {
            return Some(MATE - (ply as i32 + 3));
        }
        if self.cfg.win43 {
            let o = &e.b.threats[me.other().index()];
            if o.four.is_empty() && o.open.is_empty() {
                let both = t.four.and(&t.three);
                if !both.is_empty() && (!e.renju || me == Side::White || renju_black_43(e, &both)) {
                    return Some(MATE - (ply as i32 + 5));
                }
            }
        }
        None
    }
}

/// Whether White (to move under renju, Black having no five point) wins by a four whose only
/// answer is a point forbidden for Black. The five point of such a four is itself one of
/// White's points for a four, and forbidden for Black only where Black has a three or a four
/// through it (or an overline, which this leaves out): only those points are tried, each
/// against the fours of White that make it a five point, played out on the board.
fn renju_white_four(e: &mut Engine) -> bool {
    let (w, b) = (Side::White.index(), Side::Black.index());
    let t = e.b.threats[w];
    let bl = &e.b.threats[b];
    let suspects = t.four.and(&bl.three.or(&bl.four));
    if suspects.is_empty() {
        return false;
    }
    for q in suspects.iter() {
        if e.allowed_for(Side::Black, q) {
            continue;
        }
        for p in t.four.iter() {
            if p == q {
                continue;
            }
            let u = e.make(p);
            let five = &e.b.threats[w].five;
            let win = five.get(q as usize) && !e.allowed_for(Side::Black, q);
            e.unmake(p, u);
            if win {
                return true;
            }
        }
    }
    false
}

/// Whether Black (to move under renju, White having no point for a four) wins by one of the
/// four-three points `points` in five plies: the point is not forbidden, White's block of its
/// four (the only answer) leaves White no point for a four, and Black then has a point for an
/// open four that is not forbidden. Under renju a three of Black's can be false (the points
/// that would make it an open four forbidden) and the four-three point itself forbidden (a
/// four-three-three, or a four-four), so the five plies are played out on the board; each
/// four-three point costs two stones placed and taken back.
fn renju_black_43(e: &mut Engine, points: &super::super::bits::Bits) -> bool {
    for p in points.iter() {
        if !e.allowed_for(Side::Black, p) {
            continue;
        }
        let up = e.make(p);
        // the four's one five point (two would be an open four or a four-four, the first
        // taken by the caller, the second forbidden)
        let win = match e.b.threats[Side::Black.index()].five.first() {
            Some(q) if e.b.threats[Side::Black.index()].five.count() == 1 => {
                let uq = e.make(q);
                let w = &e.b.threats[Side::White.index()];
                let ok = w.five.is_empty()
                    && w.four.is_empty()
                    && w.open.is_empty()
                    && e.b.threats[Side::Black.index()]
                        .open
                        .iter()
                        .any(|r| e.allowed_for(Side::Black, r));
                e.unmake(q, uq);
                ok
            }
            _ => false,
        };
        e.unmake(p, up);
        if win {
            return true;
        }
    }
    false
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
        let forbidden = format!("{quiet} i9 a3 j10 a13");
        for (rule, moves, win) in [
            (GomokuRule::Freestyle, quiet, true),
            (GomokuRule::Standard, quiet, true),
            (GomokuRule::Freestyle, four, false),
            // for Black under renju too, where the point is allowed and the open four follows
            (GomokuRule::Renju, quiet, true),
            // not where h8 is forbidden: Black's i9 j10 make it a four-three-three
            (GomokuRule::Renju, &forbidden, false),
            (GomokuRule::Freestyle, &forbidden, true),
        ] {
            let mut e = Engine::new(&play(rule, moves));
            for win43 in [false, true] {
                let s = Search::new(
                    Config {
                        win43,
                        ..Config::default()
                    },
                    1,
                );
                let found = s.quick_win(&mut e, 3);
                let want = (win43 && win).then_some(super::MATE - 8);
                assert_eq!(found, want, "{rule:?} {moves} win43 {win43}");
            }
        }
        // the four-three of White under renju counts
        let mut e = Engine::new(&play(GomokuRule::Renju, &format!("a2 {quiet}")));
        let s = Search::new(
            Config {
                win43: true,
                ..Config::default()
            },
            1,
        );
        assert!(e.side() == crate::game::Side::White && s.quick_win(&mut e, 0).is_some());
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

    /// 40,000 random crowded positions under renju (every third of `random_position`'s),
    /// those with `side` to move and the game going on.
    fn renju_positions(seed: u64, side: crate::game::Side) -> Vec<Gomoku> {
        let mut rng = crate::rng::Rng::new(seed);
        let mut rnd = move |k: u64| rng.below(k);
        let mut out = Vec::new();
        for i in 0..40000 {
            let stones = 10 + rnd(30);
            let g = super::super::random_position(&mut rnd, 3 * i + 2, stones, 3, 9);
            if g.outcome().is_none() && g.side_to_move() == side {
                out.push(g);
            }
        }
        out
    }

    /// Whether the VCF solver (which plays the forbidden points exactly) finds a win for the
    /// side to move.
    fn vcf_wins(e: &mut Engine) -> bool {
        use std::sync::Arc;
        use std::sync::atomic::AtomicBool;
        let mut s = Search::new(Config::default(), 1);
        s.cfg.time = None;
        s.begin(&Arc::new(AtomicBool::new(false)));
        let mut budget = 1_000_000;
        s.vcf(e, &mut budget, 60).is_some()
    }

    #[test]
    fn blacks_four_three_wins_under_renju_are_vcf_wins() {
        // random crowded renju positions with Black to move and no point for a four of
        // White's: wherever the four-three check claims a win, the VCF solver (which plays
        // the forbidden points exactly) finds one too; and the check finds some
        let (mut claimed, mut tried) = (0, 0);
        for g in renju_positions(4401, crate::game::Side::Black) {
            let mut e = Engine::new(&g);
            let (b, w) = (&e.b.threats[0], &e.b.threats[1]);
            if !b.five.is_empty() || !w.five.is_empty() || !w.four.is_empty() {
                continue;
            }
            if b.open.iter().any(|p| e.allowed(p)) || b.four.and(&b.three).is_empty() {
                continue;
            }
            tried += 1;
            let both = b.four.and(&b.three);
            if !super::renju_black_43(&mut e, &both) {
                continue;
            }
            claimed += 1;
            assert!(vcf_wins(&mut e), "{}", g.to_text());
        }
        assert!(claimed >= 5 && claimed < tried, "{claimed} of {tried}");
    }

    #[test]
    fn whites_four_on_a_forbidden_block_wins_under_renju() {
        let vcf = vcf_wins;
        // White to move: l12 makes a four on the diagonal i9 j10 k11 (g7 and m13 Black)
        // whose one five point h8 is a three-three point of Black's (f8 g8, h9 h10)
        let moves = "f8 i9 g8 j10 h9 k11 h10 a1 g7 o1 m13";
        for (rule, win) in [(GomokuRule::Renju, true), (GomokuRule::Freestyle, false)] {
            let mut e = Engine::new(&play(rule, moves));
            assert_eq!(e.side(), crate::game::Side::White);
            for win43 in [false, true] {
                let s = Search::new(
                    Config {
                        win43,
                        ..Config::default()
                    },
                    1,
                );
                let want = (win43 && win).then_some(super::MATE - 3);
                assert_eq!(s.quick_win(&mut e, 0), want, "{rule:?} win43 {win43}");
            }
            assert_eq!(vcf(&mut e), win, "{rule:?}");
        }
        // random crowded renju positions with White to move: wherever the check claims a
        // win, the VCF solver finds one too; and the check finds some
        let (mut claimed, mut tried) = (0, 0);
        for g in renju_positions(4402, crate::game::Side::White) {
            let mut e = Engine::new(&g);
            let (b, w) = (&e.b.threats[0], &e.b.threats[1]);
            if !b.five.is_empty() || !w.five.is_empty() || !w.open.is_empty() || w.four.is_empty() {
                continue;
            }
            tried += 1;
            if super::renju_white_four(&mut e) {
                claimed += 1;
                assert!(vcf(&mut e), "{}", g.to_text());
            }
        }
        assert!(claimed >= 5 && claimed < tried, "{claimed} of {tried}");
    }
}
