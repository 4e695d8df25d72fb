//! Each command and extension beyond the §12 cases, and whole sessions as each manager runs
//! them (Piskvork, GomocupJudge, c-gomoku-cli, Yixin-Board).

use super::harness::{board_block, parse_move, Brain, Shadow};
use gorin::board::{Pos, Rule};
use std::time::Duration;

#[test]
fn info_engine_keys_are_silent_and_moves_follow() {
    let mut b = Brain::started(15);
    for line in [
        "INFO thread_num 2",
        "INFO hash_size 1024",
        "INFO max_depth 2",
        "INFO max_node 5000",
        "INFO game_type 1",
        "INFO timeout_match 180000",
        "INFO time_left 180000",
        "INFO show_detail 1",
        "INFO caution_factor 3",
    ] {
        b.send(line);
    }
    b.expect_silence();
    let p = b.ask_move("BEGIN");
    Shadow::new(15, Rule::Freestyle).brain_plays(p);
    b.end();
}

#[test]
fn progress_messages_carry_text() {
    let mut b = Brain::started(15);
    b.send("INFO timeout_turn 200");
    b.send("TURN 7,7");
    let (msgs, reply) = b.reply_with_messages();
    assert!(parse_move(&reply).is_some(), "{reply}");
    for m in &msgs {
        assert!(m.len() > "MESSAGE ".len(), "{m:?}");
        assert!(!m.contains("SUGGEST"), "{m}");
    }
    assert!(
        msgs.iter().any(|m| m.starts_with("MESSAGE depth ")
            && m.contains(" score ")
            && m.contains(" nodes ")
            && m.contains(" nps ")
            && m.contains(" pv ")),
        "no progress line: {msgs:?}"
    );
    b.end();
}

#[test]
fn yxhashclear_is_silent() {
    let mut b = Brain::started(15);
    b.ask_move("TURN 7,7");
    b.send("YXHASHCLEAR");
    b.expect_silence();
    b.ask_move("TURN 0,0");
    b.end();
}

#[test]
fn yxnbest_reports_distinct_moves_and_plays_the_first() {
    let mut b = Brain::started(15);
    b.send("INFO timeout_turn 600");
    b.send_all(&["YXBOARD", "7,7,2", "DONE"]);
    b.send("YXNBEST 3");
    let (msgs, reply) = b.reply_with_messages();
    let best: Vec<&str> = msgs
        .iter()
        .filter_map(|m| m.strip_prefix("MESSAGE nbest "))
        .map(|rest| rest.split(' ').nth(1).unwrap())
        .collect();
    assert_eq!(best.len(), 3, "{msgs:?}");
    assert!(best[0] != best[1] && best[1] != best[2] && best[0] != best[2]);
    assert_eq!(reply, best[0]);
    // The move was played: taking it back works.
    b.ok(&format!("TAKEBACK {reply}"));
    b.refused("YXNBEST 0", "at least 1");
    b.refused("YXNBEST x", "YXNBEST needs a count");
    b.end();
}

#[test]
fn yxnbest_never_asks_for_more_moves_than_squares() {
    let mut b = Brain::started(5);
    let moves: Vec<(usize, usize)> = (0..5)
        .flat_map(|y| (0..5).map(move |x| (x, y)))
        .take(22)
        .collect();
    b.send_lines(&board_block(&moves));
    b.expect_move();
    b.send("YXNBEST 10");
    let (msgs, reply) = b.reply_with_messages();
    let n = msgs
        .iter()
        .filter(|m| m.starts_with("MESSAGE nbest "))
        .count();
    assert!(n <= 2, "{msgs:?}");
    assert!(parse_move(&reply).is_some(), "{reply}");
    b.end();
}

