//! Tree priors from a move model: each legal point gets a weight `γ`, the product of the
//! factors of its features (in the manner of Coulom's "Computing Elo ratings of move patterns
//! in the game of Go", 2007, whose published weights the factors below follow where it has
//! one), the weights are normalised to probabilities `p`, and a new child starts with
//! [`EVEN`] virtual games at one half plus `K·√p` virtual wins (as Pachi turns its pattern
//! probabilities into priors), so that the likely moves are searched first and the unlikely
//! ones wait for the AMAF values to call them.
//!
//! Features: capturing (the last move's chain, or a chain next to an own chain in atari,
//! weighs most), escaping from atari to three or more liberties, self-atari (strongly against
//! for a chain of two or more stones), putting a chain of the opponent in atari, the Mogo 3×3
//! shapes, the distance to the last move and to the move before it (`dx + dy + max(dx, dy)`,
//! Coulom's measure), and the edge lines of empty areas (the first line against, the second
//! a little against; on 13×13 and 19×19 the third and fourth lines and the 3-3/3-4/4-4 points of
//! empty corners for in the opening).
//!
//! The root also follows an opening rule on 13×13 and 19×19 ([`fuseki_excludes`]): while
//! fewer stones than the board has lines are down, it plays near stones or, in the open, at
//! the 3-3/3-4/4-4 points of empty corners (sides once no corner is empty), never in the
//! open centre, when `QI_GO_FUSEKI=1` turns it on (an experiment, off by default).
//!
//! On 9×9 the weights are the hand-set factors below, after the paper and matches. 13×13 and
//! 19×19 use the move model learnt from strong programs' games instead ([`super::features`]:
//! spatial patterns up to distance 8, 3×3 shapes and the features above; `QI_GO_PRIOR=hand`
//! keeps the hand-set factors, `QI_GO_PRIOR=learned` takes the 9×9 model of GNU Go games and
//! the spatial one from 13×13 up, or the file `QI_GO_MODEL` names); the virtual games that speak against self-atari, ladder
//! escapes that fail and the first line of empty areas stay with either.

use super::board::Board;
use super::features::{Facts, Model, facts};
use super::playout::matches_pattern;
use crate::go::{PASS, POINTS, STRIDE};

/// Virtual games at one half every child starts with.
pub(crate) const EVEN: f32 = 10.0;

/// Virtual wins for a move of probability 1 (scaled by `√p`; `QI_GO_PRIOR_K` sets it for
/// experiments). Pachi's pattern prior, from a much better model, uses 210 on 9×9 and 300 on
/// larger boards; this model is trusted less.
pub(crate) fn prior_weight(size: u8) -> f32 {
    static K: std::sync::OnceLock<Option<f32>> = std::sync::OnceLock::new();
    if let Some(k) = *K.get_or_init(|| {
        std::env::var("QI_GO_PRIOR_K")
            .ok()
            .and_then(|s| s.parse().ok())
    }) {
        return k;
    }
    if size <= 9 { 100.0 } else { 150.0 }
}

/// Factor for the distance `dx + dy + max(dx, dy)` to the last move (index = distance; 2 is
/// a neighbour), after Coulom's table.
const LAST: [f32; 18] = [
    1.0, 1.0, 4.3, 2.8, 2.2, 1.6, 1.35, 1.2, 1.05, 0.95, 0.85, 0.75, 0.7, 0.6, 0.55, 0.5, 0.4, 0.3,
];
/// The same for the move before the last.
const LAST2: [f32; 18] = [
    1.0, 1.0, 3.1, 2.4, 2.3, 1.8, 1.5, 1.3, 1.2, 1.1, 1.0, 0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.66,
];

/// What the weights of one position share.
pub(crate) struct Context<'a> {
    /// The answers to the last move ([`super::playout::tactical_answers`]).
    pub tactical: &'a [u16],
    /// Few stones on the board yet (under a fifth of the points).
    pub opening: bool,
    /// Read ladders ([`super::ladder`]): an escape into a ladder that catches it is weighed
    /// like a self-atari, an atari that starts a working ladder nearly like a capture.
    pub ladders: bool,
    /// Who owns each point at the end of playouts from the search's root (by board point,
    /// +1 Black .. −1 White on average; empty when not known): points that one side owns in
    /// nearly every playout are weighed down ([`owner_factor`]).
    pub owner: &'a [f32],
    /// Whether the shipped move model weighs the points where there is one for the board
    /// ([`Model::shipped`]); `false` keeps the hand-set weights (the ownership playouts of
    /// [`super::GoCpu::analyse`]).
    pub model: bool,
}

