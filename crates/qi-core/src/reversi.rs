//! Reversi (Othello) on 8×8 bitboards.
//!
//! Square `a1` is bit 0, `h1` bit 7, `a8` bit 56. The position text is the FFO form: 64
//! characters a1..h1, a2..h2, …, a8..h8 (`X` black, `O` white, `-` empty), a space and the side
//! to move. Moves are `a1`..`h8` and `pass`.

use crate::game::{
    Cell, Game, GameKind, MoveSquares, Outcome, ParseError, Side, Square, parse_square, square_text,
};
use crate::zobrist;

/// A square 0..63, or [`PASS`].
pub type Move = u8;
pub const PASS: Move = 64;

const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
const INNER: u64 = 0x7E7E_7E7E_7E7E_7E7E;

const PIECE_KEYS: [u64; 128] = zobrist::keys::<128>(0x0E11_0001);
const FLIP_KEYS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = PIECE_KEYS[i] ^ PIECE_KEYS[64 + i];
        i += 1;
    }
    t
};
const SIDE_KEY: u64 = zobrist::keys::<1>(0x0E11_0002)[0];

/// Every empty square where the player with discs `p` may play against `o`.
#[inline(always)]
pub fn mobility(p: u64, o: u64) -> u64 {
    #[inline(always)]
    fn dir(p: u64, mask: u64, s: u32) -> u64 {
        // left shifts
        let mut fl = mask & (p << s);
        fl |= mask & (fl << s);
        let ml = mask & (mask << s);
        fl |= ml & (fl << (2 * s));
        fl |= ml & (fl << (2 * s));
        // right shifts
        let mut fr = mask & (p >> s);
        fr |= mask & (fr >> s);
        let mr = mask & (mask >> s);
        fr |= mr & (fr >> (2 * s));
        fr |= mr & (fr >> (2 * s));
        (fl << s) | (fr >> s)
    }
    let inner = o & INNER;
    (dir(p, inner, 1) | dir(p, o, 8) | dir(p, inner, 7) | dir(p, inner, 9)) & !(p | o)
}

/// The discs of `o` that a disc played on `sq` by `p` turns over.
#[inline(always)]
pub fn flips(p: u64, o: u64, sq: u8) -> u64 {
    let m = 1u64 << sq;
    let mut f = 0u64;
    // (shift amount, left?, mask applied to the moving bit after the shift)
    macro_rules! line {
        ($shift:expr, $wrap:expr) => {{
            let mut x = $shift(m) & $wrap & o;
            x |= $shift(x) & $wrap & o;
            x |= $shift(x) & $wrap & o;
            x |= $shift(x) & $wrap & o;
            x |= $shift(x) & $wrap & o;
            x |= $shift(x) & $wrap & o;
            if $shift(x) & $wrap & p != 0 {
                f |= x;
            }
        }};
    }
    line!(|b: u64| b << 1, NOT_A);
    line!(|b: u64| b >> 1, NOT_H);
    line!(|b: u64| b << 8, u64::MAX);
    line!(|b: u64| b >> 8, u64::MAX);
    line!(|b: u64| b << 9, NOT_A);
    line!(|b: u64| b >> 9, NOT_H);
    line!(|b: u64| b << 7, NOT_H);
    line!(|b: u64| b >> 7, NOT_A);
    f
}

/// A Reversi position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reversi {
    /// Discs of each side, `[black, white]`.
    pub discs: [u64; 2],
    pub side: Side,
    hash: u64,
}

pub type ReversiUndo = Reversi;

pub fn sq_index(sq: Square) -> u8 {
    sq.y * 8 + sq.x
}

pub fn sq_of(index: u8) -> Square {
    Square::new(index % 8, index / 8)
}

impl Reversi {
    pub fn from_parts(discs: [u64; 2], side: Side) -> Reversi {
        let mut r = Reversi {
            discs,
            side,
            hash: 0,
        };
        r.hash = r.compute_hash();
        r
    }

    pub fn compute_hash(&self) -> u64 {
        let mut h = if self.side == Side::White {
            SIDE_KEY
        } else {
            0
        };
        for s in Side::BOTH {
            let mut bb = self.discs[s.index()];
            while bb != 0 {
                let sq = bb.trailing_zeros() as usize;
                bb &= bb - 1;
                h ^= PIECE_KEYS[s.index() * 64 + sq];
            }
        }
        h
    }

    #[inline(always)]
    pub fn own(&self) -> u64 {
        self.discs[self.side.index()]
    }

    #[inline(always)]
    pub fn opp(&self) -> u64 {
        self.discs[self.side.other().index()]
    }

