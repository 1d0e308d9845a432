//! Ataxx on a 7×7 board, with bitboards.
//!
//! Square `a1` is bit 0, `g1` bit 6, `a7` bit 42: index = rank × 7 + file. FEN is the form the
//! Ataxx engines write (`x5o/7/7/7/7/7/o5x x 0 1`); moves are `g1` (clone), `a1c3` (jump) and
//! `0000` (pass).

use crate::game::{
    Cell, Game, GameKind, MoveSquares, Outcome, ParseError, Side, Square, parse_square, square_text,
};
use crate::zobrist;

pub const SIZE: u8 = 7;
pub const CELLS: usize = 49;
/// All 49 squares.
pub const FULL: u64 = (1u64 << 49) - 1;
/// The halfmove clock at which an undecided game is drawn.
pub const HALFMOVE_LIMIT: u16 = 100;

const FILE_A: u64 = {
    let mut m = 0u64;
    let mut r = 0;
    while r < 7 {
        m |= 1 << (r * 7);
        r += 1;
    }
    m
};
const FILE_G: u64 = FILE_A << 6;

/// The squares one step away (the clone targets of a piece there).
pub const SINGLES: [u64; CELLS] = ring_table(1);
/// The squares exactly two steps away (the jump targets).
pub const DOUBLES: [u64; CELLS] = ring_table(2);

const fn ring_table(dist: i32) -> [u64; CELLS] {
    let mut t = [0u64; CELLS];
    let mut sq = 0;
    while sq < CELLS {
        let (f, r) = ((sq % 7) as i32, (sq / 7) as i32);
        let mut df = -dist;
        while df <= dist {
            let mut dr = -dist;
            while dr <= dist {
                let cheb = if df.abs() > dr.abs() {
                    df.abs()
                } else {
                    dr.abs()
                };
                let (nf, nr) = (f + df, r + dr);
                if cheb == dist && nf >= 0 && nf < 7 && nr >= 0 && nr < 7 {
                    t[sq] |= 1 << (nr * 7 + nf);
                }
                dr += 1;
            }
            df += 1;
        }
        sq += 1;
    }
    t
}

/// Every square within one king step of a piece of `bb` (the pieces' own squares included):
/// ANDed with the empty squares it gives all clone targets at once.
#[inline(always)]
pub fn singles_of(bb: u64) -> u64 {
    let row = bb | ((bb >> 1) & !FILE_G) | ((bb << 1) & !FILE_A & FULL);
    (row | (row << 7) | (row >> 7)) & FULL
}

const PIECE_KEYS: [u64; 2 * CELLS] = zobrist::keys::<{ 2 * CELLS }>(0xA7A8_0001);
/// XOR of both colours' keys on a square: what a piece changing side does to the hash.
const FLIP_KEYS: [u64; CELLS] = {
    let mut t = [0u64; CELLS];
    let mut i = 0;
    while i < CELLS {
        t[i] = PIECE_KEYS[i] ^ PIECE_KEYS[CELLS + i];
        i += 1;
    }
    t
};
const SIDE_KEY: u64 = zobrist::keys::<1>(0xA7A8_0002)[0];
const BLOCK_KEYS: [u64; CELLS] = zobrist::keys::<CELLS>(0xA7A8_0003);

/// An Ataxx move. `from == to` is a clone onto `to`; `from == PASS_SQ` is the pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub from: u8,
    pub to: u8,
}

const PASS_SQ: u8 = 255;

impl Move {
    pub const PASS: Move = Move {
        from: PASS_SQ,
        to: PASS_SQ,
    };

    pub fn clone_to(to: u8) -> Move {
        Move { from: to, to }
    }

    pub fn jump(from: u8, to: u8) -> Move {
        Move { from, to }
    }

    pub fn is_pass(self) -> bool {
        self.from == PASS_SQ
    }

    pub fn is_clone(self) -> bool {
        !self.is_pass() && self.from == self.to
    }

    pub fn is_jump(self) -> bool {
        !self.is_pass() && self.from != self.to
    }
}

/// An Ataxx position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ataxx {
    /// Pieces of each side, `[x, o]` (`x` = Black moves first).
    pub pieces: [u64; 2],
    pub blocked: u64,
    pub side: Side,
    pub halfmove: u16,
    pub fullmove: u16,
    hash: u64,
}

/// What [`Ataxx::make`] returns: the position before the move.
pub type AtaxxUndo = Ataxx;

pub fn sq_index(sq: Square) -> u8 {
    sq.y * SIZE + sq.x
}

pub fn sq_of(index: u8) -> Square {
    Square::new(index % SIZE, index / SIZE)
}

