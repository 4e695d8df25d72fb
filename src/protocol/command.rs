//! Command parsing: one input line to a typed `Command`, or a `ParseError` saying what was
//! wrong. Tolerant as managers need (any case, spaces and tabs anywhere, `7 , 8`), strict about
//! meaning (`TURN 7 8` is an error). Nothing here knows the board or the game.

use std::fmt;

/// An `INFO` key with its value. INFO is never answered, so a value that cannot be read
/// becomes `Ignored` rather than an error (protocol.md §3.5, §12 #11).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    TimeoutTurn(i64),
    TimeoutMatch(i64),
    TimeLeft(i64),
    MaxMemory(u64),
    GameType(i64),
    Rule(i64),
    Folder(String),
    MaxDepth(i64),
    MaxNode(i64),
    ThreadNum(i64),
    HashSize(i64),
    /// A known key with a value we cannot use, an unknown key, or `evaluate`.
    Ignored(String),
}

/// Multi-line commands: the stone lines up to `DONE` follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    Board,
    YxBoard,
    Swap2Board,
    YxBlock,
    YxBlockUndo,
    /// A block command we do not implement (Rapfi's database commands): consumed, then UNKNOWN.
    Unsupported,
}

/// One manager command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START n` or Yixin-Board's `START w h`.
    Start {
        width: i64,
        height: i64,
    },
    RectStart {
        width: i64,
        height: i64,
    },
    Restart,
    Begin,
    Turn(i64, i64),
    Play(i64, i64),
    Takeback(i64, i64),
    /// The first line of a block; `name` is the keyword as sent (for UNKNOWN).
    Block {
        kind: BlockKind,
        name: String,
    },
    End,
    About,
    Info(Info),
    /// `YXSTOP` (or Rapfi's `STOP`).
    Stop,
    YxShowForbid,
    YxHashClear,
    YxNBest(i64),
    YxBalance {
        two: bool,
        bias: i64,
    },
    YxBlockReset,
    YxShowInfo,
    /// Anything else: the keyword as sent.
    Unknown(String),
}

/// What was wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The command needs an argument that is not there.
    Missing {
        cmd: &'static str,
        what: &'static str,
    },
    /// An argument is there but is not what the command takes.
    Bad {
        cmd: &'static str,
        what: &'static str,
        text: String,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Missing { cmd, what } => write!(f, "{cmd} needs {what}"),
            ParseError::Bad { cmd, what, text } => {
                write!(f, "{cmd} needs {what}, got {}", super::output::quote(text))
            }
        }
    }
}

impl std::error::Error for ParseError {}

/// A square `x,y` as sent: spaces around the numbers and the comma are tolerated.
pub fn parse_xy(text: &str) -> Option<(i64, i64)> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let (x, y) = compact.split_once(',')?;
    Some((parse_int(x)?, parse_int(y)?))
}

/// A stone line of a block: `x,y` or `x,y,f` (whitespace tolerated).
pub fn parse_stone(text: &str) -> Option<(i64, i64, Option<i64>)> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut parts = compact.split(',');
    let x = parse_int(parts.next()?)?;
    let y = parse_int(parts.next()?)?;
    let f = match parts.next() {
        None => None,
        Some(f) => Some(parse_int(f)?),
    };
    if parts.next().is_some() {
        return None;
    }
    Some((x, y, f))
}

/// A plain decimal integer (an optional sign, digits only: `7.5`, `0x7`, `7a` are rejected).
pub fn parse_int(text: &str) -> Option<i64> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Whether a line is `DONE` (any case, any surrounding blanks).
pub fn is_done(line: &str) -> bool {
    line.trim().eq_ignore_ascii_case("DONE")
}

/// Whether a line is `END`.
pub fn is_end(line: &str) -> bool {
    line.trim().eq_ignore_ascii_case("END")
}

fn square(cmd: &'static str, rest: &str) -> Result<(i64, i64), ParseError> {
    if rest.trim().is_empty() {
        return Err(ParseError::Missing {
            cmd,
            what: "a square x,y",
        });
    }
    parse_xy(rest).ok_or_else(|| ParseError::Bad {
        cmd,
        what: "a square x,y",
        text: rest.to_string(),
    })
}