    /// Squares where the side to move may play.
    #[inline(always)]
    pub fn moves_bb(&self) -> u64 {
        // the solver's routine: AVX2 where the processor has it (the same squares as
        // [`mobility`], tested there)
        crate::ai::endgame::fast_mobility(self.own(), self.opp())
    }

    pub fn empties(&self) -> u64 {
        !(self.discs[0] | self.discs[1])
    }

    pub fn is_over(&self) -> bool {
        self.moves_bb() == 0 && mobility(self.opp(), self.own()) == 0
    }

    /// The final score from Black's view by the World Othello Federation rule: disc difference,
    /// empty squares going to the winner.
    pub fn final_score_black(&self) -> i32 {
        let b = self.discs[0].count_ones() as i32;
        let w = self.discs[1].count_ones() as i32;
        let e = 64 - b - w;
        match b.cmp(&w) {
            std::cmp::Ordering::Greater => b - w + e,
            std::cmp::Ordering::Less => b - w - e,
            std::cmp::Ordering::Equal => 0,
        }
    }
}

impl Game for Reversi {
    type Move = Move;
    type Undo = ReversiUndo;
    const KIND: GameKind = GameKind::Reversi;

    fn start() -> Reversi {
        // d5 and e4 black, d4 and e5 white
        let black = (1u64 << 35) | (1u64 << 28);
        let white = (1u64 << 27) | (1u64 << 36);
        Reversi::from_parts([black, white], Side::Black)
    }

    fn dimensions(&self) -> (u8, u8) {
        (8, 8)
    }

    fn cell(&self, sq: Square) -> Cell {
        if sq.x >= 8 || sq.y >= 8 {
            return Cell::Blocked;
        }
        let bit = 1u64 << sq_index(sq);
        if self.discs[0] & bit != 0 {
            Cell::Piece(Side::Black)
        } else if self.discs[1] & bit != 0 {
            Cell::Piece(Side::White)
        } else {
            Cell::Empty
        }
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let mut m = self.moves_bb();
        if m == 0 {
            if mobility(self.opp(), self.own()) != 0 {
                out.push(PASS);
            }
            return;
        }
        while m != 0 {
            out.push(m.trailing_zeros() as u8);
            m &= m - 1;
        }
    }

    #[inline]
    fn count_moves(&self) -> u64 {
        let m = self.moves_bb();
        if m != 0 {
            m.count_ones() as u64
        } else if mobility(self.opp(), self.own()) != 0 {
            1
        } else {
            0
        }
    }

    fn is_legal(&self, mv: Move) -> bool {
        if mv == PASS {
            self.moves_bb() == 0 && mobility(self.opp(), self.own()) != 0
        } else {
            mv < 64 && self.moves_bb() & (1u64 << mv) != 0
        }
    }

    #[inline]
    fn make(&mut self, mv: Move) -> ReversiUndo {
        let undo = *self;
        let us = self.side.index();
        if mv != PASS {
            // the solver's flips: AVX2 where the processor has it (the same squares as
            // [`flips`], tested there)
            let f = crate::ai::endgame::flips(self.own(), self.opp(), mv);
            self.discs[us] |= f | (1u64 << mv);
            self.discs[1 - us] ^= f;
            let mut h = self.hash ^ PIECE_KEYS[us * 64 + mv as usize];
            let mut c = f;
            while c != 0 {
                let sq = c.trailing_zeros() as usize;
                c &= c - 1;
                h ^= FLIP_KEYS[sq];
            }
            self.hash = h;
        }
        self.side = self.side.other();
        self.hash ^= SIDE_KEY;
        undo
    }

    #[inline]
    fn unmake(&mut self, undo: ReversiUndo) {
        *self = undo;
    }

    fn pass_move(&self) -> Option<Move> {
        Some(PASS)
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        Some(match self.final_score_black() {
            s if s > 0 => Outcome::Win(Side::Black),
            s if s < 0 => Outcome::Win(Side::White),
            _ => Outcome::Draw,
        })
    }

    fn piece_counts(&self) -> [u32; 2] {
        [self.discs[0].count_ones(), self.discs[1].count_ones()]
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        let t = text.trim().to_ascii_lowercase();
        if t == "pass" || t == "pa" || t == "ps" || t == "--" || t == "@@" {
            return Ok(PASS);
        }
        Ok(sq_index(parse_square(&t, 8, 8)?))
    }

    fn move_to_text(&self, mv: Move) -> String {
        if mv == PASS {
            "pass".to_string()
        } else {
            square_text(sq_of(mv))
        }
    }

