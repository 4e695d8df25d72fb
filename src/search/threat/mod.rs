//! Threat-space search: VCF (continuous fours) and VCT (continuous threats) solvers that prove
//! forced wins under each rule, used at the root, as the alpha-beta quiescence, and by `solve`.
//! The solver owns its caches (a fixed hash table and move stacks) so a search allocates nothing.

mod dfpn;
mod pns;
mod solve;
mod tt;
mod vcf;
mod vct;
pub mod verify;

#[cfg(test)]
mod tests;

pub use solve::solve_main;

use crate::board::{Board, Color, Pattern, Pos, Rule, NCELLS};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use tt::Table;

/// Bounds on one threat search.
#[derive(Clone, Copy, Debug)]
pub struct ThreatLimits {
    /// Give up (answer `Unknown`) after this many nodes.
    pub max_nodes: u64,
    /// Give up at this instant.
    pub deadline: Option<Instant>,
}

impl ThreatLimits {
    /// A node budget with no deadline.
    pub fn nodes(max_nodes: u64) -> ThreatLimits {
        ThreatLimits {
            max_nodes,
            deadline: None,
        }
    }
}

impl Default for ThreatLimits {
    fn default() -> Self {
        ThreatLimits::nodes(u64::MAX)
    }
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

/// Outcome of one node inside the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Res {
    Win,
    NoWin,
    Abort,
}

/// "No depth limit" for the VCF depth counter (the board runs out first).
const UNLIMITED: u32 = 255;
/// Largest VCT threat depth the iterative deepening tries.
const VCT_MAX_THREATS: u32 = 40;
/// Largest VCT threat depth whose iteration also tries quiet double-two set-ups (in the searches
/// that try them at all; see `vct`).
const VCT_QUIET_MAX: u32 = 3;
/// Node budget of each VCF inside a VCT: deep VCFs are rare and a long failing one costs more
/// than the threats it would save (measured on the renju puzzle set).
const VCT_VCF_BUDGET: u64 = 50;
/// Zone phase of `vct`: an attack below the root must share a line, within four squares, with
/// one of the attacker's last `ZONE_MOVES` moves (threats that build on each other).
const ZONE_MOVES: usize = 3;
/// Share of the time and node limits the zone phase of `vct` gets, in sixteenths.
const ZONE_SHARE: u32 = 8;
/// With a df-pn stage, the zone phase's share instead (the rest goes to df-pn first).
const DFPN_ZONE_SHARE: u32 = 4;
/// Share of what the zone phase left that the df-pn stage of `vct` gets, in sixteenths.
const DFPN_SHARE: u32 = 8;
/// Node limit from which `vct` runs its df-pn stage (the engine's small budgets keep the plain
/// iterative deepening, whose NoWin answers they use).
const DFPN_MIN_NODES: u64 = 1_000_000;
/// Node limit from which `vct` schedules its stages for puzzles (deeper than any budget the
/// engine gives, so its in-game searches keep their tree): short probes of the full deepening
/// and of df-pn first, each `PROBE_SHARE` sixteenths of what is left, and a zone phase of
/// `DEEP_ZONE_SHARE` (2/16: at 4/16 it held back the df-pn stage that proves most slow rows;
/// on the 82 renju VCT rows over 300 ms, at 10M nodes each, 2/16 solves 59 against 57, 20 of
/// them 1.1M nodes sooner, 2 later).
const DEEP_MIN_NODES: u64 = 4_000_000;
const PROBE_SHARE: u32 = 1;
const DEEP_ZONE_SHARE: u32 = 2;
/// On puzzle-sized budgets df-pn's share of what the zone phase left (the deepening after it
/// resumes from its probe's table and needs less).
const DEEP_DFPN_SHARE: u32 = 9;
/// Share of a bounded `vct_depth` the exact deepening gets, in sixteenths.
const DEPTH_ITERATE_SHARE: u32 = 2;
/// Share of what the exact deepening left that the capped threat deepening of `vct_depth` gets.
const CAPPED_SHARE: u32 = 2;
/// VCT depth a lone closed three costs (see `attack_cost`).
const FUKUMI_COST: u32 = 3;
/// The clock and the stop flag are read every `CLOCK_MASK + 1` nodes. Some nodes cost far more
/// than others (defence generation replays lines; renju foul checks): at 1024 one VCT overran its
/// deadline by a second, while reading the clock every 64 nodes costs nothing measurable.
const CLOCK_MASK: u64 = 63;
/// Capacity of the candidate stack (squares over all plies of one search).
const CAND_CAP: usize = 1 << 16;
/// Plies below the search root that keep killer moves.
const KILLER_PLIES: usize = 256;
/// Default hash table: 2^20 entries of 12 bytes.
pub(super) const DEFAULT_TT_BITS: u32 = 20;
/// The leaf VCFs' table has an eighth of the main table's entries: 2^17 (1.5 MiB) beside the
/// engine's 2^20 on one thread, mostly within a core's L2 cache. (2^13 to 2^16 entries made
/// the bench's leaves lose results to collisions and search 7 % more alpha-beta nodes.)
pub(super) const LEAF_TT_SHIFT: u32 = 3;

