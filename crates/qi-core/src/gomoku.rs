//! Gomoku and Renju on a 15×15 (the default) or 19×19 board, under three rules:
//!
//! - [`GomokuRule::Freestyle`]: a row of five or more stones wins, for either side.
//! - [`GomokuRule::Standard`]: exactly five wins; six or more in a row does not.
//! - [`GomokuRule::Renju`] (Renju International Federation rules): Black may not make a
//!   double-three, a double-four or an overline (six or more); such moves are illegal for Black
//!   (see [`Gomoku::is_forbidden`]). A move that makes an exact five wins for Black even if it also
//!   makes one of those shapes. White has no forbidden moves and wins with five or more.
//!
//! Black moves first. There is no pass. The game is drawn when the board is full, and also (in
//! Renju, where a pass is the only thing Black could do) when Black is to move and every empty
//! point is forbidden for Black.
//!
//! # Renju definitions used
//!
//! Everything is measured on one line through the stone just played (Black's stones only; White
//! stones and the board edge block):
//!
//! - a *five* is exactly five Black stones in a row; six or more is an *overline*;
//! - a *four* is a row that one more stone turns into a five. The empty points that would do it
//!   are counted as separate fours, except that the two ends of a straight four (`.XXXX.`, five
//!   cells apart) are one four. So `X.XXX.X`, `XX.XX.XX` and `XXX.X.XXX` played in the middle
//!   are two fours on one line (a double-four);
//! - a *straight four* is four in a row whose both ends make a five;
//! - a *three* is a row, on a line that holds no four, that one more stone on a point `p` turns
//!   into a straight four, where `p` itself is not forbidden for Black once the stone is played
//!   (checked recursively). A row that cannot become a straight four, because the needed points
//!   are blocked, would make an overline, or are themselves forbidden, is not a three ("false
//!   three"). A line holds at most one three.
//!
//! The checks are, in order: a five (allowed, it wins); an overline; two or more fours
//! (double-four); two or more threes on different lines (double-three). A four and a three
//! together (4×3) are allowed.
//!
//! # Squares, moves and text
//!
//! A [`Move`] is the index `y * 32 + x` of the square where the stone goes (`x` the column from
//! the left, `y` the row from the bottom, both from 0), the same for every board size. Moves are
//! written `h8` (columns `a`.. from the left, rows `1`.. from the bottom; `h8` is the centre of
//! the 15×15 board). [`Gomoku::parse_gomocup`] and [`Gomoku::to_gomocup`] read and write the
//! Gomocup (Piskvork) protocol's `x,y`: both 0-based, `x` the column from the left and `y` the
//! row from the **top** (`0,0` is the top-left corner, `a15` on 15×15).
//!
//! The position text is `<size> <rule> <board> <side>`, for example
//! `15 renju 15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 o` (Black has played `h8`, White to
//! move). `<size>` is 5..=19, `<rule>` is `freestyle`, `standard` or `renju`, `<board>` lists the
//! rows from the top (row `size`) to the bottom (row 1) separated by `/`, each row from column
//! `a`: `x` a black stone, `o` a white one, a number that many empty points (`.` is also read as
//! one empty point). `<side>` is `x` (Black) or `o` (White) to move. The text written is always
//! the compact form above, so it round-trips.
//!
//! ```
//! use qi_core::game::Game;
//! use qi_core::gomoku::{Forbidden, Gomoku, GomokuRule};
//!
//! let mut g = Gomoku::new(15, GomokuRule::Renju);
//! g.play(g.parse_move("h8").unwrap()).unwrap();
//! assert_eq!(g.to_text(), "15 renju 15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 o");
//! assert_eq!(g.to_gomocup(g.parse_move("h8").unwrap()), "7,7");
//!
//! // Black's f8 g8 and h6 h7: h8 would make two open threes.
//! let p = Gomoku::from_text("15 renju 15/15/15/15/15/15/15/5xx8/7x7/7x7/15/15/15/15/o14 x").unwrap();
//! let h8 = p.parse_move("h8").unwrap();
//! assert_eq!(p.is_forbidden(qi_core::gomoku::move_square(h8)), Some(Forbidden::DoubleThree));
//! assert!(!p.is_legal(h8));
//! assert_eq!(p.outcome(), None);
//! ```

use std::fmt;

use crate::game::{
    Cell, Game, GameKind, MoveSquares, Outcome, ParseError, Side, Square, parse_square, square_text,
};
use crate::zobrist;

/// The smallest board side the module handles.
pub const MIN_SIZE: u8 = 5;
/// The largest board side (19×19).
pub const MAX_SIZE: u8 = 19;
/// The usual board side (15×15), [`Game::start`]'s.
pub const DEFAULT_SIZE: u8 = 15;

/// The stride of a [`Move`] index: a move is `y * STRIDE + x`.
pub const STRIDE: u16 = 32;

/// A move: the square `y * 32 + x` where the stone goes. Build one with [`move_at`].
pub type Move = u16;

