//! One engine process and the client side of the Piskvork protocol: spawning (in its own
//! process group), a reader thread that timestamps every line the engine prints, waiting for a
//! line until a deadline, and a shutdown that sends END, waits, and kills what is left.

use super::output::IoLog;
use super::sys;
use anyhow::{bail, Context};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Longest line kept from an engine; the rest of a longer line is dropped.
const MAX_LINE: usize = 64 * 1024;
/// How often a wait looks at the stop flag.
const POLL: Duration = Duration::from_millis(20);

/// A line printed by the engine and when the reader thread saw it.
#[derive(Clone, Debug)]
pub struct Line {
    pub at: Instant,
    pub text: String,
}

/// Why no line came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaitError {
    /// The deadline passed.
    Timeout,
    /// The engine closed its output (it exited or crashed).
    Closed,
    /// The arena is stopping (Ctrl-C or a decided SPRT).
    Stopped,
}

/// How to start an engine: the program, its arguments, and the folder to run it in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    pub program: PathBuf,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
}

impl Launch {
    /// Splits a `cmd=` value on whitespace (a backslash keeps the next character, so
    /// `my\ engine` is one word). As in c-gomoku-cli, a program path with a `/` is run from
    /// its own folder (engines find their data files there); a bare name is looked up on PATH.
    pub fn parse(cmd: &str) -> anyhow::Result<Launch> {
        let words = split_words(cmd);
        let Some((prog, args)) = words.split_first() else {
            bail!("empty engine command");
        };
        if prog.contains('/') {
            let path = Path::new(prog);
            let abs = std::fs::canonicalize(path)
                .with_context(|| format!("engine program '{prog}' not found"))?;
            if !abs.is_file() {
                bail!("engine program '{prog}' is not a file");
            }
            let dir = abs.parent().map(Path::to_path_buf);
            Ok(Launch {
                program: abs,
                args: args.to_vec(),
                dir,
            })
        } else {
            // Found now rather than at the first game, so a typo is a usage error.
            let on_path = std::env::var_os("PATH")
                .map(|p| std::env::split_paths(&p).any(|d| runnable_in(&d, prog)))
                .unwrap_or(false);
            if !on_path {
                bail!("engine program '{prog}' not found on PATH (give a path with a '/')");
            }
            Ok(Launch {
                program: PathBuf::from(prog),
                args: args.to_vec(),
                dir: None,
            })
        }
    }
}

/// Whether `dir` holds the program `name`; on Windows a bare name also finds `name.exe`, as
/// process creation there does.
fn runnable_in(dir: &Path, name: &str) -> bool {
    dir.join(name).is_file() || (cfg!(windows) && dir.join(format!("{name}.exe")).is_file())
}

fn split_words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = s.chars();
    let mut in_word = false;
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                cur.push(n);
                in_word = true;
            }
        } else if c.is_whitespace() {
            if in_word {
                out.push(std::mem::take(&mut cur));
                in_word = false;
            }
        } else {
            cur.push(c);
            in_word = true;
        }
    }
    if in_word {
        out.push(cur);
    }
    out
}

/// A running engine.
pub struct EngineProcess {
    name: String,
    tag: String,
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Line>,
    log: Option<Arc<IoLog>>,
    closed: bool,
    finished: bool,
}

