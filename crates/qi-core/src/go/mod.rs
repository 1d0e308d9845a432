//! Go on boards from 5×5 to 19×19: exact rules, area scoring, dead stones, influence.
//!
//! # Rules
//! Black moves first (White after handicap stones). A chain without liberties is captured;
//! suicide is illegal; positional superko: a stone may not recreate any whole-board position of
//! the game so far (this covers simple ko). A pass is always legal; two passes in a row end the
//! game, which is then scored by area ([`Go::area_score`], [`Go::score_with_dead`]).
//! Resignation is marked with [`Go::resign`].
//!
//! # Board and moves
//! Points live on a padded 21×21 grid whatever the board size (a border ring around the board), so
//! a [`Move`] is a point index `(y + 1) * 21 + (x + 1)` with `x` from the left and `y` from the
//! bottom, and [`PASS`] is 0 (a border corner). Chains are linked lists of stones with a
//! liberty bitset kept at the chain's head, merged on the fly, so [`Game::make`] costs a few
//! dozen operations; [`Game::unmake`] rebuilds only the chains the move touched.
//!
//! Move text is GTP-style: a column letter `A`..`T` skipping `I`, then the row from the bottom
//! (`D4`, `Q16`), or `pass`; lowercase is accepted.
//!
//! # Position text
//! `<size> <komi> <side> <rows> [<black captures> <white captures> [<passes>]]`, for example
//! `9 7.5 b ........./........./..X....../...O...../........./........./........./........./......... 0 0 0`:
//! rows from the top (row `size`) down to row 1, separated by `/`, with `X` a black stone, `O` a
//! white one and `.` an empty point; `b` or `w` is the side to move; captures count the stones
//! each side has taken; passes is the number of passes just played in a row (0..2). The history
//! of earlier positions (for superko) is not part of the text: a position read from text starts
//! a new history.

mod influence;
mod policy;
mod score;
pub mod shape;

pub use influence::{INFLUENCE_TERRITORY, Influence};
pub use policy::{InterimPolicy, is_eye_like};
pub use score::{ScoreDetail, go_result_text};

use std::fmt;

use crate::game::{
    Cell, Game, GameKind, IllegalMove, MoveSquares, Outcome, ParseError, Side, Square,
};
use crate::zobrist;

/// Smallest and largest board sizes.
pub const MIN_SIZE: u8 = 5;
pub const MAX_SIZE: u8 = 19;
/// Komi of an even game, and the default one with handicap.
pub const DEFAULT_KOMI: f32 = 7.5;
pub const DEFAULT_HANDICAP_KOMI: f32 = 0.5;

/// Row stride of the padded board.
pub const STRIDE: usize = MAX_SIZE as usize + 2;
/// Points of the padded board.
pub const POINTS: usize = STRIDE * STRIDE;
const LIB_WORDS: usize = POINTS.div_ceil(64);

/// A point index on the padded board, or [`PASS`].
pub type Move = u16;
pub const PASS: Move = 0;

const EMPTY: u8 = 0;
const BORDER: u8 = 3;

#[inline(always)]
fn stone(side: Side) -> u8 {
    side as u8 + 1
}

const STONE_KEYS: [u64; 2 * POINTS] = zobrist::keys::<{ 2 * POINTS }>(0x6060_0001);
const SIDE_KEY: u64 = zobrist::keys::<1>(0x6060_0002)[0];

#[inline(always)]
fn stone_key(side: Side, p: usize) -> u64 {
    STONE_KEYS[side.index() * POINTS + p]
}

/// The four neighbours of a point on the padded board.
#[inline(always)]
pub fn neighbors(p: usize) -> [usize; 4] {
    [p - STRIDE, p - 1, p + 1, p + STRIDE]
}

/// A set of points (a liberty set), one bit per padded point.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
struct Bits([u64; LIB_WORDS]);

impl Bits {
    #[inline(always)]
    fn set(&mut self, p: usize) {
        self.0[p >> 6] |= 1 << (p & 63);
    }
    #[inline(always)]
    fn clear(&mut self, p: usize) {
        self.0[p >> 6] &= !(1 << (p & 63));
    }
    #[inline(always)]
    fn has(&self, p: usize) -> bool {
        self.0[p >> 6] & (1 << (p & 63)) != 0
    }
    #[inline(always)]
    fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    /// Whether exactly one point is in the set.
    #[inline(always)]
    fn is_single(&self) -> bool {
        let mut n = 0;
        for &w in &self.0 {
            n += w.count_ones();
            if n > 1 {
                return false;
            }
        }
        n == 1
    }
    #[inline(always)]
    fn or(&mut self, o: &Bits) {
        for i in 0..LIB_WORDS {
            self.0[i] |= o.0[i];
        }
    }
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    None
                } else {
                    let b = w.trailing_zeros() as usize;
                    w &= w - 1;
                    Some(i * 64 + b)
                }
            })
        })
    }
}

/// Size of the counting filter in front of the superko history.
const FILTER: usize = 2048;

/// Why a Go move is not legal, for the player: the window says which.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    OffBoard,
    Occupied,
    /// The stone would have no liberty and capture nothing.
    Suicide,
    /// The stone would repeat an earlier whole-board position (ko, superko).
    Ko,
    GameOver,
}

