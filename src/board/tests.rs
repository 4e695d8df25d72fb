//! Board and rule tests: the incremental state against a full recomputation over random games,
//! hand-built cases for every rule, and renju forbidden points.

use super::notation::{parse_move_list, parse_square, Rows};
use super::*;

use super::rng::Rng;

/// Board with stones given in renju notation (rows from the bottom), black to move.
fn renju_board(black: &[&str], white: &[&str]) -> Board {
    let mut b = Board::new(15, 15, Rule::Renju).unwrap();
    for (list, color) in [(black, Color::Black), (white, Color::White)] {
        for s in list {
            let p = parse_square(s, 15, 15, Rows::FromBottom).unwrap();
            b.place(p, color).unwrap();
        }
    }
    b.set_side_to_move(Color::Black);
    b
}

fn sq(s: &str) -> Pos {
    parse_square(s, 15, 15, Rows::FromBottom).unwrap()
}

fn xy(x: usize, y: usize) -> Pos {
    Pos::new(x, y)
}

/// Board with black stones and white stones at (x, y) coordinates, black to move.
fn board_xy(rule: Rule, black: &[(usize, usize)], white: &[(usize, usize)]) -> Board {
    let mut b = Board::new(15, 15, rule).unwrap();
    for &(x, y) in black {
        b.place(xy(x, y), Color::Black).unwrap();
    }
    for &(x, y) in white {
        b.place(xy(x, y), Color::White).unwrap();
    }
    b.set_side_to_move(Color::Black);
    b
}

#[test]
fn random_games_keep_incremental_state_exact() {
    // 10,000 games in all, 2,000 under each rule, on sizes 5..=20 and 32 (some rectangular),
    // each move made and sometimes undone, comparing the incremental keys and hash with a
    // recomputation at every step.
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let sizes = [5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 15, 15, 20, 20, 32];
    for rule in Rule::ALL {
        for game in 0..2_000 {
            let w = sizes[rng.below(sizes.len())];
            let h = if game % 7 == 0 {
                sizes[rng.below(sizes.len())]
            } else {
                w
            };
            let mut b = Board::new(w, h, rule).unwrap();
            let mut empties: Vec<Pos> = b.squares().collect();
            let start_hash = b.hash();
            let mut hashes = vec![b.hash()];
            loop {
                if empties.is_empty() {
                    break;
                }
                let i = rng.below(empties.len());
                let p = empties.swap_remove(i);
                let c = b.side_to_move();
                let wins = b.makes_five(p, c);
                b.make(p);
                assert!(b.verify_incremental(), "{rule} {w}x{h} after make {p:?}");
                hashes.push(b.hash());
                if rng.below(4) == 0 {
                    b.unmake();
                    assert!(b.verify_incremental(), "{rule} after unmake {p:?}");
                    assert_eq!(b.hash(), hashes[hashes.len() - 2]);
                    b.make(p);
                    assert_eq!(b.hash(), *hashes.last().unwrap());
                }
                if wins {
                    assert!(
                        b.winning_line(p).is_some(),
                        "{rule}: win at {p:?} has no line"
                    );
                    break;
                }
            }
            while b.move_count() > 0 {
                b.unmake();
            }
            assert_eq!(b.hash(), start_hash);
            assert!(b.verify_incremental());
        }
    }
}

