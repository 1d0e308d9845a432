//! One Monte Carlo search tree: UCT-RAVE selection (no exploration term by default: priors and
//! AMAF values do the exploring; `QI_GO_EXPLORE` adds one), prior knowledge given to new
//! children as virtual games, the playouts of [`super::playout`], and reuse of the subtree of
//! the position actually reached.

use super::board::{Board, Fast};
use super::ladder;
use super::playout;
use super::prior;
use crate::game::Game;
use crate::go::{Go, Move, PASS, POINTS};

/// RAVE equivalence: the number of real games at which a child's AMAF value weighs as much as
/// its own.
const RAVE_EQUIV: f32 = 3000.0;

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Node {
    pub mv: Move,
    pub n_children: u16,
    pub first: u32,
    /// Real playouts through the node.
    pub visits: u32,
    /// Games and wins (of the player who made `mv`), priors included.
    pub n: f32,
    pub w: f32,
    /// All-moves-as-first games and wins.
    pub an: f32,
    pub aw: f32,
    /// Real playouts through the node at whose end the mover of `mv` owned its point, and
    /// at whose end the playout's winner owned it (for the criticality, [`crit_rave`]).
    pub mine: f32,
    pub winner: f32,
}

impl Node {
    /// Whether the real rules forbid this root child (superko; see [`Tree::set_root`]), or the
    /// opening rule keeps it out ([`prior::fuseki_excludes`], for a reused subtree). The
    /// mark is an infinite game count, which no search reaches: it was once 10⁶ games, tested
    /// as "at least 10⁵", and level 6's clock-bound searches with their reused trees give the
    /// best move more games than that, so the best move was dropped as forbidden.
    pub fn forbidden(&self) -> bool {
        self.n == f32::INFINITY
    }
}

/// A search tree for one thread.
pub(crate) struct Tree {
    pub nodes: Vec<Node>,
    /// The position at the root (real rules, for superko at the root).
    pub root_pos: Option<Go>,
    pub rng: Fast,
    /// Ownership sums of the playouts run for this root (+1 Black, −1 White per point).
    pub own: Vec<i32>,
    pub own_games: u32,
    /// The ownership the tree priors use (see [`prior::Context::owner`]), by board point;
    /// empty unless [`Tree::seed_owner`] set it for this root.
    pub prior_owner: Vec<f32>,
    pub max_nodes: usize,
    /// Whether the root follows the opening rule ([`prior::fuseki_excludes`]; off unless
    /// `QI_GO_FUSEKI=1`).
    pub fuseki: bool,
    /// The scratch of [`Tree::iterate`] (searches on one thread).
    walker: Walker,
    /// Whether [`Tree::boost_root`] has been applied to this root.
    root_boosted: bool,
    /// The hand-set priors even where a move model is shipped ([`Tree::without_replies`]).
    hand_priors: bool,
    /// Whether the tree leaves out escapes into a ladder that catches them
    /// ([`ladder::tree_prunes_caught_escapes`]).
    prune_ladders: bool,
    /// The UCB exploration constants of [`Tree::select`] below the root and at the root
    /// ([`exploration`]).
    explore: f32,
    explore_root: f32,
}

/// What one search thread carries through its iterations: the move sequence and tree path of
/// the current one, playout buffers and the AMAF marks. Threads that share a tree each have
/// their own (see [`Tree::descend`] and [`Tree::backup`]).
#[derive(Default)]
pub(crate) struct Walker {
    pub rng: Fast,
    seq: Vec<(u16, u8)>,
    path: Vec<u32>,
    buf: Vec<u16>,
    stamp: Vec<u32>,
    first_color: Vec<u8>,
    /// Where in `seq` each stamped point was first played.
    first_at: Vec<u32>,
    tick: u32,
    /// Last good replies (see [`playout::learn_replies`]), kept from playout to playout.
    replies: Vec<u16>,
    /// Plain playouts, without last good replies.
    no_replies: bool,
}

impl Walker {
    pub fn new(seed: u64) -> Walker {
        Walker {
            rng: Fast::new(seed),
            seq: Vec::with_capacity(1024),
            path: Vec::with_capacity(256),
            buf: Vec::with_capacity(64),
            stamp: vec![0; POINTS],
            first_color: vec![0; POINTS],
            first_at: vec![0; POINTS],
            tick: 0,
            replies: Vec::new(),
            no_replies: false,
        }
    }

    /// Plays the game of the last descent out from `b` (a position that is not over) and
    /// returns its area score for Black, adding the final owners to `own` when given.
    pub fn playout(&mut self, b: &mut Board, own: Option<&mut [i32]>) -> f32 {
        if self.replies.len() != 2 * POINTS && playout::replies_on() && !self.no_replies {
            self.replies = vec![0; 2 * POINTS];
        }
        playout::playout(
            b,
            &mut self.rng,
            &mut self.seq,
            &mut self.buf,
            &mut self.replies,
            own,
        )
    }
}

