//! Qi's core: the rules of Ataxx, Reversi, Gomoku and Go behind one [`game::Game`] interface,
//! notation, AI, game records and engine protocols. It knows nothing of Bevy.

pub mod ai;
pub mod analysis;
pub mod any;
pub mod ataxx;
pub mod clock;
pub mod engine;
pub mod game;
pub mod go;
pub mod gomoku;
pub mod history;
pub mod net;
pub mod openings;
pub mod records;
pub mod result;
pub mod reversi;
pub mod rng;
pub mod saves;
pub mod search;
pub mod sgf;
pub mod storage;
pub mod zobrist;

pub use game::{
    Cell, GAMES, Game, GameInfo, GameKind, IllegalMove, MoveSquares, Outcome, ParseError, Side,
    Square,
};
pub use result::{GameResult, Reason};
