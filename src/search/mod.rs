//! The searcher: iterative-deepening PVS over the pattern evaluation, with the transposition
//! table, time management and threat-space search (`threat`). It knows nothing of the protocol:
//! callers hand it a board, limits and a stop flag, and get a move back.

pub mod bench;
pub mod movepick;
pub(crate) mod ordering;
pub mod threat;
pub mod timeman;
pub mod tt;
pub mod worker;

use crate::board::{Board, Pos};
use crate::eval::{for_each_bit, Position};
use movepick::{generate, legal_flex4, Marks, ScoredMove};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use threat::{Proof, Solver, ThreatLimits};
use tt::{Table, MATE, MATE_BOUND};
use worker::{root_moves_from, Shared, Worker, INF, MAX_PLY};

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
    /// Stop the search after this many nodes (`INFO max_node`), its leaves' threat searches
    /// included; the threat checks before and after it keep their own fixed budgets.
    pub max_nodes: Option<u64>,
    /// Squares the root search must not play (`YXBLOCK`).
    pub excluded: Vec<Pos>,
    /// When the request was read: the move's time counts from then, so a late start (a busy
    /// machine waking the search thread late) comes out of the budget, not out of the manager's
    /// patience. `None`: from the start of the search.
    pub since: Option<Instant>,
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

/// Transposition-table size when the caller sets no memory limit.
const DEFAULT_TT_BYTES: u64 = 64 << 20;
/// Memory the engine needs besides the table: binary, pattern tables, per-thread state and
/// the threat solvers' caches (`SOLVER_BYTES` and an eighth more of it).
const BASE_BYTES: u64 = 24 << 20;
/// The threat solvers' main caches, split between the search threads, so that more threads
/// never take more memory than `max_memory` allows (each solver's leaf table adds an eighth).
const SOLVER_BYTES: u64 = 12 << 20;

/// Cache size (log2 of entries, 12 bytes each) of each thread's threat solver.
fn solver_table_bits(threads: usize) -> u32 {
    let entries = (SOLVER_BYTES / 12 / threads.max(1) as u64).max(1);
    (63 - entries.leading_zeros()).clamp(12, 20)
}
/// Node budgets of the threat searches at the root (ours, the opponent's, refutation checks).
const ROOT_VCF_NODES: u64 = 20_000;
const ROOT_VCT_NODES: u64 = 200_000;
/// Node cap of the VCF search that asks whether a root move threatens one.
const THREAT_MOVE_VCF_NODES: u64 = 2_000;
const REFUTE_NODES: u64 = 1_000;
/// The second pass over the unproven survivors multiplies the first pass's budget by this.
const REFUTE_WIDEN: u64 = 8;
/// A refutation check gets at least this many times the nodes the threat took to find: a
/// move that does not answer the threat leaves it about as hard to find as before.
const REFUTE_FACTOR: u64 = 3;
const REFUTE_MAX_NODES: u64 = 60_000;
/// All refutation checks of one move together: bounds untimed searches (bench, fixed depth).
const REFUTE_TOTAL_NODES: u64 = 300_000;
/// The final check: first budget, and how many moves it may try in search order.
const SAFETY_NODES: u64 = 100_000;
const SAFETY_TRIES: usize = 6;
const UNTIMED_SAFETY_NODES: u64 = 50_000;
const UNTIMED_SAFETY_TRIES: usize = 4;
/// The guard (see `Guard`): node budget of a first check of a root move, the largest budget
/// (each later check of the same move doubles the last one), the depth from which it checks the
/// best move after every iteration, and its share of the time (in sixteenths of the hard limit).
const GUARD_NODES: u64 = 20_000;
const GUARD_MAX_NODES: u64 = 1_280_000;
const GUARD_DEPTH: i32 = 5;
const GUARD_SHARE: u32 = 5;
/// The guard's share when the opponent had a VCT before our move (the defence then matters
/// more than the search's depth).
const GUARD_SHARE_THREAT: u32 = 8;

/// What the threat checks at the root learned about one of our moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Check {
    /// The opponent's VCT after the move is proven; the length of its line.
    Loses(usize),
    /// No VCT found in this many nodes (`u64::MAX`: proven that there is none).
    Holds(u64),
}

