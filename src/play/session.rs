//! The game logic of terminal play: who plays which colour, moves and their checks, undo,
//! restart, hints, save/load, puzzles. `Session::apply` takes a `Command` and returns what
//! happened as `Event`s; it prints nothing, so tests drive it directly and `render` draws it.

use crate::board::notation::{self, Rows};
use crate::board::{Board, BoardError, Color, MoveClass, Pattern, Pos, Rule};
use crate::record::GameRecord;
use crate::search::threat::{Proof, Solver, ThreatLimits};
use crate::search::{Engine, Limits};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Who moves for a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Human,
    Engine,
}

/// How long (and how deep) the engine thinks per move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strength {
    /// A level name, or the time as the user gave it.
    pub name: String,
    pub turn_ms: u64,
    pub max_depth: Option<u32>,
}

/// Shortest and longest time per move a user may ask for.
pub const MIN_TURN_MS: u64 = 100;
pub const MAX_TURN_MS: u64 = 10_000;

impl Strength {
    /// The named levels: `easy` is shallow and quick, `hard` thinks five seconds.
    pub fn level(name: &str) -> Option<Strength> {
        let (turn_ms, max_depth) = match name {
            "easy" => (200, Some(2)),
            "normal" => (1000, None),
            "hard" => (5000, None),
            _ => return None,
        };
        Some(Strength {
            name: name.to_string(),
            turn_ms,
            max_depth,
        })
    }

    /// A level name or seconds per move (`0.5`, `2s`), 0.1 to 10 seconds.
    pub fn parse(s: &str) -> Result<Strength, String> {
        let t = s.trim().to_ascii_lowercase();
        if let Some(l) = Strength::level(&t) {
            return Ok(l);
        }
        let secs: f64 = t.strip_suffix('s').unwrap_or(&t).parse().map_err(|_| {
            format!(
                "'{s}' is not a strength: give seconds per move (0.1 to 10) or easy, normal, hard"
            )
        })?;
        let ms = (secs * 1000.0).round();
        if !(MIN_TURN_MS as f64..=MAX_TURN_MS as f64).contains(&ms) {
            return Err(format!(
                "{s} s per move is out of range: give 0.1 to 10 seconds"
            ));
        }
        Ok(Strength {
            name: format!("{} s per move", ms / 1000.0),
            turn_ms: ms as u64,
            max_depth: None,
        })
    }

    pub fn limits(&self) -> Limits {
        Limits {
            turn_ms: Some(self.turn_ms),
            max_depth: self.max_depth,
            ..Limits::default()
        }
    }
}

/// How a session starts.
#[derive(Clone, Debug)]
pub struct Config {
    pub width: usize,
    pub height: usize,
    pub rule: Rule,
    /// Who plays black and who plays white.
    pub players: [Player; 2],
    pub strength: Strength,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            players: [Player::Human, Player::Engine],
            strength: Strength::level("normal").expect("normal is a level"),
        }
    }
}

/// A position to set up: either moves alternating from black, or each colour's stones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub sequence: Vec<Pos>,
    pub black: Vec<Pos>,
    pub white: Vec<Pos>,
    /// Side to move; by default the side with fewer stones (black when equal).
    pub to_move: Option<Color>,
}

/// What the user asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Play(Pos),
    Undo,
    Restart,
    Resign,
    Hint,
    Swap,
    /// Let the engine play the side to move (engine-vs-engine steps, or "play for me").
    Step,
    Save(PathBuf),
    Load(PathBuf),
    /// A position to play on.
    Setup(Setup),
    /// A position where the side to move has a win to find; the engine defends.
    Puzzle(Setup),
    SetStrength(Strength),
    Moves,
    Show,
    Help,
    Quit,
}

/// What a threat search found for one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Threat {
    /// A forced win: attacker and defender moves alternately, ending with the five.
    Win {
        side: Color,
        kind: &'static str,
        line: Vec<Pos>,
    },
    /// The solver proved there is no VCF and no VCT.
    NoWin { side: Color },
    /// The solver hit its limits (or is not able to tell).
    Unknown { side: Color },
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameEnd {
    Five {
        winner: Color,
        line: Vec<Pos>,
    },
    Resigned {
        loser: Color,
    },
    /// The board is full, or the side to move has no legal square.
    Draw,
}

