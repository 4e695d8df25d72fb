//! The session: INFO settings (kept across games), the current game (a `Board`, the YXBLOCK
//! list), the open block, and the hand-over of work to the searcher thread. Every command is
//! checked completely before anything changes, so a line answered with ERROR leaves the state
//! exactly as it was. Rules are the board's, moves are the engine's.

use super::command::{self, BlockKind, Command, Info};
use super::input::Event;
use super::jobs::{self, Job, Outcome};
use super::output::{quote, Reply, Writer};
use crate::board::{Board, BoardError, Color, Pos, Rule, MAX_SIZE, MIN_SIZE};
use crate::search::{Engine, Limits};
use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Lines a block may hold before we stop keeping them (a 32x32 board has 1024 squares).
const MAX_BLOCK_LINES: usize = 4096;
/// `time_left` at or above this means "no match limit" (Piskvork and c-gomoku-cli send
/// INT32_MAX).
const UNLIMITED_MS: i64 = i32::MAX as i64;
/// Per-move time when no INFO gave any limit (Gomocup fastgame's per-move limit).
const DEFAULT_TURN_MS: u64 = 5_000;

/// Settings from INFO: they survive START and RESTART.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    pub timeout_turn: Option<u64>,
    pub timeout_match: Option<u64>,
    pub time_left: Option<i64>,
    /// Bytes; 0 = the engine's default.
    pub max_memory: u64,
    /// Yixin-Board's `hash_size` in KiB; 0 = not given.
    pub hash_kib: u64,
    /// 0 = not given (the engine's default).
    pub threads: usize,
    pub max_depth: Option<u32>,
    pub max_nodes: Option<u64>,
    pub game_type: i64,
    pub rule: Rule,
    pub folder: Option<String>,
}

impl Settings {
    /// Applies one INFO item. Only an unplayable rule is an error.
    fn apply(&mut self, info: Info) -> Result<(), String> {
        match info {
            // A negative per-move limit is nonsense; "move now" is the safe reading.
            Info::TimeoutTurn(t) => self.timeout_turn = Some(t.max(0) as u64),
            Info::TimeoutMatch(t) => self.timeout_match = (t > 0).then_some(t as u64),
            Info::TimeLeft(t) => self.time_left = Some(t),
            Info::MaxMemory(b) => self.max_memory = b,
            Info::GameType(g) => self.game_type = g,
            Info::Rule(code) => self.rule = Rule::from_code(code).map_err(|e| e.to_string())?,
            Info::Folder(f) => self.folder = Some(f),
            Info::MaxDepth(d) => {
                self.max_depth = (d > 0).then(|| d.min(u32::MAX as i64) as u32);
            }
            Info::MaxNode(n) => self.max_nodes = (n > 0).then_some(n as u64),
            Info::ThreadNum(n) => self.threads = n.clamp(0, 1024) as usize,
            Info::HashSize(k) => self.hash_kib = k.clamp(0, 1 << 40) as u64,
            Info::Ignored(why) => log::debug!("{why}"),
        }
        Ok(())
    }

    /// Search limits for the next move.
    fn limits(&self) -> Limits {
        let time_left = self.time_left.filter(|&t| t < UNLIMITED_MS);
        // A manager always sends some limit; a person typing commands may send none, and
        // would then wait forever. Without any time, depth or node limit, think 5 s a move.
        let unbounded = self.timeout_turn.is_none()
            && self.timeout_match.is_none()
            && time_left.is_none()
            && self.max_depth.is_none()
            && self.max_nodes.is_none();
        Limits {
            turn_ms: if unbounded {
                Some(DEFAULT_TURN_MS)
            } else {
                self.timeout_turn
            },
            match_ms: self.timeout_match,
            time_left_ms: time_left,
            max_depth: self.max_depth,
            max_nodes: self.max_nodes,
            excluded: Vec::new(),
            since: None,
        }
    }

    /// Memory for the engine in bytes: hash_size when given, else max_memory (0 = default).
    fn memory_bytes(&self) -> u64 {
        if self.hash_kib > 0 {
            self.hash_kib.saturating_mul(1024)
        } else {
            self.max_memory
        }
    }
}

