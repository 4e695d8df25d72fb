//! VCT by depth-first proof-number search (df-pn with the 1+ε threshold trick) over the same
//! threats and defences as the iterative deepening of `vct`. It follows the lines where the
//! defender has the fewest answers, so deep narrow wins come out long before the deepening
//! reaches their depth. Its own table keeps (pn, dn) per position; it only ever proves wins.

use super::{five_squares, legal, Res, Search, UNLIMITED};
use crate::board::{Board, Pos};

/// "Infinite" proof and disproof numbers.
const INF: u32 = u32::MAX / 4;
/// Depth handed to the move generators: "no limit".
const FREE: u32 = 200;
/// Most plies below the root (past it a node counts as not won; threat space has no cycles, and
/// every path to a position has the same length, so this cut is the same for all paths).
const MAX_PLY: usize = 72;
/// Quiet attacker moves (VCF set-ups with no three) are tried in the first plies only...
const QUIET_PLY: usize = 16;
/// ...at most this many per node, by shape...
const QUIET_MAX: usize = 40;
/// ...with this first guess of their proof number (the defences of a VCF threat are many).
const QUIET_PN: u32 = 8;
/// The 1+ε trick: a child's threshold is the second-best value times (1 + 1/EPS_DIV).
const EPS_DIV: u32 = 4;
/// Default table: 2^20 entries of 24 bytes (24 MiB), allocated at the first df-pn search.
pub(super) const DFPN_TT_BITS: u32 = 20;
/// Mixed into a key once per remaining attacker move in the depth-bounded (strict) df-pn: the
/// same position with another depth left is another node.
const DEPTH_SALT: u64 = 0x7F4A_7C15_9E37_79B9;

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    pn: u32,
    dn: u32,
    work: u64,
}

/// Two-way buckets: a proven entry or the one with more work below it is kept.
pub(super) struct DfpnTable {
    slots: Vec<Slot>,
    mask: usize,
    /// Mixed into every key: each search starts with an empty-looking table.
    salt: u64,
}

impl DfpnTable {
    pub(super) fn new() -> DfpnTable {
        DfpnTable {
            slots: Vec::new(),
            mask: 0,
            salt: 0,
        }
    }

    /// Readies the table for a new search (allocates on first use, or when the size changed).
    fn begin(&mut self, bits: u32) {
        if self.slots.len() != 1 << bits {
            self.slots = vec![Slot::default(); 1 << bits];
            self.mask = (1 << bits) - 2;
        }
        // A new salt (splitmix step) makes the old entries misses.
        self.salt = self.salt.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.salt;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        self.salt = z ^ (z >> 31) | 1;
    }

    /// Whether the table is allocated at this size (and so holds a run to resume).
    fn ready(&self, bits: u32) -> bool {
        self.slots.len() == 1 << bits && self.salt != 0
    }

    /// Number of slots allocated (tests).
    #[cfg(test)]
    pub(super) fn slots_len(&self) -> usize {
        self.slots.len()
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        (key as usize ^ (key >> 29) as usize) & self.mask
    }

    #[inline]
    fn get(&self, hash: u64) -> Option<(u32, u32)> {
        let key = hash ^ self.salt;
        let i = self.index(key);
        for s in &self.slots[i..i + 2] {
            if s.key == key {
                return Some((s.pn, s.dn));
            }
        }
        None
    }

    #[inline]
    fn put(&mut self, hash: u64, pn: u32, dn: u32, work: u64) {
        let key = hash ^ self.salt;
        let i = self.index(key);
        let weight = |s: &Slot| {
            if s.pn == 0 {
                u64::MAX
            } else {
                s.work
            }
        };
        let j = if self.slots[i].key == key {
            i
        } else if self.slots[i + 1].key == key {
            i + 1
        } else if weight(&self.slots[i]) <= weight(&self.slots[i + 1]) {
            i
        } else {
            i + 1
        };
        self.slots[j] = Slot { key, pn, dn, work };
    }
}

/// What an attacker node turns out to be before any child is searched.
enum OrKind {
    Won,
    Lost,
    /// Its children are `moves[lo..hi]`.
    Open,
}

