//! Terminal-play tests: drive `pbrain-gorin play` through pipes as a script would.
//! Nothing here depends on the engine's strength: games end however the engine plays, and the
//! tests check that the end is legal and announced.

use gorin::record::GameRecord;
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `pbrain-gorin play ARGS` with `input` on stdin; returns stdout, stderr and success.
fn play(args: &[&str], input: &str) -> (String, String, bool) {
    play_bytes(args, input.as_bytes())
}

/// `play` with raw bytes on stdin.
fn play_bytes(args: &[&str], input: &[u8]) -> (String, String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-gorin"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start pbrain-gorin");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        // The program may quit before reading everything; a broken pipe is fine then.
        let _ = stdin.write_all(&input);
    });
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        out.read_to_string(&mut s).unwrap();
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        err.read_to_string(&mut s).unwrap();
        s
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if Instant::now() > deadline {
            child.kill().ok();
            panic!("pbrain-gorin play did not finish within 120 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    writer.join().unwrap();
    (
        reader.join().unwrap(),
        err_reader.join().unwrap(),
        status.success(),
    )
}

/// Splits a transcript into (command typed, what came back) pairs. The program echoes each line
/// it reads after its prompt when stdin is not a terminal.
fn responses(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        let prompt = ["black> ", "white> ", "[Enter: next move]> ", "> "]
            .iter()
            .find(|p| line.starts_with(*p));
        match prompt {
            Some(p) => out.push((line[p.len()..].to_string(), String::new())),
            None => {
                if let Some(last) = out.last_mut() {
                    last.1.push_str(line);
                    last.1.push('\n');
                }
            }
        }
    }
    out
}

/// What the program answered to the `n`th occurrence of `cmd`.
fn answer(text: &str, cmd: &str, n: usize) -> String {
    responses(text)
        .into_iter()
        .filter(|(c, _)| c == cmd)
        .nth(n)
        .unwrap_or_else(|| panic!("no answer to '{cmd}' #{n} in:\n{text}"))
        .1
}

/// (x, y) of a renju-notation square on a 15x15 board.
fn square(s: &str) -> (i32, i32) {
    let b = s.as_bytes();
    let x = (b[0].to_ascii_lowercase() - b'a') as i32;
    let row: i32 = s[1..].parse().unwrap();
    (x, 15 - row)
}

/// Checks an announced win: five or more squares in one straight, unbroken line.
fn assert_line(squares: &[(i32, i32)]) {
    assert!(squares.len() >= 5, "{squares:?}");
    let mut s = squares.to_vec();
    s.sort();
    let (dx, dy) = (s[1].0 - s[0].0, s[1].1 - s[0].1);
    assert!(
        dx.abs() <= 1 && dy.abs() <= 1 && (dx, dy) != (0, 0),
        "{s:?}"
    );
    for w in s.windows(2) {
        assert_eq!((w[1].0 - w[0].0, w[1].1 - w[0].1), (dx, dy), "{s:?}");
    }
}

/// Checks that the transcript announces exactly one legal game end and returns its line.
fn game_end(text: &str) -> String {
    let ends: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("game over: "))
        .collect();
    assert_eq!(ends.len(), 1, "{text}");
    let end = ends[0];
    if let Some(rest) = end.split(" wins with ").nth(1) {
        let squares: Vec<(i32, i32)> = rest
            .split(" - ")
            .next()
            .unwrap()
            .split_whitespace()
            .map(square)
            .collect();
        assert_line(&squares);
    } else {
        assert!(end.contains("draw"), "{end}");
    }
    end.to_string()
}

/// Every square of the 15x15 board, as x,y and as renju names alternately.
fn every_square() -> String {
    let mut s = String::new();
    for y in 0..15 {
        for x in 0..15 {
            if (x + y) % 2 == 0 {
                s.push_str(&format!("{x},{y}\n"));
            } else {
                s.push_str(&format!("{}{}\n", (b'a' + x as u8) as char, 15 - y));
            }
        }
    }
    s
}

