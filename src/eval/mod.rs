//! Static evaluation from the board's incremental line patterns: the four line patterns of a
//! square combine into a shape (five, open four, four-three, ...) and a score per colour, kept
//! up to date by `Position` so that evaluation and move ordering never scan the whole board.

mod fitted;
mod position;
pub mod tune;

pub use position::{for_each_bit, iter_bits, pos_of, Bits, Position, WORDS};

use crate::board::Pattern;
use std::sync::OnceLock;

/// What one stone of a colour on an empty square would make, all four lines together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Shape {
    /// Nothing forcing.
    None = 0,
    /// One open three.
    Three = 1,
    /// Two or more open threes (a winning threat where it is legal).
    ThreeThree = 2,
    /// One four (forcing one reply).
    Four = 3,
    /// A four and an open three in other lines.
    FourThree = 4,
    /// An open four or two fours: wins unless the opponent has a five first.
    Flex4 = 5,
    /// A winning five.
    Five = 6,
}

impl Shape {
    #[inline]
    pub fn from_u8(v: u8) -> Shape {
        match v {
            1 => Shape::Three,
            2 => Shape::ThreeThree,
            3 => Shape::Four,
            4 => Shape::FourThree,
            5 => Shape::Flex4,
            6 => Shape::Five,
            _ => Shape::None,
        }
    }

    /// A shape that makes at least one four (so the opponent must answer it).
    #[inline]
    pub fn is_four(self) -> bool {
        matches!(self, Shape::Four | Shape::FourThree | Shape::Flex4)
    }
}

/// Packed per-square, per-colour information: score in bits 0..16, shape in bits 16..20,
/// `MAYBE_FORBIDDEN` and `FORBIDDEN` flags above.
pub type SquareInfo = u32;
pub const SCORE_MASK: u32 = 0xffff;
pub const SHAPE_SHIFT: u32 = 16;
/// The line shapes could make a renju foul for black (two fours, two threes or an overline).
pub const MAYBE_FORBIDDEN: u32 = 1 << 20;
/// The square was found forbidden for black when its info was last computed.
pub const FORBIDDEN: u32 = 1 << 21;
/// What the square adds to the evaluation (at most `EVAL_CAP`) sits in bits 22..30; the additive
/// score in bits 0..16 buckets the joint term and weighs squares for the search's weak-square
/// filter (moves are ordered by `tune --order`'s values).
pub const EVAL_SHIFT: u32 = 22;

#[inline]
pub fn info_score(v: SquareInfo) -> i32 {
    (v & SCORE_MASK) as i32
}

/// What a square adds to its colour's evaluation total.
#[inline]
pub fn info_eval(v: SquareInfo) -> i32 {
    (v >> EVAL_SHIFT & 0xff) as i32
}

#[inline]
pub fn info_shape(v: SquareInfo) -> Shape {
    Shape::from_u8(((v >> SHAPE_SHIFT) & 0xf) as u8)
}

/// Value of one line pattern for the side that would place the stone. This table, the shape
/// bonuses and the tempo were fitted to game results (Rapfi self-play, see the README's
/// "Evaluation weights"); Five, F4 and the winning shapes keep hand-set values above the cap.
const LINE_VALUE: [u32; 12] = [
    0,   // Dead
    0,   // Overline
    0,   // B1
    1,   // F1
    2,   // B2
    14,  // F2
    14,  // B3
    48,  // F3
    60,  // B4
    160, // F4
    160, // DoubleFour
    600, // Five
];

/// Extra value of a combined shape over the sum of its lines.
fn shape_bonus(s: Shape) -> u32 {
    match s {
        Shape::None => 0,
        Shape::Three => 16,
        Shape::ThreeThree => 138,
        Shape::Four => 24,
        Shape::FourThree => 260,
        Shape::Flex4 => 400,
        Shape::Five => 2000,
    }
}

/// Pairs of line patterns (strongest first) that earn `PAIR_VALUE` when they are a square's two
/// strongest lines: a square that makes two twos is the seed of a double three, a four with a
/// two the seed of a four-three. Pairs a shape bonus already prices (three-three, four-three,
/// two fours) are not here.
pub(crate) const PAIRS: [(Pattern, Pattern); 12] = [
    (Pattern::B2, Pattern::B2),
    (Pattern::F2, Pattern::B2),
    (Pattern::F2, Pattern::F2),
    (Pattern::B3, Pattern::B2),
    (Pattern::B3, Pattern::F2),
    (Pattern::B3, Pattern::B3),
    (Pattern::F3, Pattern::B2),
    (Pattern::F3, Pattern::F2),
    (Pattern::F3, Pattern::B3),
    (Pattern::B4, Pattern::B2),
    (Pattern::B4, Pattern::F2),
    (Pattern::B4, Pattern::B3),
];

/// Value of each of `PAIRS`, fitted with the line values.
const PAIR_VALUE: [u32; PAIRS.len()] = [0; 12];