/// One thing that happened while applying a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Played {
        pos: Pos,
        color: Color,
        by: Player,
        /// The engine's score and depth when the engine chose the move.
        eval: Option<(i32, u32)>,
    },
    /// The command was refused; the game is unchanged.
    Refused(String),
    Undone(usize),
    Restarted,
    Over(GameEnd),
    Hint {
        side: Color,
        best: Option<(Pos, i32, u32)>,
        threat: Threat,
    },
    /// A puzzle started: who attacks and what the solver says about it.
    PuzzleStart(Threat),
    /// In a puzzle, after your move and the engine's defence: does your win still hold?
    Verdict(Threat),
    Loaded {
        what: String,
        moves: usize,
    },
    Saved(PathBuf),
    MoveList(Vec<Pos>),
    Info(String),
    Help,
    Show,
    Quit,
}

/// Everything one command did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub events: Vec<Event>,
}

impl Outcome {
    fn refused(msg: impl Into<String>) -> Outcome {
        Outcome {
            events: vec![Event::Refused(msg.into())],
        }
    }

    /// Whether the command was refused (the game is unchanged).
    pub fn is_refused(&self) -> bool {
        matches!(self.events.first(), Some(Event::Refused(_)))
    }

    pub fn is_quit(&self) -> bool {
        self.events.contains(&Event::Quit)
    }

    /// Whether the board changed (or was asked for) and should be drawn again.
    pub fn shows_board(&self) -> bool {
        self.events.iter().any(|e| {
            matches!(
                e,
                Event::Played { .. }
                    | Event::Undone(_)
                    | Event::Restarted
                    | Event::Loaded { .. }
                    | Event::PuzzleStart(_)
                    | Event::Show
            )
        })
    }
}

/// The renju-notation name of a square (what the board shows and the user types).
pub fn name(p: Pos, height: usize) -> String {
    notation::square_name(p, height, Rows::FromBottom)
}

/// A game in progress and everything needed to play it.
pub struct Session {
    config: Config,
    board: Board,
    /// The position `restart` returns to and `undo` never goes below.
    start: Board,
    players: [Player; 2],
    /// In a puzzle: the attacker (the human); the players before the puzzle are kept aside.
    puzzle: Option<(Color, [Player; 2])>,
    result: Option<GameEnd>,
    strength: Strength,
    engine: Engine,
    solver: Solver,
    stop: AtomicBool,
}

