//! The searcher: iterative-deepening PVS over the pattern evaluation, with the transposition
//! table, time management and threat-space search (`threat`). It knows nothing of the protocol:
//! callers hand it a board, limits and a stop flag, and get a move back.

pub mod bench;
pub mod threat;

use crate::board::{Board, Color, Pos};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What the caller grants one search. All times in milliseconds, as the protocol gives them.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Per-move limit (`INFO timeout_turn`); `Some(0)` means "move now".
    pub turn_ms: Option<u64>,
    /// Whole-game limit (`INFO timeout_match`); `None` or 0 means unlimited.
    pub match_ms: Option<u64>,
    /// Remaining game time (`INFO time_left`), may be negative.
    pub time_left_ms: Option<i64>,
    /// Stop after this depth (`INFO max_depth`).
    pub max_depth: Option<u32>,
    /// Stop after this many nodes (`INFO max_node`).
    pub max_nodes: Option<u64>,
    /// Squares the root search must not play (`YXBLOCK`).
    pub excluded: Vec<Pos>,
}

/// One progress report (the protocol prints it as a MESSAGE line).
#[derive(Clone, Debug)]
pub struct Progress {
    pub depth: u32,
    pub score: i32,
    pub nodes: u64,
    pub elapsed_ms: u64,
    pub pv: Vec<Pos>,
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Pos,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Pos>,
}

/// The engine: owns the transposition table and settings across moves.
pub struct Engine {
    threads: usize,
    memory_bytes: u64,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    pub fn new() -> Engine {
        Engine {
            threads: 1,
            memory_bytes: 0,
        }
    }

    /// Memory limit in bytes for everything the engine allocates (0 = default).
    pub fn set_memory(&mut self, bytes: u64) {
        self.memory_bytes = bytes;
    }

    /// Number of search threads (at least 1).
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
    }

    /// Forgets everything learned (new game or `YXHASHCLEAR`).
    pub fn clear(&mut self) {}

    /// Searches `board` for the side to move and returns a legal move, or None when the board
    /// has no empty square. Returns promptly once `stop` is set.
    pub fn think(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Progress),
    ) -> Option<SearchResult> {
        // Placeholder until the real searcher lands: win if possible, block a five, else play
        // the legal square nearest the last move.
        let start = Instant::now();
        let mut b = board.clone();
        let me = b.side_to_move();
        let squares: Vec<Pos> = b
            .squares()
            .filter(|&p| b.is_empty(p) && !limits.excluded.contains(&p))
            .collect();
        let _ = stop.load(Ordering::Relaxed);
        let pick = squares
            .iter()
            .copied()
            .find(|&p| b.makes_five(p, me))
            .or_else(|| {
                squares
                    .iter()
                    .copied()
                    .find(|&p| b.makes_five(p, me.opposite()))
            })
            .or_else(|| {
                let centre = Pos::new(b.width() / 2, b.height() / 2);
                let anchor = b.last_move().unwrap_or(centre);
                let mut legal: Vec<Pos> = squares
                    .iter()
                    .copied()
                    .filter(|&p| me == Color::White || !b.is_forbidden(p))
                    .collect();
                legal.sort_by_key(|&p| (p.distance(anchor), p));
                legal.first().copied()
            })?;
        report(&Progress {
            depth: 1,
            score: 0,
            nodes: squares.len() as u64,
            elapsed_ms: start.elapsed().as_millis() as u64,
            pv: vec![pick],
        });
        Some(SearchResult {
            best: pick,
            score: 0,
            depth: 1,
            nodes: squares.len() as u64,
            pv: vec![pick],
        })
    }
}