/// The slot in `PAIRS` of a square's two strongest line patterns, if they form one.
pub(crate) fn pair_slot(p: [Pattern; 4]) -> Option<usize> {
    let mut s = p;
    s.sort_unstable_by(|a, b| b.cmp(a));
    PAIRS.iter().position(|&(a, b)| a == s[0] && b == s[1])
}

/// What one square adds to the evaluation at most: one threat square, which the opponent
/// answers with one move, must not outweigh the rest of the position.
pub(crate) const EVAL_CAP: i32 = 250;

/// Share of its own square total the side to move gets for the move in hand (numerator,
/// denominator); fitted with the table (`fitted.rs`).
pub(crate) const TEMPO: (i32, i32) = fitted::TEMPO;
/// The joint term: what a square is worth to one colour also depends on what it is worth to the
/// other (a square both want is taken by the side to move, and a square only the waiting side
/// wants is a threat that side keeps). Each colour's squares fall into buckets by their additive
/// score (fixed, so that a refit of the table leaves the buckets as they were); the evaluation
/// adds `JOINT[m][w]` for every empty square, `m` its bucket for the side to move and `w` for
/// the other. Fitted with the table (`tune --table --joint`), in `JOINT_UNIT`ths: the low
/// buckets' values sum over a hundred squares, where whole units would round away the fit.
pub(crate) const JOINT_UNIT: i32 = 16;
pub(crate) const JOINT_BOUNDS: [i32; 8] = [1, 5, 15, 30, 60, 100, 160, 250];
pub(crate) const JOINT_BUCKETS: usize = JOINT_BOUNDS.len() + 1;
pub(crate) const JOINT: [[i16; JOINT_BUCKETS]; JOINT_BUCKETS] = fitted::JOINT;

/// The joint term's bucket of a square's additive score: how many bounds it reaches (`const`,
/// so that `Position` builds its lookup table from this one definition).
pub(crate) const fn joint_bucket(score: i32) -> usize {
    let mut k = 0;
    while k < JOINT_BOUNDS.len() && score >= JOINT_BOUNDS[k] {
        k += 1;
    }
    k
}

/// The denominator `tune --table` writes the tempo share with.
pub(crate) const TEMPO_DENOMINATOR: i32 = 64;
/// The tempo share fitted with the line values: the additive model's own, where a table fit
/// starts (so that the same labels give the same table whatever `fitted.rs` holds).
pub(crate) const LINE_TEMPO: (i32, i32) = (3, 16);

/// The combination table is indexed by the four patterns packed in nibbles (`pack_patterns`).
pub(crate) const COMBOS: usize = 1 << 16;

/// The score of four line patterns as a sum of line values, a shape bonus and a pair value:
/// the model the fitted table starts from, and the value of the winning shapes.
pub(crate) fn additive_score(p: [Pattern; 4], shape: Shape) -> u32 {
    p.iter().map(|&q| LINE_VALUE[q as usize]).sum::<u32>()
        + shape_bonus(shape)
        + pair_slot(p).map_or(0, |i| PAIR_VALUE[i])
}

/// Four line patterns packed in nibbles, the first line's lowest: the key `Position` keeps for
/// each empty square and colour (`Position::patterns_key`).
#[inline]
pub(crate) fn pack_patterns(p: [Pattern; 4]) -> u16 {
    p[0] as u16 | (p[1] as u16) << 4 | (p[2] as u16) << 8 | (p[3] as u16) << 12
}

/// The patterns of a packed key (a nibble that is no pattern reads as `Dead`).
pub(crate) fn unpack_patterns(k: u16) -> [Pattern; 4] {
    [0, 4, 8, 12].map(|s| Pattern::from_u8((k >> s & 15) as u8))
}

/// How many multisets of four line patterns there are (the order of a square's four lines does
/// not matter to its value): 12 patterns, 4 lines.
pub(crate) const MULTISETS: usize = 1365;

/// The slot of four line patterns among the multisets: sorted, then ranked in the order
/// "strongest pattern, then the next, ..." (combinatorial number system).
pub(crate) fn multiset_rank(p: [Pattern; 4]) -> usize {
    let mut s = p.map(|q| q as usize);
    s.sort_unstable_by(|a, b| b.cmp(a));
    let c = |n: usize, k: usize| -> usize {
        if n < k {
            return 0;
        }
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    };
    c(s[0] + 3, 4) + c(s[1] + 2, 3) + c(s[2] + 1, 2) + s[3]
}

