//! SGF FF\[4\] game records for Go (GM\[1\]), Reversi (GM\[2\]) and Gomoku (GM\[4\]).
//!
//! Reading goes through the `sgf-parse` crate (tokens, escapes, the tree, FF\[3\] identifiers),
//! then into a plain tree of raw properties, [`SgfNode`], that keeps every property of every
//! node. [`GameRecord`] reads the main line of such a tree into what the app needs (game, size,
//! setup stones, players, result, date, rules, komi, moves as points, a comment per node) and
//! keeps everything else: unknown properties per node and the variations (the other children
//! of each main-line node) as raw subtrees, so a file read and written back loses nothing but
//! formatting.
//!
//! Points are the same two letters in all three games: `aa` is the top-left point, the first
//! letter the column from the left, the second the row from the top. Go and Gomoku number their
//! rows from the bottom, so `aa` on a 19×19 board is A19 (`Square(0, 18)`); Othello boards
//! number them from the top, so on a Reversi board `aa` is a1 and the first move d3 is `dc`,
//! as other Othello programs write it. A pass
//! is an empty value (`B[]`); `tt` is read as a pass on Go boards up to 19×19. Go records
//! replay into [`Go`] positions with [`GameRecord::replay_go`] and are made from a game with
//! [`GameRecord::from_go`]; Reversi and Gomoku the same way with [`GameRecord::replay_reversi`] /
//! [`GameRecord::from_reversi`] and [`GameRecord::replay_gomoku`] / [`GameRecord::from_gomoku`].
//!
//! Reversi records: the start is the `AB`/`AW` setup before the first move (the usual centre
//! four when there is none); a pass may be written (`B[]`) or left out, as many Othello programs
//! do: when the record has the other side move next and the side to move has no move, the pass
//! is put in. Gomoku records: `RU` names the rule (`renju`/`RIF` → renju, `standard`/`exact`
//! → exactly five, anything else or none → freestyle); a pass is refused.
//!
//! Limits: a text longer than [`crate::records::MAX_RECORD_BYTES`] is refused, and so is a
//! tree deeper than [`MAX_SGF_DEPTH`] nodes on one path (a main line of more moves, or
//! variations nested deeper) or with more than [`MAX_SGF_DEPTH`] nested parentheses: the text
//! is measured before it is parsed, with a clear error. Everything here works without
//! recursion (reading, writing, cloning, comparing and dropping trees), so a record up to the
//! limit is read on a thread with a small stack too.

use std::fmt;

use crate::game::{Cell, Game, GameKind, Side, Square};
use crate::go::{self, Go};
use crate::gomoku::{self, Gomoku, GomokuRule};
use crate::records::RecordError;
use crate::reversi::{self, Reversi};

/// One property as the file has it: identifier and values, escapes removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfProperty {
    pub id: String,
    pub values: Vec<String>,
}

impl SgfProperty {
    pub fn new(id: &str, values: Vec<String>) -> SgfProperty {
        SgfProperty {
            id: id.to_string(),
            values,
        }
    }

    pub fn one(id: &str, value: impl Into<String>) -> SgfProperty {
        SgfProperty::new(id, vec![value.into()])
    }
}

/// The most nodes on one path of a game tree (root to leaf: the root, then one node per move
/// of a main line), and the deepest nesting of parentheses, that Qi reads. The longest real
/// games have under a thousand moves; a file past this is refused with an error that names
/// the limit.
pub const MAX_SGF_DEPTH: usize = 10_000;

/// A node of an SGF game tree with its subtrees; the first child is the main line.
///
/// Cloning, comparing, printing with `{:?}` and dropping walk the tree without recursion, so a
/// tree as deep as [`MAX_SGF_DEPTH`] is safe on any thread.
#[derive(Eq, Default)]
pub struct SgfNode {
    pub props: Vec<SgfProperty>,
    pub children: Vec<SgfNode>,
}

impl Drop for SgfNode {
    fn drop(&mut self) {
        // take the subtrees apart one node at a time instead of the recursive drop glue
        let mut pending = std::mem::take(&mut self.children);
        while let Some(mut n) = pending.pop() {
            pending.append(&mut n.children);
        }
    }
}

impl Clone for SgfNode {
    fn clone(&self) -> SgfNode {
        // post-order with an explicit stack: a node is built once its children are
        struct Frame<'a> {
            src: &'a SgfNode,
            next: usize,
            done: Vec<SgfNode>,
        }
        let mut stack = vec![Frame {
            src: self,
            next: 0,
            done: Vec::with_capacity(self.children.len()),
        }];
        loop {
            let top = stack.last_mut().expect("the root frame is last out");
            if let Some(child) = top.src.children.get(top.next) {
                top.next += 1;
                stack.push(Frame {
                    src: child,
                    next: 0,
                    done: Vec::with_capacity(child.children.len()),
                });
                continue;
            }
            let f = stack.pop().expect("a frame");
            let node = SgfNode {
                props: f.src.props.clone(),
                children: f.done,
            };
            match stack.last_mut() {
                Some(parent) => parent.done.push(node),
                None => return node,
            }
        }
    }
}

impl PartialEq for SgfNode {
    fn eq(&self, other: &SgfNode) -> bool {
        let mut pairs = vec![(self, other)];
        while let Some((a, b)) = pairs.pop() {
            if a.props != b.props || a.children.len() != b.children.len() {
                return false;
            }
            pairs.extend(a.children.iter().zip(&b.children));
        }
        true
    }
}

impl fmt::Debug for SgfNode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SgfNode({})", self.to_sgf())
    }
}

impl SgfNode {
    /// The values of property `id`, if the node has it.
    pub fn get(&self, id: &str) -> Option<&[String]> {
        self.props
            .iter()
            .find(|p| p.id == id)
            .map(|p| p.values.as_slice())
    }

