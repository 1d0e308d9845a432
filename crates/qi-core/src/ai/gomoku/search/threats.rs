//! The threat solvers of the Gomoku search: VCF (victory by continuous fours) and VCT
//! (continuous threats: fours and open threes), reading the board's threat point sets.

use super::super::board::{B3, F2};
use super::{Engine, Search};
use crate::gomoku::Move;

impl Search {
    /// A VCF for the side to move within `budget` nodes and `depth` fours: its first move and
    /// the plies to the five.
    pub fn vcf(&mut self, e: &mut Engine, budget: &mut u64, depth: u32) -> Option<(Move, u32)> {
        // the list of fours from a pool of buffers (one in use a level of the recursion), not
        // a new allocation a node
        let mut fours = self.four_bufs.pop().unwrap_or_default();
        fours.clear();
        let r = self.vcf_with(e, budget, depth, &mut fours);
        self.four_bufs.push(fours);
        r
    }

    /// [`Search::vcf`] with `fours` (empty) for the node's fours.
    fn vcf_with(
        &mut self,
        e: &mut Engine,
        budget: &mut u64,
        depth: u32,
        fours: &mut Vec<(i32, Move)>,
    ) -> Option<(Move, u32)> {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        self.nodes += 1;
        if self.nodes & 255 == 0 {
            self.check_limits();
        }
        if self.stopped {
            *budget = 0;
            return None;
        }
        let a = e.side();
        let d = a.other();
        let (ta, td) = (&e.b.threats[a.index()], &e.b.threats[d.index()]);
        if let Some(p) = ta.five.first() {
            return Some((p, 1));
        }
        let def_fives = td.five.count();
        let def_five = td.five.first().unwrap_or(0);
        for p in ta.four.iter() {
            fours.push((e.b.shape(a, p).value(), p));
        }
        if def_fives >= 2 || depth == 0 {
            return None;
        }
        let key = e.hash();
        if let Some(&dd) = self.vcf_fail.get(&key)
            && dd >= depth
        {
            return None;
        }
        if def_fives == 1 {
            fours.retain(|&(_, p)| p == def_five);
        }
        fours.sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
        for &(_, m) in fours.iter() {
            if !e.allowed(m) {
                continue;
            }
            let u = e.make(m);
            // The defender to move: two fives of ours cannot be stopped. The defender has no
            // five (it had none, or only on m), and our fives are all new.
            let five = &e.b.threats[a.index()].five;
            let a_fives = five.count();
            let w = five.first().unwrap_or(0);
            let result = if a_fives == 0 {
                None
            } else if a_fives >= 2 || !e.allowed_for(d, w) {
                Some(3)
            } else {
                let u2 = e.make(w);
                let r = self.vcf(e, budget, depth - 1);
                e.unmake(w, u2);
                r.map(|(_, k)| k + 2)
            };
            e.unmake(m, u);
            if let Some(k) = result {
                return Some((m, k));
            }
        }
        if *budget > 0 {
            self.vcf_fail.insert(key, depth);
        }
        None
    }

