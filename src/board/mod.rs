//! The board and the rules: stones, make/undo, the Zobrist key, and the incremental line keys
//! from which every pattern query (five, four, three, ...) and the renju forbidden-point test
//! are answered without scanning the board.

pub mod bench;
mod forbid;
pub mod notation;
pub mod pattern;
pub(crate) mod rng;
mod rule;
mod types;

pub use pattern::Pattern;
pub use rule::{Rule, RuleError};
pub use types::{Color, Pos, DIR_DXY, MAX_SIZE, MIN_SIZE, NCELLS, STRIDE};

use pattern::slot;
use std::fmt;
use types::{DIR_STEP, PAD};

const WALL: u8 = 3;

/// Every cell a line key reaches from an on-board square (five steps in any direction) lies
/// within this many indices of it, and every on-board square is at least this far from both
/// ends of the padded grid.
const REACH: usize = PAD * (STRIDE + 1);
/// The cells around a square that its make and unmake touch: a fixed-size window, so that the
/// constant offsets of the update are checked once, not forty times.
type KeyWindow = [[u32; 4]; 2 * REACH + 1];
/// `LINE_OF[diff + REACH]`: the direction and signed distance (`0 < |k| <= PAD`) of the square
/// `diff` grid indices away along one line, or k = 0 where no line within `PAD` joins them. The
/// grid's stride exceeds the widest board by more than `PAD`, so for two squares of a board the
/// index difference alone names the line.
static LINE_OF: [(u8, i8); 2 * REACH + 1] = {
    assert!(MAX_SIZE + PAD < STRIDE);
    let mut t = [(0u8, 0i8); 2 * REACH + 1];
    let mut d = 0;
    while d < 4 {
        let mut k = 1;
        while k <= PAD as isize {
            t[(REACH as isize + k * DIR_STEP[d]) as usize] = (d as u8, k as i8);
            t[(REACH as isize - k * DIR_STEP[d]) as usize] = (d as u8, -k as i8);
            k += 1;
        }
        d += 1;
    }
    t
};
/// The line joining two squares of a board, seen from `p`: the direction `d` and the signed
/// number of steps `k` along it (`0 < |k| <= PAD`) to `e`, or None when `e` is `p` or lies on
/// no line within `PAD` of it.
#[inline]
pub fn line_of(p: Pos, e: Pos) -> Option<(usize, isize)> {
    let diff = e.index() as isize - p.index() as isize;
    if diff.unsigned_abs() > REACH {
        return None;
    }
    let (d, k) = LINE_OF[(diff + REACH as isize) as usize];
    (k != 0).then_some((d as usize, k as isize))
}

/// A pair table as a fixed-size array: a key masked to its 20 bits needs no bounds check.
type PairTable = [u8; 1 << pattern::KEY_BITS];

fn pair_array(rule: Rule) -> &'static PairTable {
    pattern::pair_table(rule)
        .try_into()
        .expect("a pair table has one entry per key")
}

/// The pair table entry of a line key (keys never use more than `KEY_BITS` bits).
#[inline]
fn pair_of(t: &PairTable, key: u32) -> u8 {
    t[(key & ((1 << pattern::KEY_BITS) - 1)) as usize]
}

/// What went wrong with a request to the board. Callers match on it; `Display` says it in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// Width or height outside `MIN_SIZE..=MAX_SIZE`.
    BadSize { width: i64, height: i64 },
    /// A coordinate outside this board.
    OffBoard { x: i64, y: i64 },
    /// The square already holds a stone.
    Occupied { x: usize, y: usize },
    /// The square holds no stone (for take-backs).
    Empty { x: usize, y: usize },
    /// No move left to undo.
    NothingToUndo,
    /// Every square is taken.
    Full,
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::BadSize { width, height } => write!(
                f,
                "unsupported board size {width}x{height} (sizes {MIN_SIZE} to {MAX_SIZE} are supported, 15 and 20 included)"
            ),
            BoardError::OffBoard { x, y } => write!(f, "square {x},{y} is off the board"),
            BoardError::Occupied { x, y } => write!(f, "square {x},{y} is occupied"),
            BoardError::Empty { x, y } => write!(f, "square {x},{y} is empty"),
            BoardError::NothingToUndo => write!(f, "no move to take back"),
            BoardError::Full => write!(f, "the board is full"),
        }
    }
}

