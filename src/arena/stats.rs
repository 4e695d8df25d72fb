//! Match arithmetic: score, Elo difference with a 95 % error bar, likelihood of superiority,
//! the same over game pairs (pentanomial), and the sequential probability ratio test (GSPRT,
//! normal approximation of the log-likelihood ratio) that lets a match stop once it decides.

use std::fmt;

/// Two-sided 95 % quantile of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Wins, losses and draws of one side of a pairing, seen from that side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

impl Score {
    pub fn new(wins: u32, losses: u32, draws: u32) -> Score {
        Score {
            wins,
            losses,
            draws,
        }
    }

    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Points: a win 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// The same games seen from the other side.
    pub fn flipped(&self) -> Score {
        Score::new(self.losses, self.wins, self.draws)
    }

    /// Mean score per game in 0..=1 (None before the first game).
    pub fn ratio(&self) -> Option<f64> {
        (self.games() > 0).then(|| self.points() / self.games() as f64)
    }

    /// Elo difference implied by the mean score (infinite at 0 % or 100 %).
    pub fn elo(&self) -> Option<f64> {
        self.ratio().map(elo_from_score)
    }

    /// Lower and upper Elo of the 95 % confidence interval of the mean score, using the
    /// per-game variance of the observed results (normal approximation).
    pub fn elo_interval(&self) -> Option<(f64, f64)> {
        let n = self.games() as f64;
        let s = self.ratio()?;
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.losses as f64 * s.powi(2)
            + self.draws as f64 * (0.5 - s).powi(2))
            / n;
        Some(elo_interval(s, var, n))
    }

    /// Half the width of the 95 % Elo interval (the "±" figure).
    pub fn elo_error(&self) -> Option<f64> {
        self.elo_interval().map(|(lo, hi)| (hi - lo) / 2.0)
    }

    /// Likelihood of superiority: the probability that this side is the stronger one, from
    /// the decisive games only (draws carry no information about who is stronger).
    pub fn los(&self) -> Option<f64> {
        let decisive = (self.wins + self.losses) as f64;
        (decisive > 0.0).then(|| {
            0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
        })
    }
}

impl std::ops::AddAssign for Score {
    fn add_assign(&mut self, o: Score) {
        self.wins += o.wins;
        self.losses += o.losses;
        self.draws += o.draws;
    }
}

/// Results of game pairs, one start played with each colour (`-repeat`), counted by the first
/// side's points over the two games: 0, 1/2, 1, 3/2 or 2 (the pentanomial counts). An opening
/// that favours one colour gives each side a win, which the per-game variance counts as noise
/// twice and the pair's variance not at all, so the pairs' error bar is the true one, and
/// usually the tighter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pairs {
    /// `counts[k]`: pairs worth k half-points to the first side.
    pub counts: [u32; 5],
}

impl Pairs {
    /// Adds a pair from its two games, each a one-game `Score` seen from the first side.
    pub fn add(&mut self, a: Score, b: Score) {
        debug_assert!(a.games() == 1 && b.games() == 1);
        let half = 2 * (a.wins + b.wins) + a.draws + b.draws;
        self.counts[half.min(4) as usize] += 1;
    }

    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Mean score per game and the variance of one pair's mean score (None before a pair).
    fn moments(&self) -> Option<(f64, f64)> {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return None;
        }
        let value = |k: usize| k as f64 / 4.0;
        let s = (0..5)
            .map(|k| self.counts[k] as f64 * value(k))
            .sum::<f64>()
            / n;
        let var = (0..5)
            .map(|k| self.counts[k] as f64 * (value(k) - s).powi(2))
            .sum::<f64>()
            / n;
        Some((s, var))
    }

    /// Mean score per game over the paired games.
    pub fn ratio(&self) -> Option<f64> {
        self.moments().map(|(s, _)| s)
    }

    pub fn elo(&self) -> Option<f64> {
        self.ratio().map(elo_from_score)
    }

    /// The 95 % Elo interval from the variance between pairs.
    pub fn elo_interval(&self) -> Option<(f64, f64)> {
        let (s, var) = self.moments()?;
        Some(elo_interval(s, var, self.pairs() as f64))
    }

    pub fn elo_error(&self) -> Option<f64> {
        self.elo_interval().map(|(lo, hi)| (hi - lo) / 2.0)
    }
}

