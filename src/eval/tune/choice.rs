//! `tune --choices DIR`: fits the combination table to a teacher's move choices instead of game
//! results. Each position's candidate moves are scored by the evaluation after the move, and
//! the fit lowers the cross-entropy of the teacher's move under a softmax over those scores.

#[cfg(test)]
use super::TABLE_MIN_SEEN;
use super::{adam, in_rounds, load_records, lowest, waiting_at, Table, SKIP_LAST};
use crate::board::{Board, Color, Pos, Rule};
use crate::eval::{
    combine, info_shape, iter_bits, pack_patterns, Position, Shape, EVAL_CAP, MULTISETS,
};
use crate::record::GameRecord;
use anyhow::{Context, Result};
use std::path::Path;

/// How the evaluation after one candidate move differs from the evaluation before it, as
/// counts of table slots gained (positive) or lost (negative) by each side.
struct MoveDelta {
    /// The side that moved: its squares count with weight 1.
    me: Vec<(u16, i16)>,
    /// The side to move next: its squares count with weight 1 + tempo (in the one-table model).
    opp: Vec<(u16, i16)>,
}

/// One position: the candidate moves and which of them the teacher played.
struct Choice {
    moves: Vec<MoveDelta>,
    label: usize,
}

/// Whether a position is one where the choice is the evaluation's to make: no five to make or
/// to block and no winning shape (open four, four-three) for the side to move.
fn is_open_choice(b: &Board) -> bool {
    let me = b.side_to_move();
    b.squares().filter(|&q| b.is_empty(q)).all(|q| {
        info_shape(combine(b.patterns(q, me))) < Shape::FourThree
            && info_shape(combine(b.patterns(q, me.opposite()))) < Shape::Five
    })
}

/// The positions of a game (freestyle) whose next move is a choice to learn from, with that
/// move: the opening stones (the leading moves with no thinking time) and the last
/// `SKIP_LAST` plies are left out.
pub(crate) fn choices_of(rec: &GameRecord) -> Result<Vec<(Board, Pos)>> {
    let mut b = Board::new(rec.width, rec.height, Rule::Freestyle)?;
    let opening = rec.moves.iter().take_while(|&&(_, ms)| ms == 0).count();
    let n = rec.moves.len();
    let mut out = Vec::new();
    for (i, &(p, _)) in rec.moves.iter().enumerate() {
        if i >= opening && i + SKIP_LAST < n && is_open_choice(&b) {
            out.push((b.clone(), p));
        }
        b.play(p)?;
    }
    Ok(out)
}

/// The choices of the games in `dir` as `of` makes them (`None`: skipped), every fifth game's
/// held out: (to fit, held out, games, positions skipped).
pub(crate) fn split_choices<C>(
    dir: &Path,
    mut of: impl FnMut(&Board, Pos) -> Option<C>,
) -> Result<(Vec<C>, Vec<C>, usize, usize)> {
    let records = load_records(dir)?;
    let (mut train, mut test) = (Vec::new(), Vec::new());
    let mut skipped = 0;
    for (g, (_, rec)) in records.iter().enumerate() {
        let set = if g % 5 == 0 { &mut test } else { &mut train };
        for (b, p) in choices_of(rec)? {
            match of(&b, p) {
                Some(c) => set.push(c),
                None => skipped += 1,
            }
        }
    }
    if train.is_empty() || test.is_empty() {
        anyhow::bail!("too few positions to learn from in {}", dir.display());
    }
    Ok((train, test, records.len(), skipped))
}

/// Adds `sign` for each colour's packed key of the squares in `area` to the slot counts.
fn count(b: &Board, area: &[Pos], me: Color, t: &Table, sign: i16, d: &mut [Vec<(u16, i16)>; 2]) {
    for &q in area.iter().filter(|&&q| b.is_empty(q)) {
        for (side, c) in [me, me.opposite()].into_iter().enumerate() {
            d[side].push((t.slot[pack_patterns(b.patterns(q, c)) as usize], sign));
        }
    }
}

/// Sums the counts of equal slots and drops the ones that cancel.
fn merge(mut v: Vec<(u16, i16)>) -> Vec<(u16, i16)> {
    v.sort_unstable();
    let mut out: Vec<(u16, i16)> = Vec::with_capacity(v.len());
    for (s, c) in v {
        match out.last_mut() {
            Some(last) if last.0 == s => last.1 += c,
            _ => out.push((s, c)),
        }
    }
    out.retain(|&(_, c)| c != 0);
    out
}

