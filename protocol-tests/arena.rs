//! Arena tests: run `gorin-arena` against small fake brains and against pbrain-gorin, over
//! pipes, and check every adjudication.
//! The fake brains are one bash script, `protocol-tests/arena/fake-brain MODE` (modes listed
//! at its top). Each test reads the arena's per-game lines (`[k/n] #g A vs B: 1-0 (reason)`),
//! its exit code, and the PSQ/SGF/log files it wrote. Linux only: the fakes are bash scripts
//! and leftover processes are looked up in /proc.
#![cfg(target_os = "linux")]

use gorin::record::GameRecord;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ARENA: &str = env!("CARGO_BIN_EXE_gorin-arena");
const BRAIN: &str = env!("CARGO_BIN_EXE_pbrain-gorin");

fn fake(mode: &str) -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/protocol-tests/arena/fake-brain"
    );
    format!("cmd={} {mode}", path.replace(' ', "\\ "))
}

/// A test's scratch folder: removed when the test passes, kept for a look when it fails (the
/// games, logs and fake-brain pids it holds are what a failure is read from).
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("gorin-arena-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    Scratch(d)
}

struct Run {
    code: i32,
    out: String,
    err: String,
    took: Duration,
}

impl Run {
    /// The per-game lines.
    fn games(&self) -> Vec<&str> {
        self.out.lines().filter(|l| l.starts_with('[')).collect()
    }
}

fn arena(args: &[&str], dir: &Path) -> Run {
    arena_env(args, dir, &[])
}

fn arena_env(args: &[&str], dir: &Path, env: &[(&str, &str)]) -> Run {
    let t0 = Instant::now();
    let o = Command::new(ARENA)
        .args(args)
        .current_dir(dir)
        .env("FAKE_PID_DIR", dir)
        .envs(env.iter().copied())
        .output()
        .expect("run gorin-arena");
    Run {
        code: o.status.code().unwrap_or(-1),
        out: String::from_utf8_lossy(&o.stdout).into_owned(),
        err: String::from_utf8_lossy(&o.stderr).into_owned(),
        took: t0.elapsed(),
    }
}

/// Plays one game, `mode` (black) against a good fake (white), and returns its line. Both get
/// 0.2 s per move and a generous 3 s tolerance (a loaded test machine must not lose games on
/// time); `extra` may tighten it with a later `-each`, whose values win.
fn one_game(mode: &str, extra: &[&str], name: &str) -> (String, Scratch) {
    one_game_env(mode, extra, name, &[])
}

fn one_game_env(mode: &str, extra: &[&str], name: &str, env: &[(&str, &str)]) -> (String, Scratch) {
    let dir = scratch(name);
    let m = fake(mode);
    let g = fake("good");
    let mut args = vec![
        "-each",
        "tc=0/0.2",
        "tolerance=3",
        "start=3",
        "-engine",
        &m,
        "name=tested",
        "-engine",
        &g,
        "name=good",
        "-games",
        "1",
        "-psq",
        "psq",
    ];
    args.extend_from_slice(extra);
    let r = arena_env(&args, &dir, env);
    assert_eq!(r.code, 0, "{}\n{}", r.out, r.err);
    let games = r.games();
    assert_eq!(games.len(), 1, "{}", r.out);
    assert_no_engine_left(&dir);
    (games[0].to_string(), dir)
}

/// Every fake brain wrote its pid into `dir`; none of their process groups may still have a
/// live member once the arena has exited.
fn assert_no_engine_left(dir: &Path) {
    let pids: Vec<i64> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .collect();
    // Killed processes may take a moment to disappear.
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let alive: Vec<(i64, String)> = live_group_members(&pids);
        if alive.is_empty() {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "engine processes left running: {alive:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// (pid, command) of running processes whose process group is one of `groups`.
fn live_group_members(groups: &[i64]) -> Vec<(i64, String)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<i64>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        // Fields after the parenthesised command: state, ppid, pgrp, ...
        let Some(close) = stat.rfind(')') else {
            continue;
        };
        let rest: Vec<&str> = stat[close + 1..].split_whitespace().collect();
        let (state, pgrp) = (rest[0], rest[2].parse::<i64>().unwrap_or(-1));
        if groups.contains(&pgrp) && state != "Z" && state != "X" {
            out.push((pid, stat[..close + 1].to_string()));
        }
    }
    out
}