impl Ataxx {
    /// Builds a position from bitboards, computing its hash.
    pub fn from_parts(
        pieces: [u64; 2],
        blocked: u64,
        side: Side,
        halfmove: u16,
        fullmove: u16,
    ) -> Ataxx {
        let mut p = Ataxx {
            pieces,
            blocked,
            side,
            halfmove,
            fullmove,
            hash: 0,
        };
        p.hash = p.compute_hash();
        p
    }

    /// The hash computed from nothing (the incremental one must always equal it).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for s in Side::BOTH {
            let mut bb = self.pieces[s.index()];
            while bb != 0 {
                let sq = bb.trailing_zeros() as usize;
                bb &= bb - 1;
                h ^= PIECE_KEYS[s.index() * CELLS + sq];
            }
        }
        let mut bb = self.blocked;
        while bb != 0 {
            let sq = bb.trailing_zeros() as usize;
            bb &= bb - 1;
            h ^= BLOCK_KEYS[sq];
        }
        if self.side == Side::White {
            h ^= SIDE_KEY;
        }
        h
    }

    #[inline(always)]
    pub fn empty(&self) -> u64 {
        FULL & !(self.pieces[0] | self.pieces[1] | self.blocked)
    }

    /// Whether `side` has any clone or jump.
    #[inline(always)]
    pub fn has_moves(&self, side: Side) -> bool {
        let own = self.pieces[side.index()];
        let empty = self.empty();
        if singles_of(own) & empty != 0 {
            return true;
        }
        let mut bb = own;
        while bb != 0 {
            let sq = bb.trailing_zeros() as usize;
            bb &= bb - 1;
            if DOUBLES[sq] & empty != 0 {
                return true;
            }
        }
        false
    }

    /// Counts the clones and jumps of `side` (not the pass).
    #[inline(always)]
    pub fn count_piece_moves(&self, side: Side) -> u64 {
        let own = self.pieces[side.index()];
        let empty = self.empty();
        let mut n = (singles_of(own) & empty).count_ones() as u64;
        let mut bb = own;
        while bb != 0 {
            let sq = bb.trailing_zeros() as usize;
            bb &= bb - 1;
            n += (DOUBLES[sq] & empty).count_ones() as u64;
        }
        n
    }

    /// The game is over when a side has no pieces, when neither side can move, or when the
    /// halfmove clock has reached 100.
    pub fn is_over(&self) -> bool {
        self.pieces[0] == 0
            || self.pieces[1] == 0
            || self.halfmove >= HALFMOVE_LIMIT
            || (!self.has_moves(self.side) && !self.has_moves(self.side.other()))
    }

    /// Clones and jumps of the side to move, without the pass.
    pub fn piece_moves(&self, out: &mut Vec<Move>) {
        let own = self.pieces[self.side.index()];
        let empty = self.empty();
        let mut clones = singles_of(own) & empty;
        while clones != 0 {
            let to = clones.trailing_zeros() as u8;
            clones &= clones - 1;
            out.push(Move::clone_to(to));
        }
        let mut bb = own;
        while bb != 0 {
            let from = bb.trailing_zeros() as u8;
            bb &= bb - 1;
            let mut jumps = DOUBLES[from as usize] & empty;
            while jumps != 0 {
                let to = jumps.trailing_zeros() as u8;
                jumps &= jumps - 1;
                out.push(Move::jump(from, to));
            }
        }
    }

    /// The enemy pieces a move onto `to` would take.
    pub fn captures(&self, mv: Move) -> u64 {
        if mv.is_pass() {
            return 0;
        }
        SINGLES[mv.to as usize] & self.pieces[self.side.other().index()]
    }

    /// The standard start layouts the app offers: plain, and a few with blocked squares.
    pub fn start_layouts() -> &'static [(&'static str, &'static str)] {
        &[
            ("Classic", "x5o/7/7/7/7/7/o5x x 0 1"),
            ("Four blocks", "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1"),
            ("Cross", "x5o/7/3-3/2-1-2/3-3/7/o5x x 0 1"),
            ("Pillars", "x5o/7/2-1-2/3-3/2-1-2/7/o5x x 0 1"),
            ("Corridor", "x5o/1-3-1/7/7/7/1-3-1/o5x x 0 1"),
        ]
    }
}

impl Game for Ataxx {
    type Move = Move;
    type Undo = AtaxxUndo;
    const KIND: GameKind = GameKind::Ataxx;

    fn start() -> Ataxx {
        Ataxx::from_text("x5o/7/7/7/7/7/o5x x 0 1").expect("start FEN")
    }