/// The Elo interval of a mean score `s` whose samples (games or pairs) have variance `var`, over
/// `n` samples (normal approximation).
fn elo_interval(s: f64, var: f64, n: f64) -> (f64, f64) {
    let half = Z95 * (var / n).sqrt();
    (elo_from_score(s - half), elo_from_score(s + half))
}

/// Elo difference for a mean score `s` (logistic model); ±infinity outside (0, 1).
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// Expected mean score of a side that is `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Formats an Elo figure, writing "inf" for the infinite ends.
pub fn fmt_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // Adding 0.0 turns -0.0 into 0.0, so an even score prints +0.0.
        format!("{:+.1}", e + 0.0)
    }
}

/// Error function, Abramowitz & Stegun 7.1.26 (absolute error below 1.5e-7, plenty for a
/// percentage).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

/// SPRT parameters: H0 "the first engine is elo0 stronger" against H1 "elo1 stronger", with
/// error probabilities alpha (accepting H1 wrongly) and beta (accepting H0 wrongly).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What an SPRT has concluded so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    Continue,
    AcceptH0,
    AcceptH1,
}

impl fmt::Display for SprtState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtState::Continue => "continue",
            SprtState::AcceptH0 => "H0 accepted",
            SprtState::AcceptH1 => "H1 accepted",
        })
    }
}

impl Default for Sprt {
    fn default() -> Sprt {
        Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }
}

impl Sprt {
    /// Checks the parameters: 0 < alpha, beta < 1 and elo0 < elo1.
    pub fn validate(&self) -> Result<(), String> {
        let p = |v: f64| v > 0.0 && v < 1.0;
        if !p(self.alpha) || !p(self.beta) {
            return Err(format!(
                "SPRT alpha and beta must lie strictly between 0 and 1 (got {} and {})",
                self.alpha, self.beta
            ));
        }
        if self.elo0 >= self.elo1 || self.elo0.is_nan() || self.elo1.is_nan() {
            return Err(format!(
                "SPRT needs elo0 < elo1 (got {} and {})",
                self.elo0, self.elo1
            ));
        }
        Ok(())
    }

    /// Wald's stopping bounds on the log-likelihood ratio: (ln(beta/(1-alpha)), ln((1-beta)/alpha)).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Log-likelihood ratio of H1 against H0 for the results so far. The trinomial model's
    /// exact ratio is replaced by its normal approximation: with mean score s and per-game
    /// variance v, LLR = n (s1 - s0)(2s - s0 - s1) / (2v), where s0 and s1 are the expected
    /// scores under the two hypotheses. Zero until two of the three outcomes have occurred
    /// (the variance is zero before that).
    pub fn llr(&self, score: &Score) -> f64 {
        let kinds = [score.wins, score.losses, score.draws]
            .iter()
            .filter(|&&c| c > 0)
            .count();
        if kinds < 2 {
            return 0.0;
        }
        let n = score.games() as f64;
        let w = score.wins as f64 / n;
        let d = score.draws as f64 / n;
        let s = w + d / 2.0;
        self.normal_llr(n, s, w + d / 4.0 - s * s)
    }

    /// The same over game pairs (pentanomial): n pairs, s the mean score per game, v the
    /// variance of a pair's mean score. Zero until two kinds of pair have occurred.
    pub fn llr_pairs(&self, pairs: &Pairs) -> f64 {
        match pairs.moments() {
            Some((s, var)) if pairs.counts.iter().filter(|&&c| c > 0).count() >= 2 => {
                self.normal_llr(pairs.pairs() as f64, s, var)
            }
            _ => 0.0,
        }
    }

