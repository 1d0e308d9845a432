//! The features of a candidate move that the tree priors weigh ([`super::prior`]), and a move
//! model learnt from game records: one weight `γ` for each value of each feature, a move's
//! weight the product of its features' weights, fitted by Coulom's minorization-maximization
//! ("Computing Elo ratings of move patterns in the game of Go", 2007) so that the moves played
//! in the records are as likely as can be ([`train`]).
//!
//! The features of a point `p` for the side to move: its 3×3 neighbourhood (colours relative
//! to the mover, the same under the eight symmetries), the largest spatial pattern around it
//! that the model knows (all points within a distance `dx + dy + max(dx, dy)` of 4 to 8,
//! [`SPATIAL_D`], as Pachi's large patterns; [`spatial_keys`]), what it captures, whether it
//! saves an own chain from atari and with how many liberties, self-atari, putting an opponent
//! chain in atari, whether it answers the last move tactically, the distance to the last move
//! and to the move before it, and its line from the edge in an empty area.
//!
//! Two models are shipped. `data/go-spatial.txt`, with 32,093 spatial patterns, was trained on
//! 7,192 19×19 games of strong programs (`examples/go_features.rs` gives the recipe): its
//! highest weight is the played move in 38.8% of held-out positions, against 23.4% for the
//! hand-set priors, and 13×13 uses it by default ([`Model::shipped`]; the README has its
//! matches), 19×19 with `QI_GO_PRIOR=learned` until it is measured there. `data/go-features.txt` (9×9, no spatial patterns) was trained on GNU Go
//! self-play games from random openings and is used only with `QI_GO_PRIOR=learned`: against
//! the hand-set priors it scored 62.5% in 20 games and against Pachi no better than those, and
//! it weighs captures of stones already lost low (GNU Go leaves dead stones on the board),
//! which misses an obvious capture the hand-set priors find.

use std::sync::OnceLock;

use super::board::{Board, EMPTY};
use super::playout::{CELLS, bad_self_atari, code3, turned};
use super::prior::empty_around;
use crate::go::{Move, PASS, STRIDE};

/// The feature groups, in the order of [`Features::index`].
pub const GROUPS: [(&str, u32); 10] = [
    ("pattern", 1 << 16),
    ("spatial", 1 << 16),
    ("capture", 4),
    ("escape", 4),
    ("self-atari", 3),
    ("atari", 3),
    ("tactical", 2),
    ("last", 18),
    ("last2", 18),
    ("edge", 10),
];

/// Number of feature groups.
pub const N_GROUPS: usize = GROUPS.len();

/// The first global index of each group.
fn offsets() -> [u32; N_GROUPS] {
    let mut o = [0u32; N_GROUPS];
    let mut s = 0;
    for (k, g) in GROUPS.iter().enumerate() {
        o[k] = s;
        s += g.1;
    }
    o
}

/// The number of feature values over all groups.
pub fn n_values() -> usize {
    GROUPS.iter().map(|g| g.1 as usize).sum()
}

/// What is known of one candidate point: what the hand-set priors read, and the features.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Facts {
    /// Stones captured.
    pub captured: u16,
    /// An own chain next to `p` is in atari (and `p` captures nothing).
    pub escapes: bool,
    /// Liberties after the move (3 meaning three or more).
    pub libs: usize,
    pub bad_self_atari: bool,
    /// Puts an opponent chain of two liberties in atari (and keeps two liberties).
    pub ataris: bool,
    /// That chain has three or more stones.
    pub ataris_big: bool,
    /// One of the tactical answers to the last move.
    pub tactical: bool,
    /// Distances to the last move and the one before (0: none).
    pub d_last: usize,
    pub d_last2: usize,
    /// Line from the edge (0 the first).
    pub line: usize,
    /// No stone within two points (Manhattan).
    pub open2: bool,
    /// No stone next to it.
    pub open1: bool,
    /// The 3×3 neighbourhood (absolute colours, [`code3`]).
    pub code: usize,
    /// The largest spatial pattern around `p` that the model knows ([`spatial_value`]; 0:
    /// none, or no model with patterns).
    pub spatial: u32,
}

/// Coulom's distance `dx + dy + max(dx, dy)`, at most 17.
pub(crate) fn distance(a: usize, b: usize) -> usize {
    let dx = (a % STRIDE).abs_diff(b % STRIDE);
    let dy = (a / STRIDE).abs_diff(b / STRIDE);
    (dx + dy + dx.max(dy)).min(17)
}

/// The facts of the legal point `p` for `me` (the side to move of `b`); `tactical` are the
/// tactical answers to the last move.
pub(crate) fn facts(b: &Board, p: usize, me: u8, tactical: &[u16]) -> Facts {
    let size = b.size as usize;
    let opp = 3 - me;
    let mut f = Facts::default();
    let (chains, k) = b.chains_around(p);
    for &(q, h) in &chains[..k] {
        let c = b.color[q];
        if b.atari(h) {
            if c == opp {
                f.captured += b.chain_size(h);
            } else {
                f.escapes = true;
            }
        } else if c == opp {
            let mut l = [0u16; 4];
            if b.chain_libs(q, &mut l, 3) == 2 {
                f.ataris = true;
                if b.chain_size(h) >= 3 {
                    f.ataris_big = true;
                }
            }
        }
    }
    if f.captured > 0 {
        f.escapes = false;
    }
    f.libs = b.libs_after(p, me);
    f.bad_self_atari = f.captured == 0 && bad_self_atari(b, p, me);
    f.tactical = tactical.contains(&(p as u16));
    if b.last != PASS {
        f.d_last = distance(p, b.last as usize);
    }
    if b.last2 != PASS {
        f.d_last2 = distance(p, b.last2 as usize);
    }
    let (x, y) = (p % STRIDE - 1, p / STRIDE - 1);
    f.line = x.min(y).min(size - 1 - x).min(size - 1 - y);
    f.open2 = empty_around(b, p, 2);
    f.open1 = f.open2 || empty_around(b, p, 1);
    f.code = code3(b, p);
    f
}

