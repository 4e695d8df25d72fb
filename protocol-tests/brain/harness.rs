//! A small manager for tests: spawns `pbrain-gorin` with pipes, writes lines, reads lines with
//! timeouts (a reader thread per stream), checks that every stdout line is a protocol line and
//! that stderr stays empty.

use gorin::board::{Board, Color, Pos, Rule};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a reply may take before a test fails (generous: CI has two busy cores).
pub const REPLY: Duration = Duration::from_secs(20);

pub struct Brain {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<Vec<u8>>>,
    /// Every stdout line so far.
    pub seen: Vec<String>,
}

/// Whether `line` is a line a brain may print (protocol.md §4 and §11).
pub fn is_protocol_line(line: &str) -> bool {
    let text_after = |kw: &str| {
        line.strip_prefix(kw)
            .is_some_and(|rest| rest.starts_with(' ') && !rest.trim().is_empty())
    };
    if line == "OK" || line == "SWAP" {
        return true;
    }
    if text_after("MESSAGE") || text_after("ERROR") || text_after("UNKNOWN") {
        return true;
    }
    if line.starts_with("name=\"") {
        return true;
    }
    if let Some(rest) = line.strip_prefix("FORBID ") {
        let digits = rest.strip_suffix('.').unwrap_or("x");
        return digits.len() % 4 == 0 && digits.bytes().all(|b| b.is_ascii_digit());
    }
    let squares: Vec<&str> = line.split(' ').collect();
    squares.len() <= 3 && squares.iter().all(|s| parse_move(s).is_some())
}

/// `x,y` exactly as a manager accepts it: two plain non-negative integers and a comma.
pub fn parse_move(s: &str) -> Option<(usize, usize)> {
    let (x, y) = s.split_once(',')?;
    let ok = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) && t.len() <= 3;
    if !ok(x) || !ok(y) {
        return None;
    }
    Some((x.parse().ok()?, y.parse().ok()?))
}

impl Brain {
    /// A brain with quick test limits (100 ms a move, 32 MiB): without them the engine would
    /// think as long as it likes. Tests that set their own limits override these.
    pub fn start() -> Brain {
        let mut b = Brain::bare();
        b.send("INFO timeout_turn 100");
        b.send("INFO max_memory 33554432");
        b
    }

    /// A brain that has been sent nothing.
    pub fn bare() -> Brain {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-gorin"))
            .env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn pbrain-gorin");
        let stdout = child.stdout.take().unwrap();
        let mut stderr_pipe = child.stderr.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).split(b'\n') {
                let Ok(line) = line else { break };
                let text = String::from_utf8_lossy(&line).into_owned();
                if tx.send(text).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr_pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        Brain {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr,
            seen: Vec::new(),
        }
    }

    /// A brain with a started game.
    pub fn started(size: usize) -> Brain {
        let mut b = Brain::start();
        b.send(&format!("START {size}"));
        b.expect("OK");
        b
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        // A brain that has exited closes the pipe; the test then sees it in its assertions.
        let _ = stdin.write_all(bytes).and_then(|_| stdin.flush());
    }

    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    pub fn send_all(&mut self, lines: &[&str]) {
        for l in lines {
            self.send(l);
        }
    }

