//! Move generation by threat: against an opponent's open three (a square where it makes an open
//! four or a double four) only the real defences and our own fours; otherwise the candidate
//! squares near the stones. Every move is legal (no renju foul for black) and scored for
//! ordering by what it makes for us and what it takes from the opponent.

use super::ordering::{ATTACK, DEFENCE};
use crate::board::{Color, Pattern, Pos, NCELLS};
use crate::eval::{for_each_bit, multiset_rank, unpack_patterns, Position, Shape, FORBIDDEN};
use std::sync::OnceLock;

/// A move with its ordering score (`order_score`, plus the search's own bonuses).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoredMove {
    pub pos: Pos,
    pub score: i32,
}

impl ScoredMove {
    /// Search order: higher score first, then the lower square (no two moves tie).
    pub fn best_first(a: &ScoredMove, b: &ScoredMove) -> std::cmp::Ordering {
        b.score.cmp(&a.score).then(a.pos.cmp(&b.pos))
    }
}

/// Why the move list holds what it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Every candidate near the stones.
    Quiet,
    /// Only the defences against an opponent's open three (and our own fours).
    Defence,
    /// The opponent makes an open four next and nothing stops it: the list is empty.
    Lost,
}

/// Scratch space for de-duplicating squares.
pub struct Marks {
    stamp: u32,
    seen: Vec<u32>,
}

impl Default for Marks {
    fn default() -> Self {
        Marks {
            stamp: 0,
            seen: vec![0; NCELLS],
        }
    }
}

impl Marks {
    fn next(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
    }

    /// Marks `p`; true if it was not marked yet in this round.
    fn insert(&mut self, p: Pos) -> bool {
        let s = &mut self.seen[p.index()];
        if *s == self.stamp {
            false
        } else {
            *s = self.stamp;
            true
        }
    }
}

/// Largest ordering value of one side's lines at a square below the winning shapes (`tune --order`
/// keeps its fit within this).
pub const ORDER_CAP: u16 = 4000;

/// Ordering value of playing `p` for `me`: what it makes plus what it prevents, each read from
/// the values `tune --order` fitted to a teacher's moves (`ordering.rs`). A renju foul is worth
/// nothing to black, so taking it from black is worth nothing either.
#[inline]
pub fn order_score(pos: &Position, p: Pos, me: Color) -> i32 {
    let t = order_table();
    let part = |c: Color, shift: u32| {
        if pos.info(p, c) & FORBIDDEN != 0 {
            0
        } else {
            (t[pos.patterns_key(p, c) as usize] >> shift & 0xffff) as i32
        }
    };
    part(me, 0) + part(me.opposite(), 16)
}

/// What a square is worth to either side by the additive line values: the weak-square filter
/// compares squares on this scale.
#[inline]
pub fn weight(pos: &Position, p: Pos, me: Color) -> i32 {
    pos.score(p, me) + pos.score(p, me.opposite())
}

/// Both ordering values of every packed key of four line patterns: the attack value in the low
/// half, the defence value in the high half (one lookup a colour, no rank computed per move).
fn order_table() -> &'static [u32; 1 << 16] {
    static TABLE: OnceLock<Box<[u32; 1 << 16]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let t: Box<[u32]> = (0..1u32 << 16)
            .map(|k| {
                let r = multiset_rank(unpack_patterns(k as u16));
                ATTACK[r] as u32 | (DEFENCE[r] as u32) << 16
            })
            .collect();
        t.try_into().expect("one entry per key")
    })
}

/// Whether line patterns make an open four or two fours.
#[inline]
fn flex4(pats: [Pattern; 4]) -> bool {
    pats.contains(&Pattern::F4) || pats.iter().map(|p| p.four_count()).sum::<u32>() >= 2
}

/// Whether `c` has a legal square making an open four or two fours; returns it.
pub fn legal_flex4(pos: &mut Position, c: Color) -> Option<Pos> {
    // Most nodes have none: the count answers without scanning the set.
    if pos.count(c, Shape::Flex4) == 0 {
        return None;
    }
    let mut found = None;
    let set = *pos.flex4s(c);
    for_each_bit(&set, |p| {
        if found.is_none() && pos.is_legal(p, c) {
            found = Some(p);
        }
    });
    found
}

/// Fills `out` with the moves of the side to move. The caller has already handled fives and
/// winning open fours of either side (quick checks), so the opponent has no five to make.
pub fn generate(pos: &mut Position, out: &mut Vec<ScoredMove>, marks: &mut Marks) -> Kind {
    out.clear();
    let me = pos.side_to_move();
    let opp = me.opposite();
    if pos.count(opp, Shape::Flex4) > 0 {
        defences(pos, out, marks);
        return if out.is_empty() {
            Kind::Lost
        } else {
            Kind::Defence
        };
    }
    // An opponent's four-three square (with no four of ours) is met by the whole list, not only
    // its defences: the moves that leave it in place and give us no four are scored lost by the
    // quick check one ply on, at a node each. (Counted on the bench, eighty-seventh round: such
    // nodes are 2 % of those that generate moves, and those lost moves 1.8 % of the moves
    // searched below the root, about 0.5 % of the alpha-beta nodes: generating only the defences
    // would save no more; not played.)
    // (Quiet nodes and the root ordered by a second pair of attack and defence values, refitted
    // from these to 121,415 moves that cut at quiet nodes of the search's own trees, 40,000-node
    // searches of the hundred-and-fourth to hundred-and-sixth rounds' games; the defences kept
    // these. Held out, the cut move first 27.2 % against 27.9 %; bench nodes -26 %, depth in 1 s
    // unchanged; 111-112-17 against PentaZen over five runs beside five control runs at
    // 120-107-13, -3.5 % (standard error 4.5 %) slot by slot: not kept.)
    let cand = *pos.candidates();
    for_each_bit(&cand, |p| {
        if pos.is_legal(p, me) {
            out.push(ScoredMove {
                pos: p,
                score: order_score(pos, p, me),
            });
        }
    });
    Kind::Quiet
}

