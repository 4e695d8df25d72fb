//! The threat checks around the root search: the refutation of an opponent's threat before it
//! (the root list shrinks to the moves that hold), the guard that checks each iteration's best
//! move, and the final check of the move chosen.

use super::movepick::ScoredMove;
use super::threat::{Proof, Solver, ThreatLimits};
use crate::board::Pos;
use crate::eval::for_each_bit;
use crate::eval::Position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Node budgets of the threat searches at the root (ours, the opponent's, refutation checks).
pub(super) const ROOT_VCF_NODES: u64 = 20_000;
pub(super) const ROOT_VCT_NODES: u64 = 200_000;
/// Node cap of the VCF search that asks whether a root move threatens one.
const THREAT_MOVE_VCF_NODES: u64 = 2_000;
const REFUTE_NODES: u64 = 1_000;
/// The second pass over the unproven survivors multiplies the first pass's budget by this.
const REFUTE_WIDEN: u64 = 8;
/// A refutation check gets at least this many times the nodes the threat took to find: a
/// move that does not answer the threat leaves it about as hard to find as before.
const REFUTE_FACTOR: u64 = 3;
/// The refutation checks' largest budget. (120,000 scored 124-126-12 against PentaZen at 1 s
/// over three runs, +1.5 %, standard error 3.4 %, slot by slot against three control runs of
/// its machine: not kept; nor in the stack described at `SAFETY_NODES`.)
const REFUTE_MAX_NODES: u64 = 60_000;
/// All refutation checks of one move together: bounds untimed searches (bench, fixed depth).
const REFUTE_TOTAL_NODES: u64 = 300_000;
/// The final check: first budget, and how many moves it may try in search order. (A first
/// budget of 200,000 scored 84-83-7 against PentaZen at 1 s over two runs, +2.4 %, standard
/// error 3.8 %, slot by slot against three control runs of its machine: not kept. Twelve tries
/// scored 120-131-11 over three runs, -0.1 %, 3.6 %, against the same three: not kept. The
/// first budget 200,000, the refutations' largest budget 120,000 and the history bound 1 << 15
/// stacked in one build: 189-217-27 over five runs, -2.4 %, 3.5 %, against four control runs of
/// its machine: not kept.)
pub(super) const SAFETY_NODES: u64 = 100_000;
pub(super) const SAFETY_TRIES: usize = 6;
pub(super) const UNTIMED_SAFETY_NODES: u64 = 50_000;
pub(super) const UNTIMED_SAFETY_TRIES: usize = 4;
/// The guard (see `Guard`): node budget of a first check of a root move, the largest budget
/// (each later check of the same move doubles the last one), the depth from which it checks the
/// best move after every iteration, and its share of the time (in sixteenths of the hard limit).
/// (A first budget of 10,000 scored 109-115-16 against PentaZen at 1 s over three runs, +2.3 %,
/// standard error 2.0 %, slot by slot against seventeen control runs; 40,000 scored 87-93-12
/// over two, +2.0 %, 2.4 %: neither kept. Checks from depth 4 scored 75-84-9 over two runs,
/// +0.5 %, 2.8 %, against nineteen control runs and -3.9 %, 3.9 %, against the two of its round;
/// from depth 6, 76-84-4, +0.8 %, 2.9 %, and -3.6 %, 3.7 %: neither kept. A share of 7
/// scored 42-48-6, -1.6 %, 4.2 %, against the three control runs of a later machine: not kept.
/// No guard at all (shares 0 and 0; the refutation and the final check as they are), in the
/// hundred-and-eighteenth round: 77-61-6 over three runs, +1.8 %, 4.0 %, against five control
/// runs beside them at 119-101-20: not kept. A second look in the hundred-and-nineteenth:
/// 119-114-7 over five runs, -2.7 %, 3.2 %, against five control runs beside them at
/// 121-103-16; over both rounds -1.0 %, 2.2 %: not kept.)
const GUARD_NODES: u64 = 20_000;
const GUARD_MAX_NODES: u64 = 1_280_000;
pub(super) const GUARD_DEPTH: i32 = 5;
pub(super) const GUARD_SHARE: u32 = 5;
/// The guard's share when the opponent had a VCT before our move (the defence then matters more
/// than the search's depth). (5, the quiet share, gave the search about a quarter of the guard's
/// time back in such positions and scored 90-92-10 against PentaZen at 1 s over two runs, -0.5 %,
/// standard error 3.1 %, slot by slot against seven runs of 8: not kept. A first check of a move at
/// 200,000 nodes there (the losing moves' refutations had taken 69,000-422,000 nodes, and the
/// solver's stages find one only on two to four times its size) chose a refuted move in 13 of 28
/// replays of 14 lost-game positions, two processes at a time, against 15 for this: too few to show
/// in play, not played.)
pub(super) const GUARD_SHARE_THREAT: u32 = 8;

/// What the threat checks at the root learned about one of our moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Check {
    /// The opponent's VCT after the move is proven; the length of its line.
    Loses(usize),
    /// No VCT found in this many nodes (`u64::MAX`: proven that there is none).
    Holds(u64),
}

