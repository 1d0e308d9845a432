//! Game records for the replay screen: one [`Record`] type for every game, read from and
//! written to the formats the games' own programs use.
//!
//! - Go (`GM[1]`), Reversi (`GM[2]`) and Gomoku (`GM[4]`): SGF FF\[4\] through [`crate::sgf`]
//!   (files from Sabaki, GNU Go, CGoban, Othello and Gomoku programs).
//! - Ataxx: PGN with a `FEN` tag, as Ataxx tournament tools (cutechess and friends) write it:
//!   the seven tag roster, `[FEN "…"]` and `[SetUp "1"]`, numbered movetext, `0000` for a pass,
//!   `{comments}`, and the result token. `Black` is the player of `x` (who moves first),
//!   `White` the player of `o`; `1-0` means `o` (White) won, `0-1` that `x` won.
//!
//! [`import_text`] tells the format from the text; every move is replayed through the rules
//! when the record is read, and an error names the problem (which move, which tag) instead of
//! panicking. The error is a typed [`RecordError`], so that the window says it in the player's
//! language; its `Display` is the English with every detail, for the command line and logs. [`SAMPLES`] are the example records of the repository's `saves/` folder, built in.
//!
//! One size cap holds everywhere a record is read: [`MAX_RECORD_BYTES`] (the app's file import,
//! [`import_text`], [`import_file`], [`Record::from_sgf`], [`Record::from_pgn`], the SGF reader
//! and GTP `loadsgf`; saves, settings and the history share it as
//! [`crate::storage::MAX_FILE_BYTES`]). SGF trees are also capped in depth
//! ([`crate::sgf::MAX_SGF_DEPTH`]).

use std::collections::BTreeMap;
use std::fmt::{self, Write as _};
use std::path::{Path, PathBuf};

use crate::any::{AnyPosition, GameHistory};
use crate::game::{Game, GameKind, Side};
use crate::go::Go;
use crate::gomoku::Gomoku;
use crate::reversi::Reversi;
use crate::saves::replay_moves;
use crate::sgf::GameRecord;
use crate::storage::{atomic_write, read_text};

/// The largest record (or any other file) Qi reads, in bytes: 8 MiB. A real game record is a
/// few kilobytes; this is the one cap for the app's file import, [`import_text`] and GTP
/// `loadsgf` alike (before it, a text import took a 100 MB property, and 600-770 MB of memory
/// with it).
pub const MAX_RECORD_BYTES: usize = 8 * 1024 * 1024;

/// An error when `text` is over [`MAX_RECORD_BYTES`].
fn check_size(text: &str) -> Result<(), RecordError> {
    if text.len() > MAX_RECORD_BYTES {
        return Err(RecordError::TooBig { bytes: text.len() });
    }
    Ok(())
}

/// Why a record cannot be read. Typed, so that the window says it in the player's language
/// (each variant has the facts its sentence needs); `Display` gives the English with every
/// detail, for the command line and the logs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The file is not there.
    NoSuchFile,
    /// The file cannot be read as text.
    File(crate::storage::ReadError),
    /// Nothing but white space.
    Empty,
    /// Over [`MAX_RECORD_BYTES`].
    TooBig { bytes: usize },
    /// Neither SGF nor PGN.
    NotARecord,
    /// The text breaks its format's grammar (an unclosed bracket, a tag without a value…),
    /// on `line` when it is known.
    Syntax {
        format: RecordFormat,
        line: Option<usize>,
        detail: String,
    },
    /// Variations nested deeper, or a line of play longer, than
    /// [`crate::sgf::MAX_SGF_DEPTH`].
    TooDeep { detail: String },
    /// A game Qi does not play: `GM[…]`'s value, or a PGN `Variant` tag's.
    OtherGame { name: String, detail: String },
    /// `SZ[…]` is not a board its game can have.
    BadSize { value: String, detail: String },
    /// A property's value cannot be read (`KM`, `HA`, `PL`, a point; a PGN tag).
    BadValue {
        property: String,
        value: String,
        detail: String,
    },
    /// The main line cannot be replayed as one game: a node with two moves, or stones set up
    /// after the first move (SGF node `node`, counted from 0 at the root).
    NotALine { node: usize, detail: String },
    /// The start position cannot be set up.
    BadStart { detail: String },
    /// Move `number` (`text`, as the file or Qi writes it) cannot be played.
    BadMove {
        number: usize,
        text: String,
        detail: String,
    },
}

