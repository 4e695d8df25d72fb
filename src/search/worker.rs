//! One search thread: iterative deepening over principal-variation search with aspiration
//! windows, the shared transposition table, killer and history ordering, late-move reductions
//! and pruning, a quick win/loss check at every node, and the VCF solver as quiescence.
//! What was tried here and not kept is in `tried.md`, by the place it would go.

use super::movepick::{generate, legal_flex4, weight, Kind, Marks, ScoredMove};
use super::threat::{Proof, Solver, ThreatLimits};
use super::tt::{Bound, Table, MATE, MATE_BOUND};
use crate::board::{Color, Pos, NCELLS};
use crate::eval::{for_each_bit, iter_bits, Bits, Position, Shape};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Deepest ply a search may reach (forced replies extend lines beyond the nominal depth).
pub const MAX_PLY: usize = 128;
pub const INF: i32 = 32000;
/// Node budget of the VCF quiescence at a leaf. (Against PentaZen at 1 s, slot by slot against
/// three runs of 64: 128, which proves more leaves and shrinks the bench's tree by 16 %, scored
/// -5.9 % (standard error 4.4 %); 32 -7.5 % (5.3 %).)
const LEAF_VCF_NODES: u64 = 64;
/// Plies past the horizon where an opponent's open three or four-three square is answered by
/// search rather than by the evaluation. (Against PentaZen at 1 s, slot by slot against seven
/// runs of four plies: three scored +7.5 % (standard error 3.0 %) over two runs; six -1.6 %
/// (4.2 %) and grew the bench by 73 %; two -14.3 % (4.8 %) against three runs of three. Three
/// proves some threat lines a ply later: see `answers_to_an_open_three_cost_no_depth`.)
const QS_MAX_DEFENCE: i32 = 3;
/// Answers to such a threat tried per quiescence node. (Two cut the bench's alpha-beta nodes by
/// 61 % and beat this in self-play at 0.2 s, 204-157-39, yet scored 32-62-2 against PentaZen at
/// 1 s, -11.9 % (standard error 4.0 %) slot by slot against five runs of this; eight doubled the
/// nodes and lost in self-play, 59-78-19 when it was stopped; against PentaZen eight scored -3.0 %
/// (standard error 4.7 %) and six -6.6 % (5.8 %). With the three-ply limit five scored +4.0 %
/// (3.3 %) against three runs of four answers, then -3.8 % (3.7 %): +0.1 % (2.6 %) over both.
/// Self-play misjudges this number.)
const QS_MAX_DEFENCES: usize = 4;
/// Root moves from this index on may be reduced. (From 8: bench nodes +4 %, 80-104-8 against
/// PentaZen at 1 s, -2.8 % (standard error 2.7 %) against eight control runs: not kept.)
const ROOT_LMR_FROM: usize = 4;
/// Nodes without a table move are searched one ply shallower from this depth. (From 3: bench
/// nodes -41 %, 80-99-13 against PentaZen at 1 s, -1.5 % (standard error 3.2 %) against six
/// control runs: not kept; from 6 the bench barely changes.)
const IIR_DEPTH: i32 = 4;
/// Reverse futility pruning: depths and margin per ply. (To depth 8: bench nodes -4 %, 78-96-18
/// against PentaZen at 1 s, -0.9 % (standard error 2.6 %) slot by slot against ten control runs;
/// margin 40: bench nodes +12 %, 85-94-13, +1.4 % (3.4 %): neither kept. Margin 90 grows the bench
/// by 73 % and depth 4 by 11 %: not played.)
const RFP_DEPTH: i32 = 6;
const RFP_MARGIN: i32 = 60;
/// Bound of a history score. (1 << 15, so that old successes fade sooner: bench nodes -21 %,
/// 298-307-39 against PentaZen at 1 s over eight runs, +2.9 % (standard error 2.0 %) slot by slot
/// against fourteen control runs, and +0.4 % (3.2 %) for its last four against their round's two
/// controls: short of the rule's two standard errors, not kept; nor in the stack described at
/// `root::SAFETY_NODES`.)
const HISTORY_MAX: i32 = 1 << 20;
/// Singular extension: least depth, margin per ply. (From depth 5: bench nodes +14 %, 298-322-36
/// against PentaZen at 1 s over seven runs in two rounds, +1.7 % (standard error 2.6 %) slot by
/// slot against thirteen control runs of this: not kept. From depth 5 with killers reduced a ply
/// less and the table's score in the pruning tests, all three together: bench nodes +35 %,
/// 135-162-15 over four runs on a new machine, -0.6 % (3.1 %) against four control runs.)
const SE_DEPTH: i32 = 6;
/// The margin per ply. (8: bench nodes +39 %, 76-102-14 against PentaZen, -3.3 % (3.9 %) against
/// eight control runs: not kept.)
const SE_MARGIN: i32 = 16;