#[test]
fn yxblock_excludes_squares_until_undone_or_reset() {
    let mut b = Brain::started(5);
    // Block every square but 0,0: the brain must play 0,0.
    let mut lines = vec!["YXBLOCK".to_string()];
    for y in 0..5 {
        for x in 0..5 {
            if (x, y) != (0, 0) {
                lines.push(format!("{x},{y}"));
            }
        }
    }
    lines.push("DONE".into());
    b.send_lines(&lines);
    b.expect_silence();
    b.send("BEGIN");
    b.expect("0,0");
    // Unblock 4,4 and block 0,1 twice (no harm): after 0,0 is taken, 4,4 is the only choice.
    b.send_all(&["YXBLOCKUNDO", "4,4", "DONE"]);
    b.send_all(&["YXBLOCK", "0,1", "DONE"]);
    b.expect_silence();
    b.send("TURN 2,2");
    b.expect("4,4");
    // Bad block lines are errors and change nothing.
    b.send_all(&["YXBLOCK", "9,9", "DONE"]);
    b.expect_error("off the board");
    b.send_all(&["YXBLOCK", "x", "DONE"]);
    b.expect_error("is not x,y");
    // After YXBLOCKRESET, a new block of everything but 4,0 leaves exactly 4,0 open (without
    // the reset, 4,0 would still be blocked from the first list).
    b.send("YXBLOCKRESET");
    let mut lines = vec!["YXBLOCK".to_string()];
    for y in 0..5 {
        for x in 0..5 {
            if (x, y) != (4, 0) {
                lines.push(format!("{x},{y}"));
            }
        }
    }
    lines.push("DONE".into());
    b.send_lines(&lines);
    b.expect_silence();
    b.send("TURN 1,1");
    b.expect("4,0");
    b.end();
}

#[test]
fn yxblock_of_every_empty_square_is_ignored() {
    let mut b = Brain::started(5);
    let mut lines = vec!["YXBLOCK".to_string()];
    for y in 0..5 {
        for x in 0..5 {
            lines.push(format!("{x},{y}"));
        }
    }
    lines.push("DONE".into());
    b.send_lines(&lines);
    let p = b.ask_move("BEGIN");
    Shadow::new(5, Rule::Freestyle).brain_plays(p);
    b.end();
}

#[test]
fn start_clears_the_block_list() {
    // Every square but the far corner blocked: if the list survived START, the corner would be
    // the only move; otherwise the engine answers near the centre, where the corner never is.
    let mut b = Brain::started(15);
    let mut lines = vec!["YXBLOCK".to_string()];
    for y in 0..15 {
        for x in 0..15 {
            if (x, y) != (0, 0) {
                lines.push(format!("{x},{y}"));
            }
        }
    }
    lines.push("DONE".into());
    b.send_lines(&lines);
    b.ok("START 15");
    let p = b.ask_move("TURN 7,7");
    assert_ne!(p, Pos::new(0, 0), "the block list survived START");
    b.end();
}

#[test]
fn yxbalance_one_and_two() {
    let mut b = Brain::started(15);
    b.send("INFO timeout_turn 400");
    b.send_all(&["YXBOARD", "7,7,1", "8,8,2", "DONE"]);
    b.send("YXBALANCEONE 0");
    let one = b.reply();
    let (x, y) = parse_move(&one).unwrap_or_else(|| panic!("{one}"));
    let mut s = Shadow::new(15, Rule::Freestyle);
    s.play(7, 7);
    s.play(8, 8);
    s.brain_plays(Pos::new(x, y));
    b.send("YXBALANCETWO 10");
    let two = b.reply();
    let sq: Vec<_> = two.split(' ').map(parse_move).collect();
    assert_eq!(sq.len(), 2, "{two}");
    let mut s = Shadow::new(15, Rule::Freestyle);
    s.play(7, 7);
    s.play(8, 8);
    for q in sq {
        let (x, y) = q.unwrap();
        s.brain_plays(Pos::new(x, y));
    }
    // Balance answers do not change the position: 7,7 is still the last-but-one stone.
    b.ok("TAKEBACK 8,8");
    b.refused("YXBALANCEONE abc", "YXBALANCE needs a bias");
    b.end();
}

