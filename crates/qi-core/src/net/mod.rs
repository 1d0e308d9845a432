//! Network play without sockets: the game protocol ([`protocol`]) and one player's side of an
//! online game as a state machine ([`session`]). The transport, LAN discovery and the relay
//! server are in the `qi-net` crate; the clocks are in [`crate::clock`].

pub mod protocol;
pub mod reason;
pub mod session;

#[cfg(test)]
mod tests;

pub use protocol::{Message, PROTOCOL_VERSION, ProtocolError, Setup};
pub use reason::{Admission, LinkEnd, Refusal};
pub use session::{ActionError, Event, Phase, Role, Session, SessionSave, Timing};