/// A Go position: board, chains, side to move, captures, passes and the whole-board history
/// that positional superko needs.
#[derive(Clone)]
pub struct Go {
    size: u8,
    komi: f32,
    color: [u8; POINTS],
    /// Head (representative stone) of the chain of each stone.
    head: [u16; POINTS],
    /// Next stone of the same chain (a circular list).
    next: [u16; POINTS],
    /// Stones of the chain, kept at its head.
    chain_len: [u16; POINTS],
    /// Liberties of the chain, kept at its head.
    libs: [Bits; POINTS],
    side: Side,
    /// Passes just played in a row.
    passes: u8,
    /// Stones each side has captured.
    captures: [u32; 2],
    stones: [u32; 2],
    /// Zobrist key of the stones alone (the superko key).
    board_hash: u64,
    /// Board keys of every position of the game so far, the current one last.
    history: Vec<u64>,
    /// Counting filter over `history` (two slots per key, saturating), to skip most searches.
    filter: [u8; FILTER],
    /// Stones taken by captures, most recent last, for unmake.
    captured: Vec<u16>,
    resigned: Option<Side>,
}

/// What [`Go::make`] returns for [`Go::unmake`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoUndo {
    mv: Move,
    passes: u8,
    captured: u16,
}

impl PartialEq for Go {
    fn eq(&self, o: &Go) -> bool {
        self.size == o.size
            && self.komi == o.komi
            && self.color == o.color
            && self.side == o.side
            && self.passes == o.passes
            && self.captures == o.captures
            && self.history == o.history
            && self.resigned == o.resigned
    }
}

impl fmt::Debug for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Go({})", self.to_text())
    }
}

/// The GTP column letters: `A`..`T` without `I`.
const COLUMNS: &[u8; 19] = b"ABCDEFGHJKLMNOPQRST";

/// Reads a GTP vertex (`D4`, `q16`) on a board of `size`; `pass` is not a vertex.
pub fn parse_vertex(text: &str, size: u8) -> Result<Square, ParseError> {
    let t = text.trim();
    let mut chars = t.chars();
    let c = chars
        .next()
        .ok_or_else(|| ParseError::new("empty point name"))?
        .to_ascii_uppercase();
    if c == 'I' {
        return Err(ParseError::new(format!(
            "'{t}' is not a point: Go columns skip the letter I"
        )));
    }
    let x = COLUMNS
        .iter()
        .position(|&b| b as char == c)
        .ok_or_else(|| {
            ParseError::new(format!(
                "'{t}' is not a point: it must start with a column letter A-T (no I)"
            ))
        })?;
    let rank = chars.as_str();
    if rank.is_empty() || rank.len() > 2 || !rank.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError::new(format!(
            "'{t}' is not a point: a row number must follow the column"
        )));
    }
    let r: usize = rank
        .parse()
        .map_err(|_| ParseError::new(format!("'{t}' has a bad row")))?;
    if x >= size as usize || r == 0 || r > size as usize {
        return Err(ParseError::new(format!(
            "'{t}' is off the {size}x{size} board"
        )));
    }
    Ok(Square::new(x as u8, (r - 1) as u8))
}

/// Writes a point as a GTP vertex (`D4`).
pub fn vertex_text(sq: Square) -> String {
    format!("{}{}", COLUMNS[sq.x as usize] as char, sq.y as u32 + 1)
}

/// The standard fixed handicap points (GTP's table): boards from 7×7, edge distance 3 below
/// 13×13 and 4 from 13×13 on; 2-4 stones on even sizes and on 7×7, 2-9 on odd sizes from 9×9.
/// The order is lower left, upper right, lower right, upper left, then the centre (5, 7, 9),
/// the sides' middles left and right (6-9) and bottom and top (8, 9).
pub fn handicap_points(size: u8, n: u8) -> Result<Vec<Square>, ParseError> {
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(ParseError::new(format!("board size {size} is not 5..19")));
    }
    if size < 7 {
        return Err(ParseError::new(format!(
            "no fixed handicap on a {size}x{size} board (7x7 or larger)"
        )));
    }
    let max = if size.is_multiple_of(2) || size == 7 {
        4
    } else {
        9
    };
    if n < 2 || n > max {
        return Err(ParseError::new(format!(
            "a fixed handicap on {size}x{size} is 2 to {max} stones, not {n}"
        )));
    }
    let edge = if size >= 13 { 4 } else { 3 };
    let (lo, hi, mid) = (edge - 1, size - edge, size / 2);
    let s = Square::new;
    let mut v = vec![s(lo, lo), s(hi, hi)];
    if n >= 3 {
        v.push(s(hi, lo));
    }
    if n >= 4 {
        v.push(s(lo, hi));
    }
    if n >= 6 {
        v.push(s(lo, mid));
        v.push(s(hi, mid));
    }
    if n >= 8 {
        v.push(s(mid, lo));
        v.push(s(mid, hi));
    }
    if n % 2 == 1 && n >= 5 {
        v.push(s(mid, mid));
    }
    Ok(v)
}

