//! Robustness: 100,000 random and mutated lines from a fixed-seed generator, then a legal
//! position that must be answered with a legal move. The brain must stay alive, print only
//! protocol lines (the harness checks every line) and nothing on stderr.
//! The generator keeps thinking cheap (tiny time limits, small memory, few threads) and never
//! sends END, so the run takes seconds on a two-core CI machine.

use super::harness::{board_block, Brain, Shadow};
use gorin::board::Rule;
use gorin::protocol::command::{self, Command, Info};
use std::time::{Duration, Instant};

const LINES: usize = 100_000;

/// xorshift64*: deterministic, no dependencies.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const WORDS: [&str; 31] = [
    "START",
    "RECTSTART",
    "RESTART",
    "BEGIN",
    "TURN",
    "PLAY",
    "TAKEBACK",
    "BOARD",
    "YXBOARD",
    "SWAP2BOARD",
    "YXBLOCK",
    "YXBLOCKUNDO",
    "YXQUERYDATABASEALL",
    "DONE",
    "ABOUT",
    "INFO",
    "YXSTOP",
    "STOP",
    "YXSHOWFORBID",
    "YXHASHCLEAR",
    "YXNBEST",
    "YXBALANCEONE",
    "YXBALANCETWO",
    "YXBLOCKRESET",
    "YXSHOWINFO",
    "SUGGEST",
    "MESSAGE",
    "OK",
    "done",
    "board",
    "turn",
];

const INFO_KEYS: [&str; 14] = [
    "timeout_turn",
    "timeout_match",
    "time_left",
    "max_memory",
    "game_type",
    "rule",
    "evaluate",
    "folder",
    "max_depth",
    "max_node",
    "thread_num",
    "hash_size",
    "show_detail",
    "bogus",
];

/// A well-formed (or nearly) command or block line.
fn template(r: &mut Rng) -> String {
    let xy = |r: &mut Rng| format!("{},{}", r.range(-2, 33), r.range(-2, 33));
    match r.below(20) {
        0 => format!("START {}", r.range(3, 34)),
        1 => format!("RECTSTART {},{}", r.range(3, 34), r.range(3, 34)),
        2 => format!("TURN {}", xy(r)),
        3 | 4 => format!("{},{},{}", r.range(-1, 21), r.range(-1, 21), r.range(0, 4)),
        5 => format!("{},{}", r.range(-1, 21), r.range(-1, 21)),
        6 => "DONE".into(),
        7 => format!("TAKEBACK {}", xy(r)),
        8 => format!("PLAY {}", xy(r)),
        9 => {
            let key = r.pick(&INFO_KEYS);
            let value = match key {
                "timeout_turn" => r.range(-5, 5).to_string(),
                "max_memory" => (r.range(1, 16) << 20).to_string(),
                "hash_size" => r.range(0, 8192).to_string(),
                "thread_num" => r.range(0, 2).to_string(),
                "rule" => r
                    .pick(&["0", "1", "2", "4", "8", "9", "3", "77", "-1", "x"])
                    .into(),
                "evaluate" => xy(r),
                "folder" => "C:/some folder/x".into(),
                _ => r.range(-1000, 1000).to_string(),
            };
            format!("INFO {key} {value}")
        }
        10 => format!("YXNBEST {}", r.range(-1, 4)),
        11 => format!(
            "{} {}",
            r.pick(&["YXBALANCEONE", "YXBALANCETWO"]),
            r.range(-50, 50)
        ),
        _ => {
            let w = r.pick(&WORDS);
            match r.below(3) {
                0 => w.to_string(),
                1 => format!("{w} {}", xy(r)),
                _ => format!("{w} {}", r.range(-100, 100)),
            }
        }
    }
}

/// Bytes that may appear inside a line (never CR or LF: framing is tested elsewhere, and a
/// split could make a line `END`).
fn random_byte(r: &mut Rng) -> u8 {
    let b = match r.below(4) {
        0 => b" ,\t0123456789-"[r.below(14) as usize],
        1 => (r.below(26) as u8) + b'a',
        _ => r.below(256) as u8,
    };
    if b == b'\n' || b == b'\r' {
        b' '
    } else {
        b
    }
}

