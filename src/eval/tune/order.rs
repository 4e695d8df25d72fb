//! `tune --order DIR`: fits the move-ordering values to a teacher's moves. A candidate of a
//! quiet position scores its value for the side to move (what it makes) plus its value for the
//! opponent (what it takes away), and the fit lowers the cross-entropy of the teacher's move.

use super::choice::{softmax, split_choices};
use super::{adam, in_rounds, line_keys, lowest, table_rows, Table, TABLE_MIN_SEEN};
use crate::board::{Board, Pattern, Pos};
use crate::eval::{
    combine, info_score, info_shape, iter_bits, pack_patterns, Position, Shape, MULTISETS,
};
use crate::search::movepick::ORDER_CAP;
use anyhow::{Context, Result};
use std::path::Path;

/// Parameters: the attack values (one per multiset of the side to move's four lines), then the
/// defence values (the opponent's lines at the same square).
const NPAR: usize = 2 * MULTISETS;

/// One position: each candidate's slots for the side to move and for the opponent, and which
/// candidate the teacher played.
struct OrderChoice {
    moves: Vec<(u16, u16)>,
    label: usize,
}

/// The candidates of a quiet position (the opponent has no open three to answer: those nodes
/// list only their defences) with their slots; `None` when the position is not quiet or the
/// teacher's move is no candidate.
fn order_choice(b: &Board, played: Pos, t: &Table) -> Option<OrderChoice> {
    let mut pos = Position::new(b);
    let me = b.side_to_move();
    let opp = me.opposite();
    if pos.count(opp, Shape::Flex4) > 0 {
        return None;
    }
    let cands: Vec<Pos> = iter_bits(pos.candidates()).collect();
    let mut moves = Vec::with_capacity(cands.len());
    let mut label = None;
    for m in cands {
        if !pos.is_legal(m, me) {
            continue;
        }
        if m == played {
            label = Some(moves.len());
        }
        let slot = |c| t.slot[pack_patterns(b.patterns(m, c)) as usize];
        moves.push((slot(me), slot(opp)));
    }
    Some(OrderChoice {
        moves,
        label: label?,
    })
}

/// The engine's ordering now: both values of a slot are its additive score (`order_score`).
fn additive() -> Vec<f64> {
    let t = Table::slots_only();
    let mut th = vec![0.0; NPAR];
    for (k, p) in line_keys() {
        let r = t.slot[k as usize] as usize;
        let v = info_score(combine(p)) as f64;
        th[r] = v;
        th[MULTISETS + r] = v;
    }
    th
}

/// Scores of the candidates, divided by the temperature.
fn scores(th: &[f64], c: &OrderChoice, temp: f64, out: &mut Vec<f64>) {
    out.clear();
    out.extend(
        c.moves
            .iter()
            .map(|&(a, d)| (th[a as usize] + th[MULTISETS + d as usize]) / temp),
    );
}

/// Mean cross-entropy of the teacher's moves, and the shares of positions where the teacher's
/// move is first and among the first three (ties count against it, as in the engine the lower
/// square would go first only by chance).
fn loss(th: &[f64], set: &[&OrderChoice], temp: f64) -> (f64, f64, f64) {
    let (mut ce, mut top1, mut top3) = (0.0, 0usize, 0usize);
    let mut s = Vec::new();
    for c in set {
        scores(th, c, temp, &mut s);
        let x = s[c.label];
        let above = s
            .iter()
            .enumerate()
            .filter(|&(i, &y)| i != c.label && y >= x)
            .count();
        top1 += usize::from(above == 0);
        top3 += usize::from(above < 3);
        ce += softmax(&mut s) - x;
    }
    let n = set.len().max(1) as f64;
    (ce / n, top1 as f64 / n, top3 as f64 / n)
}

/// Gradient of the mean cross-entropy.
fn gradient(th: &[f64], set: &[&OrderChoice], temp: f64) -> Vec<f64> {
    let mut g = vec![0.0; NPAR];
    let mut s = Vec::new();
    for c in set {
        scores(th, c, temp, &mut s);
        softmax(&mut s);
        for (i, &(a, d)) in c.moves.iter().enumerate() {
            let ds = (s[i] - if i == c.label { 1.0 } else { 0.0 }) / temp;
            g[a as usize] += ds;
            g[MULTISETS + d as usize] += ds;
        }
    }
    let n = set.len().max(1) as f64;
    g.iter_mut().for_each(|x| *x /= n);
    g
}