fn integer(cmd: &'static str, what: &'static str, rest: &str) -> Result<i64, ParseError> {
    let t = rest.trim();
    if t.is_empty() {
        return Err(ParseError::Missing { cmd, what });
    }
    parse_int(t).ok_or_else(|| ParseError::Bad {
        cmd,
        what,
        text: t.to_string(),
    })
}

fn no_argument(cmd: &'static str, command: Command, rest: &str) -> Result<Command, ParseError> {
    if rest.trim().is_empty() {
        Ok(command)
    } else {
        Err(ParseError::Bad {
            cmd,
            what: "no argument",
            text: rest.to_string(),
        })
    }
}

fn parse_info(rest: &str) -> Info {
    let rest = rest.trim_start();
    let (key, value) = match rest.find(char::is_whitespace) {
        Some(i) => (&rest[..i], rest[i..].trim()),
        None => (rest, ""),
    };
    let key = key.to_ascii_lowercase();
    let num = |f: fn(i64) -> Info| match parse_int(value) {
        Some(v) => f(v),
        None => Info::Ignored(format!(
            "INFO {key}: value {} is not a number",
            quote_value(value)
        )),
    };
    match key.as_str() {
        "timeout_turn" => num(Info::TimeoutTurn),
        "timeout_match" => num(Info::TimeoutMatch),
        "time_left" => num(Info::TimeLeft),
        "max_memory" => match value.parse::<u64>() {
            Ok(v) => Info::MaxMemory(v),
            Err(_) => Info::Ignored(format!("INFO max_memory: bad value {}", quote_value(value))),
        },
        "game_type" => num(Info::GameType),
        "rule" => num(Info::Rule),
        "max_depth" => num(Info::MaxDepth),
        "max_node" => num(Info::MaxNode),
        "thread_num" => num(Info::ThreadNum),
        "hash_size" => num(Info::HashSize),
        "folder" if !value.is_empty() => Info::Folder(value.to_string()),
        _ => Info::Ignored(format!("INFO {} ignored", quote_value(&key))),
    }
}

fn quote_value(v: &str) -> String {
    super::output::quote(v)
}

