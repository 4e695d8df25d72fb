//! `pbrain-gorin tune`: fits the evaluation's line values, shape bonuses, pair values and tempo
//! to game results (Texel's method) or to labelled positions: quiet positions, a logistic model
//! of the result on the evaluation, gradient descent on the squared error, a held-out fifth.
//! `choice` fits the combination table to a teacher's moves instead.

use super::{
    combine, info_eval, info_score, info_shape, joint_bucket, multiset_rank, pack_patterns,
    pair_slot, shape_bonus, unpack_patterns, Shape, EVAL_CAP, JOINT, JOINT_BUCKETS, JOINT_UNIT,
    LINE_TEMPO, LINE_VALUE, MULTISETS, PAIRS, PAIR_VALUE, TEMPO, TEMPO_DENOMINATOR,
};
use crate::board::notation::{parse_move_list, Rows};
use crate::board::{Board, Pattern, Rule};
use crate::record::GameRecord;
use anyhow::{bail, Context, Result};
use std::path::Path;

pub(crate) mod choice;
pub(crate) mod net;
pub(crate) mod order;

const NP: usize = 12;
const NS: usize = 7;
const NPAIR: usize = PAIRS.len();
/// Parameters: the line values, the shape bonuses, the pair values, the tempo share.
const NPAR: usize = NP + NS + NPAIR + 1;
const PAIR_AT: usize = NP + NS;
const TEMPO_AT: usize = NP + NS + NPAIR;
/// Opening plies (set by the opening file, not by play) and final plies (decided by
/// threats the evaluation does not judge) are left out.
const SKIP_FIRST: usize = 5;
const SKIP_LAST: usize = 4;
const PATTERN_NAMES: [&str; NP] = [
    "Dead",
    "Overline",
    "B1",
    "F1",
    "B2",
    "F2",
    "B3",
    "F3",
    "B4",
    "F4",
    "DoubleFour",
    "Five",
];
const SHAPE_NAMES: [&str; NS] = [
    "None",
    "Three",
    "ThreeThree",
    "Four",
    "FourThree",
    "Flex4",
    "Five",
];

/// One quiet position: the line patterns of every empty square for the side to move and for
/// the opponent (four nibbles each), and the result for the side to move (1, 0.5, 0; or a
/// labelled probability of winning).
struct Sample {
    me: Vec<u16>,
    opp: Vec<u16>,
    result: f64,
    /// Per square (as `me`): its slot in the joint term, the side to move's bucket times
    /// `JOINT_BUCKETS` plus the other's.
    joint: Vec<u8>,
}

impl Sample {
    fn new(me: Vec<u16>, opp: Vec<u16>, result: f64) -> Sample {
        let joint = me
            .iter()
            .zip(&opp)
            .map(|(&m, &o)| joint_slot(m, o))
            .collect();
        Sample {
            me,
            opp,
            result,
            joint,
        }
    }
}

/// The joint term's slot of a square with line patterns `me` for the side to move and `opp`.
fn joint_slot(me: u16, opp: u16) -> u8 {
    let bucket = |k: u16| joint_bucket(info_score(combine(unpack_patterns(k))));
    (bucket(me) * JOINT_BUCKETS + bucket(opp)) as u8
}

/// Parameters of the joint term.
const NJOINT: usize = JOINT_BUCKETS * JOINT_BUCKETS;
/// The joint term's values stay within this.
const JOINT_MAX: f64 = 500.0;

/// Whether a parameter keeps its hand-set value: the winning shapes are over the cap and never
/// reach the evaluation (positions with them are not quiet), and "nothing" stays zero.
fn fixed(i: usize) -> bool {
    let shape = |s: Shape| NP + s as usize;
    i == Pattern::Dead as usize
        || i == Pattern::Overline as usize
        || i == Pattern::F4 as usize
        || i == Pattern::DoubleFour as usize
        || i == Pattern::Five as usize
        || i == shape(Shape::None)
        || i == shape(Shape::FourThree)
        || i == shape(Shape::Flex4)
        || i == shape(Shape::Five)
}

/// The line-value model's parameters: the line values, shape bonuses and pair values in use, and
/// the tempo share fitted with them.
fn current() -> Vec<f64> {
    let mut th = vec![0.0; NPAR];
    for (i, v) in LINE_VALUE.iter().enumerate() {
        th[i] = *v as f64;
    }
    for s in 0..NS {
        th[NP + s] = shape_bonus(Shape::from_u8(s as u8)) as f64;
    }
    for (i, v) in PAIR_VALUE.iter().enumerate() {
        th[PAIR_AT + i] = *v as f64;
    }
    th[TEMPO_AT] = LINE_TEMPO.0 as f64 / LINE_TEMPO.1 as f64;
    th
}

/// The capped value of one square; adds `w` times its derivative to `grad` below the cap.
fn square(th: &[f64], k: u16, grad: Option<(&mut [f64], f64)>) -> f64 {
    let pats = unpack_patterns(k);
    let shape = info_shape(combine(pats)) as usize;
    let pair = pair_slot(pats).map(|i| PAIR_AT + i);
    let s = th[NP + shape]
        + pats.iter().map(|&p| th[p as usize]).sum::<f64>()
        + pair.map_or(0.0, |i| th[i]);
    if s >= EVAL_CAP as f64 {
        return EVAL_CAP as f64;
    }
    if let Some((g, w)) = grad {
        g[NP + shape] += w;
        for p in pats {
            g[p as usize] += w;
        }
        if let Some(i) = pair {
            g[i] += w;
        }
    }
    s
}

fn evaluate(th: &[f64], s: &Sample) -> f64 {
    let a: f64 = s.me.iter().map(|&k| square(th, k, None)).sum();
    let b: f64 = s.opp.iter().map(|&k| square(th, k, None)).sum();
    a - b + a * th[TEMPO_AT]
}

fn sigmoid(e: f64, scale: f64) -> f64 {
    1.0 / (1.0 + (-e / scale).exp())
}

fn loss(th: &[f64], set: &[&Sample], scale: f64) -> f64 {
    let total: f64 = set
        .iter()
        .map(|s| (s.result - sigmoid(evaluate(th, s), scale)).powi(2))
        .sum();
    total / set.len().max(1) as f64
}