impl RecordError {
    /// A grammar error in an SGF text.
    pub(crate) fn sgf_syntax(detail: impl fmt::Display) -> RecordError {
        RecordError::Syntax {
            format: RecordFormat::Sgf,
            line: None,
            detail: detail.to_string(),
        }
    }

    /// The same error with its English detail rewritten by `f` (the typed facts unchanged).
    pub(crate) fn reworded(mut self, f: impl FnOnce(&str) -> String) -> RecordError {
        match &mut self {
            RecordError::Syntax { detail, .. }
            | RecordError::TooDeep { detail }
            | RecordError::OtherGame { detail, .. }
            | RecordError::BadSize { detail, .. }
            | RecordError::BadValue { detail, .. }
            | RecordError::NotALine { detail, .. }
            | RecordError::BadStart { detail }
            | RecordError::BadMove { detail, .. } => *detail = f(detail),
            RecordError::NoSuchFile
            | RecordError::File(_)
            | RecordError::Empty
            | RecordError::TooBig { .. }
            | RecordError::NotARecord => {}
        }
        self
    }

    /// A grammar error in a PGN text on `line`.
    pub(crate) fn pgn_syntax(line: usize, detail: impl fmt::Display) -> RecordError {
        RecordError::Syntax {
            format: RecordFormat::Pgn,
            line: Some(line),
            detail: detail.to_string(),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::NoSuchFile => f.write_str("no such file"),
            RecordError::File(e) => write!(f, "the file {e}"),
            RecordError::Empty => f.write_str("the file is empty"),
            RecordError::TooBig { bytes } => write!(
                f,
                "the record is {bytes} bytes, more than the {MAX_RECORD_BYTES} a record may have"
            ),
            RecordError::NotARecord => f.write_str(
                "this is neither an SGF record (it starts with '(;') nor a PGN one (it starts \
                 with tags like [Event \"…\"])",
            ),
            RecordError::Syntax { format, detail, .. } => {
                write!(f, "{}: {detail}", format.extension().to_uppercase())
            }
            RecordError::TooDeep { detail }
            | RecordError::OtherGame { detail, .. }
            | RecordError::BadSize { detail, .. }
            | RecordError::BadValue { detail, .. }
            | RecordError::NotALine { detail, .. }
            | RecordError::BadStart { detail }
            | RecordError::BadMove { detail, .. } => f.write_str(detail),
        }
    }
}

impl std::error::Error for RecordError {}

/// The two file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordFormat {
    Sgf,
    Pgn,
}

impl RecordFormat {
    /// The format a game's records are written in: PGN for Ataxx, SGF for the others.
    pub fn for_game(kind: GameKind) -> RecordFormat {
        match kind.info().record {
            crate::game::RecordKind::Pgn => RecordFormat::Pgn,
            crate::game::RecordKind::Sgf => RecordFormat::Sgf,
        }
    }

    /// `sgf` or `pgn`.
    pub fn extension(self) -> &'static str {
        match self {
            RecordFormat::Sgf => "sgf",
            RecordFormat::Pgn => "pgn",
        }
    }
}

/// A game record, whatever the game: where it starts, the moves, who played, how it ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub game: GameKind,
    /// The start position in the game's text form ([`AnyPosition::from_text`]).
    pub start: String,
    /// The moves in Qi's notation ([`AnyPosition::parse_move`]), passes included.
    pub moves: Vec<String>,
    pub black: Option<String>,
    pub white: Option<String>,
    /// As the file has it: SGF `B+3.5`, `W+R`, `0`; PGN `1-0`, `0-1`, `1/2-1/2`.
    pub result: Option<String>,
    /// SGF `EV`/`GN`, PGN `Event`.
    pub event: Option<String>,
    /// SGF `DT`, PGN `Date`.
    pub date: Option<String>,
    /// Comments by ply: `0` before the first move, `n` after move `n`.
    pub comments: BTreeMap<usize, String>,
}