/// The root guard: during the iterative deepening, the best move of each iteration is checked
/// for an opponent's VCT after it (a budget that doubles each time the same move is checked
/// again); a move proven to lose leaves the root list and the iteration is searched again. The
/// answers are kept for the final check and shared with the root refutation.
pub(super) struct Guard<'a> {
    checks: Vec<(Pos, Check)>,
    /// Budget of a first check, and the largest budget of the checks that double it.
    pub(super) base: u64,
    pub(super) cap: u64,
    /// Time the checks during the search may take in all (None: untimed, no checks there).
    pub(super) allowance: Option<Duration>,
    spent: Duration,
    stop: &'a AtomicBool,
}

impl<'a> Guard<'a> {
    pub(super) fn new(allowance: Option<Duration>, stop: &'a AtomicBool) -> Guard<'a> {
        Guard {
            checks: Vec::new(),
            base: GUARD_NODES,
            cap: GUARD_MAX_NODES,
            allowance,
            spent: Duration::ZERO,
            stop,
        }
    }

    pub(super) fn get(&self, m: Pos) -> Option<Check> {
        self.checks.iter().find(|c| c.0 == m).map(|c| c.1)
    }

    pub(super) fn record(&mut self, m: Pos, c: Check) {
        match self.checks.iter_mut().find(|c| c.0 == m) {
            Some(e) => e.1 = c,
            None => self.checks.push((m, c)),
        }
    }

    pub(super) fn known_loser(&self, m: Pos) -> bool {
        matches!(self.get(m), Some(Check::Loses(_)))
    }

    /// Whether the opponent is proven to win after our move `m`: from memory, or by a check
    /// of `budget` nodes ending by `deadline` unless an earlier one had that budget.
    pub(super) fn loses(
        &mut self,
        pos: &mut Position,
        solver: &mut Solver,
        m: Pos,
        budget: u64,
        deadline: Option<Instant>,
    ) -> bool {
        match self.get(m) {
            Some(Check::Loses(_)) => return true,
            Some(Check::Holds(n)) if n >= budget => return false,
            _ => {}
        }
        if self.stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d) {
            return false;
        }
        let vct = ThreatLimits {
            max_nodes: budget,
            deadline,
        };
        let vcf = ThreatLimits {
            max_nodes: budget.min(ROOT_VCF_NODES),
            deadline,
        };
        // Every check starts afresh, so one with twice the budget first redoes the last one's
        // work. (Continuing the move's last check under its solver generation chose fewer moves
        // with a proven loss at 1 s in replayed lost games, 8 of 17 positions against 11, but
        // scored 74-107-11 against PentaZen, -0.8 % (standard error 3.2 %) slot by slot against
        // control runs beside it: not kept.)
        let (answer, _) = threat_after(pos, solver, m, Some(&vcf), Some(&vct), self.stop);
        let c = match answer {
            Proof::Win(l) => Check::Loses(l.len()),
            Proof::NoWin => Check::Holds(u64::MAX),
            // The budget, not the nodes used: a search can end early unproven (depth cuts),
            // and the next check must still grow.
            Proof::Unknown => Check::Holds(budget),
        };
        self.record(m, c);
        matches!(c, Check::Loses(_))
    }

    /// The check between iterations: whether the best root move `m` is proven to lose, within
    /// the guard's share of the time and before `deadline`.
    pub(super) fn vetoes(
        &mut self,
        pos: &mut Position,
        solver: &mut Solver,
        m: Pos,
        deadline: Option<Instant>,
    ) -> bool {
        let Some(allowance) = self.allowance else {
            return false;
        };
        if self.known_loser(m) {
            return true;
        }
        let left = allowance.saturating_sub(self.spent);
        if left.is_zero() {
            return false;
        }
        let now = Instant::now();
        let end = deadline.map_or(now + left, |d| d.min(now + left));
        let budget = match self.get(m) {
            Some(Check::Holds(n)) => n.saturating_mul(2).clamp(self.base, self.cap),
            _ => self.base,
        };
        let lost = self.loses(pos, solver, m, budget, Some(end));
        self.spent += now.elapsed();
        log::debug!(
            "guard: {m} budget {budget} {:?} in {:?} (spent {:?})",
            self.get(m),
            now.elapsed(),
            self.spent
        );
        lost
    }
}

