//! Output discipline: the only way the brain writes to stdout. Every line is one `Reply`, so
//! only line kinds the managers understand can be printed; each line is written whole under a
//! lock and flushed at once, and nothing is printed once END has closed the writer.

use crate::board::Pos;
use std::io::Write;
use std::sync::Mutex;

/// Longest free text (after the keyword) we print; managers' buffers are ~8000 bytes.
const MAX_TEXT: usize = 1000;

/// One line the brain may print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `OK` (START, RECTSTART, RESTART, TAKEBACK).
    Ok,
    /// A move `x,y`.
    Move(Pos),
    /// Several squares on one line, space separated (SWAP2BOARD, YXBALANCETWO).
    Squares(Vec<Pos>),
    /// `SWAP` (SWAP2BOARD: this brain takes black).
    Swap,
    /// The ABOUT line.
    About,
    /// `FORBID XXYY….` (YXSHOWFORBID).
    Forbid(Vec<Pos>),
    /// `ERROR <text>`: a known command that could not be carried out.
    Error(String),
    /// `UNKNOWN <text>`: a command this brain does not know.
    Unknown(String),
    /// `MESSAGE <text>`: information that managers log and skip.
    Message(String),
}

/// The ABOUT answer (c-gomoku-cli takes the engine name from it).
pub fn about_line() -> String {
    format!(
        "name=\"Gorin\", version=\"{}\", author=\"The Gorin team\", country=\"International\"",
        env!("CARGO_PKG_VERSION")
    )
}

/// Makes free text safe for one protocol line: no control characters (a CR or LF would split
/// the line), bounded length, never empty (Piskvork would take a bare `MESSAGE` as a reply).
pub fn clean_text(text: &str) -> String {
    let mut s: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(MAX_TEXT)
        .collect();
    let trimmed = s.trim();
    if trimmed.is_empty() {
        return "-".to_string();
    }
    if trimmed.len() != s.len() {
        s = trimmed.to_string();
    }
    s
}

/// Shortens a piece of manager input for quoting in an ERROR/UNKNOWN line.
pub fn quote(input: &str) -> String {
    let s: String = input.trim().chars().take(40).collect();
    if s.len() < input.trim().len() {
        format!("'{s}…'")
    } else {
        format!("'{s}'")
    }
}

impl Reply {
    /// The line as printed, without the line feed.
    pub fn render(&self) -> String {
        match self {
            Reply::Ok => "OK".to_string(),
            Reply::Move(p) => p.to_string(),
            Reply::Squares(ps) => ps
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            Reply::Swap => "SWAP".to_string(),
            Reply::About => about_line(),
            Reply::Forbid(ps) => {
                let mut s = String::from("FORBID ");
                for p in ps {
                    s.push_str(&format!("{:02}{:02}", p.x(), p.y()));
                }
                s.push('.');
                s
            }
            Reply::Error(t) => format!("ERROR {}", clean_text(t)),
            Reply::Unknown(t) => format!("UNKNOWN {}", clean_text(t)),
            Reply::Message(t) => format!("MESSAGE {}", clean_text(t)),
        }
    }
}

struct Sink {
    out: Box<dyn Write + Send>,
    closed: bool,
}

/// The single writer shared by the session and the searcher thread.
pub struct Writer {
    sink: Mutex<Sink>,
}

impl Writer {
    pub fn new(out: Box<dyn Write + Send>) -> Writer {
        Writer {
            sink: Mutex::new(Sink { out, closed: false }),
        }
    }

    /// Prints one line and flushes it. A broken pipe is not an error worth dying for: the
    /// manager has gone, and END or end of input follows.
    pub fn send(&self, reply: &Reply) {
        let line = reply.render();
        log::debug!("<- {line}");
        let mut sink = match self.sink.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        };
        if sink.closed {
            return;
        }
        let mut bytes = line.into_bytes();
        bytes.push(b'\n');
        if sink
            .out
            .write_all(&bytes)
            .and_then(|_| sink.out.flush())
            .is_err()
        {
            sink.closed = true;
        }
    }

    /// After END nothing more may be printed (a late MESSAGE from a stopping search included).
    pub fn close(&self) {
        let mut sink = match self.sink.lock() {
            Ok(s) => s,
            Err(poisoned) => poisoned.into_inner(),
        };
        sink.closed = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_render_in_protocol_form() {
        assert_eq!(Reply::Ok.render(), "OK");
        assert_eq!(Reply::Move(Pos::new(7, 12)).render(), "7,12");
        assert_eq!(
            Reply::Squares(vec![Pos::new(1, 2), Pos::new(3, 4)]).render(),
            "1,2 3,4"
        );
        assert_eq!(
            Reply::Forbid(vec![Pos::new(9, 12), Pos::new(0, 3)]).render(),
            "FORBID 09120003."
        );
        assert_eq!(Reply::Forbid(vec![]).render(), "FORBID .");
        assert_eq!(Reply::Message("".into()).render(), "MESSAGE -");
        assert_eq!(Reply::Error("a\r\nb".into()).render(), "ERROR a  b");
        assert!(Reply::About
            .render()
            .starts_with("name=\"Gorin\", version=\""));
    }

    #[test]
    fn quotes_are_short() {
        assert_eq!(quote("  abc "), "'abc'");
        let long = "x".repeat(100);
        assert_eq!(quote(&long).chars().count(), 43);
    }
}