impl Record {
    /// The record of a game: its start and the moves played up to the cursor; the result from
    /// the rules when the game is over.
    pub fn from_history(history: &GameHistory, black: &str, white: &str) -> Record {
        let game = history.start().kind();
        let end = history.current();
        Record {
            game,
            start: history.start().to_text(),
            moves: history.move_texts(),
            black: Some(black.to_string()),
            white: Some(white.to_string()),
            result: crate::result::GameResult::of(end).map(|r| r.sgf()),
            event: None,
            date: Some(crate::storage::format_date(crate::storage::now_unix())),
            comments: BTreeMap::new(),
        }
    }

    /// The game replayed, the cursor at the last move (the replay screen steps it with
    /// [`GameHistory::undo`]/[`GameHistory::redo`]/[`GameHistory::go_to`], and "play from here"
    /// continues from it). An illegal move gives an error with its number and text.
    pub fn history(&self) -> Result<GameHistory, RecordError> {
        let start =
            AnyPosition::from_text(self.game, &self.start).map_err(|e| RecordError::BadStart {
                detail: format!("the start position cannot be read: {e}"),
            })?;
        replay_moves(start, &self.moves).map_err(|m| RecordError::BadMove {
            number: m.n,
            detail: m.to_string(),
            text: m.text,
        })
    }

    /// The record in its game's format ([`RecordFormat::for_game`]).
    pub fn export(&self) -> Result<(String, RecordFormat), String> {
        let format = RecordFormat::for_game(self.game);
        let text = match format {
            RecordFormat::Sgf => self.to_sgf()?,
            RecordFormat::Pgn => self.to_pgn()?,
        };
        Ok((text, format))
    }

    /// Writes the record to `path` (atomically), in its game's format whatever the extension.
    pub fn export_file(&self, path: &Path) -> Result<(), crate::storage::DiskError> {
        let (text, _) = self.export().map_err(crate::storage::DiskError::other)?;
        atomic_write(path, text.as_bytes())
            .map_err(|e| crate::storage::DiskError::of(&e, crate::storage::DiskAction::Write, path))
    }

    /// SGF for Go, Reversi and Gomoku.
    pub fn to_sgf(&self) -> Result<String, String> {
        let history = self.history().map_err(|e| e.to_string())?;
        let start = history.start();
        let moves = history.moves();
        let mut rec = match start {
            AnyPosition::Go(g) => GameRecord::from_go(g, &go_moves(moves)),
            AnyPosition::Reversi(r) => GameRecord::from_reversi(
                r,
                &moves
                    .iter()
                    .filter_map(|m| match m {
                        crate::any::AnyMove::Reversi(m) => Some(*m),
                        _ => None,
                    })
                    .collect::<Vec<_>>(),
            ),
            AnyPosition::Gomoku(g) => GameRecord::from_gomoku(
                g,
                &moves
                    .iter()
                    .filter_map(|m| match m {
                        crate::any::AnyMove::Gomoku(m) => Some(*m),
                        _ => None,
                    })
                    .collect::<Vec<_>>(),
            ),
            AnyPosition::Ataxx(_) => {
                return Err("Ataxx records are PGN, not SGF".to_string());
            }
        };
        rec.black = self.black.clone();
        rec.white = self.white.clone();
        rec.result = self.result.clone();
        rec.date = self.date.clone();
        if let Some(ev) = &self.event {
            rec.nodes[0]
                .extra
                .push(crate::sgf::SgfProperty::one("EV", ev.clone()));
        }
        rec.nodes[0]
            .extra
            .push(crate::sgf::SgfProperty::one("AP", "Qi"));
        for (&ply, c) in &self.comments {
            if let Some(node) = rec.nodes.get_mut(ply) {
                node.comment = Some(c.clone());
                // Qi's analysis also as the marks and values other programs read
                if ply > 0 {
                    node.extra
                        .extend(crate::analysis::sgf_annotations(self.game, c));
                }
            }
        }
        Ok(rec.to_sgf())
    }