/// The candidate moves of a position (the engine's: empty squares near the stones) with their
/// evaluation deltas; `None` when the teacher's move is not among them.
fn choice_of(b: &Board, played: Pos, t: &Table) -> Option<Choice> {
    let mut b = b.clone();
    let me = b.side_to_move();
    let cands: Vec<Pos> = iter_bits(Position::new(&b).candidates()).collect();
    let label = cands.iter().position(|&m| m == played)?;
    let mut moves = Vec::with_capacity(cands.len());
    let mut area = Vec::with_capacity(41);
    for &m in &cands {
        // A stone changes the patterns of the squares up to five away on its four lines.
        area.clear();
        area.push(m);
        for d in 0..4 {
            for k in [-5, -4, -3, -2, -1, 1, 2, 3, 4, 5] {
                let q = m.step(d, k);
                if b.contains(q) {
                    area.push(q);
                }
            }
        }
        let mut delta = [Vec::new(), Vec::new()];
        count(&b, &area, me, t, -1, &mut delta);
        b.make(m);
        count(&b, &area, me, t, 1, &mut delta);
        b.unmake();
        let [dm, dopp] = delta;
        moves.push(MoveDelta {
            me: merge(dm),
            opp: merge(dopp),
        });
    }
    Some(Choice { moves, label })
}

/// Where the mover's values start in `th`, and the weight of the opponent's (the side to move
/// after the move): its own table at weight 1 in the split model, the one table scaled by the
/// tempo share otherwise.
fn roles(th: &[f64]) -> (usize, f64) {
    match waiting_at(th) {
        Some(w) => (w, 1.0),
        None => (0, 1.0 + th[MULTISETS]),
    }
}

/// Score of each candidate move for the side that moves: its evaluation after the move
/// relative to before, scaled by `1 / temp`.
fn scores(th: &[f64], c: &Choice, temp: f64, out: &mut Vec<f64>) {
    // After the move the mover waits and the opponent is to move.
    let (mine, own) = roles(th);
    out.clear();
    for m in &c.moves {
        let a: f64 =
            m.me.iter()
                .map(|&(s, k)| th[mine + s as usize] * k as f64)
                .sum();
        let b: f64 = m.opp.iter().map(|&(s, k)| th[s as usize] * k as f64).sum();
        out.push((a - own * b) / temp);
    }
}

/// Softmax of `s` in place; returns the log of the normaliser.
pub(crate) fn softmax(s: &mut [f64]) -> f64 {
    let max = s.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let z: f64 = s.iter().map(|&x| (x - max).exp()).sum();
    for x in s.iter_mut() {
        *x = (*x - max).exp() / z;
    }
    max + z.ln()
}

/// Mean cross-entropy of the teacher's moves and the share of positions where the teacher's
/// move scores highest.
fn loss(th: &[f64], set: &[&Choice], temp: f64) -> (f64, f64) {
    let (mut ce, mut top) = (0.0, 0usize);
    let mut s = Vec::new();
    for c in set {
        scores(th, c, temp, &mut s);
        let best = s[c.label];
        // Ties count against the teacher's move: a table that scores every move alike
        // agrees with nothing.
        if s.iter().enumerate().all(|(i, &x)| i == c.label || x < best) {
            top += 1;
        }
        let logz = softmax(&mut s);
        ce += logz - best;
    }
    let n = set.len().max(1) as f64;
    (ce / n, top as f64 / n)
}

/// Gradient of the mean cross-entropy over the parameters.
fn gradient(th: &[f64], set: &[&Choice], temp: f64) -> Vec<f64> {
    let mut g = vec![0.0; th.len()];
    let (mine, own) = roles(th);
    let mut s = Vec::new();
    for c in set {
        scores(th, c, temp, &mut s);
        softmax(&mut s);
        for (i, mv) in c.moves.iter().enumerate() {
            // d(loss)/d(score) is p - y, and the score is divided by the temperature.
            let ds = (s[i] - if i == c.label { 1.0 } else { 0.0 }) / temp;
            for &(r, k) in &mv.me {
                g[mine + r as usize] += ds * k as f64;
            }
            let mut b = 0.0;
            for &(r, k) in &mv.opp {
                g[r as usize] -= ds * own * k as f64;
                b += th[r as usize] * k as f64;
            }
            if mine == 0 {
                g[MULTISETS] -= ds * b;
            }
        }
    }
    let n = set.len().max(1) as f64;
    g.iter_mut().for_each(|x| *x /= n);
    g
}