/// The final check: the best move after which the opponent has no proven VCT, `best` first,
/// then the next few in search order (what the guard learned counts). The move found is checked
/// again with a doubled budget up to `max_budget` while time allows, and replaced by the next
/// one if it loses. Budgets: (first, max_budget, moves tried). When every move tried loses,
/// `best`.
pub(super) fn safe_move(
    pos: &mut Position,
    solver: &mut Solver,
    guard: &mut Guard,
    (best, order): (Pos, &[Pos]),
    deadline: Instant,
    (first, max_budget, tries): (u64, u64, usize),
) -> Pos {
    let tries: Vec<Pos> = std::iter::once(best)
        .chain(order.iter().copied().filter(|&p| p != best))
        .take(tries)
        .collect();
    let mut i = 0;
    while i < tries.len() {
        let m = tries[i];
        let budget = match guard.get(m) {
            Some(Check::Loses(_)) => {
                i += 1;
                continue;
            }
            Some(Check::Holds(n)) if n >= max_budget => return m,
            Some(Check::Holds(n)) => n.saturating_mul(2).clamp(first, max_budget),
            None => first,
        };
        if guard.stop.load(Ordering::Relaxed) || Instant::now() >= deadline {
            return m;
        }
        let t = Instant::now();
        let lost = guard.loses(pos, solver, m, budget, Some(deadline));
        log::debug!(
            "safety: {m} budget {budget} {:?} in {:?}",
            guard.get(m),
            t.elapsed()
        );
        if lost {
            i += 1;
        }
    }
    best
}

/// The squares that can answer the opponent's threat line: the line's own squares, the empty
/// squares in the five-windows of each attacking stone along the directions where it makes a
/// three or more, and our own fours and open threes (they force a reply first).
pub(super) fn defence_set(pos: &mut Position, line: &[Pos]) -> Vec<Pos> {
    let me = pos.side_to_move();
    let attacker = me.opposite();
    let mut set: Vec<Pos> = Vec::new();
    let b = pos.board_mut();
    let mut made = 0;
    for (i, &p) in line.iter().enumerate() {
        if !b.contains(p) || !b.is_empty(p) {
            break;
        }
        set.push(p);
        if i % 2 == 0 {
            for dir in 0..4 {
                if b.pattern(p, dir, attacker) < crate::board::Pattern::B3 {
                    continue;
                }
                for k in -4..=4isize {
                    let q = p.step(dir, k);
                    if k != 0 && b.contains(q) {
                        set.push(q);
                    }
                }
            }
        }
        b.make(p);
        made += 1;
    }
    for _ in 0..made {
        b.unmake();
    }
    for bits in [*pos.fours(me), *pos.flex4s(me)] {
        for_each_bit(&bits, |p| set.push(p));
    }
    let mut threes = Vec::new();
    for_each_bit(pos.candidates(), |p| {
        if pos.shape(p, me) >= crate::eval::Shape::Three {
            threes.push(p);
        }
    });
    set.extend(threes);
    let b = pos.board();
    set.retain(|&p| b.is_empty(p));
    let mut seen = Vec::with_capacity(set.len());
    for p in set {
        if !seen.contains(&p) {
            seen.push(p);
        }
    }
    seen
}

/// The root moves outside `set` after which we, given another move, would win by fours (a
/// small VCF search each): quiet counter-attacks that a defence check must consider.
pub(super) fn vcf_threats(
    pos: &mut Position,
    solver: &mut Solver,
    moves: &[ScoredMove],
    set: &[Pos],
) -> Vec<Pos> {
    let me = pos.side_to_move();
    let lim = ThreatLimits {
        max_nodes: THREAT_MOVE_VCF_NODES,
        deadline: None,
    };
    let mut found = Vec::new();
    let b = pos.board_mut();
    for m in moves.iter().filter(|m| !set.contains(&m.pos)) {
        b.make(m.pos);
        b.set_side_to_move(me);
        if matches!(solver.vcf(b, &lim), Proof::Win(_)) {
            found.push(m.pos);
        }
        b.set_side_to_move(me.opposite());
        b.unmake();
    }
    found
}