/// The value of each group for a candidate: global indices into the weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    pub index: [u32; N_GROUPS],
}

impl Features {
    pub(crate) fn of(f: &Facts, me: u8) -> Features {
        let o = offsets();
        let capture = match f.captured {
            0 => 0,
            1 => 1,
            2 | 3 => 2,
            _ => 3,
        };
        let escape = if f.escapes {
            f.libs.clamp(1, 3) as u32
        } else {
            0
        };
        let self_atari = if f.bad_self_atari {
            2
        } else if f.captured == 0 && f.libs <= 1 {
            1
        } else {
            0
        };
        let atari = if f.ataris && f.libs >= 2 {
            1 + f.ataris_big as u32
        } else {
            0
        };
        let edge = f.line.min(4) as u32 + if f.open2 { 5 } else { 0 };
        let vals = [
            canonical(f.code, me) as u32,
            f.spatial,
            capture,
            escape,
            self_atari,
            atari,
            f.tactical as u32,
            f.d_last as u32,
            f.d_last2 as u32,
            edge,
        ];
        let mut index = [0u32; N_GROUPS];
        for k in 0..N_GROUPS {
            debug_assert!(vals[k] < GROUPS[k].1, "{k} {}", vals[k]);
            index[k] = o[k] + vals[k];
        }
        Features { index }
    }
}

/// The canonical code of a neighbourhood: colours relative to the mover (1 own, 2 the
/// opponent's), the smallest code over the eight symmetries. Index 0: the mover is Black.
fn canon_tables() -> &'static [Box<[u16]>; 2] {
    static T: OnceLock<[Box<[u16]>; 2]> = OnceLock::new();
    T.get_or_init(|| {
        let mut perms = [[0usize; 8]; 8];
        for (s, perm) in perms.iter_mut().enumerate() {
            for (i, &cell) in CELLS.iter().enumerate() {
                let t = turned(cell, s);
                perm[i] = CELLS.iter().position(|&x| x == t).unwrap();
            }
        }
        let swap = |code: usize| {
            let mut out = 0;
            for i in 0..8 {
                let v = (code >> (2 * i)) & 3;
                let v = if v == 1 || v == 2 { v ^ 3 } else { v };
                out |= v << (2 * i);
            }
            out
        };
        let canon = |code: usize| {
            let mut best = usize::MAX;
            for perm in &perms {
                let mut c2 = 0;
                for (i, &j) in perm.iter().enumerate() {
                    c2 |= ((code >> (2 * i)) & 3) << (2 * j);
                }
                best = best.min(c2);
            }
            best as u16
        };
        let black: Vec<u16> = (0..1usize << 16).map(canon).collect();
        let white: Vec<u16> = (0..1usize << 16).map(|c| canon(swap(c))).collect();
        [black.into_boxed_slice(), white.into_boxed_slice()]
    })
}

/// The canonical neighbourhood code of `code` (absolute colours) for the mover `me`.
pub(crate) fn canonical(code: usize, me: u8) -> u16 {
    canon_tables()[(me == 2) as usize][code & 0xFFFF]
}

/// The Coulom distances (`dx + dy + max(dx, dy)`) that bound the spatial patterns, smallest
/// first: a pattern of distance `d` holds the colours (relative to the mover, or off the
/// board) of every point within `d` of its centre, the same under the eight symmetries.
/// Pachi's large patterns are of this kind.
pub const SPATIAL_D: [usize; 5] = [4, 5, 6, 7, 8];

struct SpatialTables {
    /// The offsets `(dx, dy)` at distances 2 to 8, nearest first.
    offs: Vec<(i32, i32)>,
    /// How many offsets each size of [`SPATIAL_D`] holds.
    ends: [usize; 5],
    /// `perm[s][k]`: the index of `offs[k]` turned by the symmetry `s`.
    perm: [Vec<u8>; 8],
    /// A fixed random key per offset and state (empty 0, own, opponent's, off the board).
    z: Vec<[u64; 4]>,
}

fn spatial_tables() -> &'static SpatialTables {
    static T: OnceLock<SpatialTables> = OnceLock::new();
    T.get_or_init(|| {
        let dist = |(dx, dy): (i32, i32)| {
            let (a, b) = (dx.unsigned_abs() as usize, dy.unsigned_abs() as usize);
            a + b + a.max(b)
        };
        let mut offs: Vec<(i32, i32)> = Vec::new();
        for dy in -4..=4 {
            for dx in -4..=4 {
                let d = dist((dx, dy));
                if (2..=8).contains(&d) {
                    offs.push((dx, dy));
                }
            }
        }
        offs.sort_by_key(|&o| (dist(o), o));
        let mut ends = [0; 5];
        for (i, &d) in SPATIAL_D.iter().enumerate() {
            ends[i] = offs.iter().filter(|&&o| dist(o) <= d).count();
        }
        let perm = std::array::from_fn(|sym| {
            offs.iter()
                .map(|&(dx, dy)| {
                    let (r, c) = turned((dy, dx), sym);
                    offs.iter().position(|&o| o == (c, r)).unwrap() as u8
                })
                .collect()
        });
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            // splitmix64: the keys are written in model files, so they never change
            seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let z = offs.iter().map(|_| [0, next(), next(), next()]).collect();
        SpatialTables {
            offs,
            ends,
            perm,
            z,
        }
    })
}