impl Search<'_, '_> {
    /// Proves a VCT for the side to move by df-pn. Win (line in `sv.line`) or Abort: a
    /// disproof here is not final (inner VCF budgets, the ply cut), so it reads as Abort.
    /// `resume`: go on from the table of the last df-pn run on this position (same search).
    pub(super) fn dfpn_root(&mut self, b: &mut Board, resume: bool) -> Res {
        self.sv.strict = false;
        self.sv.quiet = false;
        if !resume || !self.sv.dfpn.ready(self.sv.dfpn_bits) {
            self.sv.dfpn.begin(self.sv.dfpn_bits);
        }
        self.sv.dfpn_stack.clear();
        let (pn, _) = self.mid(b, INF - 1, INF - 1, true, FREE);
        if self.sv.aborted || pn != 0 {
            return Res::Abort;
        }
        self.rederive_line(|s, out| s.dfpn_line_or(b, out, FREE))
    }

    /// df-pn bounded by `depth` attacker moves, the five included (the strict mode of
    /// `vct_depth`: its attacks, its defences and its exact inner VCFs): every line of a proof
    /// it finds fits the bound. Win (line in `sv.line`) or Abort, as `dfpn_root`; its nodes
    /// are keyed by the depth left.
    pub(super) fn dfpn_root_depth(&mut self, b: &mut Board, depth: u32) -> Res {
        self.sv.strict = true;
        self.sv.quiet = false;
        self.sv.dfpn.begin(self.sv.dfpn_bits);
        self.sv.dfpn_stack.clear();
        let (pn, dn) = self.mid(b, INF - 1, INF - 1, true, depth);
        log::debug!(
            "dfpn depth {depth}: pn {pn} dn {dn} after {} nodes",
            self.sv.nodes
        );
        if self.sv.aborted || pn != 0 {
            return Res::Abort;
        }
        self.rederive_line(|s, out| s.dfpn_line_or(b, out, depth))
    }

    /// The df-pn table key of the position with `d` attacker moves left (the plain position
    /// outside strict mode, where the depth is not bounded).
    #[inline]
    fn dfpn_key(&self, b: &Board, d: u32) -> u64 {
        self.depth_keyed(b.hash(), d)
    }

    /// `dfpn_key` of the position after the side to move plays `m` (without playing it).
    #[inline]
    fn dfpn_key_after(&self, b: &Board, m: Pos, d: u32) -> u64 {
        self.depth_keyed(b.hash_after(m), d)
    }

    /// The key of a position with this hash and `d` attacker moves left.
    #[inline]
    fn depth_keyed(&self, hash: u64, d: u32) -> u64 {
        if self.sv.strict {
            hash ^ DEPTH_SALT.wrapping_mul(u64::from(d) + 1)
        } else {
            hash
        }
    }

    /// The depth left after the move `m` of the side to move at a node with `d` left: an
    /// attacker move costs one in strict mode, nothing else costs.
    #[inline]
    fn dfpn_child_depth(&self, or: bool, d: u32) -> u32 {
        if or && self.sv.strict {
            d.saturating_sub(1)
        } else {
            d
        }
    }

    /// The attacker's children at an attacker node with `d` left, pushed on `moves`, best
    /// first.
    fn dfpn_or_moves(&mut self, b: &mut Board, d: u32) -> OrKind {
        let a = b.side_to_move();
        let o = a.opposite();
        let strict = self.sv.strict;
        if b.move_count() - self.sv.root_len >= MAX_PLY {
            return OrKind::Lost;
        }
        match self.vcf_root(b, if strict { d } else { UNLIMITED }) {
            Res::Win => return OrKind::Won,
            Res::Abort => return OrKind::Lost,
            Res::NoWin => {}
        }
        let mut df = [Pos::NONE; 2];
        match five_squares(b, o, &mut df) {
            0 => {}
            // In strict mode the block is an attacker move: it needs one left.
            1 if legal(b, df[0], a) && (!strict || d >= 1) => {
                self.sv.moves.push((0, df[0]));
                return OrKind::Open;
            }
            _ => return OrKind::Lost,
        }
        let mlo = self.sv.moves.len();
        // Strict mode's generator adds its own quiet VCF set-ups (with four or more left).
        self.gen_attacks(b, d);
        if !strict && b.move_count() - self.sv.root_len < QUIET_PLY {
            self.gen_quiet(b, mlo);
        }
        let mut mhi = self.sv.moves.len();
        if mhi > mlo {
            mhi = self.drop_attacks_under_vcf(b, mlo, mhi);
        }
        if mhi - mlo > 1 {
            self.order_by_defences(b, d, mlo, mhi);
        }
        OrKind::Open
    }

