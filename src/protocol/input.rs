//! Input framing on its own thread: raw bytes to lines (LF, CRLF or a lone CR), invalid UTF-8
//! replaced, blank lines dropped, over-long lines cut, end of input reported once. Running apart
//! from the session lets END, YXSTOP and `INFO timeout_turn 0` reach a running search.

use std::io::Read;
use std::sync::mpsc::Sender;
use std::time::Instant;

/// Longest line kept; the rest of a longer line is read and dropped (managers' own buffers are
/// about 8000 bytes, so only garbage is ever this long).
pub const MAX_LINE: usize = 256 * 1024;

/// What the session hears: input lines, the end of input, and finished searches.
pub enum Event<T> {
    Line(String, Instant),
    Eof,
    Done(T),
}

/// Reads `input` to its end, sending each non-blank line. Returns when the input ends or the
/// session has gone.
pub fn read_lines<T>(mut input: impl Read, tx: Sender<Event<T>>) {
    let mut buf = [0u8; 8192];
    let mut line: Vec<u8> = Vec::new();
    let mut overflow = false;
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        for &b in &buf[..n] {
            if b == b'\n' || b == b'\r' {
                if !flush(&mut line, &tx) {
                    return;
                }
                overflow = false;
            } else if line.len() < MAX_LINE {
                line.push(b);
            } else if !overflow {
                overflow = true;
                log::debug!("input line longer than {MAX_LINE} bytes cut");
            }
        }
    }
    flush(&mut line, &tx);
    let _ = tx.send(Event::Eof);
}

/// Sends the collected line if it holds anything but blanks; false once the session is gone.
fn flush<T>(line: &mut Vec<u8>, tx: &Sender<Event<T>>) -> bool {
    let text = String::from_utf8_lossy(line);
    let ok = if text.trim().is_empty() {
        true
    } else {
        log::debug!("-> {}", text.trim_end());
        tx.send(Event::Line(text.into_owned(), Instant::now()))
            .is_ok()
    };
    line.clear();
    ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    fn lines(bytes: &[u8]) -> Vec<String> {
        let (tx, rx) = channel::<Event<()>>();
        read_lines(bytes, tx);
        let mut out = Vec::new();
        let mut eof = 0;
        for ev in rx.try_iter() {
            match ev {
                Event::Line(l, _) => out.push(l),
                Event::Eof => eof += 1,
                Event::Done(_) => unreachable!(),
            }
        }
        assert_eq!(eof, 1);
        out
    }

    #[test]
    fn every_line_ending_frames_a_line() {
        assert_eq!(
            lines(b"START 15\r\nINFO a 1\rBEGIN\n\n  \t\r\nEND"),
            vec!["START 15", "INFO a 1", "BEGIN", "END"]
        );
    }

    #[test]
    fn bad_bytes_and_long_lines_survive() {
        let mut input = vec![b'A'; MAX_LINE + 10];
        input.extend_from_slice(b"\n\xff\xfeX\n");
        let got = lines(&input);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].len(), MAX_LINE);
        assert_eq!(got[1], "\u{fffd}\u{fffd}X");
    }
}
