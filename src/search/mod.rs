//! The searcher: iterative-deepening PVS over the pattern evaluation, with the transposition
//! table, time management and threat-space search (`threat`). It knows nothing of the protocol:
//! callers hand it a board, limits and a stop flag, and get a move back.

pub mod bench;
pub mod movepick;
pub(crate) mod ordering;
mod root;
pub mod threat;
pub mod timeman;
pub mod tt;
pub mod worker;

use crate::board::{Board, Pos};
use crate::eval::{for_each_bit, Position};
use movepick::{generate, legal_flex4, Marks, ScoredMove};
use root::{
    refute_opponent_threats, safe_move, Guard, GUARD_DEPTH, GUARD_SHARE, GUARD_SHARE_THREAT,
    ROOT_VCF_NODES, ROOT_VCT_NODES, SAFETY_NODES, SAFETY_TRIES, UNTIMED_SAFETY_NODES,
    UNTIMED_SAFETY_TRIES,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use threat::{Proof, Solver, ThreatLimits};
use tt::{Table, MATE, MATE_BOUND};
pub use worker::TreeStats;
use worker::{root_moves_from, RootMove, Shared, Worker, INF, MAX_PLY};

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
/// one thread's threat-solver caches (12 MiB and 1.5 MiB); more threads take their leaf caches
/// from the table (`tt_bytes_for`).
const BASE_BYTES: u64 = 24 << 20;
/// Threads that each get a leaf cache of the one-thread size (smaller ones lose results to
/// collisions, see `threat::LEAF_TT_SHIFT`); more threads share that many threads' worth.
const LEAF_THREADS: usize = 8;

/// Cache sizes (log2 of entries) of search thread `id`'s threat solver when `threads` search:
/// the main thread's cache (the root's checks, the guard, the final check) is the one-thread
/// size however many threads search, the helpers' solvers run leaf VCFs only and have a token
/// one, and each thread has a leaf cache.
fn solver_table_bits(id: usize, threads: usize) -> (u32, u32) {
    let main = if id == 0 { threat::DEFAULT_TT_BITS } else { 10 };
    let one_thread_leaf = threat::DEFAULT_TT_BITS - threat::LEAF_TT_SHIFT;
    let halvings = threads
        .max(1)
        .div_ceil(LEAF_THREADS)
        .next_power_of_two()
        .trailing_zeros();
    (main, one_thread_leaf.saturating_sub(halvings))
}

/// Bytes of the threat solvers' caches of `threads` search threads.
fn solver_bytes(threads: usize) -> u64 {
    (0..threads.max(1))
        .map(|id| {
            let (bits, leaf_bits) = solver_table_bits(id, threads);
            Solver::tables_bytes(bits, leaf_bits)
        })
        .sum()
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
    /// The main threads' tree shapes since the engine was made.
    tree_stats: TreeStats,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

/// Size of the transposition table for a memory limit (0 = default) and a number of search
/// threads: peak resident memory must stay under 90 % of the limit.
pub fn tt_bytes_for(memory: u64, threads: usize) -> u64 {
    if memory == 0 {
        return DEFAULT_TT_BYTES;
    }
    let helpers = solver_bytes(threads) - solver_bytes(1);
    (memory / 10 * 8)
        .saturating_sub(BASE_BYTES + helpers)
        .max(1 << 16)
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
            tree_stats: TreeStats::default(),
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

    /// Number of search threads (at least 1). A new number sizes the table and the solvers'
    /// caches anew at the next search.
    pub fn set_threads(&mut self, n: usize) {
        let n = n.clamp(1, 256);
        if n != self.threads {
            self.threads = n;
            self.tt = None;
            self.solvers.clear();
        }
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

    /// The shape of the main thread's trees since the engine was made (`bench`).
    pub fn tree_stats(&self) -> TreeStats {
        self.tree_stats
    }

    /// Size in bytes of the transposition table the next search uses.
    pub fn tt_bytes(&self) -> u64 {
        tt_bytes_for(self.memory_bytes, self.threads)
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
            let (bits, leaf_bits) = solver_table_bits(self.solvers.len(), threads);
            self.solvers.push(Solver::with_tables(bits, leaf_bits));
        }
        let tt_bytes = self.tt_bytes();
        let tt = self.tt.get_or_insert_with(|| Table::new(tt_bytes));
        tt.new_search();

        let mut pos = Position::new(board);
        let me = pos.side_to_move();
        let opp = me.opposite();
        let excluded = &limits.excluded;
        let ok = |pos: &mut Position, p: Pos| !excluded.contains(&p) && pos.is_legal(p, me);
        let answer = |p: Pos, score: i32, nodes: u64, report: &mut dyn FnMut(&Progress)| {
            report(&Progress {
                depth: 1,
                score,
                nodes,
                elapsed_ms: start.elapsed().as_millis() as u64,
                pv: vec![p],
            });
            Some(SearchResult {
                best: p,
                score,
                depth: 1,
                nodes,
                pv: vec![p],
            })
        };

        // An empty board opens at the centre: no search tells the squares apart, and it is
        // the move every player and opening book expects.
        if board.move_count() == 0 {
            let centre = Pos::new(board.width() / 2, board.height() / 2);
            if ok(&mut pos, centre) {
                return answer(centre, 0, 1, report);
            }
        }
        // Forced answers need no search.
        if let Some(p) = pick(&pos.fives(me).clone(), |p| ok(&mut pos, p)) {
            return answer(p, MATE - 1, 1, report);
        }
        let opp_fives = pos.count(opp, crate::eval::Shape::Five);
        if opp_fives > 0 {
            if let Some(p) = pick(&pos.fives(opp).clone(), |p| ok(&mut pos, p)) {
                let score = if opp_fives > 1 { -(MATE - 2) } else { 0 };
                return answer(p, score, 1, report);
            }
        } else if let Some(p) = legal_flex4(&mut pos, me).filter(|&p| !excluded.contains(&p)) {
            return answer(p, MATE - 3, 1, report);
        }
        let hard_deadline = budget.hard.map(|h| start + h);
        let use_threats = self.use_threats && !budget.move_now;

        let mut moves: Vec<ScoredMove> = Vec::new();
        let mut marks = Marks::default();
        generate(&mut pos, &mut moves, &mut marks);
        moves.retain(|m| !excluded.contains(&m.pos));
        if moves.is_empty() {
            moves = fallback_moves(&mut pos, excluded);
        }

        let mut sh = Shared::new(tt, stop);
        // With the threat solver on, the last sixth of the time checks the chosen move.
        // (Stopping at 9/10 instead, which leaves the check 34 ms of a 1 s turn, scored +2.5 %,
        // standard error 2.9 %, against PentaZen over five runs, each beside a run of this
        // build: not shown, not kept; after the fitted ordering, -0.5 % (5.8 %) beside one; with
        // the turn reserve at a thirty-second, replies 816 ms on average instead of 760, +0.1 %
        // (3.4 %) over two runs against nine of this, fifty-fifth round. Both together, 9/10 of
        // a hard limit of 939 ms, replies 808-823 ms on average instead of 767-779, largest 884:
        // 107-118-11 over five runs beside five control runs of this, +0.7 % (3.1 %) slot by
        // slot, ninetieth round: not kept.)
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
        // The helpers start before the root's threat checks, which run on the main thread alone
        // (a quarter of a threatened move's time), and take the checked list when it is posted.
        let helpers = if budget.move_now || moves.len() < 2 {
            0
        } else {
            threads - 1
        };
        let helper_moves = (helpers > 0).then(|| root_moves_from(moves.clone()));
        let mut guard = Guard::new(None, stop);
        let (first, rest) = self.solvers.split_at_mut(1);
        let solver = &mut first[0];
        // Nodes count the threat solvers' positions too (the root checks can be all the work).
        // The helpers' solvers count in the shared total.
        let visits0 = solver.visits();
        let outcome = std::thread::scope(|scope| {
            for (i, helper_solver) in rest.iter_mut().take(helpers).enumerate() {
                let pos = pos.clone();
                let rm = helper_moves.clone().unwrap_or_default();
                let sh = &sh;
                scope.spawn(move || {
                    let mut w = Worker::new(pos, helper_solver, rm);
                    w.set_poll_interval(sh.max_nodes);
                    helper_loop(&mut w, sh, max_depth, i + 1);
                    w.flush(sh);
                });
            }
            let outcome = root_and_search(RootSearch {
                pos: &mut pos,
                solver,
                sh: &sh,
                guard: &mut guard,
                moves,
                helper_moves: helper_moves.as_deref(),
                budget,
                start,
                use_threats: use_threats && opp_fives == 0,
                max_depth,
                excluded,
                report,
            });
            sh.abort.store(true, Ordering::Relaxed);
            outcome
        });
        let solver = &mut self.solvers[0];
        let after_search = solver.visits();
        let (mut result, order, stats, first_move, prior_nodes) = match outcome {
            Outcome::Answer(p, score) => {
                let nodes = 1 + after_search - visits0 + sh.nodes.load(Ordering::Relaxed);
                return answer(p, score, nodes, report);
            }
            Outcome::Searched {
                result,
                order,
                stats,
                first_move,
                prior_nodes,
            } => (result, order, stats, first_move, prior_nodes),
        };
        self.tree_stats.add(&stats);
        log::debug!("search done at {:?}", start.elapsed());
        if use_threats && result.score.abs() < MATE_BOUND {
            // Past the soft limit, but not so far that a match clock drains.
            let deadline = match (budget.hard, budget.soft) {
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
                solver,
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
            prior_nodes + sh.nodes.load(Ordering::Relaxed) + solver.visits() - after_search;
        log::debug!("answer {} at {:?}", result.best, start.elapsed());
        // Defensive: the answer must be a legal empty square.
        let mut check = Position::new(board);
        if !check.board().is_empty(result.best) || !check.is_legal(result.best, me) {
            log::error!("search produced an illegal move {}", result.best);
            result.best = first_move;
        }
        Some(result)
    }
}

/// What the main thread's part of a move needs: the root's threat checks, then the search.
struct RootSearch<'a, 'b> {
    pos: &'a mut Position,
    solver: &'a mut Solver,
    sh: &'a Shared<'b>,
    guard: &'a mut Guard<'b>,
    /// The generated root moves.
    moves: Vec<ScoredMove>,
    /// The list the helpers were started on (None: no helpers).
    helper_moves: Option<&'a [RootMove]>,
    budget: &'a timeman::Budget,
    start: Instant,
    /// Run the threat checks (the solver is on, there is time, the opponent has no four).
    use_threats: bool,
    max_depth: i32,
    excluded: &'a [Pos],
    report: &'a mut dyn FnMut(&Progress),
}

/// How the main thread's part of a move ended.
enum Outcome {
    /// A move found without the search (a proven win, a single move, "move now").
    Answer(Pos, i32),
    /// The search's result, the root moves in its final order (for the final check), the
    /// tree's shape, and the first root move it started from (a legal fallback).
    Searched {
        result: SearchResult,
        order: Vec<Pos>,
        stats: TreeStats,
        first_move: Pos,
        /// Nodes of the threat checks before the search.
        prior_nodes: u64,
    },
}

/// The root's threat checks (our win by threats, the opponent's threat and its refutation),
/// then the main thread's iterative deepening.
fn root_and_search(rs: RootSearch) -> Outcome {
    let RootSearch {
        pos,
        solver,
        sh,
        guard,
        mut moves,
        helper_moves,
        budget,
        start,
        use_threats,
        max_depth,
        excluded,
        report,
    } = rs;
    let stop = sh.stop;
    let me = pos.side_to_move();
    let visits0 = solver.visits();
    // Our forced win by fours, then by threats: played at once.
    if use_threats {
        // Untimed searches (bench, fixed depth) bound the solver by nodes only, so that
        // they stay reproducible.
        let time_cap = |share: u32| budget.hard.map(|h| start + h / share);
        // A clean table, although entries are keyed by all they depend on: stale entries
        // once made the root claim a false win, which is played at once (about 2 ms).
        solver.clear();
        let lim = ThreatLimits {
            max_nodes: ROOT_VCF_NODES,
            deadline: time_cap(8),
        };
        let mut proof = solver.vcf(pos.board_mut(), &lim);
        if !matches!(proof, Proof::Win(_)) {
            // A sixteenth, so that the search for the opponent's threat below (which must
            // end an eighth into the move) still has time: with a sixth, a VCT that ran to
            // its limit left that search none.
            let lim = ThreatLimits {
                max_nodes: ROOT_VCT_NODES,
                deadline: time_cap(16),
            };
            proof = solver.vct(pos.board_mut(), &lim, stop);
        }
        if let Proof::Win(line) = proof {
            if let Some(&p) = line.first() {
                if pos.board().is_empty(p) && !excluded.contains(&p) && pos.is_legal(p, me) {
                    log::debug!("root threat win of {} plies: {:?}", line.len(), line);
                    return Outcome::Answer(p, MATE - line.len() as i32);
                }
            }
        }
    }

    let mut threatened = false;
    if moves.len() > 1 && use_threats {
        // Finding the threat may use an eighth of the time, refuting it up to a quarter; the
        // search needs the rest. Refuting rarely removes more than a few root moves; these
        // shares scored no lower in play than a quarter and a half, and halving them again
        // scored lower. (A twelfth and a sixth, with the guard's share when threatened at
        // 5/16: -2.9 %, standard error 2.8 %, against PentaZen over two runs, fifty-fourth
        // round; not kept.)
        let find = budget.hard.map(|h| start + h / 8);
        let deadline = budget.hard.map(|h| start + h / 4);
        threatened =
            refute_opponent_threats(pos, solver, guard, &mut moves, (find, deadline), stop);
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
        return Outcome::Answer(root_moves[0].pos, pos.evaluate());
    }

    // The search proper.
    let soft = budget.soft;
    let search_soft = timeman::search_soft(
        soft,
        sh.deadline.map(|d| d.saturating_duration_since(start)),
        start.elapsed(),
        budget.save_time,
    );
    let prior_nodes = solver.visits() - visits0;
    let first_move = root_moves[0].pos;
    let mut w = Worker::new(pos.clone(), solver, root_moves);
    w.set_poll_interval(sh.max_nodes);
    if helper_moves.is_some_and(|h| !same_squares(&w.root_moves, h)) {
        sh.post_root_moves(&mut w);
    }
    let clock = Clock {
        start,
        soft: search_soft,
        stop_when_stable: budget.save_time,
        prior_nodes,
    };
    let result = main_loop(&mut w, sh, guard, max_depth, &clock, report);
    w.flush(sh);
    let order: Vec<Pos> = w.root_moves.iter().map(|m| m.pos).collect();
    Outcome::Searched {
        result,
        order,
        stats: w.stats,
        first_move,
        prior_nodes,
    }
}

/// Whether two root lists hold the same squares in the same order.
fn same_squares(a: &[RootMove], b: &[RootMove]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.pos == y.pos)
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

/// When the main thread's iterations may stop.
struct Clock {
    start: Instant,
    /// Start no iteration after this.
    soft: Option<Duration>,
    /// Stop once the best move has held for several iterations (only worth it when the time
    /// saved goes to later moves).
    stop_when_stable: bool,
    /// Nodes of the threat checks before the search (reported with the search's).
    prior_nodes: u64,
}

/// Half-width of the first aspiration window around the last iteration's score; each fail
/// widens that side by the current width and triples it. (15: bench nodes +48 %, 76-97-19
/// against PentaZen at 1 s, -1.4 % (standard error 3.6 %) slot by slot against twelve control
/// runs: not kept.)
const ASPIRATION_DELTA: i32 = 30;

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
        let mut delta = ASPIRATION_DELTA;
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
                sh.post_root_moves(w);
                best = w.root_moves[0].pos;
                score = w.root_moves[0].prev.max(-INF + 1);
                pv = vec![best];
                stable = 0;
                depth -= 1;
                continue;
            }
        }
        let elapsed = start.elapsed();
        let nodes = clock.prior_nodes + sh.nodes.load(Ordering::Relaxed);
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
        // (The soft limit stretched by the root's unrest while a clock binds, 0.7 of it for a
        // settled root up to 2.5 for a changing or falling one, scored 147-141 over three sets
        // on 20x20 with a 12 s clock: not kept. See the README's "Hundred-and-seventeenth
        // round".)
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
/// table. They start on the generated root list while the main thread runs the root's threat
/// checks, move to each list it posts (the checked one, then the guard's), and stop when the
/// main thread does. (Paced by the main thread, in aspiration windows, their deepest iteration
/// played: see tried.md, "Helper threads".)
fn helper_loop(w: &mut Worker, sh: &Shared, max_depth: i32, id: usize) {
    let mut depth = 1 + (id % 2) as i32;
    while depth <= max_depth {
        w.root(sh, depth, -INF, INF);
        if w.aborted {
            // Cut short by a new root list, not by the end of the move: that depth again, on
            // the new list.
            if sh.abort.load(Ordering::Relaxed)
                || sh.stop.load(Ordering::Relaxed)
                || !sh.take_root_moves(w)
            {
                break;
            }
            w.aborted = false;
            continue;
        }
        depth += 1;
    }
}

#[cfg(test)]
mod tests;