impl Tree {
    pub fn new(seed: u64, max_nodes: usize) -> Tree {
        playout::init();
        Tree {
            nodes: Vec::new(),
            root_pos: None,
            rng: Fast::new(seed),
            own: Vec::new(),
            own_games: 0,
            prior_owner: Vec::new(),
            max_nodes,
            fuseki: prior::fuseki_on(),
            walker: Walker::new(seed ^ 0x5851_F42D),
            root_boosted: false,
            hand_priors: false,
            prune_ladders: ladder::tree_prunes_caught_escapes(),
            explore: exploration().0,
            explore_root: exploration().1,
        }
    }

    /// Plays its playouts without last good replies and walks the tree with the hand-set
    /// priors (the ownership of [`super::GoCpu::analyse`]: plain playouts, not bent towards
    /// the lines the search liked).
    pub fn without_replies(&mut self) {
        self.walker.no_replies = true;
        self.walker.replies.clear();
        // and the hand-set tree priors on every size: the sharper spatial model steered the
        // few thousand playouts of a territory map on 19×19 so that White's two corner stones
        // after D4 Q16 D16 Q4 K10 owned nothing (the app test `go_territory_map_on_and_off`)
        self.hand_priors = true;
    }

    /// Makes `pos` the root, keeping the subtree under it when `pos` follows the old root by
    /// up to two moves.
    pub fn set_root(&mut self, pos: &Go) {
        let n = pos.size() as usize;
        self.own = vec![0; n * n];
        self.own_games = 0;
        self.prior_owner.clear();
        let reuse = self.find_reusable(pos);
        if reuse != Some(0) {
            self.root_boosted = false;
        }
        match reuse {
            Some(idx) if idx != 0 => {
                let mut fresh = Vec::with_capacity(self.nodes.len());
                let mut r = self.nodes[idx as usize];
                r.mv = PASS;
                fresh.push(r);
                // breadth-first copy: children of one node stay together
                let mut i = 0;
                while i < fresh.len() {
                    let nd = fresh[i];
                    if nd.n_children > 0 {
                        let start = fresh.len() as u32;
                        for k in 0..nd.n_children as u32 {
                            fresh.push(self.nodes[(nd.first + k) as usize]);
                        }
                        fresh[i].first = start;
                    }
                    i += 1;
                }
                self.nodes = fresh;
            }
            Some(_) => {}
            None => {
                self.nodes.clear();
                self.nodes.push(Node::default());
            }
        }
        if self.nodes[0].n_children > 0 {
            // drop root children that the real rules forbid (superko) or the opening rule
            // keeps out (a reused subtree was expanded without it), by zeroing them out
            let (f, k) = (
                self.nodes[0].first as usize,
                self.nodes[0].n_children as usize,
            );
            let board = Board::from_go(pos, PASS);
            let fuseki = self.fuseki && prior::fuseki_applies(&board);
            for c in f..f + k {
                let mv = self.nodes[c].mv;
                if mv != PASS
                    && (!pos.is_legal_point(mv as usize)
                        || (fuseki && prior::fuseki_excludes(&board, mv as usize)))
                {
                    self.nodes[c].n = f32::INFINITY;
                    self.nodes[c].w = 0.0;
                    self.nodes[c].visits = 0;
                    self.nodes[c].n_children = 0;
                    self.nodes[c].an = 0.0;
                    self.nodes[c].aw = 0.0;
                }
            }
        }
        self.root_pos = Some(pos.clone());
    }

    fn find_reusable(&self, pos: &Go) -> Option<u32> {
        let old = self.root_pos.as_ref()?;
        if self.nodes.is_empty() || old.size() != pos.size() || old.komi() != pos.komi() {
            return None;
        }
        if old.board_hash() == pos.board_hash()
            && old.side_to_move() == pos.side_to_move()
            && old.history_len() == pos.history_len()
        {
            return Some(0);
        }
        let gap = pos.history_len().checked_sub(old.history_len())?;
        if gap == 0 || gap > 2 {
            return None;
        }
        let mut g = old.clone();
        let root = self.nodes[0];
        for c in root.first..root.first + root.n_children as u32 {
            let nd = self.nodes[c as usize];
            if nd.visits == 0 || !g.is_legal(nd.mv) {
                continue;
            }
            let u = g.make(nd.mv);
            if gap == 1 {
                if g.board_hash() == pos.board_hash() && g.side_to_move() == pos.side_to_move() {
                    return Some(c);
                }
            } else {
                for c2 in nd.first..nd.first + nd.n_children as u32 {
                    let n2 = self.nodes[c2 as usize];
                    if n2.visits == 0 || !g.is_legal(n2.mv) {
                        continue;
                    }
                    let u2 = g.make(n2.mv);
                    let hit = g.board_hash() == pos.board_hash()
                        && g.side_to_move() == pos.side_to_move();
                    g.unmake(u2);
                    if hit {
                        return Some(c2);
                    }
                }
            }
            g.unmake(u);
        }
        None
    }

