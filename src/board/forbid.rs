//! Renju forbidden moves for black: overline, double-four and double-three, with five taking
//! precedence and the recursive "false three" rule (a three counts only if a square that turns
//! it into a straight four is itself a legal black move).

use super::{Board, Color, Pattern, Pos};

/// Whether a black stone on the empty square `p` is forbidden. The board is restored.
pub(super) fn is_forbidden(b: &mut Board, p: Pos) -> bool {
    let pats = b.patterns(p, Color::Black);
    if pats.contains(&Pattern::Five) {
        return false;
    }
    let fours: u32 = pats.iter().map(|q| q.four_count()).sum();
    if fours >= 2 || pats.contains(&Pattern::Overline) {
        return true;
    }
    let threes = pats.iter().filter(|&&q| q == Pattern::F3).count();
    if threes < 2 {
        return false;
    }
    // Count the threes that are real: place the stone and look for a square that makes a
    // straight four containing it and is not itself forbidden.
    let saved = b.side_to_move();
    b.set_side_to_move(Color::Black);
    b.make(p);
    let mut real = 0;
    for (d, &pat) in pats.iter().enumerate() {
        if pat == Pattern::F3 && is_real_three(b, p, d) {
            real += 1;
            if real >= 2 {
                break;
            }
        }
    }
    b.unmake();
    b.set_side_to_move(saved);
    real >= 2
}

/// With a black stone on `p`, whether the line through `p` in direction `d` has a square that
/// makes a straight four through `p` and is a legal black move.
fn is_real_three(b: &mut Board, p: Pos, d: usize) -> bool {
    for k in [-3isize, -2, -1, 1, 2, 3] {
        let q = p.step(d, k);
        if !b.contains(q) || !b.is_empty(q) || b.pattern(q, d, Color::Black) != Pattern::F4 {
            continue;
        }
        // The four must contain p: every square strictly between q and p is black.
        let sign = if k < 0 { 1 } else { -1 };
        let joined = (1..k.abs()).all(|j| b.stone(q.step(d, sign * j)) == Some(Color::Black));
        if joined && !is_forbidden(b, q) {
            return true;
        }
    }
    false
}