/// The keys of the spatial patterns of every size of [`SPATIAL_D`] around `p` for `me`.
pub fn spatial_keys(b: &Board, p: usize, me: u8) -> [u64; 5] {
    let t = spatial_tables();
    keys_of(&spatial_states(b, p, me, t), t)
}

/// For a board of `size`, each point's neighbours at the offsets of [`SpatialTables::offs`]:
/// their indices on the board, or 0 (a border point) off the board.
fn offset_points(size: u8) -> &'static [[u16; 64]] {
    static BY_SIZE: [OnceLock<Vec<[u16; 64]>>; crate::go::MAX_SIZE as usize + 1] =
        [const { OnceLock::new() }; crate::go::MAX_SIZE as usize + 1];
    BY_SIZE[size as usize].get_or_init(|| {
        let t = spatial_tables();
        let n = size as i32;
        (0..crate::go::POINTS)
            .map(|p| {
                let (x, y) = ((p % STRIDE) as i32 - 1, (p / STRIDE) as i32 - 1);
                let mut out = [0u16; 64];
                for (k, &(dx, dy)) in t.offs.iter().enumerate() {
                    let (qx, qy) = (x + dx, y + dy);
                    if (0..n).contains(&qx) && (0..n).contains(&qy) {
                        out[k] = ((qy as usize + 1) * STRIDE + qx as usize + 1) as u16;
                    }
                }
                out
            })
            .collect()
    })
}

/// The state of each offset of [`SpatialTables::offs`] around `p`: 0 empty, 1 `me`'s, 2 the
/// opponent's, 3 off the board.
fn spatial_states(b: &Board, p: usize, me: u8, t: &SpatialTables) -> [u8; 64] {
    debug_assert_eq!(b.color[0], super::board::BORDER);
    // the board's codes (0 empty, 1 Black, 2 White, 3 border) relative to the mover
    let relative: [u8; 4] = if me == 1 { [0, 1, 2, 3] } else { [0, 2, 1, 3] };
    let around = &offset_points(b.size)[p];
    let mut st = [0u8; 64];
    for (s, &q) in st.iter_mut().zip(&around[..t.offs.len()]) {
        *s = relative[b.color[q as usize] as usize & 3];
    }
    st
}

/// The keys of the patterns of every size of [`SPATIAL_D`] for the states `st`.
fn keys_of(st: &[u8; 64], t: &SpatialTables) -> [u64; 5] {
    let mut h = [0u64; 8];
    let mut out = [0u64; 5];
    let mut k = 0;
    for (i, &end) in t.ends.iter().enumerate() {
        while k < end {
            for (s, hs) in h.iter_mut().enumerate() {
                *hs ^= t.z[k][st[t.perm[s][k] as usize] as usize];
            }
            k += 1;
        }
        // the size goes into the key: a larger pattern with an empty outer ring differs
        out[i] = h.iter().min().unwrap().rotate_left(i as u32 * 13) ^ (i as u64 + 1);
    }
    out
}

/// The value in `dict` of the largest of `keys` it knows (0: none).
fn largest_known(keys: &[u64; 5], dict: &Dict) -> u32 {
    keys.iter()
        .rev()
        .find_map(|k| dict.get(k).copied())
        .unwrap_or(0)
}

/// The value in the group `spatial` of the largest pattern around `p` that `dict` knows
/// (0: none).
pub(crate) fn spatial_value(b: &Board, p: usize, me: u8, dict: &Dict) -> u32 {
    largest_known(&spatial_keys(b, p, me), dict)
}

/// Entries of each thread's cache of spatial values ([`spatial_value_cached`]): 2¹⁵ of 24
/// bytes, 768 KB.
const CACHE_BITS: u32 = 15;

/// One entry: the states around a point packed two bits an offset, and their value.
#[derive(Clone, Copy)]
struct CacheEntry {
    states: u128,
    value: u32,
}

/// A value no entry holds: spatial values are below 2¹⁶.
const NO_VALUE: u32 = u32::MAX;

struct SpatialCache {
    /// The dictionary the values are of (its address: a `'static` one, never freed).
    dict: usize,
    entries: Vec<CacheEntry>,
}

thread_local! {
    static CACHE: std::cell::RefCell<SpatialCache> = const {
        std::cell::RefCell::new(SpatialCache { dict: 0, entries: Vec::new() })
    };
}