/// A threat solver with its own caches; one per search thread, reused across searches.
pub struct Solver {
    tt: Table,
    /// The search's leaf VCFs' own small table (see `on_leaf_table`).
    leaf_tt: Table,
    /// Candidate squares of every VCF ply, stacked.
    cands: Vec<Pos>,
    /// Scored moves of every ply, stacked.
    moves: Vec<(i32, Pos)>,
    /// Generation stamps for de-duplicating squares.
    stamp: Vec<u32>,
    stamp_gen: u32,
    /// Moves on the path from the search root (attacker and defender alternately).
    path: Vec<Pos>,
    /// The winning line once found.
    line: Vec<Pos>,
    nodes: u64,
    /// Nodes of every search this solver ran (the engine's node count includes them).
    visits: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    aborted: bool,
    attacker: Color,
    /// VCT: depth counts every attacker move (including the five) instead of threats only.
    strict: bool,
    /// VCT: quiet double-two set-ups are tried (with every square as a defence).
    quiet: bool,
    /// VCT in strict mode: quiet VCF set-ups are tried too.
    strict_quiet: bool,
    /// VCT outside strict mode: at most this many attacker moves from the root, the five
    /// included, on every line (0: no cap). The threat depth iterates as usual below it.
    cap: u32,
    /// VCT: set when some node was cut by the depth limit (so NoWin is not final).
    depth_cut: bool,
    /// VCT: set when an iteration left out a threat that no deeper one tries (a double two, or
    /// a move whose VCF threat the probe's budget could not settle): a NoWin over the
    /// deepening's moves, which df-pn's quiet set-ups near the root may still beat.
    omitted: bool,
    /// VCF: set when a subtree was cut by the depth limit (its NoWin holds for that depth only).
    vcf_cut: bool,
    /// VCF: where the VCF's own moves start in `path`.
    vcf_base: usize,
    /// Node budget of one VCF inside a VCT (0: none); a VCF over it counts as cut.
    vcf_budget: u64,
    /// `vcf_budget` during a VCT.
    vct_vcf_budget: u64,
    /// The node count at which the running VCF stops.
    vcf_stop: u64,
    /// VCT: the proof-number tree.
    pn: Vec<pns::PnNode>,
    /// VCT: the depth left at the node whose attacks are being generated.
    depth_left: u32,
    /// VCT: attacks below the root are restricted to the zone of the last attacker moves.
    zone: bool,
    /// How many of the attacker's last moves span the zone (`ZONE_MOVES`).
    zone_moves: usize,
    /// The board's move count at the search root.
    root_len: usize,
    /// VCT by df-pn: its table (allocated at first use) and the children's numbers, stacked.
    dfpn: dfpn::DfpnTable,
    dfpn_stack: Vec<(u32, u32)>,
    /// Size (log2 of entries) of the df-pn table.
    dfpn_bits: u32,
    /// Killer moves per ply below the root: the last two attacks that won there, most recent
    /// first (`Pos::NONE` when empty).
    killers: Vec<[Pos; 2]>,
    /// Per colour and square: whether an attack there won at some node of this search.
    won: Vec<bool>,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver {
    /// A solver with the default table (2^20 entries, 12 MiB).
    pub fn new() -> Solver {
        Solver::with_table_bits(DEFAULT_TT_BITS)
    }

    /// A solver with a hash table of 2^bits entries (12 bytes each; bits is clamped to 10..=28)
    /// and a leaf table an eighth of that size.
    pub fn with_table_bits(bits: u32) -> Solver {
        let bits = tt::clamp_bits(bits);
        Solver::with_tables(bits, bits - LEAF_TT_SHIFT)
    }

    /// Bytes of the two tables of `Solver::with_tables(bits, leaf_bits)`.
    pub fn tables_bytes(bits: u32, leaf_bits: u32) -> u64 {
        tt::table_bytes(bits) + tt::table_bytes(leaf_bits)
    }

    /// A solver with a main table of 2^bits entries and a leaf table of 2^leaf_bits (both
    /// clamped to 10..=28): a search thread's solver runs only leaf VCFs, and needs no main
    /// table to speak of.
    pub fn with_tables(bits: u32, leaf_bits: u32) -> Solver {
        Solver {
            tt: Table::new(bits),
            leaf_tt: Table::new(leaf_bits),
            cands: Vec::with_capacity(CAND_CAP),
            moves: Vec::with_capacity(CAND_CAP),
            stamp: vec![0; NCELLS],
            stamp_gen: 0,
            path: Vec::with_capacity(2048),
            line: Vec::with_capacity(2048),
            nodes: 0,
            visits: 0,
            max_nodes: u64::MAX,
            deadline: None,
            aborted: false,
            attacker: Color::Black,
            strict: false,
            quiet: false,
            strict_quiet: false,
            cap: 0,
            depth_cut: false,
            omitted: false,
            vcf_cut: false,
            vcf_base: 0,
            vcf_budget: 0,
            vct_vcf_budget: VCT_VCF_BUDGET,
            vcf_stop: u64::MAX,
            pn: Vec::new(),
            depth_left: 0,
            zone: false,
            zone_moves: ZONE_MOVES,
            root_len: 0,
            dfpn: dfpn::DfpnTable::new(),
            dfpn_stack: Vec::with_capacity(4096),
            dfpn_bits: dfpn::DFPN_TT_BITS,
            killers: vec![[Pos::NONE; 2]; KILLER_PLIES],
            won: vec![false; 2 * NCELLS],
        }
    }

    /// Size of the df-pn table (2^bits entries of 24 bytes, bits clamped to 10..=26), allocated
    /// at the next df-pn search. Only budgets of 1M nodes or more run df-pn (never the engine's
    /// in-game calls); long puzzle searches overflow the default 2^20.
    pub fn set_dfpn_table_bits(&mut self, bits: u32) {
        self.dfpn_bits = bits.clamp(10, 26);
    }

    /// Forgets cached results (new game). Not needed between searches: every entry is keyed by
    /// what it depends on (attacker, search kind) and cut-off results last one search only.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.leaf_tt.clear();
    }