/// A block being read (BOARD … DONE and its kin).
struct OpenBlock {
    kind: BlockKind,
    name: String,
    lines: Vec<String>,
    overflow: bool,
}

/// Work handed to the searcher thread.
pub struct Task {
    board: Board,
    limits: Limits,
    job: Job,
}

/// The answer of the searcher thread.
pub struct Finished {
    outcome: Outcome,
    /// The engine panicked and was replaced by a fresh one (settings must be sent again).
    engine_reset: bool,
}

/// Whether the session goes on.
#[derive(PartialEq, Eq)]
enum Flow {
    Go,
    Quit,
}

pub struct Session {
    settings: Settings,
    board: Option<Board>,
    blocked: Vec<Pos>,
    engine: Arc<Mutex<Engine>>,
    applied_memory: Option<u64>,
    applied_threads: Option<usize>,
    out: Arc<Writer>,
    stop: Arc<AtomicBool>,
    tasks: Sender<Task>,
    /// Some while the searcher works; the watchdog deadline, if the limits give one.
    busy: Option<Option<Instant>>,
    deferred: VecDeque<(String, Instant)>,
    block: Option<OpenBlock>,
}

fn lock(engine: &Mutex<Engine>) -> std::sync::MutexGuard<'_, Engine> {
    match engine.lock() {
        Ok(e) => e,
        Err(poisoned) => poisoned.into_inner(),
    }
}

/// The searcher thread: runs tasks one at a time and reports each as an event.
pub fn searcher(
    engine: Arc<Mutex<Engine>>,
    stop: Arc<AtomicBool>,
    out: Arc<Writer>,
    tasks: Receiver<Task>,
    events: Sender<Event<Finished>>,
) {
    while let Ok(task) = tasks.recv() {
        let mut e = lock(&engine);
        // A bug in the engine must not cost the game: in builds that unwind, a panic becomes
        // "no move found" (the session then plays a legal fallback) and a fresh engine.
        let run = std::panic::catch_unwind(AssertUnwindSafe(|| {
            jobs::run(&mut e, &task.board, &task.limits, &task.job, &stop, &out)
        }));
        let (outcome, engine_reset) = match run {
            Ok(outcome) => (outcome, false),
            Err(_) => {
                *e = Engine::new();
                let outcome = match task.job {
                    Job::Move | Job::NBest(_) => Outcome::Move(None),
                    _ => Outcome::Reply(Reply::Error("the search failed".into())),
                };
                (outcome, true)
            }
        };
        drop(e);
        let done = Finished {
            outcome,
            engine_reset,
        };
        if events.send(Event::Done(done)).is_err() {
            return;
        }
    }
}

fn no_game() -> Reply {
    Reply::Error("no game started (send START first)".into())
}

/// A board of `width` x `height`, or the ERROR text (names the supported sizes, 20 included,
/// which Piskvork looks for to offer a 20x20 board).
fn new_board(width: i64, height: i64, rule: Rule) -> Result<Board, String> {
    let ok = |n: i64| (MIN_SIZE as i64..=MAX_SIZE as i64).contains(&n);
    if !ok(width) || !ok(height) {
        return Err(BoardError::BadSize { width, height }.to_string());
    }
    Board::new(width as usize, height as usize, rule).map_err(|e| e.to_string())
}