/// What every thread of one search shares.
pub struct Shared<'a> {
    pub tt: &'a Table,
    /// The caller's stop flag.
    pub stop: &'a AtomicBool,
    /// Set by the main thread (or the clock) to end every thread.
    pub abort: AtomicBool,
    /// Nodes of all threads, their solvers' included (flushed periodically).
    pub nodes: AtomicU64,
    pub deadline: Option<Instant>,
    pub max_nodes: Option<u64>,
    /// Call the threat solver at leaves.
    pub leaf_vcf: bool,
    /// The root moves the helpers are to search, and how often the main thread has changed
    /// them: helpers start before the root's threat checks have pruned the list, and the guard
    /// takes moves off it during the search.
    root_list: Mutex<Vec<RootMove>>,
    root_epoch: AtomicU32,
}

impl Shared<'_> {
    pub fn new<'a>(tt: &'a Table, stop: &'a AtomicBool) -> Shared<'a> {
        Shared {
            tt,
            stop,
            abort: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            deadline: None,
            max_nodes: None,
            leaf_vcf: true,
            root_list: Mutex::new(Vec::new()),
            root_epoch: AtomicU32::new(0),
        }
    }

    /// Gives the helpers `w`'s root list; `w` takes the new epoch, so that its own search is not
    /// cut short. Helpers searching the old list stop at their next poll.
    pub fn post_root_moves(&self, w: &mut Worker) {
        let mut list = self.root_list.lock().unwrap_or_else(|e| e.into_inner());
        list.clone_from(&w.root_moves);
        w.epoch = self.root_epoch.fetch_add(1, Ordering::Relaxed) + 1;
    }

    /// The latest root list posted, when `w` searches an older one: the worker takes it and
    /// its epoch.
    pub fn take_root_moves(&self, w: &mut Worker) -> bool {
        let list = self.root_list.lock().unwrap_or_else(|e| e.into_inner());
        let epoch = self.root_epoch.load(Ordering::Relaxed);
        if epoch == w.epoch {
            return false;
        }
        w.root_moves.clone_from(&list);
        w.epoch = epoch;
        true
    }
}

/// The shape of a search tree, counted by the main thread for `bench`: how often the nodes that
/// search moves cut, and how early in their move order, apart for quiet nodes (every candidate
/// listed) and defence nodes (the answers to an open three); and how many leaves lie below the
/// horizon, in the quiescence's answers. Deterministic, like the node count: a change to the
/// move order shows here before any game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TreeStats {
    /// Quiet nodes, then defence nodes, that searched moves (the root not counted).
    pub nodes: [u64; 2],
    /// Their cuts by the move that cut: the first, the second or third, a later one.
    pub cuts: [[u64; 3]; 2],
    /// Leaves (nodes searched at depth 0 or below), and those below depth 0.
    pub leaves: u64,
    pub below_horizon: u64,
}

impl TreeStats {
    pub fn add(&mut self, o: &TreeStats) {
        for k in 0..2 {
            self.nodes[k] += o.nodes[k];
            for j in 0..3 {
                self.cuts[k][j] += o.cuts[k][j];
            }
        }
        self.leaves += o.leaves;
        self.below_horizon += o.below_horizon;
    }
}

/// A root move with its score in the current iteration and its principal variation.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub pos: Pos,
    /// Score in the iteration under way (-INF until searched above alpha).
    pub score: i32,
    /// Score of the last completed iteration.
    pub prev: i32,
    pub pv: Vec<Pos>,
}

/// The first square of a set.
#[inline]
fn first(b: &Bits) -> Pos {
    let mut out = Pos::NONE;
    for_each_bit(b, |p| {
        if out.is_none() {
            out = p;
        }
    });
    out
}