impl EngineProcess {
    /// Starts the engine with piped stdin/stdout in a new process group. Its stderr goes to the
    /// I/O log when there is one (marked `!`), otherwise it is discarded.
    pub fn spawn(
        launch: &Launch,
        name: &str,
        tag: &str,
        log: Option<Arc<IoLog>>,
    ) -> anyhow::Result<EngineProcess> {
        let mut cmd = Command::new(&launch.program);
        cmd.args(&launch.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if log.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            });
        if let Some(d) = &launch.dir {
            cmd.current_dir(d);
        }
        #[cfg(unix)]
        {
            // Its own group: Ctrl-C on the terminal reaches only the arena, which then ends
            // every engine itself, and a kill of the group also takes the engine's children.
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn().with_context(|| {
            format!("cannot start engine {name} ({})", launch.program.display())
        })?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        let rlog = log.clone();
        let (rname, rtag) = (name.to_string(), tag.to_string());
        std::thread::Builder::new()
            .name(format!("read-{name}"))
            .spawn(move || {
                let mut r = BufReader::new(stdout);
                while let Some(text) = read_line(&mut r) {
                    let at = Instant::now();
                    if let Some(l) = &rlog {
                        l.line(&rtag, &rname, '<', &text);
                    }
                    if tx.send(Line { at, text }).is_err() {
                        break;
                    }
                }
            })
            .context("cannot start a reader thread")?;
        if let (Some(err), Some(l)) = (child.stderr.take(), log.clone()) {
            let (ename, etag) = (name.to_string(), tag.to_string());
            std::thread::Builder::new()
                .name(format!("stderr-{name}"))
                .spawn(move || {
                    let mut r = BufReader::new(err);
                    while let Some(text) = read_line(&mut r) {
                        l.line(&etag, &ename, '!', &text);
                    }
                })
                .context("cannot start a reader thread")?;
        }
        if let Some(l) = &log {
            l.line(tag, name, '*', &format!("started pid {}", child.id()));
        }
        Ok(EngineProcess {
            name: name.to_string(),
            tag: tag.to_string(),
            child,
            stdin,
            rx,
            log,
            closed: false,
            finished: false,
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Writes one command line. An error means the engine no longer reads its input.
    pub fn send(&mut self, line: &str) -> std::io::Result<()> {
        if let Some(l) = &self.log {
            l.line(&self.tag, &self.name, '>', line);
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(std::io::ErrorKind::BrokenPipe.into());
        };
        stdin.write_all(line.as_bytes())?;
        stdin.write_all(b"\n")?;
        stdin.flush()
    }

    /// The next line, waiting until `deadline` (forever when None) or until `stop` is raised.
    pub fn recv(
        &mut self,
        deadline: Option<Instant>,
        stop: &AtomicBool,
    ) -> Result<Line, WaitError> {
        if self.closed {
            return Err(WaitError::Closed);
        }
        loop {
            if stop.load(Ordering::SeqCst) || sys::interrupted() {
                return Err(WaitError::Stopped);
            }
            let slice = match deadline {
                Some(d) => {
                    let now = Instant::now();
                    if now >= d {
                        // A line that arrived in time but was not yet read still counts.
                        return self.rx.try_recv().map_err(|e| match e {
                            mpsc::TryRecvError::Empty => WaitError::Timeout,
                            mpsc::TryRecvError::Disconnected => {
                                self.closed = true;
                                WaitError::Closed
                            }
                        });
                    }
                    (d - now).min(POLL)
                }
                None => POLL,
            };
            match self.rx.recv_timeout(slice) {
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => {
                    self.closed = true;
                    return Err(WaitError::Closed);
                }
            }
        }
    }

    /// Lines printed since the last read (stale output between commands). Notes whether the
    /// output has been closed.
    pub fn drain(&mut self) -> Vec<Line> {
        let mut v = Vec::new();
        loop {
            match self.rx.try_recv() {
                Ok(l) => v.push(l),
                Err(mpsc::TryRecvError::Empty) => break,
                Err(mpsc::TryRecvError::Disconnected) => {
                    self.closed = true;
                    break;
                }
            }
        }
        v
    }

    /// The exit status in words if the process has ended.
    pub fn exit_status(&mut self) -> Option<String> {
        // The output closes a moment before the process is reaped: give it a little time.
        for _ in 0..25 {
            if let Ok(Some(st)) = self.child.try_wait() {
                return Some(st.to_string());
            }
            std::thread::sleep(Duration::from_millis(4));
        }
        None
    }

    /// Sends END, waits up to `grace` for the process to exit, then kills its whole process
    /// group and reaps it. Called by `Drop` with one second of grace.
    pub fn shutdown(&mut self, grace: Duration) {
        if self.finished {
            return;
        }
        self.finished = true;
        let _ = self.send("END");
        self.stdin = None;
        let t0 = Instant::now();
        let mut exited = None;
        while t0.elapsed() < grace {
            if let Ok(Some(st)) = self.child.try_wait() {
                exited = Some(st);
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        // Kill the group even after a clean exit: helpers the engine started may still run.
        sys::kill_group(self.child.id());
        let how = match exited {
            Some(st) => format!("exited ({st})"),
            None => {
                let _ = self.child.kill();
                match self.child.wait() {
                    Ok(st) => format!("killed after {} ms ({st})", grace.as_millis()),
                    Err(e) => format!("kill failed: {e}"),
                }
            }
        };
        if let Some(l) = &self.log {
            l.line(&self.tag, &self.name, '*', &how);
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.shutdown(Duration::from_secs(1));
    }
}

/// Reads one line (LF or CRLF), lossily decoded, at most `MAX_LINE` bytes kept; None at EOF.
fn read_line<R: BufRead>(r: &mut R) -> Option<String> {
    let mut buf = Vec::new();
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if chunk.is_empty() {
            return (!buf.is_empty()).then(|| finish(&buf));
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let room = MAX_LINE.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..take.min(room)]);
        r.consume(take);
        if done {
            return Some(finish(&buf));
        }
    }
}

fn finish(buf: &[u8]) -> String {
    String::from_utf8_lossy(buf)
        .trim_end_matches(['\r', '\n'])
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_commands_like_a_shell_word_list() {
        assert_eq!(split_words("a  b\\ c d"), vec!["a", "b c", "d"]);
        assert!(split_words("   ").is_empty());
        let l = Launch::parse("sh -c true").unwrap();
        assert_eq!(l.program, PathBuf::from("sh"));
        assert_eq!(l.args, vec!["-c", "true"]);
        assert!(l.dir.is_none());
        assert!(Launch::parse("./no/such/engine").is_err());
        assert!(Launch::parse("no-such-engine-on-path-xyz").is_err());
        assert!(Launch::parse("").is_err());
    }

    #[test]
    fn reads_lines_with_crlf_and_limits_their_length() {
        let data = b"OK\r\n7,7\nlast".to_vec();
        let mut r = BufReader::new(&data[..]);
        assert_eq!(read_line(&mut r).as_deref(), Some("OK"));
        assert_eq!(read_line(&mut r).as_deref(), Some("7,7"));
        assert_eq!(read_line(&mut r).as_deref(), Some("last"));
        assert_eq!(read_line(&mut r), None);
        let long = vec![b'x'; MAX_LINE * 2 + 5];
        let mut r = BufReader::new(&long[..]);
        assert_eq!(read_line(&mut r).map(|s| s.len()), Some(MAX_LINE));
    }

    #[cfg(unix)]
    #[test]
    fn talks_to_a_process_and_ends_it() {
        let launch = Launch::parse("sh -c read\\ a;echo\\ got-$a;sleep\\ 30").unwrap();
        let mut e = EngineProcess::spawn(&launch, "sh", "t", None).unwrap();
        let stop = AtomicBool::new(false);
        e.send("hello").unwrap();
        let l = e
            .recv(Some(Instant::now() + Duration::from_secs(5)), &stop)
            .unwrap();
        assert_eq!(l.text, "got-hello");
        // Nothing more comes: a short deadline times out.
        let t0 = Instant::now();
        let r = e.recv(Some(Instant::now() + Duration::from_millis(100)), &stop);
        assert_eq!(r.unwrap_err(), WaitError::Timeout);
        assert!(t0.elapsed() >= Duration::from_millis(100));
        // The script ignores END and sleeps: shutdown kills it within the grace period.
        let t0 = Instant::now();
        e.shutdown(Duration::from_millis(200));
        assert!(t0.elapsed() < Duration::from_secs(5));
        assert!(e.child.try_wait().unwrap().is_some());
        // After the group kill the output closes, including the sleeping grandchild's copy.
        assert_eq!(
            e.recv(Some(Instant::now() + Duration::from_secs(5)), &stop)
                .unwrap_err(),
            WaitError::Closed
        );
        let stopped = AtomicBool::new(true);
        let mut e2 = EngineProcess::spawn(&launch, "sh", "t", None).unwrap();
        assert_eq!(e2.recv(None, &stopped).unwrap_err(), WaitError::Stopped);
    }
}
