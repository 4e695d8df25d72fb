//! What the searcher thread runs for a command: one search (BEGIN/TURN/BOARD), several
//! (YXNBEST, the SWAP2BOARD decisions, YXBALANCEONE/TWO). Every choice of move comes from
//! `search::Engine`; this file only decides which positions to ask about and how to share the
//! time between the questions. Progress goes out as MESSAGE lines through the shared writer.

use super::output::{Reply, Writer};
use crate::board::{Board, Color, Pos};
use crate::search::{Engine, Limits, Progress, SearchResult};
use std::sync::atomic::{AtomicBool, Ordering};

/// SWAP2BOARD: take black (`SWAP`) when the search says the side to move (white) is behind by
/// more than this, in the engine's score units.
pub const SWAP_MARGIN: i32 = 150;

/// First three stones tried for a SWAP2BOARD with an empty board, as offsets from the centre
/// (black, white, black): compact shapes; the one the engine scores nearest to even is sent.
const SWAP2_OPENINGS: [[(i32, i32); 3]; 6] = [
    [(0, 0), (1, -1), (1, 1)],
    [(0, 0), (0, -1), (2, 1)],
    [(0, 0), (1, 0), (-1, 2)],
    [(0, 0), (1, 1), (2, -1)],
    [(0, 0), (-1, 1), (2, 2)],
    [(0, 0), (0, 1), (1, -2)],
];

/// A piece of work for the searcher thread.
#[derive(Clone, Debug)]
pub enum Job {
    /// Find the move for the side to move.
    Move,
    /// Search `n` times, each excluding the earlier best moves; play the first.
    NBest(usize),
    /// SWAP2BOARD with these stones (0, 3 or 5, in move order).
    Swap2(Vec<Pos>),
    /// YXBALANCEONE / YXBALANCETWO with a bias in score units.
    Balance { two: bool, bias: i64 },
}

/// What a job found. Moves are checked and played by the session, not here.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// The move to play (None: the engine found none).
    Move(Option<Pos>),
    /// A line to print that does not change the position (SWAP2BOARD, YXBALANCE*).
    Reply(Reply),
}

/// The MESSAGE text for one progress report.
pub fn progress_text(p: &Progress) -> String {
    let nps = p.nodes.saturating_mul(1000) / p.elapsed_ms.max(1);
    let pv: Vec<String> = p.pv.iter().map(|q| q.to_string()).collect();
    let pv = if pv.is_empty() {
        "-".to_string()
    } else {
        pv.join(" ")
    };
    format!(
        "depth {} score {} nodes {} nps {} time {} pv {}",
        p.depth, p.score, p.nodes, nps, p.elapsed_ms, pv
    )
}

/// Limits for one of `k` searches that share one move's budget.
fn share(limits: &Limits, k: usize) -> Limits {
    let k = k.max(1) as u64;
    let mut l = limits.clone();
    l.turn_ms = l.turn_ms.map(|t| t / k);
    l.time_left_ms = l.time_left_ms.map(|t| if t > 0 { t / k as i64 } else { t });
    l.max_nodes = l.max_nodes.map(|n| (n / k).max(1));
    // The searches run one after another: each one's share counts from its own start.
    l.since = None;
    l
}

struct Ctx<'a> {
    engine: &'a mut Engine,
    stop: &'a AtomicBool,
    out: &'a Writer,
}

