//! `pbrain-gorin bench`: searches fixed positions to a fixed depth on one thread and prints the
//! node count (a signature of the search, identical on every run) and the speed, then the board
//! micro-benchmark.

use super::{Engine, Limits, TreeStats};
use crate::board::notation::{move_list, parse_move_list, square_name, Rows};
use crate::board::{Board, Rule};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Default search depth of the bench: deep enough that the search, not the fixed-size threat
/// searches at the root, takes most of the time.
pub const BENCH_DEPTH: u32 = 11;

/// Bench positions: rule, board size, moves in pos notation (rows from the top, black first).
pub const POSITIONS: &[(Rule, usize, &str)] = &[
    (Rule::Freestyle, 15, "h8"),
    (Rule::Freestyle, 15, "h8i9g7i7"),
    (Rule::Freestyle, 15, "h8i8h9h7g8i10j9"),
    (Rule::Freestyle, 15, "g7h8i9h9h10g9f10i7"),
    (Rule::Freestyle, 20, "j10k11k10i10l9j9m8"),
    (Rule::Freestyle, 20, "j10k10j11j12i11k9h12"),
    (Rule::Standard, 15, "h8i7g9i9i8g8h7h6"),
    (Rule::Standard, 15, "h8h9i9g7j10k11i8"),
    (Rule::Renju, 15, "h8h9j9i10i8j8g7"),
    (Rule::Renju, 15, "h8i8g9h9i10"),
    (Rule::Renju, 15, "h8h9i9g7g8f9"),
    (Rule::Caro, 15, "h8i9h9h10g8i8f7e6i7"),
    (Rule::Caro, 15, "h8g9i9g7g8"),
    (Rule::Freestyle, 15, "f4i8j10f9l5h7g8i2"),
];

/// Result of one bench run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BenchResult {
    /// Every position visited: the alpha-beta's and the threat solver's.
    pub nodes: u64,
    /// The threat solver's share of `nodes` (root checks, leaf VCF, the final check).
    pub solver_nodes: u64,
    /// The trees' shape (`TreeStats`), as deterministic as the node count.
    pub tree: TreeStats,
    pub seconds: f64,
}