    /// Reads the first game of an SGF file and replays it.
    pub fn from_sgf(text: &str) -> Result<Record, RecordError> {
        check_size(text)?;
        let rec = GameRecord::from_sgf(text)?;
        let (start, moves, inserted): (AnyPosition, Vec<String>, Vec<usize>) = match rec.kind {
            GameKind::Go => {
                let (start, moves) = rec.replay_go()?;
                let texts = texts_of::<Go>(&start, &moves)?;
                (AnyPosition::Go(Box::new(start)), texts, Vec::new())
            }
            GameKind::Reversi => {
                let (start, moves) = rec.replay_reversi()?;
                // passes the file left out shift the comments' plies
                let written: Vec<_> = rec.moves().collect();
                let mut inserted = Vec::new();
                let mut k = 0;
                for (i, &m) in moves.iter().enumerate() {
                    let from_file = written.get(k).map(|(_, pt)| {
                        pt.map(crate::reversi::sq_index)
                            .unwrap_or(crate::reversi::PASS)
                    });
                    if from_file == Some(m) {
                        k += 1;
                    } else {
                        inserted.push(i);
                    }
                }
                let texts = texts_of::<Reversi>(&start, &moves)?;
                (AnyPosition::Reversi(start), texts, inserted)
            }
            GameKind::Gomoku => {
                let (start, moves) = rec.replay_gomoku()?;
                let texts = texts_of::<Gomoku>(&start, &moves)?;
                (AnyPosition::Gomoku(Box::new(start)), texts, Vec::new())
            }
            // (GM has no number for Ataxx, so the reader gives none)
            GameKind::Ataxx => {
                return Err(RecordError::OtherGame {
                    name: GameKind::Ataxx.title().to_string(),
                    detail: "SGF has no Ataxx game type".to_string(),
                });
            }
        };
        let record = Record {
            game: rec.kind,
            start: start.to_text(),
            moves,
            black: rec.black.clone(),
            white: rec.white.clone(),
            result: rec.result.clone(),
            event: rec.nodes[0]
                .extra
                .iter()
                .find(|p| p.id == "EV" || p.id == "GN")
                .and_then(|p| p.values.first().cloned()),
            date: rec.date.clone(),
            comments: sgf_comments(&rec, &inserted),
        };
        // the moves as text must replay too (Go: a record where one colour moves twice in a
        // row cannot be written as alternating moves)
        record
            .history()
            .map_err(|e| e.reworded(|d| format!("SGF: {d} (Qi replays alternating moves only)")))?;
        Ok(record)
    }

    /// PGN for Ataxx.
    pub fn to_pgn(&self) -> Result<String, String> {
        if self.game != GameKind::Ataxx {
            return Err(format!("{} records are SGF, not PGN", self.game.title()));
        }
        let history = self.history().map_err(|e| e.to_string())?;
        let start = history.start();
        let mut out = String::new();
        let tag = |out: &mut String, name: &str, value: &str| {
            let v = value.replace('\\', "\\\\").replace('"', "\\\"");
            let _ = writeln!(out, "[{name} \"{v}\"]");
        };
        let result = self
            .result
            .clone()
            .and_then(|r| {
                if ["1-0", "0-1", "1/2-1/2", "*"].contains(&r.as_str()) {
                    Some(r)
                } else {
                    crate::result::GameResult::from_sgf(&r).map(|g| g.pgn().to_string())
                }
            })
            .or_else(|| {
                crate::result::GameResult::of(history.current()).map(|g| g.pgn().to_string())
            })
            .unwrap_or_else(|| "*".to_string());
        tag(&mut out, "Event", self.event.as_deref().unwrap_or("?"));
        tag(&mut out, "Site", "?");
        tag(
            &mut out,
            "Date",
            &self
                .date
                .as_deref()
                .map(|d| d.replace('-', "."))
                .unwrap_or_else(|| "????.??.??".into()),
        );
        tag(&mut out, "Round", "?");
        tag(&mut out, "White", self.white.as_deref().unwrap_or("?"));
        tag(&mut out, "Black", self.black.as_deref().unwrap_or("?"));
        tag(&mut out, "Result", &result);
        tag(&mut out, "FEN", &start.to_text());
        tag(&mut out, "SetUp", "1");
        tag(&mut out, "PlyCount", &self.moves.len().to_string());
        out.push('\n');
        let mut words: Vec<String> = Vec::new();
        let comment = |c: &str| format!("{{{}}}", c.replace('}', ")"));
        if let Some(c) = self.comments.get(&0) {
            words.push(comment(c));
        }
        let mut number = fullmove_of(&start.to_text());
        let mut side = start.side_to_move();
        for (i, m) in self.moves.iter().enumerate() {
            if side == Side::Black {
                words.push(format!("{number}."));
            } else if i == 0 {
                words.push(format!("{number}..."));
            }
            words.push(m.clone());
            if let Some(c) = self.comments.get(&(i + 1)) {
                words.push(comment(c));
            }
            if side == Side::White {
                number += 1;
            }
            side = side.other();
        }
        words.push(result);
        // wrap at 80 columns like other PGN writers
        let mut line = String::new();
        for w in words {
            if !line.is_empty() && line.len() + 1 + w.len() > 79 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&w);
        }
        out.push_str(&line);
        out.push('\n');
        Ok(out)
    }

    /// Reads the first game of a PGN file (Ataxx) and replays it.
    pub fn from_pgn(text: &str) -> Result<Record, RecordError> {
        check_size(text)?;
        let game = pgn::parse_first(text)?;
        let tag = |name: &str| {
            game.tags
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.trim().to_string())
                .filter(|v| !v.is_empty() && v != "?" && v != "????.??.??")
        };
        if let Some(variant) = tag("Variant")
            && !variant.eq_ignore_ascii_case("ataxx")
        {
            return Err(RecordError::OtherGame {
                detail: format!(
                    "PGN: [Variant \"{variant}\"] is not Ataxx (Qi reads Ataxx PGN only)"
                ),
                name: variant,
            });
        }
        let start = match tag("FEN") {
            Some(fen) => AnyPosition::from_text(GameKind::Ataxx, &fen).map_err(|e| {
                RecordError::BadStart {
                    detail: format!("PGN: [FEN \"{fen}\"] cannot be read: {e}"),
                }
            })?,
            None => AnyPosition::start(GameKind::Ataxx).map_err(|e| RecordError::BadStart {
                detail: e.to_string(),
            })?,
        };
        let record = Record {
            game: GameKind::Ataxx,
            start: start.to_text(),
            moves: game.moves,
            black: tag("Black"),
            white: tag("White"),
            // `*` is "unknown or still going": no result
            result: tag("Result").or(game.result).filter(|r| r != "*"),
            event: tag("Event"),
            date: tag("Date").map(|d| d.replace('.', "-")),
            comments: game.comments,
        };
        record
            .history()
            .map_err(|e| e.reworded(|d| format!("PGN: {d}")))?;
        Ok(record)
    }
}

