//! How a game ended, typed: who won (or a draw), why, and by how much. Every place that makes or
//! shows a result uses [`GameResult`]: the record writers take its SGF `RE[]` and PGN forms, the
//! players' history its score, the window its parts (through its translation files).
//!
//! ```
//! use qi_core::result::{GameResult, Reason};
//! use qi_core::Side;
//!
//! let r = GameResult::win(Side::White, Reason::Score { margin: 3.5 });
//! assert_eq!(r.sgf(), "W+3.5");
//! assert_eq!(GameResult::from_sgf("W+3.5"), Some(r));
//! let r = GameResult::win(Side::Black, Reason::Resignation);
//! assert_eq!(r.sgf(), "B+R");
//! ```

use serde::{Deserialize, Serialize};

use crate::any::AnyPosition;
use crate::game::{GameKind, Outcome, Side};

/// Why a game ended the way it did.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Reason {
    /// Pieces counted at the end (Ataxx, Reversi): the two counts.
    Count {
        black: u32,
        white: u32,
    },
    /// Go's area score: the winner's margin (komi included), 0 for jigo.
    Score {
        margin: f32,
    },
    /// Gomoku: five (or more, where the rule allows) in a row.
    Line,
    /// Gomoku: the board filled up with no five.
    BoardFull,
    Resignation,
    /// The loser's clock ran out.
    Time,
    /// The loser forfeited (an illegal move from an engine, a crash, a dropped opponent).
    Forfeit,
    /// The players agreed (a draw offer accepted).
    Agreement,
}

/// A finished game's result.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// `None`: a draw.
    pub winner: Option<Side>,
    pub reason: Reason,
}

fn letter(side: Side) -> char {
    match side {
        Side::Black => 'B',
        Side::White => 'W',
    }
}

/// `3.5` or `3` (no `.0`).
fn number(m: f32) -> String {
    if m.fract() == 0.0 {
        format!("{}", m as i64)
    } else {
        format!("{m:.1}")
    }
}

impl GameResult {
    pub fn win(side: Side, reason: Reason) -> GameResult {
        GameResult {
            winner: Some(side),
            reason,
        }
    }

    pub fn draw(reason: Reason) -> GameResult {
        GameResult {
            winner: None,
            reason,
        }
    }

    pub fn outcome(&self) -> Outcome {
        match self.winner {
            Some(s) => Outcome::Win(s),
            None => Outcome::Draw,
        }
    }

    /// The result of a finished position by its rules (`None` while the game goes on): the
    /// piece count for Ataxx and Reversi, the line for Gomoku, resignation or the area score
    /// for Go. A Go game's score with stones marked dead comes from
    /// [`crate::go::ScoreDetail::game_result`] instead.
    pub fn of(pos: &AnyPosition) -> Option<GameResult> {
        let outcome = pos.outcome()?;
        let winner = outcome.winner();
        let reason = match pos {
            AnyPosition::Go(g) if g.resigned().is_some() => Reason::Resignation,
            AnyPosition::Go(g) => Reason::Score {
                margin: g.area_score().margin().abs(),
            },
            AnyPosition::Gomoku(_) if winner.is_some() => Reason::Line,
            AnyPosition::Gomoku(_) => Reason::BoardFull,
            _ => {
                let [black, white] = pos.piece_counts();
                Reason::Count { black, white }
            }
        };
        Some(GameResult { winner, reason })
    }

    /// The winner's margin where the game has one: discs or pieces, Go points.
    pub fn margin(&self) -> Option<f32> {
        match self.reason {
            Reason::Count { black, white } => Some(black.abs_diff(white) as f32),
            Reason::Score { margin } => Some(margin.abs()),
            _ => None,
        }
    }

    /// SGF `RE[]`: `B+3.5`, `W+R`, `B+T`, `W+F`, `B+12` (discs), `B+` (Gomoku), `0` (draw).
    pub fn sgf(&self) -> String {
        let Some(side) = self.winner else {
            return "0".to_string();
        };
        let tail = match self.reason {
            Reason::Resignation => "R".to_string(),
            Reason::Time => "T".to_string(),
            Reason::Forfeit => "F".to_string(),
            Reason::Line | Reason::BoardFull | Reason::Agreement => String::new(),
            Reason::Count { .. } | Reason::Score { .. } => number(self.margin().unwrap_or(0.0)),
        };
        format!("{}+{tail}", letter(side))
    }

