//! `Position`: a board plus per-square shapes and scores for both colours, refreshed on every
//! make/unmake only on the squares whose line keys changed, with bit sets of the squares that
//! make fives, open fours and fours, and of the candidate squares near the stones.

use super::{combo_table, info_eval, info_score, info_shape, Shape, SquareInfo, COMBOS};
use super::{joint_bucket, JOINT, JOINT_BOUNDS, JOINT_UNIT};
use super::{pack_patterns, FORBIDDEN, MAYBE_FORBIDDEN, SHAPE_SHIFT, TEMPO};
use crate::board::pattern::pair_table;
use crate::board::{Board, Color, Pos, Rule, NCELLS, STRIDE};
use std::sync::OnceLock;

/// Words of a bit set over the padded grid.
pub const WORDS: usize = NCELLS.div_ceil(64);
/// A set of squares.
pub type Bits = [u64; WORDS];

/// Bit sets kept per colour.
const SET_FIVE: usize = 0;
const SET_FLEX4: usize = 1;
const SET_FOUR: usize = 2;
const NSETS: usize = 3;

/// Squares whose neighbourhood makes a candidate: distance 2 in a box, 3 along the lines. Row
/// `dy + 3` holds the columns `dx + 3` of the squares `dy` rows away, as a 7-bit mask.
const NEAR_ROWS: [u128; 7] = [
    0b1001001, 0b0111110, 0b0111110, 0b1110111, 0b0111110, 0b0111110, 0b1001001,
];
/// How far the neighbourhood reaches in grid indices, and the bit-set words a make may change
/// (the 259 bits around the square span six words at most).
const NEAR_REACH: usize = 3 * STRIDE + 3;
const NEAR_WORDS: usize = 6;

/// Under freestyle a line pattern depends only on the four squares each side (a five through
/// the square lies within them), so the outermost slot of each side of a line key (2 bits at
/// each end of the 20) can be dropped: the 64 KiB table this gives stays in cache where the
/// 1 MiB one of the full keys does not (its lookups were the incremental update's main cost).
/// (Each side's four squares as one of their 121 possible contents, a pair of those indexing a
/// 16 KiB table: the same tree, -0.4, -2.1 and -4.7 % bench nodes a second in paired runs: the
/// load's latency is not the cost here. Not kept.)
const FREE_SHIFT: u32 = 2;
const FREE_MASK: u32 = 0xffff;
/// Fixed-size tables: a 16-bit index needs no bounds check.
type FreeTable = [u8; FREE_MASK as usize + 1];
type ComboTable = [SquareInfo; COMBOS];

fn free_pairs() -> &'static FreeTable {
    static TABLE: OnceLock<Box<FreeTable>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let full = pair_table(Rule::Freestyle);
        let t: Box<[u8]> = (0..=FREE_MASK)
            .map(|k| full[(k << FREE_SHIFT) as usize])
            .collect();
        t.try_into().expect("one entry per compact key")
    })
}

/// The shape bits of a square info: a change there may move the square between bit sets.
const SHAPE_BITS: SquareInfo = 0xf << SHAPE_SHIFT;

/// The state of one square before a make changed it: both colours' packed patterns (black's
/// in the low half) and infos.
#[derive(Clone, Copy)]
struct Saved {
    index: u16,
    pats: u32,
    info: [SquareInfo; 2],
}

/// What a make saves besides the squares: the start of its `Saved` entries, and the totals and
/// shape counts, which unmake puts back whole instead of undoing each square's share.
#[derive(Clone, Copy)]
struct Mark {
    undo: u32,
    total: [i32; 2],
    joint: [i32; 2],
    counts: [[u16; 7]; 2],
    /// The candidate words around the move, from `cand_at`.
    cand: [u64; NEAR_WORDS],
    cand_at: u16,
}

/// The square of a padded-grid index.
#[inline]
pub fn pos_of(index: usize) -> Pos {
    Pos::from_index(index).unwrap_or(Pos::NONE)
}

#[inline]
fn bit_set(b: &mut Bits, i: usize) {
    b[i >> 6] |= 1 << (i & 63);
}

#[inline]
fn bit_clear(b: &mut Bits, i: usize) {
    b[i >> 6] &= !(1 << (i & 63));
}