    /// The first value of property `id`.
    pub fn value(&self, id: &str) -> Option<&str> {
        self.get(id).and_then(|v| v.first()).map(|s| s.as_str())
    }

    /// The whole tree as SGF text, `(;…)`.
    pub fn to_sgf(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        // an explicit stack of what is left to write: variations nest without recursion
        enum Job<'a> {
            Tree(&'a SgfNode),
            Text(&'static str),
        }
        let mut jobs = vec![Job::Tree(self)];
        while let Some(job) = jobs.pop() {
            let first = match job {
                Job::Text(t) => {
                    out.push_str(t);
                    continue;
                }
                Job::Tree(n) => n,
            };
            out.push('(');
            let mut node = first;
            loop {
                out.push(';');
                for p in &node.props {
                    out.push_str(&p.id);
                    if p.values.is_empty() {
                        out.push_str("[]");
                    }
                    for v in &p.values {
                        out.push('[');
                        for c in v.chars() {
                            if c == ']' || c == '\\' {
                                out.push('\\');
                            }
                            out.push(c);
                        }
                        out.push(']');
                    }
                }
                match node.children.len() {
                    0 => {
                        out.push(')');
                        break;
                    }
                    1 => {
                        out.push('\n');
                        node = &node.children[0];
                    }
                    _ => {
                        // "\n(child 1)\n(child 2)…" then the closing parenthesis
                        jobs.push(Job::Text(")"));
                        for c in node.children.iter().rev() {
                            jobs.push(Job::Tree(c));
                            jobs.push(Job::Text("\n"));
                        }
                        break;
                    }
                }
            }
        }
    }

    /// Nodes along the main line, this one first.
    pub fn main_line(&self) -> impl Iterator<Item = &SgfNode> {
        let mut cur = Some(self);
        std::iter::from_fn(move || {
            let n = cur?;
            cur = n.children.first();
            Some(n)
        })
    }
}

impl fmt::Display for SgfNode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_sgf())
    }
}

/// An English detail of an SGF error ([`RecordError`]'s `Display`).
fn sgf(msg: impl fmt::Display) -> String {
    format!("SGF: {msg}")
}