#[test]
fn lookahead_matches_the_move_made() {
    // `hash_after` and `pattern_beside` answer "what if this stone were played" without playing
    // it: over random positions under every rule, each must equal what the board says after
    // the move (every empty square within four along each line, a stone of either colour).
    let mut rng = Rng(0x0bad_cafe_f00d_1234);
    for rule in Rule::ALL {
        for _ in 0..300 {
            let mut b = Board::new(15, 15, rule).unwrap();
            let mut empties: Vec<Pos> = b.squares().collect();
            for _ in 0..rng.below(60) {
                let p = empties.swap_remove(rng.below(empties.len()));
                b.make(p);
            }
            let m = empties[rng.below(empties.len())];
            let to_move = b.side_to_move();
            let hash = b.hash_after(m);
            for c in [Color::Black, Color::White] {
                b.set_side_to_move(c);
                let mut after = Vec::new();
                b.make(m);
                if c == to_move {
                    assert_eq!(b.hash(), hash, "{rule}: hash after {m:?}");
                }
                for d in 0..4 {
                    for k in (-4isize..=4).filter(|&k| k != 0) {
                        let q = m.step(d, k);
                        if b.contains(q) && b.is_empty(q) {
                            after.push((q, d, k, b.pattern(q, d, c)));
                        }
                    }
                }
                b.unmake();
                for (q, d, k, pattern) in after {
                    assert_eq!(
                        b.pattern_beside(q, d, -k, c),
                        pattern,
                        "{rule}: {c} {q:?} beside {m:?}"
                    );
                }
            }
            // `patterns_after` for every square and a stone of either colour on `m`.
            for stone in [Color::Black, Color::White] {
                let before: Vec<(Pos, [[Pattern; 4]; 2])> = b
                    .squares()
                    .filter(|&q| q != m && b.is_empty(q))
                    .map(|q| {
                        let lookahead =
                            [Color::Black, Color::White].map(|c| b.patterns_after(q, m, stone, c));
                        (q, lookahead)
                    })
                    .collect();
                b.set_side_to_move(stone);
                b.make(m);
                for (q, lookahead) in before {
                    for (i, c) in [Color::Black, Color::White].into_iter().enumerate() {
                        assert_eq!(
                            lookahead[i],
                            b.patterns(q, c),
                            "{rule}: {c} on {q:?} after {stone} on {m:?}"
                        );
                    }
                }
                b.unmake();
            }
            b.set_side_to_move(to_move);
        }
    }
}

#[test]
fn rejects_bad_sizes_and_squares() {
    assert!(matches!(
        Board::new(4, 15, Rule::Freestyle),
        Err(BoardError::BadSize { .. })
    ));
    assert!(Board::new(33, 33, Rule::Freestyle).is_err());
    let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
    assert_eq!(b.pos(15, 0), Err(BoardError::OffBoard { x: 15, y: 0 }));
    assert_eq!(b.pos(-1, 3), Err(BoardError::OffBoard { x: -1, y: 3 }));
    // A square of the padded grid beyond this board's width is off the board too.
    assert!(matches!(
        b.play(Pos::new(20, 3)),
        Err(BoardError::OffBoard { .. })
    ));
    b.play(xy(7, 7)).unwrap();
    assert_eq!(b.play(xy(7, 7)), Err(BoardError::Occupied { x: 7, y: 7 }));
    assert_eq!(b.move_count(), 1);
    assert_eq!(b.undo(), Ok(xy(7, 7)));
    assert_eq!(b.undo(), Err(BoardError::NothingToUndo));
    // Queries on occupied or off-board squares answer without touching the board.
    let mut r = board_xy(Rule::Renju, &[(5, 7), (6, 7), (7, 5), (7, 6)], &[]);
    let before = r.hash();
    assert!(r.is_forbidden(xy(7, 7)));
    assert!(!r.is_forbidden(xy(5, 7)));
    assert!(!r.is_forbidden(Pos::new(31, 31)));
    assert!(!r.is_legal(xy(5, 7), Color::White));
    assert_eq!(r.hash(), before);
    assert!(r.verify_incremental());
    let mut tiny = Board::new(5, 5, Rule::Freestyle).unwrap();
    let all: Vec<Pos> = tiny.squares().collect();
    for p in all {
        tiny.play(p).unwrap();
    }
    assert!(tiny.is_full());
    assert!(tiny.classify_move(xy(0, 0), Color::Black).is_err());
}

#[test]
fn rectangular_boards_have_walls_where_they_end() {
    let mut b = Board::new(20, 7, Rule::Freestyle).unwrap();
    // Four in a column ending at the bottom edge: no five is possible below.
    for y in 3..7 {
        b.place(xy(0, y), Color::Black).unwrap();
    }
    b.set_side_to_move(Color::Black);
    assert!(b.makes_five(xy(0, 2), Color::Black));
    assert_eq!(b.pattern(xy(0, 2), 1, Color::Black), Pattern::Five);
    assert!(b.pos(19, 6).is_ok());
    assert!(b.pos(6, 19).is_err());
}

