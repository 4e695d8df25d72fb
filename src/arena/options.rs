//! The command line, in the spirit of c-gomoku-cli: `-engine key=value ...` per engine,
//! `-each ...` for all of them, and tournament options. Parsing only; nothing is started here.

use super::engine::Launch;
use super::openings::{Format, OpeningSpec, Order};
use super::referee::{EngineSpec, TimeControl};
use super::stats::Sprt;
use crate::board::{Rule, MAX_SIZE, MIN_SIZE};
use anyhow::{anyhow, bail, Context};
use std::path::PathBuf;
use std::time::Duration;

/// Default `INFO max_memory`: 350 MiB, as Gomocup, GomocupJudge and c-gomoku-cli.
pub const DEFAULT_MEMORY: u64 = 367_001_600;

/// Everything the arena was asked to do.
#[derive(Clone, Debug)]
pub struct Config {
    pub engines: Vec<EngineSpec>,
    pub rule: Rule,
    pub size: usize,
    pub games: usize,
    pub rounds: usize,
    pub gauntlet: bool,
    pub repeat: bool,
    pub concurrency: usize,
    /// Draw when this many stones are on the board (0: off).
    pub draw_after: usize,
    pub openings: Option<OpeningSpec>,
    pub sprt: Option<Sprt>,
    /// Folder for one PSQ file per game.
    pub psq_dir: Option<PathBuf>,
    /// File collecting every game as SGF.
    pub sgf: Option<PathBuf>,
    /// File for the timestamped I/O log.
    pub log: Option<PathBuf>,
    /// Skip non-move lines (ERROR/UNKNOWN included) instead of scoring them as a loss.
    pub lenient: bool,
}

/// What the command line asks for.
#[derive(Clone, Debug)]
pub enum Parsed {
    Run(Box<Config>),
    Help,
}

/// Engine options as given, before the `-each` defaults are merged in.
type RawEngine = Vec<(String, String)>;

/// Parses the arguments (without the program name).
pub fn parse(args: &[String]) -> anyhow::Result<Parsed> {
    let mut raw_engines: Vec<RawEngine> = Vec::new();
    let mut each: RawEngine = Vec::new();
    let mut cfg = Config {
        engines: Vec::new(),
        rule: Rule::Freestyle,
        size: 15,
        games: 2,
        rounds: 1,
        gauntlet: false,
        repeat: false,
        concurrency: 1,
        draw_after: 0,
        openings: None,
        sprt: None,
        psq_dir: None,
        sgf: None,
        log: None,
        lenient: false,
    };
    let mut i = 0;
    // Values after an option: every following argument that is not itself an option.
    let take_kv = |i: &mut usize| -> Vec<String> {
        let mut v = Vec::new();
        while *i < args.len() && !is_option(&args[*i]) {
            v.push(args[*i].clone());
            *i += 1;
        }
        v
    };
    while i < args.len() {
        let opt = args[i].trim_start_matches('-').to_string();
        if !is_option(&args[i]) {
            bail!("unexpected argument '{}' (options start with '-')", args[i]);
        }
        i += 1;
        let one = |i: &mut usize| -> anyhow::Result<String> {
            let v = args
                .get(*i)
                .filter(|a| !is_option(a))
                .cloned()
                .ok_or_else(|| anyhow!("-{opt} needs a value"))?;
            *i += 1;
            Ok(v)
        };
        match opt.as_str() {
            "h" | "help" => return Ok(Parsed::Help),
            "engine" => raw_engines.push(key_values(&take_kv(&mut i), "-engine")?),
            "each" => each.extend(key_values(&take_kv(&mut i), "-each")?),
            "rule" => {
                let v = one(&mut i)?;
                cfg.rule = v.parse::<Rule>().map_err(|e| anyhow!("-rule: {e}"))?;
            }
            "boardsize" => cfg.size = number(&one(&mut i)?, "-boardsize")?,
            "games" => cfg.games = number(&one(&mut i)?, "-games")?,
            "rounds" => cfg.rounds = number(&one(&mut i)?, "-rounds")?,
            "concurrency" | "j" => cfg.concurrency = number(&one(&mut i)?, "-concurrency")?,
            "drawafter" => cfg.draw_after = number(&one(&mut i)?, "-drawafter")?,
            "gauntlet" => cfg.gauntlet = true,
            "repeat" => cfg.repeat = true,
            "lenient" => cfg.lenient = true,
            "psq" => cfg.psq_dir = Some(PathBuf::from(one(&mut i)?)),
            "sgf" => cfg.sgf = Some(PathBuf::from(one(&mut i)?)),
            "log" => cfg.log = Some(PathBuf::from(one(&mut i)?)),
            "openings" => {
                cfg.openings = Some(openings(&key_values(&take_kv(&mut i), "-openings")?)?)
            }
            "sprt" => cfg.sprt = Some(sprt(&key_values(&take_kv(&mut i), "-sprt")?)?),
            _ => bail!("unknown option -{opt} (gorin-arena -help lists them)"),
        }
    }
    if !(MIN_SIZE..=MAX_SIZE).contains(&cfg.size) {
        bail!("-boardsize must be {MIN_SIZE}..={MAX_SIZE}");
    }
    if cfg.games == 0 || cfg.rounds == 0 || cfg.concurrency == 0 {
        bail!("-games, -rounds and -concurrency must be at least 1");
    }
    if raw_engines.len() < 2 {
        bail!("at least two -engine are needed");
    }
    for (k, raw) in raw_engines.iter().enumerate() {
        // -each gives defaults; an engine's own keys win.
        let mut merged = each.clone();
        merged.extend(raw.iter().cloned());
        cfg.engines.push(engine(&merged, k + 1)?);
    }
    let mut names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
    names.sort();
    names.dedup();
    if names.len() != cfg.engines.len() {
        // Same program twice: number the names so the tables can tell them apart.
        for (k, e) in cfg.engines.iter_mut().enumerate() {
            e.name = format!("{}#{}", e.name, k + 1);
        }
    }
    if let Some(s) = &cfg.sprt {
        s.validate().map_err(|e| anyhow!(e))?;
        if cfg.engines.len() != 2 {
            bail!("-sprt needs exactly two engines");
        }
    }
    Ok(Parsed::Run(Box::new(cfg)))
}

