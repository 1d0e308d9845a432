//! Saved games: [`SaveGame`] (what a save file holds) and [`SaveStore`] (nine slots and the
//! autosave in a folder).
//!
//! A save is a RON file with a format version, the game and its start position (as text), the
//! two players, every move as text (the undone ones too, with the undo cursor), the clocks, the
//! time it was saved and a summary (score, move count, the position) for people reading the
//! file. Loading **replays every move through the rules** from the start position, so a file
//! whose moves were edited into an illegal game is refused with the move's number and text;
//! the list shows what the replay gives, not what the summary claims.
//!
//! ```no_run
//! use qi_core::any::{AnyPosition, GameHistory};
//! use qi_core::saves::{Clocks, PlayerInfo, SaveGame, SaveStore, SlotState};
//! use qi_core::GameKind;
//!
//! let store = SaveStore::new(qi_core::storage::data_dir(None));
//! let history = GameHistory::new(AnyPosition::start(GameKind::Reversi).unwrap());
//! let save = SaveGame::new(
//!     &history,
//!     [PlayerInfo::human("Ann"), PlayerInfo::cpu("CPU", 3)],
//!     Clocks::default(),
//! );
//! match store.save(3, &save, false) {
//!     Ok(()) => {}
//!     Err(e) if e.needs_confirmation() => { /* ask, then */ store.save(3, &save, true).unwrap() }
//!     Err(e) => eprintln!("{e}"),
//! }
//! for slot in store.list() {
//!     if let SlotState::Ok(summary) = &slot.state {
//!         println!("{}: {} {}", slot.slot, summary.game, summary.saved_at_text);
//!     }
//! }
//! let loaded = store.load(3).unwrap();
//! assert_eq!(loaded.history.current(), history.current());
//! ```

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::any::{AnyPosition, GameHistory};
use crate::game::{GameKind, Outcome, Side};
use crate::storage::{
    self, DiskAction, atomic_write, format_utc, keep_bad_file, now_unix, read_text,
};

/// The save format this version writes and the newest it reads.
pub const SAVE_VERSION: u32 = 1;
/// Numbered slots: `1..=SLOT_COUNT`.
pub const SLOT_COUNT: usize = 9;
/// The autosave's file name in the save folder.
pub const AUTOSAVE_FILE: &str = "autosave.ron";

/// Who plays one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PlayerKind {
    Human,
    Cpu { level: u8 },
}

/// A player: name and whether a person or the CPU (with its level) plays.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlayerInfo {
    pub name: String,
    pub kind: PlayerKind,
}

impl PlayerInfo {
    pub fn human(name: &str) -> PlayerInfo {
        PlayerInfo {
            name: name.to_string(),
            kind: PlayerKind::Human,
        }
    }

    pub fn cpu(name: &str, level: u8) -> PlayerInfo {
        PlayerInfo {
            name: name.to_string(),
            kind: PlayerKind::Cpu { level },
        }
    }

    /// The CPU level, `None` for a person.
    pub fn cpu_level(&self) -> Option<u8> {
        match self.kind {
            PlayerKind::Cpu { level } => Some(level),
            PlayerKind::Human => None,
        }
    }
}

/// Time spent on the game, in seconds.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Clocks {
    /// The whole game's playing time (paused time not counted).
    pub elapsed_secs: f64,
    /// Each side's thinking time, `[black, white]`.
    pub side_secs: [f64; 2],
}

/// What the list shows of a save; written into the file too, for people reading it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SaveSummary {
    /// Pieces (discs, stones) on the board, `[black, white]`.
    pub score: [u32; 2],
    /// Moves played (to the undo cursor).
    pub move_count: usize,
    /// `Some("Black wins")`, `Some("Draw")`, … when the game is over.
    pub result: Option<String>,
    /// The position at the cursor, in the game's text form.
    pub position: String,
}

impl SaveSummary {
    /// The summary of a game as it stands.
    pub fn of(history: &GameHistory) -> SaveSummary {
        let pos = history.current();
        SaveSummary {
            score: pos.piece_counts(),
            move_count: history.ply(),
            result: crate::result::GameResult::of(pos).map(|r| r.describe(pos.kind())),
            position: pos.to_text(),
        }
    }
}