    /// Plays `games` playouts from `root` (no tree) and keeps who owns each point at their
    /// end for the tree priors of this root's search, as Pachi seeds its ownership map
    /// before it searches.
    pub fn seed_owner(&mut self, root: &Board, games: u32) {
        let n = root.size as usize;
        let mut own = vec![0i32; n * n];
        let mut w = std::mem::take(&mut self.walker);
        std::mem::swap(&mut w.rng, &mut self.rng);
        for _ in 0..games.max(1) {
            let mut b = root.clone();
            b.passes = 0;
            w.seq.clear();
            w.playout(&mut b, Some(&mut own));
        }
        w.seq.clear();
        std::mem::swap(&mut w.rng, &mut self.rng);
        self.walker = w;
        self.prior_owner = vec![0.0; crate::go::POINTS];
        for y in 0..n {
            for x in 0..n {
                let p = (y + 1) * crate::go::STRIDE + x + 1;
                self.prior_owner[p] = own[y * n + x] as f32 / games.max(1) as f32;
            }
        }
    }

    /// What the priors of the position `b` share, with `tactical` its answers to the last
    /// move ([`tactical_of`]).
    fn context<'a>(&'a self, b: &Board, tactical: &'a [u16]) -> prior::Context<'a> {
        let size = b.size as usize;
        let stones = (size * size) - b.empties().len();
        prior::Context {
            tactical,
            opening: stones * 5 < size * size,
            ladders: playout::ladder_priors_on(),
            owner: &self.prior_owner,
            model: !self.hand_priors,
        }
    }

    /// Gives the root's children `factor` times the move model's virtual wins once more (in
    /// both their own and their AMAF statistics), once a root. See
    /// [`super::root_prior_factor`]: in the opening of the larger boards the playouts hardly
    /// tell the open moves apart, so the model's choice should weigh more than one new node's.
    pub fn boost_root(&mut self, root: &Board, factor: f32) {
        if self.root_boosted || factor <= 0.0 || self.nodes.is_empty() {
            return;
        }
        if self.nodes[0].n_children == 0 {
            self.expand(0, root, true);
        }
        let r = self.nodes[0];
        let kids = r.first as usize..(r.first + r.n_children as u32) as usize;
        let picked: Vec<usize> = kids
            .filter(|&c| self.nodes[c].mv != PASS && !self.nodes[c].forbidden())
            .collect();
        let moves: Vec<u16> = picked.iter().map(|&c| self.nodes[c].mv).collect();
        let tactical = tactical_of(root);
        let (mut wins, mut against) = (Vec::new(), Vec::new());
        prior::model_wins(
            root,
            &moves,
            &self.context(root, &tactical),
            &mut wins,
            &mut against,
        );
        for (&c, v) in picked.iter().zip(wins) {
            let nd = &mut self.nodes[c];
            nd.n += factor * v;
            nd.w += factor * v;
            nd.an += factor * v;
            nd.aw += factor * v;
        }
        self.root_boosted = true;
    }

    /// Creates the children of node `i` for the position `b` (its side to move).
    fn expand(&mut self, i: usize, b: &Board, at_root: bool) {
        if self.nodes.len() + 400 > self.max_nodes {
            return;
        }
        let me = b.to_move;
        let size = b.size as usize;
        let first = self.nodes.len() as u32;
        let root_pos = if at_root {
            self.root_pos.as_ref()
        } else {
            None
        };
        let tactical = tactical_of(b);
        let ctx = self.context(b, &tactical);
        let fuseki = at_root && self.fuseki && prior::fuseki_applies(b);
        let prune_ladders = ctx.ladders && self.prune_ladders;
        let moves: Vec<u16> = b
            .empties()
            .iter()
            .copied()
            .filter(|&p| {
                let p = p as usize;
                b.legal(p)
                    && !b.is_eye(p, me)
                    && root_pos.is_none_or(|g| g.is_legal_point(p))
                    && !(fuseki && prior::fuseki_excludes(b, p))
                    && !(prune_ladders && ladder::runs_into_ladder(b, p))
            })
            .collect();
        let mut pri = Vec::with_capacity(moves.len());
        prior::priors(b, &moves, &ctx, &mut pri);
        let mut count = 0u16;
        for (&p, &(n, w)) in moves.iter().zip(&pri) {
            // the prior knowledge counts as virtual games in the AMAF statistics too, or the
            // AMAF values (which dominate a young node) would wash it out at once
            self.nodes.push(Node {
                mv: p as Move,
                n,
                w,
                an: n,
                aw: w,
                ..Node::default()
            });
            count += 1;
        }
        // pass: neutral, but hardly tried while much of the board is open
        let (pn, pw) = if b.empties().len() * 3 > size * size {
            (40.0, 0.0)
        } else {
            (10.0, 5.0)
        };
        self.nodes.push(Node {
            mv: PASS,
            n: pn,
            w: pw,
            ..Node::default()
        });
        count += 1;
        self.nodes[i].first = first;
        self.nodes[i].n_children = count;
    }