/// Two engines named A and B at half a second a move, three seconds of tolerance.
fn a_vs_b<'a>(a: &'a str, b: &'a str) -> Vec<&'a str> {
    vec![
        "-each",
        "tc=0/0.5",
        "tolerance=3",
        "-engine",
        a,
        "name=A",
        "-engine",
        b,
        "name=B",
    ]
}

#[test]
fn good_fakes_play_to_five_and_every_game_is_saved() {
    let dir = scratch("good");
    std::fs::write(
        dir.join("open.txt"),
        "# two openings in pos notation\nh8i9\nh8h9h7\n",
    )
    .unwrap();
    let (a, b) = (fake("good"), fake("good"));
    let mut args = a_vs_b(&a, &b);
    args.extend_from_slice(&[
        "-games",
        "4",
        "-repeat",
        "-openings",
        "file=open.txt",
        "-psq",
        "psq",
        "-sgf",
        "all.sgf",
        "-log",
        "io.log",
    ]);
    let r = arena(&args, &dir);
    assert_eq!(r.code, 0, "{}\n{}", r.out, r.err);
    let games = r.games();
    assert_eq!(games.len(), 4, "{}", r.out);
    // The scan-order fake that moves first after the opening makes five first.
    for g in &games {
        assert!(g.contains("five at"), "{g}");
    }
    assert!(r.out.contains("A vs B"), "{}", r.out);
    // With -repeat, games 1 and 2 share the opening h8i9 with colours swapped.
    let g1 =
        GameRecord::parse_psq(&std::fs::read_to_string(dir.join("psq/game-0001.psq")).unwrap())
            .unwrap();
    let g2 =
        GameRecord::parse_psq(&std::fs::read_to_string(dir.join("psq/game-0002.psq")).unwrap())
            .unwrap();
    let g3 =
        GameRecord::parse_psq(&std::fs::read_to_string(dir.join("psq/game-0003.psq")).unwrap())
            .unwrap();
    let sq = |r: &GameRecord, i: usize| (r.moves[i].0.x(), r.moves[i].0.y());
    assert_eq!((sq(&g1, 0), sq(&g1, 1)), ((7, 7), (8, 8)));
    assert_eq!((sq(&g2, 0), sq(&g2, 1)), ((7, 7), (8, 8)));
    assert_eq!(
        (sq(&g3, 0), sq(&g3, 1), sq(&g3, 2)),
        ((7, 7), (7, 8), (7, 6))
    );
    assert_eq!(&g1.trailer[..2], &["A".to_string(), "B".to_string()]);
    assert_eq!(&g2.trailer[..2], &["B".to_string(), "A".to_string()]);
    // The record replays to a five under the rule.
    let board = g1.to_board(gorin::board::Rule::Freestyle).unwrap();
    let last = board.last_move().unwrap();
    assert!(board.winning_line(last).is_some());
    let sgf = std::fs::read_to_string(dir.join("all.sgf")).unwrap();
    assert_eq!(sgf.matches("(;FF[4]GM[4]").count(), 4);
    // The I/O log has both directions, with timestamps, and the END sent to each process.
    let log = std::fs::read_to_string(dir.join("io.log")).unwrap();
    assert!(
        log.contains(" > START 15") && log.contains(" < OK"),
        "{log}"
    );
    assert!(log.contains(" > INFO time_left ") && log.contains(" > BOARD"));
    assert!(log.lines().all(|l| l.as_bytes().get(2) == Some(&b':')));
    assert_eq!(log.matches(" > END").count(), 2);
    assert!(r.out.contains("Results: 4 games"), "{}", r.out);
    assert_no_engine_left(&dir);
}