#[test]
fn a_whole_game_against_the_engine_ends_legally() {
    for args in [
        &["--time", "0.1"][..],
        &["--time", "0.1", "--rule", "renju", "--you", "white"][..],
        &["--level", "easy", "--rule", "standard", "--first", "engine"][..],
    ] {
        let input = every_square() + "quit\n";
        let (out, err, ok) = play(args, &input);
        assert!(ok, "{args:?}: {err}");
        game_end(&out);
        // After the end, moves are refused with a reason and nothing more is played.
        let after = out.split("game over: ").nth(1).unwrap();
        assert!(!after.contains(" plays "), "{args:?}: {after}");
        assert!(out.trim_end().ends_with("bye"), "{args:?}");
    }
}

#[test]
fn engine_against_itself_plays_to_the_end() {
    let (out, err, ok) = play(&["--mode", "watch", "--time", "0.1", "--delay", "0"], "");
    assert!(ok, "{err}");
    game_end(&out);
    // Stepping by hand: each Enter plays one move.
    let (out, _, ok) = play(
        &["--mode", "watch", "--step", "--time", "0.1"],
        "\n\ngo\nmoves\n",
    );
    assert!(ok);
    assert_eq!(out.matches(" plays ").count(), 3, "{out}");
    assert_eq!(answer(&out, "moves", 0).split_whitespace().count(), 4);
}

#[test]
fn undo_takes_back_both_moves_and_restart_clears() {
    let input = "h8\nmoves\nundo\nmoves\nundo\nh8\ni9\nrestart\nmoves\n";
    let (out, err, ok) = play(&["--time", "0.1"], input);
    assert!(ok, "{err}");
    let first = answer(&out, "moves", 0);
    assert!(first.starts_with("moves: H8 "), "{first}");
    assert_eq!(first.split_whitespace().count(), 3);
    assert!(answer(&out, "undo", 0).contains("took back 2 moves"));
    assert_eq!(answer(&out, "moves", 1).trim(), "moves: (none)");
    assert!(answer(&out, "undo", 1).starts_with("error: "));
    assert!(answer(&out, "restart", 0).contains("new game"));
    assert_eq!(answer(&out, "moves", 2).trim(), "moves: (none)");

    // Playing white: the engine opens, undo takes back your move and its reply only.
    let (out, _, _) = play(&["--you", "white", "--time", "0.1"], "a1\nundo\nmoves\n");
    assert!(answer(&out, "undo", 0).contains("took back 2 moves"));
    assert_eq!(answer(&out, "moves", 0).split_whitespace().count(), 2);
}

#[test]
fn a_forbidden_move_is_refused_in_renju() {
    // Black I8 J8 and H9 H10: H8 would make two open threes.
    let input = "i8\na1\nj8\na3\nh9\na5\nh10\na7\nh8\nmoves\ng8\n";
    let (out, err, ok) = play(&["--mode", "two", "--rule", "renju"], input);
    assert!(ok, "{err}");
    let before = answer(&out, "a7", 0);
    assert!(
        before.contains("! = forbidden for black: ") && before.contains("H8"),
        "{before}"
    );
    let refused = answer(&out, "h8", 0);
    assert_eq!(refused.lines().count(), 1, "{refused}");
    assert!(
        refused.starts_with("error: H8 is forbidden for black under renju (double-three"),
        "{refused}"
    );
    assert_eq!(answer(&out, "moves", 0).split_whitespace().count(), 9);
    assert!(answer(&out, "g8", 0).contains("black plays G8"));
    // Under freestyle the same move is fine.
    let (out, _, _) = play(&["--mode", "two"], input);
    assert!(answer(&out, "h8", 0).contains("black plays H8"));
}