/// `epochs` steps of Adam on the mean cross-entropy; free values stay within 0..=cap, and
/// the tempo share moves only in the one-table model and without `keep_tempo`.
fn fit(
    t: &Table,
    start: &[f64],
    train: &[&Choice],
    temp: f64,
    epochs: usize,
    keep_tempo: bool,
) -> Vec<f64> {
    let n = start.len();
    let mut th = start.to_vec();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let cap = EVAL_CAP as f64;
    let split = waiting_at(start).is_some();
    let free = |i: usize| match i {
        _ if i < MULTISETS => t.free[i],
        MULTISETS => !split && !keep_tempo,
        _ => t.free[i - MULTISETS - 1],
    };
    for epoch in 1..=epochs {
        let g = gradient(&th, train, temp);
        for i in (0..n).filter(|&i| free(i)) {
            let lr = if i == MULTISETS { 0.002 } else { 0.5 };
            let step = adam(&mut m[i], &mut v[i], g[i], epoch, lr);
            th[i] = (th[i] - step).clamp(0.0, cap);
        }
    }
    th
}

/// Which slots the choices use, and how often (a slot gained or lost counts once per move).
fn seen(set: &[&Choice]) -> Vec<usize> {
    let mut seen = vec![0usize; MULTISETS];
    for c in set {
        for m in &c.moves {
            for &(r, _) in m.me.iter().chain(&m.opp) {
                seen[r as usize] += 1;
            }
        }
    }
    seen
}

/// Options of `tune --choices DIR [EPOCHS] [--keep-tempo] [--split] [--write PATH]`.
#[derive(Clone, Copy)]
pub(crate) struct ChoiceOptions<'a> {
    pub epochs: usize,
    /// After the fit, also fit two tables (side to move, waiting side) and report them.
    pub split: bool,
    /// The tempo share stays the engine's.
    pub keep_tempo: bool,
    pub write: Option<&'a str>,
}