/// Reads a record from text, SGF or PGN (told apart by the text), and replays it.
pub fn import_text(text: &str) -> Result<Record, RecordError> {
    check_size(text)?;
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if t.is_empty() {
        return Err(RecordError::Empty);
    }
    if t.starts_with('(') || t.contains("(;") {
        Record::from_sgf(t)
    } else if t.starts_with('[') || t.starts_with('{') || t.starts_with('1') {
        Record::from_pgn(t)
    } else {
        Err(RecordError::NotARecord)
    }
}

/// Reads a record file (see [`import_text`]); the error names the file.
pub fn import_file(path: &Path) -> Result<Record, String> {
    read_record(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads a record file like [`import_file`], but the error leaves the file's name to the
/// caller (the window puts it in its own, translated sentence).
pub fn read_record(path: &Path) -> Result<Record, RecordError> {
    match read_text(path) {
        Ok(Some(text)) => import_text(&text),
        Ok(None) => Err(RecordError::NoSuchFile),
        Err(e) => Err(RecordError::File(e)),
    }
}

/// The `.sgf` and `.pgn` files of a folder, sorted by name (an unreadable folder gives none).
pub fn list_record_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.is_file()
                && p.extension()
                    .and_then(|e| e.to_str())
                    .map(|e| e.eq_ignore_ascii_case("sgf") || e.eq_ignore_ascii_case("pgn"))
                    .unwrap_or(false)
        })
        .collect();
    out.sort();
    out
}

/// The example records of the repository's `saves/` folder, built into the program: (file
/// name, text). The replay screen offers them; read one with [`import_text`].
pub const SAMPLES: &[(&str, &str)] = &[
    (
        "go-1846-shusaku-gennan-ear-reddening.sgf",
        include_str!("../../../saves/go-1846-shusaku-gennan-ear-reddening.sgf"),
    ),
    (
        "othello-woc-2018-aunchulee-fukuchi.sgf",
        include_str!("../../../saves/othello-woc-2018-aunchulee-fukuchi.sgf"),
    ),
    (
        "othello-1975-maruo-shortest-game.sgf",
        include_str!("../../../saves/othello-1975-maruo-shortest-game.sgf"),
    ),
    (
        "ataxx-example-blocked-squares.pgn",
        include_str!("../../../saves/ataxx-example-blocked-squares.pgn"),
    ),
    (
        "gomoku-example-renju.sgf",
        include_str!("../../../saves/gomoku-example-renju.sgf"),
    ),
];