    /// Reads an SGF `RE[]` value (`B+3.5`, `W+R`, `B+Resign`, `W+Time`, `0`, `Draw`, `Jigo`);
    /// `None` for what it does not know (`?`, `Void`). Counts are not in an `RE[]`: a margin
    /// comes back as a score.
    pub fn from_sgf(text: &str) -> Option<GameResult> {
        let t = text.trim();
        match t.to_ascii_lowercase().as_str() {
            "0" | "draw" | "jigo" | "d" => return Some(GameResult::draw(Reason::Agreement)),
            _ => {}
        }
        let (who, rest) = t.split_once('+')?;
        let side = match who.trim().to_ascii_uppercase().as_str() {
            "B" => Side::Black,
            "W" => Side::White,
            _ => return None,
        };
        let rest = rest.trim();
        let reason = match rest.to_ascii_lowercase().as_str() {
            "r" | "resign" => Reason::Resignation,
            "t" | "time" => Reason::Time,
            "f" | "forfeit" => Reason::Forfeit,
            "" => Reason::Line,
            other => Reason::Score {
                margin: other.parse::<f32>().ok().filter(|m| m.is_finite())?.abs(),
            },
        };
        Some(GameResult::win(side, reason))
    }

    /// A record's result as its game's files write it: PGN's `1-0`, `0-1` and `1/2-1/2` for
    /// Ataxx (`1-0` when White, `o`, won), SGF's `RE[]` for the others
    /// ([`GameResult::from_sgf`]), where a bare `B+` is five in a row only in Gomoku.
    /// `None` for what it does not know (`*`, `?`, `Void`).
    pub fn from_record(kind: GameKind, text: &str) -> Option<GameResult> {
        if kind.info().record == crate::game::RecordKind::Pgn {
            return match text.trim() {
                "1-0" => Some(GameResult::win(Side::White, Reason::Agreement)),
                "0-1" => Some(GameResult::win(Side::Black, Reason::Agreement)),
                "1/2-1/2" => Some(GameResult::draw(Reason::Agreement)),
                _ => None,
            };
        }
        let mut r = GameResult::from_sgf(text)?;
        if r.reason == Reason::Line && kind != GameKind::Gomoku {
            r.reason = Reason::Agreement;
        }
        Some(r)
    }

