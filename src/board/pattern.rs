//! Line patterns: what a stone of a given colour would make on an empty square in one
//! direction, read from a precomputed table indexed by the square's line key (the codes of the
//! five squares on each side). Tables are built once per rule variant, on first use.

use super::rule::Rule;
use super::types::Color;
use std::sync::OnceLock;

/// The shape a stone would make in one line, weakest first. `Overline` is only produced where
/// a six does not win (standard, renju black, caro exact five).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// Nothing: no five can ever be made through this square in this line.
    Dead = 0,
    /// Six or more in a row that does not win under the rule.
    Overline = 1,
    /// One stone that can still become a five on one side only ("blocked one").
    B1 = 2,
    /// One stone with room on both sides.
    F1 = 3,
    /// A two that can become a blocked three only.
    B2 = 4,
    /// An open two: can become an open three.
    F2 = 5,
    /// A closed three: can become a four but not an open four.
    B3 = 6,
    /// An open three: one more stone makes an open four.
    F3 = 7,
    /// A four: one square makes a five.
    B4 = 8,
    /// An open (straight) four: two squares make a five, four stones unbroken.
    F4 = 9,
    /// Two fours in one line (like `X.XXX.X`): two separate squares make a five. For renju
    /// black this counts as two fours.
    DoubleFour = 10,
    /// A five that wins under the rule.
    Five = 11,
}

impl Pattern {
    #[inline]
    pub fn from_u8(v: u8) -> Pattern {
        match v {
            1 => Pattern::Overline,
            2 => Pattern::B1,
            3 => Pattern::F1,
            4 => Pattern::B2,
            5 => Pattern::F2,
            6 => Pattern::B3,
            7 => Pattern::F3,
            8 => Pattern::B4,
            9 => Pattern::F4,
            10 => Pattern::DoubleFour,
            11 => Pattern::Five,
            _ => Pattern::Dead,
        }
    }

    /// A four of any kind (one or more squares make a five).
    #[inline]
    pub fn is_four(self) -> bool {
        matches!(self, Pattern::B4 | Pattern::F4 | Pattern::DoubleFour)
    }

    /// Number of fours this line shape counts for under renju's double-four rule.
    #[inline]
    pub fn four_count(self) -> u32 {
        match self {
            Pattern::B4 | Pattern::F4 => 1,
            Pattern::DoubleFour => 2,
            _ => 0,
        }
    }
}

/// How a five is judged in one table; each rule uses one variant per colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Variant {
    /// Five or more wins.
    Free = 0,
    /// Exactly five wins; six or more is an overline.
    Exact = 1,
    /// Five or more wins unless an exact five is blocked by opponent stones at both ends.
    Caro = 2,
    /// Only an exact five not blocked at both ends wins.
    CaroExact = 3,
}

/// Key layout: ten 2-bit cell codes, slots 0..5 for offsets -5..-1 and slots 5..10 for offsets
/// +1..+5 along the direction. Codes: 0 empty, 1 black, 2 white, 3 off the board.
pub const KEY_BITS: u32 = 20;
const KEY_SPACE: usize = 1 << KEY_BITS;
const EMPTY: u8 = 0;
const OWN: u8 = 1;
const OPP: u8 = 2;

/// Slot of the neighbour at offset `k` (k in -5..=5, k != 0).
#[inline]
pub const fn slot(k: isize) -> u32 {
    if k < 0 {
        (k + 5) as u32
    } else {
        (k + 4) as u32
    }
}

/// Decodes a key into an 11-square line with the centre (index 5) holding an own stone.
fn decode(key: u32) -> [u8; 11] {
    let mut line = [OWN; 11];
    for j in 0..10u32 {
        let idx = if j < 5 { j as usize } else { j as usize + 1 };
        line[idx] = ((key >> (2 * j)) & 3) as u8;
    }
    line
}

