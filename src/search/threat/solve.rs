//! `pbrain-gorin solve`: reads a position (pos-notation move list, PSQ file, or renju-notation
//! stone lists), runs the VCF or VCT solver and prints the answer; `--tsv` solves every row of a
//! puzzle table and verifies each claimed line by replaying it (see `verify`).

use super::verify::{verify_line, LineKind};
use super::{Proof, Solver, ThreatLimits};
use crate::board::notation::{parse_move_list, square_name, Rows};
use crate::board::{Board, Color, Pos, Rule};
use anyhow::{anyhow, bail, Context, Result};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

const HELP: &str = "usage: pbrain-gorin solve [POSITION] [OPTIONS]
position (one of):
  MOVES               pos-notation move list from black, e.g. h8i9h7 (row 1 = top)
  --psq FILE          a Piskvork PSQ game record
  --black LIST --white LIST
                      renju-notation stones, e.g. H8,I9 (row 1 = bottom)
options:
  --rule NAME|CODE    freestyle (0), standard (1), renju (4), caro (8), caro5 (9); default freestyle
  --size N | WxH      board size (default 15; a PSQ file gives its own)
  --side black|white  side to move (default: from the stone counts)
  --kind vcf|vct      what to look for (default vcf)
  --depth N           at most N attacker moves, the five included (default: unbounded)
  --nodes N           node limit
  --time MS           time limit in milliseconds
  --algo dfs|pns|dfpn VCT by iterative-deepening depth-first search (default), proof-number
                      search, or depth-first proof-number search alone
batch:
  --tsv FILE          solve every row of a puzzle table (columns file, index, rule, side_to_move,
                      task, black_stones, white_stones, ...; optional max_depth); VCF rows use
                      the VCF solver, others VCT; every claimed line is verified by replay
  --task T            only rows whose task is T (VCF, VCT, VCT3, ...)
  --only-side B|W     only rows with this side to move
  --rule R            override the rule column
  --time MS           per-row time cap (default 10000)
  --verbose           one line per row";

/// Proof-number tree size for the command line (about 80 MB).
const PNS_TREE: usize = 4_000_000;
/// Hash table of the solve command: 2^22 entries (48 MiB) under a node limit below 4M (the
/// engine's sizes of search), else 2^24 (192 MiB): a 10 s deepening overwrites the smaller one
/// (measured: 14 % fewer nodes to solve a deep puzzle).
fn table_bits(o: &Opts) -> u32 {
    match o.nodes {
        Some(n) if n < 4_000_000 => 22,
        _ => 24,
    }
}

/// df-pn table of the solve command: 2^22 entries (96 MiB); a 10 s search fills 2^20 (measured:
/// one more hard VCT row at 3M nodes).
const SOLVE_DFPN_BITS: u32 = 22;

#[derive(Default)]
struct Opts {
    moves: Option<String>,
    psq: Option<String>,
    black: Option<String>,
    white: Option<String>,
    rule: Option<Rule>,
    size: Option<(usize, usize)>,
    side: Option<Color>,
    kind: Option<String>,
    depth: Option<u32>,
    nodes: Option<u64>,
    time_ms: Option<u64>,
    tsv: Option<String>,
    task: Option<String>,
    only_side: Option<Color>,
    verbose: bool,
    pns: bool,
    dfpn: bool,
}

fn parse_color(s: &str) -> Result<Color> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" | "x" => Ok(Color::Black),
        "w" | "white" | "o" => Ok(Color::White),
        _ => bail!("unknown side '{s}' (use black or white)"),
    }
}

fn parse_rule(s: &str) -> Result<Rule> {
    if let Ok(code) = s.parse::<i64>() {
        return Rule::from_code(code).map_err(|e| anyhow!("{e}"));
    }
    s.parse::<Rule>().map_err(|e| anyhow!("{e}"))
}