fn check_size(size: u8) -> Result<(), ParseError> {
    if (MIN_SIZE..=MAX_SIZE).contains(&size) {
        Ok(())
    } else {
        Err(ParseError::new(format!(
            "board size {size} is not between {MIN_SIZE} and {MAX_SIZE}"
        )))
    }
}

fn check_komi(komi: f32) -> Result<(), ParseError> {
    if komi.is_finite() && (komi * 2.0).fract() == 0.0 && komi.abs() <= 1000.0 {
        Ok(())
    } else {
        Err(ParseError::new(format!(
            "komi {komi} is not a whole or half number"
        )))
    }
}

/// Writes komi the short way (`7.5`, `6`, `-3.5`).
pub fn komi_text(komi: f32) -> String {
    if komi.fract() == 0.0 {
        format!("{}", komi as i32)
    } else {
        format!("{komi:.1}")
    }
}

impl Go {
    /// An empty board of `size` (5..=19) with Black to move. Komi must be a whole or half
    /// number.
    pub fn new(size: u8, komi: f32) -> Result<Go, ParseError> {
        check_size(size)?;
        check_komi(komi)?;
        let n = size as usize;
        let mut color = [BORDER; POINTS];
        for y in 0..n {
            for x in 0..n {
                color[(y + 1) * STRIDE + x + 1] = EMPTY;
            }
        }
        let mut filter = [0u8; FILTER];
        Self::filter_add(&mut filter, 0);
        Ok(Go {
            size,
            komi,
            color,
            head: [0; POINTS],
            next: [0; POINTS],
            chain_len: [0; POINTS],
            libs: [Bits::default(); POINTS],
            side: Side::Black,
            passes: 0,
            captures: [0; 2],
            stones: [0; 2],
            board_hash: 0,
            history: vec![0],
            filter,
            captured: Vec::new(),
            resigned: None,
        })
    }

    /// A handicap game: Black's `n` stones on the standard points ([`handicap_points`]), White
    /// to move. Komi is usually [`DEFAULT_HANDICAP_KOMI`].
    pub fn with_handicap(size: u8, n: u8, komi: f32) -> Result<Go, ParseError> {
        let pts = handicap_points(size, n)?;
        let mut g = Go::new(size, komi)?;
        g.set_handicap_stones(&pts)
            .map_err(|e| ParseError::new(e.0))?;
        Ok(g)
    }

    /// Free handicap placement: puts Black stones on `points` of the empty start board and gives
    /// White the move. Fails if a move was played or a stone is already on the board, if a point
    /// repeats or is off the board, or if fewer than two stones are given.
    pub fn set_handicap_stones(&mut self, points: &[Square]) -> Result<(), IllegalMove> {
        if self.history.len() > 1 || self.stones != [0, 0] {
            return Err(IllegalMove(
                "handicap stones go on an empty board before the first move".into(),
            ));
        }
        if points.len() < 2 || points.len() >= (self.size as usize).pow(2) {
            return Err(IllegalMove(format!(
                "a handicap is 2 to {} stones, not {}",
                (self.size as usize).pow(2) - 1,
                points.len()
            )));
        }
        let stones: Vec<(Side, Square)> = points.iter().map(|&p| (Side::Black, p)).collect();
        let g = Go::from_setup(self.size, self.komi, &stones, Side::White)
            .map_err(|e| IllegalMove(e.0))?;
        *self = g;
        Ok(())
    }

    /// A position from setup stones (SGF `AB`/`AW`, GTP handicap): no history before it. Fails on
    /// a point off the board, a point given twice, or a chain left without liberties.
    pub fn from_setup(
        size: u8,
        komi: f32,
        stones: &[(Side, Square)],
        to_move: Side,
    ) -> Result<Go, ParseError> {
        let mut g = Go::new(size, komi)?;
        for &(s, sq) in stones {
            if sq.x >= size || sq.y >= size {
                return Err(ParseError::new(format!(
                    "setup stone at ({}, {}) is off the {size}x{size} board",
                    sq.x, sq.y
                )));
            }
            let p = Self::point_of(sq);
            if g.color[p] != EMPTY {
                return Err(ParseError::new(format!(
                    "setup puts two stones on {}",
                    vertex_text(sq)
                )));
            }
            g.color[p] = stone(s);
        }
        g.side = to_move;
        g.rebuild_all();
        for p in g.points() {
            if g.color[p] != EMPTY && g.libs[g.head[p] as usize].is_empty() {
                return Err(ParseError::new(format!(
                    "setup leaves the chain at {} without liberties",
                    vertex_text(Self::square_of(p as Move).unwrap())
                )));
            }
        }
        g.history = vec![g.board_hash];
        g.filter = [0; FILTER];
        Self::filter_add(&mut g.filter, g.board_hash);
        Ok(g)
    }

    /// Recomputes chains, counts and the board hash from `color`.
    fn rebuild_all(&mut self) {
        self.stones = [0, 0];
        self.board_hash = 0;
        let mut done = Bits::default();
        for p in self.points() {
            let c = self.color[p];
            if c == EMPTY {
                continue;
            }
            let s = if c == 1 { Side::Black } else { Side::White };
            self.stones[s.index()] += 1;
            self.board_hash ^= stone_key(s, p);
            if !done.has(p) {
                self.rebuild_chain(p, &mut done);
            }
        }
    }