/// The move that puts a stone on `sq`.
#[inline]
pub const fn move_at(sq: Square) -> Move {
    sq.y as u16 * STRIDE + sq.x as u16
}

/// The square of a move.
#[inline]
pub const fn move_square(mv: Move) -> Square {
    Square::new((mv % STRIDE) as u8, (mv / STRIDE) as u8)
}

/// The rule a game is played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum GomokuRule {
    /// Five or more in a row wins.
    Freestyle,
    /// Exactly five in a row wins; an overline does not.
    Standard,
    /// Renju (RIF): Black's double-three, double-four and overline are forbidden.
    Renju,
}

impl GomokuRule {
    pub const ALL: [GomokuRule; 3] = [
        GomokuRule::Freestyle,
        GomokuRule::Standard,
        GomokuRule::Renju,
    ];

    /// The name used in position text: `freestyle`, `standard`, `renju`.
    pub fn name(self) -> &'static str {
        match self {
            GomokuRule::Freestyle => "freestyle",
            GomokuRule::Standard => "standard",
            GomokuRule::Renju => "renju",
        }
    }

    /// Whether a row of `len` stones of `side` wins under this rule.
    #[inline]
    pub fn wins(self, side: Side, len: u32) -> bool {
        match self {
            GomokuRule::Freestyle => len >= 5,
            GomokuRule::Standard => len == 5,
            GomokuRule::Renju => match side {
                Side::Black => len == 5,
                Side::White => len >= 5,
            },
        }
    }
}

impl fmt::Display for GomokuRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for GomokuRule {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<GomokuRule, ParseError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "freestyle" | "free" => Ok(GomokuRule::Freestyle),
            "standard" | "exact" => Ok(GomokuRule::Standard),
            "renju" => Ok(GomokuRule::Renju),
            other => Err(ParseError::new(format!(
                "unknown Gomoku rule '{other}' (expected freestyle, standard or renju)"
            ))),
        }
    }
}

/// Why a point is forbidden for Black under Renju rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Forbidden {
    DoubleThree,
    DoubleFour,
    Overline,
}

impl fmt::Display for Forbidden {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Forbidden::DoubleThree => "double-three",
            Forbidden::DoubleFour => "double-four",
            Forbidden::Overline => "overline",
        })
    }
}

/// The four line directions as `(dx, dy)`: across, up, up-right, down-right.
pub const DIRECTIONS: [(i8, i8); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Lines per direction on the largest board (its diagonals).
const LINES: usize = 2 * MAX_SIZE as usize - 1;
/// A point at position `p` along its line is bit `p + OFF` of the line's mask, so that the
/// window around it is simply `line >> p`.
const OFF: u32 = 5;
/// The window of 11 cells around a point: offsets -5..=5, the point itself at bit [`C`].
const WINDOW: u32 = 0x7FF;
const C: u32 = 5;
const CENTER: u32 = 1 << C;
/// Offsets -4..=4 in a window.
const NEAR: u32 = 0x3FE;
/// Offsets -4..=4 without the centre.
const NEAR_OTHERS: u32 = NEAR & !CENTER;

const CELLS: usize = MAX_SIZE as usize * STRIDE as usize;
const PIECE_KEYS: [u64; 2 * CELLS] = zobrist::keys::<{ 2 * CELLS }>(0x6030_0001);
const SIDE_KEY: u64 = zobrist::keys::<1>(0x6030_0002)[0];

/// The stones as bit lines in all four directions, for each side, and the empty points: placing
/// a stone sets four bits and clears four.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Board {
    n: u8,
    stones: [[[u32; LINES]; 4]; 2],
    empty: [[u32; LINES]; 4],
}

/// The line of direction `d` through `(x, y)` and the point's position along it.
#[inline(always)]
fn line_pos(n: u8, x: u8, y: u8, d: usize) -> (usize, u32) {
    match d {
        0 => (y as usize, x as u32),
        1 => (x as usize, y as u32),
        2 => (x as usize + n as usize - 1 - y as usize, x as u32),
        _ => (x as usize + y as usize, x as u32),
    }
}

/// The length of the run of stones through the centre of window `o` (its centre bit set).
#[inline(always)]
fn run_c(o: u32) -> u32 {
    (!(o >> C)).trailing_zeros() + (!(o << (31 - C))).leading_zeros() - 1
}

/// The empty points within four of the centre where one more Black stone makes an exact five
/// through the centre: window `o` (Black, centre set), `e` (empty).
#[inline]
fn five_points(o: u32, e: u32) -> u32 {
    let mut m = e & NEAR;
    let mut pts = 0;
    while m != 0 {
        let b = m & m.wrapping_neg();
        m ^= b;
        if run_c(o | b) == 5 {
            pts |= b;
        }
    }
    pts
}

/// How many fours the completion points `pts` of one line make: the two ends of a straight four
/// (five apart) are one four.
#[inline]
fn four_count(pts: u32) -> u32 {
    pts.count_ones() - (pts & (pts >> 5)).count_ones()
}

