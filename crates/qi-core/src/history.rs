//! The players' results: one [`GameResultEntry`] per finished game, kept as RON in the data
//! folder ([`crate::storage::HISTORY_FILE`]), for the Records screen's last games and its win,
//! draw and loss totals per game and CPU level.
//!
//! ```no_run
//! use qi_core::history::{GameOutcome, GameResultEntry, History};
//! use qi_core::GameKind;
//!
//! let path = qi_core::storage::data_dir(None).join(qi_core::storage::HISTORY_FILE);
//! let (mut history, problem) = History::load(&path); // a damaged file: empty history + message
//! history.record(GameResultEntry::new(GameKind::Reversi, "Ann", "CPU", GameOutcome::Win, "40-24", 60, Some(3)));
//! history.save(&path).unwrap();
//! let recent = history.last(10);
//! let totals = history.totals(Some("Ann"));
//! ```

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::game::GameKind;
use crate::storage::{load_or_default, now_unix, save_ron};

/// The history format this version writes.
pub const HISTORY_VERSION: u32 = 1;

/// How a game ended for the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameOutcome {
    Win,
    Draw,
    Loss,
}

/// One finished game, seen from `player`'s side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResultEntry {
    /// Seconds since 1970-01-01 UTC ([`crate::storage::format_utc`] shows it).
    pub date: u64,
    pub game: GameKind,
    pub player: String,
    pub opponent: String,
    pub result: GameOutcome,
    /// As the game scores it: `40-24` discs, `B+3.5`, `five in a row`, …
    pub score: String,
    /// Moves played.
    pub moves: u32,
    /// The opponent's CPU level, `None` against a person.
    pub cpu_level: Option<u8>,
    /// The game's result, typed (absent in files written before it was kept).
    #[serde(default)]
    pub detail: Option<crate::result::GameResult>,
}

impl GameResultEntry {
    /// An entry dated now.
    pub fn new(
        game: GameKind,
        player: &str,
        opponent: &str,
        result: GameOutcome,
        score: &str,
        moves: u32,
        cpu_level: Option<u8>,
    ) -> GameResultEntry {
        GameResultEntry {
            date: now_unix(),
            game,
            player: player.to_string(),
            opponent: opponent.to_string(),
            result,
            score: score.to_string(),
            moves,
            cpu_level,
            detail: None,
        }
    }

    /// The entry of a finished game for the person who played `side`: the outcome from that
    /// side's view and the score both come from `result`.
    pub fn of_result(
        game: GameKind,
        side: crate::game::Side,
        names: [&str; 2],
        result: crate::result::GameResult,
        moves: u32,
        cpu_level: Option<u8>,
    ) -> GameResultEntry {
        let outcome = match result.winner {
            None => GameOutcome::Draw,
            Some(w) if w == side => GameOutcome::Win,
            Some(_) => GameOutcome::Loss,
        };
        let mut e = GameResultEntry::new(
            game,
            names[side.index()],
            names[side.other().index()],
            outcome,
            &result.score_text(),
            moves,
            cpu_level,
        );
        e.detail = Some(result);
        e
    }
}

/// Wins, draws and losses of one game against one CPU level (`None`: against people).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Totals {
    pub game: GameKind,
    pub cpu_level: Option<u8>,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Totals {
    pub fn played(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
}

/// Every recorded result, oldest first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct History {
    pub version: u32,
    pub results: Vec<GameResultEntry>,
}

impl Default for History {
    fn default() -> History {
        History {
            version: HISTORY_VERSION,
            results: Vec::new(),
        }
    }
}

impl History {
    /// Reads the history file: empty when there is none; when it cannot be read, empty with a
    /// message for the player, the bad file kept beside it ([`load_or_default`]).
    pub fn load(path: &Path) -> (History, Option<crate::storage::LoadProblem>) {
        load_or_default(path)
    }

    /// Writes the history atomically (the folder is created if needed).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        save_ron(path, self)
    }

    /// Adds a finished game.
    pub fn record(&mut self, entry: GameResultEntry) {
        self.results.push(entry);
    }

    /// The last `n` games, newest first.
    pub fn last(&self, n: usize) -> Vec<&GameResultEntry> {
        self.results.iter().rev().take(n).collect()
    }

    /// The last `n` games of one player, newest first.
    pub fn last_of(&self, player: &str, n: usize) -> Vec<&GameResultEntry> {
        self.results
            .iter()
            .rev()
            .filter(|e| e.player == player)
            .take(n)
            .collect()
    }

    /// Totals per game and CPU level (people last within a game), for one player or everyone;
    /// only combinations that were played are listed, in game order then level.
    pub fn totals(&self, player: Option<&str>) -> Vec<Totals> {
        let mut out: Vec<Totals> = Vec::new();
        for e in self
            .results
            .iter()
            .filter(|e| player.is_none_or(|p| e.player == p))
        {
            let t = match out
                .iter_mut()
                .find(|t| t.game == e.game && t.cpu_level == e.cpu_level)
            {
                Some(t) => t,
                None => {
                    out.push(Totals {
                        game: e.game,
                        cpu_level: e.cpu_level,
                        wins: 0,
                        draws: 0,
                        losses: 0,
                    });
                    out.last_mut().expect("just pushed")
                }
            };
            match e.result {
                GameOutcome::Win => t.wins += 1,
                GameOutcome::Draw => t.draws += 1,
                GameOutcome::Loss => t.losses += 1,
            }
        }
        out.sort_by_key(|t| (t.game, t.cpu_level.is_none(), t.cpu_level));
        out
    }

    /// The totals of one game and CPU level (zeros if never played).
    pub fn totals_for(
        &self,
        player: Option<&str>,
        game: GameKind,
        cpu_level: Option<u8>,
    ) -> Totals {
        self.totals(player)
            .into_iter()
            .find(|t| t.game == game && t.cpu_level == cpu_level)
            .unwrap_or(Totals {
                game,
                cpu_level,
                wins: 0,
                draws: 0,
                losses: 0,
            })
    }
}