    fn select(&self, i: usize) -> usize {
        let crit = crit_rave();
        let nd = &self.nodes[i];
        let mut best = nd.first as usize;
        let mut top = f32::MIN;
        let explore = if i == 0 {
            self.explore_root
        } else {
            self.explore
        };
        let ln_n = (nd.visits as f32 + 1.0).ln();
        for c in nd.first as usize..(nd.first + nd.n_children as u32) as usize {
            let ch = &self.nodes[c];
            let q = ch.w / ch.n;
            let v = if ch.an > 0.0 && ch.mv != PASS {
                let (mut an, mut aw) = (ch.an, ch.aw);
                if crit > 0.0 && ch.visits > CRIT_MIN_VISITS {
                    // criticality as virtual AMAF wins (or losses, when negative)
                    let c = (criticality(ch, q) * an * crit).max(0.5 - an);
                    an += c;
                    aw = (aw + c).max(0.0);
                }
                let beta = an / (an + ch.n + ch.n * an / RAVE_EQUIV);
                (1.0 - beta) * q + beta * (aw / an)
            } else {
                q
            };
            let v = if explore > 0.0 {
                v + explore * (ln_n / (ch.visits as f32 + 1.0)).sqrt()
            } else {
                v
            };
            if v > top {
                top = v;
                best = c;
            }
        }
        best
    }

    /// One descent, playout and update from the root board `root`.
    pub fn iterate(&mut self, root: &Board, expand_after: u32) {
        let mut w = std::mem::take(&mut self.walker);
        std::mem::swap(&mut w.rng, &mut self.rng);
        let (mut b, terminal) = self.descend(root, expand_after, &mut w, 0.0);
        let score = match terminal {
            Some(s) => s,
            None => {
                let mut own = std::mem::take(&mut self.own);
                let fits = own.len() == (b.size as usize).pow(2);
                let s = w.playout(&mut b, fits.then_some(&mut own[..]));
                self.own = own;
                self.own_games += 1;
                s
            }
        };
        self.backup(&mut w, score, &b, 0.0);
        std::mem::swap(&mut w.rng, &mut self.rng);
        self.walker = w;
    }

    /// The first half of an iteration: walks down the tree from `root` (expanding the leaf
    /// reached when it has been visited often enough) and returns the position there, with
    /// the area score when two passes ended the game in the tree. `virtual_loss` games are
    /// counted as lost for each node passed (threads sharing the tree spread out), until
    /// [`Tree::backup`] takes them back.
    pub fn descend(
        &mut self,
        root: &Board,
        expand_after: u32,
        w: &mut Walker,
        virtual_loss: f32,
    ) -> (Board, Option<f32>) {
        // A filling tree expands more slowly (×4 past a quarter of its room, ×16 past half,
        // ×64 past three quarters), so that long searches and reused trees keep growing where
        // the playouts go instead of stopping at the node limit.
        let fill = (self.nodes.len() * 4 / self.max_nodes.max(1)).min(3) as u32;
        let expand_after = expand_after << (2 * fill);
        let mut b = root.clone();
        w.seq.clear();
        w.path.clear();
        w.path.push(0);
        let mut i = 0usize;
        let mut terminal = None;
        loop {
            let nd = self.nodes[i];
            if nd.n_children == 0 {
                if i == 0 || nd.visits >= expand_after {
                    self.expand(i, &b, i == 0);
                }
                if self.nodes[i].n_children == 0 {
                    break;
                }
            }
            let c = self.select(i);
            self.nodes[c].n += virtual_loss;
            let mv = self.nodes[c].mv;
            w.seq.push((mv, b.to_move));
            b.play(mv);
            w.path.push(c as u32);
            i = c;
            if b.passes >= 2 {
                terminal = Some(b.area_score());
                break;
            }
        }
        (b, terminal)
    }

    /// The second half of an iteration: the result `score` (Black's area score) of the game
    /// `w` walked and played out goes into the nodes of its path and the AMAF statistics of
    /// their children; the virtual losses of [`Tree::descend`] are taken back.
    pub fn backup(&mut self, w: &mut Walker, score: f32, end: &Board, virtual_loss: f32) {
        let size = end.size;
        let crit = crit_rave() > 0.0;
        // mostly the win, a little the margin (so won and lost positions still play for
        // points instead of drifting)
        let margin = (score / size as f32).tanh();
        let base = if score > 0.0 {
            0.9
        } else if score == 0.0 {
            0.45 // jigo: half a win
        } else {
            0.0
        };
        let black_wins = base + 0.05 * (1.0 + margin);
        // real results
        for (d, &ni) in w.path.iter().enumerate() {
            let nd = &mut self.nodes[ni as usize];
            nd.visits += 1;
            nd.n += 1.0;
            if d > 0 {
                nd.n -= virtual_loss;
                // the mover of the node's move is the colour of seq[d - 1]
                let mover = w.seq[d - 1].1;
                nd.w += if mover == 1 {
                    black_wins
                } else {
                    1.0 - black_wins
                };
                let mv = w.seq[d - 1].0;
                if crit && mv != PASS {
                    let owner = end.owner_at(mv as usize);
                    let winner = if score > 0.0 { 1 } else { 2 };
                    nd.mine += (owner == mover) as u8 as f32;
                    nd.winner += (owner == winner) as u8 as f32;
                }
            }
        }
        // all moves as first, from the deepest tree node up
        w.tick = w.tick.wrapping_add(1);
        if w.tick == 0 {
            w.stamp.iter_mut().for_each(|s| *s = 0);
            w.tick = 1;
        }
        let t = w.tick;
        let drave = distance_rave();
        let len = w.seq.len() as f32;
        if w.first_at.len() != POINTS {
            w.first_at = vec![0; POINTS];
        }
        for idx in (0..w.seq.len()).rev() {
            let (mv, col) = w.seq[idx];
            if mv != PASS {
                w.stamp[mv as usize] = t;
                w.first_color[mv as usize] = col;
                w.first_at[mv as usize] = idx as u32;
            }
            if idx < w.path.len() {
                let ni = w.path[idx] as usize;
                let nd = self.nodes[ni];
                let win = if col == 1 {
                    black_wins
                } else {
                    1.0 - black_wins
                };
                for c in nd.first as usize..(nd.first + nd.n_children as u32) as usize {
                    let m = self.nodes[c].mv as usize;
                    if m != 0 && w.stamp[m] == t && w.first_color[m] == col {
                        // with distance weighting, moves played sooner after the node count
                        // more (Pachi's `distance_rave`: 1 + k at once, 1 at the end)
                        let weight = amaf_weight(drave, len, w.first_at[m] as f32, idx as f32);
                        self.nodes[c].an += weight;
                        self.nodes[c].aw += weight * win;
                    }
                }
            }
        }
    }