/// `Black wins`, `White wins` or `Draw`.
pub fn outcome_text(o: Outcome) -> String {
    match o {
        Outcome::Win(Side::Black) => "Black wins".to_string(),
        Outcome::Win(Side::White) => "White wins".to_string(),
        Outcome::Draw => "Draw".to_string(),
    }
}

/// A saved game, as the file holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SaveGame {
    /// [`SAVE_VERSION`] when written; a larger number is refused as "saved by a newer Qi".
    pub version: u32,
    pub game: GameKind,
    /// The start position in the game's text form (it carries the options: Ataxx's blocked
    /// squares, the Gomoku board size and rule, the Go board size and komi).
    pub start: String,
    /// `[black, white]`.
    pub players: [PlayerInfo; 2],
    /// Every move of the line as text, the undone ones after the cursor included.
    pub moves: Vec<String>,
    /// How many of `moves` are played; the rest can be redone.
    pub cursor: usize,
    pub clocks: Clocks,
    /// When it was saved, seconds since 1970-01-01 UTC.
    pub saved_at: u64,
    pub summary: SaveSummary,
}

/// A save read back: the file's contents and the game rebuilt from them.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedGame {
    pub save: SaveGame,
    /// The replayed game, its cursor where it was saved (redo works as before the save).
    pub history: GameHistory,
}

/// Why a save could not be listed, loaded, written or deleted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveError {
    /// A slot number outside `1..=SLOT_COUNT`.
    NoSuchSlot(usize),
    /// Nothing is saved there.
    Empty,
    /// The file exists but is not a save this version can use: corrupt, truncated, written by
    /// a newer Qi, or its moves do not replay. The file is left as it is.
    Unreadable(Unreadable),
    /// Saving would replace a file (`unreadable` says whether that file is an unreadable
    /// one); ask the player, then call again with `overwrite`.
    Occupied { unreadable: bool },
    /// The disk said no (folder missing and not creatable, no space, no permission, …).
    Io(crate::storage::DiskError),
}

/// Why a file is not a save this version can use (typed, so that the window can say it in its
/// language; `Display` gives the English).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unreadable {
    /// The file could not be read as text.
    File(crate::storage::ReadError),
    /// The file is empty.
    Empty,
    /// Larger than a save may be.
    TooBig { bytes: u64, max: u64 },
    /// Written by a newer Qi, in this save format.
    Newer { format: u32 },
    /// Not a save: the parser's position and words.
    Damaged(String),
    /// Save format 0, which never existed.
    FormatZero,
    /// The start position cannot be read (the reason).
    BadStart(String),
    /// A move does not replay.
    BadMove(MoveFault),
    /// The undo cursor lies past the moves.
    CursorPast { cursor: usize, moves: usize },
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unreadable::File(why) => write!(f, "the file {why}"),
            Unreadable::Empty => f.write_str("the file is empty"),
            Unreadable::TooBig { bytes, max } => {
                write!(
                    f,
                    "it is {bytes} bytes, more than the {max} a save may have"
                )
            }
            Unreadable::Newer { format } => write!(
                f,
                "it was saved by a newer version of Qi (save format {format}; this one reads up \
                 to {SAVE_VERSION})"
            ),
            Unreadable::Damaged(why) => write!(f, "the file is damaged or truncated ({why})"),
            Unreadable::FormatZero => f.write_str("save format 0 does not exist"),
            Unreadable::BadStart(why) => write!(f, "the start position cannot be read: {why}"),
            Unreadable::BadMove(m) => m.fmt(f),
            Unreadable::CursorPast { cursor, moves } => {
                write!(f, "the undo cursor {cursor} is past the {moves} moves")
            }
        }
    }
}

/// A move of a saved game or record that does not replay: its number (1 = the first move),
/// its text, and why (English, for the log).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveFault {
    pub n: usize,
    pub text: String,
    pub why: String,
}

impl fmt::Display for MoveFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "move {} ({}) {}", self.n, self.text, self.why)
    }
}