/// Shape, score and foul flag of four line patterns (rule-independent: the tables behind the
/// patterns already judge fives and overlines under the rule).
pub fn combine(p: [Pattern; 4]) -> SquareInfo {
    let fives = p.iter().filter(|&&q| q == Pattern::Five).count();
    let fours: u32 = p.iter().map(|q| q.four_count()).sum();
    let open4 = p.contains(&Pattern::F4);
    let threes = p.iter().filter(|&&q| q == Pattern::F3).count();
    let overline = p.contains(&Pattern::Overline);
    let shape = if fives > 0 {
        Shape::Five
    } else if open4 || fours >= 2 {
        Shape::Flex4
    } else if fours == 1 && threes >= 1 {
        Shape::FourThree
    } else if fours == 1 {
        Shape::Four
    } else if threes >= 2 {
        Shape::ThreeThree
    } else if threes == 1 {
        Shape::Three
    } else {
        Shape::None
    };
    // The score is the additive model's; the evaluation takes the table's value (`fitted.rs`),
    // the winning shapes excepted (their hand-set values are above the cap).
    let score = additive_score(p, shape);
    let eval = if shape >= Shape::FourThree {
        score
    } else {
        fitted::VALUE[multiset_rank(p)] as u32
    };
    let maybe_forbidden = fives == 0 && (fours >= 2 || threes >= 2 || overline);
    score.min(SCORE_MASK)
        | eval.min(EVAL_CAP as u32) << EVAL_SHIFT
        | (shape as u32) << SHAPE_SHIFT
        | if maybe_forbidden { MAYBE_FORBIDDEN } else { 0 }
}

/// The combination table for every tuple of four line patterns.
pub fn combo_table() -> &'static [SquareInfo] {
    static TABLE: OnceLock<Box<[SquareInfo]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = vec![0; COMBOS];
        for (i, slot) in t.iter_mut().enumerate() {
            *slot = combine(unpack_patterns(i as u16));
        }
        t.into_boxed_slice()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use Pattern::*;

    #[test]
    fn shapes_combine_lines() {
        let s = |p| info_shape(combine(p));
        assert_eq!(s([Five, Dead, Dead, Dead]), Shape::Five);
        assert_eq!(s([F4, Dead, B2, Dead]), Shape::Flex4);
        assert_eq!(s([B4, B4, Dead, Dead]), Shape::Flex4);
        assert_eq!(s([DoubleFour, Dead, Dead, Dead]), Shape::Flex4);
        assert_eq!(s([B4, F3, Dead, Dead]), Shape::FourThree);
        assert_eq!(s([B4, B3, Dead, Dead]), Shape::Four);
        assert_eq!(s([F3, F3, Dead, Dead]), Shape::ThreeThree);
        assert_eq!(s([F3, F2, F2, Dead]), Shape::Three);
        assert_eq!(s([F2, F2, B3, Dead]), Shape::None);
        // Foul candidates for renju black, never when a five is made.
        assert!(combine([B4, B4, Dead, Dead]) & MAYBE_FORBIDDEN != 0);
        assert!(combine([F3, F3, Dead, Dead]) & MAYBE_FORBIDDEN != 0);
        assert!(combine([Overline, F2, Dead, Dead]) & MAYBE_FORBIDDEN != 0);
        assert!(combine([Five, B4, B4, Dead]) & MAYBE_FORBIDDEN == 0);
        assert!(combine([B4, F3, Dead, Dead]) & MAYBE_FORBIDDEN == 0);
    }

    #[test]
    fn scores_rank_threats() {
        let v = |p| info_score(combine(p));
        assert!(v([Five, Dead, Dead, Dead]) > v([F4, F3, F3, F3]));
        assert!(v([F4, Dead, Dead, Dead]) > v([B4, F3, Dead, Dead]));
        assert!(v([B4, F3, Dead, Dead]) > v([F3, F3, Dead, Dead]));
        assert!(v([F3, F3, Dead, Dead]) > v([F3, F2, F2, Dead]));
        assert!(v([F2, Dead, Dead, Dead]) > v([B2, Dead, Dead, Dead]));
        let t = combo_table();
        assert_eq!(t.len(), COMBOS);
        let p = [B3, F2, Dead, F4];
        assert_eq!(t[pack_patterns(p) as usize], combine(p));
    }

    #[test]
    fn multisets_rank_every_order_of_four_lines_alike() {
        let mut seen = vec![false; MULTISETS];
        for k in 0..COMBOS {
            // Nibbles 12..15 are no pattern.
            if (0..4).any(|i| k >> (4 * i) & 15 >= 12) {
                continue;
            }
            let p = unpack_patterns(k as u16);
            let r = multiset_rank(p);
            assert!(r < MULTISETS);
            let mut q = p;
            q.reverse();
            assert_eq!(multiset_rank(q), r);
            q.swap(0, 2);
            assert_eq!(multiset_rank(q), r);
            seen[r] = true;
        }
        // Every slot is some multiset's: the ranking is onto.
        assert!(seen.iter().all(|&s| s));
        assert_ne!(
            multiset_rank([F3, F2, Dead, Dead]),
            multiset_rank([F3, F3, Dead, Dead])
        );
    }

    #[test]
    fn evaluation_values_are_capped_and_winning_shapes_take_the_cap() {
        for k in 0..COMBOS {
            let v = combo_table()[k];
            assert!(info_eval(v) <= EVAL_CAP);
            if info_shape(v) >= Shape::FourThree {
                assert_eq!(info_eval(v), EVAL_CAP);
            }
        }
        assert_eq!(info_eval(combine([Dead; 4])), 0);
    }
}