#[test]
fn freestyle_overline_wins_for_both() {
    for c in Color::BOTH {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for x in [1, 2, 3, 5, 6] {
            b.place(xy(x, 7), c).unwrap();
        }
        assert_eq!(b.classify_move(xy(4, 7), c), Ok(MoveClass::Win));
    }
}

#[test]
fn standard_overline_wins_for_nobody() {
    for c in Color::BOTH {
        let mut b = Board::new(15, 15, Rule::Standard).unwrap();
        for x in [1, 2, 3, 5, 6] {
            b.place(xy(x, 7), c).unwrap();
        }
        assert_eq!(b.classify_move(xy(4, 7), c), Ok(MoveClass::Normal));
        assert_eq!(b.pattern(xy(4, 7), 0, c), Pattern::Overline);
        // An exact five still wins.
        assert_eq!(b.classify_move(xy(0, 7), c), Ok(MoveClass::Normal));
        let mut b2 = Board::new(15, 15, Rule::Standard).unwrap();
        for x in [2, 3, 5, 6] {
            b2.place(xy(x, 7), c).unwrap();
        }
        assert_eq!(b2.classify_move(xy(4, 7), c), Ok(MoveClass::Win));
        b2.place(xy(4, 7), c).unwrap();
        assert_eq!(b2.winning_line(xy(4, 7)).map(|l| l.len()), Some(5));
    }
}

#[test]
fn caro_blocked_five_versus_edge() {
    // Both ends blocked by white: no win. One end at the edge: a win.
    let mut b = board_xy(
        Rule::Caro,
        &[(6, 7), (7, 7), (8, 7), (9, 7)],
        &[(5, 7), (11, 7)],
    );
    assert_eq!(
        b.classify_move(xy(10, 7), Color::Black),
        Ok(MoveClass::Normal)
    );
    let mut edge = board_xy(Rule::Caro, &[(0, 3), (1, 3), (2, 3), (3, 3)], &[(5, 3)]);
    assert_eq!(
        edge.classify_move(xy(4, 3), Color::Black),
        Ok(MoveClass::Win)
    );
    // Rule 8: six or more wins even when blocked; rule 9: it does not.
    let six = [(5, 7), (6, 7), (7, 7), (9, 7), (10, 7)];
    let walls = [(4, 7), (11, 7)];
    let mut c8 = board_xy(Rule::Caro, &six, &walls);
    assert_eq!(c8.classify_move(xy(8, 7), Color::Black), Ok(MoveClass::Win));
    let mut c9 = board_xy(Rule::CaroExact, &six, &walls);
    assert_eq!(
        c9.classify_move(xy(8, 7), Color::Black),
        Ok(MoveClass::Normal)
    );
    // Blocked on one side only wins under both caro rules.
    for rule in [Rule::Caro, Rule::CaroExact] {
        let mut one = board_xy(rule, &[(6, 7), (7, 7), (8, 7), (9, 7)], &[(5, 7)]);
        assert_eq!(
            one.classify_move(xy(10, 7), Color::Black),
            Ok(MoveClass::Win)
        );
    }
}

#[test]
fn gomocup_caro_acceptance_position() {
    // shared/protocol.md §10.7: 10,7 would be a five blocked at both ends.
    let mut b = Board::new(15, 15, Rule::Caro).unwrap();
    for (x, y) in [
        (7, 7),
        (5, 7),
        (6, 7),
        (5, 8),
        (8, 7),
        (5, 6),
        (9, 7),
        (11, 7),
    ] {
        b.play(xy(x, y)).unwrap();
    }
    assert_eq!(
        b.classify_move(xy(10, 7), Color::Black),
        Ok(MoveClass::Normal)
    );
}

