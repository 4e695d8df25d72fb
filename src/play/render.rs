//! Drawing for terminal play: the board with renju-notation labels, the last move and black's
//! forbidden points marked, and one line of text per event. Plain ASCII without colour by
//! default so pipes and tests read it; Unicode stones and ANSI colour are options.

use super::session::{name, Event, GameEnd, Player, Session, Threat};
use crate::board::{Board, Color, Pos};

/// How to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// ● ○ · × instead of X O . !
    pub unicode: bool,
    /// ANSI colours (only when stdout is a terminal, unless forced).
    pub ansi: bool,
}

impl Style {
    pub const PLAIN: Style = Style {
        unicode: false,
        ansi: false,
    };

    fn glyphs(self) -> [&'static str; 5] {
        // black, white, empty, forbidden, centre
        if self.unicode {
            ["●", "○", "·", "×", "+"]
        } else {
            ["X", "O", ".", "!", "+"]
        }
    }
}

const RESET: &str = "\x1b[0m";
const BOLD: &str = "\x1b[1m";
const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32;1m";
const YELLOW: &str = "\x1b[33;1m";
const DIM: &str = "\x1b[2m";

/// The column letters (a..z; wider boards are played with x,y).
fn column_label(x: usize) -> char {
    if x < 26 {
        (b'A' + x as u8) as char
    } else {
        ' '
    }
}

/// Draws the board: a header of column letters, one line per row with its renju row number on
/// both sides (row 1 at the bottom), the last move in brackets, `forbidden` squares marked and
/// the `winning` stones highlighted (colour only).
pub fn board_text(board: &Board, forbidden: &[Pos], winning: &[Pos], style: Style) -> String {
    let (w, h) = (board.width(), board.height());
    let g = style.glyphs();
    let paint = |s: &str, code: &str| {
        if style.ansi && !code.is_empty() {
            format!("{code}{s}{RESET}")
        } else {
            s.to_string()
        }
    };
    let mut header = String::from("   ");
    for x in 0..w {
        header.push(' ');
        header.push(column_label(x));
    }
    let mut out = String::new();
    out.push_str(header.trim_end());
    out.push('\n');
    let last = board.last_move();
    let centre = Pos::new(w / 2, h / 2);
    for y in 0..h {
        let row = h - y;
        let mut line = format!("{row:>2} ");
        for x in 0..w {
            let p = Pos::new(x, y);
            let (glyph, code) = match board.stone(p) {
                Some(Color::Black) => (g[0], BOLD),
                Some(Color::White) => (g[1], BOLD),
                None if forbidden.contains(&p) => (g[3], RED),
                None if p == centre => (g[4], DIM),
                None => (g[2], DIM),
            };
            let code = if winning.contains(&p) { GREEN } else { code };
            let is_last = last == Some(p);
            let before = if is_last {
                "["
            } else if x > 0 && last == Some(Pos::new(x - 1, y)) {
                ""
            } else {
                " "
            };
            line.push_str(&paint(before, if is_last { YELLOW } else { "" }));
            line.push_str(&paint(glyph, code));
            if is_last {
                line.push_str(&paint("]", YELLOW));
            }
        }
        if last != Some(Pos::new(w - 1, y)) {
            line.push(' ');
        }
        line.push_str(&format!(" {row}"));
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(header.trim_end());
    out.push('\n');
    out
}

/// Who a colour is, in words, for this session ("you", "gorin", or nobody in particular).
fn who(session: &Session, c: Color) -> &'static str {
    match (session.players(), session.player(c)) {
        ([Player::Human, Player::Human], _) => "",
        ([Player::Engine, Player::Engine], _) => "gorin",
        (_, Player::Human) => "you",
        (_, Player::Engine) => "gorin",
    }
}

fn with_who(session: &Session, c: Color) -> String {
    match who(session, c) {
        "" => c.to_string(),
        w => format!("{c} ({w})"),
    }
}

fn names(ps: &[Pos], h: usize) -> String {
    ps.iter().map(|&p| name(p, h)).collect::<Vec<_>>().join(" ")
}