impl Session {
    pub fn new(config: Config) -> Result<Session, BoardError> {
        let board = Board::new(config.width, config.height, config.rule)?;
        Ok(Session {
            start: board.clone(),
            board,
            players: config.players,
            puzzle: None,
            result: None,
            strength: config.strength.clone(),
            engine: Engine::new(),
            solver: Solver::new(),
            stop: AtomicBool::new(false),
            config,
        })
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn players(&self) -> [Player; 2] {
        self.players
    }

    pub fn player(&self, c: Color) -> Player {
        self.players[c.index()]
    }

    pub fn result(&self) -> Option<&GameEnd> {
        self.result.as_ref()
    }

    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    pub fn strength(&self) -> &Strength {
        &self.strength
    }

    /// The attacker when a puzzle is being solved.
    pub fn puzzle(&self) -> Option<Color> {
        self.puzzle.map(|(c, _)| c)
    }

    /// Whether both colours are played by the engine.
    pub fn engines_only(&self) -> bool {
        self.players == [Player::Engine; 2]
    }

    /// Whether one colour is the engine's and the other a person's.
    fn against_engine(&self) -> bool {
        self.players[0] != self.players[1]
    }

    /// Whether the engine is to move now. The caller (the line loop) then applies `Step`, so
    /// that your own move is drawn before the engine starts thinking.
    pub fn engine_due(&self) -> bool {
        !self.is_over() && self.player(self.board.side_to_move()) == Player::Engine
    }

    /// Plays the engine's moves owed in a game against the engine, until a person is to move
    /// (engine-vs-engine games are stepped by the caller instead).
    pub fn settle(&mut self) -> Outcome {
        let mut out = Outcome::default();
        let mut guard = self.board.width() * self.board.height();
        while self.engine_due() && !self.engines_only() && guard > 0 {
            out.events.extend(self.apply(Command::Step).events);
            guard -= 1;
        }
        out
    }

    /// Carries out one command. A refused command leaves the game as it was.
    pub fn apply(&mut self, cmd: Command) -> Outcome {
        let mut out = Outcome::default();
        match cmd {
            Command::Play(p) => {
                if let Some(msg) = self.closed_reason() {
                    return Outcome::refused(msg);
                }
                let side = self.board.side_to_move();
                if self.player(side) == Player::Engine {
                    return Outcome::refused(if self.engines_only() {
                        "the engines are playing each other: press Enter or type go to step".into()
                    } else {
                        format!("it is the engine's turn ({side})")
                    });
                }
                if let Err(msg) = self.make_move(p, Player::Human, None, &mut out) {
                    return Outcome::refused(msg);
                }
            }
            Command::Step => {
                if let Some(msg) = self.closed_reason() {
                    return Outcome::refused(msg);
                }
                let side = self.board.side_to_move();
                self.engine_move(&mut out);
                // In a puzzle, once the engine has defended: does the attacker's win still hold?
                if let Some((attacker, _)) = self.puzzle {
                    if !self.is_over() && side != attacker {
                        let t = self.threat(attacker, self.strength.turn_ms);
                        out.events.push(Event::Verdict(t));
                    }
                }
            }
            Command::Undo => return self.undo(),
            Command::Restart => {
                self.board = self.start.clone();
                self.result = None;
                self.engine.clear();
                self.solver.clear();
                out.events.push(Event::Restarted);
                if let Some((attacker, _)) = self.puzzle {
                    let t = self.threat(attacker, self.strength.turn_ms);
                    out.events.push(Event::PuzzleStart(t));
                }
            }
            Command::Resign => {
                if let Some(msg) = self.closed_reason() {
                    return Outcome::refused(msg);
                }
                let loser = match self.players {
                    [Player::Engine, Player::Engine] => {
                        return Outcome::refused("only a person can resign")
                    }
                    [Player::Human, Player::Engine] => Color::Black,
                    [Player::Engine, Player::Human] => Color::White,
                    [Player::Human, Player::Human] => self.board.side_to_move(),
                };
                let end = GameEnd::Resigned { loser };
                self.result = Some(end.clone());
                out.events.push(Event::Over(end));
            }
            Command::Hint => {
                if let Some(msg) = self.closed_reason() {
                    return Outcome::refused(msg);
                }
                let side = self.board.side_to_move();
                let best = self
                    .engine
                    .think(
                        &self.board,
                        &self.strength.limits(),
                        &self.stop,
                        &mut |_| {},
                    )
                    .map(|r| (r.best, r.score, r.depth));
                let threat = self.threat(side, self.strength.turn_ms);
                out.events.push(Event::Hint { side, best, threat });
            }
            Command::Swap => {
                if self.puzzle.is_some() {
                    return Outcome::refused("in a puzzle you play the side that wins");
                }
                if !self.against_engine() {
                    return Outcome::refused("swap exchanges colours with the engine; this game has no human-engine pair");
                }
                self.players.swap(0, 1);
                let me = if self.players[0] == Player::Human {
                    Color::Black
                } else {
                    Color::White
                };
                out.events.push(Event::Info(format!("you now play {me}")));
            }
            Command::Save(path) => match self.save(&path) {
                Ok(()) => out.events.push(Event::Saved(path)),
                Err(msg) => return Outcome::refused(msg),
            },
            Command::Load(path) => return self.load(&path),
            Command::Setup(s) => {
                let board = match self.build(&s) {
                    Ok(b) => b,
                    Err(msg) => return Outcome::refused(msg),
                };
                self.leave_puzzle();
                self.start = Board::new(board.width(), board.height(), board.rule())
                    .expect("size of an existing board");
                let moves = board.move_count();
                self.board = board;
                self.result = None;
                self.engine.clear();
                out.events.push(Event::Loaded {
                    what: "position".into(),
                    moves,
                });
            }
            Command::Puzzle(s) => {
                let board = match self.build(&s) {
                    Ok(b) => b,
                    Err(msg) => return Outcome::refused(msg),
                };
                let attacker = board.side_to_move();
                let before = match self.puzzle {
                    Some((_, p)) => p,
                    None => self.players,
                };
                self.puzzle = Some((attacker, before));
                self.players[attacker.index()] = Player::Human;
                self.players[attacker.opposite().index()] = Player::Engine;
                self.start = board.clone();
                self.board = board;
                self.result = None;
                self.engine.clear();
                self.solver.clear();
                let t = self.threat(attacker, self.strength.turn_ms);
                out.events.push(Event::PuzzleStart(t));
            }
            Command::SetStrength(s) => {
                out.events
                    .push(Event::Info(format!("engine strength: {}", s.name)));
                self.strength = s;
            }
            Command::Moves => out.events.push(Event::MoveList(
                self.board.history().iter().map(|&(p, _)| p).collect(),
            )),
            Command::Show => out.events.push(Event::Show),
            Command::Help => out.events.push(Event::Help),
            Command::Quit => out.events.push(Event::Quit),
        }
        out
    }

    /// Why no move can be made now, if none can.
    fn closed_reason(&self) -> Option<String> {
        self.result
            .as_ref()
            .map(|_| "the game is over: type undo, restart, load or quit".to_string())
    }

    /// Checks and plays `p` for the side to move, then judges the position.
    fn make_move(
        &mut self,
        p: Pos,
        by: Player,
        eval: Option<(i32, u32)>,
        out: &mut Outcome,
    ) -> Result<(), String> {
        let color = self.board.side_to_move();
        let end = judge_move(&mut self.board, p)?;
        out.events.push(Event::Played {
            pos: p,
            color,
            by,
            eval,
        });
        if let Some(end) = end {
            self.result = Some(end.clone());
            out.events.push(Event::Over(end));
        }
        Ok(())
    }

    /// The engine chooses and plays a move for the side to move.
    fn engine_move(&mut self, out: &mut Outcome) {
        let side = self.board.side_to_move();
        let found = self.engine.think(
            &self.board,
            &self.strength.limits(),
            &self.stop,
            &mut |_| {},
        );
        let mut choice = found.map(|r| (r.best, Some((r.score, r.depth))));
        // The engine promises a legal move; should it ever break that promise, the game goes on
        // with the legal square nearest the centre rather than a forbidden or occupied one.
        if let Some((p, _)) = choice {
            if !self.board.contains(p) || !self.board.is_legal(p, side) {
                log::warn!("engine proposed an illegal move {p}; playing a fallback");
                choice = None;
            }
        }
        let choice = choice.or_else(|| fallback_move(&mut self.board).map(|p| (p, None)));
        match choice {
            Some((p, eval)) => {
                if let Err(msg) = self.make_move(p, Player::Engine, eval, out) {
                    log::warn!("engine move {p} refused: {msg}");
                    self.finish(GameEnd::Draw, out);
                }
            }
            None => self.finish(GameEnd::Draw, out),
        }
    }

    fn finish(&mut self, end: GameEnd, out: &mut Outcome) {
        self.result = Some(end.clone());
        out.events.push(Event::Over(end));
    }

    /// Asks the threat solver whether `side` has a forced win (VCF first, then VCT), as if
    /// `side` were to move.
    fn threat(&mut self, side: Color, budget_ms: u64) -> Threat {
        let mut b = self.board.clone();
        b.set_side_to_move(side);
        let budget = Duration::from_millis(budget_ms.clamp(200, 3000));
        let limits = |share: u32| ThreatLimits {
            max_nodes: 5_000_000,
            deadline: Some(Instant::now() + budget / share),
        };
        let vcf = self.solver.vcf(&mut b, &limits(3));
        if let Proof::Win(line) = vcf {
            return Threat::Win {
                side,
                kind: "VCF",
                line,
            };
        }
        match self.solver.vct(&mut b, &limits(1), &self.stop) {
            Proof::Win(line) => Threat::Win {
                side,
                kind: "VCT",
                line,
            },
            Proof::NoWin if vcf == Proof::NoWin => Threat::NoWin { side },
            _ => Threat::Unknown { side },
        }
    }

    fn undo(&mut self) -> Outcome {
        if let Some(GameEnd::Resigned { .. }) = self.result {
            self.result = None;
            return Outcome {
                events: vec![Event::Info("resignation withdrawn".into())],
            };
        }
        let base = self.start.move_count();
        let ours = self.board.history()[base..].iter().map(|&(_, c)| c);
        let popped = if self.against_engine() {
            let human = if self.players[0] == Player::Human {
                Color::Black
            } else {
                Color::White
            };
            if !ours.clone().any(|c| c == human) {
                return Outcome::refused("no move of yours to take back");
            }
            // Take back to the previous position where it was your turn.
            let mut n = 0;
            while self.board.move_count() > base && (n == 0 || self.board.side_to_move() != human) {
                self.board.unmake();
                n += 1;
            }
            n
        } else {
            if ours.count() == 0 {
                return Outcome::refused("no move to take back");
            }
            self.board.unmake();
            1
        };
        self.result = None;
        Outcome {
            events: vec![Event::Undone(popped)],
        }
    }

    /// Builds the board of a set-up position, refusing squares off the board, repeated squares
    /// and positions that already hold a five.
    fn build(&self, s: &Setup) -> Result<Board, String> {
        let h = self.board.height();
        let mut b =
            Board::new(self.board.width(), h, self.board.rule()).map_err(|e| e.to_string())?;
        let has_lists = !s.black.is_empty() || !s.white.is_empty();
        if !s.sequence.is_empty() && has_lists {
            return Err("give either a move list or stone lists, not both".into());
        }
        let place = |b: &mut Board, p: Pos, c: Color| {
            b.place(p, c).map_err(|e| match e {
                BoardError::Occupied { .. } => format!("{} is given twice", name(p, h)),
                e => e.to_string(),
            })
        };
        for &p in &s.sequence {
            let c = b.side_to_move();
            place(&mut b, p, c)?;
        }
        let (nb, nw) = (s.black.len(), s.white.len());
        for i in 0..nb.max(nw) {
            if let Some(&p) = s.black.get(i) {
                place(&mut b, p, Color::Black)?;
            }
            if let Some(&p) = s.white.get(i) {
                place(&mut b, p, Color::White)?;
            }
        }
        if b.move_count() == 0 && s.to_move.is_none() {
            return Err("the position has no stones".into());
        }
        if let Some(&(p, _)) = b
            .history()
            .iter()
            .find(|&&(p, _)| b.winning_line(p).is_some())
        {
            return Err(format!(
                "the position already has a five (through {})",
                name(p, h)
            ));
        }
        let to_move = s.to_move.unwrap_or(if s.sequence.is_empty() {
            if nb > nw {
                Color::White
            } else {
                Color::Black
            }
        } else {
            b.side_to_move()
        });
        b.set_side_to_move(to_move);
        Ok(b)
    }

    fn leave_puzzle(&mut self) {
        if let Some((_, before)) = self.puzzle.take() {
            self.players = before;
        }
    }

    /// Writes the game: PSQ when the file name ends in `.psq`, else a pos-notation move list.
    fn save(&self, path: &std::path::Path) -> Result<(), String> {
        let alternate = self.board.history().iter().enumerate().all(|(i, &(_, c))| {
            c == if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            }
        });
        if !alternate {
            return Err(
                "this position was set up out of turn and cannot be saved as a game".into(),
            );
        }
        let is_psq = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("psq"));
        let text = if is_psq {
            GameRecord::from_board(&self.board).to_psq()
        } else {
            format!(
                "# gorin game {}x{} {}: moves in pos notation (a1 = top-left), black first\n{}\n",
                self.board.width(),
                self.board.height(),
                self.board.rule(),
                notation::move_list(&self.board)
            )
        };
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Reads a game saved by `save` (PSQ or move list) and replays it under the current rule.
    fn load(&mut self, path: &std::path::Path) -> Outcome {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => return Outcome::refused(format!("cannot read {}: {e}", path.display())),
        };
        let loaded = if text.trim_start().starts_with("Piskvorky") {
            GameRecord::parse_psq(&text)
                .map_err(|e| e.to_string())
                .map(|r| {
                    (
                        r.width,
                        r.height,
                        self.board.rule(),
                        r.moves.iter().map(|&(p, _)| p).collect::<Vec<_>>(),
                    )
                })
        } else {
            parse_move_file(&text, &self.board)
        };
        let (w, h, rule, moves) = match loaded {
            Ok(x) => x,
            Err(msg) => return Outcome::refused(msg),
        };
        let (board, end) = match replay(w, h, rule, &moves) {
            Ok(x) => x,
            Err(msg) => return Outcome::refused(format!("{}: {msg}", path.display())),
        };
        self.leave_puzzle();
        self.start = Board::new(w, h, rule).expect("size of a replayed board");
        self.board = board;
        self.result = end.clone();
        self.engine.clear();
        self.solver.clear();
        let mut out = Outcome {
            events: vec![Event::Loaded {
                what: path.display().to_string(),
                moves: moves.len(),
            }],
        };
        if let Some(end) = end {
            out.events.push(Event::Over(end));
        }
        out
    }

    /// The configuration the session started with.
    pub fn config(&self) -> &Config {
        &self.config
    }
}