    fn from_text(text: &str) -> Result<Reversi, ParseError> {
        let t = text.trim();
        let mut parts = t.split_whitespace();
        let board = parts
            .next()
            .ok_or_else(|| ParseError::new("empty Reversi position"))?;
        if board.chars().count() != 64 {
            return Err(ParseError::new(format!(
                "a Reversi board has 64 squares, this one {}",
                board.chars().count()
            )));
        }
        let mut discs = [0u64; 2];
        for (i, ch) in board.chars().enumerate() {
            match ch {
                'X' | 'x' | '*' | 'B' | 'b' => discs[0] |= 1 << i,
                'O' | 'o' | 'W' | 'w' => discs[1] |= 1 << i,
                '-' | '.' => {}
                other => {
                    return Err(ParseError::new(format!(
                        "square {} has '{other}', not X, O or -",
                        square_text(sq_of(i as u8))
                    )));
                }
            }
        }
        let side = match parts.next() {
            Some("X") | Some("x") | Some("*") | Some("B") | Some("b") => Side::Black,
            Some("O") | Some("o") | Some("W") | Some("w") => Side::White,
            Some(s) => return Err(ParseError::new(format!("side to move '{s}' is not X or O"))),
            None => return Err(ParseError::new("the side to move (X or O) is missing")),
        };
        Ok(Reversi::from_parts(discs, side))
    }

    fn to_text(&self) -> String {
        let mut s = String::with_capacity(66);
        for i in 0..64u8 {
            s.push(match self.cell(sq_of(i)) {
                Cell::Piece(Side::Black) => 'X',
                Cell::Piece(Side::White) => 'O',
                _ => '-',
            });
        }
        s.push(' ');
        s.push(if self.side == Side::Black { 'X' } else { 'O' });
        s
    }

    fn move_squares(&self, mv: Move) -> MoveSquares {
        if mv == PASS {
            MoveSquares::default()
        } else {
            MoveSquares {
                from: None,
                to: Some(sq_of(mv)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Flips found by walking the board square by square: the reference for the bitboard code.
    fn slow_flips(p: u64, o: u64, sq: u8) -> u64 {
        let (x0, y0) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut f = 0;
        for (dx, dy) in [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let (mut x, mut y, mut line) = (x0 + dx, y0 + dy, 0u64);
            while (0..8).contains(&x) && (0..8).contains(&y) {
                let b = 1u64 << (y * 8 + x);
                if o & b != 0 {
                    line |= b;
                } else {
                    if p & b != 0 {
                        f |= line;
                    }
                    break;
                }
                x += dx;
                y += dy;
            }
        }
        f
    }

    #[test]
    fn start_moves() {
        let p = Reversi::start();
        let mut v = Vec::new();
        p.legal_moves(&mut v);
        let names: Vec<String> = v.iter().map(|&m| p.move_to_text(m)).collect();
        assert_eq!(names, vec!["d3", "c4", "f5", "e6"]);
    }

    #[test]
    fn bitboards_match_a_plain_walk() {
        let mut state = 12345u64;
        for _ in 0..20000 {
            let (s1, a) = zobrist::splitmix64(state);
            let (s2, b) = zobrist::splitmix64(s1);
            state = s2;
            let p = a & b;
            let o = !a & (b | (b >> 3)) & !p;
            let mut mob = 0;
            for sq in 0..64u8 {
                if (p | o) & (1 << sq) == 0 {
                    let f = slow_flips(p, o, sq);
                    assert_eq!(flips(p, o, sq), f, "sq {sq} p {p:x} o {o:x}");
                    if f != 0 {
                        mob |= 1 << sq;
                    }
                }
            }
            assert_eq!(mobility(p, o), mob, "p {p:x} o {o:x}");
        }
    }

    #[test]
    fn score_gives_empties_to_winner() {
        let p = Reversi::from_text(&format!("{}{} X", "X".repeat(40), "-".repeat(24))).unwrap();
        assert!(p.is_over());
        assert_eq!(p.final_score_black(), 64);
        assert_eq!(p.outcome(), Some(Outcome::Win(Side::Black)));
        // four black discs on rank 1, eight white ones on rank 8: nobody can move
        let r = Reversi::from_text(&format!("XXXX{}OOOOOOOO X", "-".repeat(52))).unwrap();
        assert!(r.is_over());
        assert_eq!(r.final_score_black(), -4 - 52);
    }

    #[test]
    fn pass_and_errors() {
        // White to move with no move, Black has one: White passes.
        let p = Reversi::from_text(&format!("XO{} O", "-".repeat(62))).unwrap();
        let mut v = Vec::new();
        p.legal_moves(&mut v);
        assert_eq!(v, vec![PASS]);
        for bad in [
            "",
            "XO X",
            &format!("{}Z X", "-".repeat(63)),
            &format!("{} Q", "-".repeat(64)),
            &"-".repeat(64),
        ] {
            assert!(Reversi::from_text(bad).is_err(), "{bad}");
        }
        assert!(p.parse_move("i1").is_err());
        assert!(p.parse_move("a9").is_err());
    }
}