/// Whether the completion points hold both ends of a straight four.
#[inline]
fn has_straight_four(pts: u32) -> bool {
    pts & (pts >> 5) != 0
}

/// The empty points that turn the centre's row into a straight four (before the recursive check
/// that such a point is not itself forbidden).
#[inline]
fn three_keys(o: u32, e: u32) -> u32 {
    let mut m = e & NEAR;
    let mut keys = 0;
    while m != 0 {
        let b = m & m.wrapping_neg();
        m ^= b;
        if has_straight_four(five_points(o | b, e & !b)) {
            keys |= b;
        }
    }
    keys
}

impl Board {
    fn new(n: u8) -> Board {
        let mut b = Board {
            n,
            stones: [[[0; LINES]; 4]; 2],
            empty: [[0; LINES]; 4],
        };
        for y in 0..n {
            for x in 0..n {
                for d in 0..4 {
                    let (l, p) = line_pos(n, x, y, d);
                    b.empty[d][l] |= 1 << (p + OFF);
                }
            }
        }
        b
    }

    #[inline(always)]
    fn place(&mut self, c: usize, x: u8, y: u8) {
        for d in 0..4 {
            let (l, p) = line_pos(self.n, x, y, d);
            let bit = 1 << (p + OFF);
            self.stones[c][d][l] |= bit;
            self.empty[d][l] &= !bit;
        }
    }

    #[inline(always)]
    fn remove(&mut self, c: usize, x: u8, y: u8) {
        for d in 0..4 {
            let (l, p) = line_pos(self.n, x, y, d);
            let bit = 1 << (p + OFF);
            self.stones[c][d][l] &= !bit;
            self.empty[d][l] |= bit;
        }
    }

    #[inline(always)]
    fn on_board(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.n as i32 && y < self.n as i32
    }

    /// The side whose stone is on `(x, y)` (on the board), if any.
    #[inline(always)]
    fn at(&self, x: u8, y: u8) -> Option<Side> {
        let bit = 1 << (x as u32 + OFF);
        if self.stones[0][0][y as usize] & bit != 0 {
            Some(Side::Black)
        } else if self.stones[1][0][y as usize] & bit != 0 {
            Some(Side::White)
        } else {
            None
        }
    }

    #[inline(always)]
    fn is_empty(&self, x: u8, y: u8) -> bool {
        self.empty[0][y as usize] & (1 << (x as u32 + OFF)) != 0
    }

    /// The 11-cell windows (stones of `c`, empty points) of direction `d` centred on `(x, y)`.
    #[inline(always)]
    fn window(&self, c: usize, x: u8, y: u8, d: usize) -> (u32, u32) {
        let (l, p) = line_pos(self.n, x, y, d);
        (
            (self.stones[c][d][l] >> p) & WINDOW,
            (self.empty[d][l] >> p) & WINDOW,
        )
    }

    /// The run of stones of `c` through `(x, y)` in direction `d`, counting `(x, y)` as one of
    /// them: how many lie before it (against the direction) and the whole length.
    #[inline(always)]
    fn run(&self, c: usize, x: u8, y: u8, d: usize) -> (u32, u32) {
        let (l, p) = line_pos(self.n, x, y, d);
        let b = p + OFF;
        let line = self.stones[c][d][l] | (1 << b);
        let up = (!(line >> b)).trailing_zeros();
        let down = (!(line << (31 - b))).leading_zeros();
        (down - 1, up + down - 1)
    }

    /// Whether a Black stone on `(x, y)` is surely not forbidden, from a count of the Black
    /// stones near it: every forbidden shape needs two lines with at least two other Black
    /// stones within four points, or one line with four (an overline, two fours on one line).
    #[inline]
    fn surely_allowed(&self, x: u8, y: u8) -> bool {
        let mut lines_with_two = 0;
        for d in 0..4 {
            let (l, p) = line_pos(self.n, x, y, d);
            let near = ((self.stones[0][d][l] >> p) & NEAR_OTHERS).count_ones();
            if near >= 4 {
                return false;
            }
            lines_with_two += (near >= 2) as u32;
        }
        lines_with_two < 2
    }