/// [`spatial_value`] through a cache of each thread: the value depends only on the states of
/// the points around `p`, and a search meets the same surroundings of a point again in many
/// nodes. The states are packed whole into the cache's key, so a hit is the same pattern, not
/// one with the same hash. Computing the keys is the costliest part of a 13×13 search's priors
/// (18% of its profile before this cache).
pub(crate) fn spatial_value_cached(b: &Board, p: usize, me: u8, dict: &'static Dict) -> u32 {
    let t = spatial_tables();
    let st = spatial_states(b, p, me, t);
    let mut packed = 0u128;
    for (k, &s) in st[..t.offs.len()].iter().enumerate() {
        packed |= (s as u128) << (2 * k);
    }
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        let id = dict as *const Dict as usize;
        if c.dict != id || c.entries.is_empty() {
            c.dict = id;
            c.entries = vec![
                CacheEntry {
                    states: 0,
                    value: NO_VALUE,
                };
                1 << CACHE_BITS
            ];
        }
        let mix = (packed as u64 ^ ((packed >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .wrapping_mul(0xBF58_476D_1CE4_E5B9);
        let e = &mut c.entries[(mix >> (64 - CACHE_BITS)) as usize];
        if e.value != NO_VALUE && e.states == packed {
            return e.value;
        }
        let value = largest_known(&keys_of(&st, t), dict);
        *e = CacheEntry {
            states: packed,
            value,
        };
        value
    })
}

/// The learnt weights: one `γ` per feature value, and the spatial patterns the model knows
/// (a pattern's key from [`spatial_keys`] → its value in the group `spatial`, 1 and up).
pub struct Model {
    pub gamma: Vec<f32>,
    pub dict: Dict,
}

/// Which move model [`Model::shipped`] gives, from the environment.
enum Choice {
    Default,
    Hand,
    Learned,
    File(String),
}

/// Spatial pattern keys → values of the group `spatial`.
pub type Dict = std::collections::HashMap<u64, u32>;

impl Model {
    /// The weight of a candidate: the product of its features' weights.
    pub fn weight(&self, f: &Features) -> f32 {
        f.index.iter().map(|&i| self.gamma[i as usize]).product()
    }

    /// Reads a model written by [`Model::write`]: lines `<group> <value> <γ>` and
    /// `key <hex key> <spatial value>` (# comments); values not listed weigh 1.
    pub fn parse(text: &str) -> Result<Model, String> {
        let o = offsets();
        let mut gamma = vec![1.0f32; n_values()];
        let mut dict = Dict::new();
        for (k, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let mut it = line.split_whitespace();
            let bad = || format!("line {}: expected `<group> <value> <weight>`", k + 1);
            let (Some(g), Some(v), Some(w), None) = (it.next(), it.next(), it.next(), it.next())
            else {
                return Err(bad());
            };
            if g == "key" {
                let bad = || format!("line {}: expected `key <hex key> <value>`", k + 1);
                let key = u64::from_str_radix(v, 16).map_err(|_| bad())?;
                let value: u32 = w.parse().map_err(|_| bad())?;
                if value == 0 || value >= GROUPS[1].1 {
                    return Err(bad());
                }
                dict.insert(key, value);
                continue;
            }
            let gi = GROUPS
                .iter()
                .position(|x| x.0 == g)
                .ok_or_else(|| format!("line {}: unknown group {g}", k + 1))?;
            let v: u32 = v.parse().map_err(|_| bad())?;
            let w: f32 = w.parse().map_err(|_| bad())?;
            if v >= GROUPS[gi].1 || !(w.is_finite() && w > 0.0) {
                return Err(bad());
            }
            gamma[(o[gi] + v) as usize] = w;
        }
        Ok(Model { gamma, dict })
    }

    /// The model as text ([`Model::parse`] reads it): every value whose weight is not 1.
    pub fn write(&self) -> String {
        let o = offsets();
        let mut s = String::new();
        for (k, g) in GROUPS.iter().enumerate() {
            for v in 0..g.1 {
                let w = self.gamma[(o[k] + v) as usize];
                if w != 1.0 {
                    s += &format!("{} {} {:.4}\n", g.0, v, w);
                }
            }
        }
        let mut keys: Vec<(u32, u64)> = self.dict.iter().map(|(&k, &v)| (v, k)).collect();
        keys.sort_unstable();
        for (v, k) in keys {
            s += &format!("key {k:016x} {v}\n");
        }
        s
    }

    /// The weight of the legal point `p` for `me` on `b`, from its facts `f` (whose
    /// `spatial` this fills in when the model knows spatial patterns).
    #[cfg(test)]
    pub(crate) fn weight_at(&self, b: &Board, p: usize, me: u8, f: &mut Facts) -> f32 {
        if !self.dict.is_empty() {
            f.spatial = spatial_value(b, p, me, &self.dict);
        }
        self.weight(&Features::of(f, me))
    }

    /// [`Model::weight_at`] for a model that lives as long as the program (the search's, from
    /// [`Model::shipped`]), with the spatial values from [`spatial_value_cached`].
    pub(crate) fn weight_at_cached(
        &'static self,
        b: &Board,
        p: usize,
        me: u8,
        f: &mut Facts,
    ) -> f32 {
        if !self.dict.is_empty() {
            f.spatial = spatial_value_cached(b, p, me, &self.dict);
        }
        self.weight(&Features::of(f, me))
    }

    /// A model written by [`Model::write`] (or by hand in that form) from the file `path`;
    /// the error says what is wrong: the file cannot be read, or which line is not a model line.
    pub fn from_file(path: &std::path::Path) -> Result<Model, String> {
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        Model::parse(&text)
    }

    /// The move model the tree priors use on a board of `size`, `None` for the hand-set
    /// priors. By default 13×13 and 19×19 (and the sizes between) use the spatial-pattern model
    /// shipped with the crate (`data/go-spatial.txt`, learnt from strong programs' 19×19
    /// games), 9×9 the hand-set priors. `QI_GO_PRIOR=hand` keeps the hand-set priors on every
    /// size; `QI_GO_PRIOR=learned` takes the file `QI_GO_MODEL` names (any size, for
    /// experiments; the hand-set priors with a message if it cannot be read), else the 9×9
    /// model of GNU Go games on 9×9 and the spatial one from 13×13 up (19×19 included).
    pub fn shipped(size: u8) -> Option<&'static Model> {
        static CHOICE: OnceLock<Choice> = OnceLock::new();
        static NINE: OnceLock<Option<Model>> = OnceLock::new();
        static SPATIAL: OnceLock<Option<Model>> = OnceLock::new();
        static FILE: OnceLock<Option<Model>> = OnceLock::new();
        let choice = CHOICE.get_or_init(|| match std::env::var("QI_GO_PRIOR").as_deref() {
            Ok("hand") => Choice::Hand,
            Ok("learned") => match std::env::var("QI_GO_MODEL") {
                Ok(path) => Choice::File(path),
                Err(_) => Choice::Learned,
            },
            _ => Choice::Default,
        });
        let shipped = |cell: &'static OnceLock<Option<Model>>, text: &'static str| {
            cell.get_or_init(|| {
                Model::parse(text)
                    .ok()
                    .filter(|m| m.gamma.iter().any(|&g| g != 1.0))
            })
            .as_ref()
        };
        let spatial = || shipped(&SPATIAL, include_str!("../../../data/go-spatial.txt"));
        match choice {
            Choice::Hand => None,
            Choice::File(path) => FILE
                .get_or_init(|| match Model::from_file(std::path::Path::new(path)) {
                    Ok(m) => Some(m),
                    Err(e) => {
                        eprintln!("qi: QI_GO_MODEL {path}: {e}; the hand-set priors are used");
                        None
                    }
                })
                .as_ref(),
            Choice::Learned if size == 9 => {
                shipped(&NINE, include_str!("../../../data/go-features.txt"))
            }
            Choice::Learned if size >= 13 => spatial(),
            // measured against Pachi on 13×13 and against GNU Go on 19×19 (20 of 20 won), where
            // the hand-set priors opened near the centre
            Choice::Default if size >= 13 => spatial(),
            _ => None,
        }
    }
}