    fn normal_llr(&self, n: f64, s: f64, var: f64) -> f64 {
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// Continue, or which hypothesis a log-likelihood ratio accepts.
    pub fn state(&self, llr: f64) -> SprtState {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtState::AcceptH1
        } else if llr <= lo {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_error_bar_and_los_match_hand_computation() {
        // 60 wins, 40 losses, no draw: s = 0.6, Elo = 400 log10(0.6/0.4) = 400 * 0.176091
        // = 70.44. Per-game variance = 0.6 * 0.4^2 + 0.4 * 0.6^2 = 0.24; standard error of
        // the mean sqrt(0.24/100) = 0.048990; 95 % range 0.6 ± 1.96 * 0.048990 = 0.503982 ..
        // 0.696018, i.e. Elo 2.77 .. 143.91, error ± 70.57.
        // LOS = (1 + erf(20 / sqrt(200))) / 2 = (1 + erf(1.414214)) / 2 = 0.97725.
        let s = Score::new(60, 40, 0);
        assert!(close(s.ratio().unwrap(), 0.6, 1e-12));
        assert!(close(s.elo().unwrap(), 70.44, 0.01));
        let (lo, hi) = s.elo_interval().unwrap();
        assert!(close(lo, 2.77, 0.01), "{lo}");
        assert!(close(hi, 143.91, 0.01), "{hi}");
        assert!(close(s.elo_error().unwrap(), 70.57, 0.01));
        assert!(close(s.los().unwrap(), 0.97725, 1e-5));

        // 30-20-50: s = 0.55, Elo 34.86; variance = 0.3*0.45^2 + 0.2*0.55^2 + 0.5*0.05^2
        // = 0.1225; 95 % range 0.55 ± 1.96 * 0.035 = 0.481401 .. 0.618599 -> Elo -12.93 ..
        // 84.01 (± 48.47). LOS = (1 + erf(10/sqrt(100))) / 2 = (1 + erf(1)) / 2 = 0.92135.
        let s = Score::new(30, 20, 50);
        assert!(close(s.elo().unwrap(), 34.86, 0.01));
        let (lo, hi) = s.elo_interval().unwrap();
        assert!(
            close(lo, -12.93, 0.01) && close(hi, 84.01, 0.01),
            "{lo} {hi}"
        );
        assert!(close(s.los().unwrap(), 0.92135, 1e-5));

        // The other side sees the mirror image.
        let f = s.flipped();
        assert!(close(f.elo().unwrap(), -34.86, 0.01));
        assert!(close(f.los().unwrap(), 1.0 - 0.92135, 1e-5));
    }

    #[test]
    fn degenerate_scores_do_not_produce_nonsense() {
        assert_eq!(Score::default().elo(), None);
        assert_eq!(Score::default().los(), None);
        assert_eq!(Score::new(0, 0, 4).los(), None);
        assert_eq!(Score::new(0, 0, 4).elo(), Some(0.0));
        assert_eq!(Score::new(3, 0, 0).elo(), Some(f64::INFINITY));
        assert_eq!(fmt_elo(f64::INFINITY), "+inf");
        assert_eq!(fmt_elo(-12.345), "-12.3");
        assert_eq!(fmt_elo(Score::new(1, 1, 0).elo().unwrap()), "+0.0");
    }

    #[test]
    fn erf_matches_tabulated_values() {
        // erf(0.5) = 0.5204999, erf(1) = 0.8427008, erf(2) = 0.9953223 (tables).
        assert!(close(erf(0.5), 0.520_499_9, 2e-7));
        assert!(close(erf(1.0), 0.842_700_8, 2e-7));
        assert!(close(erf(2.0), 0.995_322_3, 2e-7));
        assert!(close(erf(-1.0), -0.842_700_8, 2e-7));
        assert!(close(erf(0.0), 0.0, 1e-9));
    }

    #[test]
    fn sprt_llr_and_bounds_match_hand_computation() {
        let t = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        // Bounds: ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = +2.944439.
        let (lo, hi) = t.bounds();
        assert!(close(lo, -2.944439, 1e-6) && close(hi, 2.944439, 1e-6));
        // 60-40-0: s = 0.6, v = 0.6 - 0.36 = 0.24; s0 = 0.5, s1 = 1/(1+10^(-10/400))
        // = 0.514387. LLR = 100 * 0.014387 * (1.2 - 1.014387) / 0.48 = 0.55634.
        assert!(close(t.llr(&Score::new(60, 40, 0)), 0.55634, 1e-4));
        // 30-20-50: s = 0.55, v = 0.3 + 0.125 - 0.3025 = 0.1225;
        // LLR = 100 * 0.014387 * (1.1 - 1.014387) / 0.245 = 0.50275.
        assert!(close(t.llr(&Score::new(30, 20, 50)), 0.50275, 1e-4));
        // 10-20-5 goes the other way: s = 12.5/35, LLR = -0.38972.
        assert!(close(t.llr(&Score::new(10, 20, 5)), -0.38972, 1e-4));
        // A symmetric test elo0 = -5, elo1 = 5 on 60-40-0: s0 = 0.492805, s1 = 0.507195,
        // LLR = 100 * 0.014389 * 0.2 / 0.48 = 0.59959.
        let sym = Sprt {
            elo0: -5.0,
            elo1: 5.0,
            ..t
        };
        assert!(close(sym.llr(&Score::new(60, 40, 0)), 0.59959, 1e-4));
        // No information yet: only wins.
        assert_eq!(t.llr(&Score::new(7, 0, 0)), 0.0);
    }

    #[test]
    fn pairs_measure_the_error_left_after_each_opening_is_played_both_ways() {
        let (w, l, d) = (
            Score::new(1, 0, 0),
            Score::new(0, 1, 0),
            Score::new(0, 0, 1),
        );
        // Six openings won by whoever had the favoured colour, one lost both ways, one won and
        // drawn, two won both ways: pairs worth 0, 1/2, 1, 3/2, 2 points = 1, 0, 6, 1, 2.
        let mut p = Pairs::default();
        let mut games = Score::default();
        let list = [(w, l); 6]
            .into_iter()
            .chain([(l, l), (w, d), (w, w), (w, w)]);
        for (a, b) in list {
            p.add(a, b);
            games += a;
            games += b;
        }
        assert_eq!(p.counts, [1, 0, 6, 1, 2]);
        assert_eq!(p.pairs(), 10);
        // s = (0 + 6 * 0.5 + 0.75 + 2 * 1) / 10 = 0.575, as over the 20 games (11-8-1).
        // Pair variance (0.575^2 + 6 * 0.075^2 + 0.175^2 + 2 * 0.425^2) / 10 = 0.075625;
        // 95 % range 0.575 ± 1.959964 * sqrt(0.0075625) -> Elo -67.14 .. 186.65 (± 126.90).
        assert!(close(p.ratio().unwrap(), games.ratio().unwrap(), 1e-12));
        assert!(close(p.elo().unwrap(), 52.51, 0.01));
        let (lo, hi) = p.elo_interval().unwrap();
        assert!(
            close(lo, -67.14, 0.01) && close(hi, 186.65, 0.01),
            "{lo} {hi}"
        );
        // The per-game variance (0.231875) also counts the openings' bias: ± 161.51.
        assert!(close(games.elo_error().unwrap(), 161.51, 0.01));
        assert!(p.elo_error().unwrap() < games.elo_error().unwrap());

        // Pairs that go the same way both times carry less information than two games, and
        // the pairs' error bar says so: 5 pairs won twice and 5 lost twice.
        let mut q = Pairs::default();
        let mut same = Score::default();
        for (a, b) in [(w, w); 5].into_iter().chain([(l, l); 5]) {
            q.add(a, b);
            same += a;
            same += b;
        }
        assert_eq!(q.counts, [5, 0, 0, 0, 5]);
        assert!(q.elo_error().unwrap() > same.elo_error().unwrap());

        // SPRT over pairs, elo0 = 0, elo1 = 10: LLR = 10 * 0.014387 * (1.15 - 1.014387)
        // / (2 * 0.075625) = 0.12900, against 0.08414 over the same games one by one.
        let t = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert!(close(t.llr_pairs(&p), 0.12900, 1e-4), "{}", t.llr_pairs(&p));
        assert!(close(t.llr(&games), 0.08414, 1e-4));
        // One kind of pair only: no variance, no information yet.
        let mut even = Pairs::default();
        (0..8).for_each(|_| even.add(w, l));
        assert_eq!(t.llr_pairs(&even), 0.0);
        assert_eq!(Pairs::default().elo(), None);
    }

    #[test]
    fn sprt_decides_at_the_bounds() {
        let t = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert_eq!(t.state(t.llr(&Score::new(60, 40, 0))), SprtState::Continue);
        // 600-400: LLR = 5.56 > 2.94.
        assert_eq!(
            t.state(t.llr(&Score::new(600, 400, 0))),
            SprtState::AcceptH1
        );
        // 400-600: s = 0.4, LLR = 1000 * 0.014387 * (0.8 - 1.014387) / 0.48 = -6.43 < -2.94.
        assert_eq!(
            t.state(t.llr(&Score::new(400, 600, 0))),
            SprtState::AcceptH0
        );
        assert!(t.validate().is_ok());
        assert!(Sprt { elo1: -1.0, ..t }.validate().is_err());
        assert!(Sprt { alpha: 0.0, ..t }.validate().is_err());
    }
}
