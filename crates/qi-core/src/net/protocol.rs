//! The game protocol: versioned messages, one JSON object a line.
//!
//! Every frame is `{"v":1,"t":"<kind>",...}` followed by `\n`, at most [`MAX_FRAME_BYTES`]
//! bytes. [`decode`] never panics: garbage, another version, an oversized frame or an unknown
//! message each give their own [`ProtocolError`].
//!
//! ```
//! use qi_core::net::protocol::{decode, encode, Message};
//!
//! let line = encode(&Message::Move { ply: 0, mv: "d3".into(), spent_ms: 1200 });
//! assert_eq!(line, "{\"v\":1,\"t\":\"move\",\"ply\":0,\"mv\":\"d3\",\"spent_ms\":1200}\n");
//! assert_eq!(decode(line.as_bytes()).unwrap(), Message::Move { ply: 0, mv: "d3".into(), spent_ms: 1200 });
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::clock::{GameClock, TimeControl};
use crate::game::{GameKind, Side};
use crate::result::GameResult;

/// The protocol version this Qi speaks. A frame of another version is refused.
pub const PROTOCOL_VERSION: u32 = 1;
/// The largest frame, newline included. A Go game of 1000 moves needs about 10 KiB.
pub const MAX_FRAME_BYTES: usize = 64 * 1024;
/// The longest chat message, in characters.
pub const MAX_CHAT_CHARS: usize = 500;
/// The longest player name, in characters.
pub const MAX_NAME_CHARS: usize = 40;

/// What a game is: the game, its start position in the game's text form (it carries the
/// options: board size, komi, Gomoku rule, Ataxx blocks), the host's colour and the clock.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    pub game: GameKind,
    pub start: String,
    pub host_side: Side,
    pub clock: Option<TimeControl>,
}

/// A joiner coming back to a game it was in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resume {
    pub session: String,
    pub token: String,
    /// How many moves the joiner has.
    pub ply: u32,
}

/// One protocol message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
// A welcome is much larger than the rest; messages are made and sent one at a time.
#[allow(clippy::large_enum_variant)]
#[serde(tag = "t", rename_all = "snake_case", deny_unknown_fields)]
pub enum Message {
    /// Joiner → host, first on every link: who joins, and the session it resumes.
    Hello {
        name: String,
        resume: Option<Resume>,
    },
    /// Host → joiner: the game as it stands (also after a reconnection: the resync).
    Welcome {
        session: String,
        token: String,
        name: String,
        setup: Setup,
        moves: Vec<String>,
        spent_ms: Vec<u64>,
        /// The clock at the start of the current turn.
        clock: Option<GameClock>,
        result: Option<GameResult>,
    },
    /// Host → joiner: not admitted (the game has its opponent, a wrong token). The link closes.
    Refuse {
        reason: String,
    },
    /// A move by the sender, as the move's text, played at `ply` (the number of moves before
    /// it), after `spent_ms` of thinking.
    Move {
        ply: u32,
        mv: String,
        spent_ms: u64,
    },
    /// The sender asks to take moves back to `ply`.
    UndoRequest {
        ply: u32,
    },
    UndoReply {
        ply: u32,
        accept: bool,
    },
    DrawOffer,
    DrawReply {
        accept: bool,
    },
    Resign,
    /// `side`'s time ran out at `ply` (the sender's own, or the opponent's after a grace).
    Flag {
        side: Side,
        ply: u32,
    },
    Chat {
        text: String,
    },
    Ping {
        n: u64,
    },
    Pong {
        n: u64,
    },
    /// The sender refused something it was sent, and why (it was not applied).
    Error {
        text: String,
    },
    /// The sender leaves for good.
    Bye,
}

impl Message {
    /// The message's kind as on the wire (for logs).
    pub fn kind(&self) -> &'static str {
        match self {
            Message::Hello { .. } => "hello",
            Message::Welcome { .. } => "welcome",
            Message::Refuse { .. } => "refuse",
            Message::Move { .. } => "move",
            Message::UndoRequest { .. } => "undo_request",
            Message::UndoReply { .. } => "undo_reply",
            Message::DrawOffer => "draw_offer",
            Message::DrawReply { .. } => "draw_reply",
            Message::Resign => "resign",
            Message::Flag { .. } => "flag",
            Message::Chat { .. } => "chat",
            Message::Ping { .. } => "ping",
            Message::Pong { .. } => "pong",
            Message::Error { .. } => "error",
            Message::Bye => "bye",
        }
    }
}

/// Why a frame could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProtocolError {
    /// More than [`MAX_FRAME_BYTES`].
    TooLarge { bytes: usize },
    /// Not UTF-8 JSON with a version: noise, another program.
    Garbage(String),
    /// A frame of another protocol version.
    Version { theirs: u32 },
    /// The right version, but not a message this version knows (unknown kind, missing field).
    Invalid(String),
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtocolError::TooLarge { bytes } => write!(
                f,
                "a message of {bytes} bytes, more than the {MAX_FRAME_BYTES} allowed"
            ),
            ProtocolError::Garbage(why) => write!(f, "not a Qi message ({why})"),
            ProtocolError::Version { theirs } => write!(
                f,
                "the other side speaks protocol version {theirs}, this Qi speaks {PROTOCOL_VERSION}: both players need the same version of Qi"
            ),
            ProtocolError::Invalid(why) => {
                write!(f, "a message this Qi does not understand ({why})")
            }
        }
    }
}