/// Which values the fit may move: the slots seen often enough in the candidates, below the
/// winning shapes (they decide the search before ordering does) and not the all-dead square.
fn free_values(set: &[&OrderChoice]) -> Vec<bool> {
    let t = Table::slots_only();
    let mut seen = vec![0usize; NPAR];
    for c in set {
        for &(a, d) in &c.moves {
            seen[a as usize] += 1;
            seen[MULTISETS + d as usize] += 1;
        }
    }
    let mut free = vec![false; NPAR];
    for (k, p) in line_keys() {
        if p == [Pattern::Dead; 4] || info_shape(combine(p)) >= Shape::FourThree {
            continue;
        }
        let r = t.slot[k as usize] as usize;
        for i in [r, MULTISETS + r] {
            free[i] = seen[i] >= TABLE_MIN_SEEN;
        }
    }
    free
}

/// `epochs` steps of Adam from `start`; free values stay within 0..=`ORDER_CAP`.
fn fit(start: &[f64], free: &[bool], train: &[&OrderChoice], temp: f64, epochs: usize) -> Vec<f64> {
    let mut th = start.to_vec();
    let (mut m, mut v) = (vec![0.0; NPAR], vec![0.0; NPAR]);
    for epoch in 1..=epochs {
        let g = gradient(&th, train, temp);
        for i in (0..NPAR).filter(|&i| free[i]) {
            let step = adam(&mut m[i], &mut v[i], g[i], epoch, 1.0);
            th[i] = (th[i] - step).clamp(0.0, ORDER_CAP as f64);
        }
    }
    th
}

/// The source of `src/search/ordering.rs` for the values `th`.
fn source(th: &[f64], command: &str) -> String {
    let mut out = String::new();
    out.push_str("//! Move-ordering values of each multiset of four line patterns (slot: `multiset_rank`),\n");
    out.push_str("//! for the side to move (attack) and for the opponent (defence), written by\n");
    out.push_str(&format!("//! `tune --order`, not by hand: `{command}`.\n"));
    for (name, what, part) in [
        (
            "ATTACK",
            "What a square makes for the side to move.",
            &th[..MULTISETS],
        ),
        (
            "DEFENCE",
            "What a square takes from the opponent.",
            &th[MULTISETS..],
        ),
    ] {
        out.push_str(&format!("\n/// {what}\n"));
        // Kept as written (16 a row), so that a regenerated file needs no formatting.
        out.push_str("#[rustfmt::skip]\n");
        out.push_str(&format!(
            "pub(crate) const {name}: [u16; {MULTISETS}] = [\n"
        ));
        out.push_str(&table_rows(part));
        out.push_str("];\n");
    }
    out
}