/// Whether the tree priors weigh points by their ownership (`QI_GO_OWNER=1`, an experiment).
pub(crate) fn owner_priors_on() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("QI_GO_OWNER").is_ok_and(|v| v == "1"))
}

/// The factor of a point that the mover owns with the share `mine` (0..1) of the playouts,
/// in ninths: a point the opponent owns in nearly every playout (inside its territory or
/// its living group) is rarely a move, nor is one inside the mover's own safe territory;
/// contested points weigh most. The shape follows the ownership feature of Pachi's learnt
/// pattern model (`mcowner`), with round values.
pub(crate) fn owner_factor(mine: f32) -> f32 {
    const F: [f32; 9] = [0.15, 0.7, 1.1, 1.2, 1.2, 1.05, 0.8, 0.4, 0.4];
    F[((mine * 8.0) as usize).min(8)]
}

/// The weight of the legal point `p` for `me` (the side to move of `b`), and the virtual
/// games and wins that speak against it (self-atari, the edge of an empty area): a small
/// weight only withholds virtual wins, these bring the value under one half. The weight is
/// the hand-set one, or the learnt model's ([`Model::shipped`]).
pub(crate) fn gamma(b: &Board, p: usize, me: u8, ctx: &Context) -> (f32, f32, f32) {
    let mut f = facts(b, p, me, ctx.tactical);
    let (g, bad_n, bad_w, ladder) = hand_gamma(b, p, &f, ctx);
    match Model::shipped(b.size).filter(|_| ctx.model) {
        Some(m) => {
            // the model knows that a move is an atari, not whether the ladder works: the
            // reading's factor goes onto its weight
            let read = if model_reads_ladders() { ladder } else { 1.0 };
            (m.weight_at_cached(b, p, me, &mut f) * read, bad_n, bad_w)
        }
        None => (g, bad_n, bad_w),
    }
}

/// Whether the learnt model's weights take the factor of an atari that starts a working
/// ladder ([`hand_gamma`]'s reading): on by default, `QI_GO_MODEL_LADDER=0` leaves the model's
/// weights as learnt. The model was learnt from records of strong programs, where an atari
/// on a big chain that the ladder then catches is rare: in a 13×13 game lost to Pachi by 74
/// points (session 36, seed 3561, game 6) its weight ranked Black's J12 16th, an atari on a
/// chain of 14 stones that the ladder reader finds caught, and White's search of 43,000
/// playouts never met it under its own M5, after which it stood at 10%. With the factor (the
/// default since session 37) level 6 won 18, drew 1 and lost 21 of 40 games against Pachi on
/// 13×13 at 5 s a move (46.2%, sessions 37-39, seeds 3581, 3582, 3586 and 3587), where the
/// search before it stood at 11-1-18 in 30 (38.3%).
pub(crate) fn model_reads_ladders() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("QI_GO_MODEL_LADDER").map_or(true, |v| v != "0"))
}