/// The sample of a position if it is quiet: neither side can make a four or better on the
/// move, nor does the opponent threaten an open four or a four-three. With `fours` the side to
/// move may have fours (not a four-three or better): the search's leaves have such positions.
fn sample_of(b: &Board, result: f64, fours: bool) -> Option<Sample> {
    let mine_max = if fours { Shape::FourThree } else { Shape::Four };
    let me = b.side_to_move();
    let (mut sm, mut so) = (Vec::new(), Vec::new());
    for q in b.squares().filter(|&q| b.is_empty(q)) {
        let (pm, po) = (b.patterns(q, me), b.patterns(q, me.opposite()));
        let (shm, sho) = (info_shape(combine(pm)), info_shape(combine(po)));
        if shm >= mine_max || sho >= Shape::FourThree {
            return None;
        }
        sm.push(pack_patterns(pm));
        so.push(pack_patterns(po));
    }
    Some(Sample::new(sm, so, result))
}

/// The quiet positions of one game (freestyle), labelled by its result.
fn samples_of(rec: &GameRecord, out: &mut Vec<Sample>) -> Result<()> {
    let mut b = Board::new(rec.width, rec.height, Rule::Freestyle)?;
    for &(p, _) in &rec.moves {
        b.play(p)?;
    }
    let n = rec.moves.len();
    let winner = match rec.moves.last() {
        Some(&(p, _)) if b.winning_line(p).is_some() => Some(b.history()[n - 1].1),
        _ => None,
    };
    let mut b = Board::new(rec.width, rec.height, Rule::Freestyle)?;
    for (i, &(p, _)) in rec.moves.iter().enumerate() {
        if i >= SKIP_FIRST && i + SKIP_LAST < n {
            let result = match winner {
                None => 0.5,
                Some(c) if c == b.side_to_move() => 1.0,
                Some(_) => 0.0,
            };
            out.extend(sample_of(&b, result, false));
        }
        b.play(p)?;
    }
    Ok(())
}

/// Labelled positions, one per line: board size, move list in pos notation (`h8i9h7`), and the
/// side to move's probability of winning, separated by tabs (`#` starts a comment). Freestyle.
fn load_labels(path: &Path, fours: bool) -> Result<(usize, Vec<Sample>)> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut lines = 0;
    let mut samples = Vec::new();
    for (no, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || {
            format!(
                "{}:{}: expected SIZE<TAB>MOVES<TAB>PROBABILITY",
                path.display(),
                no + 1
            )
        };
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != 3 {
            bail!(bad());
        }
        let size: usize = f[0].parse().with_context(bad)?;
        let prob: f64 = f[2].parse().with_context(bad)?;
        if !(0.0..=1.0).contains(&prob) {
            bail!("{}: probability out of 0..1", bad());
        }
        let moves = parse_move_list(f[1], size, size, Rows::FromTop)
            .map_err(|e| anyhow::anyhow!("{}: {e}", bad()))?;
        let mut b = Board::new(size, size, Rule::Freestyle)?;
        for p in moves {
            b.play(p).map_err(|e| anyhow::anyhow!("{}: {e:?}", bad()))?;
        }
        lines += 1;
        samples.extend(sample_of(&b, prob, fours));
    }
    Ok((lines, samples))
}

fn load(dir: &Path) -> Result<(usize, Vec<Sample>)> {
    let mut games = 0;
    let mut samples = Vec::new();
    for (path, rec) in load_records(dir)? {
        match samples_of(&rec, &mut samples) {
            Ok(()) => games += 1,
            Err(e) => log::warn!("{}: skipped ({e:#})", path.display()),
        }
    }
    Ok((games, samples))
}

/// The game records (`.psq`) of a folder with their paths, sorted by file name; a file that
/// is no record is skipped with a warning.
pub(crate) fn load_records(dir: &Path) -> Result<Vec<(std::path::PathBuf, GameRecord)>> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("psq")))
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(&path)?;
        match GameRecord::parse_psq(&text) {
            Ok(rec) => out.push((path, rec)),
            Err(e) => log::warn!("{}: skipped ({e})", path.display()),
        }
    }
    Ok(out)
}

/// The rows of a generated `u16` table: 16 values a row, rounded, indented for a `const`.
fn table_rows(values: &[f64]) -> String {
    values
        .chunks(16)
        .map(|chunk| {
            let row: Vec<String> = chunk
                .iter()
                .map(|v| format!("{}", v.round() as u16))
                .collect();
            format!("    {},\n", row.join(", "))
        })
        .collect()
}

/// The logistic scales tried for a fit.
const SCALES: [f64; 9] = [25.0, 50.0, 75.0, 100.0, 150.0, 200.0, 300.0, 400.0, 600.0];

/// The value of `grid` with the lowest `loss`, each loss computed once (the first one of
/// equal losses).
fn lowest(grid: &[f64], loss: impl Fn(f64) -> f64) -> f64 {
    let mut best = (grid[0], loss(grid[0]));
    for &x in &grid[1..] {
        let l = loss(x);
        if l < best.1 {
            best = (x, l);
        }
    }
    best.0
}

/// One Adam step for one parameter: updates its moment estimates `m` and `v` with gradient `g`
/// at step `epoch` (from 1) and returns what to subtract from it.
fn adam(m: &mut f64, v: &mut f64, g: f64, epoch: usize, lr: f64) -> f64 {
    *m = 0.9 * *m + 0.1 * g;
    *v = 0.999 * *v + 0.001 * g * g;
    let mh = *m / (1.0 - 0.9f64.powi(epoch as i32));
    let vh = *v / (1.0 - 0.999f64.powi(epoch as i32));
    lr * mh / (vh.sqrt() + 1e-12)
}

/// Runs a fit of `epochs` epochs in rounds of at most 50 (each round a fresh Adam, followed by a
/// report): `round(n, done)` fits `n` more epochs and reports after `done` in all.
fn in_rounds(epochs: usize, mut round: impl FnMut(usize, usize)) {
    let mut done = 0;
    while done < epochs {
        let n = (epochs - done).min(50);
        done += n;
        round(n, done);
    }
}

/// `epochs` steps of Adam on the mean squared error from `start`; fixed parameters keep their
/// values and none goes below zero.
fn fit(start: &[f64], train: &[&Sample], scale: f64, epochs: usize) -> Vec<f64> {
    let mut th = start.to_vec();
    let (mut m, mut v) = (vec![0.0; NPAR], vec![0.0; NPAR]);
    let mut gs = vec![0.0; NPAR];
    for epoch in 1..=epochs {
        let mut g = [0.0; NPAR];
        for s in train {
            let p = sigmoid(evaluate(&th, s), scale);
            let de = -2.0 * (s.result - p) * p * (1.0 - p) / scale;
            gs.iter_mut().for_each(|x| *x = 0.0);
            let own = 1.0 + th[TEMPO_AT];
            let a: f64 =
                s.me.iter()
                    .map(|&k| square(&th, k, Some((&mut gs, own))))
                    .sum();
            for &k in &s.opp {
                square(&th, k, Some((&mut gs, -1.0)));
            }
            gs[TEMPO_AT] = a;
            for (gi, x) in g.iter_mut().zip(&gs) {
                *gi += de * x;
            }
        }
        for i in (0..NPAR).filter(|&i| !fixed(i)) {
            let gi = g[i] / train.len().max(1) as f64;
            let lr = if i == TEMPO_AT { 0.002 } else { 0.5 };
            th[i] = (th[i] - adam(&mut m[i], &mut v[i], gi, epoch, lr)).max(0.0);
        }
    }
    th
}