/// Splits `ID[v1][v2]` (as `sgf-parse` prints a property) into identifier and raw values.
fn split_printed(text: &str) -> SgfProperty {
    let id: String = text.chars().take_while(|&c| c != '[').collect();
    let mut values = Vec::new();
    let mut cur = String::new();
    let mut inside = false;
    let mut escaped = false;
    for c in text[id.len()..].chars() {
        if !inside {
            if c == '[' {
                inside = true;
                cur.clear();
            }
        } else if escaped {
            cur.push(c);
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == ']' {
            inside = false;
            values.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
    }
    // `sgf-parse` keeps lists in hash sets: sort them so output is the same on every run
    if values.len() > 1 {
        values.sort();
    }
    SgfProperty { id, values }
}

macro_rules! convert_prop {
    ($name:ident, $($prop:ident)::+) => {
        fn $name(p: &$($prop)::+) -> SgfProperty {
            use $($prop)::+ as P;
            match p {
                P::Unknown(id, v) | P::Invalid(id, v) => SgfProperty {
                    id: id.clone(),
                    values: v.clone(),
                },
                other => {
                    let mut p = split_printed(&other.to_string());
                    // `sgf-parse` prints a square SZ as `19:19`
                    if p.id == "SZ" && p.values.len() == 1 {
                        if let Some((a, b)) = p.values[0].split_once(':') {
                            if a == b {
                                p.values[0] = a.to_string();
                            }
                        }
                    }
                    p
                }
            }
        }
    };
}

convert_prop!(convert_go_prop, sgf_parse::go::Prop);
convert_prop!(convert_other_prop, sgf_parse::unknown_game::Prop);

/// Turns an `sgf-parse` tree into an [`SgfNode`] tree without recursion, taking the source tree
/// apart as it goes (so that its recursive drop never runs on a deep tree either).
fn convert_tree<P: sgf_parse::SgfProp>(
    root: sgf_parse::SgfNode<P>,
    prop: fn(&P) -> SgfProperty,
) -> SgfNode {
    struct Frame<P: sgf_parse::SgfProp> {
        props: Vec<SgfProperty>,
        pending: std::vec::IntoIter<sgf_parse::SgfNode<P>>,
        done: Vec<SgfNode>,
    }
    let open = |mut n: sgf_parse::SgfNode<P>| {
        let children = std::mem::take(&mut n.children);
        Frame {
            props: n.properties.iter().map(prop).collect(),
            done: Vec::with_capacity(children.len()),
            pending: children.into_iter(),
        }
    };
    let mut stack = vec![open(root)];
    loop {
        let top = stack.last_mut().expect("the root frame is last out");
        if let Some(child) = top.pending.next() {
            let f = open(child);
            stack.push(f);
            continue;
        }
        let f = stack.pop().expect("a frame");
        let node = SgfNode {
            props: f.props,
            children: f.done,
        };
        match stack.last_mut() {
            Some(parent) => parent.done.push(node),
            None => return node,
        }
    }
}

/// Measures an SGF text before it is parsed: the most nodes on one path of a tree and the
/// deepest nesting of parentheses (property values, with their escapes, are skipped). An error
/// past [`MAX_SGF_DEPTH`] (the parser and the trees it builds would recurse that deep).
pub fn check_depth(text: &str) -> Result<(), RecordError> {
    // for each open parenthesis, the nodes on the path when it opened
    let mut open: Vec<usize> = Vec::new();
    let mut nodes = 0usize;
    let mut bytes = text.bytes();
    while let Some(b) = bytes.next() {
        match b {
            b'[' => {
                // a value: up to the first ']' not escaped with '\\'
                while let Some(c) = bytes.next() {
                    match c {
                        b'\\' => {
                            bytes.next();
                        }
                        b']' => break,
                        _ => {}
                    }
                }
            }
            b'(' => {
                open.push(nodes);
                if open.len() > MAX_SGF_DEPTH {
                    return Err(RecordError::TooDeep {
                        detail: sgf(format!(
                            "variations are nested more than {MAX_SGF_DEPTH} deep; Qi reads up \
                             to {MAX_SGF_DEPTH}"
                        )),
                    });
                }
            }
            b')' => {
                // an unbalanced ')' is left to the parser to report
                if let Some(n) = open.pop() {
                    nodes = n;
                }
            }
            b';' => {
                nodes += 1;
                if nodes > MAX_SGF_DEPTH {
                    return Err(RecordError::TooDeep {
                        detail: sgf(format!(
                            "a line of play has more than {MAX_SGF_DEPTH} nodes (moves); Qi \
                             reads records up to {MAX_SGF_DEPTH}"
                        )),
                    });
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Reads every game tree of an SGF collection (at most
/// [`crate::records::MAX_RECORD_BYTES`] of text and [`MAX_SGF_DEPTH`] deep).
pub fn parse_collection(text: &str) -> Result<Vec<SgfNode>, RecordError> {
    let cap = crate::records::MAX_RECORD_BYTES;
    if text.len() > cap {
        return Err(RecordError::TooBig { bytes: text.len() });
    }
    if !text.contains("(;") && !text.contains("( ;") {
        return Err(RecordError::sgf_syntax(
            "no game tree found (an SGF file starts with '(;')",
        ));
    }
    check_depth(text)?;
    let trees = sgf_parse::parse(text).map_err(|e| match e {
        sgf_parse::SgfParseError::NoGameTrees => {
            RecordError::sgf_syntax("no game tree found (an SGF file starts with '(;')")
        }
        sgf_parse::SgfParseError::InvalidGameType => {
            RecordError::sgf_syntax("the game type GM is not a number")
        }
        other => RecordError::sgf_syntax(format!("the file is not well formed: {other}")),
    })?;
    Ok(trees
        .into_iter()
        .map(|t| match t {
            sgf_parse::GameTree::GoGame(n) => convert_tree(n, convert_go_prop),
            sgf_parse::GameTree::Unknown(n) => convert_tree(n, convert_other_prop),
        })
        .collect())
}

/// Writes game trees as an SGF collection.
pub fn write_collection(trees: &[SgfNode]) -> String {
    let mut s: String = trees
        .iter()
        .map(|t| t.to_sgf())
        .collect::<Vec<_>>()
        .join("\n");
    s.push('\n');
    s
}

/// The `GM` number of a game, `None` for Ataxx (its records are PGN).
pub fn game_number(kind: GameKind) -> Option<u32> {
    match kind {
        GameKind::Go => Some(1),
        GameKind::Reversi => Some(2),
        GameKind::Gomoku => Some(4),
        GameKind::Ataxx => None,
    }
}

/// The board a game's record has when `SZ` is missing.
pub fn default_size(kind: GameKind) -> u8 {
    match kind {
        GameKind::Go => 19,
        GameKind::Reversi => 8,
        GameKind::Gomoku => 15,
        GameKind::Ataxx => 7,
    }
}

/// Writes a point the SGF way (`aa` top left) on a board `height` rows high.
pub fn point_to_sgf(kind: GameKind, sq: Square, height: u8) -> String {
    let letter = |v: u8| {
        if v < 26 {
            (b'a' + v) as char
        } else {
            (b'A' + v - 26) as char
        }
    };
    format!(
        "{}{}",
        letter(sq.x),
        letter(row_from_top(kind, sq.y, height))
    )
}

/// A square's row counted from the top of the board (and back: the map is its own inverse).
/// Reversi's row 1 is the top row, as Othello boards are labelled (`aa` = a1); Go's and
/// Gomoku's row 1 is the bottom one (`aa` = A19 on 19×19).
fn row_from_top(kind: GameKind, y: u8, height: u8) -> u8 {
    if kind == GameKind::Reversi {
        y
    } else {
        height - 1 - y
    }
}

/// Reads an SGF point of a `kind` game on a `width` × `height` board: `None` for a pass (an
/// empty value, or `tt` on Go boards up to 19×19).
pub fn point_from_sgf(
    kind: GameKind,
    width: u8,
    height: u8,
    text: &str,
) -> Result<Option<Square>, String> {
    let t = text.trim();
    if t.is_empty() || (kind == GameKind::Go && t == "tt" && width <= 19 && height <= 19) {
        return Ok(None);
    }
    let b = t.as_bytes();
    let coord = |c: u8| match c {
        b'a'..=b'z' => Some(c - b'a'),
        b'A'..=b'Z' => Some(c - b'A' + 26),
        _ => None,
    };
    if b.len() != 2 {
        return Err(format!("'{t}' is not a point (two letters)"));
    }
    match (coord(b[0]), coord(b[1])) {
        (Some(x), Some(y)) if x < width && y < height => {
            Ok(Some(Square::new(x, row_from_top(kind, y, height))))
        }
        (Some(_), Some(_)) => Err(format!("'{t}' is off the {width}x{height} board")),
        _ => Err(format!("'{t}' is not a point (two letters)")),
    }
}

/// One node of the main line.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct RecordNode {
    /// The move of this node: who and where (`None` is a pass).
    pub mv: Option<(Side, Option<Square>)>,
    /// Setup at this node: `AB`/`AW` stones and `AE` (`None`) clearings.
    pub setup: Vec<(Option<Side>, Square)>,
    /// `PL`: who moves next.
    pub to_play: Option<Side>,
    /// `C`.
    pub comment: Option<String>,
    /// Every other property, as read.
    pub extra: Vec<SgfProperty>,
    /// The other children of this node (alternatives to the next main-line node), as read.
    pub variations: Vec<SgfNode>,
}

/// A game record, any of the three SGF games.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub kind: GameKind,
    pub width: u8,
    pub height: u8,
    /// `KM` (Go).
    pub komi: Option<f64>,
    /// `HA` (Go): the number of handicap stones; they themselves are setup (`AB`).
    pub handicap: u32,
    pub black: Option<String>,
    pub white: Option<String>,
    /// `RE`: `B+3.5`, `W+R`, `Draw`/`0`, …
    pub result: Option<String>,
    pub date: Option<String>,
    pub rules: Option<String>,
    /// The main line: the root node first (its setup, comment and other root properties),
    /// then one node per move.
    pub nodes: Vec<RecordNode>,
}

/// Game-info properties that have fields in [`GameRecord`].
const INFO: [&str; 10] = ["GM", "FF", "SZ", "KM", "HA", "PB", "PW", "RE", "DT", "RU"];

impl GameRecord {
    /// An empty record (just a root node).
    pub fn new(kind: GameKind, width: u8, height: u8) -> GameRecord {
        GameRecord {
            kind,
            width,
            height,
            komi: None,
            handicap: 0,
            black: None,
            white: None,
            result: None,
            date: None,
            rules: None,
            nodes: vec![RecordNode::default()],
        }
    }

    /// Reads the first game of an SGF file.
    pub fn from_sgf(text: &str) -> Result<GameRecord, RecordError> {
        let trees = parse_collection(text)?;
        let tree = trees
            .first()
            .ok_or_else(|| RecordError::sgf_syntax("no game tree found"))?;
        GameRecord::from_tree(tree)
    }

    /// Reads a game tree.
    pub fn from_tree(root: &SgfNode) -> Result<GameRecord, RecordError> {
        let kind = match root.value("GM").map(str::trim) {
            None | Some("1") => GameKind::Go,
            Some("2") => GameKind::Reversi,
            Some("4") => GameKind::Gomoku,
            Some(other) => {
                return Err(RecordError::OtherGame {
                    name: format!("GM[{other}]"),
                    detail: sgf(format!(
                        "GM[{other}] is a game Qi does not play (Go is 1, Reversi 2, Gomoku 4)"
                    )),
                });
            }
        };
        let (width, height) = match root.value("SZ") {
            None => (default_size(kind), default_size(kind)),
            Some(v) => parse_size(v)?,
        };
        let max = if kind == GameKind::Go { 19 } else { 26 };
        let min = if kind == GameKind::Go { 5 } else { 4 };
        if width < min || height < min || width > max || height > max {
            let value = root.value("SZ").unwrap_or("").to_string();
            return Err(RecordError::BadSize {
                detail: sgf(format!(
                    "SZ[{value}] is not a {} board Qi can play ({min} to {max})",
                    kind.title()
                )),
                value,
            });
        }
        let text = |id: &str| {
            root.value(id)
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
        };
        let komi = match root.value("KM").map(str::trim) {
            None | Some("") => None,
            Some(v) => Some(
                v.parse::<f64>()
                    .ok()
                    .filter(|k| k.is_finite())
                    .ok_or_else(|| bad_value("KM", v, "is not a number"))?,
            ),
        };
        let handicap = match root.value("HA").map(str::trim) {
            None | Some("") => 0,
            Some(v) => v
                .parse::<u32>()
                .map_err(|_| bad_value("HA", v, "is not a number of stones"))?,
        };
        let mut rec = GameRecord {
            kind,
            width,
            height,
            komi,
            handicap,
            black: text("PB"),
            white: text("PW"),
            result: text("RE"),
            date: text("DT"),
            rules: text("RU"),
            nodes: Vec::new(),
        };
        let mut node = root;
        let mut number = 0;
        loop {
            let is_root = number == 0;
            rec.nodes.push(rec.read_node(node, number, is_root)?);
            match node.children.first() {
                Some(c) => node = c,
                None => break,
            }
            number += 1;
        }
        Ok(rec)
    }

    fn read_node(
        &self,
        n: &SgfNode,
        number: usize,
        is_root: bool,
    ) -> Result<RecordNode, RecordError> {
        let mut out = RecordNode {
            variations: n.children.iter().skip(1).cloned().collect(),
            ..RecordNode::default()
        };
        let at = |what: &str| {
            if is_root {
                format!("root node {what}")
            } else {
                format!("node {number} {what}")
            }
        };
        for p in &n.props {
            if is_root && INFO.contains(&p.id.as_str()) {
                continue;
            }
            let side = match p.id.as_str() {
                "B" | "AB" => Some(Side::Black),
                "W" | "AW" => Some(Side::White),
                _ => None,
            };
            match p.id.as_str() {
                "B" | "W" => {
                    if out.mv.is_some() {
                        return Err(RecordError::NotALine {
                            node: number,
                            detail: sgf(at("has two moves")),
                        });
                    }
                    let v = p.values.first().map(String::as_str).unwrap_or("");
                    let pt =
                        point_from_sgf(self.kind, self.width, self.height, v).map_err(|e| {
                            RecordError::BadValue {
                                property: p.id.clone(),
                                value: v.to_string(),
                                detail: sgf(at(&format!("{}[{v}]: {e}", p.id))),
                            }
                        })?;
                    out.mv = Some((side.expect("B or W"), pt));
                }
                "AB" | "AW" | "AE" => {
                    for v in &p.values {
                        for sq in self.point_list(v).map_err(|e| RecordError::BadValue {
                            property: p.id.clone(),
                            value: v.to_string(),
                            detail: sgf(at(&format!("{}[{v}]: {e}", p.id))),
                        })? {
                            out.setup.push((side, sq));
                        }
                    }
                }
                "PL" => {
                    out.to_play = match p.values.first().map(|s| s.trim()) {
                        Some("B") | Some("b") | Some("1") => Some(Side::Black),
                        Some("W") | Some("w") | Some("2") => Some(Side::White),
                        _ => {
                            let value = p.values.join("][");
                            return Err(RecordError::BadValue {
                                property: "PL".into(),
                                detail: sgf(at(&format!("PL[{value}] is not B or W"))),
                                value,
                            });
                        }
                    }
                }
                "C" => out.comment = p.values.first().cloned(),
                _ => out.extra.push(p.clone()),
            }
        }
        Ok(out)
    }

    /// A point or a compressed rectangle `aa:cc` of setup points.
    fn point_list(&self, v: &str) -> Result<Vec<Square>, String> {
        // read as Gomoku points on a Go board, so that `tt` is a point here, not a pass
        let kind = match self.kind {
            GameKind::Go => GameKind::Gomoku,
            k => k,
        };
        let sq = |t: &str| -> Result<Square, String> {
            point_from_sgf(kind, self.width, self.height, t)?
                .ok_or_else(|| "a setup point cannot be empty".to_string())
        };
        match v.split_once(':') {
            None => Ok(vec![sq(v)?]),
            Some((a, b)) => {
                let (a, b) = (sq(a)?, sq(b)?);
                let mut out = Vec::new();
                for x in a.x.min(b.x)..=a.x.max(b.x) {
                    for y in a.y.min(b.y)..=a.y.max(b.y) {
                        out.push(Square::new(x, y));
                    }
                }
                Ok(out)
            }
        }
    }

    /// The record as a game tree.
    pub fn to_tree(&self) -> SgfNode {
        let mut child: Option<SgfNode> = None;
        for (i, n) in self.nodes.iter().enumerate().rev() {
            let mut props = Vec::new();
            if i == 0 {
                props.push(SgfProperty::one("FF", "4"));
                if let Some(gm) = game_number(self.kind) {
                    props.push(SgfProperty::one("GM", gm.to_string()));
                }
                props.push(SgfProperty::one(
                    "SZ",
                    if self.width == self.height {
                        self.width.to_string()
                    } else {
                        format!("{}:{}", self.width, self.height)
                    },
                ));
                if let Some(k) = self.komi {
                    props.push(SgfProperty::one("KM", format!("{k}")));
                }
                if self.handicap > 0 {
                    props.push(SgfProperty::one("HA", self.handicap.to_string()));
                }
                for (id, v) in [
                    ("PB", &self.black),
                    ("PW", &self.white),
                    ("RE", &self.result),
                    ("DT", &self.date),
                    ("RU", &self.rules),
                ] {
                    if let Some(v) = v {
                        props.push(SgfProperty::one(id, v.clone()));
                    }
                }
            }
            if let Some((side, pt)) = n.mv {
                let v = pt
                    .map(|s| point_to_sgf(self.kind, s, self.height))
                    .unwrap_or_default();
                props.push(SgfProperty::one(
                    if side == Side::Black { "B" } else { "W" },
                    v,
                ));
            }
            for (id, want) in [
                ("AB", Some(Side::Black)),
                ("AW", Some(Side::White)),
                ("AE", None),
            ] {
                let mut pts: Vec<String> = n
                    .setup
                    .iter()
                    .filter(|(s, _)| *s == want)
                    .map(|(_, sq)| point_to_sgf(self.kind, *sq, self.height))
                    .collect();
                if !pts.is_empty() {
                    pts.sort();
                    props.push(SgfProperty::new(id, pts));
                }
            }
            if let Some(s) = n.to_play {
                props.push(SgfProperty::one(
                    "PL",
                    if s == Side::Black { "B" } else { "W" },
                ));
            }
            if let Some(c) = &n.comment {
                props.push(SgfProperty::one("C", c.clone()));
            }
            props.extend(n.extra.iter().cloned());
            let mut children: Vec<SgfNode> = child.take().into_iter().collect();
            children.extend(n.variations.iter().cloned());
            child = Some(SgfNode { props, children });
        }
        child.unwrap_or_default()
    }

    /// The record as SGF text.
    pub fn to_sgf(&self) -> String {
        write_collection(&[self.to_tree()])
    }

    /// The main line's moves: who and where (`None` = pass).
    pub fn moves(&self) -> impl Iterator<Item = (Side, Option<Square>)> + '_ {
        self.nodes.iter().filter_map(|n| n.mv)
    }

    /// Adds a move node at the end of the main line.
    pub fn push_move(&mut self, side: Side, point: Option<Square>) {
        self.nodes.push(RecordNode {
            mv: Some((side, point)),
            ..RecordNode::default()
        });
    }

    /// The Go start position: size, komi (rounded to a half point), setup before the first
    /// move (or the fixed handicap points when `HA` has no stones), and who moves first (`PL`,
    /// else White after handicap stones, else the first move's colour, else Black).
    pub fn go_start(&self) -> Result<Go, RecordError> {
        if self.kind != GameKind::Go {
            return Err(other_game(self.kind, GameKind::Go));
        }
        if self.width != self.height {
            return Err(RecordError::BadSize {
                value: format!("{}:{}", self.width, self.height),
                detail: sgf(format!(
                    "a Go board is square, this one {}x{}",
                    self.width, self.height
                )),
            });
        }
        let komi = self
            .komi
            .map(|k| ((k * 2.0).round() / 2.0) as f32)
            .unwrap_or(0.0);
        let mut stones: Vec<(Side, Square)> = Vec::new();
        let mut to_play = None;
        for n in self.nodes.iter().take_while(|n| n.mv.is_none()) {
            for &(s, sq) in &n.setup {
                stones.retain(|&(_, q)| q != sq);
                if let Some(s) = s {
                    stones.push((s, sq));
                }
            }
            to_play = n.to_play.or(to_play);
        }
        if stones.is_empty() && self.handicap >= 2 {
            for sq in go::handicap_points(self.width, self.handicap.min(9) as u8)
                .map_err(|e| bad_value("HA", &self.handicap.to_string(), &e.to_string()))?
            {
                stones.push((Side::Black, sq));
            }
        }
        let first = to_play.unwrap_or_else(|| {
            if self.handicap >= 2 {
                Side::White
            } else {
                self.moves().next().map(|(s, _)| s).unwrap_or(Side::Black)
            }
        });
        Go::from_setup(self.width, komi, &stones, first)
            .map_err(|e| RecordError::BadStart { detail: sgf(e) })
    }

    /// Replays the main line as Go: the start position and the moves, each checked. A move by
    /// the side not to move is played as that side's (SGF allows it); a move after two passes
    /// resumes the game. Setup after the first move is refused.
    pub fn replay_go(&self) -> Result<(Go, Vec<go::Move>), RecordError> {
        let start = self.go_start()?;
        let mut pos = start.clone();
        let mut moves = Vec::new();
        let mut number = 0;
        let mut started = false;
        for (i, n) in self.nodes.iter().enumerate() {
            if started && !n.setup.is_empty() {
                return Err(late_setup(i));
            }
            let Some((side, pt)) = n.mv else {
                continue;
            };
            started = true;
            number += 1;
            let mv = pt.map(Go::move_at).unwrap_or(go::PASS);
            if pos.side_to_move() != side {
                pos.set_to_move(side);
            }
            if pos.is_over() && pos.resigned().is_none() {
                pos.resume();
            }
            pos.play(mv).map_err(|e| {
                bad_move(
                    number,
                    side,
                    &pos.move_to_text(mv),
                    &format!("is illegal: {e}"),
                )
            })?;
            moves.push(mv);
        }
        Ok((start, moves))
    }

    /// A Go record of `moves` played from `start`: size, komi, the start's stones as setup
    /// (with `HA` when they are Black's handicap stones and White is to move).
    pub fn from_go(start: &Go, moves: &[go::Move]) -> GameRecord {
        let n = start.size();
        let mut rec = GameRecord::new(GameKind::Go, n, n);
        rec.komi = Some(start.komi() as f64);
        let mut root = RecordNode::default();
        for y in 0..n {
            for x in 0..n {
                let sq = Square::new(x, y);
                if let crate::game::Cell::Piece(s) = start.cell(sq) {
                    root.setup.push((Some(s), sq));
                }
            }
        }
        root.setup
            .sort_by_key(|&(s, sq)| (s, point_to_sgf(GameKind::Go, sq, n)));
        let [b, w] = start.piece_counts();
        if w == 0 && b >= 2 && start.side_to_move() == Side::White {
            rec.handicap = b;
        }
        let inferred = if rec.handicap >= 2 {
            Side::White
        } else {
            Side::Black
        };
        if start.side_to_move() != inferred {
            root.to_play = Some(start.side_to_move());
        }
        rec.nodes = vec![root];
        let mut pos = start.clone();
        for &mv in moves {
            rec.push_move(pos.side_to_move(), Go::square_of(mv));
            pos.make(mv);
        }
        rec
    }
}

impl GameRecord {
    /// The setup stones before the first move (later `AE`/`AB`/`AW` replacing earlier ones) and
    /// the `PL` found there.
    fn initial_setup(&self) -> (Vec<(Side, Square)>, Option<Side>) {
        let mut stones: Vec<(Side, Square)> = Vec::new();
        let mut to_play = None;
        for n in self.nodes.iter().take_while(|n| n.mv.is_none()) {
            for &(s, sq) in &n.setup {
                stones.retain(|&(_, q)| q != sq);
                if let Some(s) = s {
                    stones.push((s, sq));
                }
            }
            to_play = n.to_play.or(to_play);
        }
        (stones, to_play)
    }

    fn check_kind(&self, kind: GameKind) -> Result<(), RecordError> {
        if self.kind != kind {
            return Err(other_game(self.kind, kind));
        }
        Ok(())
    }

    fn check_no_late_setup(&self) -> Result<(), RecordError> {
        let mut started = false;
        for (i, n) in self.nodes.iter().enumerate() {
            if started && !n.setup.is_empty() {
                return Err(late_setup(i));
            }
            started |= n.mv.is_some();
        }
        Ok(())
    }

    /// The Reversi start: the setup before the first move (the usual centre four if none),
    /// Black to move unless `PL` or the first move says White.
    pub fn reversi_start(&self) -> Result<Reversi, RecordError> {
        self.check_kind(GameKind::Reversi)?;
        if (self.width, self.height) != (8, 8) {
            return Err(RecordError::BadSize {
                value: format!("{}:{}", self.width, self.height),
                detail: sgf(format!(
                    "a Reversi board is 8x8, this one {}x{}",
                    self.width, self.height
                )),
            });
        }
        let (stones, to_play) = self.initial_setup();
        let first = to_play
            .or_else(|| self.moves().next().map(|(s, _)| s))
            .unwrap_or(Side::Black);
        if stones.is_empty() {
            let start = Reversi::start();
            let discs = [0, 1].map(|i| {
                let side = Side::BOTH[i];
                (0..64u8)
                    .filter(|&q| start.cell(reversi::sq_of(q)) == Cell::Piece(side))
                    .fold(0u64, |acc, q| acc | 1 << q)
            });
            return Ok(Reversi::from_parts(discs, first));
        }
        let mut discs = [0u64; 2];
        for (side, sq) in stones {
            discs[side.index()] |= 1 << reversi::sq_index(sq);
        }
        Ok(Reversi::from_parts(discs, first))
    }

    /// Replays the main line as Reversi, each move checked; a pass left out of the record is
    /// put in (see the module doc). The moves returned include those passes.
    pub fn replay_reversi(&self) -> Result<(Reversi, Vec<reversi::Move>), RecordError> {
        let start = self.reversi_start()?;
        self.check_no_late_setup()?;
        let mut pos = start;
        let mut moves = Vec::new();
        for (i, (side, pt)) in self.moves().enumerate() {
            let number = i + 1;
            let text = pt
                .map(crate::game::square_text)
                .unwrap_or_else(|| "pass".into());
            if pos.outcome().is_some() {
                return Err(bad_move(
                    number,
                    side,
                    &text,
                    "comes after the end of the game",
                ));
            }
            if pos.side_to_move() != side {
                if pos.is_legal(reversi::PASS) {
                    pos.make(reversi::PASS);
                    moves.push(reversi::PASS);
                } else {
                    return Err(bad_move(
                        number,
                        side,
                        &text,
                        &format!(
                            "is played by {} but {} is to move and can move",
                            side_word(side),
                            side_word(side.other())
                        ),
                    ));
                }
            }
            let mv = pt.map(reversi::sq_index).unwrap_or(reversi::PASS);
            pos.play(mv)
                .map_err(|e| bad_move(number, side, &text, &format!("is illegal: {e}")))?;
            moves.push(mv);
        }
        Ok((start, moves))
    }

    /// A Reversi record of `moves` from `start`: the start discs as `AB`/`AW` (programs that do
    /// not know the default start still read it), `PL[W]` if White starts, passes as `B[]`.
    pub fn from_reversi(start: &Reversi, moves: &[reversi::Move]) -> GameRecord {
        let mut rec = GameRecord::new(GameKind::Reversi, 8, 8);
        rec.nodes[0].setup = board_setup(GameKind::Reversi, start);
        if start.side_to_move() == Side::White {
            rec.nodes[0].to_play = Some(Side::White);
        }
        let mut pos = *start;
        for &mv in moves {
            let pt = (mv != reversi::PASS).then(|| reversi::sq_of(mv));
            rec.push_move(pos.side_to_move(), pt);
            pos.make(mv);
        }
        rec
    }

    /// The Gomoku rule named by `RU` (see the module doc).
    pub fn gomoku_rule(&self) -> GomokuRule {
        let ru = self
            .rules
            .as_deref()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        if ru.contains("renju") || ru == "rif" {
            GomokuRule::Renju
        } else if ru.contains("standard") || ru.contains("exact") {
            GomokuRule::Standard
        } else {
            GomokuRule::Freestyle
        }
    }

    /// The Gomoku start: board `SZ` (square, 5 to 19), rule from `RU`, setup stones before the
    /// first move, and who moves (`PL`, else the first move's colour, else White when Black has
    /// more stones, else Black).
    pub fn gomoku_start(&self) -> Result<Gomoku, RecordError> {
        self.check_kind(GameKind::Gomoku)?;
        let n = self.width;
        if self.width != self.height || !(gomoku::MIN_SIZE..=gomoku::MAX_SIZE).contains(&n) {
            return Err(RecordError::BadSize {
                value: format!("{}:{}", self.width, self.height),
                detail: sgf(format!(
                    "a Gomoku board is square, {} to {} points a side; this one {}x{}",
                    gomoku::MIN_SIZE,
                    gomoku::MAX_SIZE,
                    self.width,
                    self.height
                )),
            });
        }
        let (stones, to_play) = self.initial_setup();
        let counts =
            [Side::Black, Side::White].map(|s| stones.iter().filter(|(t, _)| *t == s).count());
        let first = to_play
            .or_else(|| self.moves().next().map(|(s, _)| s))
            .unwrap_or(if counts[0] > counts[1] {
                Side::White
            } else {
                Side::Black
            });
        let rows: Vec<String> = (0..n)
            .rev()
            .map(|y| {
                (0..n)
                    .map(
                        |x| match stones.iter().find(|(_, q)| *q == Square::new(x, y)) {
                            Some((Side::Black, _)) => 'x',
                            Some((Side::White, _)) => 'o',
                            None => '.',
                        },
                    )
                    .collect()
            })
            .collect();
        let text = format!(
            "{n} {} {} {}",
            self.gomoku_rule().name(),
            rows.join("/"),
            if first == Side::Black { 'x' } else { 'o' }
        );
        Gomoku::from_text(&text).map_err(|e| RecordError::BadStart {
            detail: sgf(format!("the setup: {e}")),
        })
    }

    /// Replays the main line as Gomoku, each move checked (a pass, or two moves of one colour in
    /// a row, is refused with the move's number).
    pub fn replay_gomoku(&self) -> Result<(Gomoku, Vec<gomoku::Move>), RecordError> {
        let start = self.gomoku_start()?;
        self.check_no_late_setup()?;
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for (i, (side, pt)) in self.moves().enumerate() {
            let number = i + 1;
            let Some(sq) = pt else {
                return Err(RecordError::BadMove {
                    number,
                    text: "pass".into(),
                    detail: sgf(format!(
                        "move {number} ({} pass): Gomoku has no pass",
                        side_letter(side)
                    )),
                });
            };
            let text = crate::game::square_text(sq);
            if pos.outcome().is_some() {
                return Err(bad_move(
                    number,
                    side,
                    &text,
                    "comes after the end of the game",
                ));
            }
            if pos.side_to_move() != side {
                return Err(bad_move(
                    number,
                    side,
                    &text,
                    &format!(
                        "is played by {} but {} is to move",
                        side_word(side),
                        side_word(side.other())
                    ),
                ));
            }
            let mv = gomoku::move_at(sq);
            pos.play(mv)
                .map_err(|e| bad_move(number, side, &text, &format!("is illegal: {e}")))?;
            moves.push(mv);
        }
        Ok((start, moves))
    }

    /// A Gomoku record of `moves` from `start`: `SZ`, `RU` (the rule's name), setup stones if
    /// any, `PL` when the side to move is not the one the reader would infer.
    pub fn from_gomoku(start: &Gomoku, moves: &[gomoku::Move]) -> GameRecord {
        let n = start.size();
        let mut rec = GameRecord::new(GameKind::Gomoku, n, n);
        rec.rules = Some(start.rule().name().to_string());
        rec.nodes[0].setup = board_setup(GameKind::Gomoku, start);
        let [b, w] = start.piece_counts();
        let inferred = if moves.is_empty() && b > w {
            Side::White
        } else {
            Side::Black
        };
        if start.side_to_move() != inferred || (moves.is_empty() && b + w > 0) {
            rec.nodes[0].to_play = Some(start.side_to_move());
        }
        let mut pos = start.clone();
        for &mv in moves {
            rec.push_move(pos.side_to_move(), Some(gomoku::move_square(mv)));
            pos.make(mv);
        }
        rec
    }
}

/// Every piece of a position as setup, sorted the way [`GameRecord::to_tree`] writes them.
fn board_setup<G: Game>(kind: GameKind, pos: &G) -> Vec<(Option<Side>, Square)> {
    let (w, h) = pos.dimensions();
    let mut out = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let sq = Square::new(x, y);
            if let Cell::Piece(s) = pos.cell(sq) {
                out.push((Some(s), sq));
            }
        }
    }
    out.sort_by_key(|&(s, sq)| (s, point_to_sgf(kind, sq, h)));
    out
}

fn side_letter(s: Side) -> &'static str {
    if s == Side::Black { "B" } else { "W" }
}

fn side_word(s: Side) -> &'static str {
    if s == Side::Black { "Black" } else { "White" }
}

/// `property[value]` cannot be read: `why` says how.
fn bad_value(property: &str, value: &str, why: &str) -> RecordError {
    RecordError::BadValue {
        property: property.to_string(),
        value: value.to_string(),
        detail: sgf(format!("{property}[{value}] {why}")),
    }
}

/// Move `number` (`side` on `text`) cannot be played: `why` says why.
fn bad_move(number: usize, side: Side, text: &str, why: &str) -> RecordError {
    RecordError::BadMove {
        number,
        text: text.to_string(),
        detail: sgf(format!(
            "move {number} ({} {text}) {why}",
            side_letter(side)
        )),
    }
}

/// Stones are set up on node `i`, after the game started.
fn late_setup(i: usize) -> RecordError {
    RecordError::NotALine {
        node: i,
        detail: sgf(format!(
            "node {i} adds setup stones after the game started; Qi replays only moves"
        )),
    }
}

/// The record is of `found`, where `wanted` was asked for.
fn other_game(found: GameKind, wanted: GameKind) -> RecordError {
    RecordError::OtherGame {
        name: found.title().to_string(),
        detail: sgf(format!(
            "this is a {} record, not {}",
            found.title(),
            wanted.title()
        )),
    }
}

fn parse_size(v: &str) -> Result<(u8, u8), RecordError> {
    let bad = || RecordError::BadSize {
        value: v.to_string(),
        detail: sgf(format!("SZ[{v}] is not a board size")),
    };
    let num = |t: &str| t.trim().parse::<u8>().map_err(|_| bad());
    match v.split_once(':') {
        None => {
            let n = num(v)?;
            Ok((n, n))
        }
        Some((a, b)) => Ok((num(a)?, num(b)?)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_map_top_left_to_aa() {
        assert_eq!(point_to_sgf(GameKind::Go, Square::new(0, 18), 19), "aa");
        assert_eq!(point_to_sgf(GameKind::Go, Square::new(3, 3), 19), "dp");
        assert_eq!(
            point_from_sgf(GameKind::Go, 19, 19, "dp").unwrap(),
            Some(Square::new(3, 3))
        );
        assert_eq!(point_from_sgf(GameKind::Go, 19, 19, "tt").unwrap(), None);
        assert!(point_from_sgf(GameKind::Gomoku, 19, 19, "tt").is_err());
        assert_eq!(point_from_sgf(GameKind::Go, 9, 9, "").unwrap(), None);
        assert!(point_from_sgf(GameKind::Go, 9, 9, "jj").is_err());
        assert!(point_from_sgf(GameKind::Go, 9, 9, "a").is_err());
        // Reversi: aa is a1 (top left on an Othello board), and d3 is dc
        assert_eq!(
            point_from_sgf(GameKind::Reversi, 8, 8, "aa").unwrap(),
            Some(Square::new(0, 0))
        );
        assert_eq!(point_to_sgf(GameKind::Reversi, Square::new(3, 2), 8), "dc");
    }

    #[test]
    fn printed_properties_split_back() {
        let p = split_printed("C[a \\] b \\\\ c]");
        assert_eq!(p.id, "C");
        assert_eq!(p.values, vec!["a ] b \\ c"]);
        let p = split_printed("AB[dd][aa]");
        assert_eq!(p.values, vec!["aa", "dd"]);
        let p = split_printed("KO[]");
        assert_eq!(p.values, vec![""]);
    }
}
