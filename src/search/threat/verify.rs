//! Independent check of a claimed winning line: replays it with the checked board API (not the
//! solver's code) and asks the rule tables whether every move was legal, whether a four was
//! answered where it had to be, and whether the line ends in the attacker's winning five.

use crate::board::{Board, Color, MoveClass, Pos, Rule};

/// What the line must be made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// Every attacker move but the last makes a four.
    Vcf,
    /// Any legal attacker moves.
    Vct,
}

/// Squares where `c` would make a winning five now.
fn fives(b: &Board, c: Color) -> Vec<Pos> {
    b.squares()
        .filter(|&p| b.is_empty(p) && b.makes_five(p, c))
        .collect()
}

/// Replays `line` from `board` (the side to move attacks). Ok(number of attacker moves) when
/// the line is a legal forced win; Err says what is wrong.
pub fn verify_line(board: &Board, line: &[Pos], kind: LineKind) -> Result<usize, String> {
    let mut b = board.clone();
    let attacker = b.side_to_move();
    if line.is_empty() || line.len().is_multiple_of(2) {
        return Err(format!(
            "a line must have an odd number of moves, not {}",
            line.len()
        ));
    }
    for (i, &p) in line.iter().enumerate() {
        let c = b.side_to_move();
        let last = i + 1 == line.len();
        let class = b
            .classify_move(p, c)
            .map_err(|e| format!("move {} ({p}): {e}", i + 1))?;
        if class == MoveClass::Forbidden {
            return Err(format!("move {} ({p}) is forbidden for black", i + 1));
        }
        if c == attacker {
            // The defender's five square must be taken first (by a five or a block).
            let threats = fives(&b, c.opposite());
            if class != MoveClass::Win && !threats.is_empty() && !threats.contains(&p) {
                return Err(format!(
                    "move {} ({p}) ignores the defender's five at {}",
                    i + 1,
                    threats[0]
                ));
            }
            if last {
                if class != MoveClass::Win {
                    return Err(format!("the last move ({p}) does not make a five"));
                }
                return Ok(i / 2 + 1);
            }
            if class == MoveClass::Win {
                return Err(format!(
                    "move {} ({p}) already wins; the line goes on",
                    i + 1
                ));
            }
            b.play(p).map_err(|e| e.to_string())?;
            if kind == LineKind::Vcf && fives(&b, attacker).is_empty() {
                return Err(format!("move {} ({p}) is not a four", i + 1));
            }
        } else {
            if class == MoveClass::Win {
                return Err(format!("the defender wins with move {} ({p})", i + 1));
            }
            if !fives(&b, c).is_empty() {
                return Err(format!(
                    "the defender could make a five before move {}",
                    i + 1
                ));
            }
            // Facing a single five square the defender must block it (unless he cannot).
            let threats = fives(&b, attacker);
            let caro = matches!(b.rule(), Rule::Caro | Rule::CaroExact);
            if threats.len() == 1 && !caro && !threats.contains(&p) {
                let t = threats[0];
                let can_block = !(c == Color::Black && b.rule() == Rule::Renju && {
                    let mut probe = b.clone();
                    probe.is_forbidden(t)
                });
                if can_block {
                    return Err(format!(
                        "defender's move {} ({p}) does not block the five at {t}",
                        i + 1
                    ));
                }
            }
            b.play(p).map_err(|e| e.to_string())?;
        }
    }
    Err("the line does not end with the attacker's move".into())
}