    /// Whether Black may not play on the empty point `(x, y)` under Renju rules, and why. The
    /// board is changed during the recursive three check and restored before returning.
    fn forbidden(&mut self, x: u8, y: u8) -> Option<Forbidden> {
        if self.surely_allowed(x, y) {
            return None;
        }
        let mut o = [0u32; 4];
        let mut e = [0u32; 4];
        for d in 0..4 {
            let (oo, ee) = self.window(0, x, y, d);
            o[d] = oo | CENTER;
            e[d] = ee & !CENTER;
        }
        if o.iter().any(|&w| run_c(w) == 5) {
            return None;
        }
        if o.iter().any(|&w| run_c(w) > 5) {
            return Some(Forbidden::Overline);
        }
        let mut fours = 0;
        let mut keys = [0u32; 4];
        let mut candidate_threes = 0;
        for d in 0..4 {
            let f = four_count(five_points(o[d], e[d]));
            fours += f;
            if f == 0 {
                keys[d] = three_keys(o[d], e[d]);
                candidate_threes += (keys[d] != 0) as u32;
            }
        }
        if fours >= 2 {
            return Some(Forbidden::DoubleFour);
        }
        if candidate_threes < 2 {
            return None;
        }
        // A three is real only if one of its key points is not itself forbidden once this
        // stone stands.
        self.place(0, x, y);
        let mut threes = 0;
        let mut left = candidate_threes;
        for d in 0..4 {
            if keys[d] == 0 {
                continue;
            }
            let (dx, dy) = DIRECTIONS[d];
            let mut m = keys[d];
            while m != 0 {
                let k = m.trailing_zeros() as i32 - C as i32;
                m &= m - 1;
                let px = (x as i32 + k * dx as i32) as u8;
                let py = (y as i32 + k * dy as i32) as u8;
                if self.forbidden(px, py).is_none() {
                    threes += 1;
                    break;
                }
            }
            left -= 1;
            if threes >= 2 || threes + left < 2 {
                break;
            }
        }
        self.remove(0, x, y);
        if threes >= 2 {
            Some(Forbidden::DoubleThree)
        } else {
            None
        }
    }
}

/// A winning row: its first stone (lowest along the direction), direction index into
/// [`DIRECTIONS`] and length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct WinLine {
    x: u8,
    y: u8,
    d: u8,
    len: u8,
}

/// What [`Gomoku::make`] returns: the move and the result before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GomokuUndo {
    mv: Move,
    result: Option<Outcome>,
    line: Option<WinLine>,
}

/// A Gomoku position: board size, rule, stones, side to move, and the result once decided.
#[derive(Clone)]
pub struct Gomoku {
    board: Board,
    rule: GomokuRule,
    side: Side,
    counts: [u16; 2],
    hash: u64,
    result: Option<Outcome>,
    line: Option<WinLine>,
}

impl PartialEq for Gomoku {
    fn eq(&self, other: &Gomoku) -> bool {
        self.board == other.board
            && self.rule == other.rule
            && self.side == other.side
            && self.result == other.result
    }
}

impl fmt::Debug for Gomoku {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Gomoku({})", self.to_text())
    }
}

impl Gomoku {
    /// An empty board of `size` × `size` (15 or 19; any side from 5 to 19 works) under `rule`.
    ///
    /// # Panics
    /// If `size` is outside 5..=19.
    pub fn new(size: u8, rule: GomokuRule) -> Gomoku {
        assert!(
            (MIN_SIZE..=MAX_SIZE).contains(&size),
            "Gomoku board size {size} is outside {MIN_SIZE}..={MAX_SIZE}"
        );
        Gomoku {
            board: Board::new(size),
            rule,
            side: Side::Black,
            counts: [0, 0],
            hash: 0,
            result: None,
            line: None,
        }
    }

    pub fn size(&self) -> u8 {
        self.board.n
    }

    pub fn rule(&self) -> GomokuRule {
        self.rule
    }

    /// Stones on the board, both sides.
    pub fn stone_count(&self) -> u32 {
        self.counts[0] as u32 + self.counts[1] as u32
    }

    /// What the side to move changes in the hash ([`Gomoku::pass_quiet`]).
    #[inline]
    pub fn side_key() -> u64 {
        SIDE_KEY
    }

    /// What a stone of `side` on `mv` changes in the hash (with the side to move passing to
    /// the other side): [`Game::hash`] after the move is the hash before XOR this.
    #[inline]
    pub fn hash_step(side: Side, mv: Move) -> u64 {
        PIECE_KEYS[side.index() * CELLS + mv as usize] ^ SIDE_KEY
    }

    /// [`Game::make`] without looking for a five or a full board: the result stays as it was.
    /// For a search that finds the fives on a board of its own (the Gomoku AI's); `unmake`
    /// takes the move back like any other.
    #[inline]
    pub fn make_quiet(&mut self, mv: Move) -> GomokuUndo {
        let undo = GomokuUndo {
            mv,
            result: self.result,
            line: self.line,
        };
        let (x, y) = ((mv % STRIDE) as u8, (mv / STRIDE) as u8);
        let c = self.side.index();
        self.board.place(c, x, y);
        self.counts[c] += 1;
        self.hash ^= PIECE_KEYS[c * CELLS + mv as usize] ^ SIDE_KEY;
        self.side = self.side.other();
        undo
    }

    /// Hands the move to the other side without a stone (for a search's null move: Gomoku has
    /// no pass). Its own inverse: a second call restores the position.
    #[inline]
    pub fn pass_quiet(&mut self) {
        self.hash ^= SIDE_KEY;
        self.side = self.side.other();
    }