/// The squares of a bit set in index order, without allocating.
#[inline]
pub fn iter_bits(b: &Bits) -> impl Iterator<Item = Pos> + '_ {
    b.iter().enumerate().flat_map(|(w, &word)| {
        let mut x = word;
        std::iter::from_fn(move || {
            (x != 0).then(|| {
                let i = w * 64 + x.trailing_zeros() as usize;
                x &= x - 1;
                pos_of(i)
            })
        })
    })
}

/// Calls `f` on every square of a bit set, in index order.
#[inline]
pub fn for_each_bit(b: &Bits, f: impl FnMut(Pos)) {
    iter_bits(b).for_each(f);
}

/// A board with incremental evaluation state.
#[derive(Clone)]
pub struct Position {
    board: Board,
    renju: bool,
    freestyle: bool,
    combos: &'static ComboTable,
    /// `free_pairs()` under freestyle.
    free: Option<&'static FreeTable>,
    info: Box<[[SquareInfo; 2]]>,
    /// The four line patterns of each empty square, packed in nibbles: black's in the low 16
    /// bits, white's in the high 16.
    pats: Box<[u32]>,
    total: [i32; 2],
    /// The joint term (`JOINT`, in `JOINT_UNIT`ths) over the empty squares, for each colour as
    /// the side to move.
    joint: [i32; 2],
    sets: [[Bits; NSETS]; 2],
    counts: [[u16; 7]; 2],
    /// Squares that are no candidates whatever the stones: occupied or off the board.
    blocked: Bits,
    cand: Bits,
    /// What `make` changed, for `unmake` to put back instead of recomputing, with `marks`
    /// holding each make's start.
    undo: Vec<Saved>,
    marks: Vec<Mark>,
}

/// Undo entries reserved up front (a make changes about 30): deep lines never reallocate.
const UNDO_RESERVE: usize = 256 * 48;

impl Position {
    pub fn new(board: &Board) -> Position {
        let mut pos = Position {
            board: board.clone(),
            renju: board.rule() == Rule::Renju,
            freestyle: board.rule() == Rule::Freestyle,
            combos: combo_table()
                .try_into()
                .expect("one entry per pattern tuple"),
            free: (board.rule() == Rule::Freestyle).then(free_pairs),
            info: vec![[0; 2]; NCELLS].into_boxed_slice(),
            pats: vec![0; NCELLS].into_boxed_slice(),
            total: [0; 2],
            joint: [0; 2],
            sets: [[[0; WORDS]; NSETS]; 2],
            counts: [[0; 7]; 2],
            blocked: [0; WORDS],
            cand: [0; WORDS],
            undo: Vec::with_capacity(UNDO_RESERVE),
            marks: Vec::with_capacity(256),
        };
        pos.rebuild_candidates();
        let squares: Vec<Pos> = pos.board.squares().collect();
        for p in squares {
            if pos.board.is_empty(p) {
                pos.refresh(p);
            }
        }
        pos
    }

