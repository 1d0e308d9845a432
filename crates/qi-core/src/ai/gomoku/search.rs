//! The Gomoku search: a VCF solver (victory by continuous fours), a VCT solver (continuous
//! threats: fours and open threes, see [`Search::vct`]) and a threat-aware
//! principal-variation alpha-beta search over candidate moves near the stones, with the shared
//! transposition table ([`crate::search::tt::Table`]).
//!
//! At every node: a five of the side to move wins; two fives of the opponent lose; one five of
//! the opponent is the only move (searched without using up depth); an open four (or two fours)
//! of the side to move wins; and when the opponent threatens to make an open four, a four-three
//! or a three-three, only the defences and the side to move's own fours are searched. At the
//! root a VCF is tried first, then a VCT, then the opponent's VCF and VCT are looked for and
//! only the moves that stop them are searched (each step only where the level's budget for it
//! is not zero). Black's forbidden points in Renju are never played, and a four of
//! White whose only answer is forbidden for Black is a win.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::board::{Board, F3, PointShape};
use crate::game::{Cell, Game, Side, Square};
use crate::gomoku::{Gomoku, GomokuRule, GomokuUndo, Move, move_at, move_square};
use crate::search::tt::{Bound, Table};
use crate::search::{
    MATE, MATE_BOUND, MAX_TIME, SearchInfo, deadline_after, from_tt, hash_noise, to_tt,
};

const INF: i32 = MATE + 1;
const MAX_PLY: usize = 64;
/// The most threats (fours and threes) of the attacker in a VCT.
pub const VCT_DEPTH: u32 = 8;

/// The failed-threat tables are keyed by Zobrist hashes, random already: the key is its own hash.
#[derive(Clone, Copy, Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | self.0 >> 56) ^ b as u64;
        }
    }

    #[inline]
    fn write_u64(&mut self, k: u64) {
        self.0 = k;
    }
}

type KeyHash = std::hash::BuildHasherDefault<KeyHasher>;

/// `pos` with the other side to move (as if the side to move passed).
fn passed(pos: &Gomoku) -> Option<Gomoku> {
    let text = pos.to_text();
    let flipped = match text.rsplit_once(' ') {
        Some((head, "x")) => format!("{head} o"),
        Some((head, _)) => format!("{head} x"),
        None => return None,
    };
    Gomoku::from_text(&flipped).ok()
}

/// A position with the AI's board beside it, kept in step.
#[derive(Clone)]
pub struct Engine {
    pub g: Gomoku,
    pub b: Board,
    renju: bool,
}

impl Engine {
    pub fn new(pos: &Gomoku) -> Engine {
        let n = pos.size();
        let mut b = Board::new(n, pos.rule());
        for y in 0..n {
            for x in 0..n {
                let sq = Square::new(x, y);
                if let Cell::Piece(s) = pos.cell(sq) {
                    b.place(move_at(sq), s);
                }
            }
        }
        Engine {
            g: pos.clone(),
            b,
            renju: pos.rule() == GomokuRule::Renju,
        }
    }

    #[inline]
    pub fn side(&self) -> Side {
        self.g.side_to_move()
    }

    #[inline]
    pub fn make(&mut self, m: Move) -> GomokuUndo {
        let s = self.side();
        self.b.place(m, s);
        self.g.make(m)
    }

    #[inline]
    pub fn unmake(&mut self, m: Move, u: GomokuUndo) {
        self.g.unmake(u);
        let s = self.side();
        self.b.remove(m, s);
    }

    /// Whether `side` may put a stone on the empty point `m` (Black's forbidden points in Renju
    /// are not allowed).
    #[inline]
    pub fn allowed_for(&self, side: Side, m: Move) -> bool {
        self.b.is_empty(m)
            && !(self.renju && side == Side::Black && self.g.is_forbidden(move_square(m)).is_some())
    }

    #[inline]
    pub fn allowed(&self, m: Move) -> bool {
        self.allowed_for(self.side(), m)
    }
}