    /// A VCT (victory by continuous threats: fours and open threes) for the side to move
    /// within `budget` nodes and `depth` threats: its first move and the plies to the five.
    ///
    /// Sound within its limits: every defence is tried (the points on the lines through the
    /// threat and the defender's own fours, whose forced blocks are played out), and a line
    /// fails when the defender gets a five or an open four first, when a block is forbidden
    /// for the attacker, or when the budget runs out. A VCF is tried first at every node.
    ///
    /// With [`super::Config::vct_quiet`] above 0, a line may also use that many quiet
    /// threats: a move that is no four or open three but after which the attacker would win
    /// by a VCF if the defender passed (Rapfi's wins against Qi often pass through one:
    /// session 25). The defences tried against it are the defender's fours and the points
    /// that can break that VCF ([`Search::vcf_breakers`]).
    ///
    /// The depth grows one threat at a time up to `depth` (iterative deepening): a search to
    /// the full depth at once could spend its whole budget in deep lines before it reached a
    /// short win (session 32: in a game Rapfi won from the 9th stone, Qi's VCT at 8 threats
    /// found the win at the 15th stone in 128,845 nodes and at 3 threats in 2,568; at the 13th
    /// stone only 3-7 threats found it; at 10 threats and more it found none within 2,000,000
    /// nodes). The failed lines of the shallower passes stay in the failed-threat table.
    pub fn vct(&mut self, e: &mut Engine, budget: &mut u64, depth: u32) -> Option<(Move, u32)> {
        let kept = self.quiet_left;
        self.quiet_left = self.cfg.vct_quiet.min(QUIET_KEYS.len() as u32 - 1);
        let mut r = None;
        for d in 1..=depth {
            r = self.vct_node(e, budget, d);
            if r.is_some() || *budget == 0 || self.stopped {
                break;
            }
        }
        self.quiet_left = kept;
        r
    }

    /// [`Search::vct`] within the line searched so far ([`Search::quiet_left`] quiet
    /// threats left).
    fn vct_node(&mut self, e: &mut Engine, budget: &mut u64, depth: u32) -> Option<(Move, u32)> {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        self.nodes += 1;
        if self.nodes & 255 == 0 {
            self.check_limits();
        }
        if self.stopped {
            *budget = 0;
            return None;
        }
        let a = e.side();
        let d = a.other();
        let (ta, td) = (&e.b.threats[a.index()], &e.b.threats[d.index()]);
        if let Some(p) = ta.five.first() {
            return Some((p, 1));
        }
        let def_fives = td.five.count();
        let def_five = td.five.first().unwrap_or(0);
        let def_open = td.open.iter().any(|p| e.allowed_for(d, p));
        let mut threats: Vec<(i32, Move)> = Vec::with_capacity(24);
        for p in ta.four.or(&ta.three).iter() {
            threats.push((e.b.shape(a, p).value() + e.b.shape(d, p).value() / 4, p));
        }
        if def_fives >= 2 {
            return None;
        }
        // fours alone first: they leave the defender no choice
        let mut b = (*budget / 4).max(1).min(*budget);
        let before = b;
        let r = self.vcf(e, &mut b, 20);
        *budget -= before - b;
        if r.is_some() {
            return r;
        }
        // against the opponent's four the block is the only move: a VCT goes on only where
        // the block is itself a threat (a four was tried above, so an open three; Rapfi's
        // wins often pass through one: session 25); against its open-four points only a
        // threat that takes them all away (the defence checks that it does)
        if depth == 0 || *budget == 0 {
            return None;
        }
        let quiet = self.quiet_left > 0;
        if def_fives == 1 {
            threats.clear();
            if e.b.threats[a.index()].three.get(def_five as usize) {
                threats.push((0, def_five));
            } else if !quiet {
                return None;
            }
        }
        let key = e.hash() ^ QUIET_KEYS[self.quiet_left as usize];
        if let Some(&dd) = self.vct_fail.get(&key)
            && dd >= depth
        {
            return None;
        }
        threats.sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
        threats.truncate(12);
        for &(_, m) in &threats {
            if !e.allowed(m) {
                continue;
            }
            let u = e.make(m);
            // a three that leaves the defender an open-four point loses the race
            let r = if def_open
                && e.b.threats[a.index()].five.is_empty()
                && e.b.threats[d.index()]
                    .open
                    .iter()
                    .any(|p| e.allowed_for(d, p))
            {
                None
            } else {
                self.vct_defend(e, budget, depth, Some(m), &[])
            };
            e.unmake(m, u);
            if let Some(k) = r {
                return Some((m, k + 1));
            }
            if *budget == 0 {
                return None;
            }
        }
        if quiet {
            let moves = if def_fives == 1 {
                if threats.is_empty() {
                    vec![def_five]
                } else {
                    Vec::new()
                }
            } else {
                quiet_candidates(e)
            };
            for m in moves {
                if !e.allowed(m) {
                    continue;
                }
                let u = e.make(m);
                self.quiet_left -= 1;
                let r = self.vct_defend(e, budget, depth, None, &[]);
                self.quiet_left += 1;
                e.unmake(m, u);
                if let Some(k) = r {
                    return Some((m, k + 1));
                }
                if *budget == 0 {
                    return None;
                }
            }
        }
        if *budget > 0 {
            self.vct_fail.insert(key, depth);
        }
        None
    }