/// Plays `p` for the side to move if the rule allows it, and says whether the game ended.
/// On refusal the board is unchanged and the error explains why in one line.
pub fn judge_move(board: &mut Board, p: Pos) -> Result<Option<GameEnd>, String> {
    let h = board.height();
    let color = board.side_to_move();
    if !board.contains(p) {
        return Err(format!(
            "{},{} is off the {}x{} board",
            p.x(),
            p.y(),
            board.width(),
            h
        ));
    }
    let class = board.classify_move(p, color).map_err(|e| match e {
        BoardError::Occupied { .. } => format!("{} is occupied", name(p, h)),
        e => e.to_string(),
    })?;
    if class == MoveClass::Forbidden {
        return Err(format!(
            "{} is forbidden for black under renju ({}); choose another square",
            name(p, h),
            forbidden_kind(board, p)
        ));
    }
    board.make(p);
    if class == MoveClass::Win {
        let line = board.winning_line(p).unwrap_or_else(|| vec![p]);
        return Ok(Some(GameEnd::Five {
            winner: color,
            line,
        }));
    }
    if board.is_full() || no_legal_move(board) {
        return Ok(Some(GameEnd::Draw));
    }
    Ok(None)
}

/// Why a black stone on `p` is forbidden, in words.
pub fn forbidden_kind(board: &Board, p: Pos) -> &'static str {
    let pats = board.patterns(p, Color::Black);
    if pats.contains(&Pattern::Overline) {
        "overline: six or more in a row"
    } else if pats.iter().map(|q| q.four_count()).sum::<u32>() >= 2 {
        "double-four: two fours at once"
    } else {
        "double-three: two open threes at once"
    }
}