/// Combinations seen fewer times than this in the fitted positions keep their values.
const TABLE_MIN_SEEN: usize = 50;

/// The combination-table model: one value per multiset of four line patterns (`MULTISETS`),
/// plus the tempo share. `slot` maps a packed key to its multiset; `free` marks the values
/// the fit may move (seen often enough, and not a winning shape).
struct Table {
    slot: Vec<u16>,
    free: Vec<bool>,
    /// The joint values the fit may move: the pairs of buckets seen often enough.
    joint_free: Vec<bool>,
    /// `--ridge`: the fit pays `ridge` times the squared distance, in hundreds, of each table
    /// value from `anchor` (where the fit started), so that a value moves only as far as the
    /// positions insist.
    ridge: f64,
    anchor: Vec<f64>,
}

/// Every packed key whose four nibbles are line patterns (12..15 are none), with its patterns.
fn line_keys() -> impl Iterator<Item = (u16, [Pattern; 4])> {
    (0..=u16::MAX).filter_map(|k| {
        let p = unpack_patterns(k);
        // `unpack_patterns` reads a nibble that is no pattern as Dead: such a key does not
        // round-trip.
        (pack_patterns(p) == k).then_some((k, p))
    })
}

impl Table {
    fn new(train: &[&Sample]) -> Table {
        let mut t = Table::slots_only();
        let mut seen = vec![0usize; MULTISETS];
        let mut joint_seen = vec![0usize; NJOINT];
        for s in train {
            for &k in s.me.iter().chain(&s.opp) {
                seen[t.slot[k as usize] as usize] += 1;
            }
            for &x in &s.joint {
                joint_seen[x as usize] += 1;
            }
        }
        t.set_free(&seen);
        // Squares worth nothing to either side stay worth nothing.
        t.joint_free = (0..NJOINT)
            .map(|x| x != 0 && joint_seen[x] >= TABLE_MIN_SEEN)
            .collect();
        t
    }

    /// The table in use at the scale that suits `train`: the mark a fit must beat. Prints its
    /// losses and returns its values and that scale.
    fn report_in_use(&self, train: &[&Sample], test: &[&Sample]) -> (Vec<f64>, f64) {
        let now = self.engine_values();
        let scale = lowest(&SCALES, |x| self.loss(&now, train, x));
        println!(
            "table in use, scale {scale}: loss {:.5} fitted, {:.5} held out",
            self.loss(&now, train, scale),
            self.loss(&now, test, scale)
        );
        (now, scale)
    }

    /// The slot map with no value free yet.
    fn slots_only() -> Table {
        let mut slot = vec![0u16; 1 << 16];
        for (k, p) in line_keys() {
            slot[k as usize] = multiset_rank(p) as u16;
        }
        Table {
            slot,
            free: vec![false; MULTISETS],
            joint_free: vec![false; NJOINT],
            ridge: 0.0,
            anchor: Vec::new(),
        }
    }

    /// Frees the values seen often enough (`seen` per slot) that are below the winning shapes.
    fn set_free(&mut self, seen: &[usize]) {
        for (k, p) in line_keys() {
            let r = self.slot[k as usize] as usize;
            // A square with no five to make in any line stays worth nothing.
            self.free[r] = seen[r] >= TABLE_MIN_SEEN
                && info_shape(combine(p)) < Shape::FourThree
                && p != [Pattern::Dead; 4];
        }
    }

    /// The engine's values now (`fitted.rs`, the winning shapes at the cap), its tempo and
    /// its joint term.
    fn engine_values(&self) -> Vec<f64> {
        let mut th = vec![0.0; MULTISETS + 1 + NJOINT];
        for (k, p) in line_keys() {
            th[self.slot[k as usize] as usize] = info_eval(combine(p)) as f64;
        }
        th[MULTISETS] = TEMPO.0 as f64 / TEMPO.1 as f64;
        for (i, v) in JOINT.iter().flatten().enumerate() {
            th[MULTISETS + 1 + i] = *v as f64 / JOINT_UNIT as f64;
        }
        th
    }

    /// Where the fit starts: the additive model's values (capped), that is the line-value
    /// model in use, so that the same labels always give the same table; the tempo share last.
    fn prior(&self) -> Vec<f64> {
        self.prior_from_lines(&current())
    }

    /// Where the fit starts with `--line-prior`: every value from a fitted line-value model
    /// (`lines`, the parameters of `current`), its tempo share last. The values the table fit
    /// leaves alone (the rare combinations) then share the fitted values' scale instead of
    /// keeping the additive model's, which prices a lone three five times as high.
    fn prior_from_lines(&self, lines: &[f64]) -> Vec<f64> {
        let mut th = vec![0.0; MULTISETS + 1];
        for (k, _) in line_keys() {
            th[self.slot[k as usize] as usize] = square(lines, k, None);
        }
        th[MULTISETS] = lines[TEMPO_AT];
        th
    }

    /// The split model's start: the side to move's table is the prior scaled up by the tempo
    /// share (capped), the waiting side's the prior itself, so that it starts where the
    /// one-table model does (but for the cap); the tempo slot stays zero.
    fn prior_split(&self) -> Vec<f64> {
        let one = self.prior();
        let own = 1.0 + one[MULTISETS];
        let mut th = vec![0.0; 2 * MULTISETS + 1];
        for r in 0..MULTISETS {
            th[r] = (one[r] * own).min(EVAL_CAP as f64);
            th[MULTISETS + 1 + r] = one[r];
        }
        th
    }

    fn square(&self, th: &[f64], k: u16) -> f64 {
        th[self.slot[k as usize] as usize].min(EVAL_CAP as f64)
    }

    fn evaluate(&self, th: &[f64], s: &Sample) -> f64 {
        let a: f64 = s.me.iter().map(|&k| self.square(th, k)).sum();
        let joint = joint_at(th).map_or(0.0, |j| {
            s.joint.iter().map(|&x| th[j + x as usize]).sum::<f64>()
        });
        joint
            + match waiting_at(th) {
                // The split model: the waiting side's squares read their own table.
                Some(w) => {
                    let b: f64 = s.opp.iter().map(|&k| self.square(&th[w..], k)).sum();
                    a - b
                }
                None => {
                    let b: f64 = s.opp.iter().map(|&k| self.square(th, k)).sum();
                    a - b + a * th[MULTISETS]
                }
            }
    }

