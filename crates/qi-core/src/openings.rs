//! Named openings: Othello's named openings, the 26 canonical renju openings and a small Go
//! joseki library, read from the text files in `data/openings/` (built into the crate), shown as
//! trees and recognised in games.
//!
//! - Reversi (`reversi.txt`): one opening a line, its moves and its name; the tree is made by
//!   the lines' prefixes.
//! - Gomoku (`gomoku.sgf`) and Go (`go.sgf`): SGF game trees whose nodes carry `N[]` (English
//!   name), `ZH[]` (Chinese) and `JA[]` (Japanese).
//!
//! Recognition goes by position, so transpositions are named: a Reversi or Gomoku position is
//! looked up under the board's eight symmetries; a Go joseki by the stones of one corner (either
//! way round, either colour starting), so the order of the moves and play elsewhere do not
//! matter. The name shown for a game is that of the last named position it reached.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::any::{AnyMove, AnyPosition};
use crate::game::{Cell, GameKind, Side, Square};
use crate::sgf;

const REVERSI_TEXT: &str = include_str!("../data/openings/reversi.txt");
const GOMOKU_TEXT: &str = include_str!("../data/openings/gomoku.sgf");
const GO_TEXT: &str = include_str!("../data/openings/go.sgf");

/// An opening's name in the languages the data give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningName {
    /// English (for renju openings: the RIF number and the Japanese reading).
    pub en: String,
    pub zh: Option<String>,
    pub ja: Option<String>,
}

/// One position of an opening tree: the line of moves that reaches it from the start.
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningNode {
    /// The moves from the start, in Qi's notation ([`AnyPosition::parse_move`]).
    pub line: Vec<String>,
    pub name: Option<OpeningName>,
    pub parent: Option<usize>,
    pub children: Vec<usize>,
}

/// The openings of one game as a tree; node 0 is the start position.
#[derive(Debug)]
pub struct OpeningBook {
    pub kind: GameKind,
    /// The start the lines are played from (Go: an empty 19×19 board; Gomoku: 15×15).
    pub start: AnyPosition,
    pub nodes: Vec<OpeningNode>,
    /// Where the names come from (the data file's own words).
    pub source: String,
    /// Named positions: Reversi/Gomoku board keys under every symmetry; Go corner keys.
    keys: HashMap<Vec<u8>, usize>,
}

/// A named opening reached in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recognised {
    pub node: usize,
    /// The ply (number of moves played) at which the game reached it.
    pub ply: usize,
}

/// The built-in openings of a game (`None` for Ataxx, which has no named openings).
pub fn book(kind: GameKind) -> Option<&'static OpeningBook> {
    static BOOKS: OnceLock<[Option<OpeningBook>; 4]> = OnceLock::new();
    let books = BOOKS.get_or_init(|| {
        let read = |k: GameKind| {
            let r = match k {
                GameKind::Ataxx => return None,
                GameKind::Reversi => parse_reversi_list(REVERSI_TEXT),
                GameKind::Gomoku => parse_sgf_book(GameKind::Gomoku, GOMOKU_TEXT),
                GameKind::Go => parse_sgf_book(GameKind::Go, GO_TEXT),
            };
            // the files are built in and checked by the tests
            Some(r.unwrap_or_else(|e| panic!("built-in {k} openings: {e}")))
        };
        GameKind::ALL.map(read)
    });
    let i = GameKind::ALL.iter().position(|&k| k == kind)?;
    books[i].as_ref()
}