/// The defences against the opponent's open-four squares plus our fours.
fn defences(pos: &mut Position, out: &mut Vec<ScoredMove>, marks: &mut Marks) {
    let me = pos.side_to_move();
    let opp = me.opposite();
    let mut threats = [Pos::NONE; 16];
    let mut nt = 0;
    for_each_bit(pos.flex4s(opp), |p| {
        if nt < threats.len() {
            threats[nt] = p;
            nt += 1;
        }
    });
    let threats = &threats[..nt];
    marks.next();
    // Our fours answer any three: the opponent must reply to them.
    let fours = *pos.fours(me);
    for_each_bit(&fours, |p| {
        if marks.insert(p) && pos.is_legal(p, me) {
            out.push(ScoredMove {
                pos: p,
                score: order_score(pos, p, me),
            });
        }
    });
    // Squares on the threatening lines, each tried: it defends if afterwards no threat square
    // still makes an open four or two fours.
    let mut tries = [Pos::NONE; 96];
    let mut ntries = 0;
    for &q in threats {
        if marks.insert(q) && ntries < tries.len() {
            tries[ntries] = q;
            ntries += 1;
        }
        for d in 0..4 {
            if !pos.board().pattern(q, d, opp).is_four() {
                continue;
            }
            for k in [-5isize, -4, -3, -2, -1, 1, 2, 3, 4, 5] {
                let s = q.step(d, k);
                if pos.board().is_empty(s) && marks.insert(s) && ntries < tries.len() {
                    tries[ntries] = s;
                    ntries += 1;
                }
            }
        }
    }
    let renju_opp = pos.renju() && opp == Color::Black;
    for &s in &tries[..ntries] {
        if !pos.is_legal(s, me) {
            continue;
        }
        let b = pos.board_mut();
        b.make(s);
        let mut holds = true;
        for &q in threats {
            if q != s && flex4(b.patterns(q, opp)) && !(renju_opp && b.is_forbidden(q)) {
                holds = false;
                break;
            }
        }
        b.unmake();
        if holds {
            out.push(ScoredMove {
                pos: s,
                score: order_score(pos, s, me),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::{parse_move_list, Rows};
    use crate::board::{Board, Rule};

    fn position(moves: &str, rule: Rule) -> Position {
        let m = parse_move_list(moves, 15, 15, Rows::FromTop).unwrap();
        Position::new(&Board::from_moves(15, 15, rule, &m).unwrap())
    }

    #[test]
    fn open_three_gets_only_defences() {
        // Black h8 i8 j8 (open three on row 8), white a1 b1 far away, white to move.
        let mut pos = position("h8a1i8a3j8", Rule::Freestyle);
        assert_eq!(pos.side_to_move(), Color::White);
        let mut out = vec![];
        let mut marks = Marks::default();
        assert_eq!(generate(&mut pos, &mut out, &mut marks), Kind::Defence);
        let mut got: Vec<Pos> = out.iter().map(|m| m.pos).collect();
        got.sort();
        // g8 and k8 block; f8 and l8 leave a split four at best, no open four.
        assert!(got.contains(&Pos::new(6, 7)));
        assert!(got.contains(&Pos::new(10, 7)));
        for p in &got {
            assert_eq!(p.y(), 7, "defence off the line: {p:?}");
        }
        // Every returned move really defends: black then has no open four anywhere.
        for m in &out {
            pos.make(m.pos);
            assert!(legal_flex4(&mut pos, Color::Black).is_none(), "{:?}", m.pos);
            pos.unmake();
        }
    }

    #[test]
    fn a_renju_foul_is_worth_nothing_to_take_from_black() {
        // i8 makes two open threes for black (g8 h8, i9 i10): a foul. White to move.
        let pos = position("g8a1h8a3i9a5i10", Rule::Renju);
        let i8 = Pos::new(8, 7);
        assert_eq!(pos.side_to_move(), Color::White);
        assert!(pos.info(i8, Color::Black) & FORBIDDEN != 0);
        let t = order_table();
        let white = (t[pos.patterns_key(i8, Color::White) as usize] & 0xffff) as i32;
        assert_eq!(order_score(&pos, i8, Color::White), white);
        // Under freestyle the same square is black's double three, and taking it counts.
        let free = position("g8a1h8a3i9a5i10", Rule::Freestyle);
        let black = (t[free.patterns_key(i8, Color::Black) as usize] >> 16) as i32;
        assert!(black > 0);
        assert_eq!(order_score(&free, i8, Color::White), white + black);
    }

    #[test]
    fn quiet_moves_are_near_stones() {
        let mut pos = position("h8i9", Rule::Freestyle);
        let mut out = vec![];
        let mut marks = Marks::default();
        assert_eq!(generate(&mut pos, &mut out, &mut marks), Kind::Quiet);
        assert!(out.len() > 20);
        for m in &out {
            assert!(m.pos.distance(Pos::new(7, 7)) <= 3 || m.pos.distance(Pos::new(8, 8)) <= 3);
        }
    }
}
