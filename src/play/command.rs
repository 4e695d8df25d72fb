//! Reading what the user types: one line becomes a `Command` (a move as `h8` in renju notation
//! or `7,7` as protocol x,y, or a command word), or a one-line explanation of what is wrong.

use super::session::{Command, Setup, Strength};
use crate::board::notation::{self, Rows};
use crate::board::{Color, Pos};
use std::path::PathBuf;

/// Reads one input line for a `width` x `height` board. `Ok(None)` is an empty line.
pub fn parse(line: &str, width: usize, height: usize) -> Result<Option<Command>, String> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(None);
    }
    if let Some(p) = parse_square(line, width, height)? {
        return Ok(Some(Command::Play(p)));
    }
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    let word = word.to_ascii_lowercase();
    let no_args = |c: Command| {
        if rest.is_empty() {
            Ok(Some(c))
        } else {
            Err(format!("'{word}' takes no argument"))
        }
    };
    let path = |what: &str| {
        if rest.is_empty() {
            Err(format!(
                "{word} needs a file name, e.g. '{word} game.psq' ({what})"
            ))
        } else {
            Ok(PathBuf::from(rest))
        }
    };
    match word.as_str() {
        "play" | "move" | "m" => match parse_square(rest, width, height)? {
            Some(p) => Ok(Some(Command::Play(p))),
            None => Err(format!("'{rest}' is not a square: type e.g. h8 or 7,7")),
        },
        "undo" | "u" | "back" | "takeback" => no_args(Command::Undo),
        "restart" | "new" | "reset" => no_args(Command::Restart),
        "resign" | "giveup" => no_args(Command::Resign),
        "hint" => no_args(Command::Hint),
        "swap" => no_args(Command::Swap),
        "go" | "step" | "next" => no_args(Command::Step),
        "moves" | "list" => no_args(Command::Moves),
        "board" | "show" => no_args(Command::Show),
        "help" | "?" => Ok(Some(Command::Help)),
        "quit" | "exit" | "q" | "bye" => no_args(Command::Quit),
        "save" => Ok(Some(Command::Save(path(".psq for PSQ, else a move list")?))),
        "load" | "open" => Ok(Some(Command::Load(path("PSQ or a move list")?))),
        "setup" | "position" | "pos" => Ok(Some(Command::Setup(parse_setup(rest, width, height)?))),
        "puzzle" | "solve" => Ok(Some(Command::Puzzle(parse_setup(rest, width, height)?))),
        "time" | "level" | "strength" => {
            if rest.is_empty() {
                Err(format!(
                    "{word} needs a value: seconds per move (0.1 to 10) or easy, normal, hard"
                ))
            } else {
                Ok(Some(Command::SetStrength(Strength::parse(rest)?)))
            }
        }
        _ => Err(format!("unknown command '{word}' (type help for the list)")),
    }
}

/// Reads a square typed as `h8` (renju notation: row 1 at the bottom) or `7,7` (x,y from the
/// top-left as in the protocol). `Ok(None)` when the text does not look like a square at all;
/// an error when it does but lies off the board.
pub fn parse_square(s: &str, width: usize, height: usize) -> Result<Option<Pos>, String> {
    let s = s.trim();
    if let Some((a, b)) = s.split_once(',') {
        let (a, b) = (a.trim(), b.trim());
        let (Ok(x), Ok(y)) = (a.parse::<i64>(), b.parse::<i64>()) else {
            return Ok(None);
        };
        if x < 0 || y < 0 || x >= width as i64 || y >= height as i64 {
            return Err(format!(
                "{x},{y} is off the {width}x{height} board (x and y run from 0 to {} and {})",
                width - 1,
                height - 1
            ));
        }
        return Ok(Some(Pos::new(x as usize, y as usize)));
    }
    let mut chars = s.chars();
    let looks_like = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && s.len() >= 2
        && chars.all(|c| c.is_ascii_digit());
    if !looks_like {
        return Ok(None);
    }
    notation::parse_square(s, width, height, Rows::FromBottom)
        .map(Some)
        .map_err(|e| e.to_string())
}

