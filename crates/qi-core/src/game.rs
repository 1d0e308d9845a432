//! The one game interface that Ataxx, Reversi, Gomoku and Go implement.
//!
//! The app, the AI framework, the perft/engine tools and the record code work with any game
//! through [`Game`]. A position value is the whole state the rules need: Go keeps its history of
//! whole-board hashes inside its position (for positional superko), Gomoku its board size and rule.

use std::fmt;
use std::hash::Hash;

/// The two sides. `Black` moves first in every game: Reversi's `X`, Ataxx's `x`, Go and Gomoku's
/// Black. `White` is Reversi's `O`, Ataxx's `o`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Side {
    Black,
    White,
}

impl Side {
    #[inline]
    pub fn other(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    pub const BOTH: [Side; 2] = [Side::Black, Side::White];
}

impl std::ops::Not for Side {
    type Output = Side;
    fn not(self) -> Side {
        self.other()
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    Win(Side),
    Draw,
}

impl Outcome {
    pub fn winner(self) -> Option<Side> {
        match self {
            Outcome::Win(s) => Some(s),
            Outcome::Draw => None,
        }
    }
}

/// What stands on one cell of the board, for drawing it and for records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Cell {
    Empty,
    /// A square no piece may ever occupy (Ataxx's blocked squares).
    Blocked,
    Piece(Side),
}

/// Which game a position belongs to.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum GameKind {
    Ataxx,
    Reversi,
    Gomoku,
    Go,
}

/// The record format a game's files are written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordKind {
    /// Smart Game Format (Go, Reversi, Gomoku).
    Sgf,
    /// PGN with a FEN tag (Ataxx, as Ataxx tools write it).
    Pgn,
}

/// The facts about one game that the app, the records and the engine tools share: one table,
/// [`GAMES`], instead of matches on [`GameKind`] spread over the code. Adding a game adds one
/// entry here.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameInfo {
    pub kind: GameKind,
    /// Lower-case name for files and the command line: `ataxx`.
    pub name: &'static str,
    /// Other names the command line accepts (`othello`, `weiqi`, …).
    pub aliases: &'static [&'static str],
    /// English title: `Reversi`.
    pub title: &'static str,
    /// The names of the two sides, `[first, second]`: Ataxx's Red and Blue.
    pub side_names: [&'static str; 2],
    /// Board sizes a player may choose (the first is the default).
    pub board_sizes: &'static [u8],
    pub record: RecordKind,
    /// How moves are written, for help texts: `g2 (clone), a1c3 (jump)`.
    pub notation: &'static str,
    /// The key of the game's rules page in the translation files.
    pub rules_key: &'static str,
}

/// Every game Qi knows, in [`GameKind`] order.
pub const GAMES: [GameInfo; 4] = [
    GameInfo {
        kind: GameKind::Ataxx,
        name: "ataxx",
        aliases: &[],
        title: "Ataxx",
        side_names: ["Red", "Blue"],
        board_sizes: &[7],
        record: RecordKind::Pgn,
        notation: "g2 (clone), a1c3 (jump), pass",
        rules_key: "rules-ataxx",
    },
    GameInfo {
        kind: GameKind::Reversi,
        name: "reversi",
        aliases: &["othello"],
        title: "Reversi",
        side_names: ["Black", "White"],
        board_sizes: &[8],
        record: RecordKind::Sgf,
        notation: "d3, pass",
        rules_key: "rules-reversi",
    },
    GameInfo {
        kind: GameKind::Gomoku,
        name: "gomoku",
        aliases: &["renju"],
        title: "Gomoku",
        side_names: ["Black", "White"],
        board_sizes: &[15, 19],
        record: RecordKind::Sgf,
        notation: "h8",
        rules_key: "rules-gomoku",
    },
    GameInfo {
        kind: GameKind::Go,
        name: "go",
        aliases: &["weiqi", "baduk"],
        title: "Go",
        side_names: ["Black", "White"],
        board_sizes: &[19, 13, 9],
        record: RecordKind::Sgf,
        notation: "D4, pass",
        rules_key: "rules-go",
    },
];