fn go_moves(moves: &[crate::any::AnyMove]) -> Vec<crate::go::Move> {
    moves
        .iter()
        .filter_map(|m| match m {
            crate::any::AnyMove::Go(m) => Some(*m),
            _ => None,
        })
        .collect()
}

/// The moves as text, replayed with alternating turns from `start`. A file's replay may let one
/// colour move twice (Go's `B` after `B`); such a move can then be illegal in the alternating
/// replay (on a stone, say), so each one is checked before it is made: an error, not a corrupt
/// board (an unchecked `make` on an occupied point looped forever).
fn texts_of<G: Game>(start: &G, moves: &[G::Move]) -> Result<Vec<String>, RecordError> {
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(moves.len());
    for (i, &m) in moves.iter().enumerate() {
        let t = pos.move_to_text(m);
        if !pos.is_legal(m) {
            return Err(RecordError::BadMove {
                number: i + 1,
                detail: format!(
                    "SGF: move {} ({t}) is illegal when the colours alternate (Qi replays \
                     alternating moves only)",
                    i + 1
                ),
                text: t,
            });
        }
        pos.make(m);
        out.push(t);
    }
    Ok(out)
}

/// SGF comments by ply: the root's and other comments before the first move at 0, a move
/// node's after its move; `inserted` are plies of passes the file left out.
fn sgf_comments(rec: &GameRecord, inserted: &[usize]) -> BTreeMap<usize, String> {
    let mut out: BTreeMap<usize, String> = BTreeMap::new();
    let mut file_moves = 0;
    for n in &rec.nodes {
        if n.mv.is_some() {
            file_moves += 1;
        }
        if let Some(c) = &n.comment {
            // the ply of this move: its number in the file plus the passes put in before it
            let mut ply = file_moves;
            for &p in inserted {
                if p < ply {
                    ply += 1;
                }
            }
            out.entry(ply)
                .and_modify(|e| {
                    e.push('\n');
                    e.push_str(c)
                })
                .or_insert_with(|| c.clone());
        }
    }
    out
}

fn fullmove_of(fen: &str) -> u32 {
    fen.split_whitespace()
        .nth(3)
        .and_then(|t| t.parse().ok())
        .unwrap_or(1)
        .max(1)
}

/// A small PGN reader: tags, movetext with numbers, comments (`{}` and `;`), NAGs, variations
/// (skipped), and the result token.
mod pgn {
    use std::collections::BTreeMap;

    use super::{RecordError, RecordFormat};

    pub struct PgnGame {
        pub tags: Vec<(String, String)>,
        pub moves: Vec<String>,
        pub comments: BTreeMap<usize, String>,
        pub result: Option<String>,
    }

    const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