    /// The root's children.
    pub fn root_children(&self) -> &[Node] {
        if self.nodes.is_empty() {
            return &[];
        }
        let r = self.nodes[0];
        &self.nodes[r.first as usize..(r.first + r.n_children as u32) as usize]
    }

    /// The most visited line from the root.
    pub fn principal_variation(&self, max: usize) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut i = 0usize;
        while pv.len() < max && !self.nodes.is_empty() {
            let nd = self.nodes[i];
            if nd.n_children == 0 {
                break;
            }
            let mut best = None;
            let mut top = 0;
            for c in nd.first as usize..(nd.first + nd.n_children as u32) as usize {
                if self.nodes[c].visits > top {
                    top = self.nodes[c].visits;
                    best = Some(c);
                }
            }
            match best {
                Some(c) => {
                    pv.push(self.nodes[c].mv);
                    i = c;
                }
                None => break,
            }
        }
        pv
    }
}

/// The answers to the last move in `b` ([`playout::tactical_answers`]) that the priors weigh.
fn tactical_of(b: &Board) -> Vec<u16> {
    let mut tactical = Vec::new();
    playout::tactical_answers(b, &mut tactical, playout::ladder_priors_on());
    tactical
}

/// Real playouts a child needs before its criticality counts (Pachi's `crit_min_playouts`).
const CRIT_MIN_VISITS: u32 = 2000;

/// The criticality of the child `ch` whose mover wins with the rate `q`: how much more often
/// the winner owns the move's point at the end than if owning it and winning were unrelated
/// (Coulom's criticality, as Pachi computes it; −1..1).
fn criticality(ch: &Node, q: f32) -> f32 {
    let v = ch.visits.max(1) as f32;
    let mine = ch.mine / v;
    ch.winner / v - (mine * q + (1.0 - mine) * (1.0 - q))
}

/// How much criticality weighs in the AMAF values: a child's AMAF games grow by its
/// criticality times their number times this (Pachi's `crit_rave`, 1.1 there;
/// `QI_GO_CRIT=<k>`, an experiment; 0, none, by default).
fn crit_rave() -> f32 {
    static K: std::sync::OnceLock<f32> = std::sync::OnceLock::new();
    *K.get_or_init(|| env_number("QI_GO_CRIT"))
}

/// The UCB exploration term's constants `c` below the root and at the root: a child's value
/// gains `c·√(ln(N + 1) / (n + 1))` for a node of `N` real playouts and a child of `n`
/// (`QI_GO_EXPLORE=<c>` everywhere, `QI_GO_EXPLORE_ROOT=<c>` at the root, over the first;
/// experiments, 0, none, by default). Without it a child that its AMAF value underrates is never played: in a
/// 13×13 game lost to Pachi (session 37, seed 3581, game 1) White's killing A10 at the edge of a
/// 12-stone group had 22,000 AMAF games at 41% (the light playouts let the group live three
/// times in four even after it) and no real playout in a 4 s search, though after it the search
/// gives White 84% where its own L11 had 44%. Against Pachi on 13×13 at 5 s a move (session 38)
/// `QI_GO_EXPLORE=0.05` lost 3 of 3 and `QI_GO_EXPLORE_ROOT=0.05` won 2 of 8, while the default
/// won 10 of 17 beside them: the term spends playouts that the priors spend better, so it
/// stays off.
fn exploration() -> (f32, f32) {
    static K: std::sync::OnceLock<(f32, f32)> = std::sync::OnceLock::new();
    *K.get_or_init(|| {
        let all = env_number("QI_GO_EXPLORE");
        let root = std::env::var("QI_GO_EXPLORE_ROOT")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(all);
        (all, root)
    })
}