/// Whether the run of own stones through the centre is a win for this variant; returns
/// (wins, overline) where overline marks a non-winning run of six or more.
fn judge_run(line: &[u8; 11], v: Variant) -> (bool, bool) {
    let mut l = 0;
    while l < 5 && line[4 - l] == OWN {
        l += 1;
    }
    let mut r = 0;
    while r < 5 && line[6 + r] == OWN {
        r += 1;
    }
    let len = l + r + 1;
    let blocked_both = || len == 5 && line[4 - l] == OPP && line[6 + r] == OPP;
    match v {
        Variant::Free => (len >= 5, false),
        Variant::Exact => (len == 5, len > 5),
        Variant::Caro => (len > 5 || (len == 5 && !blocked_both()), false),
        Variant::CaroExact => (len == 5 && !blocked_both(), len > 5),
    }
}

fn classify(key: u32, v: Variant, memo: &mut [u8]) -> u8 {
    const UNSET: u8 = 0xff;
    if memo[key as usize] != UNSET {
        return memo[key as usize];
    }
    let line = decode(key);
    let (five, overline) = judge_run(&line, v);
    let result = if five {
        Pattern::Five
    } else if overline {
        Pattern::Overline
    } else {
        let mut five_slots = [0u32; 10];
        let mut fives = 0;
        let mut best = Pattern::Dead;
        for j in 0..10u32 {
            if (key >> (2 * j)) & 3 != EMPTY as u32 {
                continue;
            }
            let child = Pattern::from_u8(classify(key | (OWN as u32) << (2 * j), v, memo));
            if child == Pattern::Five {
                five_slots[fives] = j;
                fives += 1;
            } else if child > best {
                best = child;
            }
        }
        if fives >= 2 {
            // Straight four: the two completions are five squares apart (slots a and b with
            // b - a == 4 in slot numbering, because the centre has no slot) with the four stones
            // between them; anything else is two separate fours in the line.
            let (a, b) = (five_slots[0], five_slots[1]);
            let straight = fives == 2 && b - a == 4 && a < 5 && b >= 5;
            if straight {
                Pattern::F4
            } else {
                Pattern::DoubleFour
            }
        } else if fives == 1 {
            Pattern::B4
        } else {
            match best {
                Pattern::F4 | Pattern::DoubleFour => Pattern::F3,
                Pattern::B4 => Pattern::B3,
                Pattern::F3 => Pattern::F2,
                Pattern::B3 => Pattern::B2,
                Pattern::F2 => Pattern::F1,
                Pattern::B2 => Pattern::B1,
                _ => Pattern::Dead,
            }
        }
    };
    memo[key as usize] = result as u8;
    result as u8
}

fn build(v: Variant) -> Box<[u8]> {
    let mut memo = vec![0xffu8; KEY_SPACE].into_boxed_slice();
    for key in 0..KEY_SPACE as u32 {
        classify(key, v, &mut memo);
    }
    memo
}

/// Swaps black and white codes in every slot of a key.
#[inline]
fn swap_colors(key: u32) -> u32 {
    let lo = key & 0x55555; // low bit of every 2-bit code
    let hi = (key >> 1) & 0x55555;
    let black = lo & !hi; // code 01
    let white = hi & !lo; // code 10
    let wall = lo & hi;
    (white) | (black << 1) | (wall | (wall << 1))
}

static TABLES: [[OnceLock<Box<[u8]>>; 2]; 4] = [
    [OnceLock::new(), OnceLock::new()],
    [OnceLock::new(), OnceLock::new()],
    [OnceLock::new(), OnceLock::new()],
    [OnceLock::new(), OnceLock::new()],
];

fn table(v: Variant, c: Color) -> &'static [u8] {
    let slot = &TABLES[v as usize][c.index()];
    slot.get_or_init(|| match c {
        Color::Black => build(v),
        Color::White => {
            let black = table(v, Color::Black);
            (0..KEY_SPACE as u32)
                .map(|k| black[swap_colors(k) as usize])
                .collect()
        }
    })
}

static PAIRS: [OnceLock<Box<[u8]>>; 5] = [
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
];

/// Both colours' patterns of every key under `rule` in one byte (black in the low nibble, white
/// in the high one): the incremental evaluation reads both per square, and one table halves the
/// memory it touches (the lookups are its main cost).
pub fn pair_table(rule: Rule) -> &'static [u8] {
    let i = match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 2,
        Rule::Caro => 3,
        Rule::CaroExact => 4,
    };
    PAIRS[i].get_or_init(|| {
        let [b, w] = tables_for(rule);
        b.iter().zip(w.iter()).map(|(&b, &w)| b | w << 4).collect()
    })
}