/// The 3×3 weights of `model` (its group `pattern`) by absolute neighbourhood code
/// ([`code3`]): index 0 with Black to move, 1 with White.
pub(crate) fn pattern_gammas(model: &Model) -> super::playout::Gammas {
    let o = offsets()[0] as usize;
    let of = |me: u8| -> Box<[f32]> {
        (0..1usize << 16)
            .map(|c| model.gamma[o + canonical(c, me) as usize])
            .collect()
    };
    [of(1), of(2)]
}

/// The model whose 3×3 weights the playouts may follow ([`super::playout::gammas`]): the file
/// `QI_GO_PLAYOUT_MODEL` names, or the shipped spatial model.
pub(crate) fn playout_model() -> Option<Model> {
    match std::env::var("QI_GO_PLAYOUT_MODEL") {
        Ok(path) => match Model::from_file(std::path::Path::new(&path)) {
            Ok(m) => Some(m),
            Err(e) => {
                eprintln!("qi: QI_GO_PLAYOUT_MODEL {path}: {e}; the playouts are not weighted");
                None
            }
        },
        Err(_) => Model::parse(include_str!("../../../data/go-spatial.txt")).ok(),
    }
}

/// One training position: the features of every candidate, and which was played.
pub struct Sample {
    pub candidates: Vec<Features>,
    pub played: usize,
    /// Whether the played move has the highest value under the search's own tree priors
    /// ([`super::prior::priors`], the hand-set weights as the search uses them), to compare
    /// a learnt model with.
    pub prior_top: bool,
}

/// The training positions of one game, `moves` from the empty board of `size` (komi does not
/// matter here): a sample for every move from `from` on that is not a pass and that the
/// search would consider (legal, not filling an own eye). `None` if a move is illegal. The
/// spatial patterns come from `dict` (none when it is empty).
pub fn samples_of_game(size: u8, moves: &[Move], from: usize, dict: &Dict) -> Option<Vec<Sample>> {
    use crate::game::Game;
    let mut g = crate::go::Go::new(size, 7.0).ok()?;
    let mut b = Board::from_go(&g, PASS);
    let mut out = Vec::new();
    let mut tactical = Vec::new();
    let (mut search_tactical, mut prior_buf) = (Vec::new(), Vec::new());
    for (k, &mv) in moves.iter().enumerate() {
        if !g.is_legal(mv) {
            return None;
        }
        if k >= from && mv != PASS {
            let me = b.to_move;
            super::playout::tactical_answers(&b, &mut tactical, false);
            let mut candidates = Vec::new();
            let mut points = Vec::new();
            let mut played = None;
            for &p in b.empties() {
                let p = p as usize;
                if b.color[p] != EMPTY || !b.legal(p) || b.is_eye(p, me) || !g.is_legal_point(p) {
                    continue;
                }
                if p == mv as usize {
                    played = Some(candidates.len());
                }
                let mut f = facts(&b, p, me, &tactical);
                if !dict.is_empty() {
                    f.spatial = spatial_value(&b, p, me, dict);
                }
                candidates.push(Features::of(&f, me));
                points.push(p as u16);
            }
            if let Some(played) = played {
                // the tree priors as the search computes them
                let ladders = super::playout::ladder_priors_on();
                super::playout::tactical_answers(&b, &mut search_tactical, ladders);
                let size = size as usize;
                let ctx = super::prior::Context {
                    tactical: &search_tactical,
                    opening: (size * size - b.empties().len()) * 5 < size * size,
                    ladders,
                    owner: &[],
                    model: true,
                };
                super::prior::priors(&b, &points, &ctx, &mut prior_buf);
                let value = |(n, w): (f32, f32)| w / n;
                let mine = value(prior_buf[played]);
                let prior_top = prior_buf.iter().all(|&x| value(x) <= mine);
                out.push(Sample {
                    candidates,
                    played,
                    prior_top,
                });
            }
        }
        g.make(mv);
        b.play(mv);
    }
    Some(out)
}