impl Ctx<'_> {
    fn search(&mut self, board: &Board, limits: &Limits) -> Option<SearchResult> {
        let out = self.out;
        let mut report = |p: &Progress| out.send(&Reply::Message(progress_text(p)));
        self.engine.think(board, limits, self.stop, &mut report)
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Runs `job` on `board` (the side to move is the brain's).
pub fn run(
    engine: &mut Engine,
    board: &Board,
    limits: &Limits,
    job: &Job,
    stop: &AtomicBool,
    out: &Writer,
) -> Outcome {
    let mut cx = Ctx { engine, stop, out };
    match job {
        Job::Move => Outcome::Move(cx.search(board, limits).map(|r| r.best)),
        Job::NBest(n) => nbest(&mut cx, board, limits, *n),
        Job::Swap2(stones) => Outcome::Reply(swap2(&mut cx, board, limits, stones)),
        Job::Balance { two, bias } => {
            let bias = (*bias).clamp(i32::MIN as i64, i32::MAX as i64) as i32;
            balance(&mut cx, board, limits, *two, bias)
        }
    }
}

fn nbest(cx: &mut Ctx, board: &Board, limits: &Limits, n: usize) -> Outcome {
    let each = share(limits, n);
    let mut found: Vec<Pos> = Vec::new();
    for i in 0..n {
        let mut l = each.clone();
        l.excluded.extend(found.iter().copied());
        let Some(r) = cx.search(board, &l) else { break };
        if found.contains(&r.best) || !board.is_empty(r.best) {
            break;
        }
        let pv: Vec<String> = r.pv.iter().map(|q| q.to_string()).collect();
        cx.out.send(&Reply::Message(format!(
            "nbest {} {} score {} depth {} nodes {} pv {}",
            i + 1,
            r.best,
            r.score,
            r.depth,
            r.nodes,
            if pv.is_empty() {
                "-".to_string()
            } else {
                pv.join(" ")
            }
        )));
        found.push(r.best);
        if cx.stopped() {
            break;
        }
    }
    Outcome::Move(found.first().copied())
}

/// A fresh board of the same size and rule with `stones` played alternately from black.
fn opening_board(like: &Board, stones: &[Pos]) -> Option<Board> {
    Board::from_moves(like.width(), like.height(), like.rule(), stones).ok()
}

fn swap2(cx: &mut Ctx, board: &Board, limits: &Limits, stones: &[Pos]) -> Reply {
    if stones.is_empty() {
        return Reply::Squares(swap2_opening(cx, board, limits));
    }
    // Three or five stones: white (the brain, if it stays white) is to move.
    let Some(b) = opening_board(board, stones) else {
        return Reply::Error("SWAP2BOARD stones cannot be placed".into());
    };
    match cx.search(&b, limits) {
        Some(r) if r.score >= -SWAP_MARGIN && b.is_empty(r.best) => Reply::Move(r.best),
        Some(r) => {
            cx.out.send(&Reply::Message(format!(
                "swap2: white scores {} after {} stones, taking black",
                r.score,
                stones.len()
            )));
            Reply::Swap
        }
        None => Reply::Swap,
    }
}

fn swap2_opening(cx: &mut Ctx, board: &Board, limits: &Limits) -> Vec<Pos> {
    let (cx0, cy0) = ((board.width() / 2) as i32, (board.height() / 2) as i32);
    let candidates: Vec<Vec<Pos>> = SWAP2_OPENINGS
        .iter()
        .filter_map(|shape| {
            shape
                .iter()
                .map(|&(dx, dy)| board.pos((cx0 + dx) as i64, (cy0 + dy) as i64).ok())
                .collect::<Option<Vec<Pos>>>()
        })
        .collect();
    let each = share(limits, candidates.len());
    let mut best: Option<(i32, usize)> = None;
    for (i, stones) in candidates.iter().enumerate() {
        if cx.stopped() {
            break;
        }
        let Some(b) = opening_board(board, stones) else {
            continue;
        };
        if let Some(r) = cx.search(&b, &each) {
            let unbalance = r.score.saturating_abs();
            if best.is_none_or(|(u, _)| unbalance < u) {
                best = Some((unbalance, i));
            }
        }
    }
    let pick = best.map_or(0, |(_, i)| i);
    candidates.get(pick).cloned().unwrap_or_default()
}

/// Empty squares near the stones (or the centre of an empty board), nearest the centre
/// first, legal for the side to move; at most `k`.
fn candidates(board: &Board, k: usize) -> Vec<Pos> {
    let mut b = board.clone();
    let me = b.side_to_move();
    let centre = Pos::new(board.width() / 2, board.height() / 2);
    let stones: Vec<Pos> = board.history().iter().map(|&(p, _)| p).collect();
    let mut list: Vec<Pos> = board
        .squares()
        .filter(|&p| board.is_empty(p))
        .filter(|&p| {
            if stones.is_empty() {
                p.distance(centre) <= 1
            } else {
                stones.iter().any(|&s| s.distance(p) <= 2)
            }
        })
        .collect();
    list.sort_by_key(|&p| (p.distance(centre), p));
    list.retain(|&p| me == Color::White || b.is_legal(p, me));
    list.truncate(k);
    list
}

fn balance(cx: &mut Ctx, board: &Board, limits: &Limits, two: bool, bias: i32) -> Outcome {
    let firsts = candidates(board, if two { 4 } else { 8 });
    let each = share(limits, if two { 16 } else { firsts.len() });
    let mut best: Option<(i64, Vec<Pos>)> = None;
    for &m1 in &firsts {
        let mut b1 = board.clone();
        b1.make(m1);
        if !two {
            if let Some(r) = cx.search(&b1, &each) {
                // The opponent's score, turned to the mover's side.
                let d = (-(r.score as i64) - bias as i64).abs();
                if best.as_ref().is_none_or(|(bd, _)| d < *bd) {
                    best = Some((d, vec![m1]));
                }
            }
        } else {
            for m2 in candidates(&b1, 4) {
                let mut b2 = b1.clone();
                b2.make(m2);
                if let Some(r) = cx.search(&b2, &each) {
                    let d = (r.score as i64 - bias as i64).abs();
                    if best.as_ref().is_none_or(|(bd, _)| d < *bd) {
                        best = Some((d, vec![m1, m2]));
                    }
                }
                if cx.stopped() {
                    break;
                }
            }
        }
        if cx.stopped() {
            break;
        }
    }
    match best {
        Some((_, moves)) if two => Outcome::Reply(Reply::Squares(moves)),
        Some((_, moves)) => Outcome::Reply(Reply::Move(moves[0])),
        None if two => Outcome::Reply(Reply::Error("no balancing pair of moves found".into())),
        None => Outcome::Reply(Reply::Error("no balancing move found".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_limits_split_the_budget() {
        let l = Limits {
            turn_ms: Some(1000),
            time_left_ms: Some(-5),
            max_nodes: Some(10),
            ..Limits::default()
        };
        let s = share(&l, 4);
        assert_eq!(s.turn_ms, Some(250));
        assert_eq!(s.time_left_ms, Some(-5));
        assert_eq!(s.max_nodes, Some(2));
    }

    #[test]
    fn progress_lines_carry_every_field() {
        let p = Progress {
            depth: 3,
            score: -12,
            nodes: 5000,
            elapsed_ms: 10,
            pv: vec![Pos::new(7, 7), Pos::new(8, 8)],
        };
        assert_eq!(
            progress_text(&p),
            "depth 3 score -12 nodes 5000 nps 500000 time 10 pv 7,7 8,8"
        );
    }

    #[test]
    fn swap2_openings_fit_small_boards() {
        let b = Board::new(5, 5, crate::board::Rule::Freestyle).unwrap();
        for shape in SWAP2_OPENINGS {
            let stones: Vec<Pos> = shape
                .iter()
                .map(|&(dx, dy)| b.pos(2 + dx as i64, 2 + dy as i64).unwrap())
                .collect();
            assert!(opening_board(&b, &stones).is_some());
        }
    }
}