    fn dimensions(&self) -> (u8, u8) {
        (SIZE, SIZE)
    }

    fn cell(&self, sq: Square) -> Cell {
        if sq.x >= SIZE || sq.y >= SIZE {
            return Cell::Blocked;
        }
        let bit = 1u64 << sq_index(sq);
        if self.pieces[0] & bit != 0 {
            Cell::Piece(Side::Black)
        } else if self.pieces[1] & bit != 0 {
            Cell::Piece(Side::White)
        } else if self.blocked & bit != 0 {
            Cell::Blocked
        } else {
            Cell::Empty
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
        self.piece_moves(out);
        if out.is_empty() {
            // Not over, so the opponent has a move: the side passes.
            out.push(Move::PASS);
        }
    }

    #[inline]
    fn count_moves(&self) -> u64 {
        let (us, them) = (
            self.pieces[self.side.index()],
            self.pieces[self.side.other().index()],
        );
        if us == 0 || them == 0 || self.halfmove >= HALFMOVE_LIMIT {
            return 0;
        }
        let n = self.count_piece_moves(self.side);
        if n > 0 {
            n
        } else if self.has_moves(self.side.other()) {
            1
        } else {
            0
        }
    }

    fn is_legal(&self, mv: Move) -> bool {
        if self.is_over() {
            return false;
        }
        if mv.is_pass() {
            return !self.has_moves(self.side);
        }
        if mv.to as usize >= CELLS || mv.from as usize >= CELLS {
            return false;
        }
        let to = 1u64 << mv.to;
        if self.empty() & to == 0 {
            return false;
        }
        let own = self.pieces[self.side.index()];
        if mv.is_clone() {
            SINGLES[mv.to as usize] & own != 0
        } else {
            own & (1u64 << mv.from) != 0 && DOUBLES[mv.from as usize] & to != 0
        }
    }

    #[inline]
    fn make(&mut self, mv: Move) -> AtaxxUndo {
        let undo = *self;
        let us = self.side.index();
        let them = 1 - us;
        if mv.is_pass() {
            self.halfmove += 1;
        } else {
            let to = 1u64 << mv.to;
            let caps = SINGLES[mv.to as usize] & self.pieces[them];
            self.pieces[us] |= to | caps;
            self.pieces[them] ^= caps;
            let mut h = self.hash ^ PIECE_KEYS[us * CELLS + mv.to as usize];
            let mut c = caps;
            while c != 0 {
                let sq = c.trailing_zeros() as usize;
                c &= c - 1;
                h ^= FLIP_KEYS[sq];
            }
            if mv.is_jump() {
                self.pieces[us] ^= 1u64 << mv.from;
                h ^= PIECE_KEYS[us * CELLS + mv.from as usize];
                self.halfmove += 1;
            } else {
                self.halfmove = 0;
            }
            self.hash = h;
        }
        if self.side == Side::White {
            self.fullmove += 1;
        }
        self.side = self.side.other();
        self.hash ^= SIDE_KEY;
        undo
    }

    #[inline]
    fn unmake(&mut self, undo: AtaxxUndo) {
        *self = undo;
    }

    fn pass_move(&self) -> Option<Move> {
        Some(Move::PASS)
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let [x, o] = self.piece_counts();
        let decided = self.pieces[0] == 0
            || self.pieces[1] == 0
            || (!self.has_moves(self.side) && !self.has_moves(self.side.other()));
        if !decided {
            return Some(Outcome::Draw); // the fifty-move (100 ply) rule
        }
        Some(match x.cmp(&o) {
            std::cmp::Ordering::Greater => Outcome::Win(Side::Black),
            std::cmp::Ordering::Less => Outcome::Win(Side::White),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    fn piece_counts(&self) -> [u32; 2] {
        [self.pieces[0].count_ones(), self.pieces[1].count_ones()]
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        let t = text.trim().to_ascii_lowercase();
        if t == "0000" || t == "pass" || t == "@@@@" {
            return Ok(Move::PASS);
        }
        if !t.is_ascii() {
            return Err(ParseError::new(format!(
                "'{}' is not an Ataxx move",
                text.trim()
            )));
        }
        match t.len() {
            2 => Ok(Move::clone_to(sq_index(parse_square(&t, SIZE, SIZE)?))),
            4 => {
                let from = sq_index(parse_square(&t[..2], SIZE, SIZE)?);
                let to = sq_index(parse_square(&t[2..], SIZE, SIZE)?);
                let (a, b) = (sq_of(from), sq_of(to));
                let dist = (a.x as i32 - b.x as i32)
                    .abs()
                    .max((a.y as i32 - b.y as i32).abs());
                match dist {
                    1 => Ok(Move::clone_to(to)),
                    2 => Ok(Move::jump(from, to)),
                    _ => Err(ParseError::new(format!(
                        "'{t}': a move goes one or two squares, this one goes {dist}"
                    ))),
                }
            }
            _ => Err(ParseError::new(format!(
                "'{}' is not an Ataxx move (write g1, a1c3 or 0000)",
                text.trim()
            ))),
        }
    }

    fn move_to_text(&self, mv: Move) -> String {
        if mv.is_pass() {
            "0000".to_string()
        } else if mv.is_clone() {
            square_text(sq_of(mv.to))
        } else {
            format!(
                "{}{}",
                square_text(sq_of(mv.from)),
                square_text(sq_of(mv.to))
            )
        }
    }

    fn from_text(text: &str) -> Result<Ataxx, ParseError> {
        let mut parts = text.split_whitespace();
        let board = parts.next().ok_or_else(|| ParseError::new("empty FEN"))?;
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 7 {
            return Err(ParseError::new(format!(
                "FEN board has {} ranks, an Ataxx board has 7",
                ranks.len()
            )));
        }
        let mut pieces = [0u64; 2];
        let mut blocked = 0u64;
        for (i, rank) in ranks.iter().enumerate() {
            let r = 6 - i;
            let mut f = 0usize;
            for ch in rank.chars() {
                if f >= 7 {
                    return Err(ParseError::new(format!(
                        "FEN rank {} is longer than 7 squares",
                        r + 1
                    )));
                }
                match ch {
                    '1'..='7' => f += ch as usize - '0' as usize,
                    'x' | 'X' | 'b' | 'B' => {
                        pieces[0] |= 1 << (r * 7 + f);
                        f += 1;
                    }
                    'o' | 'O' | 'w' | 'W' => {
                        pieces[1] |= 1 << (r * 7 + f);
                        f += 1;
                    }
                    '-' => {
                        blocked |= 1 << (r * 7 + f);
                        f += 1;
                    }
                    other => {
                        return Err(ParseError::new(format!(
                            "FEN rank {} has '{other}', not x, o, - or a digit",
                            r + 1
                        )));
                    }
                }
            }
            if f != 7 {
                return Err(ParseError::new(format!(
                    "FEN rank {} covers {f} squares, not 7",
                    r + 1
                )));
            }
        }
        let side = match parts.next() {
            None | Some("x") | Some("X") | Some("b") | Some("B") => Side::Black,
            Some("o") | Some("O") | Some("w") | Some("W") => Side::White,
            Some(s) => return Err(ParseError::new(format!("side to move '{s}' is not x or o"))),
        };
        let halfmove = match parts.next() {
            None => 0,
            Some(s) => s
                .parse::<u16>()
                .map_err(|_| ParseError::new(format!("halfmove clock '{s}' is not a number")))?,
        };
        let fullmove = match parts.next() {
            None => 1,
            Some(s) => s
                .parse::<u16>()
                .map_err(|_| ParseError::new(format!("fullmove number '{s}' is not a number")))?,
        };
        if let Some(extra) = parts.next() {
            return Err(ParseError::new(format!(
                "unexpected '{extra}' after the FEN"
            )));
        }
        Ok(Ataxx::from_parts(
            pieces,
            blocked,
            side,
            halfmove.min(HALFMOVE_LIMIT),
            fullmove.max(1),
        ))
    }

    fn to_text(&self) -> String {
        let mut s = String::with_capacity(40);
        for r in (0..7).rev() {
            let mut run = 0;
            for f in 0..7 {
                let ch = match self.cell(Square::new(f, r)) {
                    Cell::Empty => {
                        run += 1;
                        continue;
                    }
                    Cell::Blocked => '-',
                    Cell::Piece(Side::Black) => 'x',
                    Cell::Piece(Side::White) => 'o',
                };
                if run > 0 {
                    s.push((b'0' + run) as char);
                    run = 0;
                }
                s.push(ch);
            }
            if run > 0 {
                s.push((b'0' + run) as char);
            }
            if r > 0 {
                s.push('/');
            }
        }
        let side = if self.side == Side::Black { 'x' } else { 'o' };
        format!("{s} {side} {} {}", self.halfmove, self.fullmove)
    }

    fn move_squares(&self, mv: Move) -> MoveSquares {
        if mv.is_pass() {
            MoveSquares::default()
        } else {
            MoveSquares {
                from: Some(sq_of(mv.from)),
                to: Some(sq_of(mv.to)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn singles_match_table() {
        for (sq, &ring) in SINGLES.iter().enumerate().take(CELLS) {
            let bb = 1u64 << sq;
            assert_eq!(singles_of(bb) & !bb, ring, "square {sq}");
        }
        // a union: the dilation of two squares is the union of their rings (minus themselves)
        let bb = (1u64 << 0) | (1u64 << 1);
        assert_eq!(singles_of(bb) & !bb, (SINGLES[0] | SINGLES[1]) & !bb);
    }

    #[test]
    fn start_position() {
        let p = Ataxx::start();
        assert_eq!(p.to_text(), "x5o/7/7/7/7/7/o5x x 0 1");
        let mut v = Vec::new();
        p.legal_moves(&mut v);
        assert_eq!(v.len(), 16);
        assert_eq!(p.outcome(), None);
    }

    #[test]
    fn clone_and_jump_and_capture() {
        let mut p = Ataxx::from_text("7/7/7/7/7/1o5/x6 x 0 1").unwrap();
        let m = p.parse_move("a2").unwrap();
        assert!(m.is_clone());
        p.play(m).unwrap();
        // the clone keeps a1, takes b2
        assert_eq!(p.to_text(), "7/7/7/7/7/xx5/x6 o 0 1");
        let mut q = Ataxx::from_text("7/7/7/7/7/2o4/x6 x 5 9").unwrap();
        q.play(q.parse_move("a1b3").unwrap()).unwrap();
        assert_eq!(q.to_text(), "7/7/7/7/1x5/2x4/7 o 6 9");
        assert!(q.parse_move("a1d4").is_err());
        assert!(
            q.play(q.parse_move("b3b4").unwrap()).is_err(),
            "o has no piece next to b4"
        );
    }

    #[test]
    fn pass_only_when_no_move_and_opponent_can() {
        // x boxed in by blocked squares; o can move.
        let p = Ataxx::from_text("7/7/7/7/-------/-------/x5o x 0 1").unwrap();
        let mut v = Vec::new();
        p.legal_moves(&mut v);
        assert_eq!(
            v.iter().map(|m| p.move_to_text(*m)).collect::<Vec<_>>(),
            vec!["b1", "a1c1"]
        );
        // x cannot reach g1 (three ranks away), o can: x must pass, and only pass.
        let full =
            Ataxx::from_text("xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/ooooooo/ooooooo/oooooo1 x 0 1")
                .unwrap();
        full.legal_moves(&mut v);
        assert_eq!(v, vec![Move::PASS]);
        assert!(full.is_legal(Move::PASS));
        let mut after = full;
        after.play(Move::PASS).unwrap();
        assert_eq!(
            after.to_text(),
            "xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/ooooooo/ooooooo/oooooo1 o 1 1"
        );
        // a side that can move may not pass
        assert!(!Ataxx::start().is_legal(Move::PASS));
    }

    #[test]
    fn game_over_rules() {
        let none = Ataxx::from_text("7/7/7/7/7/7/x6 o 0 1").unwrap();
        assert_eq!(none.outcome(), Some(Outcome::Win(Side::Black)));
        let clock = Ataxx::from_text("x5o/7/7/7/7/7/o5x x 100 60").unwrap();
        assert_eq!(clock.outcome(), Some(Outcome::Draw));
        let full =
            Ataxx::from_text("xxxxxxx/xxxxxxx/xxxxxxx/xxxxooo/ooooooo/ooooooo/ooooooo o 3 40")
                .unwrap();
        assert_eq!(full.outcome(), Some(Outcome::Win(Side::Black)));
        // neither side can move although the board is not full: over, more pieces wins
        let stuck = Ataxx::from_text("x6/7/7/-------/-------/7/5oo x 0 1").unwrap();
        assert_eq!(stuck.outcome(), None, "x can still clone");
        let stuck =
            Ataxx::from_text("x------/-------/-------/-------/-------/------o/-----oo x 0 1")
                .unwrap();
        assert_eq!(stuck.outcome(), Some(Outcome::Win(Side::White)));
        let mut v = Vec::new();
        stuck.legal_moves(&mut v);
        assert!(v.is_empty());
    }

    #[test]
    fn fen_errors() {
        for bad in [
            "",
            "x5o/7/7",
            "x5o/7/7/7/7/7/o5y x",
            "x5o/7/7/7/7/7/o6x x",
            "x5o/7/7/7/7/7/o5x z",
            "x5o/7/7/7/7/7/o5x x a",
            "x5o/7/7/7/7/7/o5x x 0 1 9",
        ] {
            assert!(Ataxx::from_text(bad).is_err(), "{bad}");
        }
    }
}
