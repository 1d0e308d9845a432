//! The root of the Gomoku search: the immediate decisions, the threat searches with their
//! share of the time, the defences against the opponent's VCF and VCT, and iterative deepening.

use super::*;

/// The moves for the second stone of a game: the points next to the first stone (the eight
/// around it, as the renju opening rules put the second stone in the central 3×3 around the
/// first, and as every studied opening, direct or indirect, has it). `None` unless exactly one
/// stone is on the board. The search had answered h8 in renju with a stone two points away
/// diagonally, an opening the theory counts as bad for White.
fn second_stones(pos: &Gomoku, e: &Engine) -> Option<Vec<Move>> {
    if pos.stone_count() != 1 {
        return None;
    }
    let n = pos.size();
    let first = (0..n)
        .flat_map(|y| (0..n).map(move |x| Square::new(x, y)))
        .find(|&sq| pos.cell(sq) != Cell::Empty)?;
    let mut out = Vec::new();
    for dy in -1i32..=1 {
        for dx in -1i32..=1 {
            let (x, y) = (first.x as i32 + dx, first.y as i32 + dy);
            if (dx, dy) == (0, 0) || !(0..n as i32).contains(&x) || !(0..n as i32).contains(&y) {
                continue;
            }
            let m = move_at(Square::new(x as u8, y as u8));
            if pos.is_legal(m) && e.allowed(m) {
                out.push(m);
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The threat solvers' engine for `pos` with the side to move passed (no line score kept),
/// or `None` where it cannot pass.
fn passed_engine(pos: &Gomoku) -> Option<Engine> {
    let mut e = Engine::new(&passed(pos)?);
    e.b.keep_line_score(false);
    Some(e)
}

impl Search {
    /// Whether the opponent of the side to move has a VCF within `budget` nodes if the side
    /// to move passed.
    fn opponent_vcf(&mut self, pos: &Gomoku, mut budget: u64) -> bool {
        let Some(mut e) = passed_engine(pos) else {
            return false;
        };
        self.vcf(&mut e, &mut budget, 30).is_some()
    }

    /// Whether the opponent of the side to move has a VCT within `budget` nodes if the side
    /// to move passed.
    fn opponent_vct(&mut self, pos: &Gomoku, mut budget: u64) -> bool {
        let Some(mut e) = passed_engine(pos) else {
            return false;
        };
        self.vct(&mut e, &mut budget, VCT_DEPTH).is_some()
    }

    /// Chooses a move for `pos`. `best` is `None` only when the game is over.
    pub fn think(
        &mut self,
        pos: &Gomoku,
        stop: &Arc<AtomicBool>,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Thought {
        self.begin(stop);
        let mut info = SearchInfo::default();
        if pos.outcome().is_some() {
            on_info(&info);
            return Thought {
                best: None,
                score: 0,
                info,
            };
        }
        let mut e = Engine::new(pos);
        // only the simple evaluation reads the line score
        e.b.keep_line_score(self.cfg.simple_eval && !self.cfg.patterns);
        e.b.set_tables(if self.cfg.lines {
            super::super::patterns::Tables::lines_for_rule(pos.rule())
        } else {
            super::super::patterns::Tables::for_rule(pos.rule())
        });
        e.b.keep_points(self.cfg.patterns);
        self.order_tab = self
            .cfg
            .order
            .then(|| super::super::patterns::OrderTables::for_rule(pos.rule()));
        let sc = self.scan(&e, 0);
        let me = e.side();
        // immediate decisions: a five, the block of the opponent's four, an open four, a VCF
        if let Some(m) = sc.my_five {
            return self.finish(&e, m, MATE - 1, 1, on_info);
        }
        if sc.opp_fives >= 1 {
            let lost = sc.opp_fives >= 2 || !e.allowed(sc.opp_five);
            let m = if e.allowed(sc.opp_five) {
                sc.opp_five
            } else {
                self.any_move(&e, pos)
            };
            let s = if lost { -(MATE - 2) } else { 0 };
            return self.finish(&e, m, s, 1, on_info);
        }
        if self.cfg.threats
            && let Some(c) = self
                .cands(0)
                .iter()
                .find(|c| c.my_unstoppable() && e.allowed_for(me, c.mv))
        {
            let m = c.mv;
            return self.finish(&e, m, MATE - 3, 1, on_info);
        }
        // the threat searches at the root get a share of the time, the main search the rest
        let full_deadline = self.deadline;
        if let Some(t) = self.cfg.time {
            self.deadline = Some(deadline_after(self.start, t.min(MAX_TIME).mul_f64(0.15)));
        }
        if self.cfg.vcf_root > 0 {
            let mut budget = self.cfg.vcf_root;
            let kept = e.b.pause_line_score();
            let r = self.vcf(&mut e, &mut budget, 40);
            e.b.resume_line_score(kept);
            if let Some((m, k)) = r {
                return self.finish(&e, m, MATE - k as i32, k, on_info);
            }
        }
        if self.cfg.vct_root > 0 {
            let mut budget = self.cfg.vct_root;
            let kept = e.b.pause_line_score();
            let r = self.vct(&mut e, &mut budget, VCT_DEPTH);
            e.b.resume_line_score(kept);
            if let Some((m, k)) = r {
                return self.finish(&e, m, MATE - k as i32, k, on_info);
            }
        }
        if let Some(t) = self.cfg.time {
            self.deadline = Some(deadline_after(self.start, t.min(MAX_TIME).mul_f64(0.35)));
        }

        // root moves
        let mut root = Vec::new();
        self.node_moves(&e, 0, None, self.cfg.width * 2, &mut root);
        if let Some(next_to_first) = second_stones(pos, &e) {
            root = next_to_first;
        }
        if self.cfg.vcf_defend > 0 && self.opponent_vcf(pos, self.cfg.vcf_defend) {
            // keep only the moves after which the opponent has no VCF
            let mut all = Vec::new();
            self.node_moves(&e, 0, None, 60, &mut all);
            let mut keep = Vec::new();
            for &m in &all {
                let u = e.make(m);
                let mut budget = self.cfg.vcf_defend;
                let kept = e.b.pause_line_score();
                let found = self.vcf(&mut e, &mut budget, 30).is_some();
                e.b.resume_line_score(kept);
                e.unmake(m, u);
                if !found {
                    keep.push(m);
                }
                if self.stopped {
                    break;
                }
            }
            if !keep.is_empty() {
                root = keep;
            }
        }
        if self.cfg.vct_defend > 0 && root.len() > 1 && self.opponent_vct(pos, self.cfg.vct_defend)
        {
            // keep only the moves after which the opponent has no VCT, if there are any
            let mut keep = Vec::new();
            for &m in &root {
                let u = e.make(m);
                let mut budget = self.cfg.vct_defend;
                let kept = e.b.pause_line_score();
                let found = self.vct(&mut e, &mut budget, VCT_DEPTH).is_some();
                e.b.resume_line_score(kept);
                e.unmake(m, u);
                if !found {
                    keep.push(m);
                }
                if self.stopped {
                    break;
                }
            }
            if !keep.is_empty() && !self.stopped {
                root = keep;
            }
        }
        // (Config::verify) only where the opponent, were the side to move to pass, would win
        // by a VCF or a VCT within the check's budget
        self.verify_on = self.cfg.verify > 0
            && root.len() > 1
            && (self.opponent_vcf(pos, self.cfg.verify.min(self.cfg.vcf_defend.max(1)))
                || (!self.stopped && self.opponent_vct(pos, self.cfg.verify)));
        self.deadline = full_deadline;
        self.stopped = false;
        if let Some(n) = self.cfg.nodes {
            self.node_limit = self.nodes + n;
        }
        self.check_limits();
        if root.is_empty() {
            // every candidate is forbidden: any legal move
            root.push(self.any_move(&e, pos));
        }
        if root.len() == 1 {
            return self.finish(&e, root[0], 0, 1, on_info);
        }

        let max_depth = self.cfg.depth.unwrap_or(40).clamp(1, 40) as i32;
        if self.cfg.ab {
            return self.ab_iterate(&mut e, root, max_depth, on_info);
        }
        let mut best = root[0];
        let mut best_score = -INF;
        let mut depth = 1;
        loop {
            let (b, s, complete) = self.root_search(&mut e, &mut root, depth);
            if let Some(b) = b {
                best = b;
                best_score = s;
            }
            if complete {
                info = self.info(&e, depth as u32, best_score, best);
                on_info(&info);
            }
            if !complete || self.stopped || depth >= max_depth {
                break;
            }
            if self.deepening_done(depth, best_score) {
                break;
            }
            depth += 1;
        }
        if best_score == -INF {
            best_score = 0;
        }
        let d = info.depth.max(1);
        self.finish(&e, best, best_score, d, on_info)
    }

    /// Whether iterative deepening stops after a completed `depth` with `score`: a mate found
    /// within that depth, or the share of the move's time for starting new depths used up.
    pub(super) fn deepening_done(&self, depth: i32, score: i32) -> bool {
        (score.abs() > MATE_BOUND && depth > MATE - score.abs() + 2)
            || self
                .cfg
                .time
                .is_some_and(|t| self.start.elapsed() > t.mul_f64(self.cfg.spend as f64 / 100.0))
    }

    /// A legal move when no candidate is: the first allowed point near the stones, else the
    /// first legal move of the position.
    fn any_move(&self, e: &Engine, pos: &Gomoku) -> Move {
        let mut c = Vec::new();
        e.b.candidates(&mut c);
        if let Some(&m) = c.iter().find(|&&m| e.allowed(m)) {
            return m;
        }
        let mut all = Vec::new();
        pos.legal_moves(&mut all);
        all.first().copied().unwrap_or(c[0])
    }

    pub(super) fn finish(
        &mut self,
        e: &Engine,
        m: Move,
        score: i32,
        depth: u32,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Thought {
        let info = self.info(e, depth, score, m);
        on_info(&info);
        Thought {
            best: Some(m),
            score,
            info,
        }
    }

    pub(super) fn info(&self, e: &Engine, depth: u32, score: i32, best: Move) -> SearchInfo {
        let elapsed = self.start.elapsed();
        let mut pv = vec![e.g.move_to_text(best)];
        let mut g = e.g.clone();
        g.make(best);
        while pv.len() < depth as usize + 2 {
            let Some(m) = self.tt.probe(g.hash()).and_then(|t| t.mv) else {
                break;
            };
            if !g.is_legal(m) {
                break;
            }
            pv.push(g.move_to_text(m));
            g.make(m);
        }
        SearchInfo {
            depth,
            score,
            nodes: self.nodes,
            nps: (self.nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
            pv,
            elapsed,
            solved: Default::default(),
        }
    }

    /// [`Config::verify`]: whether the opponent wins by a VCF or a VCT after the root move
    /// `m` (the solvers within `verify` nodes each), as the score of `m` for the side to move
    /// (a loss), once a search per move. `None` where none was found (or the clock ran out).
    pub(super) fn verified(&mut self, e: &mut Engine, m: Move) -> Option<i32> {
        if let Some(&(_, r)) = self.verified.iter().find(|(v, _)| *v == m) {
            return r;
        }
        let u = e.make(m);
        let kept = e.b.pause_line_score();
        let mut budget = self.cfg.verify.min(self.cfg.vcf_defend.max(1));
        let mut r = self.vcf(e, &mut budget, 30);
        if r.is_none() && !self.stopped {
            let mut budget = self.cfg.verify;
            r = self.vct(e, &mut budget, VCT_DEPTH);
        }
        e.b.resume_line_score(kept);
        e.unmake(m, u);
        if self.stopped {
            return None;
        }
        // the opponent's five k plies after its first threat: k + 1 after the root
        let lost = r.map(|(_, k)| -(MATE - 1 - k as i32));
        self.verified.push((m, lost));
        lost
    }

    fn root_search(
        &mut self,
        e: &mut Engine,
        root: &mut Vec<Move>,
        depth: i32,
    ) -> (Option<Move>, i32, bool) {
        let mut alpha = -INF;
        let beta = INF;
        let mut best = None;
        // (Config::select_defend: the answers to a threat all in full depth)
        let reduce_root = self.cfg.select_defend || !(self.cfg.threats && self.opp_threat(e, 0));
        // (Config::sp) the root's static evaluation, for its children and grandchildren
        let op = e.side().other();
        self.seval[0] = if self.cfg.sp.on()
            && self.cfg.patterns
            && e.b.threats[op.index()].five.is_empty()
            && e.b.threats[op.index()].open.is_empty()
        {
            self.static_eval(e)
        } else {
            NO_EVAL
        };
        for (i, &m) in root.iter().enumerate() {
            self.nodes += 1;
            // (Config::select) from the third move on shallower, as on the principal
            // variation below, and again in full depth if it beats alpha
            let r = if self.cfg.select && i >= 2 && depth >= 3 && reduce_root {
                let me = e.side();
                let important =
                    e.b.shape(me.other(), m).max() >= F3 || e.b.shape(me, m).max() >= F3;
                select_reduction(self.cfg.select_k, depth, i + 1, important, true).min(depth - 2)
            } else {
                0
            };
            self.path[0] = Some(m);
            self.four_at[0] = e.b.shape(e.side(), m).max() >= B4;
            let u = e.make(m);
            // (the root's later moves expect cuts below them: Config::sp)
            let score = if i == 0 {
                -self.pvs(e, depth - 1, 1, -beta, -alpha, Node::Pv)
            } else {
                let mut s = -self.pvs(e, depth - 1 - r, 1, -alpha - 1, -alpha, Node::Cut);
                if r > 0 && s > alpha && !self.stopped {
                    s = -self.pvs(e, depth - 1, 1, -alpha - 1, -alpha, Node::Cut);
                }
                if s > alpha && !self.stopped {
                    -self.pvs(e, depth - 1, 1, -beta, -alpha, Node::Pv)
                } else {
                    s
                }
            };
            e.unmake(m, u);
            if self.stopped {
                return (best, alpha, false);
            }
            // (Config::verify) a move about to become the best is checked for the opponent's
            // VCF and VCT after it first
            let score = if score > alpha && self.verify_on && score.abs() < MATE_BOUND {
                match self.verified(e, m) {
                    Some(lost) => lost,
                    None => score,
                }
            } else {
                score
            };
            if self.stopped {
                return (best, alpha, false);
            }
            if score > alpha {
                alpha = score;
                best = Some(m);
            }
        }
        if let Some(b) = best {
            let i = root.iter().position(|&m| m == b).expect("a root move");
            let m = root.remove(i);
            root.insert(0, m);
            self.tt.store(
                e.hash(),
                Some(b),
                to_tt(alpha, 0),
                depth as i16,
                Bound::Exact,
            );
        }
        (best, alpha, true)
    }
}
