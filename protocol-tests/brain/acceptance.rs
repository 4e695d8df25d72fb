//! Gomocup's acceptance positions (protocol.md §10.7, GomocupJudge `test_zip_rules.py`), sent
//! as GomocupJudge sends them (BOARD, side to move = field 1) under the fastgame limits, and
//! the self-play game from b2 e2 e3 mirrored into the bottom-right corner. Cases §12 #55 and
//! #56 are the standard and caro positions.

use super::harness::{board_block, Brain, Shadow};
use gorin::board::{Pos, Rule};

/// Starts a brain for `rule` on `size` with Gomocup's fastgame limits and sends the position;
/// returns the reply, checked legal.
fn answer(size: usize, rule: Rule, moves: &[(usize, usize)]) -> Pos {
    let mut b = Brain::start();
    b.send_all(&[
        &format!("START {size}"),
        "INFO timeout_turn 5000",
        "INFO timeout_match 100000",
        "INFO max_memory 367001600",
        "INFO game_type 1",
        &format!("INFO rule {}", rule.code()),
        "INFO time_left 100000",
    ]);
    b.expect("OK");
    b.send_lines(&board_block(moves));
    let p = b.expect_move();
    let mut s = Shadow::new(size, rule);
    for &(x, y) in moves {
        s.play(x, y);
    }
    s.brain_plays(p);
    b.end();
    p
}

const FOUR: [(usize, usize); 8] = [
    (7, 7),
    (7, 8),
    (8, 7),
    (8, 8),
    (9, 7),
    (9, 8),
    (10, 7),
    (10, 8),
];

#[test]
fn every_format_completes_its_four() {
    for (size, rule) in [
        (20, Rule::Freestyle),
        (15, Rule::Freestyle),
        (15, Rule::Standard),
        (15, Rule::Renju),
        (15, Rule::Caro),
    ] {
        let p = answer(size, rule, &FOUR);
        assert!(
            p == Pos::new(6, 7) || p == Pos::new(11, 7),
            "{rule} {size}: played {p}"
        );
    }
}

#[test]
fn e55_standard_blocks_the_three_instead_of_a_six() {
    let moves = [
        (7, 7),
        (7, 8),
        (8, 7),
        (7, 9),
        (6, 7),
        (7, 10),
        (9, 12),
        (7, 11),
        (6, 13),
        (7, 13),
        (8, 14),
    ];
    let p = answer(15, Rule::Standard, &moves);
    assert!(
        p == Pos::new(5, 7) || p == Pos::new(9, 7),
        "played {p} (7,12 only makes a six)"
    );
}

#[test]
fn renju_black_avoids_the_double_three() {
    let moves = [
        (7, 7),
        (7, 8),
        (8, 6),
        (8, 8),
        (7, 9),
        (8, 5),
        (8, 10),
        (8, 11),
    ];
    let p = answer(15, Rule::Renju, &moves);
    assert_ne!(p, Pos::new(6, 8), "played the double-three");
}

#[test]
fn e56_caro_defends_instead_of_a_blocked_five() {
    let moves = [
        (7, 7),
        (5, 7),
        (6, 7),
        (5, 8),
        (8, 7),
        (5, 6),
        (9, 7),
        (11, 7),
    ];
    let p = answer(15, Rule::Caro, &moves);
    assert!(
        [(5, 4), (5, 5), (5, 9), (5, 10)].contains(&(p.x(), p.y())),
        "played {p} (10,7 is a five blocked at both ends)"
    );
}

/// Two brains play each other from b2 e2 e3 mirrored into the bottom-right corner, as
/// GomocupJudge's self-play check does; every move must be legal.
fn self_play(size: usize, rule: Rule) {
    let mut brains = [Brain::start(), Brain::start()];
    for b in brains.iter_mut() {
        b.send_all(&[
            &format!("START {size}"),
            "INFO timeout_turn 100",
            "INFO timeout_match 100000",
            &format!("INFO rule {}", rule.code()),
        ]);
        b.expect("OK");
    }
    let m = |x: usize, y: usize| (size - 1 - x, size - 1 - y);
    let opening = [m(1, 1), m(4, 1), m(4, 2)];
    let mut s = Shadow::new(size, rule);
    for &(x, y) in &opening {
        s.play(x, y);
    }
    // White (to move after three stones) is brain 0; it gets the opening as BOARD.
    brains[0].send_lines(&board_block(&opening));
    let mut p = brains[0].expect_move();
    s.brain_plays(p);
    let mut first_turn = true;
    for ply in 0..60 {
        if s.board.winning_line(p).is_some() || s.board.is_full() {
            break;
        }
        let b = &mut brains[(ply + 1) % 2];
        if first_turn {
            // Brain 1 has not seen the game: it gets the whole position.
            let moves: Vec<(usize, usize)> = s
                .board
                .history()
                .iter()
                .map(|&(q, _)| (q.x(), q.y()))
                .collect();
            b.send_lines(&board_block(&moves));
            first_turn = false;
        } else {
            b.send(&format!("TURN {p}"));
        }
        p = b.expect_move();
        s.brain_plays(p);
    }
    for b in brains {
        b.end();
    }
}

#[test]
fn self_play_from_the_corner_opening() {
    self_play(20, Rule::Freestyle);
    self_play(15, Rule::Renju);
    self_play(15, Rule::Caro);
}