impl SaveError {
    /// Whether the app should ask the player and retry with `overwrite = true`.
    pub fn needs_confirmation(&self) -> bool {
        matches!(self, SaveError::Occupied { .. })
    }
}

impl fmt::Display for SaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SaveError::NoSuchSlot(n) => {
                write!(f, "there is no slot {n} (slots are 1 to {SLOT_COUNT})")
            }
            SaveError::Empty => f.write_str("nothing is saved there"),
            SaveError::Unreadable(why) => write!(f, "the save cannot be read: {why}"),
            SaveError::Occupied { unreadable: false } => {
                f.write_str("a game is already saved there; overwrite it?")
            }
            SaveError::Occupied { unreadable: true } => {
                f.write_str("an unreadable save is there; overwrite it (it is kept aside as .bad)?")
            }
            SaveError::Io(why) => why.fmt(f),
        }
    }
}

impl std::error::Error for SaveError {}

/// Just the version, read first so that a newer file is named as such rather than as corrupt.
#[derive(Deserialize)]
struct VersionProbe {
    version: u32,
}

impl SaveGame {
    /// A save of `history` (its whole line and cursor) now.
    pub fn new(history: &GameHistory, players: [PlayerInfo; 2], clocks: Clocks) -> SaveGame {
        SaveGame {
            version: SAVE_VERSION,
            game: history.start().kind(),
            start: history.start().to_text(),
            players,
            moves: history.all_move_texts(),
            cursor: history.ply(),
            clocks,
            saved_at: now_unix(),
            summary: SaveSummary::of(history),
        }
    }

    /// The save as RON text.
    pub fn to_ron(&self) -> Result<String, SaveError> {
        storage::to_ron(self).map_err(|e| SaveError::Io(storage::DiskError::other(e)))
    }

    /// Reads a save from RON text and checks its version (never panics, whatever the text).
    /// The moves are not replayed here: see [`SaveGame::replay`] or [`SaveGame::load_text`].
    pub fn from_ron(text: &str) -> Result<SaveGame, SaveError> {
        if text.trim().is_empty() {
            return Err(SaveError::Unreadable(Unreadable::Empty));
        }
        if text.len() as u64 > storage::MAX_FILE_BYTES {
            return Err(SaveError::Unreadable(Unreadable::TooBig {
                bytes: text.len() as u64,
                max: storage::MAX_FILE_BYTES,
            }));
        }
        if let Ok(probe) = ron::de::from_str::<VersionProbe>(text)
            && probe.version > SAVE_VERSION
        {
            return Err(SaveError::Unreadable(Unreadable::Newer {
                format: probe.version,
            }));
        }
        let save: SaveGame = ron::de::from_str(text)
            .map_err(|e| SaveError::Unreadable(Unreadable::Damaged(e.to_string())))?;
        if save.version == 0 {
            return Err(SaveError::Unreadable(Unreadable::FormatZero));
        }
        if save.version > SAVE_VERSION {
            return Err(SaveError::Unreadable(Unreadable::Newer {
                format: save.version,
            }));
        }
        Ok(save)
    }

    /// Reads a save and replays it.
    pub fn load_text(text: &str) -> Result<LoadedGame, SaveError> {
        let save = SaveGame::from_ron(text)?;
        let history = save.replay()?;
        Ok(LoadedGame { save, history })
    }

    /// Rebuilds the game: the start position, then every move checked by the rules. An illegal
    /// or unreadable move is refused with its number (1 = the first move) and text.
    pub fn replay(&self) -> Result<GameHistory, SaveError> {
        let start = AnyPosition::from_text(self.game, &self.start)
            .map_err(|e| SaveError::Unreadable(Unreadable::BadStart(e.to_string())))?;
        let history = replay_moves(start, &self.moves)
            .map_err(|m| SaveError::Unreadable(Unreadable::BadMove(m)))?;
        if self.cursor > self.moves.len() {
            return Err(SaveError::Unreadable(Unreadable::CursorPast {
                cursor: self.cursor,
                moves: self.moves.len(),
            }));
        }
        let mut history = history;
        history.go_to(self.cursor);
        Ok(history)
    }
}