    /// Computes the blocked squares and the candidates from the board.
    fn rebuild_candidates(&mut self) {
        for (i, w) in self.blocked.iter_mut().enumerate() {
            *w = 0;
            for b in 0..64 {
                let free = Pos::from_index(i * 64 + b).is_some_and(|q| self.board.is_empty(q));
                *w |= (!free as u64) << b;
            }
        }
        self.cand = [0; WORDS];
        for k in 0..self.board.history().len() {
            let p = self.board.history()[k].0;
            self.add_near(p);
        }
    }

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The board for callers that make and unmake moves on it and restore it before the next
    /// call on this position (the threat solver, trial moves).
    #[inline]
    pub fn board_mut(&mut self) -> &mut Board {
        &mut self.board
    }

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.board.side_to_move()
    }

    #[inline]
    pub fn renju(&self) -> bool {
        self.renju
    }

    /// Packed info of square `p` for colour `c` (0 for occupied squares).
    #[inline]
    pub fn info(&self, p: Pos, c: Color) -> SquareInfo {
        self.info[p.index()][c.index()]
    }

    #[inline]
    pub fn score(&self, p: Pos, c: Color) -> i32 {
        info_score(self.info(p, c))
    }

    /// The four line patterns of the empty square `p` for `c`, packed in nibbles.
    #[inline]
    pub fn patterns_key(&self, p: Pos, c: Color) -> u16 {
        (self.pats[p.index()] >> (16 * c.index())) as u16
    }

    #[inline]
    pub fn shape(&self, p: Pos, c: Color) -> Shape {
        info_shape(self.info(p, c))
    }

    /// Number of squares where colour `c` would make shape `s`.
    #[inline]
    pub fn count(&self, c: Color, s: Shape) -> u32 {
        self.counts[c.index()][s as usize] as u32
    }

    /// Squares where `c` makes a five.
    #[inline]
    pub fn fives(&self, c: Color) -> &Bits {
        &self.sets[c.index()][SET_FIVE]
    }

    /// Squares where `c` makes an open four or two fours.
    #[inline]
    pub fn flex4s(&self, c: Color) -> &Bits {
        &self.sets[c.index()][SET_FLEX4]
    }

    /// Squares where `c` makes exactly one four (possibly with a three).
    #[inline]
    pub fn fours(&self, c: Color) -> &Bits {
        &self.sets[c.index()][SET_FOUR]
    }

    /// Every square where `c` makes a four of any kind: `fours` and `flex4s` together.
    pub fn any_fours(&self, c: Color) -> Bits {
        let mut all = *self.fours(c);
        for (a, x) in all.iter_mut().zip(self.flex4s(c)) {
            *a |= x;
        }
        all
    }

    /// Empty squares near the stones.
    #[inline]
    pub fn candidates(&self) -> &Bits {
        &self.cand
    }

    /// Sum of the (capped) square scores of colour `c` over the empty squares.
    #[inline]
    pub fn total(&self, c: Color) -> i32 {
        self.total[c.index()]
    }

    /// Whether the side `c` may play `p` (exact renju check only where the shapes could foul).
    #[inline]
    pub fn is_legal(&mut self, p: Pos, c: Color) -> bool {
        !(self.renju
            && c == Color::Black
            && self.info(p, c) & MAYBE_FORBIDDEN != 0
            && self.board.is_forbidden(p))
    }

    /// Static evaluation for the side to move: the square totals, plus a share of its own for
    /// the move in hand (`TEMPO`). (The mean of this and the parent position's evaluation
    /// negated, as PentaZen evaluates the last two positions, at every node and leaf of the
    /// search: bench nodes +6 %, 147-207-14 against PentaZen at 1 s over four runs, -4.3 %
    /// (standard error 4.1 %) slot by slot against six control runs: not kept. The other side's
    /// total weighed 15/16, an offensive lean: bench nodes +20 %, 82-95-15 over two runs,
    /// -2.1 % (3.6 %) against four control runs: not kept; weighed 9/8, bench nodes +138 %: not
    /// played.)
    #[inline]
    pub fn evaluate(&self) -> i32 {
        let me = self.side_to_move();
        let a = self.total(me);
        let b = self.total(me.opposite());
        a - b + a * TEMPO.0 / TEMPO.1 + self.joint[me.index()] / JOINT_UNIT
    }

    /// Places the side to move on the empty square `p`.
    #[inline]
    pub fn make(&mut self, p: Pos) {
        self.board.make(p);
        let at = (p.index() - NEAR_REACH) >> 6;
        self.marks.push(Mark {
            undo: self.undo.len() as u32,
            total: self.total,
            joint: self.joint,
            counts: self.counts,
            cand: self.cand[at..at + NEAR_WORDS]
                .try_into()
                .expect("six words"),
            cand_at: at as u16,
        });
        bit_set(&mut self.blocked, p.index());
        bit_clear(&mut self.cand, p.index());
        self.add_near(p);
        self.save(p.index());
        for c in Color::BOTH {
            self.set(p, 0, c);
        }
        self.refresh_lines(p);
    }

    /// Takes back the last move: the squares `make` changed get their old state back.
    #[inline]
    pub fn unmake(&mut self) -> Pos {
        let p = self.board.unmake();
        bit_clear(&mut self.blocked, p.index());
        let Some(mark) = self.marks.pop() else {
            // A move from before this position was built: recomputed from the board.
            self.rebuild_candidates();
            self.refresh(p);
            self.refresh_lines(p);
            self.undo.clear();
            return p;
        };
        let at = mark.cand_at as usize;
        self.cand[at..at + NEAR_WORDS].copy_from_slice(&mark.cand);
        // Totals and counts come back whole; the squares get their infos back, and move
        // between bit sets only where their shape changed.
        self.total = mark.total;
        self.joint = mark.joint;
        self.counts = mark.counts;
        for s in self.undo.drain(mark.undo as usize..).rev() {
            let i = s.index as usize;
            self.pats[i] = s.pats;
            let now = self.info[i];
            for (ci, (&cur, &old)) in now.iter().zip(s.info.iter()).enumerate() {
                if (cur ^ old) & SHAPE_BITS != 0 {
                    if let Some(k) = set_of(info_shape(cur)) {
                        bit_clear(&mut self.sets[ci][k], i);
                    }
                    if let Some(k) = set_of(info_shape(old)) {
                        bit_set(&mut self.sets[ci][k], i);
                    }
                }
            }
            self.info[i] = s.info;
        }
        p
    }

    /// Saves the state of square `i` for `unmake`.
    #[inline]
    fn save(&mut self, i: usize) {
        self.undo.push(Saved {
            index: i as u16,
            pats: self.pats[i],
            info: self.info[i],
        });
    }

    /// Recomputes the line pattern in direction `d` of the empty square `p`.
    #[inline]
    fn refresh_dir(&mut self, p: Pos, d: usize) {
        let shift = 4 * d;
        let pair = match self.free {
            Some(t) => t[(self.board.key(p, d) >> FREE_SHIFT & FREE_MASK) as usize],
            None => self.board.pattern_pair(p, d),
        } as u32;
        let i = p.index();
        let old = self.pats[i];
        let new = (old & !(0xf000f << shift)) | ((pair & 15) | (pair >> 4) << 16) << shift;
        // A renju foul can change with any stone on its lines, even when the pattern of this
        // line stays the same: recheck those squares every time.
        let recheck = self.renju && self.info[i][0] & MAYBE_FORBIDDEN != 0;
        if new == old && !recheck {
            return;
        }
        self.save(i);
        self.pats[i] = new;
        if new as u16 != old as u16 || recheck {
            self.apply(p, Color::Black, new as u16);
        }
        if new >> 16 != old >> 16 {
            self.apply(p, Color::White, (new >> 16) as u16);
        }
    }

    // `apply` and `set` run for every square a make changes. Inlined into their callers they gave
    // the bench 3.4-6.4 % more nodes a second than `#[inline]`, which left `set` a call, in three
    // paired runs on one machine (-7.5 % in a fourth, on a busy host). (The 32 table reads of a
    // freestyle make gathered before any store, so that their cache misses might overlap, gained
    // nothing measurable.)
    #[inline(always)]
    fn apply(&mut self, p: Pos, c: Color, packed: u16) {
        let mut v = self.combos[packed as usize];
        if v & MAYBE_FORBIDDEN != 0 && self.renju && c == Color::Black && self.board.is_forbidden(p)
        {
            // A foul is no threat and no candidate for black.
            v = MAYBE_FORBIDDEN | FORBIDDEN;
        }
        self.set(p, v, c);
    }

    /// Adds the empty squares near the stone `p` to the candidates, a row of the
    /// neighbourhood at a time (a 7-bit mask may straddle two words).
    #[inline]
    fn add_near(&mut self, p: Pos) {
        let start = p.index() - NEAR_REACH;
        for (r, &mask) in NEAR_ROWS.iter().enumerate() {
            let bit = start + r * STRIDE;
            let (w, m) = (bit >> 6, mask << (bit & 63));
            self.cand[w] |= m as u64 & !self.blocked[w];
            self.cand[w + 1] |= (m >> 64) as u64 & !self.blocked[w + 1];
        }
    }

    #[inline]
    fn refresh_lines(&mut self, p: Pos) {
        // Under freestyle a stone five squares away never changes a pattern (a five through the
        // square lies within four squares of it); the other rules judge overlines and blocked
        // ends there.
        let reach: &[isize] = if self.freestyle {
            &[-4, -3, -2, -1, 1, 2, 3, 4]
        } else {
            &[-5, -4, -3, -2, -1, 1, 2, 3, 4, 5]
        };
        for d in 0..4 {
            for &k in reach {
                let q = p.step(d, k);
                if self.board.is_empty(q) {
                    self.refresh_dir(q, d);
                }
            }
        }
    }

    /// Recomputes the info of the empty square `p` for both colours.
    #[inline]
    fn refresh(&mut self, p: Pos) {
        let mut both = 0;
        for c in Color::BOTH {
            let packed = pack_patterns(self.board.patterns(p, c));
            both |= (packed as u32) << (16 * c.index());
            self.apply(p, c, packed);
        }
        self.pats[p.index()] = both;
    }

    #[inline(always)]
    fn set(&mut self, p: Pos, v: SquareInfo, c: Color) {
        let i = p.index();
        let old = self.info[i][c.index()];
        if old == v {
            return;
        }
        self.info[i][c.index()] = v;
        let ci = c.index();
        self.total[ci] += eval_value(v) - eval_value(old);
        let (bo, bn) = (joint_bucket_of(old), joint_bucket_of(v));
        if bo != bn {
            let bx = joint_bucket_of(self.info[i][1 - ci]);
            self.joint[ci] += joint_value(bn, bx) - joint_value(bo, bx);
            self.joint[1 - ci] += joint_value(bx, bn) - joint_value(bx, bo);
        }
        let (os, ns) = (info_shape(old), info_shape(v));
        if os != ns {
            if os != Shape::None {
                self.counts[ci][os as usize] -= 1;
            }
            if ns != Shape::None {
                self.counts[ci][ns as usize] += 1;
            }
            if let Some(s) = set_of(os) {
                bit_clear(&mut self.sets[ci][s], i);
            }
            if let Some(s) = set_of(ns) {
                bit_set(&mut self.sets[ci][s], i);
            }
        }
    }

    /// Recomputes everything from the board and compares (tests).
    pub fn verify(&self) -> bool {
        let fresh = Position::new(&self.board);
        // The joint term summed square by square, not as `set` keeps it.
        let mut joint = [0; 2];
        for (i, info) in self.info.iter().enumerate() {
            if pos_of(i) != Pos::NONE && self.board.is_empty(pos_of(i)) {
                let (b, w) = (joint_bucket_of(info[0]), joint_bucket_of(info[1]));
                joint[0] += joint_value(b, w);
                joint[1] += joint_value(w, b);
            }
        }
        fresh.info == self.info
            && fresh.total == self.total
            && joint == self.joint
            && fresh.joint == self.joint
            && fresh.sets == self.sets
            && fresh.counts == self.counts
            && fresh.blocked == self.blocked
            && fresh.cand == self.cand
    }
}