/// The board with its status lines, as shown after every change.
pub fn screen(session: &Session, style: Style) -> String {
    let board = session.board();
    let black_to_move = board.side_to_move() == Color::Black;
    let forbidden = if black_to_move && !session.is_over() {
        board.forbidden_points()
    } else {
        Vec::new()
    };
    let winning = match session.result() {
        Some(GameEnd::Five { line, .. }) => line.clone(),
        _ => Vec::new(),
    };
    let mut s = board_text(board, &forbidden, &winning, style);
    let side = board.side_to_move();
    let state = match session.result() {
        Some(_) => "game over".to_string(),
        None => format!("{} to move", with_who(session, side)),
    };
    let count = match session.result() {
        Some(_) => format!("{} moves", board.move_count()),
        None => format!("move {}", board.move_count() + 1),
    };
    let mut status = format!(
        "{} {}x{} · {count} · {state}",
        board.rule(),
        board.width(),
        board.height(),
    );
    if let Some(p) = board.last_move() {
        status.push_str(&format!(" · last {}", name(p, board.height())));
    }
    if !style.unicode {
        status = status.replace('·', "|");
    }
    s.push_str(&status);
    s.push('\n');
    if !forbidden.is_empty() {
        let g = style.glyphs();
        // At most a line's worth of names, so the screen still fits 80x24.
        let shown = forbidden.len().min(12);
        let mut list = names(&forbidden[..shown], board.height());
        if shown < forbidden.len() {
            list.push_str(&format!(" and {} more", forbidden.len() - shown));
        }
        s.push_str(&format!("{} = forbidden for black: {list}\n", g[3]));
    }
    s
}

fn threat_text(t: &Threat, h: usize) -> String {
    match t {
        Threat::Win { side, kind, line } => {
            format!("forced win for {side} ({kind}): {}", names(line, h))
        }
        Threat::NoWin { side } => format!("the solver proves {side} has no forced win (VCF/VCT)"),
        Threat::Unknown { side } => {
            format!("forced win for {side}: unknown (the solver could not tell within its limits)")
        }
    }
}

/// One event as text lines (empty for events that only redraw the board).
pub fn event_text(session: &Session, event: &Event) -> String {
    let h = session.board().height();
    match event {
        Event::Played {
            pos, color, eval, ..
        } => {
            let mut s = format!("{} plays {}", with_who(session, *color), name(*pos, h));
            if let Some((score, depth)) = eval {
                s.push_str(&format!(" (eval {score:+}, depth {depth})"));
            }
            s
        }
        Event::Refused(msg) => format!("error: {msg}"),
        Event::Undone(n) => format!("took back {n} move{}", if *n == 1 { "" } else { "s" }),
        Event::Restarted => "new game".into(),
        Event::Over(end) => {
            let mut s = match end {
                GameEnd::Five { winner, line } => {
                    format!("game over: {winner} wins with {}", names(line, h))
                }
                GameEnd::Resigned { loser } => {
                    format!("game over: {} wins, {loser} resigned", loser.opposite())
                }
                GameEnd::Draw => "game over: draw, no square left to play".into(),
            };
            if let Some(attacker) = session.puzzle() {
                let solved = matches!(end, GameEnd::Five { winner, .. } if *winner == attacker);
                s.push_str(if solved {
                    " - puzzle solved!"
                } else {
                    " - puzzle not solved (type restart to try again)"
                });
            }
            s
        }
        Event::Hint { side, best, threat } => {
            let mut s = match best {
                Some((p, score, depth)) => format!(
                    "hint for {side}: {} (eval {score:+}, depth {depth})",
                    name(*p, h)
                ),
                None => format!("hint for {side}: no move"),
            };
            s.push('\n');
            s.push_str(&threat_text(threat, h));
            s
        }
        Event::PuzzleStart(t) => {
            let attacker = session.puzzle().unwrap_or(Color::Black);
            let verdict = match t {
                Threat::Win { kind, line, .. } => format!(
                    "the solver confirms a forced win ({kind}, {})",
                    attacking_moves(line.len())
                ),
                Threat::NoWin { .. } => "the solver finds no forced win here".into(),
                Threat::Unknown { .. } => {
                    "the solver cannot tell whether the win exists (unknown)".into()
                }
            };
            format!(
                "puzzle: {attacker} to move and win; you play {attacker}, gorin defends\n{verdict}"
            )
        }
        Event::Verdict(t) => match t {
            Threat::Win { kind, line, .. } => format!(
                "your win still holds ({kind} in {}; type hint to see it)",
                attacking_moves(line.len())
            ),
            Threat::NoWin { .. } => {
                "your win is gone: the solver finds no forced win any more (undo to try again)"
                    .into()
            }
            Threat::Unknown { .. } => {
                "does your win still hold? unknown: the solver could not tell".into()
            }
        },
        Event::Loaded { what, moves } => format!("loaded {what}: {moves} moves"),
        Event::Saved(path) => format!("saved to {}", path.display()),
        Event::MoveList(ps) if ps.is_empty() => "moves: (none)".into(),
        Event::MoveList(ps) => format!("moves: {}", names(ps, h)),
        Event::Info(s) => s.clone(),
        Event::Help => HELP.trim_end().into(),
        Event::Show => String::new(),
        Event::Quit => "bye".into(),
    }
}

