//! Opening positions for the arena: text files with one opening a line, in centre-offset
//! notation (`0,0, 1,0, 1,3`, x,y offsets from the centre square, black first) or pos notation
//! (`h8i9h7`, rows from the top), and Piskvork PSQ game files (one opening a file, or a folder
//! of them). Every opening is replayed under the match's rule and must be legal and unfinished.

use crate::board::notation::{parse_move_list, Rows};
use crate::board::{Board, Color, MoveClass, Pos, Rule};
use crate::record::GameRecord;
use anyhow::{bail, Context};
use std::path::{Path, PathBuf};

/// How the lines of an opening file are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Offset,
    Pos,
    Psq,
}

/// In which order the openings are used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Sequential,
    Random,
}

/// `-openings file=F [type=offset|pos|psq] [order=sequential|random] [srand=N]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningSpec {
    pub file: PathBuf,
    /// None: guessed from the file (PSQ by extension or folder, else pos if a line has letters).
    pub format: Option<Format>,
    pub order: Order,
    /// Seed of the shuffle; 0 picks one from the clock.
    pub seed: u64,
}

/// The loaded openings, plus the lines that had to be skipped and why.
#[derive(Clone, Debug, Default)]
pub struct Openings {
    pub list: Vec<Vec<Pos>>,
    pub skipped: Vec<String>,
}

/// Loads and checks the openings of `spec` for a `width` x `height` board under `rule`.
pub fn load(
    spec: &OpeningSpec,
    width: usize,
    height: usize,
    rule: Rule,
) -> anyhow::Result<Openings> {
    let path = &spec.file;
    let format = match spec.format {
        Some(f) => f,
        None if path.is_dir() => Format::Psq,
        None if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("psq")) =>
        {
            Format::Psq
        }
        None => {
            let text = read(path)?;
            guess_format(&text)
        }
    };
    let mut out = Openings::default();
    if format == Format::Psq {
        let files: Vec<PathBuf> = if path.is_dir() {
            let mut v: Vec<PathBuf> = std::fs::read_dir(path)
                .with_context(|| format!("cannot read opening folder {}", path.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("psq")))
                .collect();
            v.sort();
            v
        } else {
            vec![path.clone()]
        };
        for f in files {
            let text = read(&f)?;
            let res = GameRecord::parse_psq(&text)
                .map_err(|e| e.to_string())
                .and_then(|r| {
                    if (r.width, r.height) != (width, height) {
                        return Err(format!(
                            "board {}x{} is not the match's {width}x{height}",
                            r.width, r.height
                        ));
                    }
                    let moves: Vec<Pos> = r.moves.iter().map(|&(p, _)| p).collect();
                    check(&moves, width, height, rule).map(|_| moves)
                });
            match res {
                Ok(m) => out.list.push(m),
                Err(e) => out.skipped.push(format!("{}: {e}", f.display())),
            }
        }
    } else {
        let text = read(path)?;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let parsed = match format {
                Format::Offset => parse_offset_line(line, width, height),
                _ => parse_move_list(line, width, height, Rows::FromTop).map_err(|e| e.to_string()),
            };
            match parsed.and_then(|m| check(&m, width, height, rule).map(|_| m)) {
                Ok(m) => out.list.push(m),
                Err(e) => out
                    .skipped
                    .push(format!("{} line {}: {e}", path.display(), i + 1)),
            }
        }
    }
    if out.list.is_empty() {
        let why = out
            .skipped
            .first()
            .map(String::as_str)
            .unwrap_or("no opening lines");
        bail!("no usable opening in {} ({why})", path.display());
    }
    if spec.order == Order::Random {
        let seed = if spec.seed != 0 {
            spec.seed
        } else {
            clock_seed()
        };
        shuffle(&mut out.list, seed);
    }
    Ok(out)
}

fn read(path: &Path) -> anyhow::Result<String> {
    let bytes = std::fs::read(path)
        .with_context(|| format!("cannot read opening file {}", path.display()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Pos notation has letters; offset notation is numbers only.
pub fn guess_format(text: &str) -> Format {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .unwrap_or("");
    if first.bytes().any(|b| b.is_ascii_alphabetic()) {
        Format::Pos
    } else {
        Format::Offset
    }
}

/// Reads `dx,dy, dx,dy, ...` offsets from the centre square (`width/2`, `height/2`, rounded
/// down), as Piskvork's and c-gomoku-cli's opening files write them.
pub fn parse_offset_line(line: &str, width: usize, height: usize) -> Result<Vec<Pos>, String> {
    let nums: Result<Vec<i64>, _> = line
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(str::parse::<i64>)
        .collect();
    let nums = nums.map_err(|_| format!("'{line}' is not a list of x,y offsets"))?;
    if nums.is_empty() || nums.len() % 2 != 0 {
        return Err(format!("'{line}' does not hold whole x,y pairs"));
    }
    let (cx, cy) = ((width / 2) as i64, (height / 2) as i64);
    nums.chunks(2)
        .map(|c| {
            Pos::try_new(cx + c[0], cy + c[1])
                .filter(|p| p.x() < width && p.y() < height)
                .ok_or_else(|| {
                    format!(
                        "offset {},{} falls off the {width}x{height} board",
                        c[0], c[1]
                    )
                })
        })
        .collect()
}

/// Replays `moves` from black and rejects repeated squares, fives, and renju fouls.
pub fn check(moves: &[Pos], width: usize, height: usize, rule: Rule) -> Result<(), String> {
    let mut b = Board::new(width, height, rule).map_err(|e| e.to_string())?;
    for (i, &p) in moves.iter().enumerate() {
        let c = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        match b.classify_move(p, c) {
            Err(e) => return Err(format!("move {}: {e}", i + 1)),
            Ok(MoveClass::Win) => return Err(format!("move {} ({p}) already wins", i + 1)),
            Ok(MoveClass::Forbidden) => {
                return Err(format!("move {} ({p}) is forbidden for black", i + 1))
            }
            Ok(MoveClass::Normal) => b.make(p),
        }
    }
    if b.is_full() {
        return Err("the opening fills the board".into());
    }
    Ok(())
}

fn clock_seed() -> u64 {
    let t = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1);
    t ^ (std::process::id() as u64) << 32 | 1
}

/// splitmix64: a small reproducible generator for the shuffle.
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut x = self.0;
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        x ^ (x >> 31)
    }
}