    pub fn parse_first(text: &str) -> Result<PgnGame, RecordError> {
        let chars: Vec<char> = text.chars().collect();
        let mut i = 0;
        let mut game = PgnGame {
            tags: Vec::new(),
            moves: Vec::new(),
            comments: BTreeMap::new(),
            result: None,
        };
        let mut depth = 0usize; // variations
        let mut line = 1usize;
        let mut seen_move_text = false;
        while i < chars.len() {
            let c = chars[i];
            if c == '\n' {
                line += 1;
                i += 1;
                continue;
            }
            if c.is_whitespace() {
                i += 1;
                continue;
            }
            match c {
                '[' if !seen_move_text => {
                    let start = line;
                    i += 1;
                    let mut name = String::new();
                    while i < chars.len() && !chars[i].is_whitespace() && chars[i] != '"' {
                        name.push(chars[i]);
                        i += 1;
                    }
                    while i < chars.len() && chars[i] != '"' && chars[i] != ']' {
                        if chars[i] == '\n' {
                            line += 1;
                        }
                        i += 1;
                    }
                    if i >= chars.len() || chars[i] != '"' {
                        return Err(RecordError::pgn_syntax(
                            start,
                            format!("the tag [{name} on line {start} has no \"value\""),
                        ));
                    }
                    i += 1;
                    let mut value = String::new();
                    let mut closed = false;
                    while i < chars.len() {
                        match chars[i] {
                            '\\' if i + 1 < chars.len() => {
                                value.push(chars[i + 1]);
                                i += 2;
                            }
                            '"' => {
                                closed = true;
                                i += 1;
                                break;
                            }
                            '\n' => break,
                            ch => {
                                value.push(ch);
                                i += 1;
                            }
                        }
                    }
                    while i < chars.len() && chars[i] != ']' && chars[i] != '\n' {
                        i += 1;
                    }
                    if !closed || i >= chars.len() || chars[i] != ']' {
                        return Err(RecordError::pgn_syntax(
                            start,
                            format!("the tag [{name} on line {start} is not closed with \"]"),
                        ));
                    }
                    i += 1;
                    if name.is_empty() {
                        return Err(RecordError::pgn_syntax(
                            start,
                            format!("a tag on line {start} has no name"),
                        ));
                    }
                    game.tags.push((name, value));
                }
                '[' => break, // the next game's tags
                '{' => {
                    let start = line;
                    i += 1;
                    let mut body = String::new();
                    while i < chars.len() && chars[i] != '}' {
                        if chars[i] == '\n' {
                            line += 1;
                        }
                        body.push(chars[i]);
                        i += 1;
                    }
                    if i >= chars.len() {
                        return Err(RecordError::pgn_syntax(
                            start,
                            format!("the comment opened with {{ on line {start} is not closed"),
                        ));
                    }
                    i += 1;
                    if depth == 0 {
                        let body = body.split_whitespace().collect::<Vec<_>>().join(" ");
                        if !body.is_empty() {
                            game.comments
                                .entry(game.moves.len())
                                .and_modify(|e| {
                                    e.push('\n');
                                    e.push_str(&body)
                                })
                                .or_insert(body);
                        }
                    }
                }
                ';' => {
                    while i < chars.len() && chars[i] != '\n' {
                        i += 1;
                    }
                }
                '(' => {
                    depth += 1;
                    i += 1;
                }
                ')' => {
                    if depth == 0 {
                        return Err(RecordError::pgn_syntax(
                            line,
                            format!("an unopened ')' on line {line}"),
                        ));
                    }
                    depth -= 1;
                    i += 1;
                }
                _ => {
                    let mut tok = String::new();
                    while i < chars.len()
                        && !chars[i].is_whitespace()
                        && !"{}();[".contains(chars[i])
                    {
                        tok.push(chars[i]);
                        i += 1;
                    }
                    if tok.is_empty() {
                        // a '}' with no '{' before it
                        return Err(RecordError::pgn_syntax(
                            line,
                            format!("an unopened '{c}' on line {line}"),
                        ));
                    }
                    seen_move_text = true;
                    if depth > 0 || tok.starts_with('$') {
                        continue;
                    }
                    if RESULTS.contains(&tok.as_str()) {
                        game.result = Some(tok);
                        break;
                    }
                    // "12." "12..." "12.g2"
                    let rest = tok.trim_start_matches(|c: char| c.is_ascii_digit());
                    let mv = if rest.len() < tok.len() && rest.starts_with('.') {
                        rest.trim_start_matches('.')
                    } else {
                        tok.as_str()
                    };
                    let mv = mv.trim_end_matches(['!', '?', '+', '#']);
                    if mv.is_empty() {
                        continue;
                    }
                    if mv.len() > 12
                        || !mv
                            .chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '@')
                    {
                        return Err(RecordError::pgn_syntax(
                            line,
                            format!(
                                "'{tok}' on line {line} is not a move (after move {})",
                                game.moves.len()
                            ),
                        ));
                    }
                    game.moves.push(mv.to_string());
                }
            }
        }
        if depth > 0 {
            return Err(RecordError::Syntax {
                format: RecordFormat::Pgn,
                line: None,
                detail: "a variation '(' is not closed".to_string(),
            });
        }
        if game.tags.is_empty() && game.moves.is_empty() {
            return Err(RecordError::Syntax {
                format: RecordFormat::Pgn,
                line: None,
                detail: "no tags and no moves".to_string(),
            });
        }
        Ok(game)
    }
}