impl GameKind {
    pub const ALL: [GameKind; 4] = [
        GameKind::Ataxx,
        GameKind::Reversi,
        GameKind::Gomoku,
        GameKind::Go,
    ];

    /// The game's entry in [`GAMES`].
    pub fn info(self) -> &'static GameInfo {
        &GAMES[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn title(self) -> &'static str {
        self.info().title
    }

    /// The name of one side: `Red`, `Black`, …
    pub fn side_name(self, side: Side) -> &'static str {
        self.info().side_names[side.index()]
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for GameKind {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        let want = s.trim().to_ascii_lowercase();
        GAMES
            .iter()
            .find(|g| g.name == want || g.aliases.contains(&want.as_str()))
            .map(|g| g.kind)
            .ok_or_else(|| {
                let names: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
                ParseError::new(format!(
                    "unknown game '{want}' (expected one of: {})",
                    names.join(", ")
                ))
            })
    }
}

/// A square given as 0-based column `x` (from the left, `a` = 0) and row `y` (from the bottom,
/// rank `1` = 0), the way the app lays out its cells.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Square {
    pub x: u8,
    pub y: u8,
}

impl Square {
    pub const fn new(x: u8, y: u8) -> Square {
        Square { x, y }
    }
}

/// The squares a move touches, for input and animation: where a piece comes from (Ataxx jumps
/// and clones) and where it lands. A pass touches none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MoveSquares {
    pub from: Option<Square>,
    pub to: Option<Square>,
}

/// A text that could not be read as a position or a move; the message says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl ParseError {
    pub fn new(msg: impl Into<String>) -> ParseError {
        ParseError(msg.into())
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

/// A move that is well formed but not legal in the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove(pub String);

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for IllegalMove {}

/// A position of one of the four games, with everything its rules need.
pub trait Game: Clone + fmt::Debug + PartialEq + Send + Sync + 'static {
    /// A move: small and `Copy`, compared by value.
    type Move: Copy + fmt::Debug + PartialEq + Eq + Hash + Send + Sync + 'static;
    /// What [`Game::make`] hands back so that [`Game::unmake`] can restore the position.
    type Undo: Send + 'static;

    const KIND: GameKind;

    /// The game's usual start position (default options).
    fn start() -> Self;

    /// Board width and height in cells.
    fn dimensions(&self) -> (u8, u8);
    /// What stands on a cell; squares off the board are `Blocked`.
    fn cell(&self, sq: Square) -> Cell;

    fn side_to_move(&self) -> Side;

    /// Every legal move, pass included where the rules allow one, appended to `out` (cleared
    /// first). A finished game has none.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// The number of legal moves, as [`Game::legal_moves`] would list them. Games override it
    /// with a bulk count (perft's last ply).
    fn count_moves(&self) -> u64 {
        let mut v = Vec::new();
        self.legal_moves(&mut v);
        v.len() as u64
    }

    fn is_legal(&self, mv: Self::Move) -> bool {
        let mut v = Vec::new();
        self.legal_moves(&mut v);
        v.contains(&mv)
    }

    /// Plays a legal move (not checked: call [`Game::play`] for untrusted input).
    fn make(&mut self, mv: Self::Move) -> Self::Undo;
    /// Takes back the move that returned `undo`.
    fn unmake(&mut self, undo: Self::Undo);

    /// Plays a move after checking that it is legal.
    fn play(&mut self, mv: Self::Move) -> Result<(), IllegalMove> {
        if self.is_legal(mv) {
            self.make(mv);
            Ok(())
        } else {
            Err(IllegalMove(format!(
                "{} is not legal here",
                self.move_to_text(mv)
            )))
        }
    }

    /// The pass move, where the game has one (it may still be illegal in a given position).
    fn pass_move(&self) -> Option<Self::Move>;

    /// `Some` once the game is over by its rules.
    fn outcome(&self) -> Option<Outcome>;

    /// The pieces (stones, discs) each side has on the board: `[black, white]`.
    fn piece_counts(&self) -> [u32; 2];

    /// The Zobrist key of the position (pieces and side to move), kept incrementally.
    fn hash(&self) -> u64;

    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseError>;
    fn move_to_text(&self, mv: Self::Move) -> String;

    /// Reads a position in the game's own text form (FEN for Ataxx, the FFO form for Reversi).
    fn from_text(text: &str) -> Result<Self, ParseError>;
    fn to_text(&self) -> String;

    /// The squares a move touches, for the app's input and animation.
    fn move_squares(&self, mv: Self::Move) -> MoveSquares;
}