    /// The children `dfpn_or_moves` pushes (tests).
    #[cfg(test)]
    pub(super) fn dfpn_test_or_moves(&mut self, b: &mut Board) {
        self.sv.dfpn.begin(10);
        let _ = self.dfpn_or_moves(b, FREE);
    }

    /// Quiet attacker moves that may set up a VCF: squares where a stone makes a two or more
    /// with the attacker's stones, not already among `moves[lo..]`. The defender node finds out
    /// whether a VCF follows (else the move is refuted at once).
    pub(super) fn gen_quiet(&mut self, b: &mut Board, lo: usize) {
        let a = b.side_to_move();
        let st = self.next_stamp();
        for i in lo..self.sv.moves.len() {
            let p = self.sv.moves[i].1;
            self.sv.stamp[p.index()] = st;
        }
        let qlo = self.sv.moves.len();
        for y in 0..b.height() {
            for x in 0..b.width() {
                let p = Pos::new(x, y);
                if !b.is_empty(p)
                    || self.sv.stamp[p.index()] == st
                    || !super::near::<1>(b, p, a)
                    || !legal(b, p, a)
                {
                    continue;
                }
                self.sv
                    .moves
                    .push((super::shape_score(&b.patterns(p, a)), p));
            }
        }
        let qhi = self.sv.moves.len();
        self.sv.moves[qlo..qhi].sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
        self.sv.moves.truncate(qlo + (qhi - qlo).min(QUIET_MAX));
    }

    /// One df-pn node with `d` left: searches below it until its numbers reach a threshold;
    /// returns them.
    fn mid(&mut self, b: &mut Board, th_pn: u32, th_dn: u32, or: bool, d: u32) -> (u32, u32) {
        if self.tick() {
            return (1, 1);
        }
        let key = self.dfpn_key(b, d);
        let start = self.sv.nodes;
        let mlo = self.sv.moves.len();
        let kind = if or {
            self.dfpn_or_moves(b, d)
        } else {
            let a = b.side_to_move().opposite();
            match self.gen_defences(b, a, d) {
                None => OrKind::Lost,
                Some(()) if self.sv.moves.len() == mlo => OrKind::Won,
                Some(()) => OrKind::Open,
            }
        };
        if self.sv.aborted {
            self.sv.moves.truncate(mlo);
            return (1, 1);
        }
        let mhi = self.sv.moves.len();
        let (pn, dn) = match kind {
            OrKind::Won => (0, INF),
            OrKind::Lost => (INF, 0),
            OrKind::Open if mhi == mlo => {
                if or {
                    (INF, 0)
                } else {
                    (0, INF)
                }
            }
            OrKind::Open => self.mid_loop(b, (th_pn, th_dn), or, d, mlo, mhi),
        };
        self.sv.moves.truncate(mlo);
        if !self.sv.aborted {
            let work = self.sv.nodes - start;
            self.sv.dfpn.put(key, pn, dn, work);
        }
        (pn, dn)
    }