/// `tune --order DIR [EPOCHS] [--write PATH]`: fits the ordering values to the moves of the
/// games in DIR (every fifth game held out), from the additive ordering, and reports
/// cross-entropy and agreement for both.
pub(crate) fn tune_order(
    dir: &Path,
    epochs: usize,
    write: Option<&str>,
    command: &str,
) -> Result<()> {
    let t = Table::slots_only();
    let (train, test, games, skipped) = split_choices(dir, |b, p| order_choice(b, p, &t))?;
    let train: Vec<&OrderChoice> = train.iter().collect();
    let test: Vec<&OrderChoice> = test.iter().collect();
    let free = free_values(&train);
    println!(
        "{} games: {} positions to fit, {} held out ({} skipped: not quiet, or the move was no candidate); {} of {NPAR} values free",
        games,
        train.len(),
        test.len(),
        skipped,
        free.iter().filter(|&&f| f).count()
    );
    let start = additive();
    let temp = lowest(&[10.0, 20.0, 40.0, 80.0, 160.0, 320.0], |x| {
        loss(&start, &train, x).0
    });
    let report = |what: &str, th: &[f64]| {
        let (a, b) = (loss(th, &train, temp), loss(th, &test, temp));
        println!(
            "{what}: cross-entropy {:.4} fitted, {:.4} held out; teacher's move first {:.1} %, {:.1} %; in the first three {:.1} %, {:.1} %",
            a.0,
            b.0,
            100.0 * a.1,
            100.0 * b.1,
            100.0 * a.2,
            100.0 * b.2
        );
    };
    report(&format!("additive ordering, temperature {temp}"), &start);
    let mut th = start;
    in_rounds(epochs, |n, done| {
        th = fit(&th, &free, &train, temp, n);
        report(&format!("epoch {done}"), &th);
    });
    if let Some(path) = write {
        std::fs::write(path, source(&th, command)).with_context(|| format!("writing {path}"))?;
        println!("wrote {path}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::{parse_move_list, Rows};
    use crate::board::Rule;
    use crate::search::movepick::{order_score, weight};
    use crate::search::ordering::{ATTACK, DEFENCE};

    const GAME: &str = "a9d14e12e9c10d11d12f12e10f10g11f11f9f7e7c11f8g8d6g9e5g6g7h8";

    /// The quiet positions of `GAME` with the next move as the teacher's.
    fn game_choices() -> Vec<OrderChoice> {
        let moves = parse_move_list(GAME, 15, 15, Rows::FromTop).unwrap();
        let t = Table::slots_only();
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        let mut out = Vec::new();
        for &p in &moves {
            if let Some(c) = order_choice(&b, p, &t) {
                out.push(c);
            }
            b.play(p).unwrap();
        }
        out
    }

    /// For every candidate of every position of `GAME`: the tuner's model with `th` and the
    /// engine's `engine` value of the same move.
    fn model_and_engine(th: &[f64], engine: fn(&Position, Pos, crate::board::Color) -> i32) {
        let moves = parse_move_list(GAME, 15, 15, Rows::FromTop).unwrap();
        let t = Table::slots_only();
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        let mut checked = 0;
        for &p in &moves {
            if let Some(c) = order_choice(&b, p, &t) {
                let pos = Position::new(&b);
                let me = b.side_to_move();
                let cands: Vec<Pos> = iter_bits(pos.candidates()).collect();
                assert_eq!(cands.len(), c.moves.len());
                for (&m, &(a, d)) in cands.iter().zip(&c.moves) {
                    let model = th[a as usize] + th[MULTISETS + d as usize];
                    assert_eq!(model, engine(&pos, m, me) as f64, "{m:?} after {p:?}");
                    checked += 1;
                }
            }
            b.play(p).unwrap();
        }
        assert!(checked > 200, "{checked} moves");
    }

    #[test]
    fn the_start_is_the_additive_ordering() {
        model_and_engine(&additive(), weight);
    }

    #[test]
    fn the_engine_orders_by_the_fitted_values() {
        let th: Vec<f64> = ATTACK.iter().chain(&DEFENCE).map(|&v| v as f64).collect();
        model_and_engine(&th, order_score);
    }

    #[test]
    fn only_quiet_positions_with_the_move_among_the_candidates() {
        let t = Table::slots_only();
        // White faces black's open three h8 i8 j8: a defence node, not a quiet one.
        let m = parse_move_list("h8a1i8a3j8", 15, 15, Rows::FromTop).unwrap();
        let b = Board::from_moves(15, 15, Rule::Freestyle, &m).unwrap();
        let g8 = parse_move_list("g8", 15, 15, Rows::FromTop).unwrap()[0];
        assert!(order_choice(&b, g8, &t).is_none());
        // A quiet position: a move far from the stones is no candidate.
        let m = parse_move_list("h8i9", 15, 15, Rows::FromTop).unwrap();
        let b = Board::from_moves(15, 15, Rule::Freestyle, &m).unwrap();
        let far = parse_move_list("a15", 15, 15, Rows::FromTop).unwrap()[0];
        let near = parse_move_list("g7", 15, 15, Rows::FromTop).unwrap()[0];
        assert!(order_choice(&b, far, &t).is_none());
        let c = order_choice(&b, near, &t).expect("a candidate");
        assert!(c.moves.len() > 20 && c.label < c.moves.len());
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let set = game_choices();
        let set: Vec<&OrderChoice> = set.iter().collect();
        let th = additive();
        let g = gradient(&th, &set, 40.0);
        let used: Vec<usize> = (0..NPAR).filter(|&i| g[i] != 0.0).collect();
        assert!(used.len() > 20);
        for &i in &used {
            let h = 1e-3;
            let (mut a, mut b) = (th.clone(), th.clone());
            a[i] += h;
            b[i] -= h;
            let num = (loss(&a, &set, 40.0).0 - loss(&b, &set, 40.0).0) / (2.0 * h);
            assert!(
                (num - g[i]).abs() <= 1e-6 + 1e-4 * num.abs(),
                "value {i}: numeric {num}, analytic {}",
                g[i]
            );
        }
    }

    #[test]
    fn fitting_lowers_the_loss_and_moves_only_free_values() {
        let set = game_choices();
        let set: Vec<&OrderChoice> = set.iter().collect();
        let th = additive();
        // Every value the game's candidates touch is free, but the all-dead square and the
        // winning shapes.
        let mut free: Vec<bool> = gradient(&th, &set, 40.0)
            .iter()
            .map(|&g| g != 0.0)
            .collect();
        let t = Table::slots_only();
        let dead = t.slot[pack_patterns([Pattern::Dead; 4]) as usize] as usize;
        free[dead] = false;
        free[MULTISETS + dead] = false;
        let fitted = fit(&th, &free, &set, 40.0, 30);
        assert!(loss(&fitted, &set, 40.0).0 < loss(&th, &set, 40.0).0);
        for i in 0..NPAR {
            if !free[i] {
                assert_eq!(fitted[i], th[i]);
            } else {
                assert!((0.0..=ORDER_CAP as f64).contains(&fitted[i]));
            }
        }
        let src = source(&fitted, "test");
        assert!(src.contains(&format!("pub(crate) const ATTACK: [u16; {MULTISETS}]")));
        assert!(src.contains(&format!("pub(crate) const DEFENCE: [u16; {MULTISETS}]")));
    }
}
