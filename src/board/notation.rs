//! Square notations at the edges: "pos" notation of opening files and c-gomoku-cli (`h8`, row
//! counted from the top, `a1` = 0,0) and renju notation of players and puzzle books (`H8`, row
//! counted from the bottom, `A1` = bottom-left), plus move lists such as `h8i9h7`.

use super::{Board, Pos};
use std::fmt;

/// Which way the row number counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rows {
    /// Row 1 is the top row (y = 0): c-gomoku-cli / GomocupJudge "pos" notation.
    FromTop,
    /// Row 1 is the bottom row (y = height - 1): renju notation.
    FromBottom,
}

/// A square name that cannot be read or does not fit the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError(pub String);

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotationError {}

/// Reads one square such as `h8` or `H8`.
pub fn parse_square(
    s: &str,
    width: usize,
    height: usize,
    rows: Rows,
) -> Result<Pos, NotationError> {
    let list = parse_move_list(s, width, height, rows)?;
    match list.as_slice() {
        [p] => Ok(*p),
        _ => Err(NotationError(format!("'{s}' is not one square"))),
    }
}

/// Reads a run of squares such as `h8i9h7` (spaces and commas between squares are allowed).
pub fn parse_move_list(
    s: &str,
    width: usize,
    height: usize,
    rows: Rows,
) -> Result<Vec<Pos>, NotationError> {
    let bytes = s.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() || c == b',' || c == b';' {
            i += 1;
            continue;
        }
        if !c.is_ascii_alphabetic() {
            return Err(NotationError(format!(
                "unexpected '{}' in move list '{s}'",
                c as char
            )));
        }
        let x = (c.to_ascii_lowercase() - b'a') as usize;
        i += 1;
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let num: usize = s[start..i]
            .parse()
            .map_err(|_| NotationError(format!("square '{}' has no row number", c as char)))?;
        if x >= width || num == 0 || num > height {
            return Err(NotationError(format!(
                "square {}{} is off the {}x{} board",
                c as char, num, width, height
            )));
        }
        let y = match rows {
            Rows::FromTop => num - 1,
            Rows::FromBottom => height - num,
        };
        out.push(Pos::new(x, y));
    }
    Ok(out)
}

/// Writes a square in the given notation (lower case for pos notation, upper for renju).
pub fn square_name(p: Pos, height: usize, rows: Rows) -> String {
    let letter = (b'a' + p.x() as u8) as char;
    match rows {
        Rows::FromTop => format!("{}{}", letter, p.y() + 1),
        Rows::FromBottom => format!("{}{}", letter.to_ascii_uppercase(), height - p.y()),
    }
}

/// The board's moves as a pos-notation move list.
pub fn move_list(board: &Board) -> String {
    board
        .history()
        .iter()
        .map(|&(p, _)| square_name(p, board.height(), Rows::FromTop))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_row_conventions() {
        assert_eq!(
            parse_square("h8", 15, 15, Rows::FromTop).unwrap(),
            Pos::new(7, 7)
        );
        assert_eq!(
            parse_square("A1", 15, 15, Rows::FromBottom).unwrap(),
            Pos::new(0, 14)
        );
        assert_eq!(
            parse_square("a1", 15, 15, Rows::FromTop).unwrap(),
            Pos::new(0, 0)
        );
        let l = parse_move_list("h8i9h7", 15, 15, Rows::FromTop).unwrap();
        assert_eq!(l, vec![Pos::new(7, 7), Pos::new(8, 8), Pos::new(7, 6)]);
        assert!(parse_move_list("p1", 15, 15, Rows::FromTop).is_err());
        assert!(parse_move_list("h16", 15, 15, Rows::FromTop).is_err());
        assert!(parse_move_list("h0", 15, 15, Rows::FromTop).is_err());
        assert!(parse_move_list("h", 15, 15, Rows::FromTop).is_err());
        assert!(parse_move_list("7,7", 15, 15, Rows::FromTop).is_err());
        for rows in [Rows::FromTop, Rows::FromBottom] {
            let p = Pos::new(3, 11);
            assert_eq!(
                parse_square(&square_name(p, 15, rows), 15, 15, rows).unwrap(),
                p
            );
        }
    }
}