/// The spatial pattern keys ([`spatial_keys`]) of every move of a game from the empty board
/// of `size` that is not a pass, from `from` on; `None` if a move is illegal.
pub fn played_keys(size: u8, moves: &[Move], from: usize) -> Option<Vec<[u64; 5]>> {
    use crate::game::Game;
    let mut g = crate::go::Go::new(size, 7.0).ok()?;
    let mut b = Board::from_go(&g, PASS);
    let mut out = Vec::new();
    for (k, &mv) in moves.iter().enumerate() {
        if !g.is_legal(mv) {
            return None;
        }
        if k >= from && mv != PASS {
            out.push(spatial_keys(&b, mv as usize, b.to_move));
        }
        g.make(mv);
        b.play(mv);
    }
    Some(out)
}

/// Fits the weights to `samples` by minorization-maximization, `rounds` passes over the
/// groups; each value has a prior of one win and one loss against a weight of 1. `report`
/// hears the log-likelihood per move after each pass.
pub fn train(samples: &[Sample], rounds: usize, report: &mut dyn FnMut(usize, f64)) -> Model {
    let n = n_values();
    let mut gamma = vec![1.0f64; n];
    let o = offsets();
    let mut wins = vec![0.0f64; n];
    for s in samples {
        for &i in &s.candidates[s.played].index {
            wins[i as usize] += 1.0;
        }
    }
    let strength = |gamma: &[f64], f: &Features| -> f64 {
        f.index.iter().map(|&i| gamma[i as usize]).product()
    };
    for round in 0..rounds {
        for gi in 0..N_GROUPS {
            let lo = o[gi] as usize;
            let hi = lo + GROUPS[gi].1 as usize;
            let mut den = vec![0.0f64; hi - lo];
            for s in samples {
                let e: f64 = s.candidates.iter().map(|c| strength(&gamma, c)).sum();
                for c in &s.candidates {
                    let i = c.index[gi] as usize;
                    den[i - lo] += strength(&gamma, c) / gamma[i] / e;
                }
            }
            for i in lo..hi {
                let d = den[i - lo] + 2.0 / (gamma[i] + 1.0);
                gamma[i] = (wins[i] + 1.0) / d;
            }
        }
        let mut ll = 0.0;
        for s in samples {
            let e: f64 = s.candidates.iter().map(|c| strength(&gamma, c)).sum();
            ll += (strength(&gamma, &s.candidates[s.played]) / e).ln();
        }
        report(round, ll / samples.len().max(1) as f64);
    }
    // the values never seen keep their prior's fixed point, 1
    Model {
        gamma: gamma.iter().map(|&g| g as f32).collect(),
        dict: Dict::new(),
    }
}