/// The number the environment variable `name` holds, 0 when it is unset or not a number.
fn env_number(name: &str) -> f32 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0.0)
}

/// The weight of an AMAF update to a child of the node at `start` in a game of `len` moves,
/// for the child's move first played at `first`: `1 + k` for a move played at once, falling to
/// 1 for one played at the end (Pachi's `distance_rave`), 1 throughout when `k` is 0.
fn amaf_weight(k: f32, len: f32, first: f32, start: f32) -> f32 {
    if k > 0.0 {
        1.0 + k * (len - first) / (len - start + 1.0)
    } else {
        1.0
    }
}

/// The weight of the AMAF update of a move played at once after its node, beyond 1
/// (`QI_GO_DRAVE=<k>`, an experiment; 0, plain AMAF, by default).
fn distance_rave() -> f32 {
    static K: std::sync::OnceLock<f32> = std::sync::OnceLock::new();
    *K.get_or_init(|| env_number("QI_GO_DRAVE"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The root's children of `g`'s position, by their moves' text.
    fn root_moves(g: &crate::go::Go, prune_ladders: bool) -> Vec<String> {
        let root = Board::from_go(g, PASS);
        let mut t = Tree::new(7, 100_000);
        t.prune_ladders = prune_ladders;
        t.set_root(g);
        t.expand(0, &root, true);
        let r = t.nodes[0];
        (r.first as usize..(r.first + r.n_children as u32) as usize)
            .map(|c| g.move_to_text(t.nodes[c].mv))
            .collect()
    }

    /// An atari that the ladder reader finds working weighs like the capture it is in the
    /// learnt model's priors too (13×13): after these 82 moves of a game lost to Pachi by 74
    /// points, Black's J12 puts White's chain of 14 stones (H5 to K12) in atari, and the
    /// chain is caught. The model alone ranked it 16th (`QI_GO_MODEL_LADDER=0`: checked to
    /// fail), and White's search had not met it under its own M5.
    #[test]
    fn a_working_ladder_on_a_big_chain_is_among_the_first_priors() {
        use crate::game::Game;
        const MOVES: &str = "D10 K4 C4 K10 H11 H10 G10 H9 G9 J11 G11 H8 G8 G7 F7 F6 G6 H7 F5 E6 \
            G5 D4 D5 E5 E4 D3 C3 E3 F4 G3 F3 F2 G2 E2 H3 H2 G4 C2 B2 B1 C5 B3 B4 J2 E7 A2 L11 \
            K12 M9 L10 M10 M12 M11 M7 L12 L13 M13 N13 L6 L8 J6 H6 J5 H5 L9 K8 K9 K11 H4 J4 J8 \
            J7 J9 J10 K7 K6 L7 M6 L5 M8 K5 M5";
        let mut g = crate::go::Go::new(13, 7.0).unwrap();
        let mut last = PASS;
        for m in MOVES.split_whitespace() {
            last = g.parse_move(m).unwrap();
            g.make(last);
        }
        let root = Board::from_go(&g, last);
        let mut t = Tree::new(7, 100_000);
        assert!(!t.hand_priors, "13×13 searches with the learnt model");
        t.set_root(&g);
        t.expand(0, &root, true);
        let r = t.nodes[0];
        let mut kids: Vec<Node> =
            t.nodes[r.first as usize..(r.first + r.n_children as u32) as usize].to_vec();
        kids.sort_by(|a, b| (b.w / b.n).total_cmp(&(a.w / a.n)));
        let top: Vec<String> = kids[..3].iter().map(|c| g.move_to_text(c.mv)).collect();
        assert!(top.iter().any(|m| m == "J12"), "{top:?}");
    }

    #[test]
    fn the_tree_leaves_out_an_escape_into_a_caught_ladder() {
        use crate::game::Game;
        // the textbook ladder on 13×13: Black's C3 in atari (White on B3, C4, C2 and D2);
        // extending at D3 leaves two liberties and White chases it to the edge
        let setup = |black: &[&str], white: &[&str]| {
            let mut g = crate::go::Go::new(13, 7.0).unwrap();
            for (b, w) in black.iter().zip(white) {
                let mv = g.parse_move(b).unwrap();
                g.make(mv);
                let mv = g.parse_move(w).unwrap();
                g.make(mv);
            }
            g
        };
        let g = setup(&["C3", "B11", "C11", "L2"], &["B3", "C4", "D2", "C2"]);
        let kept = root_moves(&g, true);
        assert!(!kept.iter().any(|m| m == "D3"), "D3 runs into the ladder");
        assert!(kept.iter().any(|m| m == "E3") && kept.iter().any(|m| m == "pass"));
        // every other move stays, and without the pruning D3 too
        let all = root_moves(&g, false);
        assert!(all.iter().any(|m| m == "D3"));
        assert_eq!(all.len(), kept.len() + 1);
        // a Black stone on the ladder's path (F6) breaks it: D3 is searched
        let g = setup(&["C3", "B11", "C11", "F6"], &["B3", "C4", "D2", "C2"]);
        assert!(root_moves(&g, true).iter().any(|m| m == "D3"));
    }

    #[test]
    fn the_exploration_term_plays_a_kill_that_the_amaf_values_underrate() {
        use crate::game::Game;
        // session 37's game 1 against Pachi (seed 3581) after 80 moves and A13 A11 E9: Black's
        // twelve stones top left have two liberties (A12 and B13), White's A11 two (A10, A12);
        // White's A10 kills (the search after it gives White 84%), but the light playouts let
        // the group live even after it, and with AMAF values alone the tree never plays it
        const MOVES: &str = "K10 K4 D4 F3 D10 C6 F4 G4 F5 E3 D3 E4 E5 D5 G3 G2 H3 H2 D2 J3 \
            H4 H5 G5 E2 E1 F2 J5 H6 J4 K3 E7 E6 F6 D6 F8 C4 C3 B3 B2 B4 K6 K5 J6 L6 L7 M6 M7 K7 \
            J7 A2 B11 C11 C10 D11 C12 D12 C13 H12 K12 B10 B12 B9 E10 F11 F12 G12 D13 E11 E13 \
            F10 C9 C8 D8 B8 H10 E12 F13 G11 G13 H13 A13 A11 E9";
        let mut g = crate::go::Go::new(13, 7.0).unwrap();
        let mut last = PASS;
        for m in MOVES.split_whitespace() {
            last = g.parse_move(m).unwrap();
            g.make(last);
        }
        let a10 = g.parse_move("A10").unwrap();
        let visits = |explore: f32| {
            let mut t = Tree::new(5, 4_000_000);
            t.explore_root = explore;
            t.set_root(&g);
            let root = Board::from_go(&g, last);
            for _ in 0..20_000 {
                t.iterate(&root, 3);
            }
            let kids = t.root_children();
            let most = kids.iter().map(|c| c.visits).max().unwrap();
            let kill = kids.iter().find(|c| c.mv == a10).unwrap().visits;
            (kill, most)
        };
        let (plain, _) = visits(0.0);
        let (found, most) = visits(0.05);
        assert_eq!(found, most, "A10 the most played with the exploration term");
        assert!(
            plain * 10 < found,
            "A10 {plain} playouts without it, {found} with"
        );
    }

    #[test]
    fn criticality_measures_how_owning_the_point_goes_with_winning() {
        let node = |visits: u32, mine: f32, winner: f32| Node {
            visits,
            mine,
            winner,
            ..Node::default()
        };
        // whoever owns the point wins every time: as critical as a point can be at 50%
        assert!((criticality(&node(1000, 500.0, 1000.0), 0.5) - 0.5).abs() < 1e-6);
        // owning it and winning unrelated: nothing
        assert!(criticality(&node(1000, 500.0, 500.0), 0.5).abs() < 1e-6);
        // the mover owns it always and wins 70%: the winner owns it 70% of the time, as
        // independence predicts
        assert!(criticality(&node(1000, 1000.0, 700.0), 0.7).abs() < 1e-6);
        // the owner loses every time: negative
        assert!(criticality(&node(1000, 500.0, 0.0), 0.5) < -0.49);
    }

    #[test]
    fn amaf_updates_weigh_moves_played_sooner_more() {
        // a node at move 10 of a 110-move game
        let soon = amaf_weight(3.0, 110.0, 10.0, 10.0);
        let mid = amaf_weight(3.0, 110.0, 60.0, 10.0);
        let late = amaf_weight(3.0, 110.0, 109.0, 10.0);
        assert!(soon > 3.9 && soon <= 4.0, "{soon}");
        assert!((mid - (1.0 + 3.0 * 50.0 / 101.0)).abs() < 1e-5, "{mid}");
        assert!(late > 1.0 && late < 1.05, "{late}");
        assert!(soon > mid && mid > late);
        // plain AMAF: every move alike
        for first in [10.0, 60.0, 109.0] {
            assert_eq!(amaf_weight(0.0, 110.0, first, 10.0), 1.0);
        }
    }

    #[test]
    fn seeded_ownership_gives_a_walled_off_corner_to_its_owner() {
        use crate::game::Game;
        // Black walls off the lower left corner of 9×9 along the fourth line; White plays far
        let mut g = crate::go::Go::new(9, 7.0).unwrap();
        let black = ["A4", "B4", "C4", "D4", "D3", "D2", "D1"];
        let white = ["J9", "H9", "G9", "J8", "H8", "G8", "F9"];
        for (b, w) in black.iter().zip(white) {
            let mv = g.parse_move(b).unwrap();
            g.make(mv);
            let mv = g.parse_move(w).unwrap();
            g.make(mv);
        }
        let root = Board::from_go(&g, PASS);
        let mut t = Tree::new(7, 10_000);
        t.set_root(&g);
        assert!(t.prior_owner.is_empty(), "set_root clears the map");
        t.seed_owner(&root, 300);
        let at = |m: &str| g.parse_move(m).unwrap() as usize;
        // inside the wall: Black's nearly always
        assert!(t.prior_owner[at("B2")] > 0.8, "{}", t.prior_owner[at("B2")]);
        // White's own stones and the corner behind them: White's mostly
        assert!(
            t.prior_owner[at("J9")] < -0.5,
            "{}",
            t.prior_owner[at("J9")]
        );
        assert!(t.prior_owner.iter().all(|v| (-1.0..=1.0).contains(v)));
    }

    /// The root of 13×13 leaves the open centre alone in the opening, also when a tree is
    /// reused; stones nearby, a 9×9 board or a later move make the centre a move again.
    #[test]
    fn the_opening_of_13x13_keeps_out_of_the_open_centre() {
        use crate::game::Game;
        let line = |p: usize, n: usize| {
            let (x, y) = (p % crate::go::STRIDE - 1, p / crate::go::STRIDE - 1);
            x.min(y).min(n - 1 - x).min(n - 1 - y)
        };
        let root_moves = |t: &Tree| -> Vec<usize> {
            t.root_children()
                .iter()
                .filter(|c| !c.forbidden() && c.mv != PASS)
                .map(|c| c.mv as usize)
                .collect()
        };
        // the root's moves of a new tree with the rule, after one iteration
        let fresh_root = |g: &crate::go::Go| {
            let mut t = Tree::new(5, 200_000);
            t.fuseki = true;
            t.set_root(g);
            t.iterate(&Board::from_go(g, PASS), 2);
            root_moves(&t)
        };
        let mut g = crate::go::Go::new(13, 7.0).unwrap();
        let mut t = Tree::new(5, 200_000);
        t.fuseki = true;
        t.set_root(&g);
        for _ in 0..3000 {
            t.iterate(&Board::from_go(&g, PASS), 2);
        }
        // the empty board: the 3-3, 3-4 and 4-4 points of the four corners
        let moves = root_moves(&t);
        assert_eq!(moves.len(), 16, "{moves:?}");
        for m in ["D4", "C3", "C4", "D3", "K10", "L11", "K11", "C10", "L4"] {
            let p = g.parse_move(m).unwrap() as usize;
            assert!(moves.contains(&p), "{m}");
        }
        for m in ["G7", "G4", "D7", "F6", "C5", "A1", "B2"] {
            let p = g.parse_move(m).unwrap() as usize;
            assert!(!moves.contains(&p), "{m}");
        }
        // a reused tree: the most visited move and its most visited answer; the subtree
        // under them was expanded as an inner node, without the rule, and the root drops its
        // moves in the open centre
        let top = |t: &Tree, i: usize| {
            let nd = t.nodes[i];
            (nd.first as usize..(nd.first + nd.n_children as u32) as usize)
                .max_by_key(|&c| t.nodes[c].visits)
                .unwrap()
        };
        let a = top(&t, 0);
        let b = top(&t, a);
        assert!(t.nodes[b].n_children > 0, "the answer has children");
        for c in [a, b] {
            g.make(t.nodes[c].mv);
        }
        t.set_root(&g);
        let board = Board::from_go(&g, PASS);
        let kept = t.root_children().len();
        assert!(kept > 100, "the subtree is reused: {kept}");
        let dropped = t.root_children().iter().filter(|c| c.forbidden()).count();
        assert!(dropped > 20, "{dropped}");
        for _ in 0..500 {
            t.iterate(&board, 2);
        }
        for p in root_moves(&t) {
            assert!(!prior::fuseki_excludes(&board, p));
        }
        assert!(
            root_moves(&t)
                .iter()
                .all(|&p| line(p, 13) < 4 || !prior::empty_around(&board, p, 3))
        );
        // a stone in the centre: the points near it are moves
        let mv = g.parse_move("G7").unwrap();
        g.make(mv);
        let moves = fresh_root(&g);
        for m in ["G8", "H8", "F5"] {
            let p = g.parse_move(m).unwrap() as usize;
            assert!(moves.contains(&p), "{m} next to G7");
        }
        // a point of the fifth line or higher with no stone within 3 (the first two moves are
        // the search's own, so which of the four is free depends on them)
        let board = Board::from_go(&g, PASS);
        let far = ["E5", "E9", "J5", "J9"]
            .map(|m| g.parse_move(m).unwrap() as usize)
            .into_iter()
            .find(|&p| prior::empty_around(&board, p, 3))
            .expect("two stones leave one of the four free");
        assert!(line(far, 13) >= 4 && !moves.contains(&far));
        // 9×9: the centre is a move
        let g9 = crate::go::Go::new(9, 7.0).unwrap();
        let e5 = g9.parse_move("E5").unwrap() as usize;
        assert!(fresh_root(&g9).contains(&e5));
        // past the opening (13 stones on 13×13) the open centre is a move again
        let mut g = crate::go::Go::new(13, 7.0).unwrap();
        for m in [
            "A1", "N13", "A2", "N12", "A3", "N11", "A4", "N10", "A5", "N9", "A6", "N8", "A7",
        ] {
            let mv = g.parse_move(m).unwrap();
            g.make(mv);
        }
        let g7 = g.parse_move("G7").unwrap() as usize;
        assert!(fresh_root(&g).contains(&g7));
    }
}
