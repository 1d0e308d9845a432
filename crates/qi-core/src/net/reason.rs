//! Why a session refused a message, did not admit a joiner or closed its link, as types: the
//! window says each in its own language, while the wire and the logs keep the English of
//! their `Display` (the protocol's `error` and `refuse` messages carry that text).

use std::fmt;
use std::time::Duration;

use super::protocol::ProtocolError;
use crate::game::Side;

/// Why a message of the opponent's was refused and not applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A message of kind `kind` before the hello/welcome handshake.
    BeforeHandshake {
        kind: &'static str,
    },
    /// A chat message longer than [`super::protocol::MAX_CHAT_CHARS`].
    ChatTooLong,
    /// A message of kind `kind` while no game is on (paused, over, not started).
    NotOn {
        kind: &'static str,
    },
    SecondUndoRequest,
    /// An undo request to move `ply` (more than three moves back, or not before move `at`).
    UndoTooFar {
        ply: usize,
        at: usize,
    },
    /// An undo request to a position where the requester would not be to move.
    UndoNotTheirTurn {
        ply: usize,
    },
    /// An answer to an undo request to move `ply` that was never asked.
    UndoAnswerNotAsked {
        ply: u32,
    },
    DrawAnswerNoOffer,
    FlagWithoutClock,
    /// A flag for `side` at move `ply`, who was not to move then.
    FlagNotToMove {
        side: Side,
        ply: u32,
    },
    /// A claim that this player's time ran out while its clock still runs.
    FlagMineRunning,
    /// The move `mv` when it was not the opponent's turn.
    OutOfTurn {
        mv: String,
    },
    /// The move `mv` for move `ply`, while the game is at move `at`.
    WrongPly {
        mv: String,
        ply: u32,
        at: usize,
    },
    Illegal {
        mv: String,
    },
    /// The move `mv` cannot be read (`why`, in English).
    Unreadable {
        mv: String,
        why: String,
    },
    HelloToJoiner,
    SecondHello,
    UnexpectedWelcome,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::BeforeHandshake { kind } => write!(f, "'{kind}' before the handshake"),
            Refusal::ChatTooLong => write!(
                f,
                "a chat message of more than {} characters",
                super::protocol::MAX_CHAT_CHARS
            ),
            Refusal::NotOn { kind } => write!(f, "'{kind}' when the game is not on"),
            Refusal::SecondUndoRequest => write!(f, "a second undo request before the answer"),
            Refusal::UndoTooFar { ply, at } => {
                write!(f, "an undo request to move {ply} at move {at}")
            }
            Refusal::UndoNotTheirTurn { ply } => write!(
                f,
                "an undo request to a position where it would not be their turn (move {ply})"
            ),
            Refusal::UndoAnswerNotAsked { ply } => {
                write!(f, "an undo answer for move {ply}, which was not asked")
            }
            Refusal::DrawAnswerNoOffer => write!(f, "a draw answer to no offer"),
            Refusal::FlagWithoutClock => write!(f, "a flag in a game without clocks"),
            Refusal::FlagNotToMove { side, ply } => {
                write!(
                    f,
                    "a flag for {side:?} at move {ply}, who was not to move then"
                )
            }
            Refusal::FlagMineRunning => {
                write!(f, "a claim that my time ran out while my clock still runs")
            }
            Refusal::OutOfTurn { mv } => {
                write!(f, "move '{mv}' out of turn (it is not their turn)")
            }
            Refusal::WrongPly { mv, ply, at } => {
                write!(f, "move '{mv}' for move {ply}, the game is at move {at}")
            }
            Refusal::Illegal { mv } => write!(f, "illegal move '{mv}'"),
            Refusal::Unreadable { mv, why } => write!(f, "move '{mv}' cannot be read: {why}"),
            Refusal::HelloToJoiner => write!(f, "a hello sent to the joiner"),
            Refusal::SecondHello => write!(f, "a second hello on the same link"),
            Refusal::UnexpectedWelcome => write!(f, "an unexpected welcome"),
        }
    }
}

/// Why a host did not admit a joiner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Admission {
    /// The game already has its two players.
    GameFull,
    /// A returning joiner's session or token does not match the host's game.
    NotYourGame,
    /// A returning joiner was welcomed to another game than its own.
    AnotherGame,
    /// A host's reason this Qi does not know, in the host's words.
    Other(String),
}

impl Admission {
    /// The host's reason as its `refuse` message carries it.
    pub fn from_wire(reason: &str) -> Admission {
        [
            Admission::GameFull,
            Admission::NotYourGame,
            Admission::AnotherGame,
        ]
        .into_iter()
        .find(|a| a.to_string() == reason)
        .unwrap_or_else(|| Admission::Other(reason.to_string()))
    }
}

impl fmt::Display for Admission {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Admission::GameFull => write!(f, "this game already has its two players"),
            Admission::NotYourGame => write!(
                f,
                "this is not the game you were in (session or token does not match)"
            ),
            Admission::AnotherGame => write!(f, "the host answered with another game"),
            Admission::Other(why) => write!(f, "{why}"),
        }
    }
}

/// Why the session closed its link ([`super::Session::take_close`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkEnd {
    /// The opponent sent nothing for this long.
    PeerSilent { after: Duration },
    /// The opponent sent a frame that cannot be read.
    BadData(ProtocolError),
    /// This player left the game.
    Left,
    /// The host did not admit this joiner.
    HostRefused(Admission),
    /// This host did not admit a joiner.
    RefusedJoiner(Admission),
    /// The opponent left for good.
    PeerLeft,
    /// The host's welcome cannot be read (`why`, in English).
    BadWelcome(String),
}

impl fmt::Display for LinkEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkEnd::PeerSilent { after } => {
                write!(f, "the opponent sent nothing for {} s", after.as_secs_f32())
            }
            LinkEnd::BadData(e) => write!(f, "{e}"),
            LinkEnd::Left => write!(f, "left the game"),
            LinkEnd::HostRefused(why) => write!(f, "the host refused: {why}"),
            LinkEnd::RefusedJoiner(why) => write!(f, "refused a joiner: {why}"),
            LinkEnd::PeerLeft => write!(f, "the opponent left"),
            LinkEnd::BadWelcome(why) => write!(f, "the host's game cannot be read: {why}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hosts_known_reasons_come_back_typed_and_others_keep_their_words() {
        for a in [
            Admission::GameFull,
            Admission::NotYourGame,
            Admission::AnotherGame,
        ] {
            assert_eq!(Admission::from_wire(&a.to_string()), a);
        }
        assert_eq!(
            Admission::from_wire("closed for lunch"),
            Admission::Other("closed for lunch".into())
        );
    }
}
