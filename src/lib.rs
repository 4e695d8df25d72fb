//! Gorin: a Gomoku and Renju engine.
//! The library holds every concern (board and rules, evaluation, search, protocol, match
//! runner, terminal play); the binaries in `src/bin` are thin edges around it.

pub mod arena;
pub mod board;
pub mod eval;
pub mod play;
pub mod protocol;
pub mod record;
pub mod search;