#[test]
fn a_saved_game_loads_back_identical() {
    let dir = std::env::temp_dir().join(format!("gorin-play-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let psq = dir.join("game.psq");
    let txt = dir.join("game.txt");
    let input = format!(
        "h8\n8,6\nj7\ng9\n3,3\nmoves\nsave {p}\nsave {t}\nrestart\nload {p}\nmoves\nrestart\nload {t}\nmoves\n",
        p = psq.display(),
        t = txt.display()
    );
    let (out, err, ok) = play(&["--mode", "two", "--rule", "renju"], &input);
    assert!(ok, "{err}");
    let played = answer(&out, "moves", 0);
    assert_eq!(played.trim(), "moves: H8 I9 J7 G9 D12");
    assert_eq!(answer(&out, "moves", 1), played);
    assert_eq!(answer(&out, "moves", 2), played);
    // The PSQ file is a real Piskvork record of those moves.
    let rec = GameRecord::parse_psq(&std::fs::read_to_string(&psq).unwrap()).unwrap();
    assert_eq!((rec.width, rec.height, rec.moves.len()), (15, 15, 5));
    assert_eq!(rec.moves[1].0, gorin::board::Pos::new(8, 6));
    // And --load starts from it.
    let (out, _, _) = play(
        &["--mode", "two", "--load", &psq.to_string_lossy()],
        "moves\n",
    );
    assert_eq!(answer(&out, "moves", 0), played);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_gets_one_line_and_changes_nothing() {
    let input =
        "h8\np1\n15,15\nh8\nfly away\nsave\nload /nonexistent/gorin.psq\ntime 99\nh99\n\nmoves\n";
    let (out, err, ok) = play(&["--mode", "two"], input);
    assert!(ok, "{err}");
    for cmd in [
        "p1",
        "15,15",
        "h8",
        "fly away",
        "save",
        "load /nonexistent/gorin.psq",
        "time 99",
        "h99",
    ] {
        let a = answer(&out, cmd, if cmd == "h8" { 1 } else { 0 });
        assert_eq!(a.lines().count(), 1, "{cmd}: {a}");
        assert!(a.starts_with("error: "), "{cmd}: {a}");
    }
    assert_eq!(answer(&out, "moves", 0).trim(), "moves: H8");
    // EOF without quit ends cleanly.
    assert!(!out.contains("bye"));
    // Bytes that are not text, and a last line without a newline, are handled too.
    let (out, err, ok) = play_bytes(&["--mode", "two"], b"h8\n\xff\xfe\x00\nmoves");
    assert!(ok, "{err}");
    assert!(answer(&out, "moves", 0).contains("moves: H8"), "{out}");
    assert!(!out.contains("bye"));
}

#[test]
fn options_help_and_errors() {
    let (out, _, ok) = play(&["--help"], "");
    assert!(ok && out.contains("--rule"));
    for bad in [&["--size", "99"][..], &["--time", "0"], &["--frobnicate"]] {
        let (_, err, ok) = play(bad, "");
        assert!(!ok, "{bad:?}");
        assert!(err.contains("pbrain-gorin: "), "{bad:?}: {err}");
    }
    let (out, _, _) = play(&["--size", "20"], "t20\nquit\n");
    assert!(out.contains("    A B C D E F G H I J K L M N O P Q R S T"));
    assert!(answer(&out, "t20", 0).contains("black (you) plays T20"));
}

#[test]
fn a_puzzle_is_played_against_the_defending_engine() {
    // Black to move has an open four: the next move wins.
    let (out, err, ok) = play(
        &["--puzzle", "b=h8,i8,j8,k8 w=a1,a3,a5 black"],
        "l8\nrestart\ng8\nundo\nm8\n",
    );
    assert!(ok, "{err}");
    assert!(out.contains("puzzle: black to move and win"), "{out}");
    let solved = answer(&out, "l8", 0);
    assert!(
        solved.contains("game over: black wins with H8 I8 J8 K8 L8 - puzzle solved!"),
        "{solved}"
    );
    assert!(answer(&out, "g8", 0).contains("puzzle solved!"));
    assert!(answer(&out, "undo", 0).contains("took back 1 move"));
    // A move that wastes the win: gorin blocks, and the verdict comes honestly (the solver may
    // prove the win is gone, or say it cannot tell).
    let wasted = answer(&out, "m8", 0);
    assert!(wasted.contains("white (gorin) plays"), "{wasted}");
    assert!(
        wasted.contains("your win") || wasted.contains("unknown") || wasted.contains("game over"),
        "{wasted}"
    );
}