fn parse_size(s: &str) -> Result<(usize, usize)> {
    let (w, h) = match s.split_once(['x', 'X']) {
        Some((w, h)) => (w, h),
        None => (s, s),
    };
    let w: usize = w
        .trim()
        .parse()
        .with_context(|| format!("bad size '{s}'"))?;
    let h: usize = h
        .trim()
        .parse()
        .with_context(|| format!("bad size '{s}'"))?;
    Ok((w, h))
}

fn parse_args(args: &[String]) -> Result<Option<Opts>> {
    let mut o = Opts::default();
    let mut i = 0;
    let val = |i: &mut usize, name: &str| -> Result<String> {
        *i += 1;
        args.get(*i)
            .cloned()
            .ok_or_else(|| anyhow!("{name} needs a value"))
    };
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "-h" | "--help" => return Ok(None),
            "--psq" => o.psq = Some(val(&mut i, a)?),
            "--black" => o.black = Some(val(&mut i, a)?),
            "--white" => o.white = Some(val(&mut i, a)?),
            "--moves" => o.moves = Some(val(&mut i, a)?),
            "--rule" => o.rule = Some(parse_rule(&val(&mut i, a)?)?),
            "--size" => o.size = Some(parse_size(&val(&mut i, a)?)?),
            "--side" => o.side = Some(parse_color(&val(&mut i, a)?)?),
            "--kind" => o.kind = Some(val(&mut i, a)?.to_ascii_lowercase()),
            "--depth" => o.depth = Some(val(&mut i, a)?.parse().context("bad --depth")?),
            "--nodes" => o.nodes = Some(val(&mut i, a)?.parse().context("bad --nodes")?),
            "--time" => o.time_ms = Some(val(&mut i, a)?.parse().context("bad --time")?),
            "--tsv" => o.tsv = Some(val(&mut i, a)?),
            "--task" => o.task = Some(val(&mut i, a)?),
            "--only-side" => o.only_side = Some(parse_color(&val(&mut i, a)?)?),
            "--verbose" | "-v" => o.verbose = true,
            "--algo" => match val(&mut i, a)?.as_str() {
                "pns" => o.pns = true,
                "dfpn" => o.dfpn = true,
                "dfs" => o.pns = false,
                other => bail!("--algo must be dfs, pns or dfpn, not '{other}'"),
            },
            _ if a.starts_with('-') => {
                bail!("unknown option '{a}' (see pbrain-gorin solve --help)")
            }
            _ => {
                if o.moves.is_some() {
                    bail!("more than one move list given");
                }
                o.moves = Some(a.to_string());
            }
        }
        i += 1;
    }
    if let Some(k) = &o.kind {
        if k != "vcf" && k != "vct" {
            bail!("--kind must be vcf or vct, not '{k}'");
        }
    }
    Ok(Some(o))
}

/// Board from renju-notation stone lists; the side to move defaults to black when the counts
/// are equal.
fn board_from_stones(
    w: usize,
    h: usize,
    rule: Rule,
    black: &str,
    white: &str,
    side: Option<Color>,
) -> Result<Board> {
    let mut b = Board::new(w, h, rule)?;
    let bl = parse_move_list(black, w, h, Rows::FromBottom).map_err(|e| anyhow!("{e}"))?;
    let wl = parse_move_list(white, w, h, Rows::FromBottom).map_err(|e| anyhow!("{e}"))?;
    // Interleave so the history looks like a game (the board does not require it).
    let n = bl.len().max(wl.len());
    for k in 0..n {
        if let Some(&p) = bl.get(k) {
            b.place(p, Color::Black)
                .map_err(|e| anyhow!("black {}: {e}", square_name(p, h, Rows::FromBottom)))?;
        }
        if let Some(&p) = wl.get(k) {
            b.place(p, Color::White)
                .map_err(|e| anyhow!("white {}: {e}", square_name(p, h, Rows::FromBottom)))?;
        }
    }
    let default = if bl.len() > wl.len() {
        Color::White
    } else {
        Color::Black
    };
    b.set_side_to_move(side.unwrap_or(default));
    Ok(b)
}