#[test]
fn renju_vectors_from_protocol_summary() {
    // The qpiskvork test vectors listed in shared/protocol.md §10.4 (black stones, then move).
    type Case = (&'static [(usize, usize)], (usize, usize), MoveClass);
    let cases: &[Case] = &[
        (
            &[(5, 7), (6, 7), (7, 5), (7, 6)],
            (7, 7),
            MoveClass::Forbidden,
        ),
        (
            &[(4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6)],
            (7, 7),
            MoveClass::Forbidden,
        ),
        (
            &[(4, 7), (5, 7), (6, 7), (7, 5), (7, 6)],
            (7, 7),
            MoveClass::Normal,
        ),
        (
            &[(4, 7), (5, 7), (6, 7), (7, 5), (7, 6), (5, 5), (6, 6)],
            (7, 7),
            MoveClass::Forbidden,
        ),
        (
            &[(0, 0), (1, 0), (2, 0), (4, 0), (5, 0), (6, 0)],
            (3, 0),
            MoveClass::Forbidden,
        ),
        (&[(4, 0), (5, 0), (6, 0), (7, 0)], (3, 0), MoveClass::Win),
        (
            &[(3, 7), (5, 7), (7, 7), (8, 5), (8, 6)],
            (8, 7),
            MoveClass::Normal,
        ),
        (
            &[
                (0, 0),
                (1, 0),
                (2, 0),
                (5, 0),
                (6, 0),
                (7, 0),
                (3, 1),
                (3, 2),
                (3, 3),
            ],
            (3, 0),
            MoveClass::Normal,
        ),
    ];
    for (i, (black, mv, want)) in cases.iter().enumerate() {
        let mut b = board_xy(Rule::Renju, black, &[]);
        assert_eq!(
            b.classify_move(xy(mv.0, mv.1), Color::Black),
            Ok(*want),
            "case {i}"
        );
    }
    // The same overline shape is a win for white.
    let mut w = Board::new(15, 15, Rule::Renju).unwrap();
    for x in [0, 1, 2, 4, 5, 6] {
        w.place(xy(x, 0), Color::White).unwrap();
    }
    assert_eq!(w.classify_move(xy(3, 0), Color::White), Ok(MoveClass::Win));
}

#[test]
fn renju_own_cases() {
    // Four-four in one line: X.XXX.X with the move in the middle.
    let mut b = board_xy(Rule::Renju, &[(3, 7), (5, 7), (7, 7), (9, 7)], &[]);
    assert_eq!(
        b.classify_move(xy(6, 7), Color::Black),
        Ok(MoveClass::Forbidden)
    );
    assert_eq!(b.pattern(xy(6, 7), 0, Color::Black), Pattern::DoubleFour);
    // XX.XX.XX: the move makes two fours in the same line.
    let mut b = board_xy(Rule::Renju, &[(2, 7), (3, 7), (5, 7), (8, 7), (9, 7)], &[]);
    assert_eq!(
        b.classify_move(xy(6, 7), Color::Black),
        Ok(MoveClass::Forbidden)
    );
    assert_eq!(b.pattern(xy(6, 7), 0, Color::Black), Pattern::DoubleFour);
    // Five plus overline at once: the five wins.
    let mut b = board_xy(
        Rule::Renju,
        &[
            (3, 7),
            (4, 7),
            (5, 7),
            (6, 7),
            (7, 2),
            (7, 3),
            (7, 4),
            (7, 5),
            (7, 8),
        ],
        &[],
    );
    assert_eq!(b.classify_move(xy(7, 7), Color::Black), Ok(MoveClass::Win));
    // A square that is forbidden (double-three) and also a five: the five wins.
    let mut b = board_xy(
        Rule::Renju,
        &[
            (3, 7),
            (4, 7),
            (5, 7),
            (6, 7),
            (7, 5),
            (7, 6),
            (8, 8),
            (9, 9),
        ],
        &[],
    );
    assert_eq!(b.classify_move(xy(7, 7), Color::Black), Ok(MoveClass::Win));
    // Without the four in the row the same square is a double-three.
    let mut b = board_xy(Rule::Renju, &[(7, 5), (7, 6), (8, 8), (9, 9)], &[]);
    assert_eq!(
        b.classify_move(xy(7, 7), Color::Black),
        Ok(MoveClass::Forbidden)
    );
    // White is never forbidden.
    let mut b = Board::new(15, 15, Rule::Renju).unwrap();
    for p in [(7, 5), (7, 6), (8, 8), (9, 9)] {
        b.place(xy(p.0, p.1), Color::White).unwrap();
    }
    assert_eq!(
        b.classify_move(xy(7, 7), Color::White),
        Ok(MoveClass::Normal)
    );
    // Under freestyle and standard the double-three square is an ordinary move.
    for rule in [Rule::Freestyle, Rule::Standard] {
        let mut b = board_xy(rule, &[(7, 5), (7, 6), (8, 8), (9, 9)], &[]);
        assert_eq!(
            b.classify_move(xy(7, 7), Color::Black),
            Ok(MoveClass::Normal)
        );
        assert!(b.forbidden_points().is_empty());
    }
}

#[test]
fn renju_false_three() {
    // The summary's vector: the row three cannot become a straight four without a six.
    let mut b = board_xy(Rule::Renju, &[(3, 7), (5, 7), (7, 7), (8, 5), (8, 6)], &[]);
    assert_eq!(
        b.classify_move(xy(8, 7), Color::Black),
        Ok(MoveClass::Normal)
    );

    // Nested case. Candidate C = (7,7) makes a row three (5,7),(6,7),C whose only straight-four
    // square is (8,7) (white (3,7) spoils the other side), and a diagonal three (5,5),(6,6),C.
    // With C placed, (8,7) is a four plus two real threes (column (8,5),(8,6) and anti-diagonal
    // (10,5),(9,6)): forbidden. So the row three is false and C is legal.
    let black = [
        (5, 7),
        (6, 7),
        (5, 5),
        (6, 6),
        (8, 5),
        (8, 6),
        (9, 6),
        (10, 5),
    ];
    let white = [(3, 7)];
    let mut b = board_xy(Rule::Renju, &black, &white);
    assert_eq!(
        b.classify_move(xy(8, 7), Color::Black),
        Ok(MoveClass::Forbidden)
    );
    assert_eq!(
        b.classify_move(xy(7, 7), Color::Black),
        Ok(MoveClass::Normal)
    );
    // Without the anti-diagonal stones (8,7) stays legal, the row three is real, and C is a
    // double-three.
    let mut b = board_xy(Rule::Renju, &black[..6], &white);
    assert_eq!(
        b.classify_move(xy(7, 7), Color::Black),
        Ok(MoveClass::Forbidden)
    );
}

#[test]
fn renju_quintet_cases() {
    // Transcribed from renju-note/quintet (MIT licence, (c) the quintet authors) unit tests,
    // via shared/data/renju-forbidden/quintet_forbidden_cases.json.
    let mut b = renju_board(&["G8", "H7", "H9", "I8"], &[]);
    assert_eq!(
        b.classify_move(sq("H8"), Color::Black),
        Ok(MoveClass::Forbidden)
    );
    let mut b = renju_board(
        &[
            "B1", "B5", "B8", "B13", "C1", "C5", "C7", "C12", "C14", "D5", "D6", "D13", "E1", "F1",
            "G1", "K1", "K11", "L1", "L12", "L13", "M1", "M12", "M14", "N1", "N13", "N14", "O15",
        ],
        &["L14", "N12"],
    );
    let mut got: Vec<Pos> = b.forbidden_points();
    got.sort();
    let mut want = vec![sq("C13"), sq("D1"), sq("E5")];
    want.sort();
    assert_eq!(got, want);
    assert_eq!(
        b.classify_move(sq("D1"), Color::Black),
        Ok(MoveClass::Forbidden)
    );
}

#[test]
fn zobrist_depends_on_order_only_through_position() {
    let moves = parse_move_list("h8i9h7g9", 15, 15, Rows::FromTop).unwrap();
    let a = Board::from_moves(15, 15, Rule::Freestyle, &moves).unwrap();
    let swapped = [moves[2], moves[1], moves[0], moves[3]];
    let b = Board::from_moves(15, 15, Rule::Freestyle, &swapped).unwrap();
    assert_eq!(a.hash(), b.hash());
    let c = Board::from_moves(15, 15, Rule::Freestyle, &moves[..3]).unwrap();
    assert_ne!(a.hash(), c.hash());
}

/// Minimal JSON reader for the shared test files (objects, arrays, strings, numbers, literals).
mod json {
    #[derive(Debug, Clone)]
    pub enum Value {
        Null,
        Bool,
        Num,
        Str(String),
        Arr(Vec<Value>),
        Obj(Vec<(String, Value)>),
    }

    impl Value {
        pub fn get(&self, k: &str) -> Option<&Value> {
            match self {
                Value::Obj(v) => v.iter().find(|(n, _)| n == k).map(|(_, x)| x),
                _ => None,
            }
        }
        pub fn arr(&self) -> &[Value] {
            match self {
                Value::Arr(v) => v,
                _ => &[],
            }
        }
        pub fn str(&self) -> &str {
            match self {
                Value::Str(s) => s,
                _ => "",
            }
        }
        pub fn entries(&self) -> &[(String, Value)] {
            match self {
                Value::Obj(v) => v,
                _ => &[],
            }
        }
    }

    pub fn parse(s: &str) -> Value {
        let b = s.as_bytes();
        let mut i = 0;
        value(b, &mut i)
    }

    fn ws(b: &[u8], i: &mut usize) {
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    }

    fn value(b: &[u8], i: &mut usize) -> Value {
        ws(b, i);
        match b[*i] {
            b'{' => {
                *i += 1;
                let mut out = Vec::new();
                loop {
                    ws(b, i);
                    if b[*i] == b'}' {
                        *i += 1;
                        return Value::Obj(out);
                    }
                    if b[*i] == b',' {
                        *i += 1;
                        continue;
                    }
                    let k = match value(b, i) {
                        Value::Str(s) => s,
                        other => panic!("bad key {other:?}"),
                    };
                    ws(b, i);
                    assert_eq!(b[*i], b':');
                    *i += 1;
                    out.push((k, value(b, i)));
                }
            }
            b'[' => {
                *i += 1;
                let mut out = Vec::new();
                loop {
                    ws(b, i);
                    if b[*i] == b']' {
                        *i += 1;
                        return Value::Arr(out);
                    }
                    if b[*i] == b',' {
                        *i += 1;
                        continue;
                    }
                    out.push(value(b, i));
                }
            }
            b'"' => {
                *i += 1;
                let mut s = Vec::new();
                while b[*i] != b'"' {
                    if b[*i] == b'\\' {
                        *i += 1;
                        s.push(match b[*i] {
                            b'n' => b'\n',
                            b't' => b'\t',
                            c => c,
                        });
                    } else {
                        s.push(b[*i]);
                    }
                    *i += 1;
                }
                *i += 1;
                Value::Str(String::from_utf8_lossy(&s).into_owned())
            }
            b't' => {
                *i += 4;
                Value::Bool
            }
            b'f' => {
                *i += 5;
                Value::Bool
            }
            b'n' => {
                *i += 4;
                Value::Null
            }
            _ => {
                let start = *i;
                while *i < b.len()
                    && (b[*i] == b'-' || b[*i] == b'.' || b[*i].is_ascii_alphanumeric())
                {
                    *i += 1;
                }
                assert!(std::str::from_utf8(&b[start..*i])
                    .unwrap()
                    .parse::<f64>()
                    .is_ok());
                Value::Num
            }
        }
    }
}

fn shared_dir() -> Option<std::path::PathBuf> {
    let dir = std::env::var_os("GORIN_SHARED")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    dir.join("data/renju-forbidden").is_dir().then_some(dir)
}

/// Checks every case of shared/data/renju-forbidden (run with `--ignored`; .ci/run does so when
/// the shared folder is present). Prints how many boards and points were checked.
#[test]
#[ignore = "needs ../shared (run by .ci/run when present)"]
fn shared_renju_forbidden_cases() {
    let dir = shared_dir().expect("shared/data/renju-forbidden not found (set GORIN_SHARED)");
    let dir = dir.join("data/renju-forbidden");
    let mut boards = 0;
    let mut points = 0;
    let mut failures = Vec::new();
    let stones = |v: Option<&json::Value>| -> Vec<String> {
        v.map(|a| a.arr().iter().map(|s| s.str().to_string()).collect())
            .unwrap_or_default()
    };
    let check_full = |name: String, b: &mut Board, want: Vec<Pos>, failures: &mut Vec<String>| {
        let mut got = b.forbidden_points();
        got.sort();
        let mut want = want;
        want.sort();
        if got != want {
            failures.push(format!("{name}: forbidden {got:?}, expected {want:?}"));
        }
        let empties = b.squares().filter(|&p| b.is_empty(p)).count();
        (1, empties)
    };

    // mintaka: complete forbidden sets.
    let m = json::parse(&std::fs::read_to_string(dir.join("mintaka_forbid_cases.json")).unwrap());
    for (i, case) in m.get("cases").unwrap().arr().iter().enumerate() {
        let black = stones(case.get("black"));
        let white = stones(case.get("white"));
        let bl: Vec<&str> = black.iter().map(String::as_str).collect();
        let wh: Vec<&str> = white.iter().map(String::as_str).collect();
        let mut b = renju_board(&bl, &wh);
        let want = case
            .get("forbidden")
            .unwrap()
            .entries()
            .iter()
            .map(|(k, _)| sq(k))
            .collect();
        let (nb, np) = check_full(format!("mintaka #{i}"), &mut b, want, &mut failures);
        boards += nb;
        points += np;
    }

    // quintet: complete sets for some boards, point checks for the others.
    let q =
        json::parse(&std::fs::read_to_string(dir.join("quintet_forbidden_cases.json")).unwrap());
    for (i, case) in q.get("forbidden_cases").unwrap().arr().iter().enumerate() {
        let black = stones(case.get("black"));
        let white = stones(case.get("white"));
        let bl: Vec<&str> = black.iter().map(String::as_str).collect();
        let wh: Vec<&str> = white.iter().map(String::as_str).collect();
        let mut b = renju_board(&bl, &wh);
        if let Some(all @ json::Value::Obj(_)) = case.get("all_forbidden") {
            let want = all.entries().iter().map(|(k, _)| sq(k)).collect();
            let (nb, np) = check_full(format!("quintet #{i}"), &mut b, want, &mut failures);
            boards += nb;
            points += np;
        } else {
            boards += 1;
        }
        for (k, v) in case.get("point_checks").unwrap().entries() {
            let forbidden = b.is_forbidden(sq(k));
            points += 1;
            if forbidden != (v.str() != "None") {
                failures.push(format!(
                    "quintet #{i} {k}: forbidden={forbidden}, expected {}",
                    v.str()
                ));
            }
        }
    }

    // katagomo: move sequences; columns skip the letter I.
    let k = json::parse(
        &std::fs::read_to_string(dir.join("katagomo_renju_practice_cases.json")).unwrap(),
    );
    let skip_i = |s: &str| -> Pos {
        let col = s.as_bytes()[0].to_ascii_uppercase();
        let x = if col > b'I' {
            col - b'A' - 1
        } else {
            col - b'A'
        } as usize;
        let row: usize = s[1..].parse().unwrap();
        Pos::new(x, 15 - row)
    };
    for case in k.get("cases").unwrap().arr() {
        let name = case.get("name").unwrap().str().to_string();
        let mut b = Board::new(15, 15, Rule::Renju).unwrap();
        for mv in case.get("moves").unwrap().arr() {
            let c = if mv.arr()[0].str() == "B" {
                Color::Black
            } else {
                Color::White
            };
            b.place(skip_i(mv.arr()[1].str()), c).unwrap();
        }
        let next = if case.get("nextPlayer").unwrap().str() == "B" {
            Color::Black
        } else {
            Color::White
        };
        boards += 1;
        for (key, want) in [("mustBeForbidden", true), ("mustBeLegal", false)] {
            for s in case.get(key).unwrap().arr() {
                let p = skip_i(s.str());
                points += 1;
                let got = b.classify_move(p, next) == Ok(MoveClass::Forbidden);
                if got != want {
                    failures.push(format!("katagomo {name} {}: forbidden={got}", s.str()));
                }
            }
        }
    }
    println!("shared renju forbidden cases: {boards} boards, {points} points checked");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
