//! The threat solvers of the Gomoku search: VCF (victory by continuous fours) and VCT
//! (continuous threats: fours and open threes), reading the board's threat point sets.

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
    pub fn vct(&mut self, e: &mut Engine, budget: &mut u64, depth: u32) -> Option<(Move, u32)> {
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
        if def_fives == 1 {
            if !e.b.threats[a.index()].three.get(def_five as usize) {
                return None;
            }
            threats.clear();
            threats.push((0, def_five));
        }
        let key = e.hash();
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
                self.vct_defend(e, budget, depth, m, 0)
            };
            e.unmake(m, u);
            if let Some(k) = r {
                return Some((m, k + 1));
            }
            if *budget == 0 {
                return None;
            }
        }
        if *budget > 0 {
            self.vct_fail.insert(key, depth);
        }
        None
    }

    /// The defender to move after the attacker's threat `m`: the plies to the attacker's five
    /// if every defence loses to a further VCT.
    fn vct_defend(
        &mut self,
        e: &mut Engine,
        budget: &mut u64,
        depth: u32,
        m: Move,
        counters: u32,
    ) -> Option<u32> {
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
            let r = self.vct(e, budget, depth.saturating_sub(1));
            e.unmake(a_five, u);
            return r.map(|(_, k)| k + 1);
        }
        if !a_open || d_open || counters >= 4 {
            return None;
        }
        // the points on the lines through the threat
        let (mx, my) = ((m % 32) as i32, (m / 32) as i32);
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            for k in -5i32..=5 {
                let (x, y) = (mx + k * dx, my + k * dy);
                if k == 0 || !e.b.on(x, y) {
                    continue;
                }
                let p = (y * 32 + x) as Move;
                if e.allowed_for(d, p) && !cands.contains(&p) {
                    cands.push(p);
                }
            }
        }
        let mut longest = 0;
        for &p in &cands {
            let u = e.make(p);
            // attacker to move: a four of the defender must be blocked at once
            let (ta, td) = (&e.b.threats[a.index()], &e.b.threats[d.index()]);
            let d_fives = td.five.count();
            let d_five = td.five.first().unwrap_or(0);
            let still = d_fives == 0 && ta.open.iter().any(|q| e.allowed_for(a, q));
            let r = if d_fives >= 2 || (d_fives == 1 && !e.allowed_for(a, d_five)) {
                None
            } else if d_fives == 1 {
                let u2 = e.make(d_five);
                let r = self.vct_defend(e, budget, depth, m, counters + 1);
                e.unmake(d_five, u2);
                r.map(|k| k + 2)
            } else if still {
                // the threat stands: an open four next
                Some(4)
            } else {
                self.vct(e, budget, depth.saturating_sub(1))
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
        let (m, plies) = vct_after(
            GomokuRule::Freestyle,
            &[
                "e11", "e5", "g6", "f4", "g9", "e3", "h8", "i7", "f10", "d12", "g5", "g3", "d6",
                "f3", "g8", "g7", "d3", "f6", "f5",
            ],
        );
        assert_eq!(m, "e4");
        assert!(plies <= 15, "{plies}");
    }

    /// The VCT (20,000 nodes) of the side to move after `moves`, checking first that there
    /// is no VCF: its first move and plies.
    fn vct_after(rule: GomokuRule, moves: &[&str]) -> (String, u32) {
        let mut g = Gomoku::new(15, rule);
        for t in moves {
            let m = g.parse_move(t).unwrap();
            g.make(m);
        }
        let mut s = Search::new(Config::default(), 1);
        s.cfg.time = None;
        s.begin(&Arc::new(AtomicBool::new(false)));
        let mut e = Engine::new(&g);
        let mut budget = 20_000;
        assert_eq!(s.vcf(&mut e, &mut budget, 30), None);
        let mut budget = 20_000;
        let (m, plies) = s
            .vct(&mut e, &mut budget, super::super::VCT_DEPTH)
            .expect("a VCT");
        (g.move_to_text(m), plies)
    }

    #[test]
    fn a_vct_may_go_on_through_the_forced_block_of_a_four() {
        // Session 24's renju match game against Rapfi (Qi Black) to the 19th stone: Black's
        // g6 g7 g8 g9 (g10 White's) threatens five at g5, and White's block there makes an
        // open three from which White wins (Rapfi had announced the win 4 plies before). The
        // VCT gave up wherever the defender had a four
        let (m, plies) = vct_after(
            GomokuRule::Renju,
            &[
                "j11", "j6", "g7", "j8", "g8", "i7", "g9", "g10", "h9", "i10", "i9", "j9", "j10",
                "h8", "i6", "h7", "f9", "e9", "g6",
            ],
        );
        assert_eq!(m, "g5");
        assert!(plies <= 15, "{plies}");
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
