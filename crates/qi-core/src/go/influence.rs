//! The influence (territory) estimate of the reference Go report: every stone radiates
//! influence, 64 on its own point and halving with each step (32, 16, … down to 1 at six steps),
//! positive for Black and negative for White. Influence reaching the edge is reflected back
//! whole (reflection rate 1: the point beyond the edge folds onto the edge point, which is why
//! corners and sides are easier to hold), and passing through another stone costs two extra steps
//! (a quarter) for the points beyond it. A point whose total exceeds [`INFLUENCE_TERRITORY`] belongs to that side.

use super::{Go, STRIDE};
use crate::game::Side;

/// Total influence beyond which a point counts as one side's area (the report's 20).
pub const INFLUENCE_TERRITORY: i32 = 20;
const REACH: i32 = 6;
const WIN: usize = (2 * REACH + 1) as usize;

/// The influence map of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Influence {
    pub size: u8,
    /// Summed influence per point, `y * size + x`: Black positive.
    pub value: Vec<i32>,
    /// The map the app draws: per point −1 (White's) ..= 1 (Black's).
    pub ownership: Vec<f32>,
    /// Who each point counts for (`None`: undecided): an empty point past the threshold goes
    /// to that side; a stone to its own side, unless the influence of the other stones (its own
    /// 64 left out) is past the threshold for the other side, as around dead stones.
    pub owner: Vec<Option<Side>>,
    /// Points counted for each side in [`Influence::owner`].
    pub black_area: u32,
    pub white_area: u32,
    pub komi: f32,
}

impl Influence {
    /// The current score estimate: Black's area minus White's and komi.
    pub fn score_estimate(&self) -> f32 {
        self.black_area as f32 - self.white_area as f32 - self.komi
    }

    /// Who the estimate gives a point to (`None`: undecided).
    pub fn owner(&self, x: u8, y: u8) -> Option<Side> {
        self.owner[y as usize * self.size as usize + x as usize]
    }
}

/// Folds a coordinate of the unfolded plane back onto the board (reflection at the edges).
fn fold(mut v: i32, n: i32) -> i32 {
    loop {
        if v < 0 {
            v = -1 - v;
        } else if v >= n {
            v = 2 * n - 1 - v;
        } else {
            return v;
        }
    }
}

impl Go {
    /// The influence map and score estimate of the position, at any moment of the game.
    pub fn influence(&self) -> Influence {
        let n = self.size as i32;
        let nn = (n * n) as usize;
        let mut value = vec![0i32; nn];
        let occupied = |x: i32, y: i32| {
            self.stone_at(((y + 1) as usize) * STRIDE + (x + 1) as usize)
                .is_some()
        };
        for p in self.points() {
            let Some(side) = self.stone_at(p) else {
                continue;
            };
            let sign = if side == Side::Black { 1 } else { -1 };
            let (sx, sy) = ((p % STRIDE - 1) as i32, (p / STRIDE - 1) as i32);
            // shortest steps from the stone over the unfolded plane: 1 a step, 3 out of a stone
            let mut dist = [[u8::MAX; WIN]; WIN];
            let mut buckets: Vec<Vec<(i32, i32)>> = vec![Vec::new(); REACH as usize + 1];
            dist[REACH as usize][REACH as usize] = 0;
            buckets[0].push((0, 0));
            for d in 0..=REACH as usize {
                let mut i = 0;
                while i < buckets[d].len() {
                    let (dx, dy) = buckets[d][i];
                    i += 1;
                    if dist[(dy + REACH) as usize][(dx + REACH) as usize] as usize != d {
                        continue;
                    }
                    let (bx, by) = (fold(sx + dx, n), fold(sy + dy, n));
                    value[(by * n + bx) as usize] += sign << (REACH as usize - d);
                    // passing through a stone (not the source) costs two steps more
                    let cost = if d > 0 && occupied(fold(sx + dx, n), fold(sy + dy, n)) {
                        3
                    } else {
                        1
                    };
                    for (ex, ey) in [(dx + 1, dy), (dx - 1, dy), (dx, dy + 1), (dx, dy - 1)] {
                        if ex.abs() + ey.abs() > REACH {
                            continue;
                        }
                        let nd = d + cost;
                        let cell = &mut dist[(ey + REACH) as usize][(ex + REACH) as usize];
                        if nd <= REACH as usize && (nd as u8) < *cell {
                            *cell = nd as u8;
                            buckets[nd].push((ex, ey));
                        }
                    }
                }
            }
        }
        let mut ownership = vec![0f32; nn];
        let mut owner = vec![None; nn];
        let (mut black_area, mut white_area) = (0, 0);
        for y in 0..n {
            for x in 0..n {
                let i = (y * n + x) as usize;
                let v = value[i];
                ownership[i] = (v as f32 / 64.0).clamp(-1.0, 1.0);
                let stone = self.stone_at(((y + 1) as usize) * STRIDE + (x + 1) as usize);
                let who = match stone {
                    // a stone deep in the other side's influence counts as theirs
                    Some(Side::Black) if v - 64 < -INFLUENCE_TERRITORY => Some(Side::White),
                    Some(Side::White) if v + 64 > INFLUENCE_TERRITORY => Some(Side::Black),
                    Some(s) => Some(s),
                    None if v > INFLUENCE_TERRITORY => Some(Side::Black),
                    None if v < -INFLUENCE_TERRITORY => Some(Side::White),
                    None => None,
                };
                owner[i] = who;
                match who {
                    Some(Side::Black) => black_area += 1,
                    Some(Side::White) => white_area += 1,
                    None => {}
                }
            }
        }
        Influence {
            size: self.size,
            value,
            ownership,
            owner,
            black_area,
            white_area,
            komi: self.komi,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Square};

    #[test]
    fn lone_stone_radiates_and_reflects() {
        let mut g = Go::new(9, 0.0).unwrap();
        let mv = Go::move_at(Square::new(4, 4));
        g.make(mv);
        let inf = g.influence();
        let at = |x: usize, y: usize| inf.value[y * 9 + x];
        assert_eq!(at(4, 4), 64);
        assert_eq!(at(5, 4), 32);
        assert_eq!(at(6, 5), 8);
        // E1 is 4 steps away, 2^2, plus the reflection one step further, 2^1
        assert_eq!(at(4, 0), 4 + 2);
        // symmetric
        assert_eq!(at(3, 4), at(5, 4));
        assert_eq!(at(4, 8), at(4, 0));
        assert!(inf.ownership.iter().all(|&o| (0.0..=1.0).contains(&o)));
        assert!(inf.score_estimate() > 0.0);
    }

    #[test]
    fn stones_block_influence() {
        // a white wall between a black stone and the points behind it
        let g = Go::from_text("9 0 b ........./........./........./........./..XO...../........./........./........./.........").unwrap();
        let inf = g.influence();
        // E5 is behind the white stone D5: black C5 reaches it in 4 steps (around, or through D5
        // at 3 + 1) instead of 2, so 4 instead of 16; White's D5 next to it adds -32
        assert_eq!(inf.value[4 * 9 + 4], 4 - 32);
        let free = Go::from_text("9 0 b ........./........./........./........./..X....../........./........./........./.........").unwrap().influence();
        assert_eq!(free.value[4 * 9 + 4], 16);
    }
}