    /// A VCF of the side to move (the attacker) within `budget` nodes, and the points where
    /// a stone of the other side (the defender, were it to move first) could break it: a
    /// superset, so that a defence elsewhere leaves that VCF standing. They are the
    /// attacker's stones of the line and its five points; the forced blocks; and, on the
    /// lines through each block and five point, the empty points of the five-point windows
    /// free of attacker stones where the defender's stones and the line's blocks could make
    /// four or more with one more stone (a block that would give the defender a four, which
    /// the VCF found did not have to meet). Where the last block is forbidden for Black
    /// (renju), every point within five on its lines, which could change that.
    pub(super) fn vcf_breakers(&mut self, e: &mut Engine, budget: &mut u64) -> Option<Vec<Move>> {
        let a = e.side();
        let d = a.other();
        let mut played: Vec<(Move, Option<crate::gomoku::GomokuUndo>)> = Vec::new();
        let mut stones: Vec<Move> = Vec::new();
        let mut blocks: Vec<Move> = Vec::new();
        let mut forbidden_end = None;
        let mut found = true;
        loop {
            if let Some(p) = e.b.threats[a.index()].five.first() {
                blocks.push(p);
                break;
            }
            let Some((m, _)) = self.vcf(e, budget, 30) else {
                found = false;
                break;
            };
            stones.push(m);
            played.push((m, e.make(m)));
            let five = e.b.threats[a.index()].five;
            blocks.extend(five.iter());
            let w = five.first().unwrap_or(0);
            if five.count() != 1 {
                break;
            }
            if !e.allowed_for(d, w) {
                forbidden_end = Some(w);
                break;
            }
            played.push((w, e.make(w)));
        }
        while let Some((m, u)) = played.pop() {
            e.unmake(m, u);
        }
        if !found {
            return None;
        }
        let mut out = stones.clone();
        let own = |p: Move| blocks.contains(&p);
        for &w in &blocks {
            if !out.contains(&w) {
                out.push(w);
            }
            let (wx, wy) = ((w % 32) as i32, (w / 32) as i32);
            for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                if forbidden_end == Some(w) {
                    for k in -5i32..=5 {
                        let (x, y) = (wx + k * dx, wy + k * dy);
                        if k != 0 && e.b.on(x, y) {
                            let p = (y * 32 + x) as Move;
                            if e.b.is_empty(p) && !out.contains(&p) {
                                out.push(p);
                            }
                        }
                    }
                    continue;
                }
                for start in -4i32..=0 {
                    let cells: Vec<(i32, i32)> = (start..start + 5)
                        .map(|k| (wx + k * dx, wy + k * dy))
                        .collect();
                    if cells.iter().any(|&(x, y)| !e.b.on(x, y)) {
                        continue;
                    }
                    let pts: Vec<Move> = cells.iter().map(|&(x, y)| (y * 32 + x) as Move).collect();
                    let mut weight = 0;
                    let mut blocked = false;
                    for &p in &pts {
                        let c = e.b.cell(p as usize);
                        if stones.contains(&p) || c == 1 + a.index() as u8 {
                            blocked = true;
                        } else if c == 1 + d.index() as u8 || own(p) {
                            weight += 1;
                        }
                    }
                    if blocked || weight < 3 {
                        continue;
                    }
                    for &p in &pts {
                        if e.b.is_empty(p) && !own(p) && !out.contains(&p) {
                            out.push(p);
                        }
                    }
                }
            }
        }
        Some(out)
    }

    /// The defender to move after the attacker's threat: the plies to the attacker's five if
    /// every defence loses to a further VCT. The threat is an open three or a four made by
    /// `three` (the defences: the points on its lines), or with `None` a quiet threat (the
    /// attacker's VCF were the defender to pass; the defences: the points that can break it,
    /// [`Search::vcf_breakers`]). The defender's own fours are tried too, their forced blocks
    /// played out (at most four in a row): `blocks` holds the attacker's forced blocks so far,
    /// whose lines hold defences too, for a block may make a new three (session 63: in a lost
    /// renju game the VCT claimed a win because the defences of the new three made by the
    /// block of a counter-four were never tried).
    fn vct_defend(
        &mut self,
        e: &mut Engine,
        budget: &mut u64,
        depth: u32,
        three: Option<Move>,
        blocks: &[Move],
    ) -> Option<u32> {
        let counters = blocks.len() as u32;
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        self.nodes += 1;
        if self.stopped {
            *budget = 0;
            return None;
        }
        let d = e.side();
        let a = d.other();
        let (ta, td) = (&e.b.threats[a.index()], &e.b.threats[d.index()]);
        if !td.five.is_empty() {
            return None;
        }
        let a_fives = ta.five.count();
        let a_five = ta.five.first().unwrap_or(0);
        let a_open = ta.open.iter().any(|p| e.allowed_for(a, p));
        let d_open = td.open.iter().any(|p| e.allowed_for(d, p));
        let mut cands: Vec<Move> = Vec::with_capacity(48);
        cands.extend(td.four.iter().filter(|&p| e.allowed_for(d, p)));
        if a_fives >= 2 {
            return Some(2);
        }
        if a_fives == 1 {
            if !e.allowed_for(d, a_five) {
                return Some(2);
            }
            let u = e.make(a_five);
            let r = self.vct_node(e, budget, depth.saturating_sub(1));
            e.unmake(a_five, u);
            return r.map(|(_, k)| k + 1);
        }
        // an open four of the defender's wins the race against a three and any VCF
        if d_open || counters >= 4 {
            return None;
        }
        let points: Vec<Move> = match three {
            Some(m) => {
                if !a_open {
                    return None;
                }
                // the points on the lines through the threat and through the attacker's
                // forced blocks of the defender's fours
                std::iter::once(m)
                    .chain(blocks.iter().copied())
                    .flat_map(|m| {
                        let (mx, my) = ((m % 32) as i32, (m / 32) as i32);
                        [(1, 0), (0, 1), (1, 1), (1, -1)]
                            .into_iter()
                            .flat_map(move |(dx, dy)| {
                                (-5i32..=5).map(move |k| (mx + k * dx, my + k * dy))
                            })
                    })
                    .filter(|&(x, y)| e.b.on(x, y))
                    .map(|(x, y)| (y * 32 + x) as Move)
                    .filter(|&p| e.b.is_empty(p))
                    .collect()
            }
            None => {
                e.pass();
                let mut b = (*budget / 4).max(1).min(*budget);
                let before = b;
                let breakers = self.vcf_breakers(e, &mut b);
                *budget -= before - b;
                e.pass();
                breakers?
            }
        };
        for p in points {
            if e.allowed_for(d, p) && !cands.contains(&p) {
                cands.push(p);
            }
        }
        let mut longest = 0;
        for &p in &cands {
            let u = e.make(p);
            // attacker to move: a four of the defender must be blocked at once
            let (ta, td) = (&e.b.threats[a.index()], &e.b.threats[d.index()]);
            let d_fives = td.five.count();
            let d_five = td.five.first().unwrap_or(0);
            let still =
                three.is_some() && d_fives == 0 && ta.open.iter().any(|q| e.allowed_for(a, q));
            let r = if d_fives >= 2 || (d_fives == 1 && !e.allowed_for(a, d_five)) {
                None
            } else if d_fives == 1 {
                let u2 = e.make(d_five);
                let mut more = blocks.to_vec();
                more.push(d_five);
                let r = self.vct_defend(e, budget, depth, three, &more);
                e.unmake(d_five, u2);
                r.map(|k| k + 2)
            } else if still {
                // the threat stands: an open four next
                Some(4)
            } else {
                self.vct_node(e, budget, depth.saturating_sub(1))
                    .map(|(_, k)| k + 1)
            };
            e.unmake(p, u);
            match r {
                None => return None,
                Some(k) => longest = longest.max(k),
            }
        }
        Some(longest + 1)
    }
}