/// What a square adds to the evaluation.
#[inline]
fn eval_value(v: SquareInfo) -> i32 {
    info_eval(v)
}

// Occupied squares and squares worth nothing to either side sit in bucket (0, 0), which the
// sums leave out: its value must be zero.
const _: () = assert!(JOINT[0][0] == 0 && JOINT_BOUNDS[JOINT_BOUNDS.len() - 1] <= 255);

/// `joint_bucket` of every score up to the last bound, which every larger score shares.
const BUCKET_OF: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut s = 0;
    while s < 256 {
        t[s] = joint_bucket(s as i32) as u8;
        s += 1;
    }
    t
};

#[inline]
fn joint_bucket_of(v: SquareInfo) -> usize {
    BUCKET_OF[(info_score(v) as usize).min(255)] as usize
}

/// The joint term of one square: `m` its bucket for the side to move, `w` for the other.
#[inline]
fn joint_value(m: usize, w: usize) -> i32 {
    JOINT[m][w] as i32
}

#[inline]
fn set_of(s: Shape) -> Option<usize> {
    match s {
        Shape::Five => Some(SET_FIVE),
        Shape::Flex4 => Some(SET_FLEX4),
        Shape::Four | Shape::FourThree => Some(SET_FOUR),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::{parse_move_list, Rows};

    fn random_game(rule: Rule, size: usize, seed: u64, plies: usize) {
        let b = Board::new(size, size, rule).unwrap();
        let mut pos = Position::new(&b);
        let mut s = seed;
        let mut played = 0;
        while played < plies {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let x = (s >> 33) as usize % size;
            let y = (s >> 45) as usize % size;
            let p = Pos::new(x, y);
            if !pos.board().is_empty(p) {
                continue;
            }
            pos.make(p);
            played += 1;
            if played % 7 == 0 {
                assert!(pos.verify(), "{rule:?} seed {seed} ply {played}");
            }
        }
        while pos.board().move_count() > 0 {
            pos.unmake();
            if pos.board().move_count().is_multiple_of(5) {
                assert!(pos.verify());
            }
        }
        assert_eq!(pos.total(Color::Black), pos.total(Color::White));
        assert_eq!(pos.candidates(), &[0; WORDS]);
    }

    #[test]
    fn incremental_state_matches_recomputation() {
        for (i, rule) in [Rule::Freestyle, Rule::Standard, Rule::Caro, Rule::Renju]
            .into_iter()
            .enumerate()
        {
            random_game(rule, 15, 17 + i as u64, 120);
        }
        // The largest board: the candidate words of its last rows are the last of the set.
        random_game(Rule::Freestyle, 32, 5, 400);
    }

    #[test]
    fn joint_buckets_agree_with_the_bounds() {
        for score in 0..1000 {
            let v = score as SquareInfo;
            assert_eq!(joint_bucket_of(v), joint_bucket(score), "score {score}");
        }
        assert_eq!(joint_bucket_of(0), 0);
        assert_eq!(joint_bucket_of(65535), crate::eval::JOINT_BUCKETS - 1);
    }

    #[test]
    fn freestyle_patterns_ignore_the_fifth_square() {
        // Every full key agrees with its compact form: the outer squares never matter.
        let full = pair_table(Rule::Freestyle);
        let free = free_pairs();
        let mut checked = 0;
        for (k, &v) in full.iter().enumerate() {
            assert_eq!(
                v,
                free[(k as u32 >> FREE_SHIFT & FREE_MASK) as usize],
                "key {k:#x}"
            );
            checked += 1;
        }
        assert_eq!(checked, 1 << 20);
    }

    #[test]
    fn unmake_of_a_move_made_before_the_position() {
        for rule in [Rule::Freestyle, Rule::Renju] {
            let moves = parse_move_list("h8i9g7i7h9h10j8", 15, 15, Rows::FromTop).unwrap();
            let b = Board::from_moves(15, 15, rule, &moves).unwrap();
            let mut pos = Position::new(&b);
            pos.make(Pos::new(3, 3));
            pos.unmake();
            pos.unmake();
            assert!(pos.verify());
            pos.make(Pos::new(9, 7));
            assert!(pos.verify());
            pos.unmake();
            assert!(pos.verify());
        }
    }

    #[test]
    fn sets_and_legality() {
        // Black stones on a row: h8 i8 j8 k8 make a five at g8 or l8 (pos notation, from top).
        let moves = parse_move_list("h8h9i8i9j8j9k8", 15, 15, Rows::FromTop).unwrap();
        let b = Board::from_moves(15, 15, Rule::Freestyle, &moves).unwrap();
        let pos = Position::new(&b);
        let mut fives = vec![];
        for_each_bit(pos.fives(Color::Black), |p| fives.push(p));
        assert_eq!(fives, vec![Pos::new(6, 7), Pos::new(11, 7)]);
        assert_eq!(pos.count(Color::Black, Shape::Five), 2);
        // White's three on row 9 (h9 i9 j9) can make fours at g9 and k9.
        assert_eq!(pos.shape(Pos::new(10, 8), Color::White), Shape::Flex4);

        // Renju double-three at 7,7 (protocol test vector): foul, no candidate for black.
        let mut b = Board::new(15, 15, Rule::Renju).unwrap();
        for (p, c) in [
            ((5, 7), Color::Black),
            ((0, 14), Color::White),
            ((6, 7), Color::Black),
            ((14, 14), Color::White),
            ((7, 5), Color::Black),
            ((14, 0), Color::White),
            ((7, 6), Color::Black),
            ((0, 0), Color::White),
        ] {
            b.place(Pos::new(p.0, p.1), c).unwrap();
        }
        let mut pos = Position::new(&b);
        let p = Pos::new(7, 7);
        assert!(pos.info(p, Color::Black) & FORBIDDEN != 0);
        assert_eq!(pos.shape(p, Color::Black), Shape::None);
        assert!(!pos.is_legal(p, Color::Black));
        assert!(pos.is_legal(p, Color::White));
        assert_eq!(pos.shape(p, Color::White), Shape::None);
    }
}