/// The opponent's answer after our move `m`: a VCF search under `vcf`, then, unless it found a
/// win, a VCT search under `vct`; returns it with the nodes both took.
fn threat_after(
    pos: &mut Position,
    solver: &mut Solver,
    m: Pos,
    vcf: Option<&ThreatLimits>,
    vct: Option<&ThreatLimits>,
    stop: &AtomicBool,
) -> (Proof, u64) {
    // No clear() needed: the solver keys its entries by attacker and search kind, and its
    // cut-off results last one search only (an earlier table hid wins when it did not).
    let b = pos.board_mut();
    b.make(m);
    let mut answer = Proof::Unknown;
    let mut nodes = 0;
    if let Some(lim) = vcf {
        answer = solver.vcf(b, lim);
        nodes += solver.nodes();
    }
    if let Some(lim) = vct {
        if !matches!(answer, Proof::Win(_)) {
            answer = solver.vct(b, lim, stop);
            nodes += solver.nodes();
        }
    }
    b.unmake();
    (answer, nodes)
}

/// When the opponent, given the move, would have a VCF (or else a VCT), keeps only the root
/// moves after which it has none. The candidate defences (`defence_set`, then the moves that
/// threaten a VCF, `vcf_threats`) are checked first, in that order; the other moves only when
/// no candidate survives every pass. A move survives unless a check proves the opponent's win;
/// when none survives, the moves that lose slowest stay.
pub(super) fn refute_opponent_threats(
    pos: &mut Position,
    solver: &mut Solver,
    guard: &mut Guard,
    moves: &mut Vec<ScoredMove>,
    (find, deadline): (Option<Instant>, Option<Instant>),
    stop: &AtomicBool,
) -> bool {
    let Some(threat) = opponent_threat(pos, solver, find, stop) else {
        return false;
    };
    let budget = (threat.nodes * REFUTE_FACTOR).clamp(REFUTE_NODES, REFUTE_MAX_NODES);
    guard.base = guard.base.max(budget);
    let (cands, others) = refutation_candidates(pos, solver, moves, &threat.line);
    let n_cands = cands.len();
    let mut r = Refutation {
        pos,
        solver,
        guard,
        stop,
        by_fours: threat.by_fours,
        deadline,
        budget,
        vcf: ThreatLimits {
            max_nodes: budget.min(ROOT_VCF_NODES),
            deadline,
        },
        vct: ThreatLimits {
            max_nodes: budget,
            deadline,
        },
        wide: ThreatLimits {
            max_nodes: (budget * REFUTE_WIDEN).min(REFUTE_MAX_NODES),
            deadline,
        },
        spent: 0,
        checked: 0,
        rechecked: 0,
        losers: Vec::new(),
        survivors: Vec::new(),
        unchecked: Vec::new(),
    };
    // The candidates go through every pass below before the other moves are checked, and
    // those only when no candidate is left: a candidate that passes the cheap first check
    // may be proven lost by a later one while a move outside the set holds.
    for group in [cands, others] {
        if !r.survivors.is_empty() || !r.unchecked.is_empty() {
            break;
        }
        r.first_pass(group);
        r.second_pass();
        r.widen();
    }
    let total = moves.len();
    let lost = r.losers_for_log();
    let (checked, rechecked) = (r.checked, r.rechecked);
    r.keep_best(moves);
    log::debug!(
        "opponent {} ({} nodes to find, line {}): {} candidates of {} root moves, {} checked, {} rechecked, {} left",
        if threat.by_fours { "VCF" } else { "VCT" },
        threat.nodes,
        threat.line.len(),
        n_cands,
        total,
        checked,
        rechecked,
        moves.len()
    );
    if log::log_enabled!(log::Level::Debug) {
        let kept: Vec<String> = moves.iter().map(|m| m.pos.to_string()).collect();
        log::debug!("refutation kept [{}], lost [{lost}]", kept.join(" "));
    }
    true
}

/// The opponent's win if it could move now: its line, whether by fours, and the nodes it
/// took to find.
struct Threat {
    line: Vec<Pos>,
    by_fours: bool,
    nodes: u64,
}