/// Parses one non-blank line (outside a block).
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let line = line.trim();
    let (word, rest) = match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], &line[i..]),
        None => (line, ""),
    };
    let upper = word.to_ascii_uppercase();
    let block = |kind| Command::Block {
        kind,
        name: word.to_string(),
    };
    Ok(match upper.as_str() {
        "START" => {
            let nums: Vec<&str> = rest.split_whitespace().collect();
            let (w, h) = match nums.as_slice() {
                [] => {
                    return Err(ParseError::Missing {
                        cmd: "START",
                        what: "a board size",
                    })
                }
                [n] => {
                    let n = integer("START", "a board size", n)?;
                    (n, n)
                }
                [w, h] => (
                    integer("START", "a board size", w)?,
                    integer("START", "a board size", h)?,
                ),
                _ => {
                    return Err(ParseError::Bad {
                        cmd: "START",
                        what: "a board size",
                        text: rest.to_string(),
                    })
                }
            };
            Command::Start {
                width: w,
                height: h,
            }
        }
        "RECTSTART" => {
            let (w, h) = square("RECTSTART", rest).map_err(|e| match e {
                ParseError::Missing { cmd, .. } => ParseError::Missing {
                    cmd,
                    what: "width,height",
                },
                ParseError::Bad { cmd, text, .. } => ParseError::Bad {
                    cmd,
                    what: "width,height",
                    text,
                },
            })?;
            Command::RectStart {
                width: w,
                height: h,
            }
        }
        "RESTART" => no_argument("RESTART", Command::Restart, rest)?,
        "BEGIN" => no_argument("BEGIN", Command::Begin, rest)?,
        "TURN" => {
            let (x, y) = square("TURN", rest)?;
            Command::Turn(x, y)
        }
        "PLAY" => {
            let (x, y) = square("PLAY", rest)?;
            Command::Play(x, y)
        }
        "TAKEBACK" => {
            let (x, y) = square("TAKEBACK", rest)?;
            Command::Takeback(x, y)
        }
        "BOARD" => block(BlockKind::Board),
        "YXBOARD" => block(BlockKind::YxBoard),
        "SWAP2BOARD" => block(BlockKind::Swap2Board),
        "YXBLOCK" => block(BlockKind::YxBlock),
        "YXBLOCKUNDO" => block(BlockKind::YxBlockUndo),
        "YXQUERYDATABASEALL"
        | "YXQUERYDATABASEONE"
        | "YXQUERYDATABASETEXT"
        | "YXQUERYDATABASEALLT"
        | "YXEDITTVDDATABASE"
        | "YXEDITTEXTDATABASE"
        | "YXEDITLABELDATABASE"
        | "YXDELETEDATABASEONE"
        | "YXDELETEDATABASEALL" => block(BlockKind::Unsupported),
        // END ends the session whatever follows it on the line.
        "END" => Command::End,
        "ABOUT" => Command::About,
        "INFO" => Command::Info(parse_info(rest)),
        "YXSTOP" | "STOP" => Command::Stop,
        "YXSHOWFORBID" => Command::YxShowForbid,
        "YXHASHCLEAR" => Command::YxHashClear,
        "YXNBEST" => Command::YxNBest(integer("YXNBEST", "a count", rest)?),
        "YXBALANCEONE" | "YXBALANCETWO" => {
            let bias = if rest.trim().is_empty() {
                0
            } else {
                integer("YXBALANCE", "a bias", rest)?
            };
            Command::YxBalance {
                two: upper == "YXBALANCETWO",
                bias,
            }
        }
        "YXBLOCKRESET" => Command::YxBlockReset,
        "YXSHOWINFO" => Command::YxShowInfo,
        _ => Command::Unknown(word.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse_in_any_case_and_spacing() {
        assert_eq!(parse("turn  7 , 8 "), Ok(Command::Turn(7, 8)));
        assert_eq!(parse("\tTuRn\t7,8\t"), Ok(Command::Turn(7, 8)));
        assert_eq!(
            parse("START 15 15"),
            Ok(Command::Start {
                width: 15,
                height: 15
            })
        );
        assert_eq!(
            parse("rectstart 30,20"),
            Ok(Command::RectStart {
                width: 30,
                height: 20
            })
        );
        assert_eq!(parse("done"), Ok(Command::Unknown("done".into())));
        assert_eq!(parse("yxnbest 3"), Ok(Command::YxNBest(3)));
        assert_eq!(parse("STOP"), Ok(Command::Stop));
    }

    #[test]
    fn malformed_arguments_are_errors() {
        for bad in [
            "TURN",
            "TURN abc",
            "TURN 7",
            "TURN 7 8",
            "TURN 7,8,9",
            "TURN 7.5,8",
            "START",
            "START abc",
            "START 1 2 3",
            "RECTSTART 30",
            "BEGIN now",
            "YXNBEST x",
        ] {
            assert!(parse(bad).is_err(), "{bad} parsed");
        }
        let e = parse("TURN 7 8").unwrap_err().to_string();
        assert_eq!(e, "TURN needs a square x,y, got '7 8'");
    }

    #[test]
    fn info_values() {
        assert_eq!(
            parse("INFO max_memory 4294967296"),
            Ok(Command::Info(Info::MaxMemory(4294967296)))
        );
        assert_eq!(
            parse("INFO folder C:/a b/c"),
            Ok(Command::Info(Info::Folder("C:/a b/c".into())))
        );
        assert_eq!(
            parse("info TIME_LEFT -500"),
            Ok(Command::Info(Info::TimeLeft(-500)))
        );
        assert!(matches!(
            parse("INFO timeout_turn fast"),
            Ok(Command::Info(Info::Ignored(_)))
        ));
        assert!(matches!(parse("INFO"), Ok(Command::Info(Info::Ignored(_)))));
    }

    #[test]
    fn stone_lines() {
        assert_eq!(parse_stone(" 7 , 8 , 1 "), Some((7, 8, Some(1))));
        assert_eq!(parse_stone("7,8"), Some((7, 8, None)));
        assert_eq!(parse_stone("7,8,1,2"), None);
        assert_eq!(parse_stone("7,,1"), None);
        assert_eq!(parse_int("99999999999999999999"), None);
    }
}