/// A stone position from BOARD/YXBOARD lines, or what was wrong with them. Stones are
/// replayed alternately from black, in the order listed for each colour, so a block in move
/// order (what every manager sends) reproduces the game's history.
fn position_from(like: &Board, name: &str, lines: &[String]) -> Result<(Board, usize), String> {
    let mut seen = vec![false; MAX_SIZE * MAX_SIZE];
    let (mut own, mut opp, mut neutral) = (Vec::new(), Vec::new(), 0);
    for line in lines {
        let bad = || format!("{name} line {} is not x,y,field", quote(line));
        let (x, y, f) = command::parse_stone(line).ok_or_else(bad)?;
        let f = f.ok_or_else(bad)?;
        let p = like
            .pos(x, y)
            .map_err(|e| format!("{name} line {}: {e}", quote(line)))?;
        let i = p.y() * MAX_SIZE + p.x();
        if seen[i] {
            return Err(format!("{name} lists square {p} twice"));
        }
        seen[i] = true;
        match f {
            1 => own.push(p),
            2 => opp.push(p),
            3 => neutral += 1,
            _ => {
                return Err(format!(
                    "{name} line {}: field must be 1, 2 or 3",
                    quote(line)
                ))
            }
        }
    }
    let (black, white) = if own.len() == opp.len() {
        (own, opp)
    } else if opp.len() == own.len() + 1 {
        (opp, own)
    } else {
        return Err(format!(
            "{name} with {} own and {} opponent stones cannot arise from alternating play",
            own.len(),
            opp.len()
        ));
    };
    let mut b = Board::new(like.width(), like.height(), like.rule()).map_err(|e| e.to_string())?;
    for (i, &p) in black.iter().enumerate() {
        b.play(p).map_err(|e| e.to_string())?;
        if let Some(&q) = white.get(i) {
            b.play(q).map_err(|e| e.to_string())?;
        }
    }
    Ok((b, neutral))
}

/// Squares from `x,y` (or `x,y,f`) lines: on the board and listed once.
fn squares_from(like: &Board, name: &str, lines: &[String]) -> Result<Vec<Pos>, String> {
    let mut list: Vec<Pos> = Vec::new();
    for line in lines {
        let (x, y, _) = command::parse_stone(line)
            .ok_or_else(|| format!("{name} line {} is not x,y", quote(line)))?;
        let p = like
            .pos(x, y)
            .map_err(|e| format!("{name} line {}: {e}", quote(line)))?;
        if list.contains(&p) {
            return Err(format!("{name} lists square {p} twice"));
        }
        list.push(p);
    }
    Ok(list)
}

impl Session {
    pub fn new(out: Arc<Writer>, tasks: Sender<Task>, engine: Arc<Mutex<Engine>>) -> Session {
        Session {
            settings: Settings::default(),
            board: None,
            blocked: Vec::new(),
            engine,
            applied_memory: None,
            applied_threads: None,
            out,
            stop: Arc::new(AtomicBool::new(false)),
            tasks,
            busy: None,
            deferred: VecDeque::new(),
            block: None,
        }
    }

