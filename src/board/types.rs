//! Small typed values of the board: `Pos` (a square), `Color`, and the four line directions.
//! A `Pos` indexes a fixed padded grid, so it is the same value on every board size and the hot
//! path can step along a line with plain additions.

use std::fmt;

/// Largest width or height a board may have.
pub const MAX_SIZE: usize = 32;
/// Smallest width or height a board may have.
pub const MIN_SIZE: usize = 5;
/// Padding around the playable area: a line key looks five squares each way.
pub const PAD: usize = 5;
/// Row stride of the padded grid.
pub const STRIDE: usize = MAX_SIZE + 2 * PAD;
/// Number of cells in the padded grid.
pub const NCELLS: usize = STRIDE * STRIDE;

/// Index steps of the four line directions: horizontal, vertical, diagonal, anti-diagonal.
pub const DIR_STEP: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];
/// (dx, dy) of the four directions, matching `DIR_STEP`.
pub const DIR_DXY: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

/// A stone colour. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    #[inline]
    pub fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Cell code used by the board and the line keys (0 is empty, 3 is off the board).
    #[inline]
    pub(crate) fn code(self) -> u8 {
        self as u8 + 1
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// A square of the padded grid. Build one with `Pos::new(x, y)` (0-based column and row, row 0
/// at the top as in the Piskvork protocol); whether it lies on a given board is the board's call.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Pos(u16);

impl Pos {
    /// A value that is no square of any board (used for "no move").
    pub const NONE: Pos = Pos(0);

    /// The square at column `x`, row `y`. Both must be below `MAX_SIZE`.
    #[inline]
    pub const fn new(x: usize, y: usize) -> Pos {
        debug_assert!(x < MAX_SIZE && y < MAX_SIZE);
        Pos(((y + PAD) * STRIDE + x + PAD) as u16)
    }

    /// The square at (x, y) if both coordinates are within `0..MAX_SIZE`.
    pub fn try_new(x: i64, y: i64) -> Option<Pos> {
        if (0..MAX_SIZE as i64).contains(&x) && (0..MAX_SIZE as i64).contains(&y) {
            Some(Pos::new(x as usize, y as usize))
        } else {
            None
        }
    }

    #[inline]
    pub fn x(self) -> usize {
        self.0 as usize % STRIDE - PAD
    }

    #[inline]
    pub fn y(self) -> usize {
        self.0 as usize / STRIDE - PAD
    }

    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The square whose `index()` is `i` (for bit sets indexed by square); None when `i` is
    /// not a square of the largest board.
    pub fn from_index(i: usize) -> Option<Pos> {
        let (x, y) = (i % STRIDE, i / STRIDE);
        let on = |v: usize| (PAD..PAD + MAX_SIZE).contains(&v);
        (on(x) && on(y)).then_some(Pos(i as u16))
    }

    /// The square `k` steps away in direction `dir`. The result may be in the padding; only
    /// call it with |k| <= PAD from a square on the board.
    #[inline]
    pub fn step(self, dir: usize, k: isize) -> Pos {
        Pos((self.0 as isize + DIR_STEP[dir] * k) as u16)
    }

    pub fn is_none(self) -> bool {
        self == Pos::NONE
    }

    /// Chebyshev distance between two squares.
    pub fn distance(self, other: Pos) -> usize {
        let dx = self.x().abs_diff(other.x());
        let dy = self.y().abs_diff(other.y());
        dx.max(dy)
    }
}

impl fmt::Debug for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            f.write_str("Pos(none)")
        } else {
            write!(f, "Pos({},{})", self.x(), self.y())
        }
    }
}

/// Protocol form: `x,y`.
impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x(), self.y())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pos_round_trips_every_square() {
        for y in 0..MAX_SIZE {
            for x in 0..MAX_SIZE {
                let p = Pos::new(x, y);
                assert_eq!((p.x(), p.y()), (x, y));
                assert!(!p.is_none());
            }
        }
        assert_eq!(Pos::try_new(-1, 0), None);
        assert_eq!(
            Pos::from_index(Pos::new(3, 30).index()),
            Some(Pos::new(3, 30))
        );
        assert_eq!(Pos::from_index(0), None);
        assert_eq!(Pos::from_index(NCELLS), None);
        assert_eq!(Pos::try_new(0, 32), None);
    }

    #[test]
    fn steps_follow_directions() {
        let p = Pos::new(10, 10);
        for (d, &(dx, dy)) in DIR_DXY.iter().enumerate() {
            let q = p.step(d, 3);
            assert_eq!(q.x() as i32, 10 + 3 * dx);
            assert_eq!(q.y() as i32, 10 + 3 * dy);
        }
    }
}
