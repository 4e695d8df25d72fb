//! VCT: depth-first AND/OR search over threats with iterative deepening. The attacker plays a
//! four or a move that makes an open three; the defender tries every square that stops each
//! immediate open-four threat (the squares of the four-to-be and of its five squares' line,
//! which covers the far blocks of split threes) and every counter-four; a counter-four is
//! blocked and the defender moves again. Each attacker node first asks the VCF solver.
//! Proven results are cached by position and depth; the main line is re-derived at the end.

use super::tt::Entry;
use super::vcf::MAX_REPLIES;
use super::{
    any_legal, features, four_count, legal, near, shape_score, Res, Search, FUKUMI_COST, UNLIMITED,
};
use crate::board::{Board, Color, Pattern, Pos, Rule, NCELLS};
use std::cmp::Reverse;

const SALT: u64 = 0x2545_F491_4F6C_DD1D;
const SALT_STRICT: u64 = 0x9E6C_63D0_676A_9A99;
const SALT_ZONE: u64 = 0x61C8_8646_80B5_83EB;
const SALT_QUIET: u64 = 0xD6E8_FEB8_6659_FD93;
const SALT_WHITE: u64 = 0xA076_1D64_78BD_642F;
const SALT_STRICT_QUIET: u64 = 0xE703_7ED1_A0B4_28DB;
/// Mixed into a key once per attacker move left under a move cap (`Solver::cap`).
const SALT_CAP: u64 = 0x8CB9_2BA7_2F3D_8DD7;
/// Node budget of the defender's own VCF, checked before his defences against a three.
const DEFENDER_VCF_BUDGET: u64 = 50;
/// Depth left at which the quiet iterations of the deepening try double twos (outside strict
/// mode); `affordable_attack` reads it too, to tell a cut a deeper iteration lifts.
const QUIET_DEPTH: u32 = 2;

impl Search<'_, '_> {
    /// Whether a square with these attacker patterns is a threat the remaining depth affords
    /// (`allowed` from `attacks_allowed`); a threat left out for lack of depth marks
    /// `depth_cut`, so the caller knows a deeper search might still win.
    fn affordable_attack(&mut self, pats: &[Pattern; 4], allowed: (bool, bool, bool)) -> bool {
        let (four_ok, three_ok, quiet_ok) = allowed;
        let four = four_count(pats) > 0;
        let open3 = pats.contains(&Pattern::F3);
        // A closed three may set up a VCF (a "fukumi" threat); the defender node checks.
        let closed3 = !four && !open3 && pats.contains(&Pattern::B3);
        // Two open twos threaten a double three (the defender node checks).
        let two2 =
            !four && !open3 && !closed3 && pats.iter().filter(|&&q| q == Pattern::F2).count() >= 2;
        let closed_ok =
            three_ok && self.sv.depth_left >= self.attack_cost(pats, self.sv.depth_left);
        let ok = four && four_ok || open3 && three_ok || closed3 && closed_ok || two2 && quiet_ok;
        // A double two left out is a depth cut only where a deeper iteration would try it:
        // quiet set-ups come at two left, in the iterations that allow them at all.
        let two2_later = two2 && self.sv.quiet && self.sv.depth_left < QUIET_DEPTH;
        if !ok && (four || open3 || closed3 || two2_later) {
            self.sv.depth_cut = true;
        } else if !ok && two2 {
            self.sv.omitted = true;
        }
        ok
    }

    /// The depth an attack costs: one, but a lone closed three (a "fukumi" VCF threat) costs
    /// more in the deeper iterations (those without quiet set-ups) outside strict mode. Such
    /// threats are many and each makes the defender try the squares near the threatened VCF,
    /// so long lines reach them later; short searches take them at the plain price.
    pub(super) fn attack_cost(&self, pats: &[Pattern; 4], d: u32) -> u32 {
        if self.sv.strict
            || self.sv.quiet && d <= 1
            || four_count(pats) > 0
            || pats.contains(&Pattern::F3)
            || !pats.contains(&Pattern::B3)
        {
            1
        } else {
            FUKUMI_COST
        }
    }

    /// Which attacks `d` remaining depth still affords: (a lone four, a three, a quiet
    /// set-up). A lone four only helps a VCT when a three follows it (VCF is tried first).
    fn attacks_allowed(&mut self, b: &Board, d: u32) -> (bool, bool, bool) {
        self.sv.depth_left = d;
        let strict = self.sv.strict;
        let (mut four_ok, mut three_ok) = if strict {
            (d >= 4, d >= 3)
        } else {
            (d >= 2, d >= 1)
        };
        let mut quiet_ok = self.sv.quiet && d == if strict { 4 } else { QUIET_DEPTH };
        if self.sv.cap > 0 {
            // Under a move cap the attacker moves left bound the attacks as strict mode's
            // depth does.
            let m = self.cap_left(b);
            four_ok &= m >= 4;
            three_ok &= m >= 3;
            quiet_ok &= m >= 4;
        }
        (four_ok, three_ok, quiet_ok)
    }

    /// Under a move cap, the attacker moves left at this node (after his move at a defender
    /// node): every ply alternates, so the ply from the root says how many he made.
    /// `UNLIMITED` without a cap.
    pub(super) fn cap_left(&self, b: &Board) -> u32 {
        if self.sv.cap == 0 {
            return UNLIMITED;
        }
        let made = (b.move_count() - self.sv.root_len).div_ceil(2) as u32;
        self.sv.cap.saturating_sub(made)
    }