    /// Starts a VCT search: a new table generation, no killers, no attack known to win.
    fn new_search(&mut self) {
        self.tt.new_generation();
        self.leaf_tt.new_generation();
        self.killers.iter_mut().for_each(|k| *k = [Pos::NONE; 2]);
        self.won.iter_mut().for_each(|w| *w = false);
    }

    /// Nodes visited by the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Nodes visited by every search since the solver was made (never reset).
    pub fn visits(&self) -> u64 {
        self.visits
    }

    /// Looks for a VCF for the side to move. The board is restored before returning.
    pub fn vcf(&mut self, board: &mut Board, limits: &ThreatLimits) -> Proof {
        self.vcf_depth(board, limits, UNLIMITED)
    }

    /// `vcf` without the board scan, for a caller (the search's leaves) that keeps the squares
    /// where the side to move makes a four: `fours` must hold all of them in row-major order,
    /// and neither side may have a five to make. Same answer, same nodes as `vcf`.
    pub fn vcf_with_fours(
        &mut self,
        board: &mut Board,
        fours: impl IntoIterator<Item = Pos>,
        limits: &ThreatLimits,
    ) -> Proof {
        let mut s = Search::begin(self, board, limits, None);
        let r = s.vcf_root_known(board, fours);
        s.finish(r)
    }