#[test]
fn round_robin_and_gauntlet_with_games_in_parallel() {
    let dir = scratch("rr");
    let (a, b, c) = (fake("good"), fake("occupied"), fake("good"));
    let engines = [
        "-engine", &a, "name=A", "-engine", &b, "name=B", "-engine", &c, "name=C",
    ];
    let mut args = vec![
        "-each",
        "tc=0/0.5",
        "tolerance=3",
        "-games",
        "2",
        "-rounds",
        "2",
        "-j",
        "2",
    ];
    args.extend_from_slice(&engines);
    let r = arena(&args, &dir);
    assert_eq!(r.code, 0, "{}\n{}", r.out, r.err);
    // 3 pairings x 2 games x 2 rounds.
    assert_eq!(r.games().len(), 12, "{}", r.out);
    for pair in ["A vs B", "A vs C", "B vs C"] {
        assert!(
            r.out.lines().any(|l| l.starts_with(pair)),
            "{pair}\n{}",
            r.out
        );
    }
    assert!(r.out.contains("per engine, against the field"), "{}", r.out);
    assert!(r.out.contains("B lost 8 game(s) by a fault"), "{}", r.out);
    assert_no_engine_left(&dir);

    let mut args = vec![
        "-each",
        "tc=0/0.5",
        "tolerance=3",
        "-games",
        "2",
        "-gauntlet",
    ];
    args.extend_from_slice(&engines);
    let r = arena(&args, &dir);
    assert_eq!(r.games().len(), 4, "{}", r.out);
    assert!(!r.out.lines().any(|l| l.starts_with("B vs C")), "{}", r.out);
}

#[test]
fn a_full_board_is_a_draw() {
    // A 5x5 board filled in the pattern BBWWB / WWBBW / BBWWB / WWBBW / BBWWB has no five in
    // any row, column or diagonal. The opening places all of it but a1 (black's) and c1
    // (white's); white then takes a1 and black c1, which still makes no five.
    let dir = scratch("full");
    std::fs::write(
        dir.join("o.txt"),
        "b1d1e1a2c2b2d2e2a3c3b3d3e3a4c4b4d4e4a5c5b5d5e5\n",
    )
    .unwrap();
    let (a, b) = (fake("good"), fake("good"));
    let r = arena(
        &[
            "-each",
            "tc=0/0.5",
            "tolerance=3",
            "-engine",
            &a,
            "-engine",
            &b,
            "-games",
            "1",
            "-boardsize",
            "5",
            "-openings",
            "file=o.txt",
            "type=pos",
            "-psq",
            "psq",
        ],
        &dir,
    );
    assert_eq!(r.code, 0, "{}\n{}", r.out, r.err);
    assert_eq!(r.games().len(), 1, "{}", r.out);
    assert!(r.games()[0].contains("1/2-1/2 (board full)"), "{}", r.out);
    let rec =
        GameRecord::parse_psq(&std::fs::read_to_string(dir.join("psq/game-0001.psq")).unwrap())
            .unwrap();
    assert_eq!(rec.moves.len(), 25);
    assert_eq!((rec.moves[23].0.x(), rec.moves[23].0.y()), (0, 0));
}

#[test]
fn a_late_move_loses_on_time_but_the_tolerance_is_honoured() {
    // Sleeps 0.6 s per move with a 0.2 s budget: with 0.3 s of tolerance that is late ...
    let delay = [("FAKE_DELAY", "0.6")];
    let (g, _) = one_game_env("late", &["-each", "tolerance=0.3"], "late", &delay);
    assert!(
        g.contains("0-1 (tested (black): no move within 500 ms"),
        "{g}"
    );
    // ... with 1 s of tolerance the same moves are accepted and the game is played out.
    let dir = scratch("late-tolerant");
    let (m, good) = (fake("late"), fake("good"));
    let r = arena_env(
        &[
            "-each",
            "tc=0/0.2",
            "tolerance=1",
            "-engine",
            &m,
            "name=tested",
            "-engine",
            &good,
            "name=good",
            "-games",
            "1",
            "-drawafter",
            "6",
        ],
        &dir,
        &delay,
    );
    assert_eq!(r.games().len(), 1, "{}", r.out);
    assert!(
        r.games()[0].contains("1/2-1/2 (move limit 6 reached)"),
        "{}",
        r.out
    );
}