/// Plays `moves` (text) from `start`, each checked; the error names the move's number and text.
pub fn replay_moves(start: AnyPosition, moves: &[String]) -> Result<GameHistory, MoveFault> {
    let mut history = GameHistory::new(start);
    for (i, text) in moves.iter().enumerate() {
        let fault = |why: String| MoveFault {
            n: i + 1,
            text: text.clone(),
            why,
        };
        let pos = history.current();
        if pos.outcome().is_some() {
            return Err(fault("comes after the end of the game".into()));
        }
        let mv = pos
            .parse_move(text)
            .map_err(|e| fault(format!("cannot be read: {e}")))?;
        history
            .play(mv)
            .map_err(|e| fault(format!("is illegal: {e}")))?;
    }
    Ok(history)
}

/// What the list shows of a readable save.
#[derive(Clone, Debug, PartialEq)]
pub struct SlotSummary {
    pub game: GameKind,
    /// `[black, white]`.
    pub players: [PlayerInfo; 2],
    /// Pieces on the board, `[black, white]`, from the replayed game.
    pub score: [u32; 2],
    /// Moves played (to the cursor).
    pub move_count: usize,
    /// `Some("Black wins")` etc. when the game is over.
    pub result: Option<String>,
    /// Seconds since the epoch, and the same as `2024-05-06 13:04 UTC`.
    pub saved_at: u64,
    pub saved_at_text: String,
    /// The position at the cursor, for the preview board.
    pub position: AnyPosition,
}

impl SlotSummary {
    fn of(loaded: &LoadedGame) -> SlotSummary {
        let s = SaveSummary::of(&loaded.history);
        SlotSummary {
            game: loaded.save.game,
            players: loaded.save.players.clone(),
            score: s.score,
            move_count: s.move_count,
            result: s.result,
            saved_at: loaded.save.saved_at,
            saved_at_text: format_utc(loaded.save.saved_at),
            position: loaded.history.current().clone(),
        }
    }

    /// The preview position as text.
    pub fn position_text(&self) -> String {
        self.position.to_text()
    }
}

/// What one slot holds.
#[derive(Clone, Debug, PartialEq)]
pub enum SlotState {
    Empty,
    Ok(Box<SlotSummary>),
    /// The reason, for the list.
    Unreadable(SaveError),
}

/// One line of the load/save list.
#[derive(Clone, Debug, PartialEq)]
pub struct SlotInfo {
    /// `1..=SLOT_COUNT`.
    pub slot: usize,
    pub path: PathBuf,
    pub state: SlotState,
}

/// The save folder: slots `slot-1.ron` … `slot-9.ron` and `autosave.ron`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveStore {
    dir: PathBuf,
}

