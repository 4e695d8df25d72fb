//! gorin-arena: plays matches between Piskvork brains (ours or anyone's), referees them with
//! the board's rules, and reports results, Elo and SPRT. This file runs the tournament: worker
//! threads play the scheduled games, the main thread collects results, prints progress, saves
//! games, checks the SPRT and the Ctrl-C flag, and prints the final tables.

pub mod engine;
pub mod openings;
pub mod options;
pub mod output;
pub mod referee;
pub mod schedule;
pub mod stats;
mod sys;

use engine::EngineProcess;
use options::{Config, Parsed};
use output::IoLog;
use referee::{GameResult, GameSetup, Outcome, Seat};
use schedule::Job;
use stats::{fmt_elo, Pairs, Score, Sprt, SprtState};
use std::collections::{HashMap, VecDeque};
use std::fs::File;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Exit code: the match finished (and an SPRT, if any, accepted H1 or ran out of games).
pub const EXIT_OK: i32 = 0;
/// Exit code: the SPRT accepted H0 (the first engine is not better by elo1).
pub const EXIT_H0: i32 = 1;
/// Exit code: bad command line, unreadable openings, files that cannot be written.
pub const EXIT_USAGE: i32 = 2;
/// Exit code: stopped by Ctrl-C or SIGTERM (all engines were ended first).
pub const EXIT_INTERRUPTED: i32 = 130;

const USAGE: &str = "\
usage: gorin-arena [-each ENGINE-OPTIONS] -engine ENGINE-OPTIONS -engine ENGINE-OPTIONS ... [OPTIONS]

