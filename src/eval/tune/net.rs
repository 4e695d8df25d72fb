//! `tune ... --net`: a first measure of a learned evaluation. Each empty square's multiset of
//! four lines for the side to move, for the other side, and its joint slot select vectors that
//! sum into an accumulator (which `Position` could keep up to date square by square, as it keeps
//! its totals); a small ReLU head maps it to what to add to the evaluation in use. A linear
//! model of the same features, fitted beside it, says what the head buys on held-out positions.

use super::Sample;
use crate::board::rng::Rng;
use crate::eval::{pack_patterns, JOINT_BUCKETS, MULTISETS};

/// Features: the side to move's multisets, the other side's, then the joint slots.
const OTHER_AT: usize = MULTISETS;
const JOINT_AT: usize = 2 * MULTISETS;
const FEATURES: usize = JOINT_AT + JOINT_BUCKETS * JOINT_BUCKETS;

/// Positions per Adam step.
const BATCH: usize = 256;

/// The shape of a model: accumulator width and hidden units (0: linear, width 1).
#[derive(Clone, Copy, Debug)]
pub(super) struct NetShape {
    pub width: usize,
    pub hidden: usize,
}

/// A position as the model reads it: its features with their counts, and its label.
pub(super) struct NetSample {
    feats: Vec<(u16, f32)>,
    label: f32,
    /// The evaluation in use, as a logit: the model learns what to add to it.
    base: f32,
}

/// The features of a sample, counted, with `rank` the multiset of each packed key; the
/// multiset `dead` (four dead lines) and the empty joint slot are left out, so that an
/// occupied square and a square worth nothing read alike.
fn net_sample(s: &Sample, base: f32, rank: &[u16], dead: usize) -> NetSample {
    let mut count = std::collections::BTreeMap::<u16, f32>::new();
    let mut add = |f: usize| *count.entry(f as u16).or_insert(0.0) += 1.0;
    for ((&m, &o), &j) in s.me.iter().zip(&s.opp).zip(&s.joint) {
        let (rm, ro) = (rank[m as usize] as usize, rank[o as usize] as usize);
        if rm != dead {
            add(rm);
        }
        if ro != dead {
            add(OTHER_AT + ro);
        }
        if j != 0 {
            add(JOINT_AT + j as usize);
        }
    }
    NetSample {
        feats: count.into_iter().collect(),
        label: s.result as f32,
        base,
    }
}

/// The model's view of `samples`, with `base` giving the evaluation in use of each (a logit)
/// and `rank` the multiset of each packed key (`Table::slot`).
pub(super) fn net_samples(
    samples: &[&Sample],
    base: impl Fn(&Sample) -> f32,
    rank: &[u16],
) -> Vec<NetSample> {
    let dead = rank[pack_patterns([crate::board::Pattern::Dead; 4]) as usize] as usize;
    samples
        .iter()
        .map(|s| net_sample(s, base(s), rank, dead))
        .collect()
}