/// The hand-set weight of [`gamma`], the virtual games and wins against the move, and the
/// factor of the ladder reading alone (an atari that starts a working ladder; 1 otherwise).
fn hand_gamma(b: &Board, p: usize, f: &Facts, ctx: &Context) -> (f32, f32, f32, f32) {
    let (mut bad_n, mut bad_w) = (0.0f32, 0.0f32);
    let mut against = |n: f32, rate: f32| {
        bad_n += n;
        bad_w += n * rate;
    };
    let size = b.size as usize;
    let mut g = 1.0f32;
    let captures = f.captured > 0;
    let libs = f.libs;
    if f.tactical {
        g *= 30.0;
    } else if captures {
        g *= if f.captured >= 3 { 40.0 } else { 15.0 };
    } else if f.escapes {
        g *= match libs {
            0 | 1 => 1.0, // the self-atari below
            2 if ctx.ladders => {
                if super::ladder::escape_caught(b, p) {
                    // runs into a ladder that catches it: more stones lost
                    against(15.0, 0.1);
                    0.05
                } else {
                    3.0
                }
            }
            2 => 1.5, // a ladder, likely
            _ => 12.0,
        };
    }
    if !captures {
        if f.bad_self_atari {
            g *= 0.03;
            against(20.0, 0.05);
        } else if libs == 1 {
            g *= 0.3;
            against(10.0, 0.2);
        }
    }
    let mut ladder = 1.0;
    if f.ataris && libs >= 2 {
        if !ctx.ladders {
            g *= 2.0;
        } else if super::ladder::atari_catches(b, p) {
            // a working ladder: a capture to come (weighed below a capture now: a lone stone
            // caught on the edge is often not worth a move)
            ladder = if f.ataris_big { 8.0 } else { 2.5 };
            g *= ladder;
        } else {
            g *= 1.2; // an atari that only chases
        }
    }
    if b.last != PASS {
        g *= LAST[f.d_last];
        if f.d_last <= 3 && matches_pattern(b, p) {
            g *= 3.0;
        }
    } else if matches_pattern(b, p) {
        g *= 1.5;
    }
    if b.last2 != PASS {
        g *= LAST2[f.d_last2];
    }
    // the edge lines of empty areas
    let (x, y) = (p % STRIDE - 1, p / STRIDE - 1);
    let line = f.line;
    if size >= 9 && f.open2 {
        match line {
            0 => {
                g *= 0.05;
                against(30.0, 0.0);
            }
            1 if size >= 13 => {
                g *= 0.2;
                against(50.0, 0.05);
            }
            1 => {
                g *= 0.6;
                against(20.0, 0.3);
            }
            2 if size >= 13 && ctx.opening => g *= 3.0,
            3 if size >= 13 && ctx.opening => g *= 2.0,
            _ => {}
        }
        let near_x = x.min(size - 1 - x);
        let near_y = y.min(size - 1 - y);
        if size >= 13
            && ctx.opening
            && (2..=3).contains(&near_x)
            && (2..=3).contains(&near_y)
            && empty_around(b, p, 3)
        {
            g *= 4.0;
        }
    } else if line == 0 && size >= 9 && f.open1 {
        g *= 0.3;
        against(20.0, 0.1);
    }
    (g, bad_n, bad_w, ladder)
}

/// The priors of the points `moves` (legal for the side to move of `b`): `(games, wins)` for
/// each, in order.
pub(crate) fn priors(b: &Board, moves: &[u16], ctx: &Context, out: &mut Vec<(f32, f32)>) {
    let mut against = Vec::with_capacity(moves.len());
    let mut wins = Vec::with_capacity(moves.len());
    model_wins(b, moves, ctx, &mut wins, &mut against);
    out.clear();
    for (v, (n, w)) in wins.into_iter().zip(against) {
        out.push((EVEN + v + n, EVEN * 0.5 + v + w));
    }
}

/// The virtual wins the move model gives each of the points `moves` (`K·√p`, see
/// [`prior_weight`]) into `wins`, and the virtual games and wins that speak against each
/// into `against`.
pub(crate) fn model_wins(
    b: &Board,
    moves: &[u16],
    ctx: &Context,
    wins: &mut Vec<f32>,
    against: &mut Vec<(f32, f32)>,
) {
    wins.clear();
    against.clear();
    let me = b.to_move;
    let mut sum = 0.0f32;
    for &p in moves {
        let (g, n, w) = gamma(b, p as usize, me, ctx);
        sum += g;
        wins.push(g);
        against.push((n, w));
    }
    if !ctx.owner.is_empty() {
        sum = 0.0;
        for (o, &p) in wins.iter_mut().zip(moves) {
            let m = ctx.owner[p as usize];
            let mine = if me == 1 {
                0.5 + 0.5 * m
            } else {
                0.5 - 0.5 * m
            };
            *o *= owner_factor(mine);
            sum += *o;
        }
    }
    let k = prior_weight(b.size);
    for o in wins.iter_mut() {
        *o = k * (*o / sum.max(1e-9)).sqrt();
    }
}