/// The pair of tables (black, white) that judges lines under `rule`.
pub fn tables_for(rule: Rule) -> [&'static [u8]; 2] {
    let (b, w) = match rule {
        Rule::Freestyle => (Variant::Free, Variant::Free),
        Rule::Standard => (Variant::Exact, Variant::Exact),
        Rule::Renju => (Variant::Exact, Variant::Free),
        Rule::Caro => (Variant::Caro, Variant::Caro),
        Rule::CaroExact => (Variant::CaroExact, Variant::CaroExact),
    };
    [table(b, Color::Black), table(w, Color::White)]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a key from a 11-character picture whose middle character is the candidate
    /// square: `x` own (black), `o` opponent, `#` off board, `.` empty.
    fn key_of(s: &str) -> u32 {
        let b: Vec<u8> = s.bytes().collect();
        assert_eq!(b.len(), 11);
        let mut key = 0;
        for k in -5isize..=5 {
            if k == 0 {
                continue;
            }
            let code = match b[(k + 5) as usize] {
                b'x' => 1,
                b'o' => 2,
                b'#' => 3,
                _ => 0,
            };
            key |= code << (2 * slot(k));
        }
        key
    }

    fn pat(rule: Rule, s: &str) -> Pattern {
        Pattern::from_u8(tables_for(rule)[0][key_of(s) as usize])
    }

    #[test]
    fn recognises_basic_shapes() {
        let r = Rule::Freestyle;
        assert_eq!(pat(r, "...xx_xx..."), Pattern::Five);
        assert_eq!(pat(r, "....x_xx..."), Pattern::F4);
        assert_eq!(pat(r, "...ox_xx..."), Pattern::B4);
        assert_eq!(pat(r, "..x.x_x.x.."), Pattern::DoubleFour);
        assert_eq!(pat(r, "....x_x...."), Pattern::F3);
        assert_eq!(pat(r, "...ox_x...."), Pattern::B3);
        assert_eq!(pat(r, "....._x...."), Pattern::F2);
        assert_eq!(pat(r, "....._....."), Pattern::F1);
        assert_eq!(pat(r, "....o_o...."), Pattern::Dead);
        assert_eq!(pat(r, "#####_x...."), Pattern::B2);
        assert_eq!(pat(r, "..xxx_xx..."), Pattern::Five);
    }

    #[test]
    fn exact_five_rules() {
        assert_eq!(pat(Rule::Standard, "..xxx_xx..."), Pattern::Overline);
        assert_eq!(pat(Rule::Standard, "...xx_xx..."), Pattern::Five);
        // A four whose left completion would make six: one way to five in standard.
        assert_eq!(pat(Rule::Standard, "x.xxx_....."), Pattern::B4);
        assert_eq!(pat(Rule::Freestyle, "x.xxx_....."), Pattern::F4);
    }

    #[test]
    fn caro_blocked_fives() {
        assert_eq!(pat(Rule::Caro, "..oxx_xxo.."), Pattern::Dead);
        assert_eq!(pat(Rule::Caro, "...xx_xxo.."), Pattern::Five);
        assert_eq!(pat(Rule::Caro, "...#x_xxxo."), Pattern::Five);
        assert_eq!(pat(Rule::Caro, "..oxx_xxxo."), Pattern::Five);
        assert_eq!(pat(Rule::CaroExact, "..oxx_xxxo."), Pattern::Overline);
    }

    #[test]
    fn pair_table_holds_both_colours() {
        for rule in [Rule::Renju, Rule::Caro] {
            let [b, w] = tables_for(rule);
            let pairs = pair_table(rule);
            for k in (0..KEY_SPACE).step_by(991) {
                assert_eq!(pairs[k] & 15, b[k]);
                assert_eq!(pairs[k] >> 4, w[k]);
            }
        }
    }

    #[test]
    fn white_table_mirrors_black() {
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Caro] {
            let [b, w] = tables_for(rule);
            for k in (0..KEY_SPACE as u32).step_by(997) {
                assert_eq!(w[k as usize], b[swap_colors(k) as usize]);
                assert_eq!(swap_colors(swap_colors(k)), k);
            }
        }
    }
}