/// Renju: black to move with every empty square forbidden.
fn no_legal_move(board: &mut Board) -> bool {
    if board.rule() != Rule::Renju || board.side_to_move() != Color::Black {
        return false;
    }
    let empties: Vec<Pos> = board.squares().filter(|&p| board.is_empty(p)).collect();
    empties.len() <= 8 && empties.iter().all(|&p| board.is_forbidden(p))
}

/// The legal square nearest the centre, for when the engine gives no usable move.
fn fallback_move(board: &mut Board) -> Option<Pos> {
    let side = board.side_to_move();
    let centre = Pos::new(board.width() / 2, board.height() / 2);
    let mut squares: Vec<Pos> = board.squares().filter(|&p| board.is_empty(p)).collect();
    squares.sort_by_key(|&p| (p.distance(centre), p));
    squares.into_iter().find(|&p| board.is_legal(p, side))
}

/// Replays `moves` from an empty board, refusing illegal moves and moves after the end.
pub fn replay(
    w: usize,
    h: usize,
    rule: Rule,
    moves: &[Pos],
) -> Result<(Board, Option<GameEnd>), String> {
    let mut board = Board::new(w, h, rule).map_err(|e| e.to_string())?;
    let mut end = None;
    for (i, &p) in moves.iter().enumerate() {
        if end.is_some() {
            return Err(format!("the game ended at move {i} but the record goes on"));
        }
        end = judge_move(&mut board, p).map_err(|e| format!("move {}: {e}", i + 1))?;
    }
    Ok((board, end))
}