pub const HELP: &str = "\
Type a square as h8 (column letter, row number from the bottom) or x,y (0,0 top-left).
Commands:
  undo             take back your last move (and the engine's reply)
  restart          start again (a puzzle restarts from its position)
  resign           give up this game
  hint             the engine's suggestion, and a forced win if the solver sees one
  swap             exchange colours with the engine
  go               let the engine play the side to move (Enter steps engine games)
  time S, level L  engine time per move: 0.1 to 10 seconds, or easy, normal, hard
  save FILE        save the game (FILE.psq: Piskvork PSQ, else a move list)
  load FILE        load a saved game (PSQ or move list)
  setup LIST       set up a position: moves h8 i9 h7, or b=h8,i8 w=h9 [black|white]
  puzzle LIST      as setup; find the win for the side to move, gorin defends
  moves            list the moves played
  board            draw the board again
  help, quit
";

/// "1 attacking move" / "3 attacking moves" for a line of attacker and defender moves.
fn attacking_moves(line_len: usize) -> String {
    match line_len.div_ceil(2) {
        1 => "1 attacking move".into(),
        n => format!("{n} attacking moves"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Rule;

    #[test]
    fn board_has_labels_last_move_and_forbidden_marks() {
        let mut b = Board::new(15, 15, Rule::Renju).unwrap();
        b.play(Pos::new(7, 7)).unwrap(); // H8
        b.play(Pos::new(0, 14)).unwrap(); // A1
        let f = [Pos::new(14, 0)];
        let text = board_text(&b, &f, &[], Style::PLAIN);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 17);
        assert_eq!(lines[0], "    A B C D E F G H I J K L M N O");
        assert_eq!(lines[16], lines[0]);
        assert!(lines[1].starts_with("15 ") && lines[1].ends_with(" 15"));
        assert!(lines[1].contains('!'));
        assert_eq!(lines[8], " 8  . . . . . . . X . . . . . . .  8");
        assert_eq!(lines[15], " 1 [O]. . . . . . . . . . . . . .  1");
        assert!(lines.iter().all(|l| l.len() <= 80));
        // Every row's right label starts in the same column.
        let body = |l: &str| l.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        assert!(lines[1..16].iter().all(|l| body(l) == body(lines[8])));
        assert!(!text.contains('\x1b'));
    }

    #[test]
    fn events_read_as_one_clear_line_each() {
        use crate::play::session::{Command, Config, Setup, Strength};
        let config = Config {
            rule: Rule::Renju,
            players: [Player::Human, Player::Human],
            strength: Strength::parse("0.1").unwrap(),
            ..Config::default()
        };
        let mut s = Session::new(config).unwrap();
        let h8 = Pos::new(7, 7);
        let line: Vec<Pos> = (3..8).map(|x| Pos::new(x, 7)).collect();
        let over = Event::Over(GameEnd::Five {
            winner: Color::Black,
            line: line.clone(),
        });
        assert_eq!(
            event_text(&s, &over),
            "game over: black wins with D8 E8 F8 G8 H8"
        );
        let win = Threat::Win {
            side: Color::Black,
            kind: "VCF",
            line: line.clone(),
        };
        assert_eq!(
            event_text(&s, &Event::Verdict(win.clone())),
            "your win still holds (VCF in 3 attacking moves; type hint to see it)"
        );
        let unknown = Threat::Unknown { side: Color::Black };
        assert!(event_text(&s, &Event::Verdict(unknown)).contains("unknown"));
        let gone = Threat::NoWin { side: Color::Black };
        assert!(event_text(&s, &Event::Verdict(gone)).contains("win is gone"));
        let hint = Event::Hint {
            side: Color::Black,
            best: Some((h8, 35, 4)),
            threat: win,
        };
        assert_eq!(
            event_text(&s, &hint),
            "hint for black: H8 (eval +35, depth 4)\nforced win for black (VCF): D8 E8 F8 G8 H8"
        );
        // In a puzzle the end says whether it was solved.
        s.apply(Command::Puzzle(Setup {
            sequence: vec![],
            black: vec![h8],
            white: vec![],
            to_move: Some(Color::Black),
        }));
        assert!(event_text(&s, &over).ends_with("puzzle solved!"));
        // The screen: status line, and black's forbidden points listed when black is to move.
        let text = screen(&s, Style::PLAIN);
        assert!(
            text.contains("renju 15x15 | move 2 | black (you) to move | last H8"),
            "{text}"
        );
    }

    #[test]
    fn twenty_board_fits_and_colour_is_optional() {
        let mut b = Board::new(20, 20, Rule::Freestyle).unwrap();
        b.play(Pos::new(19, 0)).unwrap(); // T20, at the right edge
        let text = board_text(&b, &[], &[], Style::PLAIN);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 22);
        assert!(lines[1].ends_with("[X] 20"), "{}", lines[1]);
        assert!(lines.iter().all(|l| l.len() <= 80));
        let coloured = board_text(
            &b,
            &[],
            &[],
            Style {
                unicode: true,
                ansi: true,
            },
        );
        assert!(coloured.contains('●') && coloured.contains("\x1b["));
    }
}