impl std::error::Error for BoardError {}

/// How a move stands under the rule before it is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveClass {
    /// An ordinary legal move.
    Normal,
    /// The move makes a winning five.
    Win,
    /// Renju: black's overline, double-four or double-three (black loses).
    Forbidden,
}

/// Zobrist keys: one per colour and cell, from a fixed generator so hashes are reproducible.
static ZOBRIST: [[u64; NCELLS]; 2] = {
    let mut z = [[0u64; NCELLS]; 2];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < NCELLS {
            // splitmix64
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut x = state;
            x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z[c][i] = x ^ (x >> 31);
            i += 1;
        }
        c += 1;
    }
    z
};
/// Mixed into the hash when white is to move.
const ZOBRIST_SIDE: u64 = 0x3C6E_F372_FE94_F82B;

/// A position: stones, whose turn it is, move history, and per-square line keys.
#[derive(Clone)]
pub struct Board {
    width: usize,
    height: usize,
    rule: Rule,
    cells: [u8; NCELLS],
    /// For each cell and direction, the codes of the five cells on each side (see `pattern`).
    keys: [[u32; 4]; NCELLS],
    hash: u64,
    history: Vec<(Pos, Color)>,
    to_move: Color,
    /// Patterns of both colours per key (`pattern::pair_table`).
    pairs: &'static PairTable,
}