/// Reads a square name such as `a1` or `o15` on a board `width` × `height`.
pub fn parse_square(text: &str, width: u8, height: u8) -> Result<Square, ParseError> {
    let t = text.trim();
    let mut chars = t.chars();
    let file = chars
        .next()
        .ok_or_else(|| ParseError::new("empty square name"))?
        .to_ascii_lowercase();
    if !file.is_ascii_lowercase() {
        return Err(ParseError::new(format!(
            "'{t}' is not a square: it must start with a column letter"
        )));
    }
    let x = file as u32 - 'a' as u32;
    let rank: &str = chars.as_str();
    if rank.is_empty() || rank.len() > 2 || !rank.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError::new(format!(
            "'{t}' is not a square: a row number must follow the column"
        )));
    }
    let r: u32 = rank
        .parse()
        .map_err(|_| ParseError::new(format!("'{t}' has a bad row")))?;
    if x >= width as u32 || r == 0 || r > height as u32 {
        return Err(ParseError::new(format!(
            "'{t}' is off the {width}x{height} board"
        )));
    }
    Ok(Square::new(x as u8, (r - 1) as u8))
}

/// Writes a square as `a1`..
pub fn square_text(sq: Square) -> String {
    format!("{}{}", (b'a' + sq.x) as char, sq.y as u32 + 1)
}

/// Counts the leaves of the legal move tree to `depth` plies (a pass is a ply, a finished game
/// adds nothing below it); the last ply is counted in bulk.
pub fn perft<G: Game>(pos: &mut G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.count_moves();
    }
    let mut moves = Vec::with_capacity(64);
    pos.legal_moves(&mut moves);
    let mut total = 0;
    for &mv in &moves {
        let undo = pos.make(mv);
        total += perft(pos, depth - 1);
        pos.unmake(undo);
    }
    total
}

/// perft split by first move, in the order the moves are generated.
pub fn perft_divide<G: Game>(pos: &mut G, depth: u32) -> Vec<(String, u64)> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&mv| {
            let text = pos.move_to_text(mv);
            let undo = pos.make(mv);
            let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.unmake(undo);
            (text, n)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_parse_and_print() {
        assert_eq!(parse_square("a1", 7, 7).unwrap(), Square::new(0, 0));
        assert_eq!(parse_square("G7", 7, 7).unwrap(), Square::new(6, 6));
        assert_eq!(parse_square("o15", 15, 15).unwrap(), Square::new(14, 14));
        assert!(parse_square("h1", 7, 7).is_err());
        assert!(parse_square("a0", 7, 7).is_err());
        assert!(parse_square("a8", 7, 7).is_err());
        assert!(parse_square("", 7, 7).is_err());
        assert!(parse_square("1a", 7, 7).is_err());
        assert!(parse_square("a1x", 7, 7).is_err());
        assert_eq!(square_text(Square::new(14, 14)), "o15");
    }

    #[test]
    fn game_kinds_parse() {
        for k in GameKind::ALL {
            assert_eq!(k.name().parse::<GameKind>().unwrap(), k);
        }
        assert!("chess".parse::<GameKind>().is_err());
    }
}

#[cfg(test)]
mod info_tests {
    use super::*;

    #[test]
    fn the_table_is_in_kind_order_and_names_parse_back() {
        for (i, k) in GameKind::ALL.into_iter().enumerate() {
            assert_eq!(GAMES[i].kind, k);
            assert_eq!(k.name().parse::<GameKind>(), Ok(k));
            for a in k.info().aliases {
                assert_eq!(a.parse::<GameKind>(), Ok(k));
            }
        }
        assert!(
            "chess"
                .parse::<GameKind>()
                .unwrap_err()
                .0
                .contains("ataxx, reversi, gomoku, go")
        );
    }
}