impl SaveStore {
    /// The saves in `dir` (created on the first save). The app passes
    /// [`storage::data_dir`]`(--save-dir)`.
    pub fn new(dir: impl Into<PathBuf>) -> SaveStore {
        SaveStore { dir: dir.into() }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of slot `slot` (1-based).
    pub fn slot_path(&self, slot: usize) -> Result<PathBuf, SaveError> {
        if !(1..=SLOT_COUNT).contains(&slot) {
            return Err(SaveError::NoSuchSlot(slot));
        }
        Ok(self.dir.join(format!("slot-{slot}.ron")))
    }

    pub fn autosave_path(&self) -> PathBuf {
        self.dir.join(AUTOSAVE_FILE)
    }

    /// Every slot, 1 to [`SLOT_COUNT`], each read and replayed. Never panics and never changes a
    /// file.
    pub fn list(&self) -> Vec<SlotInfo> {
        (1..=SLOT_COUNT).map(|s| self.slot_info(s)).collect()
    }

    /// One slot as the list shows it (an out-of-range slot is reported as unreadable).
    pub fn slot_info(&self, slot: usize) -> SlotInfo {
        let path = match self.slot_path(slot) {
            Ok(p) => p,
            Err(e) => {
                return SlotInfo {
                    slot,
                    path: self.dir.clone(),
                    state: SlotState::Unreadable(e),
                };
            }
        };
        let state = match read_file(&path) {
            Ok(loaded) => SlotState::Ok(Box::new(SlotSummary::of(&loaded))),
            Err(SaveError::Empty) => SlotState::Empty,
            Err(other) => SlotState::Unreadable(other),
        };
        SlotInfo { slot, path, state }
    }

    /// Saves into a slot. An occupied slot (a readable save or an unreadable file) is replaced
    /// only with `overwrite`; an unreadable file replaced that way is first kept aside as
    /// `slot-N.ron.bad-<time>`. The write is atomic.
    pub fn save(&self, slot: usize, game: &SaveGame, overwrite: bool) -> Result<(), SaveError> {
        let path = self.slot_path(slot)?;
        match read_file(&path) {
            Err(SaveError::Empty) => {}
            Ok(_) if overwrite => {}
            Ok(_) => return Err(SaveError::Occupied { unreadable: false }),
            Err(_) if overwrite => {
                keep_bad_file(&path).map_err(|e| {
                    SaveError::Io(storage::DiskError::of(&e, DiskAction::SetAside, &path))
                })?;
            }
            Err(_) => return Err(SaveError::Occupied { unreadable: true }),
        }
        self.write(&path, game)
    }

    /// Loads a slot: read, version checked, moves replayed.
    pub fn load(&self, slot: usize) -> Result<LoadedGame, SaveError> {
        read_file(&self.slot_path(slot)?)
    }

    /// Deletes a slot's file, readable or not; `Ok(false)` if it was empty.
    pub fn delete(&self, slot: usize) -> Result<bool, SaveError> {
        let path = self.slot_path(slot)?;
        match fs::remove_file(&path) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(SaveError::Io(storage::DiskError::of(
                &e,
                DiskAction::Delete,
                &path,
            ))),
        }
    }

    /// Writes the autosave (after every move and on quit). It always replaces the previous
    /// autosave; an unreadable one is kept aside as `autosave.ron.bad-<time>` first.
    pub fn save_autosave(&self, game: &SaveGame) -> Result<(), SaveError> {
        let path = self.autosave_path();
        if let Err(SaveError::Unreadable(_)) = read_file(&path) {
            keep_bad_file(&path).map_err(|e| {
                SaveError::Io(storage::DiskError::of(&e, DiskAction::SetAside, &path))
            })?;
        }
        self.write(&path, game)
    }

    /// Reads and replays the autosave ("Continue").
    pub fn load_autosave(&self) -> Result<LoadedGame, SaveError> {
        read_file(&self.autosave_path())
    }

    /// Whether there is an autosave that loads (the main menu shows "Continue" then).
    pub fn has_autosave(&self) -> bool {
        self.load_autosave().is_ok()
    }

    /// Removes the autosave (e.g. when the game it holds is over); `Ok(false)` if none.
    pub fn clear_autosave(&self) -> Result<bool, SaveError> {
        match fs::remove_file(self.autosave_path()) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(SaveError::Io(storage::DiskError::of(
                &e,
                DiskAction::Delete,
                &self.autosave_path(),
            ))),
        }
    }

    fn write(&self, path: &Path, game: &SaveGame) -> Result<(), SaveError> {
        let text = game.to_ron()?;
        fs::create_dir_all(&self.dir).map_err(|e| {
            SaveError::Io(storage::DiskError::of(
                &e,
                DiskAction::CreateFolder,
                &self.dir,
            ))
        })?;
        atomic_write(path, text.as_bytes())
            .map_err(|e| SaveError::Io(storage::DiskError::of(&e, DiskAction::Write, path)))
    }
}

/// Reads and replays a save file: `Empty` if there is none.
pub fn read_file(path: &Path) -> Result<LoadedGame, SaveError> {
    match read_text(path) {
        Ok(None) => Err(SaveError::Empty),
        Ok(Some(text)) => SaveGame::load_text(&text),
        Err(why) => Err(SaveError::Unreadable(Unreadable::File(why))),
    }
}