#[test]
fn yxshowinfo_answers_messages() {
    let mut b = Brain::start();
    b.send("YXSHOWINFO");
    let a = b.recv();
    let c = b.recv();
    assert!(a.starts_with("MESSAGE INFO MAX_THREAD_NUM "), "{a}");
    assert!(c.starts_with("MESSAGE INFO MAX_HASH_SIZE "), "{c}");
    b.expect_silence();
    b.end();
}

#[test]
fn swap2board_three_stone_decision_is_legal_under_renju() {
    let mut b = Brain::started(15);
    b.send("INFO rule 4");
    b.send("INFO timeout_turn 300");
    b.send_all(&["SWAP2BOARD", "7,7", "7,8", "8,7", "DONE"]);
    let r = b.reply();
    assert!(
        r == "SWAP" || r.split(' ').all(|s| parse_move(s).is_some()),
        "{r}"
    );
    b.end();
}

/// Plays a whole game as a manager would, checking every move on a shadow board.
fn play_game(b: &mut Brain, size: usize, rule: Rule, brain_first: bool) -> usize {
    let mut s = Shadow::new(size, rule);
    if brain_first {
        let p = b.ask_move("BEGIN");
        s.brain_plays(p);
    }
    let mut plies = 0;
    while plies < 40 && !s.board.is_full() {
        // The "opponent": the first legal square from the top-left corner.
        let me = s.board.side_to_move();
        let q = s
            .board
            .squares()
            .find(|&q| s.board.is_empty(q))
            .filter(|&q| s.board.clone().is_legal(q, me));
        let Some(q) = q else { break };
        s.board.play(q).unwrap();
        if s.board.is_full() {
            break;
        }
        let p = b.ask_move(&format!("TURN {q}"));
        s.brain_plays(p);
        plies += 2;
    }
    plies
}

#[test]
fn piskvork_session_with_crlf() {
    let mut b = Brain::start();
    b.send_raw(b"START 20\r\n");
    b.expect("OK");
    for l in [
        "INFO max_memory 1048576000",
        "INFO timeout_match 180000",
        "INFO timeout_turn 200",
        "INFO game_type 1",
        "INFO rule 0",
        "INFO time_left 180000",
    ] {
        b.send_raw(format!("{l}\r\n").as_bytes());
    }
    assert!(play_game(&mut b, 20, Rule::Freestyle, true) >= 10);
    b.send_raw(b"RESTART\r\n");
    b.expect("OK");
    assert!(play_game(&mut b, 20, Rule::Freestyle, false) >= 10);
    b.end();
}

#[test]
fn gomocupjudge_session_without_waiting_for_ok() {
    let mut b = Brain::start();
    b.send_all(&[
        "START 15",
        "INFO timeout_turn 200",
        "INFO timeout_match 180000",
        "INFO max_memory 367001600",
        "INFO game_type 3",
        "INFO rule 1",
        "INFO folder /tmp/gorin test",
        "INFO time_left 180000",
        "BOARD",
        "DONE",
    ]);
    b.expect("OK");
    let p = b.expect_move();
    let mut s = Shadow::new(15, Rule::Standard);
    s.brain_plays(p);
    b.send("INFO time_left 179000");
    let q = if p == Pos::new(8, 8) { (6, 6) } else { (8, 8) };
    let r = b.ask_move(&format!("TURN {},{}", q.0, q.1));
    s.play(q.0, q.1);
    s.brain_plays(r);
    b.end();
}