/// Whether the opening rule is on (`QI_GO_FUSEKI=1`, an experiment: 0-0-10 against Pachi on
/// 13×13 in session 29, and level 4 then answered a 3-3 stone on 19×19 with a second-line
/// contact move, the open moves being few and alike and their playouts split among them).
pub(crate) fn fuseki_on() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("QI_GO_FUSEKI").is_ok_and(|v| v == "1"))
}

/// Whether the opening rule applies to the position `b`: on 13×13 and larger, while fewer
/// stones than the board has lines are down (the first twelve moves of 13×13).
pub(crate) fn fuseki_applies(b: &Board) -> bool {
    let size = b.size as usize;
    size >= 13 && size * size - b.empties().len() < size
}

/// Whether the opening rule keeps the root from playing `p` in `b` (where
/// [`fuseki_applies`]). A move near stones (within Manhattan distance 3) is always allowed;
/// in the open, a point on the fifth line or higher is never played, and while a corner is
/// still empty the open moves are the 3-3, 3-4 and 4-4 points of empty corners only. Light
/// playouts value the centre of 13×13 highly: the search opened near the centre in all of its
/// 18 games against Pachi in session 28 while Pachi took the corners and led by about 23
/// points at move 30 (GNU Go's estimate), and with the fifth-line part alone it opened on
/// the fourth line in the middle of a side and crept back to the centre. Strong players and
/// programs take the corners first.
pub(crate) fn fuseki_excludes(b: &Board, p: usize) -> bool {
    if !empty_around(b, p, 3) {
        return false;
    }
    let size = b.size as usize;
    let (x, y) = (p % STRIDE - 1, p / STRIDE - 1);
    let line = x.min(y).min(size - 1 - x).min(size - 1 - y);
    if line >= 4 {
        return true;
    }
    let corner_point = |c: usize| (2..=3).contains(&c.min(size - 1 - c));
    if corner_point(x) && corner_point(y) {
        return false;
    }
    empty_corner(b)
}

/// Whether one of the board's corners (its 5×5 box) has no stone.
fn empty_corner(b: &Board) -> bool {
    let n = b.size as usize;
    let far = n - 5;
    [(0, 0), (far, 0), (0, far), (far, far)]
        .iter()
        .any(|&(x0, y0)| {
            (y0..y0 + 5).all(|y| {
                (x0..x0 + 5).all(|x| {
                    let c = b.color[(y + 1) * STRIDE + x + 1];
                    c != 1 && c != 2
                })
            })
        })
}