pub struct Worker<'s> {
    pub pos: Position,
    solver: &'s mut Solver,
    history: Vec<[i32; 2]>,
    killers: [[Pos; 2]; MAX_PLY],
    moves: Vec<Vec<ScoredMove>>,
    marks: Marks,
    /// Alpha-beta nodes of this worker.
    pub nodes: u64,
    /// The solver's visits when the worker started: what it visits since (leaf VCF, the guard's
    /// checks) counts in the shared node total.
    solver_visits0: u64,
    flushed: u64,
    pub aborted: bool,
    pv: Vec<[Pos; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    poll_mask: u64,
    lmr: Vec<[u8; 64]>,
    pub root_moves: Vec<RootMove>,
    pub seldepth: usize,
    /// The depth of the root's iteration under way (see the answers to an open three in
    /// `search`).
    root_depth: i32,
    /// The move a singular search leaves out at each ply.
    excluded: [Pos; MAX_PLY],
    pub stats: TreeStats,
    /// The root list's epoch this worker searches (`Shared::post_root_moves`).
    epoch: u32,
}

impl<'s> Worker<'s> {
    pub fn new(pos: Position, solver: &'s mut Solver, root_moves: Vec<RootMove>) -> Worker<'s> {
        let mut lmr = vec![[0u8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (i, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (i as f64).ln() / 1.6) as u8;
            }
        }
        let solver_visits0 = solver.visits();
        Worker {
            pos,
            solver,
            solver_visits0,
            // Each search learns its history afresh. (The last search's history carried into
            // the next, halved, scored 75-103-14 against PentaZen at 1 s over two runs beside
            // two control runs of this, 79-102-11: -1.3 %, standard error 3.7 %, slot by slot;
            // not kept. Likely, not measured: the table, kept between moves, already orders
            // the first iterations.)
            history: vec![[0; 2]; NCELLS],
            killers: [[Pos::NONE; 2]; MAX_PLY],
            moves: (0..MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            marks: Marks::default(),
            nodes: 0,
            flushed: 0,
            aborted: false,
            pv: vec![[Pos::NONE; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            poll_mask: 1023,
            lmr,
            root_moves,
            seldepth: 0,
            root_depth: 0,
            excluded: [Pos::NONE; MAX_PLY],
            stats: TreeStats::default(),
            epoch: 0,
        }
    }

    /// The root position and the threat solver, for checks between iterations (the position
    /// is at the root then).
    pub fn root_parts(&mut self) -> (&mut Position, &mut Solver) {
        (&mut self.pos, &mut *self.solver)
    }

    /// Polls the stop flag, the clock and the node limit more often when the node limit is small.
    pub fn set_poll_interval(&mut self, max_nodes: Option<u64>) {
        self.poll_mask = match max_nodes {
            Some(n) if n < 1 << 16 => 15,
            _ => 1023,
        };
    }

    /// Nodes visited by this worker: its alpha-beta nodes and its solver's.
    pub fn counted(&self) -> u64 {
        self.nodes + (self.solver.visits() - self.solver_visits0)
    }

    fn poll(&mut self, sh: &Shared) {
        let total = self.flush(sh);
        if sh.stop.load(Ordering::Relaxed)
            || sh.abort.load(Ordering::Relaxed)
            || sh.root_epoch.load(Ordering::Relaxed) != self.epoch
        {
            self.aborted = true;
        } else if sh.deadline.is_some_and(|d| Instant::now() >= d)
            || sh.max_nodes.is_some_and(|m| total >= m)
        {
            self.aborted = true;
            sh.abort.store(true, Ordering::Relaxed);
        }
    }

    /// Adds the nodes not yet counted to the shared counter; returns its new total.
    pub fn flush(&mut self, sh: &Shared) -> u64 {
        let counted = self.counted();
        let added = counted - self.flushed;
        self.flushed = counted;
        sh.nodes.fetch_add(added, Ordering::Relaxed) + added
    }

    /// Whether `c`'s open threes are sure to stay open: renju black's may turn false (a foul on
    /// the square that would make the four), so its four-threes and three-threes win nothing
    /// for certain. The quick check and the leaf both rely on this.
    #[inline]
    fn threes_hold(&self, c: Color) -> bool {
        !(self.pos.renju() && c == Color::Black)
    }

    #[inline]
    fn set_pv(&mut self, ply: usize, m: Pos) {
        self.pv[ply][ply] = m;
        self.pv_len[ply] = ply + 1;
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, m: Pos) {
        self.pv[ply][ply] = m;
        let n = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..n {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = n;
    }

    /// Searches the root moves to `depth` within (alpha, beta); records scores and PVs in
    /// `root_moves` and re-sorts them (best first).
    pub fn root(&mut self, sh: &Shared, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        self.root_depth = depth;
        for rm in self.root_moves.iter_mut() {
            rm.score = -INF;
        }
        let mut best = -INF;
        for i in 0..self.root_moves.len() {
            let m = self.root_moves[i].pos;
            self.nodes += 1;
            self.pos.make(m);
            let mut score;
            if i == 0 {
                score = -self.search(sh, -beta, -alpha, depth - 1, 1, true);
            } else {
                // Late quiet root moves are searched shallower first, like inner ones.
                let r = if depth >= 3 && i >= ROOT_LMR_FROM && !self.root_tactical(m) {
                    (self.lmr[depth.min(63) as usize][i.min(63)] as i32).min(depth - 1)
                } else {
                    0
                };
                score = -self.search(sh, -alpha - 1, -alpha, depth - 1 - r, 1, false);
                if score > alpha && r > 0 && !self.aborted {
                    score = -self.search(sh, -alpha - 1, -alpha, depth - 1, 1, false);
                }
                if score > alpha && score < beta && !self.aborted {
                    score = -self.search(sh, -beta, -alpha, depth - 1, 1, true);
                }
            }
            self.pos.unmake();
            // (A move kept on its null-window fail high when the clock cuts its re-search off:
            // see tried.md, "The root's unfinished iteration".)
            if self.aborted {
                break;
            }
            best = best.max(score);
            if score > alpha {
                let rm = &mut self.root_moves[i];
                rm.score = score;
                rm.pv.clear();
                rm.pv.push(m);
                let n = self.pv_len[1].max(1);
                rm.pv.extend_from_slice(&self.pv[1][1..n]);
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        // Stable: moves that failed low keep their order from the previous iteration. (Ordered
        // instead by the nodes their subtrees took, as chess engines once did: bench nodes
        // +9.4 %, depth in 1 s 9.29 against 9.54 for this, one after the other beside a match: not
        // played.)
        self.root_moves.sort_by_key(|m| std::cmp::Reverse(m.score));
        best
    }

    /// Whether a root move makes or stops a strong threat (never reduced). Called with the
    /// move made: the shapes are read on the board before it.
    fn root_tactical(&mut self, m: Pos) -> bool {
        self.pos.unmake();
        let me = self.pos.side_to_move();
        let t = self.pos.shape(m, me) >= Shape::Three
            || self.pos.shape(m, me.opposite()) >= Shape::Three;
        self.pos.make(m);
        t
    }

    /// Moves a history score towards `bonus`'s sign; the pull shrinks as the score nears
    /// its bound, so old successes fade rather than saturate.
    #[inline]
    fn reward(&mut self, m: Pos, c: Color, bonus: i32) {
        let h = &mut self.history[m.index()][c.index()];
        *h += bonus - (*h as i64 * bonus.abs() as i64 / HISTORY_MAX as i64) as i32;
    }

    fn search(
        &mut self,
        sh: &Shared,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes & self.poll_mask == 0 {
            self.poll(sh);
        }
        if self.aborted {
            return 0;
        }
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply);
        let me = self.pos.side_to_move();
        let opp = me.opposite();
        let p = ply as i32;

        // Quick win/loss check: a five to make, fives to block, an open four to make.
        if self.pos.count(me, Shape::Five) > 0 {
            if pv_node {
                let f = first(self.pos.fives(me));
                self.set_pv(ply, f);
            }
            return MATE - p - 1;
        }
        let opp_fives = self.pos.count(opp, Shape::Five);
        if opp_fives >= 2 {
            return -(MATE - p - 2);
        }
        if ply >= MAX_PLY - 8 {
            return self.pos.evaluate();
        }
        if opp_fives == 1 {
            let b = first(self.pos.fives(opp));
            if !self.pos.is_legal(b, me) {
                return -(MATE - p - 2);
            }
            // A forced reply costs no depth.
            self.pos.make(b);
            let score = -self.search(sh, -beta, -alpha, depth, ply + 1, pv_node);
            self.pos.unmake();
            if pv_node {
                self.update_pv(ply, b);
            }
            return score;
        }
        if let Some(f) = legal_flex4(&mut self.pos, me) {
            if pv_node {
                self.set_pv(ply, f);
            }
            return MATE - p - 3;
        }
        // With no four anywhere for the opponent, a four-three wins in five plies and a
        // three-three in seven (renju black excepted: its threes may turn false).
        if self.threes_hold(me)
            && self.pos.count(opp, Shape::Four) == 0
            && self.pos.count(opp, Shape::FourThree) == 0
            && self.pos.count(opp, Shape::Flex4) == 0
        {
            if self.pos.count(me, Shape::FourThree) > 0 {
                return MATE - p - 5;
            }
            if self.pos.count(me, Shape::ThreeThree) > 0 {
                return MATE - p - 7;
            }
        }
        if self.pos.board().is_full() {
            return 0;
        }
        if depth <= 0 {
            return self.leaf(sh, alpha, beta, depth, ply);
        }

        alpha = alpha.max(-(MATE - p));
        beta = beta.min(MATE - p - 1);
        if alpha >= beta {
            return alpha;
        }
        let key = self.pos.board().hash();
        let tte = sh.tt.probe(key, ply);
        let excluded = self.excluded[ply];
        let singular_search = !excluded.is_none();
        let mut tt_move = None;
        let eval;
        if let Some(e) = tte {
            tt_move = e.best;
            if !pv_node
                && !singular_search
                && e.depth >= depth
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.score >= beta,
                    Bound::Upper => e.score <= alpha,
                }
            {
                return e.score;
            }
            eval = e.eval;
        } else {
            eval = self.pos.evaluate();
        }
        // (The table's score in place of this in the pruning tests below, and a correction
        // history: see tried.md, "The node's evaluation".)

        // Reverse futility: far enough above beta, with no threat of the opponent's to meet,
        // the node is not searched. (Chess's "improving" rule: see tried.md.)
        if !pv_node
            && !singular_search
            && depth <= RFP_DEPTH
            && eval - RFP_MARGIN * depth >= beta
            && beta.abs() < MATE_BOUND
            && self.pos.count(opp, Shape::Flex4) == 0
            && self.pos.count(opp, Shape::FourThree) == 0
            && self.pos.count(opp, Shape::ThreeThree) == 0
        {
            return eval;
        }

        // Null move: when even passing keeps us above beta and the opponent has no threat that a
        // free move would turn into a win. (ProbCut, other reductions and conditions, and a
        // threatened-node rule on a mate fail low: see tried.md, "Null move".)
        if !pv_node
            && !singular_search
            && depth >= 3
            && eval >= beta
            && beta.abs() < MATE_BOUND
            && self.pos.count(opp, Shape::Flex4) == 0
            && self.pos.count(opp, Shape::FourThree) == 0
            && self.pos.count(opp, Shape::Four) == 0
        {
            let r = 3 + depth / 4;
            let b = self.pos.board_mut();
            b.set_side_to_move(opp);
            let score = -self.search(sh, -beta, -beta + 1, depth - 1 - r, ply + 1, false);
            self.pos.board_mut().set_side_to_move(me);
            if self.aborted {
                return 0;
            }
            if score >= beta && score < MATE_BOUND {
                return score;
            }
        }

        // Internal iterative reduction: a node the table knows nothing about is searched a ply
        // shallower (its first move is a guess). (Rapfi's form for PV nodes: see tried.md.)
        let depth = if tt_move.is_none() && depth >= IIR_DEPTH {
            depth - 1
        } else {
            depth
        };
        // Singular extension: when every other move stays well below the table move's score on a
        // shallower search, the table move is searched a ply deeper; when they reach beta anyway,
        // the node is cut; when the table move alone is above beta, it is searched a ply less.
        // (It scored +4.2 %, standard error 2.3 %, against PentaZen; variants: see tried.md.)
        let mut tt_ext = 0;
        if let (Some(e), Some(tm)) = (tte, tt_move) {
            if !singular_search
                && depth >= SE_DEPTH
                && (ply as i32) < self.root_depth
                && e.depth >= depth - 3
                && e.bound != Bound::Upper
                && e.score.abs() < MATE_BOUND
            {
                let sbeta = e.score - SE_MARGIN * depth;
                self.excluded[ply] = tm;
                let v = self.search(sh, sbeta - 1, sbeta, (depth - 1) / 2, ply, false);
                self.excluded[ply] = Pos::NONE;
                if self.aborted {
                    return 0;
                }
                if v < sbeta {
                    tt_ext = 1;
                } else if sbeta >= beta {
                    return sbeta;
                } else if e.score >= beta {
                    tt_ext = -1;
                }
            }
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let kind = generate(&mut self.pos, &mut moves, &mut self.marks);
        // The node's slot in `TreeStats` (a lost node searches no move and is not counted).
        let stats_kind = (kind == Kind::Defence) as usize;
        if singular_search {
            moves.retain(|m| m.pos != excluded);
        }
        if moves.is_empty() {
            self.moves[ply] = moves;
            // A singular search with no other move fails low: the table move is alone.
            return if singular_search {
                alpha
            } else if kind == Kind::Lost {
                -(MATE - p - 4)
            } else {
                eval
            };
        }
        // Weak squares (little for either side next to the best one) are not searched away
        // from the principal variation. (Other floors: see tried.md, "Weak squares".)
        if !pv_node && kind == Kind::Quiet && moves.len() > 8 {
            let pos = &self.pos;
            let top = moves
                .iter()
                .map(|m| weight(pos, m.pos, me))
                .max()
                .unwrap_or(0);
            let floor = top / 8;
            moves.retain(|m| weight(pos, m.pos, me) >= floor || Some(m.pos) == tt_move);
        }
        let killers = self.killers[ply];
        for m in moves.iter_mut() {
            if Some(m.pos) == tt_move {
                m.score += 1 << 24;
            } else if m.pos == killers[0] || m.pos == killers[1] {
                m.score += 300;
            }
            m.score += self.history[m.pos.index()][me.index()] / 64;
            // (A second history, other bonuses and divisors: see tried.md, "Move-ordering
            // bonuses".)
        }

        // (Rapfi's fail-high reduction, three looks over rounds 98-104, closed: see tried.md.)
        let old_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let n = moves.len();
        let lmp = 3 + depth as usize;
        // The answers to an opponent's open three cost no depth in the first plies (as many as
        // the iteration's depth), as the block of a four costs none: a sequence of threes then
        // costs its attacker a ply a threat, as one of fours does, and the iterations reach
        // such VCTs sooner (see the test `answers_to_an_open_three_cost_no_depth`).
        // At every ply the bench's alpha-beta nodes grew 64 times; within the iteration's
        // depth, 7.7 times.
        let new_depth = if kind == Kind::Defence && (ply as i32) < self.root_depth {
            depth
        } else {
            depth - 1
        };
        for i in 0..n {
            // The best remaining move: highest score, then lowest square. One integer key per
            // move (no two squares tie) keeps this scan branch-free.
            let key = |m: &ScoredMove| (m.score as i64) << 16 | (0xffff - m.pos.index() as i64);
            let j = moves[i..]
                .iter()
                .enumerate()
                .max_by_key(|(_, m)| key(m))
                .map_or(i, |(k, _)| i + k);
            moves.swap(i, j);
            let m = moves[i].pos;
            let my_shape = self.pos.shape(m, me);
            // Our open threes and fours and the blocks of the opponent's winning shapes are
            // neither reduced nor pruned: the threat sequences the search must see run on them.
            let tactical = my_shape >= Shape::Three
                || self.pos.shape(m, opp) >= Shape::FourThree
                || Some(m) == tt_move;
            // (Extensions of these moves, and fewer or more of them exempt: see tried.md,
            // "Moves exempt from reductions and pruning".)
            if !pv_node
                && kind == Kind::Quiet
                && !tactical
                && i > 0
                && depth <= 3
                && eval + 90 * depth <= alpha
                && best > -MATE_BOUND
            {
                continue;
            }
            // (History pruning and PentaZen's move caps: see tried.md, "Pruning in the move
            // loop".)
            if !pv_node
                && kind == Kind::Quiet
                && !tactical
                && i >= lmp
                && depth <= 8
                && best > -MATE_BOUND
            {
                break;
            }
            let new_depth = if Some(m) == tt_move {
                new_depth + tt_ext
            } else {
                new_depth
            };
            self.pos.make(m);
            let mut score;
            if i == 0 {
                score = -self.search(sh, -beta, -alpha, new_depth, ply + 1, pv_node);
            } else {
                let r = if depth >= 3 && i >= 2 && !tactical {
                    let r = self.lmr[depth.min(63) as usize][i.min(63)] as i32
                        + if pv_node { 0 } else { 1 };
                    // (By history, cut nodes, former PV nodes, killers, a threatening table
                    // move: see tried.md, "Late-move reductions".)
                    r.min(new_depth)
                } else {
                    0
                };
                score = -self.search(sh, -alpha - 1, -alpha, new_depth - r, ply + 1, false);
                // (A re-search deeper or shallower than planned: see tried.md.)
                if score > alpha && r > 0 {
                    score = -self.search(sh, -alpha - 1, -alpha, new_depth, ply + 1, false);
                }
                if score > alpha && score < beta && pv_node {
                    score = -self.search(sh, -beta, -alpha, new_depth, ply + 1, true);
                }
            }
            self.pos.unmake();
            if self.aborted {
                self.moves[ply] = moves;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        let at = if i == 0 {
                            0
                        } else if i < 3 {
                            1
                        } else {
                            2
                        };
                        self.stats.cuts[stats_kind][at] += 1;
                        if !tactical {
                            let k = &mut self.killers[ply];
                            if k[0] != m {
                                k[1] = k[0];
                                k[0] = m;
                            }
                        }
                        let bonus = depth * depth * 16;
                        self.reward(m, me, bonus);
                        // The moves ahead of it in the list did not cut: they lose what it gains.
                        for q in moves[..i].iter().map(|m| m.pos) {
                            self.reward(q, me, -bonus);
                        }
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        self.stats.nodes[stats_kind] += 1;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if !singular_search {
            sh.tt.store(key, best_move, best, eval, depth, bound, ply);
        }
        best
    }

    /// Leaf (quiescence): a short VCF search by the threat solver when the side to move has a
    /// four to start one; then an opponent's open three or four-three square is answered by
    /// search (the best few replies, a few plies deep) and anything else stands pat on the
    /// evaluation. Our fours are not searched here: the solver has tried them, and searching
    /// them for score (up to eight deep) took most of the nodes and hid the deep wins the main
    /// search should see.
    fn leaf(&mut self, sh: &Shared, mut alpha: i32, beta: i32, depth: i32, ply: usize) -> i32 {
        self.stats.leaves += 1;
        self.stats.below_horizon += (depth < 0) as u64;
        let me = self.pos.side_to_move();
        let has_fours = self.pos.count(me, Shape::Four) + self.pos.count(me, Shape::FourThree) > 0;
        // (Below depth 0 too: see tried.md, "The leaf".)
        if sh.leaf_vcf && has_fours && depth == 0 {
            let lim = ThreatLimits {
                max_nodes: LEAF_VCF_NODES,
                deadline: sh.deadline,
            };
            // The leaf knows its four squares, so the solver need not scan the board for
            // them; renju black's are scanned, since the position leaves out forbidden ones.
            let pos = &mut self.pos;
            let proof = self.solver.on_leaf_table(|solver| {
                if pos.renju() && me == Color::Black {
                    solver.vcf(pos.board_mut(), &lim)
                } else {
                    let fours = pos.any_fours(me);
                    solver.vcf_with_fours(pos.board_mut(), iter_bits(&fours), &lim)
                }
            });
            if let Proof::Win(line) = proof {
                return MATE - ply as i32 - line.len().max(1) as i32;
            }
        }
        let opp = me.opposite();
        // A four-three square of the opponent's wins as surely as an open three once we have no
        // four left (the quick check one ply on scores it as a win), so it is answered by search
        // too; renju black's are left to the evaluation, as in that check (its threes may turn
        // false). (Its double-three squares as well: see tried.md, "The leaf".)
        let threat = self.pos.count(opp, Shape::Flex4) > 0
            || (self.pos.count(opp, Shape::FourThree) > 0 && self.threes_hold(opp));
        // (An opponent's VCF sought here as if we passed: see tried.md, "The leaf".)
        if !threat || -depth >= QS_MAX_DEFENCE {
            return self.pos.evaluate();
        }
        // (These lines through the transposition table: see tried.md, "The leaf".)
        // The opponent's threat must be answered: no standing pat.
        let mut moves = std::mem::take(&mut self.moves[ply]);
        if generate(&mut self.pos, &mut moves, &mut self.marks) == Kind::Lost {
            self.moves[ply] = moves;
            return -(MATE - ply as i32 - 4);
        }
        // The best few, best first (no two squares tie, so this is the order a full sort
        // gives, without sorting the rest).
        if moves.len() > QS_MAX_DEFENCES {
            moves.select_nth_unstable_by(QS_MAX_DEFENCES - 1, ScoredMove::best_first);
            moves.truncate(QS_MAX_DEFENCES);
        }
        moves.sort_unstable_by(ScoredMove::best_first);
        let mut best = -INF;
        for &ScoredMove { pos: m, .. } in moves.iter() {
            if !self.pos.is_legal(m, me) {
                continue;
            }
            self.pos.make(m);
            let score = -self.search(sh, -beta, -alpha, depth - 1, ply + 1, false);
            self.pos.unmake();
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        best
    }
}

/// Root moves in ordering order (best first), ties broken by square.
pub fn root_moves_from(mut moves: Vec<ScoredMove>) -> Vec<RootMove> {
    moves.sort_by(ScoredMove::best_first);
    moves
        .into_iter()
        .map(|m| RootMove {
            pos: m.pos,
            score: -INF,
            prev: -INF,
            pv: vec![m.pos],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Rule};

    /// Freestyle, white to move, no four for white anywhere; black has a four-three square at
    /// (3, 3) (a four along y = 3 closed by white at (7, 3), an open three along x = 3) and,
    /// with `second`, another at (11, 11), far away.
    fn four_three_position(second: bool) -> Position {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        let mut black = vec![(4, 3), (5, 3), (6, 3), (3, 4), (3, 5)];
        let mut white = vec![(7, 3), (14, 0), (14, 4), (14, 8), (0, 10), (0, 14)];
        if second {
            black.extend([(10, 11), (9, 11), (8, 11), (11, 10), (11, 9)]);
            white.extend([(7, 11), (5, 14), (10, 14), (14, 13)]);
        }
        for (x, y) in black {
            b.place(Pos::new(x, y), Color::Black).unwrap();
        }
        for (x, y) in white {
            b.place(Pos::new(x, y), Color::White).unwrap();
        }
        b.set_side_to_move(Color::White);
        Position::new(&b)
    }

    /// The leaf's score and the alpha-beta nodes it searched.
    fn leaf_search(pos: Position) -> (i32, u64) {
        let tt = Table::new(1 << 20);
        let stop = AtomicBool::new(false);
        let sh = Shared::new(&tt, &stop);
        let mut solver = Solver::new();
        let mut w = Worker::new(pos, &mut solver, Vec::new());
        let score = w.leaf(&sh, -INF, INF, 0, 0);
        (score, w.nodes)
    }

    fn leaf_score(pos: Position) -> i32 {
        leaf_search(pos).0
    }

    /// The best move of a search of `pos` at ply 1 to `depth` with `excluded` left out at that
    /// ply, and whether the table holds an entry for `pos` afterwards.
    fn best_leaving_out(pos: &Position, excluded: Pos, depth: i32) -> (Pos, bool) {
        let tt = Table::new(1 << 20);
        let stop = AtomicBool::new(false);
        let sh = Shared::new(&tt, &stop);
        let mut solver = Solver::new();
        let mut w = Worker::new(pos.clone(), &mut solver, Vec::new());
        w.excluded[1] = excluded;
        w.search(&sh, -INF, INF, depth, 1, true);
        let stored = tt.probe(pos.board().hash(), 1).is_some();
        (w.pv[1][1], stored)
    }

    #[test]
    fn a_singular_search_leaves_its_move_out_and_stores_nothing() {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for (x, y) in [(7, 7), (8, 8), (6, 8)] {
            b.place(Pos::new(x, y), Color::Black).unwrap();
        }
        for (x, y) in [(8, 7), (7, 9), (9, 6)] {
            b.place(Pos::new(x, y), Color::White).unwrap();
        }
        b.set_side_to_move(Color::Black);
        let pos = Position::new(&b);
        let (best, stored) = best_leaving_out(&pos, Pos::NONE, 5);
        assert!(!best.is_none());
        assert!(stored);
        // Searched again, a singular search of `best`'s (the other moves only): another move,
        // and the node's entry is left alone (it would describe a position without `best`).
        let (other, stored) = best_leaving_out(&pos, best, 5);
        assert!(!other.is_none());
        assert_ne!(other, best);
        assert!(!stored);
    }

    #[test]
    fn leaf_answers_a_four_three_instead_of_standing_pat() {
        let one = four_three_position(false);
        assert_eq!(one.count(Color::Black, Shape::FourThree), 1);
        assert_eq!(one.count(Color::Black, Shape::Flex4), 0);
        assert_eq!(one.count(Color::White, Shape::Four), 0);
        // One four-three: taking its square defends, so the leaf's score is no loss.
        assert!(leaf_score(one) > -MATE_BOUND);
        // Two far apart: white cannot block both, and the leaf searches its answers instead of
        // standing pat. (Until the thirty-eighth round it also scored the loss here: its best
        // four answers were blocks, each met by the quick check one ply on. With the fitted
        // ordering one of them is a move that gives white two four squares, which stops that
        // check from scoring black's four-three as a win, and the leaf ends on the evaluation.)
        let two = four_three_position(true);
        assert_eq!(two.count(Color::Black, Shape::FourThree), 2);
        assert_eq!(two.count(Color::Black, Shape::Flex4), 0);
        assert_eq!(two.count(Color::White, Shape::Four), 0);
        let stand_pat = two.evaluate();
        let (score, nodes) = leaf_search(two);
        assert!(nodes >= 4, "{nodes} nodes");
        assert_ne!(score, stand_pat);
    }
}