/// Reads a position: a move list alternating from black (`h8 i9 h7` or `h8i9h7`) or stone
/// lists (`b=h8,i8 w=h9`), with an optional side to move (`black`/`white`), renju notation.
pub fn parse_setup(s: &str, width: usize, height: usize) -> Result<Setup, String> {
    let mut setup = Setup {
        sequence: Vec::new(),
        black: Vec::new(),
        white: Vec::new(),
        to_move: None,
    };
    let list = |t: &str| {
        notation::parse_move_list(t, width, height, Rows::FromBottom).map_err(|e| e.to_string())
    };
    for tok in s.split_whitespace() {
        let lower = tok.to_ascii_lowercase();
        let split = lower.split_once(['=', ':']);
        match (lower.as_str(), split) {
            ("black" | "b", _) => setup.to_move = Some(Color::Black),
            ("white" | "w", _) => setup.to_move = Some(Color::White),
            (_, Some(("black" | "b", l))) => setup.black.extend(list(l)?),
            (_, Some(("white" | "w", l))) => setup.white.extend(list(l)?),
            (_, Some(("to" | "move", side))) => {
                setup.to_move = Some(match side {
                    "black" | "b" => Color::Black,
                    "white" | "w" => Color::White,
                    _ => return Err(format!("'{tok}': the side to move is black or white")),
                })
            }
            _ => setup.sequence.extend(list(&lower)?),
        }
    }
    if setup.sequence.is_empty() && setup.black.is_empty() && setup.white.is_empty() {
        return Err(
            "give a move list (h8 i9 h7) or stone lists (b=h8,i8 w=h9), and optionally black or white to move"
                .into(),
        );
    }
    Ok(setup)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_in_both_notations() {
        assert_eq!(parse("h8", 15, 15), Ok(Some(Command::Play(Pos::new(7, 7)))));
        assert_eq!(
            parse("A1", 15, 15),
            Ok(Some(Command::Play(Pos::new(0, 14))))
        );
        assert_eq!(
            parse("a15", 15, 15),
            Ok(Some(Command::Play(Pos::new(0, 0))))
        );
        assert_eq!(
            parse(" 3, 4 ", 15, 15),
            Ok(Some(Command::Play(Pos::new(3, 4))))
        );
        assert_eq!(
            parse("play j10", 20, 20),
            Ok(Some(Command::Play(Pos::new(9, 10))))
        );
        assert_eq!(
            parse("t20", 20, 20),
            Ok(Some(Command::Play(Pos::new(19, 0))))
        );
        assert!(parse("p1", 15, 15).unwrap_err().contains("off the"));
        assert!(parse("h16", 15, 15).unwrap_err().contains("off the"));
        assert!(parse("15,0", 15, 15).unwrap_err().contains("off the"));
        assert!(parse("-1,3", 15, 15).unwrap_err().contains("off the"));
        assert_eq!(parse("   ", 15, 15), Ok(None));
    }

    #[test]
    fn commands_and_their_arguments() {
        assert_eq!(parse("UNDO", 15, 15), Ok(Some(Command::Undo)));
        assert_eq!(parse("q", 15, 15), Ok(Some(Command::Quit)));
        assert_eq!(
            parse("save my game.psq", 15, 15),
            Ok(Some(Command::Save(PathBuf::from("my game.psq"))))
        );
        assert!(parse("save", 15, 15).is_err());
        assert!(parse("undo 3", 15, 15).is_err());
        assert!(parse("fly", 15, 15)
            .unwrap_err()
            .contains("unknown command"));
        assert!(parse("hh8", 15, 15)
            .unwrap_err()
            .contains("unknown command"));
        match parse("time 0.5", 15, 15) {
            Ok(Some(Command::SetStrength(s))) => assert_eq!(s.turn_ms, 500),
            r => panic!("{r:?}"),
        }
        assert!(parse("time 60", 15, 15).is_err());
        assert!(parse("level", 15, 15).is_err());
    }

    #[test]
    fn setups_as_move_lists_and_stone_lists() {
        let s = parse_setup("h8i9 h7", 15, 15).unwrap();
        assert_eq!(
            s.sequence,
            vec![Pos::new(7, 7), Pos::new(8, 6), Pos::new(7, 8)]
        );
        let s = parse_setup("b=h8,i8 W:h9 white", 15, 15).unwrap();
        assert_eq!(s.black, vec![Pos::new(7, 7), Pos::new(8, 7)]);
        assert_eq!(s.white, vec![Pos::new(7, 6)]);
        assert_eq!(s.to_move, Some(Color::White));
        assert!(parse_setup("", 15, 15).is_err());
        assert!(parse_setup("b=z9", 15, 15).is_err());
        assert!(parse_setup("to=red h8", 15, 15).is_err());
        assert!(matches!(
            parse("puzzle b=h8 w=h9", 15, 15),
            Ok(Some(Command::Puzzle(_)))
        ));
    }
}