    /// The children loop of `mid` over `moves[lo..hi]` (`d` left at this node).
    fn mid_loop(
        &mut self,
        b: &mut Board,
        (th_pn, th_dn): (u32, u32),
        or: bool,
        d: u32,
        lo: usize,
        hi: usize,
    ) -> (u32, u32) {
        let kid_d = self.dfpn_child_depth(or, d);
        // Children's numbers live on `dfpn_stack`, from the table or a first guess.
        let slo = self.sv.dfpn_stack.len();
        for i in lo..hi {
            let (score, m) = self.sv.moves[i];
            let known = self.sv.dfpn.get(self.dfpn_key_after(b, m, kid_d));
            let v = known.unwrap_or_else(|| {
                let a = b.side_to_move();
                if or && super::shape_score(&b.patterns(m, a)) < 4 {
                    (QUIET_PN, 1)
                } else if or {
                    // An attack's children are the defences: fewer for stronger threats
                    // (`order_by_defences` put the threat group in the score's high bits). A
                    // plain four or a closed three only pays with a threat after it.
                    let pn = match score / 16 {
                        g if g >= 5 => 1,
                        4 => 2,
                        3 => 3,
                        _ => 8,
                    };
                    (pn, 1)
                } else {
                    (1, 1)
                }
            });
            self.sv.dfpn_stack.push(v);
        }
        let n = hi - lo;
        let (mut pn, mut dn);
        loop {
            // This node's numbers, the best child and the runner-up's value.
            let kids = &self.sv.dfpn_stack[slo..slo + n];
            let mut best = 0;
            let mut second = INF;
            let (mut sum, mut min) = (0u32, INF);
            for (i, &(cp, cd)) in kids.iter().enumerate() {
                let (own, other) = if or { (cp, cd) } else { (cd, cp) };
                sum = sum.saturating_add(other).min(INF);
                if own < min {
                    second = min;
                    min = own;
                    best = i;
                } else if own < second {
                    second = own;
                }
            }
            (pn, dn) = if or { (min, sum) } else { (sum, min) };
            if pn >= th_pn || dn >= th_dn || self.sv.aborted {
                break;
            }
            let (cp, cd) = kids[best];
            let grow = |v: u32| v.saturating_add(v / EPS_DIV + 1).min(INF - 1);
            let (c_pn, c_dn) = if or {
                (
                    th_pn.min(grow(second)),
                    (th_dn - dn).saturating_add(cd).min(INF - 1),
                )
            } else {
                (
                    (th_pn - pn).saturating_add(cp).min(INF - 1),
                    th_dn.min(grow(second)),
                )
            };
            let m = self.sv.moves[lo + best].1;
            b.make(m);
            let r = self.mid(b, c_pn, c_dn, !or, kid_d);
            b.unmake();
            self.sv.dfpn_stack[slo + best] = r;
        }
        self.sv.dfpn_stack.truncate(slo);
        (pn, dn)
    }

    /// Whether the table (after re-proving where an entry was lost) says the position with `d`
    /// left is won.
    fn dfpn_proven(&mut self, b: &mut Board, or: bool, d: u32) -> bool {
        if self
            .sv
            .dfpn
            .get(self.dfpn_key(b, d))
            .is_some_and(|v| v.0 == 0)
        {
            return true;
        }
        let (pn, _) = self.mid(b, INF - 1, INF - 1, or, d);
        pn == 0 && !self.sv.aborted
    }

    /// Appends the main line from a proven attacker node with `d` left.
    fn dfpn_line_or(&mut self, b: &mut Board, out: &mut Vec<Pos>, d: u32) -> bool {
        let a = b.side_to_move();
        if out.len() > 2 * MAX_PLY + 8 || self.sv.aborted {
            return false;
        }
        let mut f = [Pos::NONE; 2];
        if five_squares(b, a, &mut f) > 0 {
            out.push(f[0]);
            return true;
        }
        let vd = if self.sv.strict { d } else { UNLIMITED };
        if self.vcf_root(b, vd) == Res::Win {
            out.extend_from_slice(&self.sv.line);
            return true;
        }
        let mlo = self.sv.moves.len();
        let kind = self.dfpn_or_moves(b, d);
        let mhi = self.sv.moves.len();
        let cd = self.dfpn_child_depth(true, d);
        let mut ok = false;
        if let OrKind::Open = kind {
            // A child the table already proves, else the first one a re-search proves.
            let mut pick = None;
            for i in mlo..mhi {
                let m = self.sv.moves[i].1;
                let won = self
                    .sv
                    .dfpn
                    .get(self.dfpn_key_after(b, m, cd))
                    .is_some_and(|v| v.0 == 0);
                if won {
                    pick = Some(m);
                    break;
                }
            }
            if pick.is_none() {
                for i in mlo..mhi {
                    let m = self.sv.moves[i].1;
                    b.make(m);
                    let won = self.dfpn_proven(b, false, cd);
                    b.unmake();
                    if won {
                        pick = Some(m);
                        break;
                    }
                }
            }
            if let Some(m) = pick {
                b.make(m);
                out.push(m);
                ok = self.dfpn_line_and(b, out, cd);
                b.unmake();
            }
        }
        self.sv.moves.truncate(mlo);
        ok
    }

    /// Appends the main line from a proven defender node (the attacker then has `d` left).
    fn dfpn_line_and(&mut self, b: &mut Board, out: &mut Vec<Pos>, d: u32) -> bool {
        let Some(e) = self.main_line_defence(b, d) else {
            return false;
        };
        b.make(e);
        out.push(e);
        let ok = self.dfpn_proven(b, true, d) && self.dfpn_line_or(b, out, d);
        b.unmake();
        ok
    }
}