    /// In the zone phase, whether an attack on `p` shares a line, within four squares, with one
    /// of `a`'s last moves since the root (always true at the root and outside the phase).
    pub(super) fn in_zone(&self, b: &Board, p: Pos, a: Color) -> bool {
        if !self.sv.zone {
            return true;
        }
        let h = b.history();
        let mut seen = 0;
        for &(m, c) in h[self.sv.root_len.min(h.len())..].iter().rev() {
            if c != a {
                continue;
            }
            let dx = (m.x() as i32 - p.x() as i32).abs();
            let dy = (m.y() as i32 - p.y() as i32).abs();
            if (dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= 4 {
                return true;
            }
            seen += 1;
            if seen == self.sv.zone_moves {
                return false;
            }
        }
        seen == 0
    }

    /// One iteration at `depth`; on a win `sv.line` holds the main line.
    pub(super) fn vct_root(&mut self, b: &mut Board, depth: u32) -> Res {
        let r = self.or_node(b, depth);
        if r != Res::Win {
            return r;
        }
        // Re-derive the main line from the cached proof.
        self.rederive_line(|s, out| s.extract_or(b, depth, out, 0))
    }

    /// The table key of a VCT node: the position (side to move included) and everything a
    /// result depends on besides it. The attacker matters because the same position with the
    /// same side to move is an attacker node of one colour and a defender node of the other;
    /// the quiet flag because searches without quiet set-ups see fewer wins at small depths.
    fn vct_key(&self, b: &Board) -> u64 {
        let cap = if self.sv.cap > 0 {
            SALT_CAP.wrapping_mul(u64::from(self.cap_left(b)) + 1)
        } else {
            0
        };
        b.hash()
            ^ cap
            ^ SALT
            ^ if self.sv.strict { SALT_STRICT } else { 0 }
            ^ if self.sv.zone { SALT_ZONE } else { 0 }
            ^ if self.sv.quiet { SALT_QUIET } else { 0 }
            ^ if self.sv.strict_quiet {
                SALT_STRICT_QUIET
            } else {
                0
            }
            ^ match self.sv.attacker {
                Color::Black => 0,
                Color::White => SALT_WHITE,
            }
    }

    /// The depth a VCF may use at an attacker node of depth `d` (or, after a pass, at a
    /// defender node: the attacker's moves left are the same).
    fn vcf_depth_at(&self, b: &Board, d: u32) -> u32 {
        if self.sv.strict {
            d
        } else {
            self.cap_left(b)
        }
    }

    /// Whether a VCF searched at this node is bounded by depth (strict mode, or a move cap; see
    /// `vcf_depth_at`), so that a cut of it is one a deeper iteration lifts. Otherwise only its
    /// node budget, the same in every iteration, cuts it.
    fn vcf_depth_bounded(&self) -> bool {
        self.sv.strict || self.sv.cap > 0
    }

    fn probe(&mut self, b: &Board, d: u32) -> Option<Res> {
        match self.sv.tt.probe(self.vct_key(b)) {
            Some(Entry::Win(w)) if w <= d => Some(Res::Win),
            Some(Entry::NoWin) => Some(Res::NoWin),
            Some(Entry::Cut(w)) if w >= d => {
                self.sv.depth_cut = true;
                Some(Res::NoWin)
            }
            _ => None,
        }
    }

    fn store(&mut self, b: &Board, d: u32, r: Res) {
        let key = self.vct_key(b);
        match r {
            Res::Win => self.sv.tt.store(key, Entry::Win(d)),
            Res::NoWin => {
                let e = if self.sv.depth_cut {
                    Entry::Cut(d)
                } else {
                    Entry::NoWin
                };
                self.sv.tt.store(key, e);
            }
            Res::Abort => {}
        }
    }

    /// Attacker to move with `d` left (attacker moves in strict mode, threes otherwise).
    fn or_node(&mut self, b: &mut Board, d: u32) -> Res {
        if self.tick() {
            return Res::Abort;
        }
        if let Some(r) = self.probe(b, d) {
            return r;
        }
        // The node's VCF probes its slot after the board scan: start loading it now.
        self.sv.tt.prefetch(self.vcf_key(b));
        let outer_cut = std::mem::replace(&mut self.sv.depth_cut, false);
        let clo = self.sv.cands.len();
        let mlo = self.sv.moves.len();
        let mut r = self.or_inner(b, d, clo, mlo);
        if self.sv.aborted {
            r = Res::Abort;
        }
        self.sv.cands.truncate(clo);
        self.sv.moves.truncate(mlo);
        self.store(b, d, r);
        self.sv.depth_cut |= outer_cut;
        r
    }

    /// One pass over the board finds both sides' fives, the attacker's fours (for the VCF) and
    /// his threat moves; then VCF, the block of a counter-four, or the threats in turn.
    fn or_inner(&mut self, b: &mut Board, d: u32, clo: usize, mlo: usize) -> Res {
        let a = b.side_to_move();
        let o = a.opposite();
        let strict = self.sv.strict;
        if self.sv.cap > 0 && self.cap_left(b) == 0 {
            self.sv.depth_cut = true;
            return Res::NoWin;
        }
        let allowed = self.attacks_allowed(b, d);
        let quiet_ok = allowed.2;
        let last = last_move_of(b, a);
        let mut df = [Pos::NONE; 2];
        let mut nf = 0;
        // The defender's four squares, in board order, for his VCF check before the attacks
        // (None past the array: that check then scans for itself).
        let mut ofours = [Pos::NONE; 64];
        let mut nof = 0;
        for y in 0..b.height() {
            for x in 0..b.width() {
                let p = Pos::new(x, y);
                if !b.is_empty(p) {
                    continue;
                }
                if near::<3>(b, p, o) {
                    let fo = features(b, p, o);
                    if fo.fives() > 0 {
                        if nf < 2 {
                            df[nf] = p;
                            nf += 1;
                        }
                    } else if fo.fours() > 0 {
                        if nof < ofours.len() {
                            ofours[nof] = p;
                        }
                        nof += 1;
                    }
                }
                if !near::<1>(b, p, a) || !quiet_ok && !near::<2>(b, p, a) {
                    continue;
                }
                if !features(b, p, a).threatens() {
                    continue;
                }
                let pats = b.patterns(p, a);
                if pats.contains(&Pattern::Five) {
                    return if d > 0 || !strict {
                        Res::Win
                    } else {
                        Res::NoWin
                    };
                }
                if four_count(&pats) > 0 {
                    self.sv.cands.push(p);
                }
                if !self.affordable_attack(&pats, allowed) {
                    continue;
                }
                // Outside the zone is no depth cut: no deeper iteration of the phase brings the
                // square in, and the phase's NoWin only hands over to the full deepening.
                if !self.in_zone(b, p, a) {
                    continue;
                }
                self.sv.moves.push((attack_score(&pats, last, p), p));
            }
        }
        if nf >= 2 {
            return Res::NoWin;
        }
        let chi = self.sv.cands.len();
        let saved_base = self.sv.vcf_base;
        let must = if nf == 1 { Some(df[0]) } else { None };
        let r = self.vcf_from(b, self.vcf_depth_at(b, d), must, clo, chi);
        self.sv.vcf_base = saved_base;
        if r != Res::NoWin {
            return r;
        }
        // A VCF cut by its depth (strict mode, or a move cap) leaves the NoWin open. One cut by
        // its node budget does not: every four is an attack of this node too (`four_ok`), so
        // the threat tree covers the same VCFs and records its own depth cuts.
        if self.sv.vcf_cut && self.vcf_depth_bounded() {
            self.sv.depth_cut = true;
        }
        self.sv.cands.truncate(clo);
        if let Some(t) = must {
            // The defender's counter-four: block it, then he moves again. In strict mode the
            // block is an attacker move like any other.
            self.sv.moves.truncate(mlo);
            if !legal(b, t, a) {
                return Res::NoWin;
            }
            let cost = u32::from(strict);
            if d < cost {
                self.sv.depth_cut = true;
                return Res::NoWin;
            }
            b.make(t);
            let r = self.and_node(b, d - cost);
            b.unmake();
            return r;
        }
        if self.strict_quiet_at(d) {
            self.gen_quiet(b, mlo);
        }
        let mut mhi = self.sv.moves.len();
        if mhi > mlo {
            let ofours = (nof <= ofours.len()).then_some(&ofours[..nof.min(ofours.len())]);
            mhi = self.drop_attacks_under_vcf_known(b, mlo, mhi, ofours);
        }
        if mhi - mlo > 1 {
            self.order_by_defences(b, d, mlo, mhi);
            self.prefer_won_attacks(a, mlo, mhi);
            self.promote_killers(b, mlo, mhi);
        }
        for i in mlo..mhi {
            let m = self.sv.moves[i].1;
            if !legal(b, m, a) {
                continue;
            }
            let cost = self.attack_cost(&b.patterns(m, a), d);
            b.make(m);
            let r = self.and_node(b, d - cost);
            b.unmake();
            if r == Res::Win {
                self.record_killer(b, m);
                self.sv.won[a.index() * NCELLS + m.index()] = true;
            }
            if r != Res::NoWin {
                return r;
            }
        }
        Res::NoWin
    }

    /// Sorts `moves[lo..hi]` with the attacks of `a` that already won somewhere in this search
    /// first, each part by score: a threat square that won once often wins again elsewhere
    /// (measured on the game positions: 49 -> 52 proven at 300k nodes).
    pub(super) fn prefer_won_attacks(&mut self, a: Color, lo: usize, hi: usize) {
        let won = &self.sv.won[a.index() * NCELLS..][..NCELLS];
        self.sv.moves[lo..hi].sort_unstable_by_key(|&(score, p)| {
            (Reverse(won[p.index()]), Reverse(score), p.index())
        });
    }

    /// Moves the killers of this ply (attacks that won in a sibling subtree) to the front of
    /// `moves[lo..hi]`, first killer first: the same threat usually wins again after another
    /// defence. (Killer defences, tried first at defender nodes, lost on the game positions.)
    pub(super) fn promote_killers(&mut self, b: &Board, lo: usize, hi: usize) {
        let ply = b.move_count() - self.sv.root_len;
        let Some(k) = self.sv.killers.get(ply) else {
            return;
        };
        for &p in k.iter().rev() {
            if p == Pos::NONE {
                continue;
            }
            if let Some(j) = (lo..hi).find(|&j| self.sv.moves[j].1 == p) {
                self.sv.moves[lo..=j].rotate_right(1);
            }
        }
    }

    /// Records `m` as the first killer of this ply (see `promote_killers`).
    pub(super) fn record_killer(&mut self, b: &Board, m: Pos) {
        let ply = b.move_count() - self.sv.root_len;
        if let Some(k) = self.sv.killers.get_mut(ply) {
            if k[0] != m {
                k[1] = k[0];
                k[0] = m;
            }
        }
    }

    /// When the defender, given the move, has a VCF, an attack that is no four and leaves that
    /// VCF playing out as before loses to it: such attacks are dropped from `moves[lo..hi]`.
    /// Returns the new end of the list.
    pub(super) fn drop_attacks_under_vcf(&mut self, b: &mut Board, lo: usize, hi: usize) -> usize {
        self.drop_attacks_under_vcf_known(b, lo, hi, None)
    }

    /// `drop_attacks_under_vcf` given the defender's four squares in board order when the
    /// caller's scan found them (and neither side has a five): the same search, no scan.
    fn drop_attacks_under_vcf_known(
        &mut self,
        b: &mut Board,
        lo: usize,
        hi: usize,
        ofours: Option<&[Pos]>,
    ) -> usize {
        let a = b.side_to_move();
        let o = a.opposite();
        b.set_side_to_move(o);
        let vcf = match ofours {
            Some(f) => {
                let flo = self.sv.cands.len();
                self.sv.cands.extend_from_slice(f);
                let fhi = self.sv.cands.len();
                let r = self.defender_vcf_from(b, flo, fhi);
                self.sv.cands.truncate(flo);
                r
            }
            None => self.defender_vcf(b),
        };
        b.set_side_to_move(a);
        if !vcf {
            return hi;
        }
        self.drop_moves_the_line_beats(b, lo, hi, o, |b, m| {
            four_count(&b.patterns(m, a)) > 0 || !legal(b, m, a)
        })
    }

    /// Drops from `moves[lo..hi]` the moves after which `owner`'s VCF in `sv.line` still plays
    /// out as before, except those `keep` says must stay; truncates the list to the survivors
    /// and returns its new end.
    fn drop_moves_the_line_beats(
        &mut self,
        b: &mut Board,
        lo: usize,
        hi: usize,
        owner: Color,
        keep: impl Fn(&mut Board, Pos) -> bool,
    ) -> usize {
        let llo = self.sv.cands.len();
        for i in 0..self.sv.line.len() {
            let p = self.sv.line[i];
            self.sv.cands.push(p);
        }
        let lhi = self.sv.cands.len();
        let mut end = lo;
        for i in lo..hi {
            let m = self.sv.moves[i].1;
            let dead = !keep(b, m) && {
                b.make(m);
                let s = self.line_survives(b, owner, llo, lhi);
                b.unmake();
                s
            };
            if !dead {
                self.sv.moves[end] = self.sv.moves[i];
                end += 1;
            }
        }
        self.sv.cands.truncate(llo);
        self.sv.moves.truncate(end);
        end
    }

    /// Orders the attacks `moves[lo..hi]` by what they threaten, read on their own lines only:
    /// a four with an open-four square first, then two open-four squares (double three), then
    /// one, then fours, then quiet set-ups (VCF threats), each group by shape.
    pub(super) fn order_by_defences(&mut self, b: &mut Board, _d: u32, lo: usize, hi: usize) {
        let a = b.side_to_move();
        for i in lo..hi {
            let (score, m) = self.sv.moves[i];
            let four = four_count(&b.patterns(m, a)) > 0;
            // The squares that would make a four on a line through `m` once it is played (the
            // lines through them in other directions do not pass `m`).
            let mut threats = 0;
            for d in 0..4 {
                for k in -4isize..=4 {
                    let q = m.step(d, k);
                    if k != 0 && b.contains(q) && b.is_empty(q) {
                        let along = b.pattern_beside(q, d, -k, a);
                        if along == Pattern::F4 {
                            threats += 1;
                        } else if along.is_four() {
                            let mut pats = b.patterns(q, a);
                            pats[d] = along;
                            if four_count(&pats) >= 2 {
                                threats += 1;
                            }
                        }
                    }
                }
            }
            let group = match (four, threats) {
                (true, t) if t > 0 => 5,
                (false, t) if t >= 3 => 4,
                (false, t) if t >= 1 => 3,
                (true, _) => 2,
                _ => 1,
            };
            self.sv.moves[i].0 = group * 16 + score.min(4095);
        }
        self.sv.moves[lo..hi].sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
    }

    /// Pushes the attacker's threat moves (each costs one depth), best first. Sets `depth_cut`
    /// when threats were left out for lack of depth.
    pub(super) fn gen_attacks(&mut self, b: &mut Board, d: u32) {
        let a = b.side_to_move();
        let allowed = self.attacks_allowed(b, d);
        let quiet_ok = allowed.2;
        let last = last_move_of(b, a);
        let mlo = self.sv.moves.len();
        for y in 0..b.height() {
            for x in 0..b.width() {
                let p = Pos::new(x, y);
                if !b.is_empty(p) {
                    continue;
                }
                if !near::<1>(b, p, a) || !quiet_ok && !near::<2>(b, p, a) {
                    continue;
                }
                let pats = b.patterns(p, a);
                if !self.affordable_attack(&pats, allowed)
                    || !self.in_zone(b, p, a)
                    || !legal(b, p, a)
                {
                    continue;
                }
                self.sv.moves.push((attack_score(&pats, last, p), p));
            }
        }
        let mhi = self.sv.moves.len();
        self.sv.moves[mlo..mhi].sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
        if self.strict_quiet_at(d) {
            self.gen_quiet(b, mlo);
        }
    }

    /// Whether an attacker node with `d` left also tries quiet VCF set-ups (strict mode with
    /// `strict_quiet`): the set-up, then a VCF threat the defender must answer, needs four.
    fn strict_quiet_at(&self, d: u32) -> bool {
        self.sv.strict && self.sv.strict_quiet && d >= 4
    }

    /// Defender to move; the attacker then has `d` left.
    fn and_node(&mut self, b: &mut Board, d: u32) -> Res {
        if self.tick() {
            return Res::Abort;
        }
        let a = b.side_to_move().opposite();
        if let Some(r) = self.probe(b, d) {
            return r;
        }
        let outer_cut = std::mem::replace(&mut self.sv.depth_cut, false);
        let mlo = self.sv.moves.len();
        let r = match self.gen_defences(b, a, d) {
            Some(()) => {
                let mhi = self.sv.moves.len();
                let mut r = Res::Win;
                for i in mlo..mhi {
                    let e = self.sv.moves[i].1;
                    b.make(e);
                    let c = self.or_node(b, d);
                    b.unmake();
                    if c != Res::Win {
                        r = c;
                        break;
                    }
                }
                r
            }
            None => Res::NoWin,
        };
        // A limit inside the defence generator leaves a partial answer: never cache it.
        let r = if self.sv.aborted { Res::Abort } else { r };
        self.sv.moves.truncate(mlo);
        self.store(b, d, r);
        self.sv.depth_cut |= outer_cut;
        r
    }

    /// Pushes the defender's candidate defences (the side to move defends against `a`).
    /// None when the defender has a five, or the attacker threatens nothing immediate (or lacks
    /// the depth to carry it out): the node is not won. An empty list means nothing defends.
    pub(super) fn gen_defences(&mut self, b: &mut Board, a: Color, d: u32) -> Option<()> {
        let o = a.opposite();
        let strict = self.sv.strict;
        // One pass: the defender's fives (he wins), the attacker's fives, the attacker's
        // open-four and double-four squares (threats, kept in `threats` with their count in
        // `nt`) and the defender's four squares (counter-fours, stacked on `cands`).
        let mut af = [Pos::NONE; 2];
        let mut n = 0;
        let mut threats = [Pos::NONE; 32];
        let mut nt = 0;
        // The attacker's four squares too, in board order, for the VCF-threat check (None
        // past the array: that check then scans for itself).
        let mut fours = [Pos::NONE; 64];
        let mut nf = 0;
        let clo = self.sv.cands.len();
        for y in 0..b.height() {
            for x in 0..b.width() {
                let p = Pos::new(x, y);
                if !b.is_empty(p) {
                    continue;
                }
                if near::<3>(b, p, o) {
                    let fo = features(b, p, o);
                    if fo.fives() > 0 {
                        self.sv.cands.truncate(clo);
                        return None;
                    }
                    if fo.fours() > 0 {
                        self.sv.cands.push(p);
                    }
                }
                if near::<3>(b, p, a) {
                    let fa = features(b, p, a);
                    if fa.fives() > 0 {
                        if n < 2 {
                            af[n] = p;
                            n += 1;
                        }
                        continue;
                    }
                    let fc = fa.fours();
                    if fc > 0 {
                        if nf < fours.len() {
                            fours[nf] = p;
                        }
                        nf += 1;
                    }
                    if (fa.open_fours() > 0 || fc >= 2) && nt < threats.len() {
                        threats[nt] = p;
                        nt += 1;
                    }
                }
            }
        }
        let chi = self.sv.cands.len();
        let fours = (nf <= fours.len()).then_some(&fours[..nf.min(fours.len())]);
        let r = self.defences_from(b, a, d, &af[..n], &mut threats[..nt], (clo, chi), fours);
        self.sv.cands.truncate(clo);
        let _ = strict;
        r
    }

    #[allow(clippy::too_many_arguments)]
    fn defences_from(
        &mut self,
        b: &mut Board,
        a: Color,
        d: u32,
        af: &[Pos],
        threats: &mut [Pos],
        (clo, chi): (usize, usize),
        fours: Option<&[Pos]>,
    ) -> Option<()> {
        let o = a.opposite();
        let strict = self.sv.strict;
        if !af.is_empty() {
            if strict && d < 1 || self.cap_left(b) < 1 {
                self.sv.depth_cut = true;
                return None;
            }
            let mut replies = [Pos::NONE; MAX_REPLIES];
            let nr = self.four_replies(b, a, af, &mut replies);
            for &e in &replies[..nr] {
                self.sv.moves.push((0, e));
            }
            return Some(());
        }
        if strict && d < 2 || self.cap_left(b) < 2 {
            self.sv.depth_cut = true;
            return None;
        }
        // Only threats the attacker may play count (renju black's forbidden squares do not).
        let mut nt = 0;
        for i in 0..threats.len() {
            if legal(b, threats[i], a) {
                threats[nt] = threats[i];
                nt += 1;
            }
        }
        let threats = &threats[..nt];
        if threats.is_empty() {
            return self.vcf_threat_defences(b, a, d, (clo, chi), fours);
        }
        // The attacker threatens no five yet: a VCF of the defender's own comes first and wins.
        if self.defender_vcf_from(b, clo, chi) {
            return None;
        }
        // Candidates: the threat squares, the squares on their four lines, counter-fours.
        let tlo = self.sv.moves.len();
        let st = self.next_stamp();
        let mut cand: [(i32, Pos); 128] = [(0, Pos::NONE); 128];
        let mut nc = 0;
        for &q in threats {
            let pats = b.patterns(q, a);
            if self.sv.stamp[q.index()] != st && nc < cand.len() {
                self.sv.stamp[q.index()] = st;
                cand[nc] = (3, q);
                nc += 1;
            }
            for (dd, pat) in pats.iter().enumerate() {
                if !pat.is_four() {
                    continue;
                }
                for k in -5isize..=5 {
                    let e = q.step(dd, k);
                    if k != 0
                        && b.contains(e)
                        && b.is_empty(e)
                        && self.sv.stamp[e.index()] != st
                        && nc < cand.len()
                    {
                        self.sv.stamp[e.index()] = st;
                        cand[nc] = (2, e);
                        nc += 1;
                    }
                }
            }
        }
        // A block that leaves an open four standing loses at once: skip it. Fours count too.
        // Order by the defender's own shape with a small bonus for direct blocks: a defence
        // that also builds refutes more often (measured on the renju puzzle set).
        // A threat square off the block's lines keeps its shapes, and (but for renju black,
        // whose forbidden points read further) stays playable: the block leaves it standing.
        let local = !(a == Color::Black && b.rule() == Rule::Renju);
        for &(pri, e) in &cand[..nc] {
            if !legal(b, e, o) {
                continue;
            }
            let pe = b.patterns(e, o);
            let counter = four_count(&pe) > 0;
            let mut stops = !(local && threats.iter().any(|&q| !super::lined_up(q, e)));
            if stops {
                // The board after the block, read without making it (but for renju black's
                // legality, which reads further).
                for &q in threats {
                    if q == e {
                        continue;
                    }
                    let pats = b.patterns_after(q, e, o, a);
                    if (pats.contains(&Pattern::F4) || four_count(&pats) >= 2)
                        && legal_after(b, e, q, a)
                    {
                        stops = false;
                        break;
                    }
                }
            }
            if stops || counter {
                self.sv.moves.push((pri * 8 + shape_score(&pe), e));
            }
        }
        // Counter-fours anywhere.
        for i in clo..chi {
            let p = self.sv.cands[i];
            if self.sv.stamp[p.index()] != st && legal(b, p, o) {
                self.sv.moves.push((8 + shape_score(&b.patterns(p, o)), p));
            }
        }
        let hi = self.sv.moves.len();
        self.sv.moves[tlo..hi].sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
        Some(())
    }

    /// Whether the side to move (the defender, facing no five) has a VCF of his own, searched
    /// under a small node budget. The attacker's replies to it are blocks or counter-fours,
    /// which the VCF handles, so a VCF found refutes whatever slower threat the attacker has.
    pub(super) fn defender_vcf(&mut self, b: &mut Board) -> bool {
        self.defender_budget(|s| s.vcf_root(b, UNLIMITED))
    }

    /// `defender_vcf` when the caller's board scan has stacked the defender's four squares on
    /// `cands[lo..hi]` (in board order) and neither side has a five: the same search (the same
    /// nodes counted) without scanning the board again.
    fn defender_vcf_from(&mut self, b: &mut Board, lo: usize, hi: usize) -> bool {
        self.defender_budget(|s| {
            if s.tick() {
                Res::Abort
            } else {
                s.vcf_from(b, UNLIMITED, None, lo, hi)
            }
        })
    }

    /// Runs a VCF of the defender's under `DEFENDER_VCF_BUDGET`, restoring the running VCF's
    /// state after it; whether it won.
    fn defender_budget(&mut self, run: impl FnOnce(&mut Self) -> Res) -> bool {
        let saved = (
            self.sv.vcf_cut,
            self.sv.vcf_base,
            self.sv.vcf_budget,
            self.sv.vcf_stop,
        );
        self.sv.vcf_budget = DEFENDER_VCF_BUDGET;
        let r = run(self);
        (
            self.sv.vcf_cut,
            self.sv.vcf_base,
            self.sv.vcf_budget,
            self.sv.vcf_stop,
        ) = saved;
        r == Res::Win
    }

    /// No open-four threat: if the attacker would have a VCF were it his move, the defender
    /// tries the squares of that VCF, his counter-fours, then every square that could change a
    /// shape on the line. None: no threat.
    fn vcf_threat_defences(
        &mut self,
        b: &mut Board,
        a: Color,
        d: u32,
        (clo, chi): (usize, usize),
        fours: Option<&[Pos]>,
    ) -> Option<()> {
        let o = a.opposite();
        let strict = self.sv.strict;
        if strict && d < 3 || self.cap_left(b) < 3 {
            self.sv.depth_cut = true;
            return None;
        }
        b.set_side_to_move(a);
        let vd = self.vcf_depth_at(b, d);
        let r = match fours {
            // What `vcf_root` would find scanning (no five on either side): the same search.
            Some(f) if vd > 0 => {
                if self.tick() {
                    Res::Abort
                } else {
                    let lo = self.sv.cands.len();
                    self.sv.cands.extend_from_slice(f);
                    let hi = self.sv.cands.len();
                    let r = self.vcf_from(b, vd, None, lo, hi);
                    self.sv.cands.truncate(lo);
                    r
                }
            }
            _ => self.vcf_root(b, vd),
        };
        b.set_side_to_move(o);
        if r != Res::Win {
            // A probe cut by its node budget gets the same budget in every iteration, so no
            // deeper one lifts that cut: the move is left out as a threat, like a double two
            // past the quiet iterations (see `affordable_attack`).
            if self.sv.vcf_cut && self.vcf_depth_bounded() {
                self.sv.depth_cut = true;
            } else if self.sv.vcf_cut {
                self.sv.omitted = true;
            }
            return self.vct_threat_defences(b, a, d);
        }
        let mlo = self.sv.moves.len();
        let st = self.next_stamp();
        for i in 0..self.sv.line.len() {
            let p = self.sv.line[i];
            if self.sv.stamp[p.index()] != st && legal(b, p, o) {
                self.sv.stamp[p.index()] = st;
                // By the defender's own shape: a block that also builds refutes more often.
                self.sv.moves.push((shape_score(&b.patterns(p, o)), p));
            }
        }
        for i in clo..chi {
            let p = self.sv.cands[i];
            if self.sv.stamp[p.index()] != st && legal(b, p, o) {
                self.sv.stamp[p.index()] = st;
                self.sv.moves.push((shape_score(&b.patterns(p, o)), p));
            }
        }
        // A stone off the line can still break it where it changes a line square's shapes: the
        // squares within five of a line square along its four lines (the window the pattern
        // tables read). Off that zone the same VCF still wins (renju forbidden points, which
        // read further, are the one approximation left). Tried after the line itself.
        for i in 0..self.sv.line.len() {
            let q = self.sv.line[i];
            for dir in 0..4 {
                for k in -5isize..=5 {
                    let p = q.step(dir, k);
                    if k != 0
                        && b.contains(p)
                        && b.is_empty(p)
                        && self.sv.stamp[p.index()] != st
                        && legal(b, p, o)
                    {
                        self.sv.stamp[p.index()] = st;
                        let s = shape_score(&b.patterns(p, o)) - 32 - 4 * k.abs() as i32;
                        self.sv.moves.push((s, p));
                    }
                }
            }
        }
        // A defence after which the same VCF still plays out as before refutes nothing: drop
        // it here rather than search it. Counter-fours stay (they change the replies).
        let hi = self.sv.moves.len();
        let hi =
            self.drop_moves_the_line_beats(b, mlo, hi, a, |b, e| four_count(&b.patterns(e, o)) > 0);
        self.sv.moves[mlo..hi].sort_by_key(|m| std::cmp::Reverse(m.0));
        Some(())
    }

    /// Whether the VCF `cands[lo..hi]` (attacker's fours and the defender's blocks, ending in a
    /// five) still wins as written on the board now, with the attacker to move and the defender
    /// holding no four. It stops, answering false, where anything differs: a square taken, a
    /// four no longer a four or now forbidden, another block square, a block that makes a four.
    pub(super) fn line_survives(&mut self, b: &mut Board, a: Color, lo: usize, hi: usize) -> bool {
        let o = a.opposite();
        if matches!(b.rule(), Rule::Caro | Rule::CaroExact) {
            return false;
        }
        let mut made = 0;
        let mut ok = false;
        let mut i = lo;
        while i < hi {
            let m = self.sv.cands[i];
            if !b.is_empty(m) || !legal(b, m, a) {
                break;
            }
            let pats = b.patterns(m, a);
            if pats.contains(&Pattern::Five) {
                ok = true;
                break;
            }
            if i + 1 >= hi || four_count(&pats) == 0 {
                break;
            }
            b.make(m);
            made += 1;
            let mut fives = [Pos::NONE; 2];
            let mut n = 0;
            for (dir, pat) in pats.iter().enumerate() {
                if !pat.is_four() {
                    continue;
                }
                for k in -4isize..=4 {
                    let q = m.step(dir, k);
                    if k != 0
                        && n < 2
                        && b.contains(q)
                        && b.is_empty(q)
                        && b.pattern(q, dir, a) == Pattern::Five
                        && (n == 0 || fives[0] != q)
                    {
                        fives[n] = q;
                        n += 1;
                    }
                }
            }
            if n == 0 {
                break;
            }
            // The defender has no four, so two five squares or a forbidden block win outright.
            if n == 2 || !legal(b, fives[0], o) {
                ok = true;
                break;
            }
            let r = self.sv.cands[i + 1];
            if r != fives[0] {
                break;
            }
            let rp = b.patterns(r, o);
            if four_count(&rp) > 0 || rp.contains(&Pattern::Five) {
                break;
            }
            b.make(r);
            made += 1;
            i += 2;
        }
        for _ in 0..made {
            b.unmake();
        }
        ok
    }

    /// No open-four threat and no VCF threat: if the attacker, moving again, would win with one
    /// three (a double three or four-three after a quiet double two), the threat is real but
    /// has no known set of answers, so the defender tries every legal square (sound, costly).
    /// None: no such threat within the depth.
    fn vct_threat_defences(&mut self, b: &mut Board, a: Color, d: u32) -> Option<()> {
        let o = a.opposite();
        let strict = self.sv.strict;
        // Only the last set-up may be a quiet double two (see `quiet_ok`), which keeps this
        // check off the deep nodes where it rarely pays.
        let need = if strict { 3 } else { 1 };
        if !self.sv.quiet {
            return None;
        }
        if d != need {
            // Either way the NoWin this leads to is not proven: the same position reached with
            // exactly `need` left would look for the quiet threat.
            self.sv.depth_cut = true;
            return None;
        }
        b.set_side_to_move(a);
        let r = self.or_node(b, need);
        b.set_side_to_move(o);
        if r != Res::Win {
            return None;
        }
        let last = b
            .history()
            .iter()
            .rev()
            .find(|&&(_, c)| c == a)
            .map(|&(p, _)| p);
        let mlo = self.sv.moves.len();
        for y in 0..b.height() {
            for x in 0..b.width() {
                let p = Pos::new(x, y);
                if !b.is_empty(p) || !legal(b, p, o) {
                    continue;
                }
                let pats = b.patterns(p, o);
                let mut score = shape_score(&pats) + 64 * four_count(&pats) as i32;
                if let Some(l) = last {
                    score += match l.distance(p) {
                        0..=1 => 40,
                        2 => 24,
                        3..=4 => 8,
                        _ => 0,
                    };
                }
                if near::<1>(b, p, a) {
                    score += 4;
                }
                self.sv.moves.push((score, p));
            }
        }
        let hi = self.sv.moves.len();
        self.sv.moves[mlo..hi].sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
        Some(())
    }

    /// Appends the main line from an attacker node proven won at depth `d`.
    fn extract_or(&mut self, b: &mut Board, d: u32, out: &mut Vec<Pos>, ply: usize) -> bool {
        let a = b.side_to_move();
        let o = a.opposite();
        if ply > 400 {
            return false;
        }
        let mut f = [Pos::NONE; 2];
        if super::five_squares(b, a, &mut f) > 0 {
            out.push(f[0]);
            return true;
        }
        let vd = self.vcf_depth_at(b, d);
        if self.vcf_root(b, vd) == Res::Win {
            out.extend_from_slice(&self.sv.line);
            return true;
        }
        let mut df = [Pos::NONE; 2];
        if super::five_squares(b, o, &mut df) == 1 {
            let t = df[0];
            b.make(t);
            out.push(t);
            let d = d - u32::from(self.sv.strict).min(d);
            let ok = self.and_node(b, d) == Res::Win && self.extract_and(b, d, out, ply + 1);
            b.unmake();
            return ok;
        }
        let mlo = self.sv.moves.len();
        self.gen_attacks(b, d);
        let mhi = self.sv.moves.len();
        let mut ok = false;
        for i in mlo..mhi {
            let m = self.sv.moves[i].1;
            let cost = self.attack_cost(&b.patterns(m, b.side_to_move()), d);
            b.make(m);
            if self.and_node(b, d - cost) == Res::Win {
                out.push(m);
                ok = self.extract_and(b, d - cost, out, ply + 1);
                b.unmake();
                break;
            }
            b.unmake();
        }
        self.sv.moves.truncate(mlo);
        ok
    }

    /// The defender's move on the main line at a node proven lost: his first defence, or any
    /// legal move when nothing defends; None when his defences cannot be generated or no move
    /// is left.
    pub(super) fn main_line_defence(&mut self, b: &mut Board, d: u32) -> Option<Pos> {
        let o = b.side_to_move();
        let a = o.opposite();
        let mlo = self.sv.moves.len();
        let generated = self.gen_defences(b, a, d);
        let first = (self.sv.moves.len() > mlo).then(|| self.sv.moves[mlo].1);
        self.sv.moves.truncate(mlo);
        generated?;
        let mut af = [Pos::NONE; 2];
        let n = super::five_squares(b, a, &mut af);
        first.or_else(|| any_legal(b, o, &af[..n]))
    }

    /// Appends the main line from a defender node proven lost.
    fn extract_and(&mut self, b: &mut Board, d: u32, out: &mut Vec<Pos>, ply: usize) -> bool {
        let Some(e) = self.main_line_defence(b, d) else {
            return false;
        };
        b.make(e);
        out.push(e);
        let ok = self.or_node(b, d) == Res::Win && self.extract_or(b, d, out, ply + 1);
        b.unmake();
        ok
    }
}

/// Whether `c` may play the empty square `q` once the side to move has played `e` (only renju
/// black's forbidden points need the move made).
fn legal_after(b: &mut Board, e: Pos, q: Pos, c: Color) -> bool {
    if c != Color::Black || b.rule() != Rule::Renju {
        return true;
    }
    b.make(e);
    let ok = legal(b, q, c);
    b.unmake();
    ok
}

/// The last square colour `c` played, if any.
fn last_move_of(b: &Board, c: Color) -> Option<Pos> {
    b.history()
        .iter()
        .rev()
        .find(|&&(_, mover)| mover == c)
        .map(|&(p, _)| p)
}

/// Ordering score of an attack: its shape, plus a bonus near the attacker's last move.
fn attack_score(pats: &[Pattern; 4], last: Option<Pos>, p: Pos) -> i32 {
    let near_last = last.is_some_and(|l| l.distance(p) <= 2);
    shape_score(pats) + if near_last { 6 } else { 0 }
}
