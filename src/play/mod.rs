//! Terminal play: a person plays Gorin (or a friend) on a board drawn in the terminal, with
//! undo, hints, save/load and puzzles. This file owns the command line and the line-reading
//! loop; `session` holds the game logic, `command` the input syntax, `render` the drawing.

pub mod command;
pub mod render;
pub mod session;

use anyhow::{bail, Context};
use render::Style;
use session::{Command, Config, Outcome, Player, Session, Strength};
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

const USAGE: &str = "\
usage: pbrain-gorin play [options]
  --you black|white      your colour against the engine (default black; black moves first)
  --first you|engine     who moves first against the engine (the same choice, by turn)
  --mode MODE            engine (you against gorin, default), two (two people), watch (gorin
                         against itself)
  --rule RULE            freestyle (default), standard, renju, caro, caro5
  --size N | WxH         board size, 5 to 26 (default 15)
  --time SECONDS         engine time per move, 0.1 to 10
  --level LEVEL          easy, normal (default), hard
  --delay MS             pause between moves when gorin plays itself (default 500 on a
                         terminal, 0 otherwise)
  --step                 when gorin plays itself, wait for Enter before each move
  --load FILE            start from a saved game (PSQ or move list)
  --setup LIST           start from a position: h8i9h7, or b=h8,i8 w=h9 [black|white]
  --puzzle LIST          start a puzzle: the side to move wins, you play it, gorin defends
  --unicode | --ascii    stones as ● ○ or as X O (default: Unicode on a terminal)
  --color auto|always|never  ANSI colours (default: only on a terminal)
Moves are typed as h8 (renju notation, row 1 at the bottom) or x,y; type help for commands.";

/// Everything the command line decides.
#[derive(Debug)]
pub struct Options {
    pub config: Config,
    pub style: Style,
    pub delay_ms: u64,
    pub step: bool,
    /// Commands to run before reading input (--load, --setup, --puzzle).
    pub start: Vec<Command>,
}