/// Whether no stone lies within Manhattan distance `d` of `p`.
pub(crate) fn empty_around(b: &Board, p: usize, d: i32) -> bool {
    let s = STRIDE as i32;
    for dy in -d..=d {
        let r = d - dy.abs();
        for dx in -r..=r {
            let q = (p as i32 + dy * s + dx) as usize;
            if q < POINTS {
                let c = b.color[q];
                if c == 1 || c == 2 {
                    return false;
                }
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::super::playout::bad_self_atari;
    use super::*;
    use crate::game::Game;
    use crate::go::{Go, Move};

    /// The point of `mv` (not a pass).
    fn at(mv: Move) -> usize {
        mv as usize
    }

    fn board(moves: &[&str]) -> (Go, Board) {
        let mut g = Go::new(9, 7.0).unwrap();
        let mut last = PASS;
        for m in moves {
            let mv = g.parse_move(m).unwrap();
            g.make(mv);
            last = mv;
        }
        let b = Board::from_go(&g, last);
        (g, b)
    }

    fn weights(g: &Go, b: &Board) -> Vec<(usize, f32)> {
        weights_owned(g, b, &[])
    }

    /// The prior values `(point, wins / games)` with the ownership map `owner`.
    fn weights_owned(g: &Go, b: &Board, owner: &[f32]) -> Vec<(usize, f32)> {
        let mut tactical = Vec::new();
        super::super::playout::tactical_answers(b, &mut tactical, true);
        let ctx = Context {
            tactical: &tactical,
            opening: false,
            ladders: true,
            owner,
            model: true,
        };
        let moves: Vec<u16> = b
            .empties()
            .iter()
            .copied()
            .filter(|&p| g.is_legal_point(p as usize))
            .collect();
        let mut out = Vec::new();
        priors(b, &moves, &ctx, &mut out);
        moves
            .iter()
            .zip(&out)
            .map(|(&p, &(n, w))| {
                assert!(n >= EVEN && w <= n && w >= 0.0, "{n} {w}");
                (p as usize, w / n)
            })
            .collect()
    }

    #[test]
    fn points_one_side_owns_for_sure_weigh_less_than_contested_ones() {
        assert!(owner_factor(0.0) < 0.2, "the opponent's for sure");
        assert!(owner_factor(1.0) < 0.5, "the mover's own for sure");
        assert!(owner_factor(0.45) > 1.0, "contested");
        // the same position, with and without an ownership map that gives C3 to White
        let (g, b) = board(&["E5", "E4"]);
        let c3 = at(g.parse_move("C3").unwrap());
        let g7 = at(g.parse_move("G7").unwrap());
        let value = |owner: &[f32], p: usize| {
            let w = weights_owned(&g, &b, owner);
            w.iter().find(|x| x.0 == p).unwrap().1
        };
        let plain_c3 = value(&[], c3);
        let plain_g7 = value(&[], g7);
        // the same factor everywhere changes nothing
        let mut owner = vec![1.0f32; crate::go::POINTS];
        assert!((value(&owner, c3) - plain_c3).abs() < 1e-5);
        owner[c3] = -1.0; // White's in every playout, and Black is to move
        assert!(value(&owner, c3) < plain_c3, "C3 falls");
        assert!(value(&owner, g7) > plain_g7, "the rest gains its share");
        owner[c3] = 0.0; // contested, where the rest is Black's for sure
        assert!(value(&owner, c3) > plain_c3, "C3 rises");
    }

    #[test]
    fn the_capture_gets_the_highest_prior() {
        // White's E5 in atari (Black D5, F5, E6): E4 captures
        let (g, b) = board(&["D5", "E5", "F5", "A1", "E6", "J1"]);
        let w = weights(&g, &b);
        let best = w.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
        assert_eq!(best.0, at(g.parse_move("E4").unwrap()));
        assert!(best.1 > 0.8, "{}", best.1);
    }

    #[test]
    fn the_escape_beats_the_rest_and_self_atari_is_last() {
        // Black's E5 in atari (White D5, F5, E6) with Black to move: E4 escapes
        let (g, b) = board(&["E5", "D5", "A9", "F5", "J9", "E6"]);
        let w = weights(&g, &b);
        let of = |m: &str| {
            let p = at(g.parse_move(m).unwrap());
            w.iter().find(|x| x.0 == p).unwrap().1
        };
        let best = w.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
        assert_eq!(best.0, at(g.parse_move("E4").unwrap()));
        // Black's B1 with White on A2, B2 and C2: A1 makes a two-stone chain with one liberty
        let (g2, b2) = board(&["B1", "A2", "J9", "B2", "J8", "C2"]);
        let w2 = weights(&g2, &b2);
        let of2 = |m: &str| {
            let p = at(g2.parse_move(m).unwrap());
            w2.iter().find(|x| x.0 == p).unwrap().1
        };
        assert!(
            bad_self_atari(&b2, at(g2.parse_move("A1").unwrap()), b2.to_move),
            "A1 is a self-atari"
        );
        assert!(
            of2("A1") < 0.5 && of2("A1") < of2("G5"),
            "{} {}",
            of2("A1"),
            of2("G5")
        );
        assert!(of("E4") > of("H2"));
    }

    #[test]
    fn the_priors_are_probabilities_that_sum_right() {
        let (g, b) = board(&["E5", "C3", "G7"]);
        let w = weights(&g, &b);
        // every value is between 0 and 1, and a point of the open centre is worth at least
        // one half
        for &(_, v) in &w {
            assert!((0.0..=1.0).contains(&v), "{v}");
        }
        let p = at(g.parse_move("E3").unwrap());
        assert!(w.iter().find(|x| x.0 == p).unwrap().1 >= 0.5);
        // a neighbour of the last move weighs more than a far first-line point
        let of = |m: &str| {
            let p = at(g.parse_move(m).unwrap());
            w.iter().find(|x| x.0 == p).unwrap().1
        };
        assert!(of("G6") > of("A1"));
    }
}