    pub fn size(&self) -> u8 {
        self.size
    }

    pub fn komi(&self) -> f32 {
        self.komi
    }

    /// Changes komi (GTP `komi`); it must be a whole or half number.
    pub fn set_komi(&mut self, komi: f32) -> Result<(), ParseError> {
        check_komi(komi)?;
        self.komi = komi;
        Ok(())
    }

    /// Stones captured by each side so far, `[by black, by white]`.
    pub fn captures(&self) -> [u32; 2] {
        self.captures
    }

    /// Passes just played in a row.
    pub fn consecutive_passes(&self) -> u8 {
        self.passes
    }

    /// Number of positions in the game's history (1 at the start, +1 per move or pass).
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// The Zobrist key of the stones alone, which positional superko compares.
    pub fn board_hash(&self) -> u64 {
        self.board_hash
    }

    /// The board key computed from nothing (the incremental one always equals it).
    pub fn compute_board_hash(&self) -> u64 {
        let mut h = 0;
        for p in self.points() {
            match self.color[p] {
                1 => h ^= stone_key(Side::Black, p),
                2 => h ^= stone_key(Side::White, p),
                _ => {}
            }
        }
        h
    }

    /// Marks the game as resigned by `side`: [`Game::outcome`] then reports the other side's
    /// win (`B+R`/`W+R`) and no move is legal. [`Go::clear_resignation`] takes it back.
    pub fn resign(&mut self, side: Side) {
        self.resigned = Some(side);
    }

    pub fn clear_resignation(&mut self) {
        self.resigned = None;
    }

    pub fn resigned(&self) -> Option<Side> {
        self.resigned
    }

    /// Whether the game is over: two passes in a row, or a resignation.
    pub fn is_over(&self) -> bool {
        self.passes >= 2 || self.resigned.is_some()
    }

    /// Goes on after two passes (a disputed end, or a record that plays on): the pass count
    /// starts again. A resignation stays.
    pub fn resume(&mut self) {
        self.passes = 0;
    }

    /// Gives the move to `side` without a move being played (GTP lets either colour play;
    /// SGF's `PL`). The superko history is about stones only and stays as it is.
    pub fn set_to_move(&mut self, side: Side) {
        self.side = side;
    }

    /// The point index of a square (no bounds check against the board size).
    #[inline]
    pub fn point_of(sq: Square) -> usize {
        (sq.y as usize + 1) * STRIDE + sq.x as usize + 1
    }

    /// The move that plays on `sq`.
    #[inline]
    pub fn move_at(sq: Square) -> Move {
        Self::point_of(sq) as Move
    }

    /// The square of a point move; `None` for [`PASS`].
    #[inline]
    pub fn square_of(mv: Move) -> Option<Square> {
        if mv == PASS {
            return None;
        }
        let p = mv as usize;
        Some(Square::new((p % STRIDE - 1) as u8, (p / STRIDE - 1) as u8))
    }

    /// Every on-board point index, row by row from the bottom.
    pub fn points(&self) -> impl Iterator<Item = usize> + use<> {
        let n = self.size as usize;
        (0..n).flat_map(move |y| (0..n).map(move |x| (y + 1) * STRIDE + x + 1))
    }

    /// The stone on a point index, `None` when empty or off the board.
    #[inline]
    pub fn stone_at(&self, p: usize) -> Option<Side> {
        match self.color[p] {
            1 => Some(Side::Black),
            2 => Some(Side::White),
            _ => None,
        }
    }