    fn loss(&self, th: &[f64], set: &[&Sample], scale: f64) -> f64 {
        let total: f64 = set
            .iter()
            .map(|s| (s.result - sigmoid(self.evaluate(th, s), scale)).powi(2))
            .sum();
        total / set.len().max(1) as f64
    }

    /// `epochs` steps of Adam on the mean squared error; free values stay within 0..=cap.
    fn fit(&self, start: &[f64], train: &[&Sample], scale: f64, epochs: usize) -> Vec<f64> {
        let n = start.len();
        let split = waiting_at(start);
        let joint = joint_at(start);
        let mut th = start.to_vec();
        let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
        for epoch in 1..=epochs {
            let mut g = vec![0.0; n];
            for s in train {
                let p = sigmoid(self.evaluate(&th, s), scale);
                let de = -2.0 * (s.result - p) * p * (1.0 - p) / scale;
                let own = if split.is_some() {
                    1.0
                } else {
                    1.0 + th[MULTISETS]
                };
                let mut a = 0.0;
                for &k in &s.me {
                    let r = self.slot[k as usize] as usize;
                    a += th[r].min(EVAL_CAP as f64);
                    if th[r] < EVAL_CAP as f64 {
                        g[r] += de * own;
                    }
                }
                let w = split.unwrap_or(0);
                for &k in &s.opp {
                    let r = w + self.slot[k as usize] as usize;
                    if th[r] < EVAL_CAP as f64 {
                        g[r] -= de;
                    }
                }
                if split.is_none() {
                    g[MULTISETS] += de * a;
                }
                if let Some(j) = joint {
                    for &x in &s.joint {
                        g[j + x as usize] += de;
                    }
                }
            }
            // Each table's free values move (the split model has no tempo share to fit).
            let in_joint = |i: usize| joint.is_some_and(|j| i >= j);
            let moves = |i: usize| match (split, joint) {
                (Some(w), _) if i >= w => self.free[i - w],
                (Some(_), _) => i < MULTISETS && self.free[i],
                (None, Some(j)) if i >= j => self.joint_free[i - j],
                (None, _) => i == MULTISETS || self.free[i],
            };
            for i in (0..n).filter(|&i| moves(i)) {
                let mut gi = g[i] / train.len().max(1) as f64;
                if self.ridge > 0.0 && i < MULTISETS {
                    gi += self.ridge * 2.0 * (th[i] - self.anchor[i]) / 1e4;
                }
                let lr = if i == MULTISETS { 0.002 } else { 0.5 };
                let step = adam(&mut m[i], &mut v[i], gi, epoch, lr);
                th[i] = if in_joint(i) {
                    (th[i] - step).clamp(-JOINT_MAX, JOINT_MAX)
                } else {
                    (th[i] - step).clamp(0.0, EVAL_CAP as f64)
                };
            }
        }
        th
    }

    /// The Rust source of `src/eval/fitted.rs` for fitted values.
    fn source(&self, th: &[f64], command: &str) -> String {
        let mut out = String::new();
        out.push_str("//! The evaluation's value of each multiset of four line patterns (slot: `multiset_rank`)\n");
        out.push_str("//! below the winning shapes, written by `tune --table` (0 epochs writes the additive\n");
        out.push_str(&format!(
            "//! model's values), not by hand: `{command}`.\n\n"
        ));
        // Kept as written (16 a row), so that a regenerated file needs no formatting.
        out.push_str("#[rustfmt::skip]\n");
        out.push_str(&format!("pub(super) const VALUE: [u16; {MULTISETS}] = [\n"));
        out.push_str(&table_rows(&th[..MULTISETS]));
        out.push_str("];\n\n");
        out.push_str(&format!(
            "/// The side to move's extra share of its own square total, in {TEMPO_DENOMINATOR}ths.\n"
        ));
        out.push_str(&format!(
            "pub(super) const TEMPO: (i32, i32) = ({}, {TEMPO_DENOMINATOR});\n",
            (th[MULTISETS] * TEMPO_DENOMINATOR as f64).round() as i32
        ));
        out.push_str(
            "\n/// The joint term (`JOINT_BOUNDS`), in `JOINT_UNIT`ths: rows the side to move's bucket,\n/// columns the other's.\n",
        );
        out.push_str("#[rustfmt::skip]\n");
        out.push_str(&format!(
            "pub(super) const JOINT: [[i16; {JOINT_BUCKETS}]; {JOINT_BUCKETS}] = [\n"
        ));
        for row in joint_values(th).chunks(JOINT_BUCKETS) {
            let row: Vec<String> = row
                .iter()
                .map(|v| format!("{}", (v * JOINT_UNIT as f64).round() as i16))
                .collect();
            out.push_str(&format!("    [{}],\n", row.join(", ")));
        }
        out.push_str("];\n");
        out
    }
}

/// Where the waiting side's table starts in the parameters of the split model (one table for
/// the side to move, one for the other, no tempo share), `None` in the engine's model (one
/// table, the side to move's total scaled up by the tempo share). `tune --choices` shares it.
fn waiting_at(th: &[f64]) -> Option<usize> {
    (th.len() == 2 * MULTISETS + 1).then_some(MULTISETS + 1)
}

/// Where the joint term's values start in the parameters of the one-table model with it (the
/// table, the tempo share, then `NJOINT` values), `None` without it.
fn joint_at(th: &[f64]) -> Option<usize> {
    (th.len() == MULTISETS + 1 + NJOINT).then_some(MULTISETS + 1)
}

/// The joint term's values of a model (zeros for a model without it).
fn joint_values(th: &[f64]) -> Vec<f64> {
    joint_at(th).map_or(vec![0.0; NJOINT], |j| th[j..].to_vec())
}

