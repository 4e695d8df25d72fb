//! What the arena writes: the timestamped I/O log of every line sent to and received from each
//! engine, every game as a PSQ file (Piskvork opens it) and as SGF, and the text of the
//! progress line and final tables.

use super::referee::{GameResult, Outcome};
use super::stats::{fmt_elo, Pairs, Score};
use crate::board::{Color, Rule};
use crate::record::GameRecord;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The `-log` file: one line per line sent (`>`), received (`<`), printed on stderr (`!`), or
/// process event (`*`), each with the UTC time of day to the millisecond.
pub struct IoLog {
    out: Mutex<BufWriter<File>>,
}

impl IoLog {
    pub fn create(path: &Path) -> anyhow::Result<IoLog> {
        let f = File::create(path)
            .map_err(|e| anyhow::anyhow!("cannot create log file {}: {e}", path.display()))?;
        Ok(IoLog {
            out: Mutex::new(BufWriter::new(f)),
        })
    }

    /// Appends `HH:MM:SS.mmm tag name dir text`.
    pub fn line(&self, tag: &str, name: &str, dir: char, text: &str) {
        let stamp = utc_time_of_day(SystemTime::now());
        if let Ok(mut w) = self.out.lock() {
            let _ = writeln!(w, "{stamp} {tag} {name} {dir} {text}");
            let _ = w.flush();
        }
    }
}

/// `HH:MM:SS.mmm` (UTC) of a wall-clock time.
pub fn utc_time_of_day(t: SystemTime) -> String {
    let d = t.duration_since(UNIX_EPOCH).unwrap_or_default();
    let ms = d.as_millis() % 86_400_000;
    format!(
        "{:02}:{:02}:{:02}.{:03}",
        ms / 3_600_000,
        ms / 60_000 % 60,
        ms / 1000 % 60,
        ms % 1000
    )
}