    /// The colour code of every point (0 empty, 1 Black, 2 White, 3 border), for the shapes
    /// both Go boards share ([`shape`]).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) fn colors(&self) -> &[u8; POINTS] {
        &self.color
    }

    /// Whether a point index is on the board and empty.
    #[inline]
    pub fn is_empty_point(&self, p: usize) -> bool {
        self.color[p] == EMPTY
    }

    /// Whether a point index is on the board.
    #[inline]
    pub fn on_board(&self, p: usize) -> bool {
        p < POINTS && self.color[p] != BORDER
    }

    /// Liberties of the chain on point `p` (0 for an empty point).
    #[inline]
    pub fn liberties(&self, p: usize) -> u32 {
        if self.stone_at(p).is_none() {
            0
        } else {
            self.libs[self.head[p] as usize].count()
        }
    }

    /// Whether the chain on `p` has exactly one liberty.
    #[inline]
    pub fn in_atari(&self, p: usize) -> bool {
        self.stone_at(p).is_some() && self.libs[self.head[p] as usize].is_single()
    }

    /// The liberty points of the chain on `p`.
    pub fn liberty_points(&self, p: usize) -> Vec<usize> {
        if self.stone_at(p).is_none() {
            return Vec::new();
        }
        self.libs[self.head[p] as usize].iter().collect()
    }

    /// The head (identity) of the chain on `p`; equal heads mean the same chain.
    #[inline]
    pub fn chain_id(&self, p: usize) -> usize {
        self.head[p] as usize
    }

    /// Stones of the chain on `p`.
    #[inline]
    pub fn chain_size(&self, p: usize) -> u32 {
        if self.stone_at(p).is_none() {
            0
        } else {
            self.chain_len[self.head[p] as usize] as u32
        }
    }

    /// The stones of the chain on `p` (point indices).
    pub fn chain_points(&self, p: usize) -> Vec<usize> {
        let mut v = Vec::new();
        if self.stone_at(p).is_none() {
            return v;
        }
        let mut s = p;
        loop {
            v.push(s);
            s = self.next[s] as usize;
            if s == p {
                break;
            }
        }
        v
    }

    /// The stones of the chain on `sq`.
    pub fn chain_at(&self, sq: Square) -> Vec<Square> {
        if sq.x >= self.size || sq.y >= self.size {
            return Vec::new();
        }
        self.chain_points(Self::point_of(sq))
            .into_iter()
            .filter_map(|p| Self::square_of(p as Move))
            .collect()
    }

    #[inline(always)]
    fn filter_slots(h: u64) -> (usize, usize) {
        (
            (h as usize) & (FILTER - 1),
            ((h >> 32) as usize) & (FILTER - 1),
        )
    }

    fn filter_add(filter: &mut [u8; FILTER], h: u64) {
        let (a, b) = Self::filter_slots(h);
        filter[a] = filter[a].saturating_add(1);
        filter[b] = filter[b].saturating_add(1);
    }

    fn filter_remove(filter: &mut [u8; FILTER], h: u64) {
        let (a, b) = Self::filter_slots(h);
        for i in [a, b] {
            // a saturated slot has lost its count: it stays "maybe" for good
            if filter[i] != u8::MAX {
                filter[i] -= 1;
            }
        }
    }

    /// Whether the board key `h` belongs to a position earlier in this game.
    #[inline]
    pub fn seen_before(&self, h: u64) -> bool {
        let (a, b) = Self::filter_slots(h);
        if self.filter[a] == 0 || self.filter[b] == 0 {
            return false;
        }
        self.history.contains(&h)
    }

    /// Whether a stone of the side to move on point `p` is legal: empty on-board point, not
    /// suicide, not a superko repetition. Ignores whether the game is over.
    #[inline]
    pub fn is_legal_point(&self, p: usize) -> bool {
        if p >= POINTS || self.color[p] != EMPTY {
            return false;
        }
        let me = stone(self.side);
        let mut free = false;
        let mut new_hash = self.board_hash ^ stone_key(self.side, p);
        let mut taken = [usize::MAX; 4];
        let mut captures = false;
        for (i, q) in neighbors(p).into_iter().enumerate() {
            let c = self.color[q];
            if c == EMPTY {
                free = true;
            } else if c == me {
                if !self.libs[self.head[q] as usize].is_single() {
                    free = true;
                }
            } else if c != BORDER {
                let h = self.head[q] as usize;
                if self.libs[h].is_single() && !taken.contains(&h) {
                    taken[i] = h;
                    captures = true;
                    let opp = self.side.other();
                    let mut s = h;
                    loop {
                        new_hash ^= stone_key(opp, s);
                        s = self.next[s] as usize;
                        if s == h {
                            break;
                        }
                    }
                }
            }
        }
        if !free && !captures {
            return false;
        }
        !self.seen_before(new_hash)
    }

    /// Why a stone of the side to move may not go on `sq`, or `None` when it may.
    pub fn why_illegal(&self, sq: Square) -> Option<Illegal> {
        if sq.x >= self.size || sq.y >= self.size {
            return Some(Illegal::OffBoard);
        }
        if self.is_over() {
            return Some(Illegal::GameOver);
        }
        let p = Self::point_of(sq);
        if self.color[p] != EMPTY {
            return Some(Illegal::Occupied);
        }
        if self.is_legal_point(p) {
            return None;
        }
        // An empty point that is not legal: a repetition if the stone would live (it captures,
        // or it has a liberty of its own or through a friendly chain), else suicide.
        let me = stone(self.side);
        let lives = self.capture_count(p) > 0
            || neighbors(p).into_iter().any(|q| {
                self.color[q] == EMPTY
                    || (self.color[q] == me && !self.libs[self.head[q] as usize].is_single())
            });
        Some(if lives { Illegal::Ko } else { Illegal::Suicide })
    }

    /// The points the side to move may not take because the stone would repeat an earlier
    /// position (the ko point after a single-stone capture), for marking on the board.
    pub fn ko_points(&self) -> Vec<Square> {
        if self.is_over() {
            return Vec::new();
        }
        self.points()
            .filter(|&p| {
                self.color[p] == EMPTY && self.capture_count(p) > 0 && !self.is_legal_point(p)
            })
            .filter_map(|p| Self::square_of(p as Move))
            .collect()
    }

    /// Whether the stone on `p` would capture anything (and how many stones).
    pub fn capture_count(&self, p: usize) -> u32 {
        if p >= POINTS || self.color[p] != EMPTY {
            return 0;
        }
        let opp = stone(self.side.other());
        let mut taken = [usize::MAX; 4];
        let mut n = 0;
        for (i, q) in neighbors(p).into_iter().enumerate() {
            if self.color[q] == opp {
                let h = self.head[q] as usize;
                if self.libs[h].is_single() && !taken.contains(&h) {
                    taken[i] = h;
                    n += self.chain_len[h] as u32;
                }
            }
        }
        n
    }

    /// Merges chain `b` into chain `a` (or the other way round, the bigger one stays).
    fn merge(&mut self, a: usize, b: usize) -> usize {
        let (keep, gone) = if self.chain_len[a] >= self.chain_len[b] {
            (a, b)
        } else {
            (b, a)
        };
        shape::splice_chains(&mut self.head, &mut self.next, keep, gone);
        self.chain_len[keep] += self.chain_len[gone];
        let lb = self.libs[gone];
        self.libs[keep].or(&lb);
        keep
    }

    /// Removes the chain with head `h` (of side `opp`) and returns its size.
    fn remove_chain(&mut self, h: usize, opp: Side) -> u16 {
        let mut s = h;
        let mut n = 0;
        loop {
            self.color[s] = EMPTY;
            self.board_hash ^= stone_key(opp, s);
            self.captured.push(s as u16);
            n += 1;
            s = self.next[s] as usize;
            if s == h {
                break;
            }
        }
        self.stones[opp.index()] -= n as u32;
        // the freed points become liberties of the chains around them
        loop {
            for q in neighbors(s) {
                if self.color[q] == 1 || self.color[q] == 2 {
                    let hq = self.head[q] as usize;
                    self.libs[hq].set(s);
                }
            }
            s = self.next[s] as usize;
            if s == h {
                break;
            }
        }
        n
    }

    /// Rebuilds the chain through stone `start` by flood fill, marking its stones in `done`.
    fn rebuild_chain(&mut self, start: usize, done: &mut Bits) {
        let c = self.color[start];
        let mut stack = [0u16; 400];
        let mut top = 0;
        let mut members = [0u16; 400];
        let mut n = 0;
        let mut libs = Bits::default();
        stack[top] = start as u16;
        top += 1;
        done.set(start);
        while top > 0 {
            top -= 1;
            let s = stack[top] as usize;
            members[n] = s as u16;
            n += 1;
            for q in neighbors(s) {
                let cq = self.color[q];
                if cq == EMPTY {
                    libs.set(q);
                } else if cq == c && !done.has(q) {
                    done.set(q);
                    stack[top] = q as u16;
                    top += 1;
                }
            }
        }
        for i in 0..n {
            let s = members[i] as usize;
            self.head[s] = start as u16;
            self.next[s] = members[(i + 1) % n];
        }
        self.chain_len[start] = n as u16;
        self.libs[start] = libs;
    }

    fn push_history(&mut self) {
        self.history.push(self.board_hash);
        Self::filter_add(&mut self.filter, self.board_hash);
    }

    /// Checks every invariant from scratch (chains, liberties, counts, hash); for tests.
    pub fn check_consistency(&self) -> Result<(), String> {
        if self.board_hash != self.compute_board_hash() {
            return Err("board hash differs from a fresh one".into());
        }
        if self.history.last() != Some(&self.board_hash) {
            return Err("history does not end with the current board".into());
        }
        let mut fresh = self.clone();
        fresh.rebuild_all();
        if fresh.stones != self.stones {
            return Err(format!(
                "stone counts {:?} vs {:?}",
                self.stones, fresh.stones
            ));
        }
        for p in self.points() {
            if self.color[p] == EMPTY {
                continue;
            }
            let mine: std::collections::BTreeSet<usize> =
                self.chain_points(p).into_iter().collect();
            let theirs: std::collections::BTreeSet<usize> =
                fresh.chain_points(p).into_iter().collect();
            if mine != theirs {
                return Err(format!("chain at {p} differs"));
            }
            if self.chain_len[self.head[p] as usize] as usize != mine.len() {
                return Err(format!("chain length at {p} is wrong"));
            }
            if self.libs[self.head[p] as usize] != fresh.libs[fresh.head[p] as usize] {
                return Err(format!("liberties of the chain at {p} differ"));
            }
            if self.libs[self.head[p] as usize].is_empty() {
                return Err(format!("the chain at {p} has no liberty"));
            }
        }
        Ok(())
    }

    /// An ASCII diagram with coordinates (GTP `showboard`).
    pub fn diagram(&self) -> String {
        let n = self.size as usize;
        let letters: String = COLUMNS[..n]
            .iter()
            .map(|&c| format!(" {}", c as char))
            .collect();
        let mut s = format!("  {letters}\n");
        for y in (0..n).rev() {
            s.push_str(&format!("{:>2}", y + 1));
            for x in 0..n {
                let p = (y + 1) * STRIDE + x + 1;
                s.push(' ');
                s.push(match self.color[p] {
                    1 => 'X',
                    2 => 'O',
                    _ => '.',
                });
            }
            s.push_str(&format!(" {}\n", y + 1));
        }
        s.push_str(&format!("  {letters}\n"));
        s.push_str(&format!(
            "{} to move, captures black {} white {}, komi {}",
            if self.side == Side::Black {
                "Black"
            } else {
                "White"
            },
            self.captures[0],
            self.captures[1],
            komi_text(self.komi)
        ));
        s
    }
}