/// Searches every bench position to `depth` with a fresh one-thread engine each.
pub fn run(depth: u32, verbose: bool) -> BenchResult {
    let start = Instant::now();
    let mut nodes = 0;
    let mut solver_nodes = 0;
    let mut tree = TreeStats::default();
    for (i, &(rule, size, moves)) in POSITIONS.iter().enumerate() {
        let list = parse_move_list(moves, size, size, Rows::FromTop).expect("bench move list");
        let board = Board::from_moves(size, size, rule, &list).expect("bench position");
        let mut engine = Engine::new();
        engine.set_memory(64 << 20);
        let limits = Limits {
            max_depth: Some(depth),
            ..Limits::default()
        };
        let stop = AtomicBool::new(false);
        let t = Instant::now();
        let r = engine
            .think(&board, &limits, &stop, &mut |_| {})
            .expect("bench position has empty squares");
        nodes += r.nodes;
        solver_nodes += engine.solver_visits();
        tree.add(&engine.tree_stats());
        if verbose {
            println!(
                "bench {:2}: {:9} {:2}x{:<2} {:24} best {:5} score {:6} depth {:2} nodes {:9} {:6.0} ms",
                i + 1,
                rule.to_string(),
                size,
                size,
                moves,
                r.best.to_string(),
                r.score,
                r.depth,
                r.nodes,
                t.elapsed().as_secs_f64() * 1e3
            );
        }
    }
    BenchResult {
        nodes,
        solver_nodes,
        tree,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// Searches each opening of a file (pos notation, one a line, freestyle 15x15) for `ms`
/// milliseconds of wall time on one thread and prints the depth reached. With `as_turn` the
/// time is given as the protocol's turn limit, so the engine's own time management (reserve,
/// soft limit, threat-check shares) applies as in a game; otherwise the engine gets a distant
/// turn limit and a stop flag ends it after `ms`.
pub fn depth_in_time(path: &str, ms: u64, threads: usize, as_turn: bool) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("cannot read openings file '{path}': {e}"))?;
    let mut depths = Vec::new();
    let mut nodes = 0u64;
    let start = Instant::now();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let list = parse_move_list(line, 15, 15, Rows::FromTop)
            .map_err(|e| anyhow::anyhow!("opening '{line}': {e}"))?;
        let board = Board::from_moves(15, 15, Rule::Freestyle, &list)
            .map_err(|e| anyhow::anyhow!("opening '{line}': {e}"))?;
        let mut engine = Engine::new();
        engine.set_threads(threads);
        let limits = Limits {
            turn_ms: Some(if as_turn { ms } else { 600_000 }),
            ..Limits::default()
        };
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let s2 = stop.clone();
        let timer = std::thread::spawn(move || {
            if !as_turn {
                std::thread::sleep(std::time::Duration::from_millis(ms));
                s2.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        });
        let r = engine
            .think(&board, &limits, &stop, &mut |_| {})
            .ok_or_else(|| anyhow::anyhow!("opening '{line}' has no empty square"))?;
        timer.join().ok();
        println!(
            "{line:24} best {:6} score {:6} depth {:2} nodes {}",
            r.best.to_string(),
            r.score,
            r.depth,
            r.nodes
        );
        depths.push(r.depth);
        nodes += r.nodes;
    }
    let n = depths.len().max(1) as f64;
    println!(
        "depth in {ms} ms: average {:.2}, min {}, max {} over {} positions; {:.0} nodes/s",
        depths.iter().sum::<u32>() as f64 / n,
        depths.iter().min().unwrap_or(&0),
        depths.iter().max().unwrap_or(&0),
        depths.len(),
        nodes as f64 / start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Thinks on one midgame position for `ms` with a memory limit of `mb` megabytes (MiB) and
/// `threads` threads: for measuring peak memory (`/usr/bin/time -v`) and speed.
pub fn think_once(ms: u64, mb: u64, threads: usize) -> anyhow::Result<()> {
    let list = parse_move_list("h8i9g7i7h9h10j8", 15, 15, Rows::FromTop)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let board = Board::from_moves(15, 15, Rule::Freestyle, &list)?;
    let mut engine = Engine::new();
    engine.set_memory(mb << 20);
    engine.set_threads(threads);
    let limits = Limits {
        turn_ms: Some(ms),
        ..Limits::default()
    };
    let t = Instant::now();
    let r = engine
        .think(&board, &limits, &AtomicBool::new(false), &mut |_| {})
        .ok_or_else(|| anyhow::anyhow!("no move"))?;
    let secs = t.elapsed().as_secs_f64();
    println!(
        "think: {} ms limit, {} MiB memory ({} MiB table), {} threads: best {} score {} depth {} nodes {} in {:.0} ms, {:.0} nodes/s",
        ms,
        mb,
        engine.tt_bytes() >> 20,
        threads,
        r.best,
        r.score,
        r.depth,
        r.nodes,
        secs * 1e3,
        r.nodes as f64 / secs
    );
    Ok(())
}

/// Searches every learning position (`tune --choices`) of every `every`-th game in DIR (the
/// fifth that `tune --choices` holds out, by default) to `nodes` nodes on one thread and prints
/// how often the engine plays the game's move: with a strong engine's games, a quick measure
/// of move quality. With `list` it also prints each position (`MOVES<TAB>GAME'S MOVE<TAB>
/// ENGINE'S MOVE`, pos notation), for measuring other engines on the same positions.
pub fn agreement(dir: &str, nodes: u64, every: usize, list: bool) -> anyhow::Result<()> {
    use crate::eval::tune::{choice::choices_of, load_records};
    let records = load_records(std::path::Path::new(dir))?;
    let (mut same, mut total) = (0usize, 0usize);
    let mut engine = Engine::new();
    engine.set_memory(16 << 20);
    let limits = Limits {
        max_nodes: Some(nodes),
        ..Limits::default()
    };
    let start = Instant::now();
    for (_, rec) in records.iter().step_by(every.max(1)) {
        for (board, played) in choices_of(rec)? {
            engine.clear();
            let stop = AtomicBool::new(false);
            if let Some(r) = engine.think(&board, &limits, &stop, &mut |_| {}) {
                total += 1;
                same += (r.best == played) as usize;
                if list {
                    let name = |p| square_name(p, board.height(), Rows::FromTop);
                    println!("{}\t{}\t{}", move_list(&board), name(played), name(r.best));
                }
            }
        }
    }
    println!(
        "agreement at {nodes} nodes: {same} of {total} positions ({:.1} %) from {} games, {:.0} s",
        100.0 * same as f64 / total.max(1) as f64,
        records.len().div_ceil(every.max(1)),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Prints the trees' shape: a move order that finds the cutting move sooner shows as more cuts on
/// the first move.
fn print_tree(t: &TreeStats) {
    let pct = |a: u64, b: u64| 100.0 * a as f64 / b.max(1) as f64;
    let with_moves = t.nodes[0] + t.nodes[1];
    for (k, what) in ["quiet", "defence"].iter().enumerate() {
        let c = t.cuts[k];
        let cut = c[0] + c[1] + c[2];
        println!(
            "bench: {what} nodes {} ({:.1} %), cut {:.1} %: by the first move {:.1} %, the second or third {:.1} %, a later one {:.1} %",
            t.nodes[k],
            pct(t.nodes[k], with_moves),
            pct(cut, t.nodes[k]),
            pct(c[0], cut),
            pct(c[1], cut),
            pct(c[2], cut)
        );
    }
    println!(
        "bench: leaves {}, {:.1} % of them below the horizon (the quiescence's answers to threats)",
        t.leaves,
        pct(t.below_horizon, t.leaves)
    );
}

/// Entry point of `pbrain-gorin bench [depth]`, `pbrain-gorin bench openings FILE [ms]
/// [threads] [turn]`, `pbrain-gorin bench think MS [memory MiB] [threads]` and
/// `pbrain-gorin bench agree DIR [nodes] [every] [list]`.
pub fn main(args: &[String]) -> anyhow::Result<()> {
    if args.first().map(String::as_str) == Some("think") {
        let ms = args.get(1).map_or(Ok(5000), |s| s.parse::<u64>())?;
        let mb = args.get(2).map_or(Ok(350), |s| s.parse::<u64>())?;
        let threads = args.get(3).map_or(Ok(1), |s| s.parse::<usize>())?;
        return think_once(ms, mb, threads);
    }
    if args.first().map(String::as_str) == Some("agree") {
        let dir = args.get(1).ok_or_else(|| {
            anyhow::anyhow!("usage: pbrain-gorin bench agree DIR [nodes] [every] [list]")
        })?;
        let nodes = args.get(2).map_or(Ok(100_000), |s| s.parse::<u64>())?;
        let every = args.get(3).map_or(Ok(5), |s| s.parse::<usize>())?;
        let list = args.get(4).map(String::as_str) == Some("list");
        return agreement(dir, nodes, every, list);
    }
    if args.first().map(String::as_str) == Some("openings") {
        let path = args.get(1).ok_or_else(|| {
            anyhow::anyhow!("usage: pbrain-gorin bench openings FILE [ms] [threads] [turn]")
        })?;
        let ms = args.get(2).map_or(Ok(1000), |s| s.parse::<u64>())?;
        let threads = args.get(3).map_or(Ok(1), |s| s.parse::<usize>())?;
        let as_turn = args.get(4).map(String::as_str) == Some("turn");
        return depth_in_time(path, ms, threads, as_turn);
    }
    let depth = match args.first() {
        Some(d) => d
            .parse::<u32>()
            .map_err(|_| anyhow::anyhow!("bench depth '{d}' is not a number"))?
            .clamp(1, 60),
        None => BENCH_DEPTH,
    };
    // Board figures first: the table build time is only meaningful in a cold process.
    for line in crate::board::bench::report(300) {
        println!("{line}");
    }
    let r = run(depth, true);
    println!("bench: depth {depth}, {} positions", POSITIONS.len());
    println!(
        "bench: total nodes {} (alpha-beta {}, threat solver {})",
        r.nodes,
        r.nodes - r.solver_nodes,
        r.solver_nodes
    );
    print_tree(&r.tree);
    let secs = r.seconds.max(1e-9);
    println!(
        "bench: time {:.0} ms, {:.0} nodes/s (alpha-beta alone {:.0} nodes/s)",
        r.seconds * 1e3,
        r.nodes as f64 / secs,
        (r.nodes - r.solver_nodes) as f64 / secs
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_count_is_reproducible() {
        let a = run(5, false);
        let b = run(5, false);
        assert!(a.nodes > 1000, "bench searched only {} nodes", a.nodes);
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.solver_nodes, b.solver_nodes);
        assert!(a.solver_nodes < a.nodes);
        // The tree's shape is as deterministic, and its counts fit together: no more cuts than
        // nodes of each kind, and both kinds present on the bench.
        assert_eq!(a.tree, b.tree);
        for k in 0..2 {
            let cuts: u64 = a.tree.cuts[k].iter().sum();
            assert!(a.tree.nodes[k] > 0, "no nodes of kind {k}");
            assert!(cuts > 0 && cuts <= a.tree.nodes[k], "{:?}", a.tree);
        }
        assert!(a.tree.below_horizon <= a.tree.leaves);
        assert!(a.tree.nodes[0] + a.tree.nodes[1] < a.nodes);
    }
}
