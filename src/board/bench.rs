//! Board micro-benchmark: make+undo pairs and forbidden-point checks per second on a fixed
//! renju midgame position. Printed by `pbrain-gorin bench`; never asserted in tests.

use super::notation::{parse_move_list, Rows};
use super::{Board, Rule};
use std::hint::black_box;
use std::time::Instant;

/// A renju midgame of 34 stones with ten forbidden points for black (pos notation, black first).
const MIDGAME: &str =
    "e10h6f12e5i9d5e4g7k5j11g12d12e11d11g10l8i11j4j6h4f9i8j9d8j7h8e7i7i5g6g4l12e9k10";

/// Runs the benchmark for about `millis` per figure and returns printable lines.
pub fn report(millis: u64) -> Vec<String> {
    // Cold build of the renju tables (black: exact five, white: five or more), which a brain
    // pays once, at the first position of a rule.
    let start = Instant::now();
    black_box(super::pattern::pair_table(Rule::Renju));
    let build_ms = start.elapsed().as_secs_f64() * 1e3;
    let moves = parse_move_list(MIDGAME, 15, 15, Rows::FromTop).expect("bench position parses");
    let mut b = Board::from_moves(15, 15, Rule::Renju, &moves).expect("bench position is legal");
    let empties: Vec<_> = b.squares().filter(|&p| b.is_empty(p)).collect();
    let budget = std::time::Duration::from_millis(millis);

    let start = Instant::now();
    let mut pairs = 0u64;
    while start.elapsed() < budget {
        for &p in &empties {
            b.make(p);
            black_box(b.hash());
            b.unmake();
        }
        pairs += empties.len() as u64;
    }
    let make_rate = pairs as f64 / start.elapsed().as_secs_f64();

    b.set_side_to_move(super::Color::Black);
    let start = Instant::now();
    let mut checks = 0u64;
    let mut forbidden = 0usize;
    while start.elapsed() < budget {
        for &p in &empties {
            forbidden += b.is_forbidden(p) as usize;
        }
        checks += empties.len() as u64;
    }
    let forbid_rate = checks as f64 / start.elapsed().as_secs_f64();
    vec![
        format!("board: renju pattern tables built in {build_ms:.0} ms (once per process)"),
        format!(
            "board: {} stones, {} empty squares",
            moves.len(),
            empties.len()
        ),
        format!(
            "board: make+undo pairs per second: {:.1} M",
            make_rate / 1e6
        ),
        format!(
            "board: forbidden-point checks per second: {:.2} M ({} forbidden squares per pass)",
            forbid_rate / 1e6,
            forbidden as u64 * empties.len() as u64 / checks.max(1)
        ),
    ]
}