#[test]
fn a_hung_engine_loses_on_time_and_is_killed() {
    let (g, _) = one_game("hang", &["-each", "tolerance=0.3"], "hang");
    assert!(
        g.contains("0-1 (tested (black): no move within 500 ms"),
        "{g}"
    );
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted_for_the_next_game() {
    let dir = scratch("crash");
    let (c, g) = (fake("crash"), fake("good"));
    let r = arena(
        &[
            "-each",
            "tc=0/0.2",
            "tolerance=3",
            "-engine",
            &c,
            "name=crasher",
            "-engine",
            &g,
            "name=good",
            "-games",
            "2",
            "-log",
            "io.log",
        ],
        &dir,
    );
    let games = r.games();
    assert_eq!(games.len(), 2, "{}", r.out);
    assert!(games[0].contains("0-1 (crasher (black): crashed while thinking (exit status: 3))"));
    // As white it crashes on its first TURN.
    assert!(
        games[1].contains("1-0 (crasher (white): crashed while thinking"),
        "{}",
        games[1]
    );
    let log = std::fs::read_to_string(dir.join("io.log")).unwrap();
    let starts = log
        .lines()
        .filter(|l| l.contains(" crasher * started pid"))
        .count();
    assert_eq!(starts, 2, "{log}");
    // The good engine kept its process for both games.
    assert_eq!(
        log.lines()
            .filter(|l| l.contains(" good * started pid"))
            .count(),
        1
    );
    assert!(
        r.out.contains("crasher lost 2 game(s) by a fault"),
        "{}",
        r.out
    );
    assert_no_engine_left(&dir);
}

#[test]
fn an_engine_that_refuses_a_second_start_is_started_afresh() {
    let dir = scratch("onegame");
    let (o, g) = (fake("onegame"), fake("good"));
    let r = arena(
        &[
            "-each",
            "tc=0/0.2",
            "tolerance=3",
            "-engine",
            &o,
            "name=once",
            "-engine",
            &g,
            "name=good",
            "-games",
            "3",
            "-log",
            "io.log",
        ],
        &dir,
    );
    let games = r.games();
    assert_eq!(games.len(), 3, "{}", r.out);
    assert!(!r.out.contains("by a fault"), "{}", r.out);
    let log = std::fs::read_to_string(dir.join("io.log")).unwrap();
    let starts = |name: &str| {
        log.lines()
            .filter(|l| l.contains(&format!(" {name} * started pid")))
            .count()
    };
    // A new process for every game of the refusing engine; the good one keeps its own.
    assert_eq!(starts("once"), 3, "{log}");
    assert_eq!(starts("good"), 1, "{log}");
    assert!(log.contains("ERROR Unknown command: 15"), "{log}");
    assert_no_engine_left(&dir);
}

#[test]
fn occupied_and_off_board_squares_lose() {
    let (g, dir) = one_game("occupied", &[], "occupied");
    assert!(
        g.contains("0-1 (tested (black): played 7,7, an occupied square)"),
        "{g}"
    );
    // The PSQ holds the moves up to the fault and the reason.
    let rec =
        GameRecord::parse_psq(&std::fs::read_to_string(dir.join("psq/game-0001.psq")).unwrap())
            .unwrap();
    assert_eq!(rec.moves.len(), 2);
    assert!(rec.trailer[2].contains("occupied"), "{:?}", rec.trailer);
    let (g, _) = one_game("offboard", &[], "offboard");
    assert!(
        g.contains("0-1 (tested (black): played 15,0, off the board)"),
        "{g}"
    );
}

#[test]
fn a_line_that_is_not_a_move_loses_unless_lenient() {
    let (g, _) = one_game("noise", &[], "noise");
    assert!(
        g.contains("0-1 (tested (black): answered 'thinking hard', which is not a move)"),
        "{g}"
    );
    let (g, _) = one_game("noise", &["-lenient"], "noise-lenient");
    assert!(g.contains("five at"), "{g}");
    let (g, _) = one_game("error", &[], "error");
    assert!(
        g.contains("answered 'ERROR cannot think' instead of a move"),
        "{g}"
    );
}

#[test]
fn blacks_forbidden_move_loses_in_renju_only() {
    let (g, _) = one_game("forbidden", &["-rule", "renju"], "forbidden");
    assert!(
        g.contains("0-1 (tested (black): played 7,7, a forbidden point (renju foul))"),
        "{g}"
    );
    // Under freestyle the same double three is an ordinary move: the game goes on to the
    // move limit, reached right after it (before white can complete five on row 0).
    let (g, _) = one_game(
        "forbidden",
        &["-rule", "0", "-drawafter", "9"],
        "forbidden-free",
    );
    assert!(!g.contains("forbidden point"), "{g}");
    assert!(g.contains("1/2-1/2 (move limit 9 reached)"), "{g}");
}

#[test]
fn no_answer_to_start_loses() {
    let (g, _) = one_game("nostart", &["-each", "start=0.5"], "nostart");
    assert!(
        g.contains("0-1 (tested (black): no OK to START 15 within 500 ms)"),
        "{g}"
    );
}

#[test]
fn an_engine_that_ignores_end_is_killed() {
    let dir = scratch("stubborn");
    let (s, g) = (fake("stubborn"), fake("good"));
    let r = arena(
        &[
            "-each",
            "tc=0/0.5",
            "tolerance=3",
            "-engine",
            &s,
            "-engine",
            &g,
            "-games",
            "1",
            "-log",
            "io.log",
        ],
        &dir,
    );
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.took < Duration::from_secs(10), "{:?}", r.took);
    let log = std::fs::read_to_string(dir.join("io.log")).unwrap();
    assert!(log.contains("killed after 1000 ms"), "{log}");
    assert_no_engine_left(&dir);
}