/// `tune --choices DIR`: fits the table to the moves of the games in DIR (every fifth game
/// held out), reports cross-entropy and agreement, and writes the table's source to `write`.
pub(crate) fn tune_choices(dir: &Path, opts: &ChoiceOptions, command: &str) -> Result<()> {
    let ChoiceOptions {
        epochs,
        split,
        keep_tempo,
        write,
    } = *opts;
    let mut t = Table::slots_only();
    let (train, test, games, skipped) = split_choices(dir, |b, p| choice_of(b, p, &t))?;
    let train: Vec<&Choice> = train.iter().collect();
    let test: Vec<&Choice> = test.iter().collect();
    t.set_free(&seen(&train));
    println!(
        "{} games: {} positions to fit, {} held out ({} skipped: the move was no candidate); {} of {MULTISETS} values free",
        games,
        train.len(),
        test.len(),
        skipped,
        t.free.iter().filter(|&&f| f).count()
    );
    let th = t.engine_values();
    let temp = lowest(&[10.0, 20.0, 40.0, 80.0, 160.0, 320.0, 640.0], |x| {
        loss(&th, &train, x).0
    });
    let report = |what: &str, th: &[f64]| {
        let (a, b) = (loss(th, &train, temp), loss(th, &test, temp));
        println!(
            "{what}: cross-entropy {:.4} fitted, {:.4} held out; teacher's move first {:.1} %, {:.1} %",
            a.0,
            b.0,
            100.0 * a.1,
            100.0 * b.1
        );
    };
    // Adam restarts every 50 epochs, after each report.
    let fit_all = |mut th: Vec<f64>, keep_tempo: bool, what: &str| {
        in_rounds(epochs, |n, done| {
            th = fit(&t, &th, &train, temp, n, keep_tempo);
            report(&format!("{what}epoch {done}"), &th);
        });
        th
    };
    report(&format!("engine's table, temperature {temp}"), &th);
    let th = fit_all(th, keep_tempo, "");
    println!("tempo share {:.4}", th[MULTISETS]);
    if split {
        // Two tables from the fitted one: the side to move's values scaled by the tempo.
        let own = 1.0 + th[MULTISETS];
        let mut two: Vec<f64> = th.iter().map(|&v| (v * own).min(EVAL_CAP as f64)).collect();
        two[MULTISETS] = 0.0;
        two.extend_from_slice(&th[..MULTISETS]);
        report("split tables, start", &two);
        fit_all(two, false, "split tables, ");
    }
    if let Some(path) = write {
        std::fs::write(path, t.source(&th, command)).with_context(|| format!("writing {path}"))?;
        println!("wrote {path}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::{parse_move_list, Rows};

    /// A record of pos-notation moves, the first `opening` of them with no thinking time.
    fn record(moves: &str, opening: usize) -> GameRecord {
        let m = parse_move_list(moves, 15, 15, Rows::FromTop).unwrap();
        GameRecord {
            width: 15,
            height: 15,
            moves: m
                .into_iter()
                .enumerate()
                .map(|(i, p)| (p, if i < opening { 0 } else { 100 }))
                .collect(),
            trailer: vec![],
        }
    }

    #[test]
    fn choices_leave_out_the_opening_the_end_and_forced_moves() {
        // Black makes four in a row on row 8 (h8..k8) while white plays elsewhere, then white
        // must block at l8 or g8: that position is no choice.
        let rec = record("h8a1i8a3j8a5k8g8b7c2d3e4", 3);
        let got = choices_of(&rec).unwrap();
        let plies: Vec<usize> = got.iter().map(|(b, _)| b.move_count()).collect();
        assert_eq!(plies.first(), Some(&3));
        // After k8 (ply 7) white faces a five: ply 7 is forced and left out.
        assert!(!plies.contains(&7));
        assert!(plies.iter().all(|&n| n + SKIP_LAST < rec.moves.len()));
        for (b, p) in &got {
            assert_eq!(rec.moves[b.move_count()].0, *p);
        }
    }

    fn sample_choices() -> Vec<Choice> {
        let t = Table::slots_only();
        let mut out = Vec::new();
        for (moves, next) in [("h8i9g7i7", "h9"), ("h8i9g7i7h9", "j8"), ("h8h9i8", "g8")] {
            let m = parse_move_list(moves, 15, 15, Rows::FromTop).unwrap();
            let b = Board::from_moves(15, 15, Rule::Freestyle, &m).unwrap();
            let p = parse_move_list(next, 15, 15, Rows::FromTop).unwrap()[0];
            out.push(choice_of(&b, p, &t).expect("the move is a candidate"));
        }
        out
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let set = sample_choices();
        let set: Vec<&Choice> = set.iter().collect();
        let one = Table::slots_only().engine_values();
        // The split model: the waiting side's table a little below the side to move's.
        let mut two = one.clone();
        two.extend(one[..MULTISETS].iter().map(|v| v * 0.8));
        let used = seen(&set);
        let mut checked = 0;
        // Every slot the choices touch below the cap, and the tempo share.
        let one_at = (0..MULTISETS)
            .filter(|&i| used[i] > 0 && one[i] < 200.0)
            .chain([MULTISETS])
            .map(|i| (&one, i));
        let two_at = (0..MULTISETS)
            .filter(|&i| used[i] > 0 && one[i] < 200.0)
            .flat_map(|i| [i, i + MULTISETS + 1])
            .map(|i| (&two, i));
        for (th, i) in one_at.chain(two_at) {
            let g = gradient(th, &set, 20.0);
            let h = if i == MULTISETS { 1e-4 } else { 1e-3 };
            let (mut a, mut b) = (th.to_vec(), th.to_vec());
            a[i] += h;
            b[i] -= h;
            let num = (loss(&a, &set, 20.0).0 - loss(&b, &set, 20.0).0) / (2.0 * h);
            assert!(
                (num - g[i]).abs() <= 1e-6 + 1e-4 * num.abs(),
                "slot {i}: numeric {num}, analytic {}",
                g[i]
            );
            checked += 1;
        }
        assert!(checked > 30);
    }

    #[test]
    fn fitting_lowers_the_cross_entropy() {
        let set = sample_choices();
        let set: Vec<&Choice> = set.iter().collect();
        let mut t = Table::slots_only();
        t.set_free(&vec![TABLE_MIN_SEEN; MULTISETS]);
        let th = t.engine_values();
        let fitted = fit(&t, &th, &set, 20.0, 30, false);
        assert!(loss(&fitted, &set, 20.0).0 < loss(&th, &set, 20.0).0);
        assert!(fitted.iter().all(|&v| (0.0..=EVAL_CAP as f64).contains(&v)));
    }
}