    /// The stop flag the searcher thread watches.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    fn send(&self, r: Reply) {
        self.out.send(&r);
    }

    /// Runs until END or end of input.
    pub fn run(mut self, events: Receiver<Event<Finished>>) {
        loop {
            while self.busy.is_none() {
                let Some((line, _)) = self.deferred.pop_front() else {
                    break;
                };
                // Only piped scripts queue commands; each one's clock starts when its turn
                // comes, or every move after the first would be out of time on arrival.
                let at = Instant::now();
                if self.line(&line, at) == Flow::Quit {
                    return self.quit();
                }
            }
            let event = match self.busy {
                Some(Some(deadline)) => {
                    let wait = deadline.saturating_duration_since(Instant::now());
                    match events.recv_timeout(wait) {
                        Ok(ev) => ev,
                        Err(RecvTimeoutError::Timeout) => {
                            // The engine should have stopped by itself; make it.
                            log::debug!("watchdog: time is up, stopping the search");
                            self.stop.store(true, Ordering::SeqCst);
                            self.busy = Some(None);
                            continue;
                        }
                        Err(RecvTimeoutError::Disconnected) => return self.quit(),
                    }
                }
                _ => match events.recv() {
                    Ok(ev) => ev,
                    Err(_) => return self.quit(),
                },
            };
            match event {
                // End of input is END, after whatever a piped script queued before it.
                Event::Eof if self.deferred.is_empty() => return self.quit(),
                Event::Eof => self.deferred.push_back(("END".into(), Instant::now())),
                Event::Done(f) => {
                    self.busy = None;
                    if f.engine_reset {
                        self.applied_memory = None;
                        self.applied_threads = None;
                    }
                    self.finish(f.outcome);
                }
                Event::Line(line, at) => {
                    if self.busy.is_some() {
                        if self.line_while_busy(line, at) == Flow::Quit {
                            return self.quit();
                        }
                    } else if self.line(&line, at) == Flow::Quit {
                        return self.quit();
                    }
                }
            }
        }
    }

    /// END or end of input: stop any search and print nothing more.
    fn quit(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.out.close();
    }

    /// While the searcher works only END, YXSTOP and `INFO timeout_turn 0` act at once; every
    /// other line waits its turn, so commands are still handled in order. A manager sends an
    /// interrupt only while it waits for our reply, never behind other commands: with lines
    /// already queued the input is a script piped in whole, and its END waits its turn too.
    fn line_while_busy(&mut self, line: String, at: Instant) -> Flow {
        if !self.deferred.is_empty() {
            self.deferred.push_back((line, at));
            return Flow::Go;
        }
        if command::is_end(&line) {
            return Flow::Quit;
        }
        match command::parse(&line) {
            Ok(Command::Stop) => {
                self.stop.store(true, Ordering::SeqCst);
                return Flow::Go;
            }
            Ok(Command::Info(Info::TimeoutTurn(t))) if t <= 0 => {
                self.stop.store(true, Ordering::SeqCst);
            }
            _ => {}
        }
        self.deferred.push_back((line, at));
        Flow::Go
    }

    /// Handles one line while idle.
    fn line(&mut self, line: &str, at: Instant) -> Flow {
        if let Some(block) = &mut self.block {
            if command::is_end(line) {
                return Flow::Quit;
            }
            if command::is_done(line) {
                let block = self.block.take().expect("open block");
                // The request is complete only now: a person typing the block spends no move time.
                self.finish_block(block, at);
            } else if block.lines.len() < MAX_BLOCK_LINES {
                block.lines.push(line.trim().to_string());
            } else {
                block.overflow = true;
            }
            return Flow::Go;
        }
        match command::parse(line) {
            Err(e) => self.send(Reply::Error(e.to_string())),
            Ok(Command::End) => return Flow::Quit,
            Ok(cmd) => self.execute(cmd, at),
        }
        Flow::Go
    }

    fn execute(&mut self, cmd: Command, at: Instant) {
        match cmd {
            Command::Start { width, height } | Command::RectStart { width, height } => {
                match new_board(width, height, self.settings.rule) {
                    Ok(b) => {
                        self.new_game(b);
                        self.send(Reply::Ok);
                    }
                    Err(e) => self.send(Reply::Error(e)),
                }
            }
            Command::Restart => match &self.board {
                None => self.send(no_game()),
                Some(b) => {
                    let fresh = new_board(b.width() as i64, b.height() as i64, self.settings.rule);
                    match fresh {
                        Ok(b) => {
                            self.new_game(b);
                            self.send(Reply::Ok);
                        }
                        Err(e) => self.send(Reply::Error(e)),
                    }
                }
            },
            Command::Begin => match &self.board {
                None => self.send(no_game()),
                Some(b) if b.move_count() > 0 => self.send(Reply::Error(
                    "BEGIN needs an empty board (send RESTART, or BOARD with the stones)".into(),
                )),
                Some(b) => {
                    let b = b.clone();
                    self.start(Job::Move, b, at);
                }
            },
            Command::Turn(x, y) => self.turn(x, y, at),
            Command::Play(x, y) => self.play(x, y),
            Command::Takeback(x, y) => self.takeback(x, y),
            Command::Block { kind, name } => {
                self.block = Some(OpenBlock {
                    kind,
                    name,
                    lines: Vec::new(),
                    overflow: false,
                });
            }
            Command::End => {}
            Command::About => self.send(Reply::About),
            Command::Info(info) => self.info(info),
            Command::Stop => {}
            Command::YxShowForbid => match &self.board {
                None => self.send(no_game()),
                Some(b) => {
                    let list = if b.side_to_move() == Color::Black {
                        b.forbidden_points()
                    } else {
                        Vec::new()
                    };
                    self.send(Reply::Forbid(list));
                }
            },
            Command::YxHashClear => lock(&self.engine).clear(),
            Command::YxNBest(n) => match &self.board {
                None => self.send(no_game()),
                Some(_) if n < 1 => self.send(Reply::Error(format!(
                    "YXNBEST needs a count of at least 1, got {n}"
                ))),
                Some(b) if b.is_full() => self.send(Reply::Error("the board is full".into())),
                Some(b) => {
                    let empty = b.width() * b.height() - b.move_count();
                    let n = (n as usize).min(empty);
                    let b = b.clone();
                    self.start(Job::NBest(n), b, at);
                }
            },
            Command::YxBalance { two, bias } => match &self.board {
                None => self.send(no_game()),
                Some(b) if b.width() * b.height() - b.move_count() < 2 => {
                    self.send(Reply::Error("the board is too full to balance".into()))
                }
                Some(b) => {
                    let b = b.clone();
                    self.start(Job::Balance { two, bias }, b, at);
                }
            },
            Command::YxBlockReset => self.blocked.clear(),
            Command::YxShowInfo => {
                let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
                self.send(Reply::Message(format!("INFO MAX_THREAD_NUM {threads}")));
                // As Rapfi: the largest hash_size is given as a power of two (2^21 KiB).
                self.send(Reply::Message("INFO MAX_HASH_SIZE 21".into()));
            }
            Command::Unknown(word) => {
                self.send(Reply::Unknown(format!("unknown command {}", quote(&word))))
            }
        }
    }

    fn new_game(&mut self, b: Board) {
        self.board = Some(b);
        self.blocked.clear();
        lock(&self.engine).clear();
    }

    fn info(&mut self, info: Info) {
        if let Err(e) = self.settings.apply(info) {
            self.send(Reply::Error(e));
            return;
        }
        if let Some(b) = &mut self.board {
            if b.rule() != self.settings.rule {
                b.set_rule(self.settings.rule);
            }
        }
    }

    fn turn(&mut self, x: i64, y: i64, at: Instant) {
        let Some(board) = &self.board else {
            return self.send(no_game());
        };
        let p = match board.pos(x, y) {
            Ok(p) => p,
            Err(e) => return self.send(Reply::Error(e.to_string())),
        };
        let mut b = board.clone();
        if let Err(e) = b.play(p) {
            return self.send(Reply::Error(e.to_string()));
        }
        let full = b.is_full();
        self.board = Some(b.clone());
        if full {
            self.send(Reply::Error(BoardError::Full.to_string()));
        } else {
            self.start(Job::Move, b, at);
        }
    }

    /// PLAY answers a SUGGEST we never send; commit the square for the side to move and echo it.
    fn play(&mut self, x: i64, y: i64) {
        let Some(board) = &mut self.board else {
            return self.send(no_game());
        };
        let p = match board.pos(x, y) {
            Ok(p) => p,
            Err(e) => return self.send(Reply::Error(e.to_string())),
        };
        if !board.is_empty(p) {
            return self.send(Reply::Error(
                BoardError::Occupied { x: p.x(), y: p.y() }.to_string(),
            ));
        }
        let me = board.side_to_move();
        if !board.is_legal(p, me) {
            return self.send(Reply::Error(format!("{p} is forbidden for black")));
        }
        match board.play(p) {
            Ok(()) => self.send(Reply::Move(p)),
            Err(e) => self.send(Reply::Error(e.to_string())),
        }
    }

    /// Take-backs go newest first (Piskvork's order), matching the board's history.
    fn takeback(&mut self, x: i64, y: i64) {
        let Some(board) = &mut self.board else {
            return self.send(no_game());
        };
        let p = match board.pos(x, y) {
            Ok(p) => p,
            Err(e) => return self.send(Reply::Error(e.to_string())),
        };
        if board.is_empty(p) {
            return self.send(Reply::Error(
                BoardError::Empty { x: p.x(), y: p.y() }.to_string(),
            ));
        }
        if board.last_move() != Some(p) {
            return self.send(Reply::Error(format!(
                "{p} is not the last move (take back the newest stone first)"
            )));
        }
        match board.undo() {
            Ok(_) => self.send(Reply::Ok),
            Err(e) => self.send(Reply::Error(e.to_string())),
        }
    }

    fn finish_block(&mut self, block: OpenBlock, done: Instant) {
        let name = block.name.to_ascii_uppercase();
        if block.kind == BlockKind::Unsupported {
            return self.send(Reply::Unknown(format!(
                "unknown command {}",
                quote(&block.name)
            )));
        }
        let Some(board) = &self.board else {
            return self.send(no_game());
        };
        if block.overflow {
            return self.send(Reply::Error(format!(
                "{name} block longer than {MAX_BLOCK_LINES} lines"
            )));
        }
        match block.kind {
            BlockKind::Board | BlockKind::YxBoard => {
                let (b, neutral) = match position_from(board, &name, &block.lines) {
                    Ok(r) => r,
                    Err(e) => return self.send(Reply::Error(e)),
                };
                if neutral > 0 {
                    self.send(Reply::Message(format!(
                        "{name}: {neutral} field-3 square(s) of a continuous game skipped; Gorin treats them as empty"
                    )));
                }
                self.board = Some(b.clone());
                if block.kind == BlockKind::YxBoard {
                    return;
                }
                if b.is_full() {
                    self.send(Reply::Error(BoardError::Full.to_string()));
                } else {
                    self.start(Job::Move, b, done);
                }
            }
            BlockKind::Swap2Board => {
                let stones = match squares_from(board, &name, &block.lines) {
                    Ok(s) => s,
                    Err(e) => return self.send(Reply::Error(e)),
                };
                if ![0, 3, 5].contains(&stones.len()) {
                    return self.send(Reply::Error(format!(
                        "SWAP2BOARD needs 0, 3 or 5 stones, got {}",
                        stones.len()
                    )));
                }
                let fresh = new_board(
                    board.width() as i64,
                    board.height() as i64,
                    self.settings.rule,
                );
                match fresh {
                    Ok(b) => self.start(Job::Swap2(stones), b, done),
                    Err(e) => self.send(Reply::Error(e)),
                }
            }
            BlockKind::YxBlock | BlockKind::YxBlockUndo => {
                let list = match squares_from(board, &name, &block.lines) {
                    Ok(s) => s,
                    Err(e) => return self.send(Reply::Error(e)),
                };
                if block.kind == BlockKind::YxBlock {
                    for p in list {
                        if !self.blocked.contains(&p) {
                            self.blocked.push(p);
                        }
                    }
                } else {
                    self.blocked.retain(|p| !list.contains(p));
                }
            }
            BlockKind::Unsupported => {}
        }
    }

    /// Hands a job to the searcher thread.
    fn start(&mut self, job: Job, board: Board, received: Instant) {
        {
            let mut e = lock(&self.engine);
            let mem = self.settings.memory_bytes();
            if self.applied_memory != Some(mem) {
                e.set_memory(mem);
                self.applied_memory = Some(mem);
            }
            // Without INFO thread_num the engine keeps its own default.
            let threads = self.settings.threads;
            if threads > 0 && self.applied_threads != Some(threads) {
                e.set_threads(threads);
                self.applied_threads = Some(threads);
            }
        }
        let mut limits = self.settings.limits();
        limits.since = Some(received);
        let open: Vec<Pos> = self
            .blocked
            .iter()
            .copied()
            .filter(|&p| board.is_empty(p))
            .collect();
        let empty = board.width() * board.height() - board.move_count();
        // If every empty square is blocked, the block cannot be honoured: ignore it.
        if open.len() < empty {
            limits.excluded = open;
        }
        let budget = match (limits.turn_ms, limits.time_left_ms) {
            (Some(t), Some(l)) => Some(t.min(l.max(0) as u64)),
            (Some(t), None) => Some(t),
            (None, Some(l)) => Some(l.max(0) as u64),
            (None, None) => None,
        };
        let deadline = budget.map(|ms| received + Duration::from_millis(ms));
        self.stop.store(false, Ordering::SeqCst);
        let task = Task { board, limits, job };
        if self.tasks.send(task).is_err() {
            self.send(Reply::Error("the searcher thread has gone".into()));
            return;
        }
        self.busy = Some(deadline);
    }

    /// Turns a job's outcome into the reply; moves are checked against the rules and played.
    fn finish(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Reply(r) => self.send(r),
            Outcome::Move(candidate) => {
                let Some(board) = &mut self.board else {
                    return self.send(no_game());
                };
                let excluded = self.blocked.clone();
                match legal_move(board, candidate, &excluded) {
                    Some(p) => {
                        if board.play(p).is_ok() {
                            self.send(Reply::Move(p));
                        } else {
                            self.send(Reply::Error(format!("cannot play {p}")));
                        }
                    }
                    None => self.send(Reply::Error("no legal move".into())),
                }
            }
        }
    }
}