impl Board {
    /// An empty board of `width` x `height` under `rule`.
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<Board, BoardError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&width) || !(MIN_SIZE..=MAX_SIZE).contains(&height) {
            return Err(BoardError::BadSize {
                width: width as i64,
                height: height as i64,
            });
        }
        let mut b = Board {
            width,
            height,
            rule,
            cells: [WALL; NCELLS],
            keys: [[0; 4]; NCELLS],
            hash: 0,
            history: Vec::with_capacity(width * height),
            to_move: Color::Black,
            pairs: pair_array(rule),
        };
        for y in 0..height {
            for x in 0..width {
                b.cells[Pos::new(x, y).index()] = 0;
            }
        }
        b.keys = b.recompute_keys();
        Ok(b)
    }

    /// A board with `moves` played alternately from black.
    pub fn from_moves(
        width: usize,
        height: usize,
        rule: Rule,
        moves: &[Pos],
    ) -> Result<Board, BoardError> {
        let mut b = Board::new(width, height, rule)?;
        for &m in moves {
            b.play(m)?;
        }
        Ok(b)
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Changes the rule, keeping the stones.
    pub fn set_rule(&mut self, rule: Rule) {
        self.rule = rule;
        self.pairs = pair_array(rule);
    }

    /// The square at (x, y) if it lies on this board.
    pub fn pos(&self, x: i64, y: i64) -> Result<Pos, BoardError> {
        if x < 0 || y < 0 || x >= self.width as i64 || y >= self.height as i64 {
            return Err(BoardError::OffBoard { x, y });
        }
        Ok(Pos::new(x as usize, y as usize))
    }

    /// Whether `p` is a square of this board.
    #[inline]
    pub fn contains(&self, p: Pos) -> bool {
        p.index() < NCELLS && self.cells[p.index()] != WALL
    }

    /// The stone on `p`, if any (None also for squares off the board).
    #[inline]
    pub fn stone(&self, p: Pos) -> Option<Color> {
        match self.cells[p.index()] {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        }
    }

    /// Whether `p` is an empty square of this board.
    #[inline]
    pub fn is_empty(&self, p: Pos) -> bool {
        self.cells[p.index()] == 0
    }

    pub fn side_to_move(&self) -> Color {
        self.to_move
    }

    /// Sets whose turn it is (positions given by a manager may have unusual stone counts).
    pub fn set_side_to_move(&mut self, c: Color) {
        if c != self.to_move {
            self.hash ^= ZOBRIST_SIDE;
            self.to_move = c;
        }
    }

    pub fn move_count(&self) -> usize {
        self.history.len()
    }

    /// Moves played so far, oldest first, with the colour of each stone.
    pub fn history(&self) -> &[(Pos, Color)] {
        &self.history
    }

    pub fn last_move(&self) -> Option<Pos> {
        self.history.last().map(|&(p, _)| p)
    }

    pub fn is_full(&self) -> bool {
        self.history.len() == self.width * self.height
    }

    /// Zobrist key of the stones and the side to move.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Every square of the board, row by row.
    pub fn squares(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Pos::new(x, y)))
    }

    /// Places a stone of the side to move on `p` after checking the square.
    pub fn play(&mut self, p: Pos) -> Result<(), BoardError> {
        self.check_empty(p)?;
        self.make(p);
        Ok(())
    }

    /// Places a stone of colour `c` on `p` (for set-up positions); the other colour moves next.
    pub fn place(&mut self, p: Pos, c: Color) -> Result<(), BoardError> {
        self.check_empty(p)?;
        self.set_side_to_move(c);
        self.make(p);
        Ok(())
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Result<Pos, BoardError> {
        if self.history.is_empty() {
            return Err(BoardError::NothingToUndo);
        }
        Ok(self.unmake())
    }

    fn check_empty(&self, p: Pos) -> Result<(), BoardError> {
        if !self.contains(p) {
            return Err(BoardError::OffBoard {
                x: p.x() as i64,
                y: p.y() as i64,
            });
        }
        if !self.is_empty(p) {
            return Err(BoardError::Occupied { x: p.x(), y: p.y() });
        }
        if self.is_full() {
            return Err(BoardError::Full);
        }
        Ok(())
    }

    /// Hot path: places the side to move on the empty square `p` and updates every key.
    /// The caller guarantees `p` is an empty square of this board.
    #[inline]
    pub fn make(&mut self, p: Pos) {
        debug_assert!(self.contains(p) && self.is_empty(p), "make on {p:?}");
        let c = self.to_move;
        let code = c.code() as u32;
        self.cells[p.index()] = c.code();
        self.hash ^= ZOBRIST[c.index()][p.index()] ^ ZOBRIST_SIDE;
        self.history.push((p, c));
        self.to_move = c.opposite();
        // (Under freestyle only four steps, all its patterns read: -0.5, +2.6 and +1.6 % bench
        // nodes a second in paired runs, and the threat solver's scan filter `near`, which
        // counts stones within five steps, then missed the fifth and changed the tree (signature
        // 36,790,855). Not kept.)
        let w = self.key_window(p);
        for (d, &step) in DIR_STEP.iter().enumerate() {
            for k in 1..=PAD as isize {
                // The cell k steps ahead sees p at offset -k; the cell behind sees it at +k.
                w[(REACH as isize + k * step) as usize][d] |= code << (2 * slot(-k));
                w[(REACH as isize - k * step) as usize][d] |= code << (2 * slot(k));
            }
        }
        #[cfg(debug_assertions)]
        self.debug_check();
    }

    /// Hot path: takes back the last move. The caller guarantees there is one.
    #[inline]
    pub fn unmake(&mut self) -> Pos {
        let (p, c) = self.history.pop().expect("unmake with no history");
        self.hash ^= ZOBRIST[c.index()][p.index()] ^ ZOBRIST_SIDE;
        self.to_move = c;
        self.lift(p);
        #[cfg(debug_assertions)]
        self.debug_check();
        p
    }

    /// The line key of `p` in direction `d`.
    #[inline]
    pub fn key(&self, p: Pos, d: usize) -> u32 {
        self.keys[p.index()][d]
    }

    /// What a stone of colour `c` on the empty square `p` would make in direction `d`.
    #[inline]
    pub fn pattern(&self, p: Pos, d: usize, c: Color) -> Pattern {
        Pattern::from_u8(self.pattern_pair(p, d) >> (4 * c.index()) & 15)
    }

    /// Both colours' patterns of the empty square `p` in direction `d`: black's in the low
    /// nibble, white's in the high one (one table read for the two).
    #[inline]
    pub fn pattern_pair(&self, p: Pos, d: usize) -> u8 {
        pair_of(self.pairs, self.keys[p.index()][d])
    }

    /// The four line patterns of a stone of colour `c` on `p`.
    #[inline]
    pub fn patterns(&self, p: Pos, c: Color) -> [Pattern; 4] {
        let t = self.pairs;
        let k = &self.keys[p.index()];
        let s = 4 * c.index();
        [
            Pattern::from_u8(pair_of(t, k[0]) >> s & 15),
            Pattern::from_u8(pair_of(t, k[1]) >> s & 15),
            Pattern::from_u8(pair_of(t, k[2]) >> s & 15),
            Pattern::from_u8(pair_of(t, k[3]) >> s & 15),
        ]
    }

    /// The hash the position would have after the side to move played `p`.
    #[inline]
    pub fn hash_after(&self, p: Pos) -> u64 {
        self.hash ^ ZOBRIST[self.to_move.index()][p.index()] ^ ZOBRIST_SIDE
    }

    /// The pattern in direction `d` of a stone of colour `c` on the empty square `p`, were
    /// there also a stone of colour `c` on the empty square `k` steps along `d` from `p`
    /// (`0 < |k| <= PAD`): what `patterns` would say after making that move, without making it.
    #[inline]
    pub fn pattern_beside(&self, p: Pos, d: usize, k: isize, c: Color) -> Pattern {
        self.pattern_with(p, d, k, c, c)
    }

    /// `pattern_beside` with a stone of colour `stone` `k` steps away.
    #[inline]
    pub fn pattern_with(&self, p: Pos, d: usize, k: isize, stone: Color, c: Color) -> Pattern {
        debug_assert!(k != 0 && k.unsigned_abs() <= PAD);
        let key = self.keys[p.index()][d] | u32::from(stone.code()) << (2 * slot(k));
        Pattern::from_u8(pair_of(self.pairs, key) >> (4 * c.index()) & 15)
    }

    /// The four line patterns of a stone of colour `c` on the empty square `p`, were there also
    /// a stone of colour `stone` on the empty square `e` (another square): `patterns` after
    /// that move, without making it. Only the line through both, if any, differs.
    pub fn patterns_after(&self, p: Pos, e: Pos, stone: Color, c: Color) -> [Pattern; 4] {
        let mut pats = self.patterns(p, c);
        if let Some((d, k)) = line_of(p, e) {
            pats[d] = self.pattern_with(p, d, k, stone, c);
        }
        pats
    }

    /// Whether a stone of colour `c` on the empty square `p` makes a winning five.
    #[inline]
    pub fn makes_five(&self, p: Pos, c: Color) -> bool {
        self.patterns(p, c).contains(&Pattern::Five)
    }

    /// Whether a black stone on the empty square `p` is forbidden (always false outside renju,
    /// for a move that makes a five, and for a square that is occupied or off the board).
    /// Leaves the board as it found it.
    pub fn is_forbidden(&mut self, p: Pos) -> bool {
        self.rule == Rule::Renju
            && self.contains(p)
            && self.is_empty(p)
            && forbid::is_forbidden(self, p)
    }

    /// Whether colour `c` may legally play the empty square `p` (black's forbidden points in
    /// renju are not legal).
    pub fn is_legal(&mut self, p: Pos, c: Color) -> bool {
        self.contains(p)
            && self.is_empty(p)
            && !(c == Color::Black && self.rule == Rule::Renju && self.is_forbidden(p))
    }

    /// Every square where black may not play (empty unless the rule is renju).
    pub fn forbidden_points(&self) -> Vec<Pos> {
        if self.rule != Rule::Renju {
            return Vec::new();
        }
        let mut b = self.clone();
        self.squares()
            .filter(|&p| self.is_empty(p) && forbid::is_forbidden(&mut b, p))
            .collect()
    }

    /// Judges a move by colour `c` on `p` before it is played.
    pub fn classify_move(&mut self, p: Pos, c: Color) -> Result<MoveClass, BoardError> {
        self.check_empty(p)?;
        if self.makes_five(p, c) {
            Ok(MoveClass::Win)
        } else if c == Color::Black && self.is_forbidden(p) {
            Ok(MoveClass::Forbidden)
        } else {
            Ok(MoveClass::Normal)
        }
    }

    /// The winning line through `p` if the stone there is part of a winning five under the rule
    /// (used to announce the end of a game).
    pub fn winning_line(&self, p: Pos) -> Option<Vec<Pos>> {
        let c = self.stone(p)?;
        for d in 0..4 {
            let mut line = vec![p];
            for sign in [-1isize, 1] {
                let mut q = p.step(d, sign);
                while self.contains(q) && self.stone(q) == Some(c) {
                    line.push(q);
                    q = q.step(d, sign);
                }
            }
            if line.len() < 5 {
                continue;
            }
            // Judge the run as if p were still empty: the table says whether it wins.
            let mut b = self.clone();
            b.lift(p);
            if b.pattern(p, d, c) == Pattern::Five {
                line.sort();
                return Some(line);
            }
        }
        None
    }

    /// Removes the stone on `p` from the cells and keys without touching the history or hash.
    #[inline]
    fn lift(&mut self, p: Pos) {
        self.cells[p.index()] = 0;
        let w = self.key_window(p);
        for (d, &step) in DIR_STEP.iter().enumerate() {
            for k in 1..=PAD as isize {
                w[(REACH as isize + k * step) as usize][d] &= !(3 << (2 * slot(-k)));
                w[(REACH as isize - k * step) as usize][d] &= !(3 << (2 * slot(k)));
            }
        }
    }

    /// The keys of the cells within `REACH` of the on-board square `p` (`p` at index `REACH`).
    #[inline]
    fn key_window(&mut self, p: Pos) -> &mut KeyWindow {
        let i = p.index();
        let w = &mut self.keys[i - REACH..=i + REACH];
        w.try_into().expect("the window has 2 * REACH + 1 cells")
    }

    /// Line keys computed from the stones alone (the reference for the incremental update).
    fn recompute_keys(&self) -> [[u32; 4]; NCELLS] {
        let mut keys = [[0u32; 4]; NCELLS];
        for p in self.squares() {
            for (d, key) in keys[p.index()].iter_mut().enumerate() {
                for k in (-(PAD as isize)..=PAD as isize).filter(|&k| k != 0) {
                    let q = (p.index() as isize + k * DIR_STEP[d]) as usize;
                    *key |= (self.cells[q] as u32) << (2 * slot(k));
                }
            }
        }
        keys
    }

    /// Recomputes every on-board key from the stones and compares with the incremental state.
    pub fn verify_incremental(&self) -> bool {
        let fresh = self.recompute_keys();
        self.squares()
            .all(|p| fresh[p.index()] == self.keys[p.index()])
    }

    #[cfg(debug_assertions)]
    fn debug_check(&self) {
        // A full recomputation on every make/undo is too slow for the random-game tests on big
        // boards, so debug builds cross-check a sample of moves (every 64th hash value).
        if self.hash & 63 == 0 {
            debug_assert!(self.verify_incremental(), "incremental keys diverged");
        }
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Board {}x{} {} ({} to move)",
            self.width, self.height, self.rule, self.to_move
        )?;
        for y in 0..self.height {
            for x in 0..self.width {
                let ch = match self.stone(Pos::new(x, y)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