/// `tune ... --table`: fits the combination table, reports the losses, and writes the table's
/// source to `write` when given.
fn tune_table(
    train: &[&Sample],
    test: &[&Sample],
    (epochs, split, joint, from_table): (usize, bool, bool, bool),
    ridge: f64,
    lines: Option<&[f64]>,
    write: Option<&str>,
    command: &str,
) -> Result<()> {
    let mut t = Table::new(train);
    let mut th = match lines {
        Some(lines) => t.prior_from_lines(lines),
        None if split => t.prior_split(),
        // The table in use, with its tempo share and joint term: the values the positions
        // seldom reach keep the engine's.
        None if from_table => t.engine_values(),
        None => t.prior(),
    };
    if !split {
        // The joint term's values, when asked for, follow the table and the tempo share: the
        // engine's start from its own (they are there already), the others from zero.
        th.resize(MULTISETS + 1 + if joint { NJOINT } else { 0 }, 0.0);
    }
    let scale = lowest(&SCALES, |x| t.loss(&th, train, x));
    t.ridge = ridge;
    t.anchor = th.clone();
    if joint {
        println!(
            "joint term: {} of {NJOINT} values free",
            t.joint_free.iter().filter(|&&f| f).count()
        );
    }
    println!(
        "table: {} of {MULTISETS} values free; {} prior, scale {scale}: loss {:.5} fitted, {:.5} held out",
        t.free.iter().filter(|&&f| f).count(),
        if lines.is_some() {
            "fitted line-value"
        } else if from_table {
            "table in use"
        } else {
            "additive"
        },
        t.loss(&th, train, scale),
        t.loss(&th, test, scale)
    );
    t.report_in_use(train, test);
    in_rounds(epochs, |n, done| {
        th = t.fit(&th, train, scale, n);
        println!(
            "epoch {done}: loss {:.5} fitted, {:.5} held out",
            t.loss(&th, train, scale),
            t.loss(&th, test, scale)
        );
    });
    if !split {
        println!("tempo share {:.4}", th[MULTISETS]);
    }
    if joint {
        println!("joint term (rows: the side to move's bucket, columns: the other's):");
        for row in joint_values(&th).chunks(JOINT_BUCKETS) {
            let row: Vec<String> = row.iter().map(|v| format!("{v:6.1}")).collect();
            println!("  {}", row.join(" "));
        }
    }
    if let Some(path) = write {
        std::fs::write(path, t.source(&th, command)).with_context(|| format!("writing {path}"))?;
        println!("wrote {path}");
    }
    Ok(())
}

/// `tune ... --net`: the table in use and a linear model of the net's features as the marks,
/// then the net, with the losses of each on the held-out positions.
fn tune_net(
    train: &[&Sample],
    test: &[&Sample],
    (epochs, decay): (usize, f32),
    shape: net::NetShape,
) -> Result<()> {
    let t = Table::new(train);
    let (now, scale) = t.report_in_use(train, test);
    // Both models add to the evaluation in use, read at the scale that suits it.
    let base = |s: &Sample| (t.evaluate(&now, s) / scale) as f32;
    let (ntrain, ntest) = (
        net::net_samples(train, base, &t.slot),
        net::net_samples(test, base, &t.slot),
    );
    let linear = net::NetShape {
        width: 1,
        hidden: 0,
    };
    for (name, shape, lr) in [("linear", linear, 0.001), ("net", shape, 0.002)] {
        let mut model = net::Net::new(shape, 1);
        let mut done = 0;
        while done < epochs {
            let n = (epochs - done).min(5);
            done += n;
            // The step shrinks as the fit settles: a fifth less every five epochs.
            model.fit(&ntrain, n, lr * 0.8f32.powi((done / 5) as i32 - 1), decay);
            println!(
                "{name} {shape:?} epoch {done}: loss {:.5} fitted, {:.5} held out",
                model.loss(&ntrain),
                model.loss(&ntest)
            );
        }
    }
    Ok(())
}

/// What `options` read: the epochs, the `--write` path, the switches given and the values of
/// the valued options given, by name.
type Options<'a> = (
    usize,
    Option<&'a str>,
    Vec<&'a str>,
    Vec<(&'a str, &'a str)>,
);

/// The arguments after a tune's source: `[EPOCHS] [--write PATH]`, any of `switches`, and any
/// of `valued` followed by its value. The epochs are 200 by default.
fn options<'a>(rest: &'a [String], switches: &[&str], valued: &[&str]) -> Result<Options<'a>> {
    let (mut epochs, mut write, mut given, mut values) = (200, None, Vec::new(), Vec::new());
    let mut it = rest.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--write" => write = Some(it.next().context("--write needs a path")?.as_str()),
            s if switches.contains(&s) => given.push(s),
            s if valued.contains(&s) => {
                let v = it.next().with_context(|| format!("{s} needs a value"))?;
                values.push((s, v.as_str()));
            }
            s => epochs = s.parse().context("EPOCHS must be a number")?,
        }
    }
    Ok((epochs, write, given, values))
}

/// The value `options` read for the valued option `name`, parsed (the last one given).
fn value_of<T: std::str::FromStr>(values: &[(&str, &str)], name: &str) -> Result<Option<T>> {
    match values.iter().rev().find(|(n, _)| *n == name) {
        Some((_, v)) => Ok(Some(
            v.parse()
                .ok()
                .with_context(|| format!("{name}: bad value {v}"))?,
        )),
        None => Ok(None),
    }
}

/// Whether the `i`th position is in the held-out fifth: every fifth position, or every fifth
/// block of `block` positions in the file's order. Neighbouring positions come from one game,
/// and a fit that saw a position's neighbours judges it too kindly (`--holdout-block`).
fn held_out(i: usize, block: usize) -> bool {
    (i / block.max(1)).is_multiple_of(5)
}

/// Fits the line-value model from the values in use, reporting the losses as it goes.
fn fit_lines(train: &[&Sample], test: &[&Sample], epochs: usize) -> Vec<f64> {
    let mut th = current();
    // The logistic scale that suits the current weights; the fit keeps it, so the new values
    // stay in the engine's units.
    let scale = lowest(&SCALES, |x| loss(&th, train, x));
    println!(
        "scale {scale}: loss {:.5} fitted, {:.5} held out",
        loss(&th, train, scale),
        loss(&th, test, scale)
    );
    in_rounds(epochs, |n, done| {
        th = fit(&th, train, scale, n);
        println!(
            "epoch {done}: loss {:.5} fitted, {:.5} held out",
            loss(&th, train, scale),
            loss(&th, test, scale)
        );
    });
    th
}