/// How a level searches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The line-score evaluation of report 004 instead of the shape evaluation.
    pub simple_eval: bool,
    /// Threat logic: open fours as wins, defence-only moves against threats, forced replies
    /// searched without using up depth.
    pub threats: bool,
    /// Moves searched at a node (the best by the ordering score).
    pub width: usize,
    pub depth: Option<u32>,
    pub time: Option<Duration>,
    /// Node budget of the VCF tried at the root (0: none).
    pub vcf_root: u64,
    /// Node budget of each check for the opponent's VCF at the root (0: none).
    pub vcf_defend: u64,
    /// Node budget of the VCF tried at the leaves (0: none).
    pub vcf_leaf: u64,
    /// Node budget of the VCT (threes and fours) tried at the root after the VCF (0: none).
    pub vct_root: u64,
    /// Node budget of each check for the opponent's VCT at the root (0: none).
    pub vct_defend: u64,
    /// Node budget of the main alpha-beta search, on top of the threat searches (None: only
    /// the depth and the time limit it).
    pub nodes: Option<u64>,
    /// Evaluation noise amplitude.
    pub noise: i32,
    pub seed: u64,
    /// Late-move reductions for quiet moves (match setting `lmr=1`; no level uses them yet).
    pub lmr: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            simple_eval: false,
            threats: true,
            width: 16,
            depth: None,
            time: Some(Duration::from_millis(1000)),
            vcf_root: 200_000,
            vcf_defend: 20_000,
            vcf_leaf: 40,
            vct_root: 0,
            vct_defend: 0,
            nodes: None,
            noise: 0,
            seed: 0,
            lmr: false,
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Cand {
    mv: Move,
    me: PointShape,
    op: PointShape,
    order: i32,
}

/// What a scan of the candidate points found, from the side to move's view.
#[derive(Clone, Copy, Debug, Default)]
struct Scan {
    my_five: Option<Move>,
    opp_fives: u32,
    opp_five: Move,
    my_sum: i32,
    opp_sum: i32,
    my_fours: u32,
    /// Points where a stone makes a four-three or a three-three (possibly forbidden).
    my_double: u32,
    opp_double: u32,
}

/// The result of [`Search::think`].
#[derive(Clone, Debug)]
pub struct Thought {
    pub best: Option<Move>,
    pub score: i32,
    pub info: SearchInfo,
}

pub struct Search {
    pub cfg: Config,
    tt: Table<Move>,
    pub nodes: u64,
    start: Instant,
    deadline: Option<Instant>,
    stopped: bool,
    stop: Arc<AtomicBool>,
    cands: Vec<Vec<Cand>>,
    vcf_fail: HashMap<u64, u32, KeyHash>,
    vct_fail: HashMap<u64, u32, KeyHash>,
    /// The ordering buffer of [`Search::node_moves`].
    order_buf: Vec<(i32, Move)>,
    /// The search stops when `nodes` reaches this.
    node_limit: u64,
}