fn is_option(a: &str) -> bool {
    // "-3" is a number (a negative value), not an option.
    a.len() > 1
        && a.starts_with('-')
        && !a[1..].starts_with(|c: char| c.is_ascii_digit() || c == '.')
}

fn key_values(words: &[String], opt: &str) -> anyhow::Result<Vec<(String, String)>> {
    words
        .iter()
        .map(|w| {
            w.split_once('=')
                .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.to_string()))
                .ok_or_else(|| anyhow!("{opt}: '{w}' is not key=value"))
        })
        .collect()
}

fn number<T: std::str::FromStr>(v: &str, what: &str) -> anyhow::Result<T> {
    v.trim()
        .parse()
        .map_err(|_| anyhow!("{what}: '{v}' is not a valid number"))
}

fn seconds(v: &str, what: &str) -> anyhow::Result<u64> {
    let s: f64 = number(v, what)?;
    if !(0.0..=1e7).contains(&s) {
        bail!("{what}: '{v}' seconds is out of range");
    }
    Ok((s * 1000.0).round() as u64)
}

/// `tc=M/T+I` in seconds, as c-gomoku-cli: M per game (0 = no match limit), T per move, I added
/// after each move; `tc=T` alone sets both M and T to T... as c-gomoku-cli does.
pub fn parse_tc(v: &str) -> anyhow::Result<TimeControl> {
    let (main, inc) = match v.split_once('+') {
        Some((m, i)) => (m, seconds(i, "tc increment")?),
        None => (v, 0),
    };
    let (m, t) = match main.split_once('/') {
        Some((m, t)) => (seconds(m, "tc")?, seconds(t, "tc")?),
        None => {
            let x = seconds(main, "tc")?;
            (x, x)
        }
    };
    Ok(TimeControl {
        match_ms: m,
        turn_ms: t,
        increment_ms: inc,
    })
}