    /// The next stdout line, or None after `timeout` (or when stdout has closed).
    pub fn recv_within(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                assert!(is_protocol_line(&line), "not a protocol line: {line:?}");
                self.seen.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    pub fn recv(&mut self) -> String {
        self.recv_within(REPLY)
            .unwrap_or_else(|| panic!("no reply; lines so far: {:?}", self.seen))
    }

    /// The next line that is not a MESSAGE.
    pub fn reply(&mut self) -> String {
        loop {
            let l = self.recv();
            if !l.starts_with("MESSAGE ") {
                return l;
            }
        }
    }

    /// Collects MESSAGE lines up to the next other line; returns (messages, reply).
    pub fn reply_with_messages(&mut self) -> (Vec<String>, String) {
        let mut msgs = Vec::new();
        loop {
            let l = self.recv();
            if l.starts_with("MESSAGE ") {
                msgs.push(l);
            } else {
                return (msgs, l);
            }
        }
    }

    pub fn expect(&mut self, want: &str) {
        let got = self.reply();
        assert_eq!(got, want, "lines so far: {:?}", self.seen);
    }

    /// The next reply must start with `ERROR ` and contain `part`.
    pub fn expect_error(&mut self, part: &str) {
        let got = self.reply();
        assert!(
            got.starts_with("ERROR ") && got.contains(part),
            "wanted ERROR with {part:?}, got {got:?}"
        );
    }

    pub fn expect_unknown(&mut self) {
        let got = self.reply();
        assert!(got.starts_with("UNKNOWN "), "wanted UNKNOWN, got {got:?}");
    }

    /// Proves the previous commands printed nothing: a probe's reply must be the next line.
    pub fn expect_silence(&mut self) {
        self.send("SILENCE-PROBE");
        let got = self.recv();
        assert_eq!(
            got, "UNKNOWN unknown command 'SILENCE-PROBE'",
            "something was printed before the probe's reply"
        );
    }

    /// The next reply must be a move; returns it.
    pub fn expect_move(&mut self) -> Pos {
        let got = self.reply();
        let (x, y) = parse_move(&got).unwrap_or_else(|| panic!("wanted a move, got {got:?}"));
        Pos::new(x, y)
    }

    /// Sends `line` and expects an `ERROR` reply containing `part`.
    pub fn refused(&mut self, line: &str, part: &str) {
        self.send(line);
        self.expect_error(part);
    }

    /// Sends `line` and expects the reply `OK`.
    pub fn ok(&mut self, line: &str) {
        self.send(line);
        self.expect("OK");
    }

    /// Sends `line` and expects a move in reply; returns it.
    pub fn ask_move(&mut self, line: &str) -> Pos {
        self.send(line);
        self.expect_move()
    }

    /// Closes stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Waits for the process to exit; None if it is still running after `timeout`.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let t0 = Instant::now();
        loop {
            if let Some(s) = self.child.try_wait().expect("try_wait") {
                return Some(s);
            }
            if t0.elapsed() > timeout {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Sends END; the brain must exit at once, cleanly, having printed nothing more, and with
    /// nothing on stderr during the whole session.
    pub fn end(mut self) {
        self.send("END");
        self.assert_exits_quietly(Duration::from_millis(2000));
    }

    pub fn assert_exits_quietly(&mut self, within: Duration) {
        let status = self.wait_exit(within);
        assert!(status.is_some(), "brain still running {within:?} after END");
        assert!(status.unwrap().success(), "exit status {status:?}");
        // Nothing but progress MESSAGEs (printed before END was read) may be left unread.
        let rest: Vec<String> = self
            .lines
            .try_iter()
            .filter(|l| !l.starts_with("MESSAGE "))
            .collect();
        assert!(rest.is_empty(), "printed after END: {rest:?}");
        self.assert_no_stderr();
    }

    pub fn assert_no_stderr(&self) {
        std::thread::sleep(Duration::from_millis(20));
        let err = self.stderr.lock().unwrap();
        assert!(
            err.is_empty(),
            "stderr: {:?}",
            String::from_utf8_lossy(&err)
        );
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// A shadow board the tests keep to check the brain's moves.
pub struct Shadow {
    pub board: Board,
}

impl Shadow {
    pub fn new(size: usize, rule: Rule) -> Shadow {
        Shadow {
            board: Board::new(size, size, rule).unwrap(),
        }
    }

    /// Plays the brain's `p` after checking it is legal for the side to move.
    pub fn brain_plays(&mut self, p: Pos) {
        let me = self.board.side_to_move();
        assert!(
            self.board.contains(p) && self.board.is_legal(p, me),
            "illegal move {p} for {me:?}\n{:?}",
            self.board
        );
        self.board.play(p).unwrap();
    }

    pub fn play(&mut self, x: usize, y: usize) {
        self.board.play(Pos::new(x, y)).unwrap();
    }
}

/// The BOARD block lines (field 1 = side to move) for stones played alternately from black.
pub fn board_block(moves: &[(usize, usize)]) -> Vec<String> {
    let to_move = if moves.len().is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    };
    let mut out = vec!["BOARD".to_string()];
    for (i, &(x, y)) in moves.iter().enumerate() {
        let colour = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let f = if colour == to_move { 1 } else { 2 };
        out.push(format!("{x},{y},{f}"));
    }
    out.push("DONE".to_string());
    out
}

impl Brain {
    pub fn send_lines(&mut self, lines: &[String]) {
        for l in lines {
            self.send(l);
        }
    }
}