/// The root guard: during the iterative deepening, the best move of each iteration is checked
/// for an opponent's VCT after it (a budget that doubles each time the same move is checked
/// again); a move proven to lose leaves the root list and the iteration is searched again. The
/// answers are kept for the final check and shared with the root refutation.
struct Guard<'a> {
    checks: Vec<(Pos, Check)>,
    /// Budget of a first check, and the largest budget of the checks that double it.
    base: u64,
    cap: u64,
    /// Time the checks during the search may take in all (None: untimed, no checks there).
    allowance: Option<Duration>,
    spent: Duration,
    stop: &'a AtomicBool,
}

impl<'a> Guard<'a> {
    fn new(allowance: Option<Duration>, stop: &'a AtomicBool) -> Guard<'a> {
        Guard {
            checks: Vec::new(),
            base: GUARD_NODES,
            cap: GUARD_MAX_NODES,
            allowance,
            spent: Duration::ZERO,
            stop,
        }
    }

    fn get(&self, m: Pos) -> Option<Check> {
        self.checks.iter().find(|c| c.0 == m).map(|c| c.1)
    }

    fn record(&mut self, m: Pos, c: Check) {
        match self.checks.iter_mut().find(|c| c.0 == m) {
            Some(e) => e.1 = c,
            None => self.checks.push((m, c)),
        }
    }

    fn known_loser(&self, m: Pos) -> bool {
        matches!(self.get(m), Some(Check::Loses(_)))
    }

    /// Whether the opponent is proven to win after our move `m`: from memory, or by a check
    /// of `budget` nodes ending by `deadline` unless an earlier one had that budget.
    fn loses(
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
    fn vetoes(
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

/// The engine: owns the transposition table and settings across moves.
pub struct Engine {
    threads: usize,
    memory_bytes: u64,
    tt: Option<Table>,
    solvers: Vec<Solver>,
    /// Whether the threat solver is consulted (tests turn it off to compare).
    pub use_threats: bool,
    /// How far recent answers ran past their hard limit (`timeman::carry_lag`).
    lag: Duration,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

/// Size of the transposition table for a memory limit (0 = default): peak resident memory must
/// stay under 90 % of the limit.
pub fn tt_bytes_for(memory: u64) -> u64 {
    if memory == 0 {
        return DEFAULT_TT_BYTES;
    }
    (memory / 10 * 8).saturating_sub(BASE_BYTES).max(1 << 16)
}

impl Engine {
    pub fn new() -> Engine {
        Engine {
            threads: 1,
            memory_bytes: 0,
            tt: None,
            solvers: Vec::new(),
            use_threats: true,
            lag: Duration::ZERO,
        }
    }

    /// Memory limit in bytes for everything the engine allocates (0 = default). The table is
    /// allocated lazily at the next search.
    pub fn set_memory(&mut self, bytes: u64) {
        if bytes != self.memory_bytes {
            self.memory_bytes = bytes;
            self.tt = None;
        }
    }

    /// Number of search threads (at least 1).
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.clamp(1, 256);
    }

    /// Forgets everything learned (new game or `YXHASHCLEAR`).
    pub fn clear(&mut self) {
        // Dropping the table returns its pages; the next search maps fresh zero pages.
        self.tt = None;
        for s in &mut self.solvers {
            s.clear();
        }
    }

    /// Nodes the threat solvers visited since the engine was made (part of every search's
    /// node count).
    pub fn solver_visits(&self) -> u64 {
        visits(&self.solvers)
    }

    /// Size in bytes of the transposition table the next search uses.
    pub fn tt_bytes(&self) -> u64 {
        tt_bytes_for(self.memory_bytes)
    }

    /// Searches `board` for the side to move and returns a legal move, or None when the board
    /// has no empty square. Returns promptly once `stop` is set. An answer that comes after its
    /// hard limit (the machine stalled the search) makes the next moves keep that much more back.
    pub fn think(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Progress),
    ) -> Option<SearchResult> {
        let start = limits.since.unwrap_or_else(Instant::now);
        let empties = board.squares().filter(|&p| board.is_empty(p)).count();
        if empties == 0 {
            return None;
        }
        let budget = timeman::budget(limits, empties, self.lag);
        let result = self.think_within(board, limits, &budget, start, stop, report);
        if let Some(h) = budget.hard.filter(|_| !budget.move_now) {
            let over = start.elapsed().saturating_sub(h);
            if !over.is_zero() {
                log::debug!("answered {over:?} after the hard limit");
            }
            self.lag = timeman::carry_lag(self.lag, over);
        }
        result
    }

    /// `think` under a computed budget, its clock started at `start`.
    fn think_within(
        &mut self,
        board: &Board,
        limits: &Limits,
        budget: &timeman::Budget,
        start: Instant,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Progress),
    ) -> Option<SearchResult> {
        let threads = self.threads;
        while self.solvers.len() < threads {
            self.solvers
                .push(Solver::with_table_bits(solver_table_bits(threads)));
        }
        let tt_bytes = self.tt_bytes();
        let tt = self.tt.get_or_insert_with(|| Table::new(tt_bytes));
        tt.new_search();

        let mut pos = Position::new(board);
        let me = pos.side_to_move();
        let opp = me.opposite();
        let excluded = &limits.excluded;
        let ok = |pos: &mut Position, p: Pos| !excluded.contains(&p) && pos.is_legal(p, me);
        // Nodes count the threat solvers' positions too (the root checks can be all the work).
        let visits0 = visits(&self.solvers);
        let done = |p: Pos, score: i32, solvers: &[Solver], report: &mut dyn FnMut(&Progress)| {
            let nodes = 1 + visits(solvers) - visits0;
            let r = SearchResult {
                best: p,
                score,
                depth: 1,
                nodes,
                pv: vec![p],
            };
            report(&Progress {
                depth: 1,
                score,
                nodes,
                elapsed_ms: start.elapsed().as_millis() as u64,
                pv: vec![p],
            });
            Some(r)
        };

        // An empty board opens at the centre: no search tells the squares apart, and it is
        // the move every player and opening book expects.
        if board.move_count() == 0 {
            let centre = Pos::new(board.width() / 2, board.height() / 2);
            if ok(&mut pos, centre) {
                return done(centre, 0, &self.solvers, report);
            }
        }
        // Forced answers need no search.
        if let Some(p) = pick(&pos.fives(me).clone(), |p| ok(&mut pos, p)) {
            return done(p, MATE - 1, &self.solvers, report);
        }
        let opp_fives = pos.count(opp, crate::eval::Shape::Five);
        if opp_fives > 0 {
            if let Some(p) = pick(&pos.fives(opp).clone(), |p| ok(&mut pos, p)) {
                let score = if opp_fives > 1 { -(MATE - 2) } else { 0 };
                return done(p, score, &self.solvers, report);
            }
        } else if let Some(p) = legal_flex4(&mut pos, me).filter(|&p| !excluded.contains(&p)) {
            return done(p, MATE - 3, &self.solvers, report);
        }
        let hard_deadline = budget.hard.map(|h| start + h);
        let use_threats = self.use_threats && !budget.move_now;
        // Our forced win by fours, then by threats: played at once.
        if use_threats && opp_fives == 0 {
            // Untimed searches (bench, fixed depth) bound the solver by nodes only, so that
            // they stay reproducible.
            let time_cap = |share: u32| budget.hard.map(|h| start + h / share);
            // A clean table, although entries are keyed by all they depend on: stale entries
            // once made the root claim a false win, which is played at once (about 2 ms).
            self.solvers[0].clear();
            let lim = ThreatLimits {
                max_nodes: ROOT_VCF_NODES,
                deadline: time_cap(8),
            };
            let mut proof = self.solvers[0].vcf(pos.board_mut(), &lim);
            if !matches!(proof, Proof::Win(_)) {
                // A sixteenth, so that the search for the opponent's threat below (which must
                // end an eighth into the move) still has time: with a sixth, a VCT that ran to
                // its limit left that search none.
                let lim = ThreatLimits {
                    max_nodes: ROOT_VCT_NODES,
                    deadline: time_cap(16),
                };
                proof = self.solvers[0].vct(pos.board_mut(), &lim, stop);
            }
            if let Proof::Win(line) = proof {
                if let Some(&p) = line.first() {
                    if pos.board().is_empty(p) && ok(&mut pos, p) {
                        log::debug!("root threat win of {} plies: {:?}", line.len(), line);
                        return done(p, MATE - line.len() as i32, &self.solvers, report);
                    }
                }
            }
        }

        let mut moves: Vec<ScoredMove> = Vec::new();
        let mut marks = Marks::default();
        generate(&mut pos, &mut moves, &mut marks);
        moves.retain(|m| !excluded.contains(&m.pos));
        if moves.is_empty() {
            moves = fallback_moves(&mut pos, excluded);
        }
        let mut guard = Guard::new(None, stop);
        let mut threatened = false;
        if moves.len() > 1 && use_threats && opp_fives == 0 {
            // Finding the threat may use an eighth of the time, refuting it up to a quarter; the
            // search needs the rest. Refuting rarely removes more than a few root moves; these
            // shares scored no lower in play than a quarter and a half, and halving them again
            // scored lower.
            let find = budget.hard.map(|h| start + h / 8);
            let deadline = budget.hard.map(|h| start + h / 4);
            threatened = refute_opponent_threats(
                &mut pos,
                &mut self.solvers[0],
                &mut guard,
                &mut moves,
                (find, deadline),
                stop,
            );
        }
        log::debug!("root checks done at {:?}", start.elapsed());
        let share = if threatened {
            GUARD_SHARE_THREAT
        } else {
            GUARD_SHARE
        };
        guard.allowance = budget.hard.filter(|_| use_threats).map(|h| h / 16 * share);
        let root_moves = root_moves_from(moves);
        if budget.move_now || root_moves.len() == 1 {
            let p = root_moves[0].pos;
            let score = pos.evaluate();
            return done(p, score, &self.solvers, report);
        }

        // The search proper.
        let mut sh = Shared::new(tt, stop);
        let before_search = visits(&self.solvers) - visits0;
        sh.prior_nodes = before_search;
        // With the threat solver on, the last sixth of the time checks the chosen move.
        // (Stopping at 9/10 instead, which leaves the check 34 ms of a 1 s turn, scored +2.5 %,
        // standard error 2.9 %, against PentaZen over five runs, each beside a run of this
        // build: not shown, not kept; after the fitted ordering, -0.5 % (5.8 %) beside one.)
        sh.deadline = if use_threats {
            budget.hard.map(|h| start + h * 5 / 6)
        } else {
            hard_deadline
        };
        sh.max_nodes = limits.max_nodes;
        sh.leaf_vcf = use_threats;
        let max_depth = limits.max_depth.map_or(MAX_PLY as i32 - 20, |d| {
            (d as i32).clamp(1, MAX_PLY as i32 - 20)
        });
        let soft = budget.soft;
        let search_soft = timeman::search_soft(
            soft,
            sh.deadline.map(|d| d.saturating_duration_since(start)),
            start.elapsed(),
            budget.save_time,
        );
        let (first, rest) = self.solvers.split_at_mut(1);
        let result = std::thread::scope(|scope| {
            for (i, solver) in rest.iter_mut().take(threads - 1).enumerate() {
                let pos = pos.clone();
                let rm = root_moves.clone();
                let sh = &sh;
                scope.spawn(move || {
                    let mut w = Worker::new(pos, solver, rm);
                    w.set_poll_interval(sh.max_nodes);
                    helper_loop(&mut w, sh, max_depth, i + 1);
                    w.flush(sh);
                });
            }
            let mut w = Worker::new(pos.clone(), &mut first[0], root_moves.clone());
            w.set_poll_interval(sh.max_nodes);
            let clock = Clock {
                start,
                soft: search_soft,
                stop_when_stable: budget.save_time,
            };
            let r = main_loop(&mut w, &sh, &mut guard, max_depth, &clock, report);
            w.flush(&sh);
            sh.abort.store(true, Ordering::Relaxed);
            let order: Vec<Pos> = w.root_moves.iter().map(|m| m.pos).collect();
            (r, order)
        });
        let (mut result, order) = result;
        let after_search = visits(&self.solvers);
        log::debug!("search done at {:?}", start.elapsed());
        if use_threats && result.score.abs() < MATE_BOUND {
            // Past the soft limit, but not so far that a match clock drains.
            let deadline = match (budget.hard, soft) {
                (Some(h), Some(s)) => start + timeman::check_until(s, h),
                (Some(h), None) => start + h,
                _ => start + Duration::from_secs(3600),
            };
            // Untimed searches (bench, fixed depth) check each move once, as before the guard.
            let budgets = if hard_deadline.is_some() {
                (SAFETY_NODES, guard.cap, SAFETY_TRIES)
            } else {
                (
                    UNTIMED_SAFETY_NODES,
                    UNTIMED_SAFETY_NODES,
                    UNTIMED_SAFETY_TRIES,
                )
            };
            let safe = safe_move(
                &mut pos,
                &mut self.solvers[0],
                &mut guard,
                (result.best, &order),
                deadline,
                budgets,
            );
            if safe != result.best {
                log::debug!("{} loses to a VCT; playing {} instead", result.best, safe);
                result.best = safe;
                result.pv = vec![safe];
            }
        }
        result.nodes =
            before_search + sh.nodes.load(Ordering::Relaxed) + visits(&self.solvers) - after_search;
        log::debug!("answer {} at {:?}", result.best, start.elapsed());
        // Defensive: the answer must be a legal empty square.
        let mut check = Position::new(board);
        if !check.board().is_empty(result.best) || !check.is_legal(result.best, me) {
            log::error!("search produced an illegal move {}", result.best);
            result.best = root_moves[0].pos;
        }
        Some(result)
    }
}

/// The final check: the best move after which the opponent has no proven VCT, `best` first,
/// then the next few in search order (what the guard learned counts). The move found is checked
/// again with a doubled budget up to `max_budget` while time allows, and replaced by the next
/// one if it loses. Budgets: (first, max_budget, moves tried). When every move tried loses,
/// `best`.
fn safe_move(
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

/// Nodes the solvers visited since they were made.
fn visits(solvers: &[Solver]) -> u64 {
    solvers.iter().map(Solver::visits).sum()
}

/// The first square of a set accepted by `ok`.
fn pick(set: &crate::eval::Bits, mut ok: impl FnMut(Pos) -> bool) -> Option<Pos> {
    let mut out = None;
    for_each_bit(set, |p| {
        if out.is_none() && ok(p) {
            out = Some(p);
        }
    });
    out
}

/// Moves when the generator offers none: any legal empty square near the stones, then any
/// legal empty square, then (renju, black with only fouls left) any empty square at all.
fn fallback_moves(pos: &mut Position, excluded: &[Pos]) -> Vec<ScoredMove> {
    let me = pos.side_to_move();
    let all: Vec<Pos> = pos
        .board()
        .squares()
        .filter(|&p| pos.board().is_empty(p))
        .collect();
    let centre = Pos::new(pos.board().width() / 2, pos.board().height() / 2);
    let mut out: Vec<ScoredMove> = Vec::new();
    for &p in all.iter().filter(|p| !excluded.contains(p)) {
        if pos.is_legal(p, me) {
            out.push(ScoredMove {
                pos: p,
                score: movepick::order_score(pos, p, me) - p.distance(centre) as i32,
            });
        }
    }
    if out.is_empty() {
        let any = all
            .iter()
            .copied()
            .find(|p| !excluded.contains(p))
            .unwrap_or(all[0]);
        log::warn!("no legal move left for {me}: playing {any} (the game is lost either way)");
        out.push(ScoredMove { pos: any, score: 0 });
    }
    out
}

/// The squares that can answer the opponent's threat line: the line's own squares, the empty
/// squares in the five-windows of each attacking stone along the directions where it makes a
/// three or more, and our own fours and open threes (they force a reply first).
fn defence_set(pos: &mut Position, line: &[Pos]) -> Vec<Pos> {
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
fn vcf_threats(
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
fn refute_opponent_threats(
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

/// When the main thread's iterations may stop.
struct Clock {
    start: Instant,
    /// Start no iteration after this.
    soft: Option<Duration>,
    /// Stop once the best move has held for several iterations (only worth it when the time
    /// saved goes to later moves).
    stop_when_stable: bool,
}

/// Iterative deepening of the main thread: reports every iteration, decides when to stop.
fn main_loop(
    w: &mut Worker,
    sh: &Shared,
    guard: &mut Guard,
    max_depth: i32,
    clock: &Clock,
    report: &mut dyn FnMut(&Progress),
) -> SearchResult {
    let (start, soft) = (clock.start, clock.soft);
    let mut best = w.root_moves[0].pos;
    let mut score = w.root_moves[0].score.max(-INF + 1);
    let mut pv = vec![best];
    let mut depth_done = 0;
    let mut stable = 0;
    let mut depth = 0;
    while depth < max_depth {
        depth += 1;
        w.seldepth = 0;
        let mut delta = 30;
        let (mut alpha, mut beta) = if depth >= 5 && score.abs() < MATE_BOUND {
            (score - delta, score + delta)
        } else {
            (-INF, INF)
        };
        let s = loop {
            let s = w.root(sh, depth, alpha, beta);
            if w.aborted {
                break s;
            }
            if s <= alpha && alpha > -INF {
                alpha = (alpha - delta).max(-INF);
                delta *= 3;
            } else if s >= beta && beta < INF {
                beta = (beta + delta).min(INF);
                delta *= 3;
            } else {
                break s;
            }
            if delta > 2000 {
                alpha = -INF;
                beta = INF;
            }
        };
        if w.aborted {
            // A move searched to the end in the unfinished iteration that beat the window is
            // better evidence than the last iteration.
            let rm = &w.root_moves[0];
            if rm.score > -INF && rm.pos != best {
                best = rm.pos;
                score = rm.score;
                pv = rm.pv.clone();
            }
            break;
        }
        let rm = &w.root_moves[0];
        if rm.pos == best {
            stable += 1;
        } else {
            stable = 0;
        }
        best = rm.pos;
        score = s;
        pv = rm.pv.clone();
        for rm in w.root_moves.iter_mut() {
            rm.prev = rm.score;
        }
        depth_done = depth;
        w.flush(sh);
        // The guard: a best move that gives the opponent a VCT leaves the list (unless every
        // other move is known to lose too) and this depth is searched again.
        if depth >= GUARD_DEPTH
            && score.abs() < MATE_BOUND
            && w.root_moves
                .iter()
                .skip(1)
                .any(|m| !guard.known_loser(m.pos))
        {
            let (pos, solver) = w.root_parts();
            if guard.vetoes(pos, solver, best, sh.deadline) {
                log::debug!("depth {depth}: {best} gives the opponent a VCT; searching again");
                w.root_moves.remove(0);
                best = w.root_moves[0].pos;
                score = w.root_moves[0].prev.max(-INF + 1);
                pv = vec![best];
                stable = 0;
                depth -= 1;
                continue;
            }
        }
        let elapsed = start.elapsed();
        let nodes = sh.prior_nodes + sh.nodes.load(Ordering::Relaxed);
        log::debug!("depth {depth} score {score} best {best} nodes {nodes} at {elapsed:?}");
        report(&Progress {
            depth: depth as u32,
            score,
            nodes,
            elapsed_ms: elapsed.as_millis() as u64,
            pv: pv.clone(),
        });
        // Forced result: a win is proven; a loss is searched a little longer for a defence.
        if score >= MATE_BOUND && depth >= 4 {
            break;
        }
        if score <= -MATE_BOUND && depth >= 12 {
            break;
        }
        if let Some(soft) = soft {
            if elapsed >= soft {
                break;
            }
            if clock.stop_when_stable && stable >= 6 && depth >= 10 && elapsed >= soft / 3 {
                break;
            }
        }
    }
    SearchResult {
        best,
        score,
        depth: depth_done as u32,
        nodes: w.nodes,
        pv,
    }
}

/// Helper threads of Lazy SMP: the same iterations, half of them one ply deeper, sharing the
/// table; they stop when the main thread does.
fn helper_loop(w: &mut Worker, sh: &Shared, max_depth: i32, id: usize) {
    let mut depth = 1 + (id % 2) as i32;
    while depth <= max_depth && !w.aborted {
        w.root(sh, depth, -INF, INF);
        depth += 1;
    }
}

#[cfg(test)]
mod tests;