    /// Whether `sq` is on the board.
    pub fn contains(&self, sq: Square) -> bool {
        sq.x < self.board.n && sq.y < self.board.n
    }

    /// The hash computed from nothing (the incremental one must always equal it).
    pub fn compute_hash(&self) -> u64 {
        let mut h = if self.side == Side::White {
            SIDE_KEY
        } else {
            0
        };
        for y in 0..self.board.n {
            for x in 0..self.board.n {
                if let Some(s) = self.board.at(x, y) {
                    h ^= PIECE_KEYS[s.index() * CELLS + move_at(Square::new(x, y)) as usize];
                }
            }
        }
        h
    }

    /// Under Renju rules, whether a Black stone on the empty point `sq` would be forbidden, and
    /// why, whoever is to move (so the app can mark the points). `None` under the other rules,
    /// for occupied points, points off the board and points where the stone makes a five.
    pub fn is_forbidden(&self, sq: Square) -> Option<Forbidden> {
        if self.rule != GomokuRule::Renju || !self.contains(sq) || !self.board.is_empty(sq.x, sq.y)
        {
            return None;
        }
        if self.board.surely_allowed(sq.x, sq.y) {
            return None;
        }
        let mut b = self.board;
        b.forbidden(sq.x, sq.y)
    }

    /// Every forbidden point for Black (Renju only), bottom row first.
    pub fn forbidden_points(&self) -> Vec<(Square, Forbidden)> {
        let mut out = Vec::new();
        if self.rule != GomokuRule::Renju {
            return out;
        }
        let mut scratch = None;
        for y in 0..self.board.n {
            for x in 0..self.board.n {
                if self.board.is_empty(x, y)
                    && !self.board.surely_allowed(x, y)
                    && let Some(f) = scratch.get_or_insert(self.board).forbidden(x, y)
                {
                    out.push((Square::new(x, y), f));
                }
            }
        }
        out
    }

    /// The row that decided the game, from one end to the other: five squares, or more for a
    /// winning overline (Freestyle, and White in Renju). `None` while the game goes on and for a
    /// draw.
    pub fn winning_line(&self) -> Option<Vec<Square>> {
        let w = self.line?;
        let (dx, dy) = DIRECTIONS[w.d as usize];
        Some(
            (0..w.len as i32)
                .map(|k| {
                    Square::new(
                        (w.x as i32 + k * dx as i32) as u8,
                        (w.y as i32 + k * dy as i32) as u8,
                    )
                })
                .collect(),
        )
    }

    /// Reads a Gomocup (Piskvork) `x,y`: 0-based, `x` the column from the left, `y` the row
    /// from the top.
    pub fn parse_gomocup(&self, text: &str) -> Result<Move, ParseError> {
        let t = text.trim();
        let (a, b) = t
            .split_once(',')
            .ok_or_else(|| ParseError::new(format!("'{t}' is not a Gomocup move: expected x,y")))?;
        let n = self.board.n as u32;
        let coord = |s: &str, what: &str| -> Result<u32, ParseError> {
            let s = s.trim();
            if s.is_empty() || s.len() > 3 || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ParseError::new(format!(
                    "'{t}' is not a Gomocup move: {what} must be a number"
                )));
            }
            let v: u32 = s
                .parse()
                .map_err(|_| ParseError::new(format!("'{t}' has a bad {what}")))?;
            if v >= n {
                return Err(ParseError::new(format!(
                    "'{t}' is off the {n}x{n} board ({what} must be below {n})"
                )));
            }
            Ok(v)
        };
        let x = coord(a, "x")?;
        let y = coord(b, "y")?;
        Ok(move_at(Square::new(x as u8, (n - 1 - y) as u8)))
    }

    /// Writes a move as Gomocup's `x,y` (0-based, `y` from the top).
    pub fn to_gomocup(&self, mv: Move) -> String {
        let sq = move_square(mv);
        format!("{},{}", sq.x, self.board.n as i32 - 1 - sq.y as i32)
    }

    /// Whether `mv` names an empty point of this board.
    #[inline]
    fn is_open(&self, mv: Move) -> bool {
        let sq = move_square(mv);
        mv < STRIDE * STRIDE && self.contains(sq) && self.board.is_empty(sq.x, sq.y)
    }

    /// The winning row through the stone of `side` on `(x, y)`, if that stone completes one.
    fn win_through(&self, side: Side, x: u8, y: u8) -> Option<WinLine> {
        for (d, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
            let (before, len) = self.board.run(side.index(), x, y, d);
            if self.rule.wins(side, len) {
                return Some(WinLine {
                    x: (x as i32 - before as i32 * dx as i32) as u8,
                    y: (y as i32 - before as i32 * dy as i32) as u8,
                    d: d as u8,
                    len: len as u8,
                });
            }
        }
        None
    }

    /// Under Renju, Black to move, whether some empty point is not forbidden.
    fn black_can_move(&self) -> bool {
        let mut scratch = None;
        for y in 0..self.board.n {
            for x in 0..self.board.n {
                if self.board.is_empty(x, y)
                    && (self.board.surely_allowed(x, y)
                        || scratch.get_or_insert(self.board).forbidden(x, y).is_none())
                {
                    return true;
                }
            }
        }
        false
    }

    /// Sets the result from the whole board (after reading a position).
    fn settle(&mut self) -> Result<(), ParseError> {
        let n = self.board.n;
        let mut found: [Option<WinLine>; 2] = [None, None];
        for side in Side::BOTH {
            'search: for y in 0..n {
                for x in 0..n {
                    if self.board.at(x, y) != Some(side) {
                        continue;
                    }
                    for (d, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
                        let (px, py) = (x as i32 - dx as i32, y as i32 - dy as i32);
                        if self.board.on_board(px, py)
                            && self.board.at(px as u8, py as u8) == Some(side)
                        {
                            continue; // not the start of its run
                        }
                        let (_, len) = self.board.run(side.index(), x, y, d);
                        if self.rule.wins(side, len) {
                            found[side.index()] = Some(WinLine {
                                x,
                                y,
                                d: d as u8,
                                len: len as u8,
                            });
                            break 'search;
                        }
                    }
                }
            }
        }
        match found {
            [Some(_), Some(_)] => {
                return Err(ParseError::new(
                    "both Black and White have a winning row of five",
                ));
            }
            [None, None] => {
                self.result = None;
                self.line = None;
                if self.stone_count() == n as u32 * n as u32 {
                    self.result = Some(Outcome::Draw);
                }
            }
            _ => {
                let winner = if found[0].is_some() {
                    Side::Black
                } else {
                    Side::White
                };
                if winner == self.side {
                    return Err(ParseError::new(format!(
                        "{winner:?} has already won but is to move"
                    )));
                }
                self.result = Some(Outcome::Win(winner));
                self.line = found[winner.index()];
            }
        }
        Ok(())
    }
}