/// The share of `samples` whose played move has the highest weight under `model`.
pub fn top1(model: &Model, samples: &[Sample]) -> f64 {
    let hits = samples
        .iter()
        .filter(|s| {
            let w = model.weight(&s.candidates[s.played]);
            s.candidates.iter().all(|c| model.weight(c) <= w)
        })
        .count();
    hits as f64 / samples.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::go::Go;
    use std::collections::HashSet;

    /// The cached spatial values are the ones computed afresh: on every board size, near the
    /// edges and in the corners (where the offsets leave the board), for both colours, after
    /// many positions have filled the cache, and when the search turns to another model.
    #[test]
    fn cached_spatial_values_are_the_computed_ones() {
        let shipped: &'static Model = Box::leak(Box::new(
            Model::parse(include_str!("../../../data/go-spatial.txt")).unwrap(),
        ));
        // a second model that knows a few of the first one's patterns, with other values
        let mut few = Dict::new();
        for (i, (&k, _)) in shipped.dict.iter().take(2000).enumerate() {
            few.insert(k, 1 + i as u32 % 7);
        }
        let other: &'static Model = Box::leak(Box::new(Model {
            gamma: shipped.gamma.clone(),
            dict: few,
        }));
        let mut rng = crate::rng::FastRng::new(7);
        let mut boards = Vec::new();
        for size in [9u8, 13, 19] {
            for game in 0..6 {
                let mut g = Go::new(size, 7.5).unwrap();
                let mut moves = Vec::new();
                for ply in 0..(size as usize * size as usize / 2) {
                    if ply % 7 == game % 7 {
                        boards.push(Board::from_go(&g, PASS));
                    }
                    g.legal_moves(&mut moves);
                    moves.retain(|&m| m != PASS);
                    if moves.is_empty() {
                        break;
                    }
                    g.make(moves[rng.below(moves.len() as u32) as usize]);
                }
            }
        }
        let (mut known, mut checked) = (0, 0);
        // the cache is kept while one model is asked, and emptied when the other one is
        for m in [shipped, other, shipped] {
            for b in &boards {
                for &p in b.empties() {
                    let p = p as usize;
                    for me in [1, 2] {
                        let fresh = spatial_value(b, p, me, &m.dict);
                        let cached = spatial_value_cached(b, p, me, &m.dict);
                        assert_eq!(cached, fresh, "{}×{}, point {p}, {me}", b.size, b.size);
                        known += (fresh != 0) as usize;
                        checked += 1;
                    }
                }
            }
        }
        // the check saw patterns the models know, not only unknown ones
        assert!(known > checked / 4, "{known} known of {checked}");
    }

    #[test]
    fn playout_weights_follow_the_shape_whatever_its_turn_and_colour() {
        let mut m = Model::parse("").unwrap();
        // a stone of the mover's own just above the point
        let above = 1usize << 2;
        let k = canonical(above, 1) as usize;
        m.gamma[offsets()[0] as usize + k] = 5.0;
        let g = pattern_gammas(&m);
        assert_eq!(g[0][above], 5.0, "Black to move, a black stone above");
        assert_eq!(
            g[0][1 << 12],
            5.0,
            "the same shape turned: a black stone below"
        );
        assert_eq!(g[1][2 << 2], 5.0, "White to move, a white stone above");
        assert_eq!(
            g[0][2 << 2],
            1.0,
            "Black to move, a white stone above: another shape"
        );
        assert_eq!(g[1][above], 1.0);
    }

    #[test]
    fn symmetric_and_colour_swapped_shapes_share_a_code() {
        // a Black stone north of the point, Black to move; the same shape turned and mirrored,
        // and with the colours swapped and White to move
        let north = 1 << 2; // cell (1, 0) Black
        let east = 1 << 8; // cell (0, 1) Black
        let south_white = 2 << 12; // cell (-1, 0) White
        assert_eq!(canonical(north, 1), canonical(east, 1));
        assert_eq!(canonical(north, 1), canonical(south_white, 2));
        // an own stone is not an opponent's
        assert_ne!(canonical(north, 1), canonical(north, 2));
    }

    /// The keys of a position around K10 of 19×19 with `own` and `opp` stones at offsets
    /// `(dx, dy)` from it, the mover being Black or White.
    fn keys_with(own: &[(i32, i32)], opp: &[(i32, i32)], mover_black: bool) -> [u64; 5] {
        const COLS: &[u8] = b"ABCDEFGHJKLMNOPQRST";
        let mut g = Go::new(19, 7.0).unwrap();
        let name = |(dx, dy): (i32, i32)| {
            let x = (9 + dx) as usize;
            format!("{}{}", COLS[x] as char, 10 + dy)
        };
        let (black, white) = if mover_black { (own, opp) } else { (opp, own) };
        for k in 0..black.len().max(white.len()) {
            let b = black
                .get(k)
                .map_or(PASS, |&o| g.parse_move(&name(o)).unwrap());
            g.make(b);
            let w = white
                .get(k)
                .map_or(PASS, |&o| g.parse_move(&name(o)).unwrap());
            g.make(w);
        }
        if !mover_black {
            g.make(PASS);
        }
        let b = Board::from_go(&g, PASS);
        assert_eq!(b.to_move == 1, mover_black);
        let p = g.parse_move("K10").unwrap() as usize;
        spatial_keys(&b, p, b.to_move)
    }

    /// The same shape turned, mirrored, or with the colours and the mover swapped has the
    /// same spatial keys; a stone at distance 8 changes only the largest pattern's key.
    #[test]
    fn spatial_patterns_are_the_same_under_symmetry_and_colour() {
        let a = keys_with(&[(1, 2)], &[(-2, 0)], true);
        // mirrored along the diagonal, White to move with the colours swapped
        assert_eq!(a, keys_with(&[(2, 1)], &[(0, -2)], false));
        // turned by a quarter, Black to move
        assert_eq!(a, keys_with(&[(-2, 1)], &[(0, -2)], true));
        // own and opponent's stones are told apart
        let swapped = keys_with(&[(-2, 0)], &[(1, 2)], true);
        assert!(a.iter().zip(&swapped).all(|(x, y)| x != y));
        // a stone at (4, 0), distance 8, is seen only by the largest pattern
        let far = keys_with(&[(1, 2)], &[(-2, 0), (4, 0)], true);
        assert_eq!(a[..4], far[..4]);
        assert_ne!(a[4], far[4]);
        // the sizes have distinct keys even when the outer rings are empty
        let empty = keys_with(&[], &[], true);
        let distinct: HashSet<u64> = empty.iter().copied().collect();
        assert_eq!(distinct.len(), 5);
    }

    /// A model with spatial patterns writes its keys and reads them back; a damaged key line
    /// is refused.
    #[test]
    fn spatial_keys_survive_the_model_file() {
        let m = Model::parse("spatial 3 2.5\nkey 00ff 3\n").unwrap();
        assert_eq!(m.dict.get(&0xff), Some(&3));
        let text = m.write();
        assert_eq!(text, "spatial 3 2.5000\nkey 00000000000000ff 3\n");
        assert_eq!(Model::parse(&text).unwrap().dict, m.dict);
        assert!(Model::parse("key zz 3").is_err());
        assert!(Model::parse("key 00ff 0").is_err());
        assert!(Model::parse("key 00ff 70000").is_err());
    }

    /// The model's weight of every legal point of `g` for the side to move, highest first.
    fn ranked(m: &Model, g: &Go) -> Vec<(f32, String)> {
        let b = Board::from_go(g, PASS);
        let mut tactical = Vec::new();
        super::super::playout::tactical_answers(&b, &mut tactical, false);
        let me = b.to_move;
        let mut out: Vec<(f32, String)> = b
            .empties()
            .iter()
            .map(|&p| p as usize)
            .filter(|&p| b.legal(p) && !b.is_eye(p, me))
            .map(|p| {
                let mut f = facts(&b, p, me, &tactical);
                (m.weight_at(&b, p, me, &mut f), g.move_to_text(p as Move))
            })
            .collect();
        out.sort_by(|a, b| b.0.total_cmp(&a.0));
        out
    }

    /// The spatial model shipped is the default on 13×13 and 19×19, knows its patterns, and opens
    /// in the corners: its favourite first moves are the 3-4 and 4-4 points, never the
    /// centre or the first two lines.
    #[test]
    fn the_spatial_model_opens_in_the_corners() {
        let m = Model::parse(include_str!("../../../data/go-spatial.txt")).unwrap();
        assert!(m.dict.len() > 10_000, "{} patterns", m.dict.len());
        if std::env::var_os("QI_GO_PRIOR").is_none() {
            // the default: 13×13 and 19×19 search with it, 9×9 with the hand-set priors
            for size in [13, 19] {
                assert_eq!(
                    Model::shipped(size).map(|s| s.dict.len()),
                    Some(m.dict.len())
                );
            }
            assert!(Model::shipped(9).is_none());
        }
        for size in [13u8, 19] {
            let g = Go::new(size, 7.5).unwrap();
            let top = ranked(&m, &g);
            for (w, name) in &top[..8] {
                let p = g.parse_move(name).unwrap() as usize;
                let (x, y) = (p % STRIDE - 1, p / STRIDE - 1);
                let n = size as usize - 1;
                let lines = [x.min(n - x), y.min(n - y)];
                assert!(
                    lines.iter().all(|l| (2..=3).contains(l)),
                    "{size}×{size}: {name} ({w}) in {top:?}"
                );
            }
        }
    }

    /// A model file that is missing or damaged is refused with what is wrong (the search then
    /// keeps its hand-set priors); a good one reads back as written.
    #[test]
    fn model_files_are_read_or_refused_with_a_reason() {
        let dir = std::env::temp_dir().join(format!("qi-model-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = Model::from_file(&dir.join("none.txt")).err().unwrap();
        assert!(!missing.is_empty());
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, "pattern 12 1.5\n\u{0}garbage here\n").unwrap();
        let e = Model::from_file(&bad).err().unwrap();
        assert!(e.contains("line 2"), "{e}");
        let good = dir.join("good.txt");
        std::fs::write(&good, "capture 1 3.5\nlast 2 2.0\n").unwrap();
        let m = Model::from_file(&good).unwrap();
        assert_eq!(m.write(), "capture 1 3.5000\nlast 2 2.0000\n");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn samples_come_from_legal_games_only() {
        let g = Go::new(9, 7.0).unwrap();
        let mv = |s: &str| g.parse_move(s).unwrap();
        let game = [mv("E5"), mv("E5")];
        assert!(samples_of_game(9, &game, 0, &Dict::new()).is_none());
        let game = [mv("E5"), mv("C3"), PASS, mv("G7")];
        let s = samples_of_game(9, &game, 0, &Dict::new()).unwrap();
        assert_eq!(s.len(), 3);
        assert_eq!(s[0].candidates.len(), 81);
        assert_eq!(s[1].candidates.len(), 80);
    }

    /// Training on games where one side always captures when it can gives captures a high
    /// weight; the model written and read back is the same.
    #[test]
    fn training_learns_what_the_games_prefer() {
        // a position with a capture on offer, where the "player" always takes it
        let g = Go::new(9, 7.0).unwrap();
        let mv = |s: &str| g.parse_move(s).unwrap();
        let mut samples = Vec::new();
        for filler in ["A9", "B9", "C9", "H9", "J9", "A8", "J8", "H1"] {
            // White's E5 in atari after Black D5, F5, E6; Black captures at E4
            let game = [
                mv("D5"),
                mv("E5"),
                mv("F5"),
                mv(filler),
                mv("E6"),
                mv("J1"),
                mv("E4"),
            ];
            samples.extend(samples_of_game(9, &game, 6, &Dict::new()).unwrap());
        }
        assert_eq!(samples.len(), 8);
        let mut lls = Vec::new();
        let model = train(&samples, 5, &mut |_, ll| lls.push(ll));
        assert!(lls.last().unwrap() > lls.first().unwrap() || lls[0] > -0.5);
        let o = offsets();
        let capture1 = model.gamma[(o[2] + 1) as usize];
        let none = model.gamma[o[2] as usize];
        assert!(capture1 > 3.0 * none, "{capture1} {none}");
        assert!(top1(&model, &samples) > 0.99);
        let back = Model::parse(&model.write()).unwrap();
        for (a, b) in back.gamma.iter().zip(&model.gamma) {
            assert!((a - b).abs() <= 1e-3 * b.max(1.0), "{a} {b}");
        }
        assert!(Model::parse("capture 9 1.0").is_err());
        assert!(Model::parse("nonsense 1 1.0").is_err());
        assert!(Model::parse("capture 1 -1").is_err());
    }

    #[test]
    fn samples_say_whether_the_search_priors_chose_the_played_move() {
        // White's E5 in atari after Black D5, F5, E6: the priors value the capture at E4
        // highest, not a first-line move in the far corner
        let g = Go::new(9, 7.0).unwrap();
        let mv = |s: &str| g.parse_move(s).unwrap();
        let before = ["D5", "E5", "F5", "A9", "E6", "J1"].map(mv);
        let sample = |last: &str| {
            let mut game = before.to_vec();
            game.push(mv(last));
            let s = samples_of_game(9, &game, 6, &Dict::new()).unwrap();
            assert_eq!(s.len(), 1);
            s[0].prior_top
        };
        assert!(sample("E4"));
        assert!(!sample("A1"));
    }

    #[test]
    fn the_shipped_model_reads_and_knows_shapes() {
        let m = Model::parse(include_str!("../../../data/go-features.txt")).unwrap();
        let learnt = m.gamma.iter().filter(|&&g| g != 1.0).count();
        assert!(learnt > 200, "{learnt} weights");
        // GNU Go does not put its own stones into atari, and answers near the last move
        let o = offsets();
        assert!(m.gamma[(o[4] + 2) as usize] < 0.2);
        assert!(m.gamma[(o[7] + 2) as usize] > m.gamma[(o[7] + 12) as usize]);
    }
}