impl Search {
    pub fn new(cfg: Config, hash_mb: usize) -> Search {
        Search {
            cfg,
            tt: Table::new(hash_mb),
            nodes: 0,
            start: Instant::now(),
            deadline: None,
            stopped: false,
            stop: Arc::new(AtomicBool::new(false)),
            cands: (0..=MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
            vcf_fail: HashMap::default(),
            vct_fail: HashMap::default(),
            order_buf: Vec::with_capacity(256),
            node_limit: u64::MAX,
        }
    }

    /// Starts the clock and clears the per-search tables.
    pub fn begin(&mut self, stop: &Arc<AtomicBool>) {
        self.start = Instant::now();
        self.deadline = self.cfg.time.map(|t| deadline_after(self.start, t));
        self.stopped = false;
        self.stop = stop.clone();
        self.nodes = 0;
        self.tt.new_search();
        self.vcf_fail.clear();
        self.vct_fail.clear();
        self.node_limit = u64::MAX;
    }

    #[inline]
    fn check_limits(&mut self) {
        if self.stop.load(Ordering::Relaxed) || self.nodes >= self.node_limit {
            self.stopped = true;
        }
        if let Some(d) = self.deadline
            && Instant::now() >= d
        {
            self.stopped = true;
        }
    }

    /// Scans the candidate points of the side to move into `self.cands[ply]`.
    fn scan(&mut self, e: &Engine, ply: usize) -> Scan {
        let me = e.side();
        let op = me.other();
        let mut out = std::mem::take(&mut self.cands[ply]);
        out.clear();
        let mut sc = Scan::default();
        let n = e.b.n as u16;
        if e.b.stones == 0 {
            let c = n / 2;
            let mv = c * 32 + c;
            out.push(Cand {
                mv,
                me: e.b.shape(me, mv),
                op: e.b.shape(op, mv),
                order: 1,
            });
        }
        {
            let adjacent = e.b.adjacent_set();
            for p in e.b.cands().iter() {
                let ms = e.b.shape(me, p);
                let os = e.b.shape(op, p);
                if ms.five() && sc.my_five.is_none() {
                    sc.my_five = Some(p);
                }
                if os.five() {
                    sc.opp_fives += 1;
                    sc.opp_five = p;
                }
                if ms.fours() > 0 {
                    sc.my_fours += 1;
                }
                if ms.four_three() || ms.double_three() {
                    sc.my_double += 1;
                }
                if os.four_three() || os.double_three() || os.unstoppable() {
                    sc.opp_double += 1;
                }
                let (mv, ov) = (ms.value(), os.value());
                sc.my_sum += mv;
                sc.opp_sum += ov;
                let near_bonus = if adjacent.get(p as usize) { 2 } else { 0 };
                out.push(Cand {
                    mv: p,
                    me: ms,
                    op: os,
                    order: mv + ov * 7 / 8 + near_bonus,
                });
            }
        }
        self.cands[ply] = out;
        sc
    }

    /// The fives and fours of both sides from the kept point sets (no sums, no candidates).
    #[inline]
    fn quick_scan(e: &Engine) -> Scan {
        let me = e.side();
        let (tm, to) = (&e.b.threats[me.index()], &e.b.threats[me.other().index()]);
        Scan {
            my_five: tm.five.first(),
            opp_fives: to.five.count(),
            opp_five: to.five.first().unwrap_or(0),
            my_fours: tm.four.count(),
            ..Scan::default()
        }
    }

    fn evaluate(&self, e: &Engine, sc: &Scan) -> i32 {
        let v = if self.cfg.simple_eval {
            e.b.line_score(e.side()).clamp(-300_000, 300_000)
        } else {
            let mut v = e.b.shape_score(e.side());
            if sc.my_double > 0 {
                v += 1500;
            }
            v -= 400 * sc.opp_double.min(3) as i32;
            v += 40 * sc.my_fours.min(5) as i32;
            v.clamp(-300_000, 300_000)
        };
        v + hash_noise(e.g.hash(), self.cfg.seed, self.cfg.noise)
    }

    /// Whether the opponent (not to move) threatens to win by an open four, a four-three or a
    /// three-three at one of the scanned points.
    fn opp_threat(&self, e: &Engine, ply: usize) -> bool {
        let op = e.side().other();
        self.cands[ply].iter().any(|c| {
            (c.op.unstoppable() || c.op.four_three() || c.op.double_three())
                && e.allowed_for(op, c.mv)
        })
    }

    /// The moves of a node, best first: `forced` alone, or the defences against a threat, or
    /// the best `width` candidates.
    fn node_moves(
        &mut self,
        e: &Engine,
        ply: usize,
        hash_move: Option<Move>,
        width: usize,
        out: &mut Vec<Move>,
    ) {
        out.clear();
        let defend = self.cfg.threats && self.opp_threat(e, ply);
        let mut list = std::mem::take(&mut self.order_buf);
        list.clear();
        list.extend(
            self.cands[ply]
                .iter()
                .filter(|c| !defend || c.me.fours() > 0 || c.op.max() >= F3)
                .map(|c| {
                    let k = if Some(c.mv) == hash_move {
                        i32::MAX
                    } else {
                        c.order
                    };
                    (k, c.mv)
                }),
        );
        list.sort_unstable_by(|a, b| b.0.cmp(&a.0));
        let mut taken = 0;
        for &(_, m) in &list {
            if taken >= width {
                break;
            }
            if e.allowed(m) {
                out.push(m);
                taken += 1;
            }
        }
        self.order_buf = list;
    }

    /// A VCF for the side to move within `budget` nodes and `depth` fours: its first move and
    /// the plies to the five.
    pub fn vcf(&mut self, e: &mut Engine, budget: &mut u64, depth: u32) -> Option<(Move, u32)> {
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
        let mut fours: Vec<(i32, Move)> = Vec::with_capacity(16);
        for p in ta.four.iter() {
            fours.push((e.b.shape(a, p).value(), p));
        }
        if def_fives >= 2 || depth == 0 {
            return None;
        }
        let key = e.g.hash();
        if let Some(&dd) = self.vcf_fail.get(&key)
            && dd >= depth
        {
            return None;
        }
        if def_fives == 1 {
            fours.retain(|&(_, p)| p == def_five);
        }
        fours.sort_unstable_by(|x, y| y.0.cmp(&x.0));
        for &(_, m) in &fours {
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
        // against the opponent's four or open-four point only fours can win (tried above)
        if depth == 0 || def_fives > 0 || def_open || *budget == 0 {
            return None;
        }
        let key = e.g.hash();
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
            let r = self.vct_defend(e, budget, depth, m, 0);
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

    fn pvs(
        &mut self,
        e: &mut Engine,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        is_pv: bool,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
        if self.stopped {
            return 0;
        }
        // the threats from the kept point sets; the candidate list only where it is needed
        let mut sc = Self::quick_scan(e);
        if sc.my_five.is_some() {
            return MATE - (ply as i32 + 1);
        }
        if sc.opp_fives >= 2 {
            return -(MATE - (ply as i32 + 2));
        }
        let forced = sc.opp_fives == 1;
        if forced && !e.allowed(sc.opp_five) {
            return -(MATE - (ply as i32 + 2));
        }
        if !forced && self.cfg.threats {
            let me = e.side();
            let win = e.b.threats[me.index()]
                .open
                .iter()
                .any(|p| e.allowed_for(me, p));
            if win {
                return MATE - (ply as i32 + 3);
            }
        }
        let leaf = ply >= MAX_PLY - 1 || (!forced && depth <= 0);
        if !leaf || !self.cfg.simple_eval {
            sc = self.scan(e, ply);
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(e, &sc);
        }
        if !forced && depth <= 0 {
            if self.cfg.vcf_leaf > 0 && sc.my_fours > 0 {
                let mut budget = self.cfg.vcf_leaf;
                if let Some((_, k)) = self.vcf(e, &mut budget, 12) {
                    return MATE - (ply as i32 + k as i32);
                }
            }
            return self.evaluate(e, &sc);
        }
        let key = e.g.hash();
        let mut hash_move = None;
        if let Some(t) = self.tt.probe(key) {
            hash_move = t.mv;
            if !is_pv && t.depth as i32 >= depth {
                let s = from_tt(t.score, ply);
                match t.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let mut moves = Vec::with_capacity(self.cfg.width);
        if forced {
            moves.push(sc.opp_five);
        } else {
            // narrower deeper down: the ordering by shape values is good enough there
            let width = if self.cfg.threats {
                self.cfg.width.saturating_sub(2 * ply).max(7)
            } else {
                self.cfg.width + 4
            };
            self.node_moves(e, ply, hash_move, width, &mut moves);
        }
        if moves.is_empty() {
            return 0;
        }
        let child_depth = if forced && self.cfg.threats {
            depth
        } else {
            depth - 1
        };
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let (me, op) = (e.side(), e.side().other());
        for (i, &m) in moves.iter().enumerate() {
            // late quiet moves (no four or three of either side on the point) one ply
            // shallower, two from the eighth on; searched again in full if they beat alpha
            let reduce = if self.cfg.lmr && !forced && depth >= 3 && i >= 3 {
                let quiet = e.b.shape(me, m).max() < F3 && e.b.shape(op, m).max() < F3;
                if !quiet {
                    0
                } else if i >= 8 && depth >= 4 {
                    2
                } else {
                    1
                }
            } else {
                0
            };
            let u = e.make(m);
            let score = if i == 0 {
                -self.pvs(e, child_depth, ply + 1, -beta, -alpha, is_pv)
            } else {
                let mut s = -self.pvs(e, child_depth - reduce, ply + 1, -alpha - 1, -alpha, false);
                if reduce > 0 && s > alpha && !self.stopped {
                    s = -self.pvs(e, child_depth, ply + 1, -alpha - 1, -alpha, false);
                }
                if s > alpha && s < beta && is_pv && !self.stopped {
                    s = -self.pvs(e, child_depth, ply + 1, -beta, -alpha, true);
                }
                s
            };
            e.unmake(m, u);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move, to_tt(best, ply), depth.max(0) as i16, bound);
        best
    }

    /// Whether the opponent of the side to move has a VCF if the side to move passed.
    fn opponent_vcf(&mut self, pos: &Gomoku) -> bool {
        let Some(g) = passed(pos) else {
            return false;
        };
        let mut e = Engine::new(&g);
        let mut budget = self.cfg.vcf_defend;
        self.vcf(&mut e, &mut budget, 30).is_some()
    }

    /// Whether the opponent of the side to move has a VCT if the side to move passed.
    fn opponent_vct(&mut self, pos: &Gomoku) -> bool {
        let Some(g) = passed(pos) else {
            return false;
        };
        let mut e = Engine::new(&g);
        let mut budget = self.cfg.vct_defend;
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
            && let Some(c) = self.cands[0]
                .iter()
                .find(|c| c.me.unstoppable() && e.allowed_for(me, c.mv))
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
            if let Some((m, k)) = self.vcf(&mut e, &mut budget, 40) {
                return self.finish(&e, m, MATE - k as i32, k, on_info);
            }
        }
        if self.cfg.vct_root > 0 {
            let mut budget = self.cfg.vct_root;
            if let Some((m, k)) = self.vct(&mut e, &mut budget, VCT_DEPTH) {
                return self.finish(&e, m, MATE - k as i32, k, on_info);
            }
        }
        if let Some(t) = self.cfg.time {
            self.deadline = Some(deadline_after(self.start, t.min(MAX_TIME).mul_f64(0.35)));
        }

        // root moves
        let mut root = Vec::new();
        self.node_moves(&e, 0, None, self.cfg.width * 2, &mut root);
        if self.cfg.vcf_defend > 0 && self.opponent_vcf(pos) {
            // keep only the moves after which the opponent has no VCF
            let mut all = Vec::new();
            self.node_moves(&e, 0, None, 60, &mut all);
            let mut keep = Vec::new();
            for &m in &all {
                let u = e.make(m);
                let mut budget = self.cfg.vcf_defend;
                let found = self.vcf(&mut e, &mut budget, 30).is_some();
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
        if self.cfg.vct_defend > 0 && root.len() > 1 && self.opponent_vct(pos) {
            // keep only the moves after which the opponent has no VCT, if there are any
            let mut keep = Vec::new();
            for &m in &root {
                let u = e.make(m);
                let mut budget = self.cfg.vct_defend;
                let found = self.vct(&mut e, &mut budget, VCT_DEPTH).is_some();
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
            if best_score.abs() > MATE_BOUND && depth > MATE - best_score.abs() + 2 {
                break;
            }
            if let Some(t) = self.cfg.time
                && self.start.elapsed() > t.mul_f64(0.4)
            {
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

    fn finish(
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

    fn info(&self, e: &Engine, depth: u32, score: i32, best: Move) -> SearchInfo {
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
        }
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
        for i in 0..root.len() {
            let m = root[i];
            self.nodes += 1;
            let u = e.make(m);
            let score = if i == 0 {
                -self.pvs(e, depth - 1, 1, -beta, -alpha, true)
            } else {
                let s = -self.pvs(e, depth - 1, 1, -alpha - 1, -alpha, false);
                if s > alpha && !self.stopped {
                    -self.pvs(e, depth - 1, 1, -beta, -alpha, true)
                } else {
                    s
                }
            };
            e.unmake(m, u);
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
                e.g.hash(),
                Some(b),
                to_tt(alpha, 0),
                depth as i16,
                Bound::Exact,
            );
        }
        (best, alpha, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(text: &str) -> Gomoku {
        Gomoku::from_text(text).unwrap()
    }

    #[test]
    fn late_move_reductions_keep_the_answer_to_an_open_three() {
        // Black's open three f9 g9 h9, White to move: with or without the reductions the
        // answer is on that row
        for rule in [GomokuRule::Freestyle, GomokuRule::Renju] {
            let mut g = Gomoku::new(15, rule);
            for t in ["f9", "h7", "g9", "j5", "h9", "m12", "c3"] {
                let m = g.parse_move(t).unwrap();
                g.make(m);
            }
            for lmr in [false, true] {
                let cfg = Config {
                    lmr,
                    depth: Some(6),
                    time: None,
                    vcf_leaf: 40,
                    ..Config::default()
                };
                let mut s = Search::new(cfg, 4);
                let stop = Arc::new(AtomicBool::new(false));
                let m = s.think(&g, &stop, &mut |_| {}).best.unwrap();
                let sq = move_square(m);
                assert!(g.is_legal(m), "{rule:?} lmr {lmr}");
                assert!(
                    sq.y == 8 && (3..=10).contains(&sq.x),
                    "{rule:?} lmr {lmr}: {sq:?}"
                );
            }
        }
    }

    #[test]
    fn engine_board_matches_position() {
        let g = pos("15 freestyle 15/15/15/15/15/15/6o8/7x7/7xo6/15/15/15/15/15/15 x");
        let e = Engine::new(&g);
        assert_eq!(e.b.stones, 4);
        assert_eq!(e.b.cell[move_at(Square::new(7, 7)) as usize], 1);
        assert_eq!(e.b.cell[move_at(Square::new(6, 8)) as usize], 2);
    }
}
