//! Area (Chinese) scoring, dead stones and the playout estimate of which groups are dead.

use super::{Go, Move, PASS, STRIDE, neighbors, policy};
use crate::game::{Game, Outcome, Side, Square};

/// The area count of a finished (or any) position.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreDetail {
    /// Live stones on the board (dead ones left out).
    pub black_stones: u32,
    pub white_stones: u32,
    /// Empty points (dead stones' points included) reached by one colour only.
    pub black_territory: u32,
    pub white_territory: u32,
    /// Empty points that touch both colours, or none.
    pub dame: u32,
    /// Stones marked dead, counted as captured.
    pub dead_black: u32,
    pub dead_white: u32,
    pub komi: f32,
    /// Who each point counts for, row by row from the bottom (`y * size + x`).
    pub owner: Vec<Option<Side>>,
}

impl ScoreDetail {
    pub fn black_area(&self) -> u32 {
        self.black_stones + self.black_territory
    }

    pub fn white_area(&self) -> u32 {
        self.white_stones + self.white_territory
    }

    /// Black's area minus White's area and komi: positive when Black wins.
    pub fn margin(&self) -> f32 {
        self.black_area() as f32 - self.white_area() as f32 - self.komi
    }

    pub fn outcome(&self) -> Outcome {
        let m = self.margin();
        if m > 0.0 {
            Outcome::Win(Side::Black)
        } else if m < 0.0 {
            Outcome::Win(Side::White)
        } else {
            Outcome::Draw
        }
    }

    /// The typed result of this score (the area margin, komi included).
    pub fn game_result(&self) -> crate::result::GameResult {
        let m = self.margin();
        let reason = crate::result::Reason::Score { margin: m.abs() };
        match self.outcome() {
            Outcome::Win(s) => crate::result::GameResult::win(s, reason),
            Outcome::Draw => crate::result::GameResult::draw(reason),
        }
    }

    /// The result as SGF and GTP write it: `B+3.5`, `W+0.5`, `Draw`.
    pub fn result_text(&self) -> String {
        go_result_text(self.margin())
    }
}

/// `B+3.5` for a Black margin of 3.5, `W+2` for −2, `Draw` for 0.
pub fn go_result_text(margin: f32) -> String {
    let m = margin.abs();
    let num = if m.fract() == 0.0 {
        format!("{}", m as i64)
    } else {
        format!("{m:.1}")
    };
    if margin > 0.0 {
        format!("B+{num}")
    } else if margin < 0.0 {
        format!("W+{num}")
    } else {
        "Draw".to_string()
    }
}

/// Playouts the default dead-stone estimate runs, and its seed.
pub const DEAD_PLAYOUTS: u32 = 160;
pub const DEAD_SEED: u64 = 0x0D1E_5701;

impl Go {
    /// The area score with every stone on the board alive (Tromp-Taylor counting).
    pub fn area_score(&self) -> ScoreDetail {
        self.score_with_dead(&[])
    }

    /// The area score when the stones on `dead` are taken off as captured first. A listed point
    /// stands for its whole chain; empty points in the list are ignored.
    pub fn score_with_dead(&self, dead: &[Square]) -> ScoreDetail {
        let n = self.size as usize;
        let mut color = self.color;
        let (mut dead_b, mut dead_w) = (0, 0);
        for &sq in dead {
            if sq.x >= self.size || sq.y >= self.size {
                continue;
            }
            let p = Go::point_of(sq);
            for s in self.chain_points(p) {
                match color[s] {
                    1 => dead_b += 1,
                    2 => dead_w += 1,
                    _ => continue,
                }
                color[s] = super::EMPTY;
            }
        }
        let mut owner = vec![None; n * n];
        let mut seen = [false; super::POINTS];
        let (mut bs, mut ws, mut bt, mut wt, mut dame) = (0, 0, 0, 0, 0);
        let idx = |p: usize| (p / STRIDE - 1) * n + (p % STRIDE - 1);
        for p in self.points() {
            match color[p] {
                1 => {
                    bs += 1;
                    owner[idx(p)] = Some(Side::Black);
                }
                2 => {
                    ws += 1;
                    owner[idx(p)] = Some(Side::White);
                }
                _ if !seen[p] => {
                    // flood the empty region, noting which colours it touches
                    let mut region = vec![p];
                    seen[p] = true;
                    let mut touches = [false; 2];
                    let mut i = 0;
                    while i < region.len() {
                        let r = region[i];
                        i += 1;
                        for q in neighbors(r) {
                            match color[q] {
                                super::EMPTY if !seen[q] => {
                                    seen[q] = true;
                                    region.push(q);
                                }
                                1 => touches[0] = true,
                                2 => touches[1] = true,
                                _ => {}
                            }
                        }
                    }
                    let who = match touches {
                        [true, false] => Some(Side::Black),
                        [false, true] => Some(Side::White),
                        _ => None,
                    };
                    match who {
                        Some(Side::Black) => bt += region.len() as u32,
                        Some(Side::White) => wt += region.len() as u32,
                        None => dame += region.len() as u32,
                    }
                    for r in region {
                        owner[idx(r)] = who;
                    }
                }
                _ => {}
            }
        }
        ScoreDetail {
            black_stones: bs,
            white_stones: ws,
            black_territory: bt,
            white_territory: wt,
            dame,
            dead_black: dead_b,
            dead_white: dead_w,
            komi: self.komi,
            owner,
        }
    }