fn mutate(r: &mut Rng, line: String) -> Vec<u8> {
    let mut bytes = line.into_bytes();
    for _ in 0..r.range(1, 3) {
        let n = bytes.len() as u64;
        match r.below(6) {
            0 if n > 0 => {
                let i = r.below(n) as usize;
                bytes[i] = random_byte(r);
            }
            1 => {
                let i = r.below(n + 1) as usize;
                let b = random_byte(r);
                bytes.insert(i, b);
            }
            2 if n > 0 => {
                bytes.remove(r.below(n) as usize);
            }
            3 if n > 0 => bytes.truncate(r.below(n) as usize),
            4 => bytes.make_ascii_lowercase(),
            _ => {
                let dup = bytes.clone();
                bytes.extend_from_slice(b" ");
                bytes.extend_from_slice(&dup);
            }
        }
    }
    bytes
}

fn random_line(r: &mut Rng) -> Vec<u8> {
    match r.below(100) {
        0..=49 => template(r).into_bytes(),
        50..=89 => {
            let t = template(r);
            mutate(r, t)
        }
        90..=98 => (0..r.below(60)).map(|_| random_byte(r)).collect(),
        _ => {
            let b = random_byte(r);
            vec![b; 2000 + r.below(20_000) as usize]
        }
    }
}

/// Whether a line may be sent: not END (which ends the run) and nothing that would make the
/// engine slow or big (long time limits, lots of memory or threads).
fn acceptable(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    if text
        .split_whitespace()
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("END"))
    {
        return false;
    }
    match command::parse(&text) {
        Ok(Command::Info(Info::TimeoutTurn(t))) => t <= 5,
        Ok(Command::Info(Info::MaxMemory(m))) => (1..=32 << 20).contains(&m),
        Ok(Command::Info(Info::HashSize(k))) => k <= 32 << 10,
        Ok(Command::Info(Info::ThreadNum(n))) => n <= 2,
        Ok(Command::YxNBest(n)) => n <= 5,
        _ => true,
    }
}

#[test]
fn survives_100000_random_and_mutated_lines() {
    let mut b = Brain::start();
    b.send_all(&[
        "INFO timeout_turn 2",
        "INFO max_memory 8388608",
        "INFO thread_num 1",
    ]);
    let mut r = Rng(0x5EED_CAFE_F00D_1234);
    let t0 = Instant::now();
    let mut sent = 0;
    let mut buf = Vec::new();
    while sent < LINES {
        let line = random_line(&mut r);
        if !acceptable(&line) {
            continue;
        }
        buf.extend_from_slice(&line);
        buf.push(b'\n');
        sent += 1;
        if buf.len() > 32 * 1024 {
            b.send_raw(&buf);
            buf.clear();
        }
    }
    b.send_raw(&buf);
    // Close any open block, then wait for a reply nothing else can produce.
    b.send("DONE");
    b.send("SYNC-ROBUST-7");
    let (mut printed, mut moves_printed) = (0, 0);
    loop {
        let line = b
            .recv_within(Duration::from_secs(120))
            .expect("the brain stopped answering");
        printed += 1;
        if super::harness::parse_move(&line).is_some() {
            moves_printed += 1;
        }
        if line == "UNKNOWN unknown command 'SYNC-ROBUST-7'" {
            break;
        }
    }
    let fuzz_time = t0.elapsed();
    // A legal position must now get a legal move.
    b.send_all(&[
        "START 15",
        "INFO rule 0",
        "INFO timeout_turn 300",
        "INFO timeout_match 0",
        "INFO time_left 2147483647",
        "INFO max_depth 0",
        "INFO max_node 0",
        "YXBLOCKRESET",
    ]);
    b.expect("OK");
    let moves = [(7, 7), (8, 8), (7, 8), (8, 7)];
    b.send_lines(&board_block(&moves));
    let p = b.expect_move();
    let mut s = Shadow::new(15, Rule::Freestyle);
    for &(x, y) in &moves {
        s.play(x, y);
    }
    s.brain_plays(p);
    eprintln!(
        "robustness: {LINES} lines sent, {printed} lines printed ({moves_printed} moves), {:.1} s",
        fuzz_time.as_secs_f64()
    );
    b.end();
}