impl Game for Go {
    type Move = Move;
    type Undo = GoUndo;
    const KIND: GameKind = GameKind::Go;

    fn start() -> Go {
        Go::new(19, DEFAULT_KOMI).expect("19x19 with komi 7.5 is valid")
    }

    fn dimensions(&self) -> (u8, u8) {
        (self.size, self.size)
    }

    fn cell(&self, sq: Square) -> Cell {
        if sq.x >= self.size || sq.y >= self.size {
            return Cell::Blocked;
        }
        match self.stone_at(Self::point_of(sq)) {
            Some(s) => Cell::Piece(s),
            None => Cell::Empty,
        }
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.is_over() {
            return;
        }
        for p in self.points() {
            if self.is_legal_point(p) {
                out.push(p as Move);
            }
        }
        out.push(PASS);
    }

    fn is_legal(&self, mv: Move) -> bool {
        if self.is_over() {
            return false;
        }
        mv == PASS || self.is_legal_point(mv as usize)
    }

    fn make(&mut self, mv: Move) -> GoUndo {
        let undo = GoUndo {
            mv,
            passes: self.passes,
            captured: 0,
        };
        if mv == PASS {
            self.passes += 1;
            self.side = self.side.other();
            self.push_history();
            return undo;
        }
        let p = mv as usize;
        let me = self.side;
        let opp = me.other();
        let (cm, co) = (stone(me), stone(opp));
        self.color[p] = cm;
        self.head[p] = p as u16;
        self.next[p] = p as u16;
        self.chain_len[p] = 1;
        let mut libs = Bits::default();
        for q in neighbors(p) {
            if self.color[q] == EMPTY {
                libs.set(q);
            }
        }
        self.libs[p] = libs;
        self.board_hash ^= stone_key(me, p);
        self.stones[me.index()] += 1;
        let mut h = p;
        for q in neighbors(p) {
            if self.color[q] == cm {
                let hq = self.head[q] as usize;
                if hq != h {
                    h = self.merge(h, hq);
                }
            }
        }
        self.libs[h].clear(p);
        let mut taken = 0u16;
        for q in neighbors(p) {
            if self.color[q] == co {
                let hq = self.head[q] as usize;
                self.libs[hq].clear(p);
                if self.libs[hq].is_empty() {
                    taken += self.remove_chain(hq, opp);
                }
            }
        }
        self.captures[me.index()] += taken as u32;
        self.passes = 0;
        self.side = opp;
        self.push_history();
        GoUndo {
            captured: taken,
            ..undo
        }
    }