/// The opponent's VCF, or else its VCT, were it to move now (searched until `find`).
fn opponent_threat(
    pos: &mut Position,
    solver: &mut Solver,
    find: Option<Instant>,
    stop: &AtomicBool,
) -> Option<Threat> {
    let me = pos.side_to_move();
    let b = pos.board_mut();
    b.set_side_to_move(me.opposite());
    let mut by_fours = true;
    let mut threat = solver.vcf(
        b,
        &ThreatLimits {
            max_nodes: ROOT_VCF_NODES,
            deadline: find,
        },
    );
    if !matches!(threat, Proof::Win(_)) {
        by_fours = false;
        let lim = ThreatLimits {
            max_nodes: ROOT_VCT_NODES,
            deadline: find,
        };
        threat = solver.vct(b, &lim, stop);
    }
    let nodes = solver.nodes();
    b.set_side_to_move(me);
    match threat {
        Proof::Win(line) => Some(Threat {
            line,
            by_fours,
            nodes,
        }),
        _ => {
            log::debug!("no opponent threat: {threat:?} in {nodes} nodes");
            None
        }
    }
}

/// The root moves split into the candidate defences against the threat `line`, in the order
/// they are checked (the line's squares in line order, then the rest of the set by move
/// score), and the other moves in root order.
fn refutation_candidates(
    pos: &mut Position,
    solver: &mut Solver,
    moves: &[ScoredMove],
    line: &[Pos],
) -> (Vec<ScoredMove>, Vec<ScoredMove>) {
    let mut set = defence_set(pos, line);
    // Counter-attacks that are no four or three: moves that would give us a VCF with one
    // more move. The opponent must stop that first, or win by fours.
    set.extend(vcf_threats(pos, solver, moves, &set));
    // (Indirect defences are left out: against a VCT a move far from the attack that builds our
    // own lines can hold, as h9 does after l8 in the balanced opening `f4i8j10f9l5h7g8i2`. The
    // eight best root moves outside the set added as candidates scored 88-96-8 against PentaZen
    // at 1 s, -0.6 %, standard error 3.2 %, slot by slot: not kept. There the search still
    // preferred a direct defence at depth 9.)
    let rank = |p: Pos| set.iter().position(|&q| q == p);
    let (mut cands, others): (Vec<ScoredMove>, Vec<ScoredMove>) =
        moves.iter().partition(|m| rank(m.pos).is_some());
    cands.sort_by_key(|m| {
        let r = rank(m.pos).unwrap_or(usize::MAX);
        if r < line.len() {
            (0, r as i32, m.pos)
        } else {
            (1, -m.score, m.pos)
        }
    });
    (cands, others)
}

/// The root refutation's checks and what they have found so far.
struct Refutation<'r, 'g> {
    pos: &'r mut Position,
    solver: &'r mut Solver,
    guard: &'r mut Guard<'g>,
    stop: &'r AtomicBool,
    /// Whether the threat is a VCF (else a VCT).
    by_fours: bool,
    deadline: Option<Instant>,
    /// The first pass's node budget, and its limits for the VCF and VCT searches.
    budget: u64,
    vcf: ThreatLimits,
    vct: ThreatLimits,
    /// The second pass's limits.
    wide: ThreatLimits,
    /// Nodes spent by the first two passes.
    spent: u64,
    checked: usize,
    rechecked: usize,
    /// (move, length of the opponent's win after it, nodes the check took) of proven losers.
    losers: Vec<(ScoredMove, usize, u64)>,
    /// Moves not proven to lose, with whether they are proven safe.
    survivors: Vec<(ScoredMove, bool)>,
    unchecked: Vec<ScoredMove>,
}

impl Refutation<'_, '_> {
    fn out_of_budget(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.spent >= REFUTE_TOTAL_NODES
    }

    fn lost(&mut self, m: ScoredMove, len: usize, nodes: u64) {
        self.guard.record(m.pos, Check::Loses(len));
        self.losers.push((m, len, nodes));
    }

    /// Every move of `group` with a small budget (a move that ignores the threat leaves it
    /// about as easy to find as before).
    fn first_pass(&mut self, group: Vec<ScoredMove>) {
        let by_fours = self.by_fours;
        for m in group {
            if self.out_of_budget() {
                self.unchecked.push(m);
                continue;
            }
            let vct = (!by_fours).then_some(&self.vct);
            let (answer, nodes) = threat_after(
                self.pos,
                self.solver,
                m.pos,
                Some(&self.vcf),
                vct,
                self.stop,
            );
            self.spent += nodes;
            self.checked += 1;
            match answer {
                Proof::Win(l) => self.lost(m, l.len(), nodes),
                Proof::NoWin if !by_fours => {
                    self.guard.record(m.pos, Check::Holds(u64::MAX));
                    self.survivors.push((m, true))
                }
                Proof::NoWin => self.survivors.push((m, true)),
                Proof::Unknown => {
                    if !by_fours {
                        self.guard.record(m.pos, Check::Holds(nodes.max(1)));
                    }
                    self.survivors.push((m, false))
                }
            }
        }
    }