    /// Runs `f` (the alpha-beta's leaf VCF) on the solver's small leaf table: those short,
    /// budgeted searches probe a table at every node, and in the main table (far larger than
    /// the caches, and kept full by the root's VCT checks) most of their probes missed.
    pub fn on_leaf_table<R>(&mut self, f: impl FnOnce(&mut Solver) -> R) -> R {
        std::mem::swap(&mut self.tt, &mut self.leaf_tt);
        let r = f(self);
        std::mem::swap(&mut self.tt, &mut self.leaf_tt);
        r
    }

    /// Looks for a VCF of at most `max_moves` attacker moves (the final five included).
    pub fn vcf_depth(&mut self, board: &mut Board, limits: &ThreatLimits, max_moves: u32) -> Proof {
        let mut s = Search::begin(self, board, limits, None);
        let r = s.vcf_root(board, max_moves.min(UNLIMITED));
        s.finish(r)
    }

    /// Looks for a VCT for the side to move (threes and fours; fours are free, the depth counts
    /// the three-moves). Returns `Unknown` promptly once `stop` is set.
    pub fn vct(&mut self, board: &mut Board, limits: &ThreatLimits, stop: &AtomicBool) -> Proof {
        // Stages, each with a share (in sixteenths) of what the earlier ones left: the zone phase
        // of the iterative deepening (attacks build on the attacker's last moves; its wins are
        // sound, its NoWin is not), then on large budgets df-pn (it proves wins, never NoWin),
        // then the full iterative deepening with the rest.
        self.new_search();
        let bounded = limits.deadline.is_some() || limits.max_nodes != u64::MAX;
        let dfpn = bounded && limits.max_nodes >= DFPN_MIN_NODES;
        let deep = bounded && limits.max_nodes >= DEEP_MIN_NODES;
        // Quiet iterations (double twos, answered by every square, and the probe for a win by
        // one more three) only on unbounded searches: on the engine's budgets they cost more
        // nodes than the wins they add (ninety-third round), and on puzzle budgets they solved
        // no more renju VCT rows at 4M nodes or within 10 s, in twice the median time
        // (ninety-fourth round).
        let quiet = !bounded;
        let mut used = 0;
        if deep {
            // Puzzle-sized budgets first probe the full deepening and df-pn briefly: many rows
            // fall to one of them in milliseconds where the zone phase would spend its whole
            // share. Both resume later where they stopped (the deepening from its table
            // entries, which belong to this search; df-pn from its own table).
            let mut s = Search::begin(self, board, &share(limits, used, PROBE_SHARE), Some(stop));
            let r = s.vct_iterate(board, quiet);
            used = s.sv.nodes;
            // A NoWin that left out threats (`omitted`) goes on to df-pn, whose quiet set-ups
            // may win.
            if r == Res::Win || r == Res::NoWin && !s.sv.omitted || s.stopped() {
                return s.finish(r);
            }
            let mut s = Search::begin(self, board, &share(limits, used, PROBE_SHARE), Some(stop));
            let r = s.dfpn_root(board, false);
            s.sv.nodes += used;
            used = s.sv.nodes;
            if r == Res::Win || s.stopped() {
                return s.finish(r);
            }
        }
        if bounded {
            let zone_share = match (deep, dfpn) {
                (true, _) => DEEP_ZONE_SHARE,
                (false, true) => DFPN_ZONE_SHARE,
                (false, false) => ZONE_SHARE,
            };
            let mut s = Search::begin(self, board, &share(limits, used, zone_share), Some(stop));
            s.sv.zone = true;
            let r = s.vct_iterate(board, quiet);
            s.sv.zone = false;
            s.sv.nodes += used;
            used = s.sv.nodes;
            if r == Res::Win || s.stopped() {
                let r = if r == Res::Win { r } else { Res::Abort };
                return s.finish(r);
            }
        }
        if dfpn {
            let dfpn_share = if deep { DEEP_DFPN_SHARE } else { DFPN_SHARE };
            let mut s = Search::begin(self, board, &share(limits, used, dfpn_share), Some(stop));
            let r = s.dfpn_root(board, deep);
            s.sv.nodes += used;
            used = s.sv.nodes;
            if r == Res::Win || s.stopped() {
                return s.finish(r);
            }
        }
        let mut s = Search::begin(self, board, limits, Some(stop));
        s.sv.max_nodes = limits.max_nodes.saturating_sub(used);
        let result = s.vct_iterate(board, quiet);
        s.sv.nodes += used;
        s.finish(result)
    }
}