    /// The group that marking `sq` dead toggles: the chain of `sq` and the chains of its colour
    /// that share a liberty with it, and so on (stones one point apart count as one group, as a
    /// player sees a group). Stones further apart are separate groups, so a click on a lone
    /// stone marks that stone alone. Empty for an empty point.
    pub fn dead_group(&self, sq: Square) -> Vec<Square> {
        if sq.x >= self.size || sq.y >= self.size {
            return Vec::new();
        }
        let p0 = Go::point_of(sq);
        let c = self.color[p0];
        if c != 1 && c != 2 {
            return Vec::new();
        }
        let mut seen = [false; super::POINTS];
        let mut stack = vec![p0];
        seen[p0] = true;
        let mut out = Vec::new();
        while let Some(p) = stack.pop() {
            out.push(Go::square_of(p as Move).expect("a point"));
            for q in neighbors(p) {
                if self.color[q] == c && !seen[q] {
                    seen[q] = true;
                    stack.push(q);
                } else if self.color[q] == super::EMPTY {
                    for r in neighbors(q) {
                        if self.color[r] == c && !seen[r] {
                            seen[r] = true;
                            stack.push(r);
                        }
                    }
                }
            }
        }
        out.sort();
        out
    }

    /// Marks or unmarks the group of `sq` ([`Go::dead_group`]) in `dead`, a sorted list of dead
    /// stones. Returns whether the group is now marked dead. An empty point changes nothing.
    pub fn toggle_dead_group(&self, dead: &mut Vec<Square>, sq: Square) -> bool {
        let group = self.dead_group(sq);
        if group.is_empty() {
            return false;
        }
        let now_dead = !dead.contains(&sq);
        if now_dead {
            dead.extend(group);
            dead.sort();
            dead.dedup();
        } else {
            dead.retain(|s| !group.contains(s));
        }
        now_dead
    }

    /// The automatic dead-stone estimate ([`Go::estimate_dead_with`] with the default number
    /// of playouts and seed): what the app shows first after two passes.
    pub fn estimate_dead(&self) -> Vec<Square> {
        self.estimate_dead_with(DEAD_PLAYOUTS, DEAD_SEED)
    }

    /// Dead stones estimated from two views of each group ([`Go::dead_group`]): how often its
    /// points end up its own in `playouts` random games played out from here (a playout never
    /// fills its own eyes, captures a chain left in atari and saves its own), and the influence
    /// ([`Go::influence`]) on its points, each stone's own left out. Each view gives −1..1 from the
    /// group's side; the group is dead when their sum is below zero. A group with two real eyes
    /// always ends its own in playouts, so it is never marked. The same seed gives the same
    /// answer. Sorted.
    pub fn estimate_dead_with(&self, playouts: u32, seed: u64) -> Vec<Square> {
        let own = self.playout_ownership(playouts, seed);
        let inf = self.influence();
        let n = self.size as usize;
        let mut dead = Vec::new();
        let mut done = [false; super::POINTS];
        for p in self.points() {
            let Some(side) = self.stone_at(p) else {
                continue;
            };
            if done[p] {
                continue;
            }
            let sq0 = Go::square_of(p as Move).expect("a point");
            let group = self.dead_group(sq0);
            let sign = if side == Side::Black { 1.0 } else { -1.0 };
            let idx = |s: &Square| s.y as usize * n + s.x as usize;
            let by_playouts: f32 =
                group.iter().map(|s| own[idx(s)]).sum::<f32>() / group.len() as f32;
            // the influence on the group's points, each stone's own 64 left out
            let by_influence: f32 = group
                .iter()
                .map(|s| ((inf.value[idx(s)] as f32 - sign * 64.0) / 64.0).clamp(-1.0, 1.0))
                .sum::<f32>()
                / group.len() as f32;
            for s in &group {
                done[Go::point_of(*s)] = true;
            }
            if sign * (by_playouts + by_influence) < 0.0 {
                dead.extend(group);
            }
        }
        dead.sort();
        dead
    }

    /// Who owns each point at the end of random playouts, averaged: +1 always Black, −1 always
    /// White (`y * size + x`). Deterministic for a seed.
    pub fn playout_ownership(&self, playouts: u32, seed: u64) -> Vec<f32> {
        let n = self.size as usize;
        let mut sum = vec![0i32; n * n];
        let mut state = seed;
        let playouts = playouts.max(1);
        for _ in 0..playouts {
            let mut g = self.clone();
            g.resigned = None;
            g.passes = 0;
            g.playout(&mut state);
            for (i, o) in g.area_score().owner.iter().enumerate() {
                match o {
                    Some(Side::Black) => sum[i] += 1,
                    Some(Side::White) => sum[i] -= 1,
                    None => {}
                }
            }
        }
        sum.into_iter()
            .map(|s| s as f32 / playouts as f32)
            .collect()
    }

    /// Plays random sensible moves until both sides pass (or a move limit).
    fn playout(&mut self, state: &mut u64) {
        let limit = 3 * (self.size as usize).pow(2) + 50;
        let mut last = PASS;
        let mut empties: Vec<usize> = self.points().filter(|&p| self.is_empty_point(p)).collect();
        for _ in 0..limit {
            if self.passes >= 2 {
                break;
            }
            let mv = policy::playout_move(self, last, &mut empties, state);
            self.make(mv);
            if mv != PASS {
                // the stone's point is no longer empty; captured points are empty again
                empties.clear();
                empties.extend(self.points().filter(|&p| self.is_empty_point(p)));
            }
            last = mv;
        }
    }
}

/// A random number below `n` from a raw SplitMix64 state kept by the caller (the core's one
/// generator, [`crate::rng::Rng`]).
pub(super) fn rand_below(state: &mut u64, n: usize) -> usize {
    let mut r = crate::rng::Rng::from_state(*state);
    let v = r.below_small(n);
    *state = r.state();
    v
}