engine options (key=value; -each applies them to every engine, an engine's own value wins):
  cmd=COMMAND       program and arguments (run from its own folder if the path has a '/')
  name=NAME         name in tables and records (default: the program's file name)
  tc=M/T[+I]        seconds per game M (0: none) and per move T, increment I; tc=T sets both
                    (default 0/5: 5 s per move, no game limit)
  tolerance=S       lateness allowed beyond the budget, seconds (default 1)
  start=S           time to answer START with OK, seconds (default 5)
  maxmemory=BYTES   INFO max_memory (default 367001600 = 350 MiB; 0: no limit)
  thread=N depth=N nodes=N   INFO thread_num / max_depth / max_node
  option.KEY=VALUE  extra INFO KEY VALUE sent before every game

tournament options:
  -rule R           freestyle|standard|renju|caro|caro5 or code 0|1|4|8|9 (default freestyle)
  -boardsize N      board N x N, 5..32 (default 15)
  -games N          games per pairing and round (default 2)
  -rounds N         repeat the whole schedule N times (default 1)
  -gauntlet         first engine against each other one (default: round robin)
  -repeat           play each opening twice, colours reversed; the results are also given
                    over these game pairs (pentanomial), and the SPRT reads them
  -openings file=F [type=offset|pos|psq] [order=sequential|random] [srand=N]
                    opening lines (centre offsets 'x,y, x,y' or pos 'h8i9'), a .psq file or a
                    folder of .psq files
  -concurrency N    games in parallel (also -j N; default 1)
  -drawafter N      draw once N stones are on the board (default: only a full board draws)
  -lenient          while waiting for a move, skip lines that are not moves (ERROR and
                    UNKNOWN included), as c-gomoku-cli and GomocupJudge do (default: such a
                    line loses the game, as in Piskvork)
  -sprt [elo0=E0] elo1=E1 [alpha=A] [beta=B]   stop as soon as the SPRT decides (two engines)
  -psq DIR          save every game as DIR/game-NNNN.psq
  -sgf FILE         save every game to FILE as SGF
  -log FILE         timestamped log of every line sent to and received from the engines

exit codes: 0 done (SPRT: H1 accepted or undecided), 1 SPRT accepted H0,
            2 usage or setup error, 130 interrupted (Ctrl-C)";

/// Entry point of the `gorin-arena` binary.
pub fn main(args: &[String]) -> anyhow::Result<i32> {
    let cfg = match options::parse(args) {
        Ok(Parsed::Help) => {
            println!("{USAGE}");
            return Ok(EXIT_OK);
        }
        Ok(Parsed::Run(c)) => c,
        Err(e) => {
            eprintln!("gorin-arena: {e:#}\n(gorin-arena -help lists the options)");
            return Ok(EXIT_USAGE);
        }
    };
    sys::install_interrupt_handler();
    run(&cfg)
}

/// The tally of a match so far.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Per pairing, from the pairing's first engine.
    pub pairs: Vec<Score>,
    /// Per pairing, its finished game pairs (`-repeat`), from the pairing's first engine.
    pub paired: Vec<Pairs>,
    /// The first finished game of each pair still waiting for the other, by the pair's lower
    /// game index.
    pub halves: HashMap<usize, Score>,
    /// Per engine, against everyone.
    pub engines: Vec<Score>,
    /// Per engine: games lost by a fault, with the first few reasons.
    pub faults: Vec<(u32, Vec<String>)>,
    pub played: usize,
    pub abandoned: usize,
}

/// What `run` found: the tally, the SPRT verdict and whether Ctrl-C stopped it.
pub struct Summary {
    pub tally: Tally,
    pub sprt: Option<SprtState>,
    pub interrupted: bool,
}

/// Runs the tournament described by `cfg` and prints progress and the final tables; returns
/// the exit code.
pub fn run(cfg: &Config) -> anyhow::Result<i32> {
    let summary = run_match(cfg)?;
    Ok(if summary.interrupted {
        EXIT_INTERRUPTED
    } else if summary.sprt == Some(SprtState::AcceptH0) {
        EXIT_H0
    } else {
        EXIT_OK
    })
}

/// Plays every game of `cfg` (or until the SPRT decides or Ctrl-C), printing as it goes.
pub fn run_match(cfg: &Config) -> anyhow::Result<Summary> {
    let (w, h) = (cfg.size, cfg.size);
    let openings = match &cfg.openings {
        Some(spec) => {
            let o = openings::load(spec, w, h, cfg.rule)?;
            if !o.skipped.is_empty() {
                eprintln!(
                    "gorin-arena: skipped {} opening(s) that do not fit; first: {}",
                    o.skipped.len(),
                    o.skipped[0]
                );
            }
            o.list
        }
        None => Vec::new(),
    };
    let pairs = schedule::pairs(cfg.engines.len(), cfg.gauntlet);
    let jobs = schedule::jobs(&pairs, cfg.games, cfg.rounds, openings.len(), cfg.repeat);
    let total = jobs.len();
    if let Some(d) = &cfg.psq_dir {
        std::fs::create_dir_all(d)
            .map_err(|e| anyhow::anyhow!("cannot create PSQ folder {}: {e}", d.display()))?;
    }
    let mut sgf = match &cfg.sgf {
        Some(p) => Some(
            File::create(p).map_err(|e| anyhow::anyhow!("cannot create {}: {e}", p.display()))?,
        ),
        None => None,
    };
    let log = match &cfg.log {
        Some(p) => Some(Arc::new(IoLog::create(p)?)),
        None => None,
    };

    let names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
    println!(
        "gorin-arena: {} engines, {} pairing(s), {total} games, rule {}, board {w}x{h}, {} opening(s), concurrency {}",
        names.len(),
        pairs.len(),
        cfg.rule,
        openings.len(),
        cfg.concurrency
    );
    let queue = Mutex::new(jobs.into_iter().collect::<VecDeque<Job>>());
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(Job, Option<GameResult>)>();
    let mut tally = Tally {
        pairs: vec![Score::default(); pairs.len()],
        paired: vec![Pairs::default(); pairs.len()],
        engines: vec![Score::default(); names.len()],
        faults: vec![(0, Vec::new()); names.len()],
        ..Tally::default()
    };
    let mut sprt_state = None;
    let mut interrupted = false;
    let started = Instant::now();

    std::thread::scope(|s| -> anyhow::Result<()> {
        for wi in 0..cfg.concurrency.min(total) {
            let tx = tx.clone();
            let (queue, stop, log, openings) = (&queue, &stop, log.clone(), &openings);
            std::thread::Builder::new()
                .name(format!("worker-{}", wi + 1))
                .spawn_scoped(s, move || {
                    worker(cfg, wi, queue, stop, log, openings, tx);
                })?;
        }
        drop(tx);
        loop {
            let (job, res) = match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(r) => r,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if sys::interrupted() && !interrupted {
                        interrupted = true;
                        stop.store(true, Ordering::SeqCst);
                        eprintln!("\ngorin-arena: interrupted, ending the engines...");
                    }
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            let Some(g) = res else {
                tally.abandoned += 1;
                continue;
            };
            record_game(
                cfg, &job, &g, &pairs, &mut tally, &names, &openings, &mut sgf,
            )?;
            let first = pairs[job.pair].0;
            let mut line = format!(
                "[{}/{total}] #{} {} vs {}: {} ({}) | {}",
                tally.played,
                job.index + 1,
                names[job.black],
                names[job.white],
                g.outcome.score_text(),
                g.reason,
                progress(names[first], &tally.engines[first])
            );
            if let Some(t) = &cfg.sprt {
                if sprt_state.is_none() {
                    let llr = sprt_llr(cfg, t, &tally);
                    let (lo, hi) = t.bounds();
                    line.push_str(&format!(" | LLR {llr:.2} [{lo:.2}, {hi:.2}]"));
                    let st = t.state(llr);
                    if st != SprtState::Continue {
                        sprt_state = Some(st);
                        stop.store(true, Ordering::SeqCst);
                    }
                }
            }
            let el = started.elapsed();
            let left = el.mul_f64((total - tally.played) as f64 / tally.played as f64);
            line.push_str(&format!(
                " | {} elapsed, ~{} left",
                output::hms(el),
                output::hms(left)
            ));
            println!("{line}");
        }
        Ok(())
    })?;
    if sys::interrupted() {
        interrupted = true;
    }

    print_tables(cfg, &pairs, &names, &tally, started.elapsed());
    if let Some(t) = &cfg.sprt {
        let (lo, hi) = t.bounds();
        let st = sprt_state.unwrap_or(SprtState::Continue);
        let over = if cfg.repeat {
            format!(" over {} game pairs", tally.paired[0].pairs())
        } else {
            String::new()
        };
        println!(
            "SPRT elo0={} elo1={} alpha={} beta={}{over}: LLR {:.3} [{lo:.3}, {hi:.3}], {}",
            t.elo0,
            t.elo1,
            t.alpha,
            t.beta,
            sprt_llr(cfg, t, &tally),
            if st == SprtState::Continue {
                "undecided".to_string()
            } else {
                st.to_string()
            }
        );
    }
    if interrupted {
        println!("interrupted: {} game(s) abandoned", tally.abandoned);
    } else if tally.abandoned > 0 {
        println!(
            "{} game(s) in progress abandoned once the SPRT decided",
            tally.abandoned
        );
    }
    Ok(Summary {
        tally,
        sprt: sprt_state,
        interrupted,
    })
}

/// The SPRT's log-likelihood ratio for the first pairing: over its game pairs with `-repeat`
/// (an opening's two games are not independent), over single games otherwise.
fn sprt_llr(cfg: &Config, t: &Sprt, tally: &Tally) -> f64 {
    if cfg.repeat {
        t.llr_pairs(&tally.paired[0])
    } else {
        t.llr(&tally.pairs[0])
    }
}

fn progress(name: &str, s: &Score) -> String {
    let elo = match (s.elo(), s.elo_error()) {
        (Some(e), Some(err)) if err.is_finite() => format!("Elo {} ± {err:.0}", fmt_elo(e)),
        (Some(e), _) => format!("Elo {}", fmt_elo(e)),
        _ => String::new(),
    };
    format!(
        "{name} {}-{}-{} ({:.1}%) {elo}",
        s.wins,
        s.losses,
        s.draws,
        s.ratio().unwrap_or(0.0) * 100.0
    )
}

#[allow(clippy::too_many_arguments)]
fn record_game(
    cfg: &Config,
    job: &Job,
    g: &GameResult,
    pairs: &[(usize, usize)],
    tally: &mut Tally,
    names: &[&str],
    openings: &[Vec<crate::board::Pos>],
    sgf: &mut Option<File>,
) -> anyhow::Result<()> {
    tally.played += 1;
    let (first, _) = pairs[job.pair];
    let black_score = match g.outcome {
        Outcome::Win(crate::board::Color::Black) => Score::new(1, 0, 0),
        Outcome::Win(_) => Score::new(0, 1, 0),
        Outcome::Draw => Score::new(0, 0, 1),
    };
    let first_score = if job.black == first {
        black_score
    } else {
        black_score.flipped()
    };
    tally.pairs[job.pair] += first_score;
    if let Some(mate) = job.mate {
        let key = job.index.min(mate);
        match tally.halves.remove(&key) {
            Some(other) => tally.paired[job.pair].add(other, first_score),
            None => {
                tally.halves.insert(key, first_score);
            }
        }
    }
    tally.engines[job.black] += black_score;
    tally.engines[job.white] += black_score.flipped();
    if g.forfeit {
        if let Outcome::Win(c) = g.outcome {
            let loser = if c == crate::board::Color::Black {
                job.white
            } else {
                job.black
            };
            let f = &mut tally.faults[loser];
            f.0 += 1;
            if f.1.len() < 3 {
                f.1.push(format!("game {}: {}", job.index + 1, g.reason));
            }
        }
    }
    let opening_len = job.opening.map_or(0, |i| openings[i].len());
    let (bn, wn) = (names[job.black], names[job.white]);
    if let Some(d) = &cfg.psq_dir {
        let path = d.join(format!("game-{:04}.psq", job.index + 1));
        output::write_file(&path, &output::psq_text(cfg.size, cfg.size, g, bn, wn))?;
    }
    if let Some(f) = sgf.as_mut() {
        let text = output::sgf_text(
            cfg.size,
            cfg.size,
            cfg.rule,
            g,
            bn,
            wn,
            job.index + 1,
            opening_len,
        );
        output::append(f, &text)?;
    }
    Ok(())
}

fn print_tables(
    cfg: &Config,
    pairs: &[(usize, usize)],
    names: &[&str],
    tally: &Tally,
    elapsed: Duration,
) {
    println!();
    println!(
        "Results: {} games played in {}, rule {}, board {}x{}",
        tally.played,
        output::hms(elapsed),
        cfg.rule,
        cfg.size,
        cfg.size
    );
    println!("{}", output::score_header());
    for (k, &(a, b)) in pairs.iter().enumerate() {
        let label = format!("{} vs {}", names[a], names[b]);
        println!("{}", output::score_row(&label, &tally.pairs[k]));
    }
    for (k, &(a, b)) in pairs.iter().enumerate() {
        if tally.paired[k].pairs() > 0 {
            let label = format!("{} vs {}", names[a], names[b]);
            println!("{}", output::pairs_row(&label, &tally.paired[k]));
        }
    }
    if names.len() > 2 {
        println!("per engine, against the field:");
        for (k, n) in names.iter().enumerate() {
            println!("{}", output::score_row(n, &tally.engines[k]));
        }
    }
    for (k, (n, reasons)) in tally.faults.iter().enumerate() {
        if *n > 0 {
            println!(
                "{} lost {n} game(s) by a fault: {}",
                names[k],
                reasons.join("; ")
            );
        }
    }
}

/// One worker: takes games from the queue and plays them, keeping the processes of the
/// engines it last used (each gets START again for the next game), restarting any engine that
/// misbehaved, and ending every process when the queue is empty or the arena stops.
fn worker(
    cfg: &Config,
    wi: usize,
    queue: &Mutex<VecDeque<Job>>,
    stop: &AtomicBool,
    log: Option<Arc<IoLog>>,
    openings: &[Vec<crate::board::Pos>],
    tx: mpsc::Sender<(Job, Option<GameResult>)>,
) {
    let tag = format!("w{}", wi + 1);
    let mut procs: Vec<Option<EngineProcess>> = (0..cfg.engines.len()).map(|_| None).collect();
    loop {
        if stop.load(Ordering::SeqCst) || sys::interrupted() {
            break;
        }
        let Some(job) = queue.lock().ok().and_then(|mut q| q.pop_front()) else {
            break;
        };
        // Keep at most the two engines of this game running in this worker.
        for (k, p) in procs.iter_mut().enumerate() {
            if k != job.black && k != job.white {
                *p = None;
            }
        }
        let setup = GameSetup {
            width: cfg.size,
            height: cfg.size,
            rule: cfg.rule,
            opening: job.opening.map_or(&[][..], |i| &openings[i][..]),
            draw_after: cfg.draw_after,
            lenient: cfg.lenient,
        };
        let (pb, pw) = two_mut(&mut procs, job.black, job.white);
        let seats = [
            Seat {
                spec: &cfg.engines[job.black],
                process: pb,
                tag: &tag,
                log: log.clone(),
            },
            Seat {
                spec: &cfg.engines[job.white],
                process: pw,
                tag: &tag,
                log: log.clone(),
            },
        ];
        let res = referee::play_game(&setup, seats, stop);
        match &res {
            Some(g) => {
                if g.faulty[0] {
                    procs[job.black] = None;
                }
                if g.faulty[1] {
                    procs[job.white] = None;
                }
            }
            // Abandoned mid-game: the engines may be thinking; end them now.
            None => procs.iter_mut().for_each(|p| *p = None),
        }
        if tx.send((job, res)).is_err() {
            break;
        }
    }
    // Dropping each process sends END, waits, and kills what is left.
    procs.clear();
}

fn two_mut<T>(v: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    assert_ne!(a, b, "an engine cannot play itself");
    if a < b {
        let (l, r) = v.split_at_mut(b);
        (&mut l[a], &mut r[0])
    } else {
        let (l, r) = v.split_at_mut(a);
        (&mut r[0], &mut l[b])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_mut_returns_the_requested_pair() {
        let mut v = vec![0, 1, 2, 3];
        let (a, b) = two_mut(&mut v, 3, 1);
        assert_eq!((*a, *b), (3, 1));
        *a = 30;
        let (a, b) = two_mut(&mut v, 0, 3);
        assert_eq!((*a, *b), (0, 30));
    }

    #[test]
    fn usage_errors_exit_with_code_2() {
        let args: Vec<String> = ["-engine", "cmd=sh"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(main(&args).unwrap(), EXIT_USAGE);
        assert_eq!(main(&["-help".to_string()]).unwrap(), EXIT_OK);
    }
}