/// `H:MM:SS` for elapsed and remaining times.
pub fn hms(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// A game as PSQ text: the moves with their thinking times, then the black and white names
/// (as Piskvork writes its two players) and a line with the result and its reason. Commas in
/// that line become ':' so no reader can take it for an `x,y,ms` move.
pub fn psq_text(width: usize, height: usize, g: &GameResult, black: &str, white: &str) -> String {
    let rec = GameRecord {
        width,
        height,
        moves: g.moves.clone(),
        trailer: vec![
            black.to_string(),
            white.to_string(),
            format!("{} {}", g.outcome.score_text(), g.reason).replace(',', ":"),
        ],
    };
    rec.to_psq()
}

/// SGF point: a..z then A..Z, column first, row from the top.
fn sgf_coord(v: usize) -> char {
    if v < 26 {
        (b'a' + v as u8) as char
    } else {
        (b'A' + (v - 26) as u8) as char
    }
}

fn sgf_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

/// A game as one SGF tree (`GM[4]`: gomoku/renju). The result marks time losses `+T` and
/// other forfeits `+F`.
#[allow(clippy::too_many_arguments)]
pub fn sgf_text(
    width: usize,
    height: usize,
    rule: Rule,
    g: &GameResult,
    black: &str,
    white: &str,
    game_no: usize,
    opening_len: usize,
) -> String {
    let size = if width == height {
        width.to_string()
    } else {
        format!("{width}:{height}")
    };
    let re = match g.outcome {
        Outcome::Draw => "0".to_string(),
        Outcome::Win(c) => {
            let side = if c == Color::Black { "B" } else { "W" };
            let how = if g.by_time {
                "+T"
            } else if g.forfeit {
                "+F"
            } else {
                "+"
            };
            format!("{side}{how}")
        }
    };
    let mut s = format!(
        "(;FF[4]GM[4]CA[UTF-8]AP[gorin-arena]SZ[{size}]RU[{}]PB[{}]PW[{}]RE[{re}]GN[{game_no}]GC[{}]",
        rule.name(),
        sgf_escape(black),
        sgf_escape(white),
        sgf_escape(&format!("opening {opening_len} moves; {}", g.reason)),
    );
    for (i, &(p, ms)) in g.moves.iter().enumerate() {
        let side = if i % 2 == 0 { 'B' } else { 'W' };
        s.push_str(&format!(
            ";{side}[{}{}]",
            sgf_coord(p.x()),
            sgf_coord(p.y())
        ));
        if i >= opening_len {
            s.push_str(&format!("C[{ms} ms]"));
        }
    }
    s.push_str(")\n");
    s
}

/// One row of the final table.
pub fn score_row(label: &str, s: &Score) -> String {
    let pct = s
        .ratio()
        .map(|r| format!("{:5.1}%", r * 100.0))
        .unwrap_or("    -".into());
    let elo = match (s.elo(), s.elo_error()) {
        (Some(e), Some(err)) if err.is_finite() => format!("{:>7} ± {:<6.1}", fmt_elo(e), err),
        (Some(e), _) => format!("{:>7} ± {:<6}", fmt_elo(e), "inf"),
        _ => format!("{:>16}", "-"),
    };
    let los = s
        .los()
        .map(|l| format!("{:5.1}%", l * 100.0))
        .unwrap_or("    -".into());
    format!(
        "{label:<28} {:>5} {:>5} {:>5} {:>5} {:>7.1} {pct} {elo} {los}",
        s.games(),
        s.wins,
        s.losses,
        s.draws,
        s.points()
    )
}

/// The line of a pairing's game pairs (`-repeat`): how many pairs earned the first engine 0,
/// 1/2, 1, 3/2 and 2 points, the score over them and the Elo with the pairs' error bar.
pub fn pairs_row(label: &str, p: &Pairs) -> String {
    let c = p.counts;
    let pct = p.ratio().unwrap_or(0.0) * 100.0;
    let elo = match (p.elo(), p.elo_error()) {
        (Some(e), Some(err)) if err.is_finite() => format!("{} ± {err:.1}", fmt_elo(e)),
        (Some(e), _) => format!("{} ± inf", fmt_elo(e)),
        _ => "-".into(),
    };
    format!(
        "{label}: {} game pairs, by points 0, 1/2, 1, 3/2, 2: {} {} {} {} {}; score {pct:.1}%, Elo {elo} (over pairs)",
        p.pairs(),
        c[0],
        c[1],
        c[2],
        c[3],
        c[4]
    )
}

/// Header matching `score_row`.
pub fn score_header() -> String {
    format!(
        "{:<28} {:>5} {:>5} {:>5} {:>5} {:>7} {:>6} {:>16} {:>6}",
        "", "games", "win", "loss", "draw", "points", "score", "Elo (95%)", "LOS"
    )
}

/// Writes `text` to `path`, creating or replacing it.
pub fn write_file(path: &Path, text: &str) -> anyhow::Result<()> {
    std::fs::write(path, text).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}

/// Appends `text` to an open file.
pub fn append(file: &mut File, text: &str) -> anyhow::Result<()> {
    file.write_all(text.as_bytes())?;
    file.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Pos;

    fn game() -> GameResult {
        GameResult {
            outcome: Outcome::Win(Color::White),
            reason: "black: no move within 300 ms".into(),
            moves: vec![
                (Pos::new(7, 7), 0),
                (Pos::new(8, 8), 12),
                (Pos::new(27, 1), 5),
            ],
            by_time: true,
            forfeit: true,
            faulty: [true, false],
        }
    }

    #[test]
    fn sgf_has_header_moves_and_result() {
        let s = sgf_text(30, 30, Rule::Renju, &game(), "a]b", "w", 3, 1);
        assert!(s.starts_with("(;FF[4]GM[4]"), "{s}");
        assert!(s.contains("SZ[30]") && s.contains("RU[renju]"));
        assert!(s.contains("PB[a\\]b]") && s.contains("RE[W+T]"));
        assert!(s.contains(";B[hh];W[ii]C[12 ms];B[Bb]C[5 ms])"), "{s}");
        let s = sgf_text(15, 20, Rule::Freestyle, &game(), "b", "w", 3, 0);
        assert!(s.contains("SZ[15:20]"));
    }

    #[test]
    fn psq_round_trips_through_the_record_reader() {
        let g = game();
        let text = psq_text(30, 30, &g, "black-engine", "white-engine");
        let rec = GameRecord::parse_psq(&text).unwrap();
        assert_eq!(rec.moves, g.moves);
        assert_eq!(rec.trailer[0], "black-engine");
        assert_eq!(rec.trailer[1], "white-engine");
        assert!(rec.trailer[2].starts_with("0-1"));
        let mut g = g;
        g.reason = "black: played 7,7, an occupied square".into();
        let text = psq_text(15, 15, &g, "b", "w");
        assert!(
            text.ends_with("w\r\n0-1 black: played 7:7: an occupied square\r\n"),
            "{text}"
        );
    }

    #[test]
    fn formats_times_and_rows() {
        assert_eq!(hms(Duration::from_secs(3725)), "1:02:05");
        let t = UNIX_EPOCH + Duration::from_millis(86_400_000 * 3 + 3_723_456);
        assert_eq!(utc_time_of_day(t), "01:02:03.456");
        let row = score_row("a vs b", &Score::new(60, 40, 0));
        assert!(row.contains("+70.4 ± 70.6"), "{row}");
        assert!(row.contains("97.7%"), "{row}");
        let row = score_row("x", &Score::new(2, 0, 0));
        assert!(row.contains("+inf"), "{row}");
        let p = Pairs {
            counts: [1, 0, 6, 1, 2],
        };
        let row = pairs_row("a vs b", &p);
        assert!(
            row.contains("10 game pairs, by points 0, 1/2, 1, 3/2, 2: 1 0 6 1 2; score 57.5%"),
            "{row}"
        );
        assert!(row.contains("Elo +52.5 ± 126.9"), "{row}");
    }
}