    fn unmake(&mut self, undo: GoUndo) {
        let h = self.history.pop().expect("unmake without a move");
        Self::filter_remove(&mut self.filter, h);
        self.side = self.side.other();
        self.passes = undo.passes;
        if undo.mv == PASS {
            return;
        }
        let p = undo.mv as usize;
        let me = self.side;
        let opp = me.other();
        let (cm, co) = (stone(me), stone(opp));
        self.color[p] = EMPTY;
        self.board_hash ^= stone_key(me, p);
        self.stones[me.index()] -= 1;
        let n = undo.captured as usize;
        let from = self.captured.len() - n;
        for i in from..self.captured.len() {
            let s = self.captured[i] as usize;
            self.color[s] = co;
            self.board_hash ^= stone_key(opp, s);
        }
        self.stones[opp.index()] += n as u32;
        self.captures[me.index()] -= n as u32;
        let mut done = Bits::default();
        for q in neighbors(p) {
            if self.color[q] == cm && !done.has(q) {
                self.rebuild_chain(q, &mut done);
            }
        }
        for i in from..self.captured.len() {
            let s = self.captured[i] as usize;
            if !done.has(s) {
                self.rebuild_chain(s, &mut done);
            }
        }
        for q in neighbors(p) {
            if self.color[q] == co {
                let hq = self.head[q] as usize;
                self.libs[hq].set(p);
            }
        }
        for i in from..self.captured.len() {
            let s = self.captured[i] as usize;
            for q in neighbors(s) {
                if self.color[q] == cm {
                    let hq = self.head[q] as usize;
                    self.libs[hq].clear(s);
                }
            }
        }
        self.captured.truncate(from);
    }

    fn pass_move(&self) -> Option<Move> {
        Some(PASS)
    }

    /// A resignation gives the other side the win; after two passes the area score with every
    /// stone on the board counted alive decides (the app scores with dead stones through
    /// [`Go::score_with_dead`]).
    fn outcome(&self) -> Option<Outcome> {
        if let Some(s) = self.resigned {
            return Some(Outcome::Win(s.other()));
        }
        if self.passes >= 2 {
            return Some(self.area_score().outcome());
        }
        None
    }

    fn piece_counts(&self) -> [u32; 2] {
        self.stones
    }