/// Reads the Reversi list: `<moves>  <name>` a line (`#` comments).
pub fn parse_reversi_list(text: &str) -> Result<OpeningBook, String> {
    let mut b = OpeningBook::new(
        GameKind::Reversi,
        AnyPosition::start(GameKind::Reversi).map_err(|e| e.0)?,
    );
    b.source = comment_lines(text);
    let mut entries: Vec<(Vec<String>, String)> = Vec::new();
    for (no, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (moves, name) = line
            .split_once(char::is_whitespace)
            .ok_or_else(|| format!("line {}: no name", no + 1))?;
        let name = name.trim();
        if moves.len() % 2 != 0 || !moves.is_ascii() || name.is_empty() {
            return Err(format!("line {}: '{line}' is not <moves> <name>", no + 1));
        }
        let squares: Vec<String> = (0..moves.len())
            .step_by(2)
            .map(|i| moves[i..i + 2].to_ascii_lowercase())
            .collect();
        entries.push((squares, name.to_string()));
    }
    // shorter lines first, so a line's parent (its longest listed prefix) is already there
    entries.sort_by_key(|(m, _)| m.len());
    for (line, name) in entries {
        let parent = (0..line.len())
            .rev()
            .find_map(|n| b.find_line(&line[..n]))
            .unwrap_or(0);
        let name = OpeningName {
            en: name,
            zh: None,
            ja: None,
        };
        b.push(parent, line, Some(name))?;
    }
    b.index()?;
    Ok(b)
}

/// Reads an SGF tree of openings (`N`/`ZH`/`JA` names) for Gomoku or Go.
pub fn parse_sgf_book(kind: GameKind, text: &str) -> Result<OpeningBook, String> {
    let trees = sgf::parse_collection(text).map_err(|e| e.to_string())?;
    let root = trees.first().ok_or("no game tree")?;
    let size: u8 = root
        .value("SZ")
        .unwrap_or("19")
        .trim()
        .parse()
        .map_err(|_| "SZ is not a number".to_string())?;
    let start = match kind {
        GameKind::Go => AnyPosition::Go(Box::new(
            crate::go::Go::new(size, crate::go::DEFAULT_KOMI).map_err(|e| e.0)?,
        )),
        GameKind::Gomoku => AnyPosition::Gomoku(Box::new(crate::gomoku::Gomoku::new(
            size,
            crate::gomoku::GomokuRule::Renju,
        ))),
        _ => return Err(format!("{kind} openings are not an SGF tree")),
    };
    let mut b = OpeningBook::new(kind, start);
    b.source = [root.value("GN"), root.value("C")]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join("\n");
    // (SGF node, book node it hangs under, the position before it)
    let mut pending: Vec<(&sgf::SgfNode, usize, AnyPosition)> = root
        .children
        .iter()
        .rev()
        .map(|c| (c, 0, b.start.clone()))
        .collect();
    while let Some((node, parent, mut pos)) = pending.pop() {
        let mv = ["B", "W"]
            .iter()
            .find_map(|c| node.value(c).map(|v| (*c, v)));
        let Some((colour, point)) = mv else {
            return Err("a node with no move".into());
        };
        let side = if colour == "B" {
            Side::Black
        } else {
            Side::White
        };
        if pos.side_to_move() != side {
            return Err(format!("{colour}[{point}] out of turn"));
        }
        let sq = sgf::point_from_sgf(kind, size, size, point)?.ok_or("a pass in an opening")?;
        let m = move_at(&pos, sq).ok_or_else(|| format!("{colour}[{point}] is not legal"))?;
        let text = pos.move_to_text(m);
        pos.play(m)
            .map_err(|e| format!("{colour}[{point}]: {e:?}"))?;
        let mut line = b.nodes[parent].line.clone();
        line.push(text);
        let name = node.value("N").map(|en| OpeningName {
            en: en.trim().to_string(),
            zh: node.value("ZH").map(|s| s.trim().to_string()),
            ja: node.value("JA").map(|s| s.trim().to_string()),
        });
        let id = b.push(parent, line, name)?;
        for c in node.children.iter().rev() {
            pending.push((c, id, pos.clone()));
        }
    }
    b.index()?;
    Ok(b)
}