/// Keys that set apart the VCT's failures by the quiet threats left to the line.
const QUIET_KEYS: [u64; 4] = [
    0,
    0x9E37_79B9_7F4A_7C15,
    0xC2B2_AE3D_27D4_EB4F,
    0x1656_67B1_9E37_79F9,
];

/// The quiet moves of the side to move that [`Search::vct`] tries as quiet threats, best
/// first by the ordering value: empty points near the stones that are no four or open three
/// of its own and make a closed three (a new four point) or two open twos.
fn quiet_candidates(e: &Engine) -> Vec<Move> {
    let a = e.side();
    let d = a.other();
    let ta = &e.b.threats[a.index()];
    let skip = ta.four.or(&ta.three);
    let mut v: Vec<(i32, Move)> =
        e.b.cands()
            .and_not(&skip)
            .iter()
            .filter_map(|p| {
                let s = e.b.shape(a, p);
                (s.max() >= B3 || s.count(F2) >= 2)
                    .then(|| (s.value() + e.b.shape(d, p).value() / 4, p))
            })
            .collect();
    v.sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
    v.truncate(QUIET_MOVES);
    v.into_iter().map(|x| x.1).collect()
}

/// The quiet moves tried at a VCT node ([`quiet_candidates`]).
const QUIET_MOVES: usize = 8;