/// Reads the options of `pbrain-gorin play`; `Ok(None)` after printing the usage.
pub fn parse_args(args: &[String], terminal: bool) -> anyhow::Result<Option<Options>> {
    let mut config = Config::default();
    let mut you: Option<session::Player> = None; // who plays black
    let mut mode = "engine".to_string();
    let mut unicode = terminal;
    let mut color = "auto".to_string();
    let mut delay_ms = if terminal { 500 } else { 0 };
    let mut step = false;
    let mut start = Vec::new();
    let mut pending: Vec<(String, String)> = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (key, inline) = match arg.split_once('=') {
            Some((k, v)) if k.starts_with("--") => (k.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let flag = |k: &str| matches!(k, "--step" | "--unicode" | "--ascii" | "-h" | "--help");
        if flag(&key) {
            match key.as_str() {
                "--step" => step = true,
                "--unicode" => unicode = true,
                "--ascii" => unicode = false,
                _ => {
                    println!("{USAGE}");
                    return Ok(None);
                }
            }
            continue;
        }
        if !key.starts_with("--") {
            bail!("unexpected argument '{arg}'\n{USAGE}");
        }
        let value = match inline {
            Some(v) => v,
            None => it
                .next()
                .with_context(|| format!("{key} needs a value\n{USAGE}"))?
                .clone(),
        };
        pending.push((key, value));
    }
    // The board size must be known before positions given on the command line are read.
    pending.sort_by_key(|(k, _)| k != "--size");
    for (key, value) in pending {
        let v = value.to_ascii_lowercase();
        match key.as_str() {
            "--you" => {
                let black = match v.as_str() {
                    "black" | "b" | "x" => Player::Human,
                    "white" | "w" | "o" => Player::Engine,
                    _ => bail!("--you takes black or white, not '{value}'"),
                };
                if you.is_some_and(|p| p != black) {
                    bail!("--first and --you disagree: black always moves first");
                }
                you = Some(black);
            }
            "--first" => {
                let black = match v.as_str() {
                    "you" | "me" | "human" => Player::Human,
                    "engine" | "gorin" | "computer" => Player::Engine,
                    _ => bail!("--first takes you or engine, not '{value}'"),
                };
                if you.is_some_and(|p| p != black) {
                    bail!("--first and --you disagree: black always moves first");
                }
                you = Some(black);
            }
            "--mode" => {
                if !matches!(v.as_str(), "engine" | "two" | "watch") {
                    bail!("--mode takes engine, two or watch, not '{value}'");
                }
                mode = v;
            }
            "--rule" => config.rule = value.parse().map_err(|e| anyhow::anyhow!("{e}"))?,
            "--size" => {
                let (w, h) = match v.split_once('x') {
                    Some((w, h)) => (w.parse(), h.parse()),
                    None => (v.parse(), v.parse()),
                };
                match (w, h) {
                    (Ok(w), Ok(h)) if (5..=26).contains(&w) && (5..=26).contains(&h) => {
                        config.width = w;
                        config.height = h;
                    }
                    _ => bail!("--size takes N or WxH with sides from 5 to 26, not '{value}'"),
                }
            }
            "--time" | "--level" => {
                config.strength = Strength::parse(&value).map_err(|e| anyhow::anyhow!("{e}"))?
            }
            "--delay" => {
                delay_ms = v.parse().ok().filter(|&d| d <= 60_000).with_context(|| {
                    format!("--delay takes milliseconds (0 to 60000), not '{value}'")
                })?
            }
            "--color" | "--colour" => {
                if !matches!(v.as_str(), "auto" | "always" | "never") {
                    bail!("--color takes auto, always or never, not '{value}'");
                }
                color = v;
            }
            "--load" => start.push(Command::Load(PathBuf::from(value))),
            "--setup" | "--puzzle" => {
                let s = command::parse_setup(&value, config.width, config.height)
                    .map_err(|e| anyhow::anyhow!("{key}: {e}"))?;
                start.push(if key == "--setup" {
                    Command::Setup(s)
                } else {
                    Command::Puzzle(s)
                });
            }
            _ => bail!("unknown option '{key}'\n{USAGE}"),
        }
    }
    config.players = match mode.as_str() {
        "two" => [Player::Human, Player::Human],
        "watch" => [Player::Engine, Player::Engine],
        _ => match you.unwrap_or(Player::Human) {
            Player::Human => [Player::Human, Player::Engine],
            Player::Engine => [Player::Engine, Player::Human],
        },
    };
    if mode != "engine" && you.is_some() {
        bail!("--you and --first are for games against the engine (--mode engine)");
    }
    let ansi = match color.as_str() {
        "always" => true,
        "never" => false,
        _ => terminal,
    };
    Ok(Some(Options {
        config,
        style: Style { unicode, ansi },
        delay_ms,
        step,
        start,
    }))
}

/// Entry point of `pbrain-gorin play`.
pub fn main(args: &[String]) -> anyhow::Result<()> {
    let terminal = std::io::stdout().is_terminal();
    let Some(opts) = parse_args(args, terminal)? else {
        return Ok(());
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let terminal = terminal && std::io::stdin().is_terminal();
    match run(&opts, stdin.lock(), stdout.lock(), terminal) {
        // The reader of our output went away: nothing more to say to anyone.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r.context("terminal play"),
    }
}

/// The read-apply-draw loop, over any line source and sink. `terminal`: stdin and stdout are a
/// terminal, so the screen is cleared before each board; otherwise each line read is echoed
/// after its prompt so that a transcript reads like a session.
pub fn run(
    opts: &Options,
    mut input: impl BufRead,
    mut out: impl Write,
    terminal: bool,
) -> std::io::Result<()> {
    let mut session = Session::new(opts.config.clone())
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e.to_string()))?;
    let mut screen = Screen {
        style: opts.style,
        clear: terminal,
        log: Vec::new(),
    };
    let mut first = Outcome {
        events: vec![session::Event::Show],
    };
    for cmd in &opts.start {
        first.events.extend(session.apply(cmd.clone()).events);
    }
    first.events.push(session::Event::Info(
        "type a move such as h8, or help".into(),
    ));
    screen.show(&mut out, &session, &first)?;
    let mut raw = Vec::new();
    loop {
        // The engine's turns: each is drawn before the next starts, and your own move before
        // the engine's reply is thought about.
        while session.engine_due() && !(session.engines_only() && opts.step) {
            if session.engines_only() {
                out.flush()?;
                std::thread::sleep(Duration::from_millis(opts.delay_ms));
            } else if terminal {
                write!(out, "gorin is thinking...")?;
                out.flush()?;
            }
            let o = session.apply(Command::Step);
            screen.show(&mut out, &session, &o)?;
        }
        let prompt = if session.engine_due() {
            "[Enter: next move]> ".to_string()
        } else if session.is_over() {
            "> ".to_string()
        } else {
            format!("{}> ", session.board().side_to_move())
        };
        write!(out, "{prompt}")?;
        out.flush()?;
        raw.clear();
        if input.read_until(b'\n', &mut raw)? == 0 {
            writeln!(out)?;
            break;
        }
        // Bytes that are not UTF-8 become U+FFFD and then an ordinary "unknown" answer.
        let line = String::from_utf8_lossy(&raw);
        if !terminal {
            writeln!(out, "{}", line.trim_end())?;
        }
        screen.log.clear();
        let (w, h) = (session.board().width(), session.board().height());
        let cmd = match command::parse(&line, w, h) {
            Ok(Some(c)) => c,
            Ok(None) if session.engine_due() => Command::Step,
            Ok(None) => continue,
            Err(msg) => {
                writeln!(out, "error: {msg}")?;
                continue;
            }
        };
        let o = session.apply(cmd);
        screen.show(&mut out, &session, &o)?;
        if o.is_quit() {
            break;
        }
    }
    out.flush()
}