/// The engine's move if it is legal and not blocked; otherwise the legal square nearest the
/// last move (unblocked ones first). The manager must never see an illegal move.
fn legal_move(board: &mut Board, candidate: Option<Pos>, blocked: &[Pos]) -> Option<Pos> {
    let me = board.side_to_move();
    if let Some(p) = candidate {
        if board.contains(p) && board.is_legal(p, me) && !blocked.contains(&p) {
            return Some(p);
        }
        log::warn!("engine proposed {p:?}, which is not playable here");
    }
    let anchor = board
        .last_move()
        .unwrap_or(Pos::new(board.width() / 2, board.height() / 2));
    let mut squares: Vec<Pos> = board.squares().filter(|&p| board.is_empty(p)).collect();
    squares.sort_by_key(|&p| (blocked.contains(&p), p.distance(anchor), p));
    squares.into_iter().find(|&p| board.is_legal(p, me))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn board_blocks_give_colours_by_count() {
        let like = Board::new(15, 15, Rule::Freestyle).unwrap();
        let (b, n) = position_from(&like, "BOARD", &lines(&["7,7,2", "8,8,1", "9,9,2"])).unwrap();
        assert_eq!(n, 0);
        assert_eq!(b.side_to_move(), Color::White);
        assert_eq!(b.stone(Pos::new(7, 7)), Some(Color::Black));
        assert_eq!(b.last_move(), Some(Pos::new(9, 9)));
        let (b, _) = position_from(&like, "BOARD", &lines(&["7,7,1", "8,8,2"])).unwrap();
        assert_eq!(b.side_to_move(), Color::Black);
        assert_eq!(b.stone(Pos::new(7, 7)), Some(Color::Black));
    }

    #[test]
    fn a_default_turn_time_only_when_nothing_bounds_the_search() {
        let mut s = Settings::default();
        assert_eq!(s.limits().turn_ms, Some(DEFAULT_TURN_MS));
        s.time_left = Some(UNLIMITED_MS);
        assert_eq!(s.limits().turn_ms, Some(DEFAULT_TURN_MS));
        s.max_depth = Some(6);
        assert_eq!(s.limits().turn_ms, None);
        let mut s = Settings {
            time_left: Some(60_000),
            ..Settings::default()
        };
        assert_eq!(s.limits().turn_ms, None);
        s.time_left = None;
        s.timeout_turn = Some(1_000);
        assert_eq!(s.limits().turn_ms, Some(1_000));
    }

    #[test]
    fn impossible_boards_are_refused() {
        let like = Board::new(15, 15, Rule::Freestyle).unwrap();
        for bad in [
            vec!["7,7,1", "8,8,1"],
            vec!["7,7,2", "8,8,2"],
            vec!["7,7,1", "7,7,2"],
            vec!["15,7,1"],
            vec!["7,7,4"],
            vec!["7,7"],
            vec!["x"],
        ] {
            assert!(
                position_from(&like, "BOARD", &lines(&bad)).is_err(),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn fallback_moves_are_legal() {
        let mut b = Board::new(5, 5, Rule::Freestyle).unwrap();
        b.play(Pos::new(2, 2)).unwrap();
        let p = legal_move(&mut b, Some(Pos::new(2, 2)), &[]).unwrap();
        assert!(b.is_empty(p));
        let blocked: Vec<Pos> = b.squares().filter(|&q| q != Pos::new(0, 0)).collect();
        assert_eq!(legal_move(&mut b, None, &blocked), Some(Pos::new(0, 0)));
    }
}