impl Search<'_, '_> {
    /// Whether the caller's stop flag is set.
    fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// The iterative deepening of `vct`; `quiet`: its short iterations try quiet double twos.
    fn vct_iterate(&mut self, board: &mut Board, quiet: bool) -> Res {
        let s = self;
        s.sv.strict = false;
        let mut result = Res::NoWin;
        // Over all iterations: a later one may read an omitting subtree's NoWin from the table.
        s.sv.omitted = false;
        for depth in 0..=VCT_MAX_THREATS {
            s.sv.depth_cut = false;
            // Quiet set-ups widen every node; they pay only in short wins.
            s.sv.quiet = quiet && depth <= VCT_QUIET_MAX;
            result = s.vct_root(board, depth);
            log::debug!("vct depth {depth}: {result:?} after {} nodes", s.sv.nodes);
            if result != Res::NoWin || !s.sv.depth_cut {
                break;
            }
        }
        if result == Res::NoWin && s.sv.depth_cut {
            result = Res::Abort;
        }
        result
    }
}

impl Solver {
    /// Looks for a VCT by proof-number search (same threats and defences as `vct`, no depth
    /// bound); the tree holds at most `max_tree` nodes (about 20 bytes each).
    pub fn vct_pns(
        &mut self,
        board: &mut Board,
        limits: &ThreatLimits,
        stop: &AtomicBool,
        max_tree: usize,
    ) -> Proof {
        self.new_search();
        let mut s = Search::begin(self, board, limits, Some(stop));
        let r = s.pns_root(board, max_tree);
        s.sv.pn.clear();
        s.finish(r)
    }

    /// Looks for a VCT by df-pn (same threats and defences as `vct`, no depth iteration).
    /// Answers Win or Unknown: it never proves NoWin.
    pub fn vct_dfpn(
        &mut self,
        board: &mut Board,
        limits: &ThreatLimits,
        stop: &AtomicBool,
    ) -> Proof {
        self.new_search();
        let mut s = Search::begin(self, board, limits, Some(stop));
        let r = s.dfpn_root(board, false);
        s.finish(r)
    }

    /// Looks for a VCT of at most `max_moves` attacker moves, the five included (as puzzle books
    /// count "win in N"). Iterates the depth from 1 so the line found is a shortest one. The
    /// attacker plays fours, threes and (with four or more moves left) up to 40 quiet VCF set-ups
    /// per node; NoWin means no such win within `max_moves`. With limits the deepening gets
    /// 2/16 of them, then the threat-counting deepening under a move cap 2/16 of the rest, then
    /// df-pn bounded by the moves left the rest; every line of their proofs fits `max_moves`.
    pub fn vct_depth(
        &mut self,
        board: &mut Board,
        limits: &ThreatLimits,
        stop: &AtomicBool,
        max_moves: u32,
    ) -> Proof {
        self.new_search();
        let max_moves = max_moves.min(UNLIMITED - 1);
        let bounded = limits.deadline.is_some() || limits.max_nodes != u64::MAX;
        // With limits, in stages: the exact deepening (shortest lines, and the only stage that
        // proves NoWin) gets a share; deep wins (quintet's bench cases, 13 to 256 moves) lie far
        // past the depths it reaches, so then the capped threat deepening and depth-bounded
        // df-pn.
        let mut s = Search::begin(
            self,
            board,
            &share(limits, 0, DEPTH_ITERATE_SHARE),
            Some(stop),
        );
        s.strict_depth_mode();
        let mut result = Res::NoWin;
        for depth in 1..=max_moves {
            s.sv.depth_cut = false;
            result = s.vct_root(board, depth);
            log::debug!("vct depth {depth}: {result:?} after {} nodes", s.sv.nodes);
            if result != Res::NoWin || !s.sv.depth_cut {
                break;
            }
        }
        if result != Res::Abort || !bounded || s.stopped() {
            return s.finish(result);
        }
        let used = s.sv.nodes;
        // Each later stage is a search of its own: the budgeted results, killers and won
        // attacks of the one before would change its course (measured: df-pn needed twice the
        // nodes on a deep case, the capped deepening eight times).
        let p = self.capped_stage(
            board,
            &share(limits, used, CAPPED_SHARE),
            stop,
            max_moves,
            used,
        );
        if matches!(p, Proof::Win(_)) || stop.load(Ordering::Relaxed) {
            return p;
        }
        let used = self.nodes;
        let rest = ThreatLimits {
            max_nodes: limits.max_nodes.saturating_sub(used),
            deadline: limits.deadline,
        };
        self.depth_dfpn_stage(board, &rest, stop, max_moves, used)
    }