/// The output side of the loop: on a terminal the screen is cleared before each board, so the
/// messages since the last command are written again under it.
struct Screen {
    style: Style,
    clear: bool,
    log: Vec<String>,
}

impl Screen {
    /// Draws the board when the outcome changed it, then one line per event.
    fn show(
        &mut self,
        out: &mut impl Write,
        session: &Session,
        o: &Outcome,
    ) -> std::io::Result<()> {
        let texts: Vec<String> = o
            .events
            .iter()
            .map(|e| render::event_text(session, e))
            .filter(|t| !t.is_empty())
            .collect();
        if o.shows_board() && self.clear {
            self.log.extend(texts);
            let keep = self.log.len().saturating_sub(4);
            self.log.drain(..keep);
            write!(out, "\x1b[H\x1b[2J{}", render::screen(session, self.style))?;
            for t in &self.log {
                writeln!(out, "{t}")?;
            }
            return Ok(());
        }
        if o.shows_board() {
            write!(out, "{}", render::screen(session, self.style))?;
        }
        for t in &texts {
            writeln!(out, "{t}")?;
        }
        self.log.extend(texts);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn play(opts: &str, input: &str) -> String {
        let o = parse_args(&args(opts), false).unwrap().unwrap();
        let mut out = Vec::new();
        run(&o, input.as_bytes(), &mut out, false).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn options_choose_players_rule_size_and_strength() {
        let o = parse_args(
            &args("--you white --rule renju --size 20 --time 0.2"),
            false,
        )
        .unwrap()
        .unwrap();
        assert_eq!(o.config.players, [Player::Engine, Player::Human]);
        assert_eq!(o.config.rule, crate::board::Rule::Renju);
        assert_eq!((o.config.width, o.config.height), (20, 20));
        assert_eq!(o.config.strength.turn_ms, 200);
        assert_eq!(o.style, Style::PLAIN);
        let o = parse_args(&args("--mode=watch --level hard --size 9x11"), true)
            .unwrap()
            .unwrap();
        assert_eq!(o.config.players, [Player::Engine; 2]);
        assert_eq!((o.config.width, o.config.height), (9, 11));
        assert!(o.style.ansi && o.style.unicode);
        let o = parse_args(&args("--setup t20 --size 20"), false)
            .unwrap()
            .unwrap();
        assert_eq!(o.start.len(), 1);
        for bad in [
            "--size 40",
            "--time 20",
            "--rule chess",
            "--you red",
            "--first engine --you black",
            "--mode two --you white",
            "--bogus 1",
            "--time",
            "extra",
        ] {
            assert!(parse_args(&args(bad), false).is_err(), "{bad}");
        }
    }

    #[test]
    fn loop_reads_lines_until_eof_and_explains_bad_input() {
        let text = play("--mode two", "h8\nh8\nfoo\nz99\n\ni9\nmoves\n");
        assert!(text.contains("error: H8 is occupied"), "{text}");
        assert!(text.contains("error: unknown command 'foo'"), "{text}");
        assert!(text.contains("error: square z99"), "{text}");
        assert!(text.contains("moves: H8 I9"), "{text}");
        assert!(!text.contains('\x1b'));
    }

    #[test]
    fn watch_mode_plays_to_the_end_without_input() {
        let text = play("--mode watch --time 0.1 --size 9", "");
        assert!(text.contains("game over: "), "{text}");
    }
}