fn engine(kv: &[(String, String)], k: usize) -> anyhow::Result<EngineSpec> {
    let mut cmd = None;
    let mut name = None;
    let mut spec = EngineSpec {
        name: String::new(),
        launch: Launch {
            program: PathBuf::new(),
            args: Vec::new(),
            dir: None,
        },
        tc: TimeControl {
            match_ms: 0,
            turn_ms: 5000,
            increment_ms: 0,
        },
        tolerance: Duration::from_millis(1000),
        start_timeout: Duration::from_millis(5000),
        max_memory: DEFAULT_MEMORY,
        threads: None,
        depth: None,
        nodes: None,
        options: Vec::new(),
    };
    for (key, v) in kv {
        let what = format!("engine {k}: {key}");
        match key.as_str() {
            "cmd" => cmd = Some(v.clone()),
            "name" => name = Some(v.clone()),
            "tc" => spec.tc = parse_tc(v).with_context(|| what.clone())?,
            "tolerance" => spec.tolerance = Duration::from_millis(seconds(v, &what)?),
            "start" => spec.start_timeout = Duration::from_millis(seconds(v, &what)?),
            "maxmemory" => spec.max_memory = number(v, &what)?,
            "thread" | "threads" => spec.threads = Some(number(v, &what)?),
            "depth" => spec.depth = Some(number(v, &what)?),
            "nodes" => spec.nodes = Some(number(v, &what)?),
            o if o.starts_with("option.") && o.len() > 7 => {
                // Later settings of the same key (an engine's own over -each) replace earlier ones.
                let key = o[7..].to_string();
                spec.options.retain(|(kk, _)| *kk != key);
                spec.options.push((key, v.clone()));
            }
            _ => bail!("engine {k}: unknown key '{key}'"),
        }
    }
    let cmd = cmd.ok_or_else(|| anyhow!("engine {k}: cmd= is missing"))?;
    spec.launch = Launch::parse(&cmd).with_context(|| format!("engine {k}"))?;
    spec.name = name.unwrap_or_else(|| {
        spec.launch
            .program
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| format!("engine{k}"))
    });
    Ok(spec)
}

fn openings(kv: &[(String, String)]) -> anyhow::Result<OpeningSpec> {
    let mut spec = OpeningSpec {
        file: PathBuf::new(),
        format: None,
        order: Order::Sequential,
        seed: 0,
    };
    for (k, v) in kv {
        match k.as_str() {
            "file" => spec.file = PathBuf::from(v),
            "type" => {
                spec.format = Some(match v.to_ascii_lowercase().as_str() {
                    "offset" => Format::Offset,
                    "pos" => Format::Pos,
                    "psq" => Format::Psq,
                    _ => bail!("-openings type must be offset, pos or psq"),
                })
            }
            "order" => {
                spec.order = match v.to_ascii_lowercase().as_str() {
                    "sequential" => Order::Sequential,
                    "random" => Order::Random,
                    _ => bail!("-openings order must be sequential or random"),
                }
            }
            "srand" => spec.seed = number(v, "-openings srand")?,
            _ => bail!("-openings: unknown key '{k}'"),
        }
    }
    if spec.file.as_os_str().is_empty() {
        bail!("-openings needs file=");
    }
    Ok(spec)
}