/// Reads a PSQ record: a header with the size, then `x,y,time` lines (1-based).
fn board_from_psq(text: &str, rule: Rule, size: Option<(usize, usize)>) -> Result<Board> {
    let mut lines = text.lines();
    let header = lines.next().ok_or_else(|| anyhow!("empty PSQ file"))?;
    let mut dims = size.unwrap_or((20, 20));
    if let Some(rest) = header.split_whitespace().nth(1) {
        let rest = rest.trim_end_matches(',');
        if let Ok(d) = parse_size(rest) {
            dims = d;
        }
    }
    let mut b = Board::new(dims.0, dims.1, rule)?;
    for line in lines {
        let f: Vec<&str> = line.trim().split(',').collect();
        if f.len() < 2 {
            break;
        }
        let (Ok(x), Ok(y)) = (f[0].trim().parse::<i64>(), f[1].trim().parse::<i64>()) else {
            break;
        };
        let p = b.pos(x - 1, y - 1)?;
        b.play(p)?;
    }
    Ok(b)
}

fn limits(o: &Opts, default_ms: Option<u64>) -> ThreatLimits {
    ThreatLimits {
        max_nodes: o.nodes.unwrap_or(u64::MAX),
        deadline: o
            .time_ms
            .or(default_ms)
            .map(|ms| Instant::now() + Duration::from_millis(ms)),
    }
}

fn run(
    solver: &mut Solver,
    b: &mut Board,
    vct: bool,
    depth: Option<u32>,
    l: &ThreatLimits,
    (pns, dfpn): (bool, bool),
) -> Proof {
    let stop = AtomicBool::new(false);
    match (vct, depth) {
        (true, None) if pns => solver.vct_pns(b, l, &stop, PNS_TREE),
        (true, None) if dfpn => solver.vct_dfpn(b, l, &stop),
        (false, None) => solver.vcf(b, l),
        (false, Some(d)) => solver.vcf_depth(b, l, d),
        (true, None) => solver.vct(b, l, &stop),
        (true, Some(d)) => solver.vct_depth(b, l, &stop, d),
    }
}

/// Entry point of `pbrain-gorin solve`.
pub fn solve_main(args: &[String]) -> Result<()> {
    let Some(o) = parse_args(args)? else {
        println!("{HELP}");
        return Ok(());
    };
    if let Some(path) = &o.tsv {
        return batch(&o, path);
    }
    let rule = o.rule.unwrap_or(Rule::Freestyle);
    let (w, h) = o.size.unwrap_or((15, 15));
    let rows;
    let mut b = if let Some(path) = &o.psq {
        rows = Rows::FromTop;
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
        board_from_psq(&text, rule, o.size)?
    } else if o.black.is_some() || o.white.is_some() {
        rows = Rows::FromBottom;
        let black = o.black.as_deref().unwrap_or("");
        let white = o.white.as_deref().unwrap_or("");
        board_from_stones(w, h, rule, black, white, o.side)?
    } else if let Some(m) = &o.moves {
        rows = Rows::FromTop;
        let list = parse_move_list(m, w, h, Rows::FromTop).map_err(|e| anyhow!("{e}"))?;
        Board::from_moves(w, h, rule, &list)?
    } else {
        bail!("no position given (a move list, --psq FILE or --black/--white; see --help)");
    };
    if let Some(s) = o.side {
        b.set_side_to_move(s);
    }
    let vct = o.kind.as_deref() == Some("vct");
    let mut solver = Solver::with_table_bits(table_bits(&o));
    solver.set_dfpn_table_bits(SOLVE_DFPN_BITS);
    let l = limits(&o, None);
    let start = Instant::now();
    let proof = run(&mut solver, &mut b, vct, o.depth, &l, (o.pns, o.dfpn));
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let kind = if vct { "vct" } else { "vcf" };
    println!("side: {}", b.side_to_move());
    match &proof {
        Proof::Win(line) => {
            let names: Vec<String> = line.iter().map(|&p| square_name(p, h, rows)).collect();
            let lk = if vct { LineKind::Vct } else { LineKind::Vcf };
            let verdict = match verify_line(&b, line, lk) {
                Ok(n) => format!("yes ({n} attacker moves)"),
                Err(e) => format!("NO: {e}"),
            };
            println!("result: win ({kind})");
            println!("line: {}", names.join(" "));
            println!("verified: {verdict}");
        }
        Proof::NoWin => println!("result: no {kind} win"),
        Proof::Unknown => println!("result: unknown (limit reached)"),
    }
    println!("nodes: {}", solver.nodes());
    println!("time_ms: {ms:.3}");
    Ok(())
}