    fn hash(&self) -> u64 {
        if self.side == Side::White {
            self.board_hash ^ SIDE_KEY
        } else {
            self.board_hash
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("pass") {
            return Ok(PASS);
        }
        Ok(Self::move_at(parse_vertex(t, self.size)?))
    }

    fn move_to_text(&self, mv: Move) -> String {
        match Self::square_of(mv) {
            None => "pass".to_string(),
            Some(sq) => vertex_text(sq),
        }
    }

    fn from_text(text: &str) -> Result<Go, ParseError> {
        let parts: Vec<&str> = text.split_whitespace().collect();
        if parts.len() < 4 {
            return Err(ParseError::new(
                "a Go position is '<size> <komi> <b|w> <rows>' (rows from the top, '/' between)",
            ));
        }
        if parts.len() > 7 {
            return Err(ParseError::new(format!(
                "a Go position has at most 7 fields, this one {}",
                parts.len()
            )));
        }
        let size: u8 = parts[0]
            .parse()
            .map_err(|_| ParseError::new(format!("board size '{}' is not a number", parts[0])))?;
        check_size(size)?;
        let komi: f32 = parts[1]
            .parse()
            .map_err(|_| ParseError::new(format!("komi '{}' is not a number", parts[1])))?;
        let side = match parts[2] {
            "b" | "B" | "x" | "X" => Side::Black,
            "w" | "W" | "o" | "O" => Side::White,
            s => {
                return Err(ParseError::new(format!("side to move '{s}' is not b or w")));
            }
        };
        let rows: Vec<&str> = parts[3].split('/').collect();
        if rows.len() != size as usize {
            return Err(ParseError::new(format!(
                "a {size}x{size} board has {size} rows, this one {}",
                rows.len()
            )));
        }
        let mut stones = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            let y = size as usize - 1 - i;
            if row.chars().count() != size as usize {
                return Err(ParseError::new(format!(
                    "row {} has {} points, not {size}",
                    y + 1,
                    row.chars().count()
                )));
            }
            for (x, ch) in row.chars().enumerate() {
                let sq = Square::new(x as u8, y as u8);
                match ch {
                    'X' | 'x' | 'B' | 'b' => stones.push((Side::Black, sq)),
                    'O' | 'o' | 'W' | 'w' => stones.push((Side::White, sq)),
                    '.' | '-' | '+' => {}
                    other => {
                        return Err(ParseError::new(format!(
                            "point {} has '{other}', not X, O or .",
                            vertex_text(sq)
                        )));
                    }
                }
            }
        }
        let mut g = Go::from_setup(size, komi, &stones, side)?;
        let num = |i: usize, what: &str| -> Result<u32, ParseError> {
            match parts.get(i) {
                None => Ok(0),
                Some(t) => t
                    .parse()
                    .map_err(|_| ParseError::new(format!("{what} '{t}' is not a number"))),
            }
        };
        g.captures = [num(4, "black captures")?, num(5, "white captures")?];
        let passes = num(6, "passes")?;
        if passes > 2 {
            return Err(ParseError::new(format!("passes {passes} is more than 2")));
        }
        g.passes = passes as u8;
        Ok(g)
    }

    fn to_text(&self) -> String {
        let n = self.size as usize;
        let rows: Vec<String> = (0..n)
            .rev()
            .map(|y| {
                (0..n)
                    .map(|x| match self.color[(y + 1) * STRIDE + x + 1] {
                        1 => 'X',
                        2 => 'O',
                        _ => '.',
                    })
                    .collect()
            })
            .collect();
        format!(
            "{} {} {} {} {} {} {}",
            self.size,
            komi_text(self.komi),
            if self.side == Side::Black { 'b' } else { 'w' },
            rows.join("/"),
            self.captures[0],
            self.captures[1],
            self.passes
        )
    }

    fn move_squares(&self, mv: Move) -> MoveSquares {
        MoveSquares {
            from: None,
            to: Self::square_of(mv),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all(g: &mut Go, moves: &str) {
        for m in moves.split_whitespace() {
            let mv = g.parse_move(m).unwrap();
            g.play(mv).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
    }

    #[test]
    fn vertices() {
        assert_eq!(parse_vertex("A1", 19).unwrap(), Square::new(0, 0));
        assert_eq!(parse_vertex("j10", 19).unwrap(), Square::new(8, 9));
        assert_eq!(parse_vertex("T19", 19).unwrap(), Square::new(18, 18));
        assert!(parse_vertex("I5", 19).is_err());
        assert!(parse_vertex("K10", 9).is_err());
        assert!(parse_vertex("A0", 9).is_err());
        assert!(parse_vertex("", 9).is_err());
        assert_eq!(vertex_text(Square::new(8, 9)), "J10");
    }

    #[test]
    fn simple_capture_and_unmake() {
        let mut g = Go::new(9, 7.5).unwrap();
        // white E5 surrounded by D5 F5 E4 E6
        play_all(&mut g, "D5 E5 F5 A1 E4 A2");
        let before = g.clone();
        let mv = g.parse_move("E6").unwrap();
        let u = g.make(mv);
        assert_eq!(g.captures(), [1, 0]);
        assert_eq!(g.cell(Square::new(4, 4)), Cell::Empty);
        g.check_consistency().unwrap();
        g.unmake(u);
        assert_eq!(g, before);
        assert_eq!(g.hash(), before.hash());
        g.check_consistency().unwrap();
    }

    #[test]
    fn text_round_trip() {
        let mut g = Go::new(9, 6.5).unwrap();
        play_all(&mut g, "D5 E5 F5 A1 E4 A2 E6");
        let t = g.to_text();
        let r = Go::from_text(&t).unwrap();
        assert_eq!(r.to_text(), t);
        assert_eq!(r.hash(), g.hash());
        assert!(t.starts_with("9 6.5 w "));
    }
}