    /// The capped threat deepening of `vct_depth`: a win within `cap` attacker moves, or Unknown.
    /// `used`: the earlier stages' nodes, counted in its total.
    fn capped_stage(
        &mut self,
        board: &mut Board,
        limits: &ThreatLimits,
        stop: &AtomicBool,
        cap: u32,
        used: u64,
    ) -> Proof {
        self.new_search();
        let mut s = Search::begin(self, board, limits, Some(stop));
        let r = s.vct_capped(board, cap);
        s.sv.nodes += used;
        s.finish(r)
    }

    /// The df-pn of `vct_depth`, bounded by `max_moves` attacker moves.
    fn depth_dfpn_stage(
        &mut self,
        board: &mut Board,
        limits: &ThreatLimits,
        stop: &AtomicBool,
        max_moves: u32,
        used: u64,
    ) -> Proof {
        self.new_search();
        let mut s = Search::begin(self, board, limits, Some(stop));
        s.strict_depth_mode();
        let r = s.dfpn_root_depth(board, max_moves);
        s.sv.nodes += used;
        s.finish(r)
    }
}

/// `sixteenths` sixteenths of what `limits` leave after `used` nodes, from now.
fn share(limits: &ThreatLimits, used: u64, sixteenths: u32) -> ThreatLimits {
    let now = Instant::now();
    ThreatLimits {
        max_nodes: match limits.max_nodes {
            u64::MAX => u64::MAX,
            n => n.saturating_sub(used) / 16 * u64::from(sixteenths),
        },
        deadline: limits
            .deadline
            .map(|d| now + d.saturating_duration_since(now) / 16 * sixteenths),
    }
}

impl Search<'_, '_> {
    /// The threat-counting deepening of `vct` (fours free, threes cost depth) under a cap of
    /// `cap` attacker moves on every line, the five included: it finds the wins with few threes
    /// and long four sequences that the exact deepening reaches late and df-pn misses. Win or
    /// Abort (its NoWin would hold for its move set only, which lacks quiet set-ups).
    fn vct_capped(&mut self, board: &mut Board, cap: u32) -> Res {
        // The cap counts plies from the root, which quiet double-two threats (the attacker
        // moving twice) would upset: none here. `Search::begin` left `quiet` off.
        self.sv.cap = cap;
        let mut r = Res::Abort;
        for depth in 0..=VCT_MAX_THREATS {
            self.sv.depth_cut = false;
            r = self.vct_root(board, depth);
            log::debug!(
                "capped vct depth {depth}: {r:?} after {} nodes",
                self.sv.nodes
            );
            if r != Res::NoWin || !self.sv.depth_cut {
                break;
            }
        }
        self.sv.cap = 0;
        if r == Res::Win {
            r
        } else {
            Res::Abort
        }
    }

    /// The move set of `vct_depth`: depth counts every attacker move, exact inner VCFs, quiet
    /// VCF set-ups but no quiet double twos.
    fn strict_depth_mode(&mut self) {
        self.sv.strict = true;
        // "Within N moves" asks for exactness: no budget on the inner VCFs.
        self.sv.vcf_budget = 0;
        // Quiet double-two set-ups cost too much at every depth of an exact search (measured on
        // quintet's bench cases): left out here.
        self.sv.quiet = false;
        // Quiet VCF set-ups (quintet's "fukumi" moves: a two that threatens a VCF) do pay: the
        // defender's answers are those of the VCF, not every square.
        self.sv.strict_quiet = true;
    }
}

/// One search in progress: the solver's buffers plus the caller's stop flag.
struct Search<'s, 'a> {
    sv: &'s mut Solver,
    stop: Option<&'a AtomicBool>,
}