/// Entry point of `pbrain-gorin tune DIR [EPOCHS]`.
pub fn main(args: &[String]) -> Result<()> {
    const USAGE: &str = "usage: pbrain-gorin tune DIR [EPOCHS]   (DIR: freestyle games as .psq files)\n       pbrain-gorin tune --labels FILE [EPOCHS]   (FILE: SIZE<TAB>MOVES<TAB>PROBABILITY lines)\n       pbrain-gorin tune --choices DIR [EPOCHS] [--keep-tempo] [--split] [--write PATH]   (fit the table to the moves of the games in DIR)\n       pbrain-gorin tune --order DIR [EPOCHS] [--write PATH]   (fit the move-ordering values to the moves of the games in DIR)\n       options after the first two: --table (fit one value per combination of four lines) --line-prior (with --table: start it from a line-value fit to the same positions, which the rare combinations keep) --split (with --table, not --write: also fit one table for the side to move and one for the other) --fours (with --labels: also the positions where the side to move can make a four) --joint (with --table, not --split: also fit the joint term, a value per pair of a square's score buckets for the side to move and the other) --from-table (with --table: start from the table, tempo share and joint term in use instead of the additive model) --ridge R (with --table: each table value pays R times its squared move from the start, in hundreds) --holdout-block N (hold out every fifth block of N positions in file order, not every fifth position: a game's positions together) --write PATH (with --table: write the fitted table's source) --net (a learned evaluation for comparison: per-square vectors summed, a small ReLU head on top, added to the table in use, with a linear model of the same features beside it) --width N, --hidden N (with --net: accumulator width, 4; hidden units, 8, where 0 makes it linear) --decay X (with --net: weight decay, 1e-4)";
    let (source, rest) = match args {
        [flag, dir, rest @ ..] if flag == "--choices" => {
            let (epochs, write, given, _) = options(rest, &["--split", "--keep-tempo"], &[])?;
            let opts = choice::ChoiceOptions {
                epochs,
                split: given.contains(&"--split"),
                keep_tempo: given.contains(&"--keep-tempo"),
                write,
            };
            let command = format!("pbrain-gorin tune {}", args.join(" "));
            return choice::tune_choices(Path::new(dir), &opts, &command);
        }
        [flag, dir, rest @ ..] if flag == "--order" => {
            let (epochs, write, _, _) = options(rest, &[], &[])?;
            let command = format!("pbrain-gorin tune {}", args.join(" "));
            return order::tune_order(Path::new(dir), epochs, write, &command);
        }
        [flag, file, rest @ ..] if flag == "--labels" => ((true, file), rest),
        [dir, rest @ ..] if !dir.starts_with('-') => ((false, dir), rest),
        _ => bail!(USAGE),
    };
    let (epochs, write, given, values) = options(
        rest,
        &[
            "--table",
            "--split",
            "--line-prior",
            "--fours",
            "--joint",
            "--from-table",
            "--net",
        ],
        &[
            "--ridge",
            "--holdout-block",
            "--width",
            "--hidden",
            "--decay",
        ],
    )?;
    let ridge = value_of::<f64>(&values, "--ridge")?;
    let block = value_of::<usize>(&values, "--holdout-block")?
        .unwrap_or(1)
        .max(1);
    let table = given.contains(&"--table");
    let fours = given.contains(&"--fours");
    if fours && !source.0 {
        bail!("--fours reads labelled positions (--labels FILE)");
    }
    let split = given.contains(&"--split");
    let line_prior = given.contains(&"--line-prior");
    let joint = given.contains(&"--joint");
    let from_table = given.contains(&"--from-table");
    if from_table && (!table || split || line_prior) {
        bail!("--from-table needs --table, without --split or --line-prior");
    }
    let net = given.contains(&"--net");
    if net && (table || write.is_some()) {
        bail!("--net fits for comparison only, without --table or --write");
    }
    if ridge.is_some() && !table {
        bail!("--ridge needs --table");
    }
    if block > 1 && !table && !net {
        bail!("--holdout-block needs --table or --net");
    }
    if joint && (!table || split) {
        bail!("--joint needs --table, without --split");
    }
    if split && !table {
        bail!("--split needs --table");
    }
    if line_prior && (!table || split) {
        bail!("--line-prior needs --table, without --split");
    }
    if split && write.is_some() {
        bail!("--split fits for comparison only: the engine reads one table and a tempo share");
    }
    let (games, samples) = match source {
        (true, file) => load_labels(Path::new(file), fours)?,
        (false, dir) => load(Path::new(dir))?,
    };
    let what = if source.0 {
        "labelled positions"
    } else {
        "games"
    };
    let kind = if fours { "quiet or four" } else { "quiet" };
    if samples.is_empty() {
        bail!("no {kind} positions in {}", source.1);
    }
    let train: Vec<&Sample> = samples
        .iter()
        .enumerate()
        .filter(|&(i, _)| !held_out(i, block))
        .map(|(_, s)| s)
        .collect();
    let test: Vec<&Sample> = samples
        .iter()
        .enumerate()
        .filter(|&(i, _)| held_out(i, block))
        .map(|(_, s)| s)
        .collect();
    println!(
        "{games} {what}, {} {kind} positions ({} to fit, {} held out)",
        samples.len(),
        train.len(),
        test.len()
    );
    if net {
        let width = value_of::<usize>(&values, "--width")?.unwrap_or(4);
        let hidden = value_of::<usize>(&values, "--hidden")?.unwrap_or(8);
        let decay = value_of::<f32>(&values, "--decay")?.unwrap_or(1e-4);
        if width == 0 {
            bail!("--width must be at least 1");
        }
        let shape = net::NetShape { width, hidden };
        return tune_net(&train, &test, (epochs, decay), shape);
    }
    if table {
        let lines = line_prior.then(|| fit_lines(&train, &test, epochs));
        return tune_table(
            &train,
            &test,
            (epochs, split, joint, from_table),
            ridge.unwrap_or(0.0),
            lines.as_deref(),
            write,
            &format!("pbrain-gorin tune {}", args.join(" ")),
        );
    }
    let th = fit_lines(&train, &test, epochs);
    let now = current();
    println!("{:<18} {:>8} {:>8}", "parameter", "now", "fitted");
    for i in 0..NPAR {
        let name = if i < NP {
            PATTERN_NAMES[i].to_string()
        } else if i < PAIR_AT {
            format!("bonus {}", SHAPE_NAMES[i - NP])
        } else if i < TEMPO_AT {
            let (a, b) = PAIRS[i - PAIR_AT];
            format!("pair {a:?}+{b:?}")
        } else {
            "tempo share".to_string()
        };
        println!(
            "{name:<18} {:>8.2} {:>8.2}{}",
            now[i],
            th[i],
            if fixed(i) { "  (fixed)" } else { "" }
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::{parse_move_list, Rows};
    use crate::board::Pos;
    use crate::eval::additive_score;

    /// A game record from a pos-notation move list.
    fn record(moves: &str) -> GameRecord {
        let m = parse_move_list(moves, 15, 15, Rows::FromTop).unwrap();
        GameRecord {
            width: 15,
            height: 15,
            moves: m.into_iter().map(|p: Pos| (p, 0)).collect(),
            trailer: vec![],
        }
    }

    #[test]
    fn samples_are_quiet_and_labelled_by_the_winner() {
        // Black builds a five on row 8 while white plays far away; black wins.
        let rec = record("h8a1i8a3h9a5i9a7j8a9j9a11g8a13g9b2k8");
        let mut out = Vec::new();
        samples_of(&rec, &mut out).unwrap();
        assert!(!out.is_empty());
        let board_len = 15 * 15;
        for s in &out {
            assert!(s.me.len() < board_len && s.me.len() == s.opp.len());
            // No sample lets the side to move make a four.
            for &k in &s.me {
                assert!(info_shape(combine(unpack_patterns(k))) < Shape::Four);
            }
        }
        // Black moves at even plies: the first sample (ply 5) has white to move, who lost.
        assert_eq!(out[0].result, 0.0);
        assert!(out.iter().any(|s| s.result == 1.0));
    }

    #[test]
    fn labelled_positions_load_and_bad_lines_are_refused() {
        let dir = std::env::temp_dir().join(format!("gorin-tune-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.tsv");
        // A quiet position (two stones each, far apart) and a comment.
        std::fs::write(&good, "# size moves p\n15\th8a1i9a15\t0.75\n").unwrap();
        let (n, samples) = load_labels(&good, false).unwrap();
        assert_eq!(n, 1);
        assert_eq!(samples.len(), 1);
        assert_eq!(samples[0].result, 0.75);
        assert_eq!(samples[0].me.len(), 15 * 15 - 4);
        for bad in [
            "15\th8h8\t0.5\n",
            "15\th8\t1.5\n",
            "15\th8\n",
            "x\th8\t0.5\n",
        ] {
            let path = dir.join("bad.tsv");
            std::fs::write(&path, bad).unwrap();
            assert!(load_labels(&path, false).is_err(), "{bad:?} accepted");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn fours_admit_the_side_to_moves_fours_but_not_its_winning_shapes() {
        let board = |moves: &str| {
            let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
            for p in parse_move_list(moves, 15, 15, Rows::FromTop).unwrap() {
                b.play(p).unwrap();
            }
            b
        };
        // Black to move with a three that white closed at g8: k8 and l8 make fours.
        let closed = board("h8g8i8a1j8a3");
        assert!(sample_of(&closed, 0.5, false).is_none());
        let s = sample_of(&closed, 0.5, true).expect("a four to make is admitted");
        let most =
            s.me.iter()
                .map(|&k| info_shape(combine(unpack_patterns(k))))
                .max();
        assert_eq!(most, Some(Shape::Four));
        // An open three makes an open four: a win, not a position to fit, either way.
        let open = board("h8a1i8a3j8a5");
        assert!(sample_of(&open, 0.5, false).is_none());
        assert!(sample_of(&open, 0.5, true).is_none());
        // Quiet positions are admitted by both.
        let quiet = board("h8a1i9a15");
        assert!(sample_of(&quiet, 0.5, false).is_some());
        assert!(sample_of(&quiet, 0.5, true).is_some());
    }

    #[test]
    fn lowest_takes_the_least_loss_and_the_first_of_equals() {
        assert_eq!(lowest(&[1.0, 2.0, 3.0], |x| (x - 2.2f64).abs()), 2.0);
        assert_eq!(lowest(&[1.0, 2.0, 3.0], |x| (x - 2.5f64).abs()), 2.0);
        assert_eq!(lowest(&[4.0], |_| 7.0), 4.0);
    }

    #[test]
    fn pairs_are_the_two_strongest_lines() {
        use Pattern::*;
        assert_eq!(pair_slot([Dead, F2, B1, F2]), Some(2));
        assert_eq!(pair_slot([F2, F3, F1, B2]), Some(7));
        // The strongest two decide: F3 with F2 below them is F3+B3 here.
        assert_eq!(pair_slot([F2, B3, F3, Dead]), Some(8));
        assert_eq!(pair_slot([F3, F3, Dead, Dead]), None);
        assert_eq!(pair_slot([F2, Dead, Dead, B1]), None);
        for (i, &(a, b)) in PAIRS.iter().enumerate() {
            assert!(a >= b);
            assert_eq!(pair_slot([b, Dead, a, Dead]), Some(i));
        }
    }

    /// Two positions with `n` squares of `key` for one side and dead squares for the other:
    /// the side to move wins where it has them and loses where the opponent has them.
    fn who_has_it_wins(key: u16, n: usize) -> (Sample, Sample) {
        let dead = pack_patterns([Pattern::Dead; 4]);
        let good = Sample::new(vec![key; n], vec![dead; n], 1.0);
        let bad = Sample::new(vec![dead; n], vec![key; n], 0.0);
        (good, bad)
    }

    #[test]
    fn joint_fit_moves_the_pairs_it_saw_and_only_those() {
        // Squares both sides want, in positions the side to move wins: the square totals are
        // equal, so only the tempo share and the joint value of that pair can explain it.
        let f2f2 = pack_patterns([Pattern::F2, Pattern::F2, Pattern::Dead, Pattern::Dead]);
        let dead = pack_patterns([Pattern::Dead; 4]);
        let won = Sample::new(vec![f2f2; 30], vec![f2f2; 30], 1.0);
        let quiet = Sample::new(vec![dead; 30], vec![dead; 30], 0.5);
        let set = [&won, &won, &quiet];
        let t = Table::new(&set);
        let contested = joint_slot(f2f2, f2f2) as usize;
        assert!(contested != 0 && t.joint_free[contested]);
        // Seen 60 times each: the contested pair and the all-dead one, which stays fixed.
        assert_eq!(t.joint_free.iter().filter(|&&f| f).count(), 1);
        let mut start = t.prior();
        start.resize(MULTISETS + 1 + NJOINT, 0.0);
        let fitted = t.fit(&start, &set, 100.0, 100);
        assert!(t.loss(&fitted, &set, 100.0) < t.loss(&start, &set, 100.0));
        let j = joint_at(&fitted).expect("a joint model");
        assert!(fitted[j + contested] > 0.0);
        for x in (0..NJOINT).filter(|&x| x != contested) {
            assert_eq!(fitted[j + x], 0.0, "slot {x}");
        }
        // The engine's values read back in the same layout.
        assert_eq!(joint_at(&t.engine_values()), Some(MULTISETS + 1));
    }

    #[test]
    fn the_model_reads_the_engines_evaluation() {
        // The tuner's model with the engine's values gives the engine's evaluation, but for
        // the engine's integer rounding (tempo share and joint term).
        let t = Table::slots_only();
        let th = t.engine_values();
        let game = "a9d14e12e9c10d11d12f12e10f10g11f11f9f7e7c11f8g8d6g9e5g6g7h8";
        let moves = parse_move_list(game, 15, 15, Rows::FromTop).unwrap();
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        let mut seen = 0;
        for &p in &moves {
            b.play(p).unwrap();
            let Some(s) = sample_of(&b, 0.5, true) else {
                continue;
            };
            seen += 1;
            let engine = crate::eval::Position::new(&b).evaluate() as f64;
            let model = t.evaluate(&th, &s);
            assert!((engine - model).abs() < 3.0, "{engine} {model} after {p:?}");
        }
        assert!(seen >= 8, "{seen} positions");
    }

    #[test]
    fn table_fit_lowers_the_loss_and_moves_only_free_values() {
        // Squares with two open twos for the side to move win; the fit must raise their
        // value and leave values it never saw alone.
        let f2f2 = pack_patterns([Pattern::F2, Pattern::F2, Pattern::Dead, Pattern::Dead]);
        let (good, bad) = who_has_it_wins(f2f2, 30);
        let set = [&good, &bad];
        let t = Table::new(&set);
        let th = t.prior();
        let fitted = t.fit(&th, &set, 100.0, 50);
        assert!(t.loss(&fitted, &set, 100.0) < t.loss(&th, &set, 100.0));
        let r = t.slot[f2f2 as usize] as usize;
        assert!(t.free[r] && fitted[r] > th[r]);
        for i in (0..MULTISETS).filter(|&i| !t.free[i]) {
            assert_eq!(fitted[i], th[i]);
        }
        let src = t.source(&fitted, "test");
        assert!(src.contains(&format!("[u16; {MULTISETS}]")));
        // The fitted tempo share is written too, in the engine's 64ths.
        let tempo = (fitted[MULTISETS] * 64.0).round() as i32;
        assert!(src.contains(&format!("const TEMPO: (i32, i32) = ({tempo}, 64);")));
    }

    #[test]
    fn ridge_holds_values_near_where_the_fit_started() {
        let f2f2 = pack_patterns([Pattern::F2, Pattern::F2, Pattern::Dead, Pattern::Dead]);
        let (good, bad) = who_has_it_wins(f2f2, 30);
        let set = [&good, &bad];
        let mut t = Table::new(&set);
        let th = t.prior();
        let r = t.slot[f2f2 as usize] as usize;
        let free = t.fit(&th, &set, 100.0, 50)[r] - th[r];
        t.ridge = 100.0;
        t.anchor = th.clone();
        let held = t.fit(&th, &set, 100.0, 50)[r] - th[r];
        assert!(free > 0.0 && held.abs() < free / 4.0, "{free} {held}");
    }

    #[test]
    fn held_out_blocks_keep_neighbours_together() {
        let every = (0..1000).filter(|&i| held_out(i, 1)).count();
        let blocks = (0..1000).filter(|&i| held_out(i, 100)).count();
        assert_eq!((every, blocks), (200, 200));
        assert!(held_out(0, 100) && held_out(99, 100) && !held_out(100, 100));
        assert!(held_out(500, 100) && held_out(5, 100) && !held_out(6, 1));
    }

    #[test]
    fn options_read_valued_options_beside_switches_and_epochs() {
        let args: Vec<String> = ["400", "--ridge", "0.5", "--table"]
            .map(String::from)
            .to_vec();
        let (epochs, write, given, values) = options(&args, &["--table"], &["--ridge"]).unwrap();
        assert_eq!((epochs, write, given), (400, None, vec!["--table"]));
        assert_eq!(value_of::<f64>(&values, "--ridge").unwrap(), Some(0.5));
        assert_eq!(value_of::<f64>(&values, "--other").unwrap(), None);
        assert!(value_of::<usize>(&values, "--ridge").is_err());
        let bare: Vec<String> = vec!["--ridge".into()];
        assert!(options(&bare, &[], &["--ridge"]).is_err());
    }

    #[test]
    fn line_prior_takes_every_value_from_the_line_model() {
        let t = Table::slots_only();
        // The line model in use is the engine's additive model, capped, with its tempo share.
        let prior = t.prior();
        for (k, p) in line_keys() {
            let v = additive_score(p, info_shape(combine(p))).min(EVAL_CAP as u32);
            assert_eq!(prior[t.slot[k as usize] as usize], v as f64, "{p:?}");
        }
        assert_eq!(prior[MULTISETS], LINE_TEMPO.0 as f64 / LINE_TEMPO.1 as f64);
        // A fitted line model moves the values the table fit would leave alone as well.
        let mut lines = current();
        lines[Pattern::F2 as usize] += 10.0;
        lines[TEMPO_AT] = 0.25;
        let th = t.prior_from_lines(&lines);
        let f2 = pack_patterns([Pattern::F2, Pattern::Dead, Pattern::Dead, Pattern::Dead]);
        let r = t.slot[f2 as usize] as usize;
        assert_eq!(th[r], prior[r] + 10.0);
        assert_eq!(th[MULTISETS], 0.25);
    }

    #[test]
    fn split_fit_moves_each_sides_table_on_its_own_evidence() {
        // The side to move wins with two open twos of its own and loses when the waiting side
        // has them, but only the first kind of position is in the set: the side to move's
        // value must rise, the waiting side's stay where the prior put it.
        let f2f2 = pack_patterns([Pattern::F2, Pattern::F2, Pattern::Dead, Pattern::Dead]);
        let (good, _) = who_has_it_wins(f2f2, 60);
        let set = [&good];
        let t = Table::new(&set);
        let th = t.prior_split();
        assert_eq!(waiting_at(&th), Some(MULTISETS + 1));
        let r = t.slot[f2f2 as usize] as usize;
        // It starts as the one-table model does: the mover's value is the waiting one's
        // scaled up by the tempo share.
        let one = t.prior();
        assert_eq!(th[MULTISETS + 1 + r], one[r]);
        assert!(th[r] > one[r]);
        let fitted = t.fit(&th, &set, 100.0, 50);
        assert!(t.loss(&fitted, &set, 100.0) < t.loss(&th, &set, 100.0));
        assert!(fitted[r] > th[r]);
        assert_eq!(fitted[MULTISETS + 1 + r], th[MULTISETS + 1 + r]);
        assert_eq!(fitted[MULTISETS], 0.0);
    }

    #[test]
    fn fitting_lowers_the_loss_and_keeps_fixed_values() {
        // The side to move with the open twos wins: the fit must raise their value, lower the
        // loss and leave the fixed parameters alone.
        let f2 = pack_patterns([Pattern::F2, Pattern::Dead, Pattern::Dead, Pattern::Dead]);
        let (good, bad) = who_has_it_wins(f2, 6);
        let set = [&good, &bad];
        let th = current();
        let fitted = fit(&th, &set, 100.0, 50);
        assert!(loss(&fitted, &set, 100.0) < loss(&th, &set, 100.0));
        assert!(fitted[Pattern::F2 as usize] > th[Pattern::F2 as usize]);
        for i in (0..NPAR).filter(|&i| fixed(i)) {
            assert_eq!(fitted[i], th[i]);
        }
    }
}