    /// PGN's result token as Qi's Ataxx records write it (`1-0` when White, `o`, won).
    pub fn pgn(&self) -> &'static str {
        match self.winner {
            Some(Side::White) => "1-0",
            Some(Side::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The short score a results list shows: `40-24` for counts, `B+3.5`, `W+R` and the like
    /// for the rest (the [`GameResult::sgf`] form), `five in a row` for Gomoku.
    pub fn score_text(&self) -> String {
        match self.reason {
            Reason::Count { black, white } => format!("{black}-{white}"),
            Reason::Line => "five in a row".to_string(),
            Reason::BoardFull => "board full".to_string(),
            Reason::Score { margin } if self.winner.is_none() || margin == 0.0 => {
                "jigo".to_string()
            }
            _ => self.sgf(),
        }
    }

    /// An English sentence for logs and engine tools (the window says it through its
    /// translation files): "Red wins 30-19", "White wins by 3.5 points", "Black wins by
    /// resignation", "Draw 32-32".
    pub fn describe(&self, kind: GameKind) -> String {
        let side_name = |s: Side| kind.info().side_names[s.index()];
        match (self.winner, self.reason) {
            (None, Reason::Count { black, white }) => format!("Draw {black}-{white}"),
            (None, Reason::Score { .. }) => "Draw (jigo)".to_string(),
            (None, Reason::BoardFull) => "Draw: the board is full".to_string(),
            (None, _) => "Draw".to_string(),
            (Some(s), Reason::Count { black, white }) => {
                let (a, b) = if s == Side::Black {
                    (black, white)
                } else {
                    (white, black)
                };
                format!("{} wins {a}-{b}", side_name(s))
            }
            (Some(s), Reason::Score { margin }) => {
                format!("{} wins by {} points", side_name(s), number(margin.abs()))
            }
            (Some(s), Reason::Line | Reason::BoardFull) => {
                format!("{} wins with five in a row", side_name(s))
            }
            (Some(s), Reason::Resignation) => format!("{} wins by resignation", side_name(s)),
            (Some(s), Reason::Time) => format!("{} wins on time", side_name(s)),
            (Some(s), Reason::Forfeit) => format!("{} wins by forfeit", side_name(s)),
            (Some(s), Reason::Agreement) => format!("{} wins", side_name(s)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_read_from_records_in_each_games_format() {
        let read = |k, t| GameResult::from_record(k, t);
        assert_eq!(
            read(GameKind::Ataxx, "1-0"),
            Some(GameResult::win(Side::White, Reason::Agreement))
        );
        assert_eq!(
            read(GameKind::Ataxx, "0-1"),
            Some(GameResult::win(Side::Black, Reason::Agreement))
        );
        assert_eq!(
            read(GameKind::Ataxx, "1/2-1/2"),
            Some(GameResult::draw(Reason::Agreement))
        );
        assert_eq!(read(GameKind::Ataxx, "*"), None);
        assert_eq!(read(GameKind::Ataxx, "B+R"), None);
        assert_eq!(
            read(GameKind::Gomoku, "B+"),
            Some(GameResult::win(Side::Black, Reason::Line))
        );
        assert_eq!(
            read(GameKind::Go, "B+"),
            Some(GameResult::win(Side::Black, Reason::Agreement))
        );
        assert_eq!(
            read(GameKind::Go, "W+R"),
            Some(GameResult::win(Side::White, Reason::Resignation))
        );
        assert_eq!(
            read(GameKind::Reversi, "B+64"),
            Some(GameResult::win(Side::Black, Reason::Score { margin: 64.0 }))
        );
        assert_eq!(read(GameKind::Go, "1-0"), None);
    }

    #[test]
    fn sgf_forms_round_trip() {
        for (r, text) in [
            (
                GameResult::win(Side::Black, Reason::Score { margin: 3.5 }),
                "B+3.5",
            ),
            (
                GameResult::win(Side::White, Reason::Score { margin: 12.0 }),
                "W+12",
            ),
            (GameResult::win(Side::White, Reason::Resignation), "W+R"),
            (GameResult::win(Side::Black, Reason::Time), "B+T"),
            (GameResult::win(Side::Black, Reason::Forfeit), "B+F"),
            (GameResult::win(Side::White, Reason::Line), "W+"),
            (GameResult::draw(Reason::Agreement), "0"),
        ] {
            assert_eq!(r.sgf(), text);
            assert_eq!(GameResult::from_sgf(text), Some(r), "{text}");
        }
        assert_eq!(
            GameResult::from_sgf("B+Resign"),
            Some(GameResult::win(Side::Black, Reason::Resignation))
        );
        assert_eq!(GameResult::from_sgf("Void"), None);
        assert_eq!(GameResult::from_sgf("B+lots"), None);
        assert_eq!(GameResult::from_sgf("B+NaN"), None);
    }

    #[test]
    fn counts_score_as_counts_and_gomoku_never_as_a_stone_count() {
        let count = GameResult::win(
            Side::White,
            Reason::Count {
                black: 24,
                white: 40,
            },
        );
        assert_eq!(count.sgf(), "W+16");
        assert_eq!(count.score_text(), "24-40");
        assert_eq!(count.describe(GameKind::Reversi), "White wins 40-24");
        assert_eq!(count.describe(GameKind::Ataxx), "Blue wins 40-24");
        let five = GameResult::win(Side::White, Reason::Line);
        assert_eq!(five.score_text(), "five in a row");
        assert_eq!(
            five.describe(GameKind::Gomoku),
            "White wins with five in a row"
        );
        let go = GameResult::win(Side::Black, Reason::Score { margin: 3.5 });
        assert_eq!(go.describe(GameKind::Go), "Black wins by 3.5 points");
        assert_eq!(go.score_text(), "B+3.5");
    }

    #[test]
    fn of_a_finished_position() {
        // Reversi: a position with no moves for either side
        let pos = AnyPosition::from_text(
            GameKind::Reversi,
            "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX- X",
        )
        .unwrap();
        let r = GameResult::of(&pos).expect("over");
        assert_eq!(r.winner, Some(Side::Black));
        // Reversi gives the empty square to the winner
        assert!(
            matches!(
                r.reason,
                Reason::Count {
                    black: 63 | 64,
                    white: 0
                }
            ),
            "{r:?}"
        );
        let start = AnyPosition::start(GameKind::Go).unwrap();
        assert_eq!(GameResult::of(&start), None);
    }
}