#[test]
fn cgomokucli_session_with_start_between_games() {
    let mut b = Brain::start();
    b.send("ABOUT");
    assert!(b.recv().starts_with("name=\"Gorin\""));
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        b.ok("START 15");
        b.send_all(&[
            &format!("INFO rule {}", rule.code()),
            "INFO timeout_turn 100",
            "INFO timeout_match 20000",
            "INFO max_memory 367001600",
            "INFO time_left 20000",
        ]);
        // An opening given as BOARD, then TURNs.
        let opening = [(7, 7), (8, 8), (9, 7)];
        b.send_lines(&board_block(&opening));
        let p = b.expect_move();
        let mut s = Shadow::new(15, rule);
        for &(x, y) in &opening {
            s.play(x, y);
        }
        s.brain_plays(p);
        for _ in 0..5 {
            let me = s.board.side_to_move();
            let q = s
                .board
                .squares()
                .filter(|&q| s.board.is_empty(q))
                .find(|&q| s.board.clone().is_legal(q, me))
                .unwrap();
            s.board.play(q).unwrap();
            b.send("INFO time_left 19000");
            let p = b.ask_move(&format!("TURN {q}"));
            s.brain_plays(p);
        }
    }
    b.end();
}

#[test]
fn yixin_board_lower_case_session() {
    let mut b = Brain::start();
    b.send_all(&["info show_detail 1", "yxshowinfo"]);
    assert!(b.recv().starts_with("MESSAGE INFO"));
    assert!(b.recv().starts_with("MESSAGE INFO"));
    b.send_all(&["start 15 15", "info rule 2", "info timeout_turn 200"]);
    b.expect("OK");
    b.send_all(&["info time_left 100000", "yxhashclear", "start 15 15"]);
    b.expect("OK");
    b.send_all(&[
        "yxboard",
        "5,7,1",
        "0,0,2",
        "6,7,1",
        "2,0,2",
        "7,5,1",
        "4,0,2",
        "7,6,1",
        "0,14,2",
        "done",
        "yxshowforbid",
    ]);
    b.expect("FORBID 0707.");
    b.send("yxnbest 2");
    let (msgs, reply) = b.reply_with_messages();
    assert_eq!(
        msgs.iter()
            .filter(|m| m.starts_with("MESSAGE nbest "))
            .count(),
        2
    );
    assert_ne!(reply, "7,7", "played the forbidden point");
    b.send("board");
    b.ask_move("done");
    b.end();
}

#[test]
fn a_script_piped_in_whole_is_answered_in_order() {
    // A person or a script may write every command at once: the END behind queued commands
    // waits its turn instead of interrupting the first search.
    let mut b = Brain::bare();
    b.send_raw(b"START 15\nINFO timeout_turn 200\nBEGIN\nTURN 8,8\nTURN 20,1\nTURN 6,6\nEND\n");
    b.expect("OK");
    let mut shadow = Shadow::new(15, Rule::Freestyle);
    let first = b.expect_move();
    assert_eq!(first, Pos::new(7, 7), "an empty board opens at the centre");
    shadow.brain_plays(first);
    shadow.play(8, 8);
    shadow.brain_plays(b.expect_move());
    b.expect_error("off the board");
    shadow.play(6, 6);
    shadow.brain_plays(b.expect_move());
    let status = b.wait_exit(Duration::from_secs(3));
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    b.assert_no_stderr();
}

#[test]
fn a_board_is_timed_from_its_done_line() {
    // A person may type the block slowly: the move's time starts when DONE is read, so the
    // engine still searches in earnest after a pause longer than the turn limit.
    let mut b = Brain::started(15);
    b.send("INFO timeout_turn 600");
    let block = board_block(&[(7, 7), (8, 8), (7, 8), (6, 6)]);
    let (done, lines) = block.split_last().unwrap();
    b.send_lines(lines);
    std::thread::sleep(Duration::from_millis(900));
    b.send(done);
    let (msgs, reply) = b.reply_with_messages();
    let deepest = msgs
        .iter()
        .filter_map(|m| m.strip_prefix("MESSAGE depth "))
        .filter_map(|r| r.split(' ').next()?.parse::<u32>().ok())
        .max()
        .unwrap_or(0);
    assert!(deepest >= 4, "deepest {deepest}: {msgs:?}");
    assert!(parse_move(&reply).is_some(), "{reply}");
    b.end();
}
