//! Threat-space search: VCF (continuous fours) and VCT (continuous threats) solvers that prove
//! forced wins under each rule, used at the root, as the alpha-beta quiescence, and by `solve`.

use crate::board::{Board, Pos};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Bounds on one threat search.
#[derive(Clone, Copy, Debug)]
pub struct ThreatLimits {
    /// Give up (answer `Unknown`) after this many nodes.
    pub max_nodes: u64,
    /// Give up at this instant.
    pub deadline: Option<Instant>,
}

/// The answer of a threat search for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// A forced win: the attacker's moves and the defender's replies alternately, ending with
    /// the attacker's five. (For VCT the line is the main line of the proof.)
    Win(Vec<Pos>),
    /// Proven: no win of this kind exists.
    NoWin,
    /// A limit was reached first.
    Unknown,
}

/// A threat solver with its own caches; one per search thread, reused across searches.
#[derive(Default)]
pub struct Solver {}

impl Solver {
    pub fn new() -> Solver {
        Solver {}
    }

    /// Forgets cached results (new game).
    pub fn clear(&mut self) {}

    /// Looks for a VCF for the side to move. The board is restored before returning.
    pub fn vcf(&mut self, _board: &mut Board, _limits: &ThreatLimits) -> Proof {
        Proof::Unknown
    }

    /// Looks for a VCT for the side to move. Returns `Unknown` promptly once `stop` is set.
    pub fn vct(&mut self, _board: &mut Board, _limits: &ThreatLimits, _stop: &AtomicBool) -> Proof {
        Proof::Unknown
    }
}

/// Entry point of `pbrain-gorin solve`.
pub fn solve_main(_args: &[String]) -> anyhow::Result<()> {
    anyhow::bail!("the solver is not written yet")
}
