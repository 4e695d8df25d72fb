//! The referee: plays one game between two engines over the protocol, keeps both clocks with
//! the managers' semantics, and judges every move with the board's rules. Any fault (no OK to
//! START, crash, hang, late move, a line that is not a move, an ERROR reply, an off-board or
//! occupied square, black's forbidden move in renju) loses the game, with the reason recorded.

use super::engine::{EngineProcess, Launch, Line, WaitError};
use super::output::IoLog;
use crate::board::{Board, Color, MoveClass, Pos, Rule};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `time_left` value that means "no match limit" (Piskvork and c-gomoku-cli send INT32_MAX).
pub const UNLIMITED: i64 = 2_147_483_647;

/// Time control of one engine (milliseconds; 0 means no limit of that kind).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// Thinking time per game (`timeout_match`).
    pub match_ms: u64,
    /// Time per move (`timeout_turn`).
    pub turn_ms: u64,
    /// Added to the match clock after each of the engine's moves.
    pub increment_ms: u64,
}

/// Everything needed to start and configure one engine.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    pub name: String,
    pub launch: Launch,
    pub tc: TimeControl,
    /// Lateness allowed beyond the budget before a move counts as a time loss.
    pub tolerance: Duration,
    /// How long START may take to be answered with OK.
    pub start_timeout: Duration,
    /// `INFO max_memory` in bytes (0: no limit).
    pub max_memory: u64,
    pub threads: Option<u64>,
    pub depth: Option<u64>,
    pub nodes: Option<u64>,
    /// Extra `INFO key value` lines sent after the standard ones.
    pub options: Vec<(String, String)>,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(Color),
    Draw,
}

impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2` (black's score first).
    pub fn score_text(&self) -> &'static str {
        match self {
            Outcome::Win(Color::Black) => "1-0",
            Outcome::Win(Color::White) => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameResult {
    pub outcome: Outcome,
    /// Why it ended, in words, naming the engine at fault if any.
    pub reason: String,
    /// Every move including the opening, with the milliseconds the mover took (0 for opening
    /// stones).
    pub moves: Vec<(Pos, u64)>,
    /// Lost on time (hang or late move).
    pub by_time: bool,
    /// Lost by a fault rather than on the board (time, crash, protocol, illegal square).
    pub forfeit: bool,
    /// Per colour: the engine misbehaved and must be restarted before its next game.
    pub faulty: [bool; 2],
}

/// The game's board and limits.
#[derive(Clone, Copy, Debug)]
pub struct GameSetup<'a> {
    pub width: usize,
    pub height: usize,
    pub rule: Rule,
    pub opening: &'a [Pos],
    /// Draw once this many stones are on the board (0: only a full board draws).
    pub draw_after: usize,
    /// Skip lines that are not moves, ERROR/UNKNOWN included, while the clock runs
    /// (c-gomoku-cli, GomocupJudge) instead of scoring them as a loss (Piskvork).
    pub lenient: bool,
}

/// One side of the game: its configuration, its process slot (started here if empty), and the
/// tag and log used for the I/O log.
pub struct Seat<'a> {
    pub spec: &'a EngineSpec,
    pub process: &'a mut Option<EngineProcess>,
    pub tag: &'a str,
    pub log: Option<Arc<IoLog>>,
}

/// What an engine printed while it was expected to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Move(i64, i64),
    /// MESSAGE, DEBUG or an empty line: shown to users, not an answer.
    Chatter,
    /// ERROR or UNKNOWN: the engine refuses the command.
    Refusal(String),
    /// Anything else.
    Garbage(String),
}

/// Sorts a line: `x,y` (spaces around the numbers allowed) is a move.
pub fn classify_reply(text: &str) -> Reply {
    let t = text.trim();
    let first = t
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_uppercase();
    if t.is_empty() || first == "MESSAGE" || first == "DEBUG" {
        return Reply::Chatter;
    }
    if first == "ERROR" || first == "UNKNOWN" {
        return Reply::Refusal(t.to_string());
    }
    if let Some((a, b)) = t.split_once(',') {
        if let (Ok(x), Ok(y)) = (a.trim().parse::<i64>(), b.trim().parse::<i64>()) {
            return Reply::Move(x, y);
        }
    }
    Reply::Garbage(t.to_string())
}

struct Side<'a> {
    seat: Seat<'a>,
    colour: Color,
    /// How many board moves this engine has been told about (None: nothing sent this game).
    known: Option<usize>,
    /// Match clock in ms; may go negative within the tolerance.
    time_left: i64,
}

impl Side<'_> {
    fn label(&self) -> String {
        format!(
            "{} ({})",
            self.seat.spec.name,
            self.colour.to_string().to_lowercase()
        )
    }
}

enum Fault {
    /// The engine loses: reason, lost on time, restart it.
    Lose(String, bool),
    Stopped,
}

/// Plays one game; `seats` are black then white. None when `stop` was raised (the game is
/// abandoned and not scored).
pub fn play_game(setup: &GameSetup, seats: [Seat; 2], stop: &AtomicBool) -> Option<GameResult> {
    let mut board = Board::new(setup.width, setup.height, setup.rule).ok()?;
    let mut moves = Vec::new();
    for &p in setup.opening {
        // Openings were checked when loaded; a bad one here is a programming error upstream.
        board.play(p).ok()?;
        moves.push((p, 0));
    }
    let [b, w] = seats;
    let mut sides = [b, w].map(|seat| Side {
        time_left: if seat.spec.tc.match_ms > 0 {
            seat.spec.tc.match_ms as i64
        } else {
            UNLIMITED
        },
        seat,
        colour: Color::Black,
        known: None,
    });
    sides[1].colour = Color::White;

    let result = |outcome, reason: String, moves: Vec<(Pos, u64)>| GameResult {
        outcome,
        reason,
        moves,
        by_time: false,
        forfeit: false,
        faulty: [false, false],
    };
    let forfeit = |loser: Color, reason: String, by_time: bool, moves: Vec<(Pos, u64)>| {
        let mut faulty = [false, false];
        faulty[loser.index()] = true;
        GameResult {
            outcome: Outcome::Win(loser.opposite()),
            reason,
            moves,
            by_time,
            forfeit: true,
            faulty,
        }
    };

    for side in sides.iter_mut() {
        match start(side, setup, stop) {
            Ok(()) => {}
            Err(Fault::Stopped) => return None,
            Err(Fault::Lose(why, t)) => {
                let reason = format!("{}: {why}", side.label());
                return Some(forfeit(side.colour, reason, t, moves));
            }
        }
    }

    loop {
        if board.is_full() {
            return Some(result(Outcome::Draw, "board full".into(), moves));
        }
        if setup.draw_after > 0 && board.move_count() >= setup.draw_after {
            let why = format!("move limit {} reached", setup.draw_after);
            return Some(result(Outcome::Draw, why, moves));
        }
        let colour = board.side_to_move();
        let side = &mut sides[colour.index()];
        let (x, y, ms) = match ask_move(side, &board, setup.lenient, stop) {
            Ok(m) => m,
            Err(Fault::Stopped) => return None,
            Err(Fault::Lose(why, t)) => {
                let reason = format!("{}: {why}", side.label());
                return Some(forfeit(colour, reason, t, moves));
            }
        };
        let label = side.label();
        let p = match board.pos(x, y) {
            Ok(p) => p,
            Err(_) => {
                let why = format!("{label}: played {x},{y}, off the board");
                return Some(forfeit(colour, why, false, moves));
            }
        };
        match board.classify_move(p, colour) {
            Err(_) => {
                let why = format!("{label}: played {x},{y}, an occupied square");
                return Some(forfeit(colour, why, false, moves));
            }
            Ok(MoveClass::Forbidden) => {
                moves.push((p, ms));
                let why = format!("{label}: played {x},{y}, a forbidden point (renju foul)");
                let mut r = result(Outcome::Win(colour.opposite()), why, moves);
                r.forfeit = false;
                return Some(r);
            }
            Ok(MoveClass::Win) => {
                board.make(p);
                moves.push((p, ms));
                let why = format!("{label}: five at {x},{y}");
                return Some(result(Outcome::Win(colour), why, moves));
            }
            Ok(MoveClass::Normal) => {
                board.make(p);
                moves.push((p, ms));
                side.known = Some(board.move_count());
            }
        }
    }
}

/// Makes sure the process runs (restarting a dead one), sends START and the INFO settings.
/// An engine kept from the last game that refuses START (or fails to answer it) is started
/// afresh and asked once more: some engines drop a command that arrives while they finish
/// their last search (Rapfi then reads `START 15` as the command `15`), and a new process has
/// no such state.
fn start(side: &mut Side, setup: &GameSetup, stop: &AtomicBool) -> Result<(), Fault> {
    let spec = side.seat.spec;
    let mut reused = false;
    if let Some(p) = side.seat.process.as_mut() {
        p.drain();
        if matches!(p.recv(Some(Instant::now()), stop), Err(WaitError::Closed)) {
            // Died since its last game: start a fresh one.
            *side.seat.process = None;
        } else {
            reused = true;
        }
    }
    let cmd = if setup.width == setup.height {
        format!("START {}", setup.width)
    } else {
        format!("RECTSTART {},{}", setup.width, setup.height)
    };
    loop {
        if side.seat.process.is_none() {
            let p = EngineProcess::spawn(
                &spec.launch,
                &spec.name,
                side.seat.tag,
                side.seat.log.clone(),
            )
            .map_err(|e| Fault::Lose(format!("could not start: {e:#}"), false))?;
            *side.seat.process = Some(p);
        }
        let p = side.seat.process.as_mut().expect("just started");
        match send_start(p, &cmd, spec.start_timeout, stop) {
            Err(Fault::Lose(_, _)) if reused => {
                reused = false;
                // Dropping the process ends it (END, then its process group is killed).
                *side.seat.process = None;
            }
            r => break r?,
        }
    }
    let p = side.seat.process.as_mut().expect("started");
    let tc = spec.tc;
    let mut info = Vec::new();
    if tc.turn_ms > 0 {
        info.push(format!("INFO timeout_turn {}", tc.turn_ms));
    }
    info.push(format!("INFO timeout_match {}", tc.match_ms));
    info.push(format!("INFO max_memory {}", spec.max_memory));
    info.push("INFO game_type 1".to_string());
    info.push(format!("INFO rule {}", setup.rule.code()));
    if let Some(t) = spec.threads {
        info.push(format!("INFO thread_num {t}"));
    }
    if let Some(d) = spec.depth {
        info.push(format!("INFO max_depth {d}"));
    }
    if let Some(n) = spec.nodes {
        info.push(format!("INFO max_node {n}"));
    }
    for (k, v) in &spec.options {
        info.push(format!("INFO {k} {v}"));
    }
    for l in info {
        p.send(&l)
            .map_err(|_| crashed(p, "during the INFO settings"))?;
    }
    Ok(())
}

/// Sends START (or RECTSTART) and waits for the engine's OK.
fn send_start(
    p: &mut EngineProcess,
    cmd: &str,
    timeout: Duration,
    stop: &AtomicBool,
) -> Result<(), Fault> {
    p.send(cmd).map_err(|_| crashed(p, "before START"))?;
    let deadline = Instant::now() + timeout;
    loop {
        match p.recv(Some(deadline), stop) {
            Ok(line) => {
                let t = line.text.trim();
                if t.eq_ignore_ascii_case("OK") {
                    return Ok(());
                }
                if let Reply::Refusal(r) = classify_reply(t) {
                    return Err(Fault::Lose(format!("refused {cmd}: '{r}'"), false));
                }
            }
            Err(WaitError::Stopped) => return Err(Fault::Stopped),
            Err(WaitError::Closed) => return Err(crashed(p, "before answering START")),
            Err(WaitError::Timeout) => {
                return Err(Fault::Lose(
                    format!("no OK to {cmd} within {} ms", timeout.as_millis()),
                    false,
                ))
            }
        }
    }
}

fn crashed(p: &mut EngineProcess, when: &str) -> Fault {
    let status = p
        .exit_status()
        .map(|s| format!(" ({s})"))
        .unwrap_or_default();
    Fault::Lose(format!("crashed {when}{status}"), false)
}

/// Sends the clock and the position (BEGIN, BOARD or TURN) and waits for the move.
fn ask_move(
    side: &mut Side,
    board: &Board,
    lenient: bool,
    stop: &AtomicBool,
) -> Result<(i64, i64, u64), Fault> {
    let spec = side.seat.spec;
    let tc = spec.tc;
    let tol = spec.tolerance.as_millis() as i64;
    let colour = side.colour;
    let p = side.seat.process.as_mut().expect("started");
    // Lines printed while it was not its turn (late chatter) are no answer to this move.
    p.drain();
    let mut cmds = vec![format!("INFO time_left {}", side.time_left)];
    let n = board.move_count();
    match side.known {
        Some(k) if k + 1 == n => {
            let last = board.last_move().expect("a move was played");
            cmds.push(format!("TURN {},{}", last.x(), last.y()));
        }
        _ if n == 0 => cmds.push("BEGIN".into()),
        _ => {
            cmds.push("BOARD".into());
            for &(q, c) in board.history() {
                let f = if c == colour { 1 } else { 2 };
                cmds.push(format!("{},{},{f}", q.x(), q.y()));
            }
            cmds.push("DONE".into());
        }
    }
    for c in &cmds {
        p.send(c)
            .map_err(|_| crashed(p, "while its move was asked"))?;
    }
    let sent = Instant::now();
    // Budget: the per-move limit and the match clock, whichever is smaller; the engine may
    // exceed it by the tolerance (Piskvork: late when elapsed - tolerance > limit).
    let mut budget: Option<i64> = None;
    if tc.turn_ms > 0 {
        budget = Some(tc.turn_ms as i64);
    }
    if tc.match_ms > 0 {
        budget = Some(budget.map_or(side.time_left, |b| b.min(side.time_left)));
    }
    let limit = budget.map(|b| b + tol);
    if let Some(l) = limit {
        if l <= 0 {
            return Err(Fault::Lose("out of match time".into(), true));
        }
    }
    let deadline = limit.map(|l| sent + Duration::from_millis(l as u64));
    let line: Line = loop {
        match p.recv(deadline, stop) {
            Ok(line) => match classify_reply(&line.text) {
                Reply::Chatter => continue,
                Reply::Move(..) => break line,
                Reply::Refusal(_) | Reply::Garbage(_) if lenient => continue,
                Reply::Refusal(r) => {
                    return Err(Fault::Lose(
                        format!("answered '{r}' instead of a move"),
                        false,
                    ))
                }
                Reply::Garbage(g) => {
                    let g: String = g.chars().take(80).collect();
                    return Err(Fault::Lose(
                        format!("answered '{g}', which is not a move"),
                        false,
                    ));
                }
            },
            Err(WaitError::Stopped) => return Err(Fault::Stopped),
            Err(WaitError::Closed) => return Err(crashed(p, "while thinking")),
            Err(WaitError::Timeout) => {
                let l = limit.unwrap_or(0);
                return Err(Fault::Lose(
                    format!(
                        "no move within {l} ms (budget {} ms + tolerance {tol} ms)",
                        budget.unwrap_or(0)
                    ),
                    true,
                ));
            }
        }
    };
    let elapsed = line.at.saturating_duration_since(sent).as_millis() as i64;
    if let Some(l) = limit {
        if elapsed > l {
            return Err(Fault::Lose(
                format!("moved after {elapsed} ms, limit {l} ms with tolerance"),
                true,
            ));
        }
    }
    if tc.match_ms > 0 {
        side.time_left = side.time_left - elapsed + tc.increment_ms as i64;
    }
    let Reply::Move(x, y) = classify_reply(&line.text) else {
        unreachable!("loop breaks on moves only")
    };
    Ok((x, y, elapsed.max(0) as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_engine_lines() {
        assert_eq!(classify_reply("7,8"), Reply::Move(7, 8));
        assert_eq!(classify_reply(" 7 , 8 \r"), Reply::Move(7, 8));
        assert_eq!(classify_reply("-1,20"), Reply::Move(-1, 20));
        assert_eq!(classify_reply("MESSAGE depth 3"), Reply::Chatter);
        assert_eq!(classify_reply("message"), Reply::Chatter);
        assert_eq!(classify_reply("DEBUG x"), Reply::Chatter);
        assert_eq!(classify_reply(""), Reply::Chatter);
        assert!(matches!(classify_reply("ERROR no"), Reply::Refusal(_)));
        assert!(matches!(classify_reply("UNKNOWN"), Reply::Refusal(_)));
        assert!(matches!(classify_reply("7,8,1"), Reply::Garbage(_)));
        assert!(matches!(classify_reply("hello"), Reply::Garbage(_)));
        assert!(matches!(classify_reply("7 8"), Reply::Garbage(_)));
        assert!(matches!(classify_reply("SUGGEST 7,8"), Reply::Garbage(_)));
    }

    #[test]
    fn score_text_is_from_black() {
        assert_eq!(Outcome::Win(Color::Black).score_text(), "1-0");
        assert_eq!(Outcome::Win(Color::White).score_text(), "0-1");
        assert_eq!(Outcome::Draw.score_text(), "1/2-1/2");
    }
}