fn sprt(kv: &[(String, String)]) -> anyhow::Result<Sprt> {
    let mut s = Sprt::default();
    let mut elo1 = false;
    for (k, v) in kv {
        let x: f64 = number(v, &format!("-sprt {k}"))?;
        match k.as_str() {
            "elo0" => s.elo0 = x,
            "elo1" => {
                s.elo1 = x;
                elo1 = true;
            }
            "alpha" => s.alpha = x,
            "beta" => s.beta = x,
            _ => bail!("-sprt: unknown key '{k}'"),
        }
    }
    if !elo1 {
        bail!("-sprt needs elo1=");
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn cfg(s: &str) -> Config {
        match parse(&args(s)).unwrap() {
            Parsed::Run(c) => *c,
            Parsed::Help => panic!("help"),
        }
    }

    #[test]
    fn time_controls_follow_c_gomoku_cli() {
        let t = parse_tc("180/30").unwrap();
        assert_eq!(
            (t.match_ms, t.turn_ms, t.increment_ms),
            (180_000, 30_000, 0)
        );
        let t = parse_tc("0/0.25").unwrap();
        assert_eq!((t.match_ms, t.turn_ms), (0, 250));
        let t = parse_tc("10").unwrap();
        assert_eq!((t.match_ms, t.turn_ms), (10_000, 10_000));
        let t = parse_tc("60/5+0.5").unwrap();
        assert_eq!(t.increment_ms, 500);
        assert!(parse_tc("x").is_err());
        assert!(parse_tc("-1/2").is_err());
    }

    #[test]
    fn engines_each_and_tournament_options() {
        let c = cfg(
            "-each tc=0/0.3 tolerance=0.5 option.hash=64 -engine cmd=sh name=A \
                     -engine cmd=sh option.hash=128 thread=2 -rule renju -boardsize 20 \
                     -games 4 -rounds 2 -repeat -gauntlet -j 2 -drawafter 200 \
                     -openings file=o.txt type=pos order=random srand=7 \
                     -sprt elo0=-5 elo1=5 alpha=0.1 -lenient -psq out -sgf g.sgf -log io.log",
        );
        assert_eq!(c.engines.len(), 2);
        assert_eq!(c.engines[0].name, "A");
        assert_eq!(c.engines[1].name, "sh");
        assert_eq!(c.engines[0].tc.turn_ms, 300);
        assert_eq!(c.engines[1].tolerance, Duration::from_millis(500));
        assert_eq!(c.engines[0].options, vec![("hash".into(), "64".into())]);
        assert_eq!(c.engines[1].options, vec![("hash".into(), "128".into())]);
        assert_eq!(c.engines[1].threads, Some(2));
        assert_eq!(c.engines[0].max_memory, DEFAULT_MEMORY);
        assert_eq!((c.rule, c.size, c.games, c.rounds), (Rule::Renju, 20, 4, 2));
        assert!(c.repeat && c.gauntlet && c.lenient);
        assert_eq!((c.concurrency, c.draw_after), (2, 200));
        let o = c.openings.unwrap();
        assert_eq!(
            (o.format, o.order, o.seed),
            (Some(Format::Pos), Order::Random, 7)
        );
        let s = c.sprt.unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-5.0, 5.0, 0.1, 0.05));
        assert_eq!(c.psq_dir, Some(PathBuf::from("out")));
        // Rule codes work too; duplicate names get numbered.
        let c = cfg("-engine cmd=sh -engine cmd=sh -rule 4");
        assert_eq!(c.rule, Rule::Renju);
        assert_eq!(c.engines[0].name, "sh#1");
        assert_eq!(c.engines[1].name, "sh#2");
        assert!(matches!(parse(&args("-help")).unwrap(), Parsed::Help));
    }

    #[test]
    fn rejects_bad_command_lines() {
        for bad in [
            "-engine cmd=sh",
            "-engine cmd=sh -engine cmd=sh -rule 3x",
            "-engine cmd=sh -engine cmd=sh -boardsize 40",
            "-engine cmd=sh -engine cmd=sh -games 0",
            "-engine cmd=sh -engine name=x",
            "-engine cmd=sh -engine cmd=sh bogus=1",
            "-engine cmd=sh -engine cmd=sh -frobnicate",
            "-engine cmd=sh -engine cmd=sh -sprt elo0=0",
            "-engine cmd=sh -engine cmd=sh -sprt elo0=5 elo1=0",
            "-engine cmd=sh -engine cmd=sh -engine cmd=sh -sprt elo1=5",
            "-engine cmd=./definitely/not/here -engine cmd=sh",
            "-engine cmd=sh -engine cmd=sh -openings order=random",
            "-engine cmd=sh -engine cmd=sh stray",
        ] {
            assert!(parse(&args(bad)).is_err(), "accepted: {bad}");
        }
        // Negative numbers are values, not options.
        let c = cfg("-engine cmd=sh -engine cmd=sh -sprt elo0=-3 elo1=2");
        assert_eq!(c.sprt.unwrap().elo0, -3.0);
    }
}