#[test]
fn ctrl_c_ends_every_engine_and_exits_130() {
    let dir = scratch("sigint");
    let (h, g) = (fake("hang"), fake("good"));
    let mut child = Command::new(ARENA)
        .args([
            "-each",
            "tc=0/60",
            "-engine",
            &h,
            "-engine",
            &g,
            "-games",
            "4",
            "-concurrency",
            "2",
        ])
        .current_dir(&dir)
        .env("FAKE_PID_DIR", dir.as_os_str())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the four engines of the two parallel games are up.
    let t0 = Instant::now();
    while std::fs::read_dir(&dir).unwrap().count() < 4 {
        assert!(
            t0.elapsed() < Duration::from_secs(10),
            "engines did not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    let st = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(t0.elapsed() < Duration::from_secs(10), "arena did not stop");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
    let mut out = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut out).unwrap();
    assert!(out.contains("interrupted"), "{out}");
    assert_no_engine_left(&dir);
}

/// Two identical scan-order fakes under `-sprt elo0=0 elo1=400 alpha=0.2 beta=0.2`, plus `extra`.
fn two_good_fakes_under_sprt(name: &str, extra: &[&str]) -> Run {
    let dir = scratch(name);
    let (a, b) = (fake("good"), fake("good"));
    let mut args = a_vs_b(&a, &b);
    args.extend_from_slice(&["-sprt", "elo0=0", "elo1=400", "alpha=0.2", "beta=0.2"]);
    args.extend_from_slice(extra);
    arena(&args, &dir)
}

#[test]
fn sprt_stops_as_soon_as_it_decides() {
    // Two identical fakes: black always wins, so the score goes 1-0, 1-1, 2-1, ...
    // With elo0 = 0, elo1 = 400 (s1 = 1/(1 + 10^-1) = 0.909091), alpha = beta = 0.2 the
    // lower bound is ln(0.2/0.8) = -1.386. After 4 games (2-2, s = 0.5, variance 0.25):
    // LLR = 4 * 0.409091 * (1 - 1.409091) / 0.5 = -1.339 (go on); after 5 (3-2, s = 0.6,
    // variance 0.24): 5 * 0.409091 * (1.2 - 1.409091) / 0.48 = -0.891; after 6 (3-3):
    // 6 * 0.409091 * (-0.409091) / 0.5 = -2.008 < -1.386: H0 is accepted at game 6.
    let r = two_good_fakes_under_sprt("sprt", &["-games", "100"]);
    assert_eq!(r.code, 1, "{}\n{}", r.out, r.err);
    assert_eq!(r.games().len(), 6, "{}", r.out);
    assert!(r.out.contains("LLR -2.008"), "{}", r.out);
    assert!(r.out.contains("H0 accepted"), "{}", r.out);
}

#[test]
fn with_repeat_the_sprt_reads_game_pairs() {
    // The same two fakes as above, each opening played with both colours: every pair is one
    // win each (the side that moves first after the opening wins), so the pairs hold no
    // evidence either way and the SPRT plays every game, where over single games it accepted
    // H0 at game 6. Two games at a time, so that pairs may finish out of order.
    let r = two_good_fakes_under_sprt("sprt-pairs", &["-games", "8", "-repeat", "-j", "2"]);
    assert_eq!(r.code, 0, "{}\n{}", r.out, r.err);
    assert!(r.out.contains("Results: 8 games"), "{}", r.out);
    assert!(
        r.out
            .contains("A vs B: 4 game pairs, by points 0, 1/2, 1, 3/2, 2: 0 0 4 0 0; score 50.0%"),
        "{}",
        r.out
    );
    assert!(r.out.contains("over 4 game pairs: LLR 0.000"), "{}", r.out);
    assert!(r.out.contains("undecided"), "{}", r.out);
}

#[test]
fn bad_command_lines_exit_with_code_2() {
    let dir = scratch("usage");
    let g = fake("good");
    for args in [
        vec!["-engine", g.as_str()],
        vec!["-engine", g.as_str(), "-engine", g.as_str(), "-rule", "7x"],
        vec![
            "-engine",
            g.as_str(),
            "-engine",
            g.as_str(),
            "-openings",
            "file=missing.txt",
        ],
    ] {
        let r = arena(&args, &dir);
        assert_eq!(r.code, 2, "{args:?}: {}", r.err);
        assert!(r.err.contains("gorin-arena:"), "{}", r.err);
    }
}

/// Whether pbrain-gorin answers START (the protocol loop lives in another branch until it is
/// merged).
fn brain_speaks_protocol() -> bool {
    let Ok(mut c) = Command::new(BRAIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    else {
        return false;
    };
    let _ = c.stdin.take().unwrap().write_all(b"START 15\nEND\n");
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(5) {
        if c.try_wait().ok().flatten().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = c.kill();
    let o = c.wait_with_output().unwrap();
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .any(|l| l.trim() == "OK")
}

#[test]
fn pbrain_gorin_plays_itself_without_faults() {
    if !brain_speaks_protocol() {
        eprintln!("SKIPPED: pbrain-gorin does not answer START yet (protocol loop not merged)");
        return;
    }
    let dir = scratch("self");
    let cmd = format!("cmd={}", BRAIN.replace(' ', "\\ "));
    let r = arena(
        &[
            "-each",
            "tc=0/0.1",
            "tolerance=1",
            &cmd,
            "-engine",
            "name=g1",
            "-engine",
            "name=g2",
            "-games",
            "2",
            "-repeat",
            "-drawafter",
            "120",
            "-psq",
            "psq",
        ],
        &dir,
    );
    assert_eq!(r.code, 0, "{}\n{}", r.out, r.err);
    let games = r.games();
    assert_eq!(games.len(), 2, "{}", r.out);
    assert!(!r.out.contains("by a fault"), "{}", r.out);
    for g in games {
        assert!(g.contains("five at") || g.contains("1/2-1/2"), "{g}");
    }
}