impl std::error::Error for ProtocolError {}

#[derive(Serialize)]
struct OutFrame<'a> {
    v: u32,
    #[serde(flatten)]
    msg: &'a Message,
}

#[derive(Deserialize)]
struct Probe {
    v: u32,
}

#[derive(Deserialize)]
struct InFrame {
    #[allow(dead_code)]
    v: u32,
    #[serde(flatten)]
    msg: Message,
}

/// The frame of `msg`: one line of JSON, `\n` at the end.
pub fn encode(msg: &Message) -> String {
    let mut s = serde_json::to_string(&OutFrame {
        v: PROTOCOL_VERSION,
        msg,
    })
    .expect("a message always serialises");
    s.push('\n');
    s
}

/// Reads one frame (with or without its `\n`).
pub fn decode(frame: &[u8]) -> Result<Message, ProtocolError> {
    if frame.len() > MAX_FRAME_BYTES {
        return Err(ProtocolError::TooLarge { bytes: frame.len() });
    }
    let text = std::str::from_utf8(frame)
        .map_err(|e| ProtocolError::Garbage(format!("not UTF-8: {e}")))?;
    let text = text.trim_end_matches(['\n', '\r']);
    let probe: Probe = serde_json::from_str(text)
        .map_err(|e| ProtocolError::Garbage(format!("no version: {e}")))?;
    if probe.v != PROTOCOL_VERSION {
        return Err(ProtocolError::Version { theirs: probe.v });
    }
    let frame: InFrame =
        serde_json::from_str(text).map_err(|e| ProtocolError::Invalid(e.to_string()))?;
    Ok(frame.msg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn every_message_goes_through_the_wire_and_back() {
        let setup = Setup {
            game: GameKind::Go,
            start: "9 6.5 b ........./........./........./........./........./........./........./........./......... 0 0 0".into(),
            host_side: Side::White,
            clock: Some(TimeControl::ByoYomi {
                main: Duration::from_secs(60),
                periods: 3,
                period: Duration::from_secs(10),
            }),
        };
        let all = vec![
            Message::Hello {
                name: "Ann \"the\" player".into(),
                resume: Some(Resume {
                    session: "s".into(),
                    token: "t".into(),
                    ply: 3,
                }),
            },
            Message::Welcome {
                session: "s".into(),
                token: "t".into(),
                name: "Bob".into(),
                setup: setup.clone(),
                moves: vec!["e5".into(), "pass".into()],
                spent_ms: vec![1, 2],
                clock: Some(GameClock::new(setup.clock.unwrap())),
                result: None,
            },
            Message::Refuse {
                reason: "no".into(),
            },
            Message::Move {
                ply: 7,
                mv: "a1".into(),
                spent_ms: 0,
            },
            Message::UndoRequest { ply: 5 },
            Message::UndoReply {
                ply: 5,
                accept: true,
            },
            Message::DrawOffer,
            Message::DrawReply { accept: false },
            Message::Resign,
            Message::Flag {
                side: Side::Black,
                ply: 9,
            },
            Message::Chat {
                text: "gg\nwp ünïcode".into(),
            },
            Message::Ping { n: 1 },
            Message::Pong { n: 1 },
            Message::Error { text: "x".into() },
            Message::Bye,
        ];
        for m in all {
            let line = encode(&m);
            assert!(line.ends_with('\n'));
            assert_eq!(line.matches('\n').count(), 1, "one line: {line}");
            assert_eq!(decode(line.as_bytes()), Ok(m.clone()), "{line}");
            assert!(line.contains(&format!("\"t\":\"{}\"", m.kind())), "{line}");
        }
    }

    #[test]
    fn bad_frames_give_their_own_errors() {
        assert!(matches!(
            decode(b"\xff\xfe\x00garbage"),
            Err(ProtocolError::Garbage(_))
        ));
        assert!(matches!(
            decode(b"GET / HTTP/1.1"),
            Err(ProtocolError::Garbage(_))
        ));
        assert!(matches!(
            decode(b"{\"t\":\"bye\"}"),
            Err(ProtocolError::Garbage(_))
        ));
        assert_eq!(
            decode(b"{\"v\":2,\"t\":\"bye\"}"),
            Err(ProtocolError::Version { theirs: 2 })
        );
        assert!(matches!(
            decode(b"{\"v\":1,\"t\":\"teleport\"}"),
            Err(ProtocolError::Invalid(_))
        ));
        assert!(matches!(
            decode(b"{\"v\":1,\"t\":\"move\",\"ply\":1}"),
            Err(ProtocolError::Invalid(_))
        ));
        let big = format!(
            "{{\"v\":1,\"t\":\"chat\",\"text\":\"{}\"}}",
            "x".repeat(MAX_FRAME_BYTES)
        );
        assert_eq!(
            decode(big.as_bytes()),
            Err(ProtocolError::TooLarge { bytes: big.len() })
        );
        // Every message the errors describe is readable.
        assert!(
            ProtocolError::Version { theirs: 2 }
                .to_string()
                .contains("version 2")
        );
    }
}