#[cfg(test)]
mod tests {
    use super::super::{Config, Search};
    use super::*;
    use crate::game::Game;
    use crate::gomoku::{Gomoku, GomokuRule};
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn a_vct_may_start_with_a_threat_that_blocks_the_defenders_open_three() {
        // Session 22's match game 23 against Rapfi (Qi Black) to the 19th stone, Black's f5:
        // Black's split three d3 . f5 g6 has the open-four point e4, and White's e4 takes it
        // and makes the open three e3 e4 e5 (Rapfi played it and won four moves later). The
        // VCT used to give up wherever the defender had an open-four point
        expect_vct(
            GomokuRule::Freestyle,
            &[
                "e11", "e5", "g6", "f4", "g9", "e3", "h8", "i7", "f10", "d12", "g5", "g3", "d6",
                "f3", "g8", "g7", "d3", "f6", "f5",
            ],
            "e4",
        );
    }

    #[test]
    fn a_short_vct_is_found_before_the_search_goes_deep() {
        // Session 32's freestyle match game 19 against Rapfi (Qi Black) to the 13th stone:
        // White to move wins by threats (Rapfi had announced it four stones before). Searched
        // to 8 threats at once, the VCT found nothing in 2,000,000 nodes, lost in deep lines;
        // deepened one threat at a time it finds the win at 3 threats in about 17,000
        let moves = [
            "h7", "k8", "h11", "k7", "g10", "i6", "f9", "i12", "k6", "j7", "l9", "j6", "j8",
        ];
        let (m, _) = vct_after_with(GomokuRule::Freestyle, &moves, 0, 40_000).expect("a VCT");
        assert_eq!(m, "i5");
    }

    /// Checks that the side to move after `moves` has no VCF but a VCT (20,000 nodes, no
    /// quiet threats) of at most 15 plies that starts with `first`.
    fn expect_vct(rule: GomokuRule, moves: &[&str], first: &str) {
        let (m, plies) = vct_after_with(rule, moves, 0, 20_000).expect("a VCT");
        assert_eq!(m, first);
        assert!(plies <= 15, "{plies}");
    }