/// Reads a move-list file: `#` comment lines (the one `save` writes names the size and rule),
/// then the moves in pos notation.
fn parse_move_file(text: &str, board: &Board) -> Result<(usize, usize, Rule, Vec<Pos>), String> {
    let (mut w, mut h, mut rule) = (board.width(), board.height(), board.rule());
    let mut list = String::new();
    for line in text.lines().map(str::trim) {
        if let Some(c) = line.strip_prefix('#') {
            let words: Vec<&str> = c.split_whitespace().collect();
            if let ["gorin", "game", size, r, ..] = words.as_slice() {
                if let Some((a, b)) = size.split_once('x') {
                    if let (Ok(a), Ok(b)) = (a.parse(), b.parse()) {
                        (w, h) = (a, b);
                    }
                }
                if let Ok(r) = r.trim_end_matches(':').parse() {
                    rule = r;
                }
            }
        } else {
            list.push_str(line);
            list.push(' ');
        }
    }
    let moves = notation::parse_move_list(&list, w, h, Rows::FromTop)
        .map_err(|e| format!("not a move list: {e}"))?;
    Ok((w, h, rule, moves))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(rule: Rule, players: [Player; 2]) -> Session {
        Session::new(Config {
            rule,
            players,
            strength: Strength::parse("0.1").unwrap(),
            ..Config::default()
        })
        .unwrap()
    }

    fn sq(s: &str) -> Pos {
        notation::parse_square(s, 15, 15, Rows::FromBottom).unwrap()
    }

    const HH: [Player; 2] = [Player::Human, Player::Human];

    /// A command and the engine's moves it brings, as the line loop plays them.
    fn act(s: &mut Session, cmd: Command) -> Outcome {
        let mut o = s.apply(cmd);
        o.events.extend(s.settle().events);
        o
    }

    #[test]
    fn strength_parses_levels_and_seconds() {
        assert_eq!(Strength::parse("0.1").unwrap().turn_ms, 100);
        assert_eq!(Strength::parse("10s").unwrap().turn_ms, 10_000);
        assert_eq!(Strength::parse("hard").unwrap().turn_ms, 5000);
        assert_eq!(Strength::parse("easy").unwrap().max_depth, Some(2));
        assert!(Strength::parse("0.05").is_err());
        assert!(Strength::parse("11").is_err());
        assert!(Strength::parse("fast").is_err());
    }

    #[test]
    fn two_humans_play_to_a_five_with_its_line() {
        let mut s = session(Rule::Freestyle, HH);
        for m in ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4"] {
            let o = s.apply(Command::Play(sq(m)));
            assert!(!o.is_refused(), "{m}: {o:?}");
        }
        let o = s.apply(Command::Play(sq("l8")));
        let line: Vec<Pos> = ["h8", "i8", "j8", "k8", "l8"]
            .iter()
            .map(|m| sq(m))
            .collect();
        assert!(o.events.contains(&Event::Over(GameEnd::Five {
            winner: Color::Black,
            line: line.clone()
        })));
        assert!(s.is_over());
        assert!(s.apply(Command::Play(sq("m8"))).is_refused());
        // Undo reopens the game.
        assert_eq!(s.apply(Command::Undo).events, vec![Event::Undone(1)]);
        assert!(!s.is_over());
        assert_eq!(s.board().move_count(), 8);
    }

    #[test]
    fn bad_moves_leave_the_game_unchanged() {
        let mut s = session(Rule::Freestyle, HH);
        s.apply(Command::Play(sq("h8")));
        let hash = s.board().hash();
        let o = s.apply(Command::Play(sq("h8")));
        assert_eq!(o.events, vec![Event::Refused("H8 is occupied".into())]);
        let o = s.apply(Command::Play(Pos::new(20, 3)));
        assert!(o.is_refused());
        assert_eq!(s.board().hash(), hash);
        assert_eq!(s.board().move_count(), 1);
    }

    #[test]
    fn renju_refuses_black_double_three() {
        let mut s = session(Rule::Renju, HH);
        // Black H8, I8 and H9, H10 ... : black at J... builds a 3x3 on G? Use a clear shape:
        // black stones I8, J8 (row) and H9, H10 (column); black on H8 makes two open threes.
        for m in ["i8", "a1", "j8", "a3", "h9", "a5", "h10", "a7"] {
            assert!(!s.apply(Command::Play(sq(m))).is_refused(), "{m}");
        }
        assert!(s.board().forbidden_points().contains(&sq("h8")));
        let o = s.apply(Command::Play(sq("h8")));
        match &o.events[..] {
            [Event::Refused(msg)] => assert!(msg.contains("double-three"), "{msg}"),
            e => panic!("{e:?}"),
        }
        assert_eq!(s.board().move_count(), 8);
        // White may play there.
        s.apply(Command::Play(sq("o15")));
        assert!(!s.apply(Command::Play(sq("h8"))).is_refused());
    }

    #[test]
    fn engine_replies_and_undo_takes_back_both_moves() {
        let mut s = session(Rule::Freestyle, [Player::Human, Player::Engine]);
        let o = act(&mut s, Command::Play(sq("h8")));
        let played: Vec<_> = o
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Played { by, color, .. } => Some((*by, *color)),
                _ => None,
            })
            .collect();
        assert_eq!(
            played,
            vec![
                (Player::Human, Color::Black),
                (Player::Engine, Color::White)
            ]
        );
        assert_eq!(s.apply(Command::Undo).events, vec![Event::Undone(2)]);
        assert_eq!(s.board().move_count(), 0);
        assert!(s.apply(Command::Undo).is_refused());
    }

    #[test]
    fn engine_plays_black_first_and_swap_changes_sides() {
        let mut s = session(Rule::Freestyle, [Player::Engine, Player::Human]);
        let o = s.settle();
        assert_eq!(s.board().move_count(), 1);
        assert!(o.shows_board());
        assert!(!s.engine_due());
        assert!(s.apply(Command::Undo).is_refused());
        // White (you) moves, then swap: you are black, and it is white's (the engine's) turn.
        let p = s.board().history()[0].0;
        let mine = if p == sq("a1") { sq("o15") } else { sq("a1") };
        act(&mut s, Command::Play(mine));
        assert_eq!(s.board().move_count(), 3);
        act(&mut s, Command::Swap);
        assert_eq!(s.players(), [Player::Human, Player::Engine]);
        assert_eq!(s.board().move_count(), 4);
        assert_eq!(s.board().side_to_move(), Color::Black);
    }

    #[test]
    fn engines_play_a_whole_game_by_steps() {
        let mut s = session(Rule::Standard, [Player::Engine; 2]);
        assert!(s.apply(Command::Play(sq("h8"))).is_refused());
        let mut n = 0;
        assert!(s.settle().events.is_empty());
        while s.engine_due() {
            let o = s.apply(Command::Step);
            assert!(!o.is_refused());
            n += 1;
            assert!(n <= 225);
        }
        match s.result().unwrap() {
            GameEnd::Five { winner, line } => {
                assert!(line.len() >= 5);
                assert!(line.iter().all(|&p| s.board().stone(p) == Some(*winner)));
            }
            GameEnd::Draw => assert!(s.board().is_full()),
            e => panic!("{e:?}"),
        }
    }

    #[test]
    fn restart_resign_and_withdraw() {
        let mut s = session(Rule::Freestyle, HH);
        s.apply(Command::Play(sq("h8")));
        let o = s.apply(Command::Resign);
        assert_eq!(
            o.events,
            vec![Event::Over(GameEnd::Resigned {
                loser: Color::White
            })]
        );
        assert!(s.apply(Command::Hint).is_refused());
        s.apply(Command::Undo);
        assert!(!s.is_over());
        assert_eq!(s.board().move_count(), 1);
        s.apply(Command::Restart);
        assert_eq!(s.board().move_count(), 0);
    }

    #[test]
    fn setup_and_puzzle_positions() {
        let mut s = session(Rule::Renju, [Player::Human, Player::Engine]);
        let setup = Setup {
            sequence: vec![],
            black: vec![sq("h8"), sq("i8"), sq("j8")],
            white: vec![sq("h9"), sq("i9")],
            to_move: None,
        };
        let o = s.apply(Command::Puzzle(setup.clone()));
        assert!(matches!(o.events[..], [Event::PuzzleStart(_)]), "{o:?}");
        assert_eq!(s.puzzle(), Some(Color::White));
        assert_eq!(s.players(), [Player::Engine, Player::Human]);
        // Your move, the engine's defence, then a verdict from the solver.
        let o = act(&mut s, Command::Play(sq("a1")));
        assert!(
            o.events
                .iter()
                .any(|e| matches!(e, Event::Verdict(_) | Event::Over(_))),
            "{o:?}"
        );
        // Restart goes back to the puzzle; undo never goes below it.
        s.apply(Command::Restart);
        assert_eq!(s.board().move_count(), 5);
        assert!(s.apply(Command::Undo).is_refused());
        let bad = Setup {
            black: vec![sq("h8"), sq("h8")],
            ..setup
        };
        assert!(s.apply(Command::Setup(bad)).is_refused());
        let five = Setup {
            sequence: vec![],
            black: ["a1", "b1", "c1", "d1", "e1"]
                .iter()
                .map(|m| sq(m))
                .collect(),
            white: vec![],
            to_move: None,
        };
        assert!(s.apply(Command::Setup(five)).is_refused());
    }

    #[test]
    fn save_and_load_round_trip_both_formats() {
        let dir = std::env::temp_dir().join(format!("gorin-play-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut s = session(Rule::Renju, HH);
        for m in ["h8", "i9", "j7", "g9", "k6"] {
            s.apply(Command::Play(sq(m)));
        }
        let moves = s.board().history().to_vec();
        for file in ["g.psq", "g.txt"] {
            let path = dir.join(file);
            assert_eq!(
                s.apply(Command::Save(path.clone())).events,
                vec![Event::Saved(path.clone())]
            );
            let mut t = session(Rule::Renju, HH);
            let o = t.apply(Command::Load(path));
            assert!(!o.is_refused(), "{o:?}");
            assert_eq!(t.board().history(), &moves[..]);
        }
        // A record that repeats a square is refused and the game stays as it was.
        let path = dir.join("bad.txt");
        std::fs::write(&path, "h8 i9 h8").unwrap();
        assert!(s.apply(Command::Load(path)).is_refused());
        assert!(s.apply(Command::Load(dir.join("missing.psq"))).is_refused());
        std::fs::remove_dir_all(&dir).ok();
    }
}
