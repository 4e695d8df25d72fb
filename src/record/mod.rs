//! Game records: Piskvork's PSQ files (read and written by the arena, terminal play and
//! `solve`) and replaying a record onto a board.
//! PSQ layout: `Piskvorky WxH, X:Y, N` header, one `x,y,ms` line per move with 1-based
//! coordinates, then free lines (Piskvork writes the two players' names and a number).

use crate::board::{Board, BoardError, Pos, Rule};
use std::fmt;

/// A game as a list of moves (black first) with optional thinking times.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub width: usize,
    pub height: usize,
    /// Each move and the milliseconds spent on it (0 when unknown).
    pub moves: Vec<(Pos, u64)>,
    /// Lines after the moves (player names, result, ...), kept as written.
    pub trailer: Vec<String>,
}

/// A PSQ text that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The first line is not a `Piskvorky WxH, ...` header.
    BadHeader(String),
    /// A move line is outside the board or repeats a square.
    BadMove { line: usize, text: String },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::BadHeader(h) => write!(
                f,
                "not a PSQ file: first line '{h}' is not 'Piskvorky WxH, ...'"
            ),
            RecordError::BadMove { line, text } => write!(f, "PSQ line {line}: bad move '{text}'"),
        }
    }
}

impl std::error::Error for RecordError {}

impl GameRecord {
    /// A record of the moves played on `board`, with no times.
    pub fn from_board(board: &Board) -> GameRecord {
        GameRecord {
            width: board.width(),
            height: board.height(),
            moves: board.history().iter().map(|&(p, _)| (p, 0)).collect(),
            trailer: Vec::new(),
        }
    }

    /// Plays the record's moves on a new board under `rule`, alternately from black.
    pub fn to_board(&self, rule: Rule) -> Result<Board, BoardError> {
        let moves: Vec<Pos> = self.moves.iter().map(|&(p, _)| p).collect();
        Board::from_moves(self.width, self.height, rule, &moves)
    }

    /// Reads PSQ text (LF or CRLF).
    pub fn parse_psq(text: &str) -> Result<GameRecord, RecordError> {
        let mut lines = text.lines().map(str::trim);
        let header = lines.next().unwrap_or("");
        let (width, height) = parse_header(header)
            .ok_or_else(|| RecordError::BadHeader(header.chars().take(60).collect()))?;
        let mut moves = Vec::new();
        let mut trailer = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (i, line) in lines.enumerate() {
            if !trailer.is_empty() || line.is_empty() {
                if !line.is_empty() {
                    trailer.push(line.to_string());
                }
                continue;
            }
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            let nums: Option<Vec<i64>> = fields.iter().map(|f| f.parse().ok()).collect();
            match nums.as_deref() {
                Some([x, y]) | Some([x, y, _]) => {
                    let t = if fields.len() == 3 {
                        nums.as_ref().unwrap()[2]
                    } else {
                        0
                    };
                    let bad = || RecordError::BadMove {
                        line: i + 2,
                        text: line.to_string(),
                    };
                    if *x < 1 || *y < 1 || *x > width as i64 || *y > height as i64 {
                        return Err(bad());
                    }
                    let p = Pos::new(*x as usize - 1, *y as usize - 1);
                    if !seen.insert(p) {
                        return Err(bad());
                    }
                    moves.push((p, t.max(0) as u64));
                }
                _ => trailer.push(line.to_string()),
            }
        }
        Ok(GameRecord {
            width,
            height,
            moves,
            trailer,
        })
    }

    /// Writes PSQ text with CRLF line ends, as Piskvork does.
    pub fn to_psq(&self) -> String {
        let mut s = format!("Piskvorky {}x{}, 11:11, 0\r\n", self.width, self.height);
        for &(p, t) in &self.moves {
            s.push_str(&format!("{},{},{}\r\n", p.x() + 1, p.y() + 1, t));
        }
        for line in &self.trailer {
            s.push_str(line);
            s.push_str("\r\n");
        }
        s
    }
}

fn parse_header(h: &str) -> Option<(usize, usize)> {
    let rest = h.strip_prefix("Piskvorky")?.trim_start();
    let size = rest.split(',').next()?.trim();
    let (w, hgt) = size.split_once('x')?;
    let (w, hgt): (usize, usize) = (w.trim().parse().ok()?, hgt.trim().parse().ok()?);
    let ok = |n: usize| (crate::board::MIN_SIZE..=crate::board::MAX_SIZE).contains(&n);
    (ok(w) && ok(hgt)).then_some((w, hgt))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_reads_piskvork_layout() {
        let text = "Piskvorky 20x20, 7:7, 0\r\n10,10,456\r\n11,12,4500\r\n10,13,60\r\nbrain-a.exe\r\nbrain-b.zip\r\n0\r\n";
        let rec = GameRecord::parse_psq(text).unwrap();
        assert_eq!((rec.width, rec.height), (20, 20));
        assert_eq!(rec.moves.len(), 3);
        assert_eq!(rec.moves[0], (Pos::new(9, 9), 456));
        assert_eq!(rec.trailer, vec!["brain-a.exe", "brain-b.zip", "0"]);
        let again = GameRecord::parse_psq(&rec.to_psq()).unwrap();
        assert_eq!(again, rec);
        let board = rec.to_board(Rule::Freestyle).unwrap();
        assert_eq!(board.move_count(), 3);
        assert_eq!(GameRecord::from_board(&board).moves.len(), 3);
    }

    #[test]
    fn rejects_bad_files() {
        assert!(matches!(
            GameRecord::parse_psq("hello\n1,1,0\n"),
            Err(RecordError::BadHeader(_))
        ));
        assert!(matches!(
            GameRecord::parse_psq("Piskvorky 15x15, 11:11, 0\n16,1,0\n"),
            Err(RecordError::BadMove { line: 2, .. })
        ));
        assert!(matches!(
            GameRecord::parse_psq("Piskvorky 15x15, 11:11, 0\n1,1,0\n1,1,0\n"),
            Err(RecordError::BadMove { line: 3, .. })
        ));
        assert!(GameRecord::parse_psq("Piskvorky 40x40, 11:11, 0\n").is_err());
    }
}