    /// The unproven survivors again with the larger budget, with the time left.
    fn second_pass(&mut self) {
        if self.wide.max_nodes <= self.budget {
            return;
        }
        let wide = self.wide;
        let (vcf, vct) = if self.by_fours {
            (Some(&wide), None)
        } else {
            (None, Some(&wide))
        };
        let mut kept = Vec::with_capacity(self.survivors.len());
        for (m, safe) in std::mem::take(&mut self.survivors) {
            if safe || self.out_of_budget() {
                kept.push((m, safe));
                continue;
            }
            let (answer, nodes) = threat_after(self.pos, self.solver, m.pos, vcf, vct, self.stop);
            self.spent += nodes;
            self.rechecked += 1;
            match answer {
                Proof::Win(l) => self.lost(m, l.len(), nodes),
                Proof::NoWin => kept.push((m, true)),
                Proof::Unknown => kept.push((m, false)),
            }
        }
        self.survivors = kept;
    }

    /// Timed searches go on widening, while time allows: each unproven survivor is checked for
    /// a VCT (a defence often leaves a deeper one) with four times the last budget. The guard
    /// carries on from these budgets with the moves the search prefers.
    fn widen(&mut self) {
        let Some(d) = self.deadline else {
            return;
        };
        let by_fours = self.by_fours;
        let mut wide = self.wide.max_nodes.max(self.budget);
        let mut k = 0;
        while k < self.survivors.len() {
            if k == 0 {
                if wide >= self.guard.cap {
                    break;
                }
                wide = (wide * 4).min(self.guard.cap);
            }
            let (m, safe) = self.survivors[k];
            if self.stop.load(Ordering::Relaxed) || Instant::now() >= d {
                break;
            }
            // (Against a VCF threat `safe` means no VCF left: a VCT may still be.)
            let proven = self.guard.get(m.pos) == Some(Check::Holds(u64::MAX));
            if (!safe || (by_fours && !proven)) && !self.guard.known_loser(m.pos) {
                if !self
                    .guard
                    .loses(self.pos, self.solver, m.pos, wide, self.deadline)
                {
                    if self.guard.get(m.pos) == Some(Check::Holds(u64::MAX)) {
                        self.survivors[k].1 = true;
                    }
                    k += 1;
                } else {
                    let len = match self.guard.get(m.pos) {
                        Some(Check::Loses(n)) => n,
                        _ => 0,
                    };
                    self.losers.push((m, len, wide));
                    self.survivors.remove(k);
                }
                self.rechecked += 1;
            } else {
                k += 1;
            }
            let guard = &*self.guard;
            let open = |&(m, safe): &(ScoredMove, bool)| {
                (!safe || by_fours) && guard.get(m.pos) != Some(Check::Holds(u64::MAX))
            };
            if k >= self.survivors.len() && self.survivors.iter().any(open) {
                k = 0;
            }
        }
    }

    /// The proven losers as `move:length` (debug log only).
    fn losers_for_log(&self) -> String {
        if !log::log_enabled!(log::Level::Debug) {
            return String::new();
        }
        let l: Vec<String> = self
            .losers
            .iter()
            .map(|(m, n, _)| format!("{}:{n}", m.pos))
            .collect();
        l.join(" ")
    }

    /// Replaces `moves` by the moves not proven to lose (proven-safe first, then the unproven,
    /// then the unchecked, each in order) or, when every move checked loses, by those the
    /// opponent needs longest to win with.
    fn keep_best(self, moves: &mut Vec<ScoredMove>) {
        let Refutation {
            mut survivors,
            unchecked,
            mut losers,
            ..
        } = self;
        if !survivors.is_empty() || !unchecked.is_empty() {
            survivors.sort_by_key(|&(_, safe)| !safe);
            let mut keep: Vec<ScoredMove> = survivors.into_iter().map(|(m, _)| m).collect();
            keep.extend(unchecked);
            *moves = keep;
        } else if !losers.is_empty() {
            let longest = losers.iter().map(|&(_, len, _)| len).max().unwrap_or(0);
            losers.retain(|&(_, len, _)| len == longest);
            losers.sort_by_key(|&(m, _, nodes)| (std::cmp::Reverse(nodes), m.pos));
            *moves = losers.into_iter().map(|(m, _, _)| m).collect();
        }
    }
}