impl<'s, 'a> Search<'s, 'a> {
    fn begin(
        sv: &'s mut Solver,
        board: &Board,
        limits: &ThreatLimits,
        stop: Option<&'a AtomicBool>,
    ) -> Search<'s, 'a> {
        sv.nodes = 0;
        sv.max_nodes = limits.max_nodes;
        sv.deadline = limits.deadline;
        sv.aborted = false;
        sv.attacker = board.side_to_move();
        sv.cands.clear();
        sv.moves.clear();
        sv.path.clear();
        sv.line.clear();
        sv.depth_cut = false;
        sv.strict = false;
        sv.quiet = false;
        sv.strict_quiet = false;
        sv.cap = 0;
        sv.zone = false;
        sv.root_len = board.move_count();
        sv.vcf_budget = if stop.is_some() { sv.vct_vcf_budget } else { 0 };
        Search { sv, stop }
    }

    fn finish(&mut self, r: Res) -> Proof {
        self.sv.strict = false;
        self.sv.strict_quiet = false;
        self.sv.quiet = false;
        match r {
            Res::Win => Proof::Win(self.sv.line.clone()),
            Res::NoWin => Proof::NoWin,
            Res::Abort => Proof::Unknown,
        }
    }

    /// Stores the main line of a proven win, which `extract` derives again from the cached
    /// proof under its own node allowance (as many nodes again as the proof took, at least
    /// 2^20); `Abort` if it runs out.
    fn rederive_line(&mut self, extract: impl FnOnce(&mut Self, &mut Vec<Pos>) -> bool) -> Res {
        let saved_max = self.sv.max_nodes;
        self.sv.max_nodes = self.sv.nodes.saturating_add(self.sv.nodes.max(1 << 20));
        let mut out = Vec::with_capacity(64);
        let ok = extract(self, &mut out);
        self.sv.max_nodes = saved_max;
        if ok {
            self.sv.line.clear();
            self.sv.line.extend_from_slice(&out);
            Res::Win
        } else {
            Res::Abort
        }
    }

    /// Counts a node; true when a limit says stop.
    #[inline]
    fn tick(&mut self) -> bool {
        let sv = &mut *self.sv;
        if sv.aborted {
            return true;
        }
        sv.nodes += 1;
        sv.visits += 1;
        if sv.nodes >= sv.max_nodes {
            sv.aborted = true;
        } else if sv.nodes & CLOCK_MASK == 0 {
            if let Some(d) = sv.deadline {
                if Instant::now() >= d {
                    sv.aborted = true;
                }
            }
            if let Some(s) = self.stop {
                if s.load(Ordering::Relaxed) {
                    sv.aborted = true;
                }
            }
        }
        sv.aborted
    }

    #[inline]
    fn next_stamp(&mut self) -> u32 {
        let sv = &mut *self.sv;
        sv.stamp_gen = sv.stamp_gen.wrapping_add(1);
        if sv.stamp_gen == 0 {
            sv.stamp.iter_mut().for_each(|s| *s = 0);
            sv.stamp_gen = 1;
        }
        sv.stamp_gen
    }
}

/// Whether colour `c` may play the empty square `p` under the board's rule.
#[inline]
fn legal(b: &mut Board, p: Pos, c: Color) -> bool {
    !(c == Color::Black && b.rule() == Rule::Renju && b.is_forbidden(p))
}

/// Number of fours a stone of `c` on `p` would make (a `DoubleFour` line counts two).
#[inline]
fn four_count(pats: &[Pattern; 4]) -> u32 {
    pats.iter().map(|p| p.four_count()).sum()
}

/// Ordering score of an attacking move from its line shapes.
#[inline]
fn shape_score(pats: &[Pattern; 4]) -> i32 {
    pats.iter()
        .map(|p| match p {
            Pattern::F4 | Pattern::DoubleFour => 60,
            Pattern::B4 => 12,
            Pattern::F3 => 16,
            Pattern::B3 => 4,
            Pattern::F2 => 2,
            Pattern::B2 => 1,
            _ => 0,
        })
        .sum()
}