/// The comment lines of a text file, without their `#`.
fn comment_lines(text: &str) -> String {
    text.lines()
        .filter_map(|l| l.strip_prefix('#'))
        .map(|l| l.trim())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The placing move onto `sq`, if it is legal.
fn move_at(pos: &AnyPosition, sq: Square) -> Option<AnyMove> {
    pos.legal_moves()
        .into_iter()
        .find(|&m| pos.move_squares(m).to == Some(sq))
}

/// The eight symmetries of a square board of side `n`.
fn transform(t: u8, sq: Square, n: u8) -> Square {
    let (x, y) = (sq.x, sq.y);
    let m = n - 1;
    let (x, y) = if t & 4 != 0 { (y, x) } else { (x, y) };
    let x = if t & 1 != 0 { m - x } else { x };
    let y = if t & 2 != 0 { m - y } else { y };
    Square::new(x, y)
}

fn cell_byte(c: Cell) -> u8 {
    match c {
        Cell::Empty => 0,
        Cell::Blocked => 3,
        Cell::Piece(Side::Black) => 1,
        Cell::Piece(Side::White) => 2,
    }
}

/// The whole board read through symmetry `t`, and the side to move.
fn board_key(pos: &AnyPosition, t: u8) -> Vec<u8> {
    let (n, _) = pos.dimensions();
    let mut key = Vec::with_capacity(n as usize * n as usize + 1);
    for y in 0..n {
        for x in 0..n {
            key.push(cell_byte(pos.cell(transform(t, Square::new(x, y), n))));
        }
    }
    key.push(match pos.side_to_move() {
        Side::Black => 1,
        Side::White => 2,
    });
    key
}

/// Whether playing `mv` in `pos` reaches `reached` up to the board's symmetries (the same
/// pieces, turned or mirrored, and the same side to move); false for Go, whose captures and ko
/// make a position more than its stones.
pub fn same_after(pos: &AnyPosition, mv: AnyMove, reached: &AnyPosition) -> bool {
    if pos.kind() == GameKind::Go || pos.dimensions().0 != pos.dimensions().1 {
        return false;
    }
    let mut next = pos.clone();
    if next.play(mv).is_err() {
        return false;
    }
    let key = board_key(reached, 0);
    (0..8).any(|t| board_key(&next, t) == key)
}

/// How many lines from each edge a Go corner reaches: 10 on 19×19, 7 on 13×13.
fn corner_reach(n: u8) -> u8 {
    n.div_ceil(2)
}

/// The four corners: whether x and y count from the far edge.
const CORNERS: [(bool, bool); 4] = [(true, true), (false, true), (false, false), (true, false)];

/// A Go corner's stones as distances from its two edges (sorted), read one way round
/// (`swap`: the other) and with the colours as they are or swapped.
fn corner_key(pos: &AnyPosition, corner: (bool, bool), swap: bool, recolour: bool) -> Vec<u8> {
    let (n, _) = pos.dimensions();
    let reach = corner_reach(n);
    let mut stones = Vec::new();
    for y in 0..n {
        for x in 0..n {
            let Cell::Piece(side) = pos.cell(Square::new(x, y)) else {
                continue;
            };
            let dx = if corner.0 { n - 1 - x } else { x };
            let dy = if corner.1 { n - 1 - y } else { y };
            if dx >= reach || dy >= reach {
                continue;
            }
            let (a, b) = if swap { (dy, dx) } else { (dx, dy) };
            let black = (side == Side::Black) != recolour;
            stones.push([a, b, if black { 1 } else { 2 }]);
        }
    }
    stones.sort_unstable();
    stones.concat()
}

/// Whether `sq` lies in a Go corner's reach.
fn in_corner(sq: Square, n: u8, corner: (bool, bool)) -> bool {
    let dx = if corner.0 { n - 1 - sq.x } else { sq.x };
    let dy = if corner.1 { n - 1 - sq.y } else { sq.y };
    dx < corner_reach(n) && dy < corner_reach(n)
}

impl OpeningBook {
    fn new(kind: GameKind, start: AnyPosition) -> OpeningBook {
        OpeningBook {
            kind,
            start,
            nodes: vec![OpeningNode {
                line: Vec::new(),
                name: None,
                parent: None,
                children: Vec::new(),
            }],
            source: String::new(),
            keys: HashMap::new(),
        }
    }

    fn push(
        &mut self,
        parent: usize,
        line: Vec<String>,
        name: Option<OpeningName>,
    ) -> Result<usize, String> {
        if self.find_line(&line).is_some() {
            return Err(format!("the line {} is there twice", line.join(" ")));
        }
        let id = self.nodes.len();
        self.nodes.push(OpeningNode {
            line,
            name,
            parent: Some(parent),
            children: Vec::new(),
        });
        self.nodes[parent].children.push(id);
        Ok(id)
    }

    /// The node whose line is exactly `line`.
    pub fn find_line(&self, line: &[String]) -> Option<usize> {
        self.nodes.iter().position(|n| n.line == line)
    }

    /// The position at the end of a node's line.
    pub fn position(&self, node: usize) -> Result<AnyPosition, String> {
        let mut pos = self.start.clone();
        for text in &self.nodes[node].line {
            let m = pos.parse_move(text).map_err(|e| e.0)?;
            pos.play(m).map_err(|e| format!("{text}: {e:?}"))?;
        }
        Ok(pos)
    }

    /// Plays every line and keeps the keys of the named positions.
    fn index(&mut self) -> Result<(), String> {
        for id in 0..self.nodes.len() {
            if self.nodes[id].name.is_none() {
                continue;
            }
            let pos = self.position(id)?;
            let keys: Vec<Vec<u8>> = if self.kind == GameKind::Go {
                let mut k = Vec::new();
                for swap in [false, true] {
                    for recolour in [false, true] {
                        k.push(corner_key(&pos, (true, true), swap, recolour));
                    }
                }
                k
            } else {
                (0..8).map(|t| board_key(&pos, t)).collect()
            };
            for k in keys {
                // a deeper line's name wins over a shorter one that reached the same position
                self.keys.insert(k, id);
            }
        }
        Ok(())
    }

    /// The names from the tree's top down to `node` (the named nodes on its path).
    pub fn names_to(&self, node: usize) -> Vec<&OpeningName> {
        let mut out = Vec::new();
        let mut at = Some(node);
        while let Some(i) = at {
            if let Some(n) = &self.nodes[i].name {
                out.push(n);
            }
            at = self.nodes[i].parent;
        }
        out.reverse();
        out
    }

    /// The last named opening a game reached, playing `moves` from `start`. A game from
    /// another start (a set-up position, another board size for Reversi and Gomoku) has none.
    pub fn recognise(&self, start: &AnyPosition, moves: &[AnyMove]) -> Option<Recognised> {
        if start.kind() != self.kind {
            return None;
        }
        let (n, h) = start.dimensions();
        let (bn, _) = self.start.dimensions();
        let go = self.kind == GameKind::Go;
        if n != h || (!go && n != bn) || (go && n < 13) {
            return None;
        }
        let empty_start =
            (0..n).all(|y| (0..n).all(|x| start.cell(Square::new(x, y)) == Cell::Empty));
        if !go && board_key(start, 0) != board_key(&self.start, 0) || go && !empty_start {
            return None;
        }
        let mut pos = start.clone();
        let mut found = None;
        for (i, &m) in moves.iter().enumerate() {
            let to = pos.move_squares(m).to;
            if pos.play(m).is_err() {
                break;
            }
            let hit = if go {
                let Some(sq) = to else { continue };
                CORNERS
                    .iter()
                    .filter(|&&c| in_corner(sq, n, c))
                    .find_map(|&c| self.keys.get(&corner_key(&pos, c, false, false)))
            } else {
                self.keys.get(&board_key(&pos, 0))
            };
            if let Some(&node) = hit {
                found = Some(Recognised { node, ply: i + 1 });
            }
        }
        found
    }
}

#[cfg(test)]
mod tests;