fn parse_side(s: &str) -> Result<Side, ParseError> {
    match s.to_ascii_lowercase().as_str() {
        "x" | "b" | "black" => Ok(Side::Black),
        "o" | "w" | "white" => Ok(Side::White),
        other => Err(ParseError::new(format!(
            "side to move '{other}' is not x (Black) or o (White)"
        ))),
    }
}

impl Game for Gomoku {
    type Move = Move;
    type Undo = GomokuUndo;
    const KIND: GameKind = GameKind::Gomoku;

    /// An empty 15×15 board, Freestyle rule.
    fn start() -> Gomoku {
        Gomoku::new(DEFAULT_SIZE, GomokuRule::Freestyle)
    }

    fn dimensions(&self) -> (u8, u8) {
        (self.board.n, self.board.n)
    }

    fn cell(&self, sq: Square) -> Cell {
        if !self.contains(sq) {
            return Cell::Blocked;
        }
        match self.board.at(sq.x, sq.y) {
            Some(s) => Cell::Piece(s),
            None => Cell::Empty,
        }
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.result.is_some() {
            return;
        }
        let renju_black = self.rule == GomokuRule::Renju && self.side == Side::Black;
        let mut scratch = None;
        for y in 0..self.board.n {
            let mut row = self.board.empty[0][y as usize] >> OFF;
            while row != 0 {
                let x = row.trailing_zeros() as u8;
                row &= row - 1;
                if !renju_black
                    || self.board.surely_allowed(x, y)
                    || scratch.get_or_insert(self.board).forbidden(x, y).is_none()
                {
                    out.push(y as u16 * STRIDE + x as u16);
                }
            }
        }
    }

    fn count_moves(&self) -> u64 {
        if self.result.is_some() {
            return 0;
        }
        if self.rule == GomokuRule::Renju && self.side == Side::Black {
            let mut v = Vec::new();
            self.legal_moves(&mut v);
            return v.len() as u64;
        }
        let n = self.board.n as u64;
        n * n - self.stone_count() as u64
    }

    fn is_legal(&self, mv: Move) -> bool {
        if self.result.is_some() || !self.is_open(mv) {
            return false;
        }
        if self.rule == GomokuRule::Renju && self.side == Side::Black {
            let sq = move_square(mv);
            return self.is_forbidden(sq).is_none();
        }
        true
    }

    #[inline]
    fn make(&mut self, mv: Move) -> GomokuUndo {
        let undo = GomokuUndo {
            mv,
            result: self.result,
            line: self.line,
        };
        let (x, y) = ((mv % STRIDE) as u8, (mv / STRIDE) as u8);
        let side = self.side;
        let c = side.index();
        self.board.place(c, x, y);
        self.counts[c] += 1;
        self.hash ^= PIECE_KEYS[c * CELLS + mv as usize] ^ SIDE_KEY;
        if let Some(w) = self.win_through(side, x, y) {
            self.result = Some(Outcome::Win(side));
            self.line = Some(w);
        } else if self.stone_count() == self.board.n as u32 * self.board.n as u32 {
            self.result = Some(Outcome::Draw);
        }
        self.side = side.other();
        undo
    }

