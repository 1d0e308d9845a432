//! The network's failures and progress in the window's language: a link problem, a host that
//! cannot listen, where a joiner is connecting, what the game's session refused or why it
//! closed a link.

use qi_core::net::{Admission, LinkEnd, ProtocolError, Refusal};
use qi_net::{LinkProblem, NetError};

/// Why a link broke or a connection failed, in the window's language. The system's own words
/// stay only for failures Qi has no words for.
pub fn link_problem_text(p: &LinkProblem) -> String {
    use std::io::ErrorKind as K;
    match p {
        LinkProblem::Closed => t!("net-closed"),
        LinkProblem::Broke { kind, detail } | LinkProblem::CannotSend { kind, detail } => {
            match kind {
                K::ConnectionReset | K::ConnectionAborted | K::BrokenPipe => t!("net-broke"),
                K::TimedOut | K::WouldBlock => t!("net-silent"),
                _ => t!("net-broke-because", detail = detail.as_str()),
            }
        }
        LinkProblem::NoSuchHost { addr, .. } => t!("net-no-such-host", addr = addr.as_str()),
        LinkProblem::CannotConnect { addr, kind, detail } => match kind {
            K::ConnectionRefused => t!("net-refused", addr = addr.as_str()),
            K::TimedOut => t!("net-no-answer", addr = addr.as_str()),
            K::HostUnreachable | K::NetworkUnreachable => {
                t!("net-unreachable", addr = addr.as_str())
            }
            _ => t!(
                "net-cannot-connect",
                addr = addr.as_str(),
                detail = detail.as_str()
            ),
        },
        LinkProblem::RelaySays(why) => match why.as_str() {
            "no such room" => t!("net-relay-no-room"),
            "wrong room key" => t!("net-relay-wrong-key"),
            "the relay is full" | "the relay has no room left" => t!("net-relay-full"),
            "the room's game is on; try again shortly" => t!("net-relay-room-busy"),
            "the host is not in the room; try again shortly" => t!("net-relay-host-away"),
            other => t!("net-relay-says", why = other),
        },
        LinkProblem::NotARelay { .. } => t!("net-not-a-relay"),
        LinkProblem::RelayClosed => t!("net-relay-closed"),
        LinkProblem::Stopped => t!("net-stopped"),
        LinkProblem::Session(why) => link_end_text(why),
        LinkProblem::LanHostWaits => t!("net-lan-host-waits"),
    }
}

/// Why the game's session closed its link.
pub fn link_end_text(end: &LinkEnd) -> String {
    match end {
        LinkEnd::PeerSilent { after } => t!("link-end-silent", secs = after.as_secs_f64()),
        LinkEnd::BadData(e) => t!("link-end-bad-data", why = protocol_error_text(e)),
        LinkEnd::Left => t!("link-end-left"),
        LinkEnd::HostRefused(a) => t!("link-end-host-refused", why = admission_text(a)),
        LinkEnd::RefusedJoiner(a) => t!("link-end-refused-joiner", why = admission_text(a)),
        LinkEnd::PeerLeft => t!("link-end-peer-left"),
        LinkEnd::BadWelcome(why) => t!("link-end-bad-welcome", why = why.as_str()),
    }
}

/// Why a host did not admit this player (a reason another program sent stays in its words).
pub fn admission_text(a: &Admission) -> String {
    match a {
        Admission::GameFull => t!("admission-game-full"),
        Admission::NotYourGame => t!("admission-not-your-game"),
        Admission::AnotherGame => t!("admission-another-game"),
        Admission::Other(why) => why.clone(),
    }
}

/// A frame of the opponent's that cannot be read (the parser's own words stay as details).
pub fn protocol_error_text(e: &ProtocolError) -> String {
    use qi_core::net::protocol::MAX_FRAME_BYTES;
    match e {
        ProtocolError::TooLarge { bytes } => {
            t!("protocol-too-large", bytes = *bytes, max = MAX_FRAME_BYTES)
        }
        ProtocolError::Garbage(detail) => t!("protocol-garbage", detail = detail.as_str()),
        ProtocolError::Version { theirs } => t!(
            "protocol-version",
            theirs = *theirs,
            ours = qi_core::net::PROTOCOL_VERSION
        ),
        ProtocolError::Invalid(detail) => t!("protocol-invalid", detail = detail.as_str()),
    }
}

/// What of the opponent's was refused and not applied. Move numbers count from 1.
pub fn refusal_text(r: &Refusal) -> String {
    match r {
        Refusal::BeforeHandshake { kind } => t!("refusal-before-handshake", kind = *kind),
        Refusal::ChatTooLong => t!(
            "refusal-chat-too-long",
            max = qi_core::net::protocol::MAX_CHAT_CHARS
        ),
        Refusal::NotOn { kind } => t!("refusal-not-on", kind = *kind),
        Refusal::SecondUndoRequest => t!("refusal-second-undo"),
        Refusal::UndoTooFar { ply, at } => t!("refusal-undo-too-far", ply = *ply, at = *at),
        Refusal::UndoNotTheirTurn { ply } => t!("refusal-undo-not-their-turn", ply = *ply),
        Refusal::UndoAnswerNotAsked { ply } => t!("refusal-undo-answer-not-asked", ply = *ply),
        Refusal::DrawAnswerNoOffer => t!("refusal-draw-answer-no-offer"),
        Refusal::FlagWithoutClock => t!("refusal-flag-no-clock"),
        Refusal::FlagNotToMove { ply, .. } => t!("refusal-flag-not-to-move", ply = *ply + 1),
        Refusal::FlagMineRunning => t!("refusal-flag-mine-running"),
        Refusal::OutOfTurn { mv } => t!("refusal-out-of-turn", mv = mv.as_str()),
        Refusal::WrongPly { mv, ply, at } => t!(
            "refusal-wrong-ply",
            mv = mv.as_str(),
            ply = *ply + 1,
            at = *at + 1
        ),
        Refusal::Illegal { mv } => t!("refusal-illegal", mv = mv.as_str()),
        Refusal::Unreadable { mv, .. } => t!("refusal-unreadable", mv = mv.as_str()),
        Refusal::HelloToJoiner => t!("refusal-hello-to-joiner"),
        Refusal::SecondHello => t!("refusal-second-hello"),
        Refusal::UnexpectedWelcome => t!("refusal-unexpected-welcome"),
    }
}

/// "Connecting to `to`" (`host:port`), or to the room `room` on the relay `to`.
pub fn connecting_text(to: &str, room: Option<&str>) -> String {
    match room {
        Some(code) => t!("online-connecting-room", code = code, to = to),
        None => t!("online-connecting", to = to),
    }
}

/// Why an online game could not be hosted (or resumed as host) listening on `port` (`None`:
/// through a relay), in the window's language.
pub fn net_error_text(e: &NetError, port: Option<u16>) -> String {
    use std::io::ErrorKind as K;
    let port = port.map_or_else(String::new, |p| p.to_string());
    match e {
        NetError::Io(io) => match io.kind() {
            K::AddrInUse => t!("net-port-in-use", port = port),
            K::PermissionDenied => t!("net-port-denied", port = port),
            _ => t!("net-cannot-listen", detail = io.to_string()),
        },
        NetError::Setup(why) => t!("net-bad-setup", why = why.as_str()),
    }
}