/// Whether some line through `p` holds at least `N` stones of colour `c` within five squares:
/// a cheap bound read from the line keys (no table lookup) that lets board scans skip hopeless
/// squares (a five needs 4 such stones, a four 3, a three 2). Clearing the lowest bit `N - 1`
/// times instead of counting: the target has no popcount instruction, and the software count
/// was the largest single cost of the scans.
#[inline]
fn near<const N: u32>(b: &Board, p: Pos, c: Color) -> bool {
    // Written lane by lane over the four directions, with the colour as a shift, so that the
    // compiler can keep the four keys in one vector register.
    let shift = c.index() as u32;
    let k = [b.key(p, 0), b.key(p, 1), b.key(p, 2), b.key(p, 3)];
    let mut own = [0u32; 4];
    for d in 0..4 {
        // Cell codes: 1 black, 2 white, 3 wall; a cell is own when its bit for `c` is set and
        // the other bit is not.
        own[d] = (k[d] ^ k[d] >> 1) & (k[d] >> shift) & 0x55555;
    }
    for _ in 1..N {
        for o in own.iter_mut() {
            *o &= o.wrapping_sub(1);
        }
    }
    (own[0] | own[1] | own[2] | own[3]) != 0
}

/// Counts of a square's line shapes for one colour, four bits each (`features`): fives, fours
/// (a `DoubleFour` line counts two), open fours, open threes, closed threes, open twos.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Features(u32);

impl Features {
    #[inline]
    fn fives(self) -> u32 {
        self.0 & 15
    }
    #[inline]
    fn fours(self) -> u32 {
        self.0 >> 4 & 15
    }
    #[inline]
    fn open_fours(self) -> u32 {
        self.0 >> 8 & 15
    }
    #[inline]
    fn open_twos(self) -> u32 {
        self.0 >> 20 & 15
    }
    /// Whether the square can be an attack of `or_inner` (a five, a four, a three, or two open
    /// twos): elsewhere the scan's attack tests all answer no.
    #[inline]
    fn threatens(self) -> bool {
        self.0 & 0xF_FFFF != 0 || self.open_twos() >= 2
    }
}

/// `FEATURES[v]`: the `Features` of one line whose pattern nibble is `v`.
static FEATURES: [u32; 16] = {
    let mut t = [0u32; 16];
    let mut v = 0;
    while v < 16 {
        t[v] = match v {
            11 => 1,              // Five
            10 => 2 << 4,         // DoubleFour
            9 => 1 << 4 | 1 << 8, // F4
            8 => 1 << 4,          // B4
            7 => 1 << 12,         // F3
            6 => 1 << 16,         // B3
            5 => 1 << 20,         // F2
            _ => 0,
        };
        v += 1;
    }
    t
};

/// The shape counts of a stone of colour `c` on `p`, from the four pattern bytes without
/// building the patterns: what the scans ask of most squares.
#[inline]
fn features(b: &Board, p: Pos, c: Color) -> Features {
    let s = 4 * c.index() as u32;
    let mut f = 0;
    for d in 0..4 {
        f += FEATURES[(b.pattern_pair(p, d) >> s & 15) as usize];
    }
    Features(f)
}

/// Whether `p` and `q` are the same square or share a line within five squares, that is,
/// whether a stone on one changes a line key of the other.
#[inline]
fn lined_up(p: Pos, q: Pos) -> bool {
    p == q || crate::board::line_of(q, p).is_some()
}

/// The empty squares where `c` makes a five, scanning the whole board; stops after `max`.
fn five_squares(b: &Board, c: Color, out: &mut [Pos; 2]) -> usize {
    let mut n = 0;
    for y in 0..b.height() {
        for x in 0..b.width() {
            let p = Pos::new(x, y);
            if b.is_empty(p) && near::<4>(b, p, c) && b.makes_five(p, c) {
                out[n] = p;
                n += 1;
                if n == out.len() {
                    return n;
                }
            }
        }
    }
    n
}

/// A legal move for `c` (preferring `prefer` squares), for lines where any reply loses.
fn any_legal(b: &mut Board, c: Color, prefer: &[Pos]) -> Option<Pos> {
    for &p in prefer {
        if b.contains(p) && b.is_empty(p) && legal(b, p, c) {
            return Some(p);
        }
    }
    for y in 0..b.height() {
        for x in 0..b.width() {
            let p = Pos::new(x, y);
            if b.is_empty(p) && legal(b, p, c) {
                return Some(p);
            }
        }
    }
    None
}