/// Uniform in [-r, r), for the initial weights.
fn uniform(rng: &mut Rng, r: f32) -> f32 {
    ((rng.next() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * r
}

/// The parameters, flat: the feature vectors, the accumulator's bias, the hidden layer's
/// weights and biases, the output weights and bias, and the weight of the evaluation in use.
pub(super) struct Net {
    shape: NetShape,
    p: Vec<f32>,
    b1: usize,
    w1: usize,
    c1: usize,
    w2: usize,
    b2: usize,
    kb: usize,
    /// Adam's moment estimates and step count, kept across calls to `fit`.
    m: Vec<f32>,
    v: Vec<f32>,
    step: i32,
}

/// What a forward pass leaves for the backward one.
struct Pass {
    acc: Vec<f32>,
    hid: Vec<f32>,
    out: f32,
}

impl Net {
    pub(super) fn new(shape: NetShape, seed: u64) -> Net {
        let (d, h) = (shape.width, shape.hidden);
        let d = if h == 0 { 1 } else { d };
        let shape = NetShape {
            width: d,
            hidden: h,
        };
        let b1 = FEATURES * d;
        let w1 = b1 + d;
        let c1 = w1 + h * d;
        let w2 = c1 + h;
        let b2 = w2 + h;
        let kb = b2 + 1;
        let mut rng = Rng(seed | 1);
        let mut p = vec![0.0; kb + 1];
        p[kb] = 1.0;
        if h > 0 {
            for x in &mut p[..b1] {
                *x = uniform(&mut rng, 0.05);
            }
            let r = 1.0 / (d as f32).sqrt();
            for x in &mut p[w1..c1] {
                *x = uniform(&mut rng, r);
            }
            // The head starts near zero: the evaluation in use, unchanged.
            let r = 0.1 / (h as f32).sqrt();
            for x in &mut p[w2..b2] {
                *x = uniform(&mut rng, r);
            }
        }
        Net {
            shape,
            p,
            b1,
            w1,
            c1,
            w2,
            b2,
            kb,
            m: vec![0.0; kb + 1],
            v: vec![0.0; kb + 1],
            step: 0,
        }
    }

    fn forward(&self, s: &NetSample) -> Pass {
        let (d, h) = (self.shape.width, self.shape.hidden);
        let mut acc = self.p[self.b1..self.b1 + d].to_vec();
        for &(f, n) in &s.feats {
            let e = &self.p[f as usize * d..(f as usize + 1) * d];
            for (a, &x) in acc.iter_mut().zip(e) {
                *a += n * x;
            }
        }
        if h == 0 {
            return Pass {
                out: self.p[self.kb] * s.base + acc[0] + self.p[self.b2],
                acc,
                hid: Vec::new(),
            };
        }
        acc.iter_mut().for_each(|a| *a = a.max(0.0));
        let mut hid = self.p[self.c1..self.c1 + h].to_vec();
        for (j, y) in hid.iter_mut().enumerate() {
            let w = &self.p[self.w1 + j * d..self.w1 + (j + 1) * d];
            *y += w.iter().zip(&acc).map(|(a, b)| a * b).sum::<f32>();
            *y = y.max(0.0);
        }
        let out = self.p[self.kb] * s.base
            + self.p[self.b2]
            + hid
                .iter()
                .zip(&self.p[self.w2..self.w2 + h])
                .map(|(a, b)| a * b)
                .sum::<f32>();
        Pass { acc, hid, out }
    }

    /// The side to move's chance of winning.
    pub(super) fn predict(&self, s: &NetSample) -> f32 {
        sigmoid(self.forward(s).out)
    }

    /// Adds the gradient of the squared error of `s` to `g`.
    fn backward(&self, s: &NetSample, g: &mut [f32]) {
        let (d, h) = (self.shape.width, self.shape.hidden);
        let pass = self.forward(s);
        let p = sigmoid(pass.out);
        let dout = 2.0 * (p - s.label) * p * (1.0 - p);
        g[self.b2] += dout;
        g[self.kb] += dout * s.base;
        let mut dacc = vec![0.0; d];
        if h == 0 {
            dacc[0] = dout;
        } else {
            for j in 0..h {
                g[self.w2 + j] += dout * pass.hid[j];
                if pass.hid[j] <= 0.0 {
                    continue;
                }
                let dh = dout * self.p[self.w2 + j];
                g[self.c1 + j] += dh;
                for i in 0..d {
                    g[self.w1 + j * d + i] += dh * pass.acc[i];
                    dacc[i] += dh * self.p[self.w1 + j * d + i];
                }
            }
            for (x, &a) in dacc.iter_mut().zip(&pass.acc) {
                if a <= 0.0 {
                    *x = 0.0;
                }
            }
        }
        for i in 0..d {
            g[self.b1 + i] += dacc[i];
        }
        for &(f, n) in &s.feats {
            let e = &mut g[f as usize * d..(f as usize + 1) * d];
            for (x, &y) in e.iter_mut().zip(&dacc) {
                *x += n * y;
            }
        }
    }

    /// Mean squared error of the predictions.
    pub(super) fn loss(&self, set: &[NetSample]) -> f64 {
        let total: f64 = set
            .iter()
            .map(|s| ((self.predict(s) - s.label) as f64).powi(2))
            .sum();
        total / set.len().max(1) as f64
    }

    /// `epochs` passes of Adam over `train` in shuffled batches, with weight decay `decay` on
    /// the weights (not the biases).
    pub(super) fn fit(&mut self, train: &[NetSample], epochs: usize, lr: f32, decay: f32) {
        let n = self.p.len();
        let mut g = vec![0.0f32; n];
        let mut order: Vec<usize> = (0..train.len()).collect();
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ self.step as u64);
        for _ in 0..epochs {
            for i in (1..order.len()).rev() {
                order.swap(i, rng.next() as usize % (i + 1));
            }
            for batch in order.chunks(BATCH) {
                g.iter_mut().for_each(|x| *x = 0.0);
                for &i in batch {
                    self.backward(&train[i], &mut g);
                }
                self.step += 1;
                let (c1, c2) = (1.0 - 0.9f32.powi(self.step), 1.0 - 0.999f32.powi(self.step));
                let (m, v) = (&mut self.m, &mut self.v);
                let scale = 1.0 / batch.len() as f32;
                for k in 0..n {
                    let weight = k < self.b1 || (self.w1..self.c1).contains(&k);
                    let gk = g[k] * scale + if weight { decay * self.p[k] } else { 0.0 };
                    m[k] = 0.9 * m[k] + 0.1 * gk;
                    v[k] = 0.999 * v[k] + 0.001 * gk * gk;
                    self.p[k] -= lr * (m[k] / c1) / ((v[k] / c2).sqrt() + 1e-8);
                }
            }
        }
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::multiset_rank;

    /// Positions where the label depends on two features together (either alone says nothing):
    /// a linear model cannot learn it, the head can.
    fn xor_set() -> Vec<NetSample> {
        (0..400)
            .map(|i| {
                let (a, b) = (i % 2 == 1, i / 2 % 2 == 1);
                let mut feats = vec![(7, 1.0)];
                if a {
                    feats.push((10, 1.0));
                }
                if b {
                    feats.push((OTHER_AT as u16 + 10, 1.0));
                }
                NetSample {
                    feats,
                    label: if a == b { 0.9 } else { 0.1 },
                    base: 0.0,
                }
            })
            .collect()
    }

    #[test]
    fn the_head_learns_what_a_linear_model_cannot() {
        let set = xor_set();
        let mut lin = Net::new(
            NetShape {
                width: 1,
                hidden: 0,
            },
            1,
        );
        let mut net = Net::new(
            NetShape {
                width: 8,
                hidden: 8,
            },
            1,
        );
        let start = net.loss(&set);
        lin.fit(&set, 60, 0.05, 0.0);
        net.fit(&set, 200, 0.01, 0.0);
        // The linear model's best is the mean: an error of 0.16 on labels 0.1 and 0.9.
        assert!(lin.loss(&set) > 0.15, "linear {}", lin.loss(&set));
        assert!(net.loss(&set) < 0.02, "net {} from {start}", net.loss(&set));
    }

    #[test]
    fn features_count_squares_and_leave_the_dead_out() {
        use crate::board::Pattern::*;
        let dead = pack_patterns([Dead; 4]);
        let three = pack_patterns([F3, Dead, Dead, Dead]);
        let s = Sample::new(vec![dead, three, three], vec![dead, dead, three], 1.0);
        let slot = super::super::Table::slots_only().slot;
        let n = net_samples(&[&s], |_| 0.25, &slot).remove(0);
        assert_eq!(n.base, 0.25);
        let r = multiset_rank([F3, Dead, Dead, Dead]) as u16;
        let count = |f: u16| n.feats.iter().find(|x| x.0 == f).map_or(0.0, |x| x.1);
        assert_eq!(count(r), 2.0);
        assert_eq!(count(OTHER_AT as u16 + r), 1.0);
        assert_eq!(count(multiset_rank([Dead; 4]) as u16), 0.0);
        // The joint slots of the two three squares (the one both want, the one only we want).
        let joint: f32 = n
            .feats
            .iter()
            .filter(|x| x.0 as usize >= JOINT_AT)
            .map(|x| x.1)
            .sum();
        assert_eq!(joint, 2.0);
        assert_eq!(n.label, 1.0);
    }
}