    #[test]
    fn a_vct_tries_the_defences_of_a_three_made_by_the_block_of_a_counter_four() {
        // Session 63's renju match game against Rapfi (Qi Black) to the 32nd stone: Black's
        // n11 makes the open three n9 n10 n11, and White's n8 blocks it with a four (o9 n8 m7
        // l6) whose block k5 gives Black a new three. The VCT tried only the points on the
        // first three's lines against it, so it missed White's l4 and claimed a win in 12
        // plies that Rapfi refuted (the search then scored the position +130 for White at the
        // 35th stone, and Black lost)
        let moves = [
            "j8", "h11", "j11", "k10", "k9", "j9", "l10", "m11", "i7", "h6", "i8", "k8", "i10",
            "i9", "h9", "g8", "l8", "j7", "j10", "i11", "l9", "l11", "m9", "m7", "n10", "o11",
            "j6", "k7", "n9", "o9", "l7", "l6",
        ];
        let r = vct_after_with(GomokuRule::Renju, &moves, 0, 200_000);
        assert_ne!(r.as_ref().map(|x| x.0.as_str()), Some("n11"), "{r:?}");
        // after n11 n8 k5 and White's l4, Black has no VCT
        let mut line: Vec<&str> = moves.to_vec();
        line.extend(["n11", "n8", "k5", "l4"]);
        assert_eq!(vct_after_with(GomokuRule::Renju, &line, 0, 200_000), None);
    }

    #[test]
    fn a_vct_may_go_on_through_the_forced_block_of_a_four() {
        // Session 24's renju match game against Rapfi (Qi Black) to the 19th stone: Black's
        // g6 g7 g8 g9 (g10 White's) threatens five at g5, and White's block there makes an
        // open three from which White wins (Rapfi had announced the win 4 plies before). The
        // VCT gave up wherever the defender had a four
        expect_vct(
            GomokuRule::Renju,
            &[
                "j11", "j6", "g7", "j8", "g8", "i7", "g9", "g10", "h9", "i10", "i9", "j9", "j10",
                "h8", "i6", "h7", "f9", "e9", "g6",
            ],
            "g5",
        );
    }

    #[test]
    fn a_quiet_threat_continues_a_vct() {
        // Session 24's renju match game against Rapfi (Qi Black) to the 17th stone, White to
        // move: Rapfi had proved White's win six stones before. Black's e9 stopped nothing:
        // White's e8 makes no four or open three but threatens a VCF, and the VCT found no
        // win without quiet threats
        let moves = [
            "e11", "j11", "f6", "g11", "d8", "h10", "e7", "c9", "e10", "i11", "h11", "j12", "h4",
            "g5", "g9", "j10", "e9",
        ];
        let (m, plies) = vct_after_with(GomokuRule::Renju, &moves, 1, 200_000).expect("a VCT");
        assert_eq!(m, "e8");
        assert!(plies <= 25, "{plies}");
        assert_eq!(vct_after_with(GomokuRule::Renju, &moves, 0, 200_000), None);
    }

    /// The VCT of the side to move after `moves` with `quiet` quiet threats and `budget`
    /// nodes, checking first that there is no VCF (20,000 nodes): its first move and plies.
    fn vct_after_with(
        rule: GomokuRule,
        moves: &[&str],
        quiet: u32,
        budget: u64,
    ) -> Option<(String, u32)> {
        let mut g = Gomoku::new(15, rule);
        for t in moves {
            let m = g.parse_move(t).unwrap();
            g.make(m);
        }
        let mut s = Search::new(Config::default(), 1);
        s.cfg.time = None;
        s.cfg.vct_quiet = quiet;
        s.begin(&Arc::new(AtomicBool::new(false)));
        let mut e = Engine::new(&g);
        let mut vcf_budget = 20_000;
        assert_eq!(s.vcf(&mut e, &mut vcf_budget, 30), None);
        let mut budget = budget;
        s.vct(&mut e, &mut budget, super::super::VCT_DEPTH)
            .map(|(m, k)| (g.move_to_text(m), k))
    }