    #[inline]
    fn unmake(&mut self, undo: GomokuUndo) {
        let (x, y) = ((undo.mv % STRIDE) as u8, (undo.mv / STRIDE) as u8);
        let side = self.side.other();
        let c = side.index();
        self.board.remove(c, x, y);
        self.counts[c] -= 1;
        self.hash ^= PIECE_KEYS[c * CELLS + undo.mv as usize] ^ SIDE_KEY;
        self.side = side;
        self.result = undo.result;
        self.line = undo.line;
    }

    fn pass_move(&self) -> Option<Move> {
        None
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.result.is_some() {
            return self.result;
        }
        if self.rule == GomokuRule::Renju && self.side == Side::Black && !self.black_can_move() {
            return Some(Outcome::Draw);
        }
        None
    }

    fn piece_counts(&self) -> [u32; 2] {
        [self.counts[0] as u32, self.counts[1] as u32]
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        Ok(move_at(parse_square(text, self.board.n, self.board.n)?))
    }

    fn move_to_text(&self, mv: Move) -> String {
        square_text(move_square(mv))
    }

    fn from_text(text: &str) -> Result<Gomoku, ParseError> {
        let mut parts = text.split_whitespace();
        let size_text = parts
            .next()
            .ok_or_else(|| ParseError::new("empty Gomoku position"))?;
        let size: u8 = match size_text.parse::<u32>() {
            Ok(s) if (MIN_SIZE as u32..=MAX_SIZE as u32).contains(&s) => s as u8,
            _ => {
                return Err(ParseError::new(format!(
                    "board size '{size_text}' is not a number from {MIN_SIZE} to {MAX_SIZE}"
                )));
            }
        };
        let rule: GomokuRule = parts
            .next()
            .ok_or_else(|| ParseError::new("the rule (freestyle, standard or renju) is missing"))?
            .parse()?;
        let board = parts
            .next()
            .ok_or_else(|| ParseError::new("the board is missing"))?;
        let side = parse_side(
            parts
                .next()
                .ok_or_else(|| ParseError::new("the side to move (x or o) is missing"))?,
        )?;
        if let Some(extra) = parts.next() {
            return Err(ParseError::new(format!(
                "unexpected '{extra}' after the side to move"
            )));
        }
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != size as usize {
            return Err(ParseError::new(format!(
                "a {size}x{size} board has {size} rows, this one {}",
                rows.len()
            )));
        }
        let mut pos = Gomoku::new(size, rule);
        pos.side = side;
        for (i, row) in rows.iter().enumerate() {
            let y = size - 1 - i as u8;
            let mut x: u32 = 0;
            let mut run: u32 = 0;
            let too_long =
                || ParseError::new(format!("row {} has more than {size} points", y as u32 + 1));
            for ch in row.chars() {
                if let Some(dg) = ch.to_digit(10) {
                    run = run * 10 + dg;
                    if run > size as u32 {
                        return Err(too_long());
                    }
                    continue;
                }
                x += run;
                run = 0;
                let stone = match ch {
                    'x' | 'X' | 'b' | 'B' => Some(Side::Black),
                    'o' | 'O' | 'w' | 'W' => Some(Side::White),
                    '.' | '-' => None,
                    other => {
                        return Err(ParseError::new(format!(
                            "row {} has '{other}', not x, o, . or a number",
                            y as u32 + 1
                        )));
                    }
                };
                if x >= size as u32 {
                    return Err(too_long());
                }
                if let Some(s) = stone {
                    pos.board.place(s.index(), x as u8, y);
                    pos.counts[s.index()] += 1;
                }
                x += 1;
            }
            x += run;
            if x > size as u32 {
                return Err(too_long());
            }
            if x < size as u32 {
                return Err(ParseError::new(format!(
                    "row {} has {x} points, not {size}",
                    y as u32 + 1
                )));
            }
        }
        pos.hash = pos.compute_hash();
        pos.settle()?;
        Ok(pos)
    }