/// Fisher-Yates shuffle with a fixed seed (same seed, same order).
pub fn shuffle<T>(v: &mut [T], seed: u64) {
    let mut rng = SplitMix(seed);
    for i in (1..v.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_offset_lines_around_the_centre() {
        let m = parse_offset_line("0,0, 1,0, 1,3", 15, 15).unwrap();
        assert_eq!(m, vec![Pos::new(7, 7), Pos::new(8, 7), Pos::new(8, 10)]);
        let m = parse_offset_line("-1,-5, 8,-3", 20, 20).unwrap();
        assert_eq!(m, vec![Pos::new(9, 5), Pos::new(18, 7)]);
        assert!(parse_offset_line("0,0, 1", 15, 15).is_err());
        assert!(parse_offset_line("0,0, 8,0", 15, 15).is_err());
        assert!(parse_offset_line("0,0, -8,0", 15, 15).is_err());
        assert!(parse_offset_line("a,b", 15, 15).is_err());
    }

    #[test]
    fn guesses_the_notation() {
        assert_eq!(guess_format("# comment\nh8i9h7\n"), Format::Pos);
        assert_eq!(guess_format("0,0, 1,1\n"), Format::Offset);
    }

    #[test]
    fn checks_legality_under_the_rule() {
        let p = |s| parse_move_list(s, 15, 15, Rows::FromTop).unwrap();
        assert!(check(&p("h8i9h7"), 15, 15, Rule::Freestyle).is_ok());
        assert!(check(&p("h8h8"), 15, 15, Rule::Freestyle).is_err());
        // Black's fifth stone on h4..h8 makes five: not an opening.
        assert!(check(&p("h8a1h7a2h6a3h5a4h4"), 15, 15, Rule::Freestyle).is_err());
        // Black's double three at h8 (after g8 i8 / h7 h9 are in place) is a renju foul only.
        let dt = p("g8a1i8a3h7a5h9a7h8");
        assert!(check(&dt, 15, 15, Rule::Freestyle).is_ok());
        assert!(check(&dt, 15, 15, Rule::Renju).is_err());
    }

    #[test]
    fn loads_files_and_shuffles_reproducibly() {
        let dir = std::env::temp_dir().join(format!("gorin-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("o.txt");
        std::fs::write(&f, "0,0, 1,0\n\n# c\n0,0, 1,1\n0,0, 9,9\n0,0, 0,1\n").unwrap();
        let spec = OpeningSpec {
            file: f.clone(),
            format: None,
            order: Order::Sequential,
            seed: 0,
        };
        let o = load(&spec, 15, 15, Rule::Freestyle).unwrap();
        assert_eq!(o.list.len(), 3);
        assert_eq!(o.skipped.len(), 1);
        assert!(o.skipped[0].contains("line 5"), "{:?}", o.skipped);
        let rnd = OpeningSpec {
            order: Order::Random,
            seed: 42,
            ..spec.clone()
        };
        let a = load(&rnd, 15, 15, Rule::Freestyle).unwrap().list;
        let b = load(&rnd, 15, 15, Rule::Freestyle).unwrap().list;
        assert_eq!(a, b);
        let mut sorted_a = a.clone();
        sorted_a.sort();
        let mut sorted_o = o.list.clone();
        sorted_o.sort();
        assert_eq!(sorted_a, sorted_o);

        let psq = dir.join("g.psq");
        std::fs::write(&psq, "Piskvorky 15x15, 11:11, 0\r\n8,8,0\r\n9,9,0\r\n").unwrap();
        let o = load(
            &OpeningSpec {
                file: psq,
                format: None,
                order: Order::Sequential,
                seed: 0,
            },
            15,
            15,
            Rule::Renju,
        )
        .unwrap();
        assert_eq!(o.list, vec![vec![Pos::new(7, 7), Pos::new(8, 8)]]);
        let empty = dir.join("e.txt");
        std::fs::write(&empty, "\n").unwrap();
        assert!(load(
            &OpeningSpec {
                file: empty,
                ..spec
            },
            15,
            15,
            Rule::Freestyle
        )
        .is_err());
        std::fs::remove_dir_all(&dir).ok();
    }
}
