//! The network's failures and progress in the window's language: a link problem, a host that
//! cannot listen, where a joiner is connecting.

use qi_net::{LinkProblem, NetError};

/// Why a link broke or a connection failed, in the window's language. The system's own words
/// stay only for failures Qi has no words for, and the session's own reasons (a protocol
/// fault) are English.
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
        LinkProblem::Session(why) => why.clone(),
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