    fn to_text(&self) -> String {
        let n = self.board.n;
        let mut s = format!("{n} {} ", self.rule.name());
        for y in (0..n).rev() {
            let mut gap = 0;
            for x in 0..n {
                match self.board.at(x, y) {
                    None => gap += 1,
                    Some(side) => {
                        if gap > 0 {
                            s.push_str(&gap.to_string());
                            gap = 0;
                        }
                        s.push(if side == Side::Black { 'x' } else { 'o' });
                    }
                }
            }
            if gap > 0 {
                s.push_str(&gap.to_string());
            }
            if y > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(if self.side == Side::Black { 'x' } else { 'o' });
        s
    }

    fn move_squares(&self, mv: Move) -> MoveSquares {
        MoveSquares {
            from: None,
            to: Some(move_square(mv)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The windows of a one-line pattern: `*` the point looked at (a Black stone), `X` Black,
    /// `.` empty, anything else (and everything beyond the pattern) blocked.
    fn pattern(p: &str) -> (u32, u32) {
        let c = p.find('*').expect("pattern needs a *") as i32;
        let (mut o, mut e) = (0, 0);
        for (i, ch) in p.chars().enumerate() {
            let bit = C as i32 + i as i32 - c;
            assert!((0..11).contains(&bit), "pattern too wide");
            match ch {
                'X' | '*' => o |= 1 << bit,
                '.' => e |= 1 << bit,
                _ => {}
            }
        }
        (o, e)
    }

    fn fours(p: &str) -> u32 {
        let (o, e) = pattern(p);
        four_count(five_points(o, e))
    }

    fn has_three_keys(p: &str) -> bool {
        let (o, e) = pattern(p);
        three_keys(o, e) != 0
    }

    #[test]
    fn runs_through_the_centre() {
        assert_eq!(run_c(pattern("*").0), 1);
        assert_eq!(run_c(pattern("XX*XX").0), 5);
        assert_eq!(run_c(pattern("XXXXX*").0), 6);
        assert_eq!(run_c(pattern("*XXXXX").0), 6);
        assert_eq!(run_c(pattern("X.*XX").0), 3);
    }

    #[test]
    fn fours_on_one_line() {
        assert_eq!(fours(".XX*X."), 1, "straight four is one four");
        assert_eq!(fours("oXX*X."), 1);
        assert_eq!(fours("X.X*X.X"), 2);
        assert_eq!(fours("XX.*X.XX"), 2);
        assert_eq!(fours("XXX.*.XXX"), 2);
        assert_eq!(fours("XX*.XXX"), 0, "filling the gap is an overline");
        assert_eq!(fours(".X.*X."), 0);
        assert_eq!(fours("X.XX*X.X"), 0, "both gaps make six");
    }

    #[test]
    fn three_shapes() {
        assert!(has_three_keys("..X*X.."));
        assert!(has_three_keys(".X.*X.."));
        assert!(has_three_keys("..*.XX.."));
        assert!(!has_three_keys("oX*X.o"), "no room for a straight four");
        assert!(!has_three_keys("oX*X..o"));
        assert!(has_three_keys("o.X*X..o"));
        assert!(
            !has_three_keys("X..X*X..X"),
            "every straight four would be an overline"
        );
        assert!(has_three_keys("X..X*X..."));
    }

    #[test]
    fn move_indices_and_gomocup() {
        let g = Gomoku::start();
        let h8 = g.parse_move("h8").unwrap();
        assert_eq!(move_square(h8), Square::new(7, 7));
        assert_eq!(g.to_gomocup(h8), "7,7");
        assert_eq!(
            g.parse_gomocup("0,0").unwrap(),
            g.parse_move("a15").unwrap()
        );
        assert_eq!(
            g.parse_gomocup(" 14 , 14 ").unwrap(),
            g.parse_move("o1").unwrap()
        );
        assert_eq!(g.to_gomocup(g.parse_move("a1").unwrap()), "0,14");
        assert!(g.parse_gomocup("15,0").is_err());
        assert!(g.parse_gomocup("-1,0").is_err());
        assert!(g.parse_gomocup("3").is_err());
        assert!(g.parse_gomocup("1,2,3").is_err());
        let big = Gomoku::new(19, GomokuRule::Renju);
        assert_eq!(big.move_to_text(big.parse_gomocup("18,0").unwrap()), "s19");
    }

    #[test]
    fn start_text() {
        let g = Gomoku::start();
        assert_eq!(
            g.to_text(),
            "15 freestyle 15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 x"
        );
        assert_eq!(g.hash(), 0);
        assert_eq!(g.dimensions(), (15, 15));
        assert_eq!(g.count_moves(), 225);
    }

    #[test]
    fn quiet_make_is_make_without_the_result() {
        // the same stones, hash and side as make (the five included, whose result only make
        // sets), and unmake takes it back
        for rule in [GomokuRule::Freestyle, GomokuRule::Renju] {
            let mut g = Gomoku::new(15, rule);
            let mut q = g.clone();
            for t in ["h8", "a1", "i8", "a3", "j8", "a5", "k8", "a7", "l8"] {
                let m = g.parse_move(t).unwrap();
                let before = q.clone();
                let u = q.make_quiet(m);
                g.make(m);
                assert_eq!((q.hash(), q.side_to_move()), (g.hash(), g.side_to_move()));
                assert_eq!(q.hash(), q.compute_hash());
                assert!(q.board == g.board, "{t}");
                assert_eq!(q.outcome(), None, "{t}");
                let mut back = q.clone();
                back.unmake(u);
                assert_eq!(back.to_text(), before.to_text());
                assert_eq!(back.hash(), before.hash());
            }
            assert_eq!(g.outcome(), Some(Outcome::Win(Side::Black)));
        }
    }
}