    #[test]
    fn a_vcf_stands_against_every_defence_off_its_breakers() {
        // random crowded positions on every rule where the side to move has a VCF: had the
        // other side moved first, a stone of its anywhere but on the breaking points (and
        // not a four of its own, which the quiet threat's defence plays out) leaves the
        // attacker a VCF still. The defence against a quiet threat is sound only so
        let mut rng = crate::rng::Rng::new(2026);
        let mut rnd = move |k: u64| rng.below(k);
        let mut positions = 0;
        let mut defences = 0;
        for i in 0..1500 {
            let stones = 12 + rnd(30);
            let g = super::super::random_position(&mut rnd, i, stones, 3, 9);
            if g.outcome().is_some() {
                continue;
            }
            let mut s = Search::new(Config::default(), 1);
            s.cfg.time = None;
            s.begin(&Arc::new(AtomicBool::new(false)));
            let mut e = Engine::new(&g);
            let a = e.side();
            let d = a.other();
            if !e.b.threats[d.index()].five.is_empty() || !e.b.threats[a.index()].five.is_empty() {
                continue;
            }
            let mut budget = 100_000;
            let Some(breakers) = s.vcf_breakers(&mut e, &mut budget) else {
                continue;
            };
            positions += 1;
            e.pass();
            let td = e.b.threats[d.index()];
            let free: Vec<Move> =
                e.b.cands()
                    .iter()
                    .filter(|&p| e.allowed(p) && !td.four.get(p as usize) && !breakers.contains(&p))
                    .collect();
            for p in free {
                let u = e.make(p);
                let mut budget = 1_000_000;
                s.vcf_fail.clear();
                let still = s.vcf(&mut e, &mut budget, 60).is_some();
                e.unmake(p, u);
                assert!(
                    still,
                    "{} ({:?}) breaks the VCF of {} off {:?}",
                    g.move_to_text(p),
                    d,
                    g.to_text(),
                    breakers
                        .iter()
                        .map(|&b| g.move_to_text(b))
                        .collect::<Vec<_>>()
                );
                defences += 1;
            }
            e.pass();
        }
        assert!(
            positions >= 40 && defences >= 1000,
            "{positions} {defences}"
        );
    }

    #[test]
    fn vcf_buffers_come_back_to_the_pool() {
        // e5 f6 g7 (d4 White's) and j8 k8 for Black: h8, i9, i8 wins (five plies). The
        // buffers of the fours all come back after each search, one a level in use at most,
        // and a search again with the pool filled finds the same VCF
        let mut g = Gomoku::new(15, GomokuRule::Freestyle);
        for t in ["e5", "d4", "f6", "c12", "g7", "m3", "j8", "a1", "k8", "a15"] {
            let m = g.parse_move(t).unwrap();
            g.make(m);
        }
        let mut s = Search::new(Config::default(), 1);
        s.cfg.time = None;
        s.begin(&Arc::new(AtomicBool::new(false)));
        let mut found = Vec::new();
        for _ in 0..3 {
            let mut e = Engine::new(&g);
            let mut budget = 100_000;
            s.vcf_fail.clear();
            found.push(s.vcf(&mut e, &mut budget, 30));
            let pool = s.four_bufs.len();
            assert!((2..=30).contains(&pool), "{pool} buffers");
            assert!(s.four_bufs.iter().all(|b| b.capacity() > 0));
        }
        let (m, plies) = found[0].expect("a VCF");
        assert_eq!((g.move_to_text(m).as_str(), plies), ("h8", 5));
        assert!(found.iter().all(|&f| f == found[0]));
    }
}