struct Stat {
    task: String,
    total: usize,
    solved: usize,
    bad: usize,
    times: Vec<f64>,
    depth_fail: usize,
}

fn batch(o: &Opts, path: &str) -> Result<()> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {path}"))?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines
        .next()
        .ok_or_else(|| anyhow!("{path} is empty"))?
        .split('\t')
        .collect();
    let col = |name: &str| header.iter().position(|&h| h == name);
    let need = |name: &str| col(name).ok_or_else(|| anyhow!("{path}: no '{name}' column"));
    let (c_file, c_idx, c_rule, c_side, c_task, c_black, c_white) = (
        need("file")?,
        need("index")?,
        need("rule")?,
        need("side_to_move")?,
        need("task")?,
        need("black_stones")?,
        need("white_stones")?,
    );
    let c_depth = col("max_depth");
    let c_expect = col("expect");
    let (w, h) = o.size.unwrap_or((15, 15));
    let mut solver = Solver::with_table_bits(table_bits(o));
    solver.set_dfpn_table_bits(SOLVE_DFPN_BITS);
    let mut stats: Vec<Stat> = Vec::new();
    let cap = o.time_ms.unwrap_or(10_000);
    for (n, line) in lines.enumerate() {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < header.len().min(7) {
            continue;
        }
        let task = f[c_task].to_string();
        if o.task.as_deref().is_some_and(|t| t != task) {
            continue;
        }
        let side = parse_color(f[c_side])?;
        if o.only_side.is_some_and(|s| s != side) {
            continue;
        }
        let rule = match o.rule {
            Some(r) => r,
            None => parse_rule(f[c_rule])?,
        };
        let mut b = board_from_stones(w, h, rule, f[c_black], f[c_white], Some(side))
            .with_context(|| format!("{path} row {}", n + 2))?;
        let depth: Option<u32> = match c_depth.and_then(|c| f.get(c)) {
            Some(s) if !s.is_empty() => Some(s.parse().context("bad max_depth")?),
            _ => None,
        };
        let vct = task != "VCF";
        solver.clear();
        let l = ThreatLimits {
            max_nodes: o.nodes.unwrap_or(u64::MAX),
            deadline: Some(Instant::now() + Duration::from_millis(cap)),
        };
        let start = Instant::now();
        let proof = run(&mut solver, &mut b, vct, depth, &l, (o.pns, o.dfpn));
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        let si = match stats.iter().position(|s| s.task == task) {
            Some(i) => i,
            None => {
                stats.push(Stat {
                    task: task.clone(),
                    total: 0,
                    solved: 0,
                    bad: 0,
                    times: Vec::new(),
                    depth_fail: 0,
                });
                stats.len() - 1
            }
        };
        let st = &mut stats[si];
        st.total += 1;
        st.times.push(ms);
        let expect_nowin = c_expect.and_then(|c| f.get(c)) == Some(&"nowin");
        let (verdict, shown) = match &proof {
            Proof::NoWin if expect_nowin => {
                st.solved += 1;
                ("nowin-as-expected".to_string(), Vec::new())
            }
            Proof::Win(l) if expect_nowin => {
                let why = match verify_line(&b, l, LineKind::Vct) {
                    Ok(_) => "unexpected-win".to_string(),
                    Err(e) => {
                        st.bad += 1;
                        println!("BAD LINE {} #{}: {e}", f[c_file], f[c_idx]);
                        "BAD".to_string()
                    }
                };
                (why, l.clone())
            }
            Proof::Win(l) => {
                let lk = if vct { LineKind::Vct } else { LineKind::Vcf };
                match verify_line(&b, l, lk) {
                    Ok(moves) => {
                        if depth.is_some_and(|d| moves as u32 > d) {
                            st.depth_fail += 1;
                            ("too-deep".to_string(), l.clone())
                        } else {
                            st.solved += 1;
                            ("win".to_string(), l.clone())
                        }
                    }
                    Err(e) => {
                        st.bad += 1;
                        println!("BAD LINE {} #{}: {e}", f[c_file], f[c_idx]);
                        ("BAD".to_string(), l.clone())
                    }
                }
            }
            Proof::NoWin => ("nowin".to_string(), Vec::new()),
            Proof::Unknown => ("unknown".to_string(), Vec::new()),
        };
        if o.verbose || !(verdict == "win" || verdict == "nowin-as-expected") {
            let names: Vec<String> = shown
                .iter()
                .map(|&p: &Pos| square_name(p, h, Rows::FromBottom))
                .collect();
            println!(
                "{}\t{}\t{}\t{}\t{}\t{:.2}ms\t{} nodes\t{}",
                f[c_file],
                f[c_idx],
                task,
                f[c_side],
                verdict,
                ms,
                solver.nodes(),
                names.join(",")
            );
        }
    }
    println!("task\trows\tsolved\trate\tbad_lines\tmedian_ms\tmax_ms");
    let mut all_bad = 0;
    for s in &mut stats {
        s.times.sort_by(|a, b| a.total_cmp(b));
        let med = if s.times.is_empty() {
            0.0
        } else {
            s.times[s.times.len() / 2]
        };
        let max = s.times.last().copied().unwrap_or(0.0);
        all_bad += s.bad;
        println!(
            "{}\t{}\t{}\t{:.1}%\t{}\t{:.3}\t{:.1}{}",
            s.task,
            s.total,
            s.solved,
            100.0 * s.solved as f64 / s.total.max(1) as f64,
            s.bad,
            med,
            max,
            if s.depth_fail > 0 {
                format!("\t({} found only deeper than max_depth)", s.depth_fail)
            } else {
                String::new()
            }
        );
    }
    if all_bad > 0 {
        bail!("{all_bad} claimed lines failed verification");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_positions_in_each_form() {
        let b = board_from_stones(15, 15, Rule::Renju, "H8,I9", "A1", None).unwrap();
        assert_eq!(b.stone(Pos::new(7, 7)), Some(Color::Black));
        assert_eq!(b.stone(Pos::new(0, 14)), Some(Color::White));
        assert_eq!(b.side_to_move(), Color::White);
        assert!(board_from_stones(15, 15, Rule::Renju, "H8", "H8", None).is_err());
        assert!(board_from_stones(15, 15, Rule::Renju, "Z99", "", None).is_err());
        let psq = "Piskvork 15x15, 11:11, 0\n8,8,0\n9,9,0\n-1\n";
        let b = board_from_psq(psq, Rule::Freestyle, None).unwrap();
        assert_eq!((b.width(), b.move_count()), (15, 2));
        assert_eq!(b.stone(Pos::new(8, 8)), Some(Color::White));
        assert!(parse_args(&["--kind".into(), "vcx".into()]).is_err());
        assert!(parse_args(&["--nodes".into()]).is_err());
        assert_eq!(parse_size("20").unwrap(), (20, 20));
        assert!(parse_rule("renju").is_ok() && parse_rule("4").is_ok());
    }
}
