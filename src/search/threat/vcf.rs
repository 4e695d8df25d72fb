//! VCF: the attacker plays only fours, each answered by the defender's one block, until a
//! double four, an unblockable square (renju: black's forbidden block) or a five. The defender's
//! block may make a four of his own; then the attacker's next four must land on its five square.
//! Candidate fours are kept incrementally (a ply re-checks its parent's list and the lines
//! through the new four) and dead ends are cached by position.

use super::tt::Entry;
use super::{any_legal, features, four_count, near, shape_score, Res, Search};
use crate::board::{Board, Color, Pattern, Pos, Rule};

/// Most defender replies to one four (only caro has more than one).
pub(super) const MAX_REPLIES: usize = 24;

/// Salt of VCF entries in the shared table.
const SALT: u64 = 0x5BD1_E995_7F4A_7C15;
const SALT_BUDGET: u64 = 0x6A09_E667_F3BC_C909;

impl Search<'_, '_> {
    /// VCF for the side to move, from scratch. On a win `sv.line` holds the line.
    pub(super) fn vcf_root(&mut self, b: &mut Board, depth: u32) -> Res {
        let a = b.side_to_move();
        let o = a.opposite();
        if depth == 0 {
            return Res::NoWin;
        }
        if self.tick() {
            return Res::Abort;
        }
        let mut must = None;
        let mut dfives = 0;
        let lo = self.sv.cands.len();
        for y in 0..b.height() {
            for x in 0..b.width() {
                let p = Pos::new(x, y);
                if !b.is_empty(p) {
                    continue;
                }
                if near::<4>(b, p, o) && features(b, p, o).fives() > 0 {
                    dfives += 1;
                    must = Some(p);
                }
                if !near::<3>(b, p, a) {
                    continue;
                }
                let fa = features(b, p, a);
                if fa.fives() > 0 {
                    self.sv.cands.truncate(lo);
                    self.sv.line.clear();
                    self.sv.line.push(p);
                    return Res::Win;
                }
                if fa.fours() > 0 {
                    self.sv.cands.push(p);
                }
            }
        }
        let hi = self.sv.cands.len();
        let r = if dfives >= 2 {
            Res::NoWin
        } else {
            self.vcf_from(b, depth, must, lo, hi)
        };
        self.sv.cands.truncate(lo);
        r
    }

    /// `vcf_root` for a caller that knows every square where the attacker makes a four (in
    /// row-major order, as the scan would find them) and that neither side has a five to make.
    pub(super) fn vcf_root_known(
        &mut self,
        b: &mut Board,
        fours: impl IntoIterator<Item = Pos>,
    ) -> Res {
        if self.tick() {
            return Res::Abort;
        }
        let lo = self.sv.cands.len();
        self.sv.cands.extend(fours);
        let hi = self.sv.cands.len();
        let r = self.vcf_from(b, super::UNLIMITED, None, lo, hi);
        self.sv.cands.truncate(lo);
        r
    }

    /// VCF from a scanned position: `cands[lo..hi]` holds every square where the attacker
    /// makes a four, `must` the defender's five square if he has one (and the attacker none).
    pub(super) fn vcf_from(
        &mut self,
        b: &mut Board,
        depth: u32,
        must: Option<Pos>,
        lo: usize,
        hi: usize,
    ) -> Res {
        self.sv.vcf_base = self.sv.path.len();
        self.sv.vcf_cut = false;
        self.sv.vcf_stop = match self.sv.vcf_budget {
            0 => u64::MAX,
            n => self.sv.nodes.saturating_add(n),
        };
        if depth == 0 {
            return Res::NoWin;
        }
        self.vcf_node(b, depth, must, lo, hi)
    }

    /// One attacker-to-move node; `cands[lo..hi]` are every square where the attacker makes a
    /// four, `must` the defender's five square if he has one (the attacker must four there).
    fn vcf_node(
        &mut self,
        b: &mut Board,
        depth: u32,
        must: Option<Pos>,
        lo: usize,
        hi: usize,
    ) -> Res {
        if depth < 2 || self.sv.nodes >= self.sv.vcf_stop {
            self.sv.vcf_cut = true;
            return Res::NoWin;
        }
        if self.tick() {
            return Res::Abort;
        }
        let key = self.vcf_key(b);
        match self.sv.tt.probe(key) {
            Some(Entry::NoWin | Entry::LocalNoWin) => return Res::NoWin,
            Some(Entry::Cut(d)) if d >= depth => {
                self.sv.vcf_cut = true;
                return Res::NoWin;
            }
            _ => {}
        }
        let a = b.side_to_move();
        let o = a.opposite();
        let black_renju = b.rule() == Rule::Renju;
        let outer_cut = std::mem::replace(&mut self.sv.vcf_cut, false);

        let mlo = self.sv.moves.len();
        match must {
            Some(t) => {
                let pats = b.patterns(t, a);
                if four_count(&pats) > 0 {
                    self.sv.moves.push((0, t));
                }
            }
            None => {
                for i in lo..hi {
                    let p = self.sv.cands[i];
                    let pats = b.patterns(p, a);
                    self.sv.moves.push((shape_score(&pats), p));
                }
            }
        }
        let mhi = self.sv.moves.len();
        self.sv.moves[mlo..mhi].sort_unstable_by_key(|m| std::cmp::Reverse(m.0));

        let mut result = Res::NoWin;
        for i in mlo..mhi {
            let m = self.sv.moves[i].1;
            if a == Color::Black && black_renju && b.is_forbidden(m) {
                continue;
            }
            let pats = b.patterns(m, a);
            b.make(m);
            // The attacker's five squares are on the lines of the new four.
            let mut fives = [Pos::NONE; 2];
            let mut n = 0;
            'dirs: for (d, pat) in pats.iter().enumerate() {
                if !pat.is_four() {
                    continue;
                }
                for k in -4isize..=4 {
                    let q = m.step(d, k);
                    if k != 0
                        && b.contains(q)
                        && b.is_empty(q)
                        && b.pattern(q, d, a) == Pattern::Five
                        && (n == 0 || fives[0] != q)
                    {
                        fives[n] = q;
                        n += 1;
                        if n == 2 {
                            break 'dirs;
                        }
                    }
                }
            }
            if n == 0 {
                b.unmake();
                continue;
            }
            let mut replies = [Pos::NONE; MAX_REPLIES];
            let nr = self.four_replies(b, a, &fives[..n], &mut replies);
            if nr == 0 {
                // Nothing stops the five (two five squares, or renju black's only block is
                // forbidden): any legal reply, then the five.
                // (A defender with no legal move at all is not a win we can show.)
                let Some(r) = any_legal(b, o, &fives[..n]) else {
                    b.unmake();
                    continue;
                };
                b.make(r);
                let f = fives[..n]
                    .iter()
                    .copied()
                    .find(|&f| b.is_empty(f) && b.makes_five(f, a));
                b.unmake();
                let Some(f) = f else {
                    b.unmake();
                    continue;
                };
                b.unmake();
                self.win_line(&[m, r, f]);
                result = Res::Win;
                break;
            }
            // Every reply must lose; a reply that is itself a five wins for the defender.
            let mut all_win = true;
            for &s in &replies[..nr] {
                if b.makes_five(s, o) {
                    all_win = false;
                    break;
                }
            }
            if all_win {
                for &s in &replies[..nr] {
                    let r = self.vcf_reply(b, depth, (m, &pats), s, lo, hi);
                    if r != Res::Win {
                        all_win = false;
                        if r == Res::Abort {
                            result = Res::Abort;
                        }
                        break;
                    }
                }
            }
            b.unmake();
            if result == Res::Abort {
                break;
            }
            if all_win {
                result = Res::Win;
                break;
            }
        }
        self.sv.moves.truncate(mlo);
        if result == Res::NoWin {
            let e = if self.sv.vcf_cut {
                Entry::Cut(depth)
            } else if self.sv.vcf_budget != 0 {
                Entry::LocalNoWin
            } else {
                Entry::NoWin
            };
            self.sv.tt.store(key, e);
        }
        self.sv.vcf_cut |= outer_cut;
        result
    }

    /// The table key of a VCF node. A VCF under a node budget (inside a VCT) keeps its own
    /// entries, for the running search only: its cut-offs say nothing about an unbudgeted
    /// search, and reusing its results in a later search would change what that one's budgets
    /// reach.
    #[inline]
    pub(super) fn vcf_key(&self, b: &Board) -> u64 {
        b.hash()
            ^ if self.sv.vcf_budget == 0 {
                SALT
            } else {
                SALT_BUDGET
            }
    }

    /// The defender answers the four `m` with `s`; then the attacker continues.
    /// `mp`: the attacker's patterns at `m` before he played it.
    fn vcf_reply(
        &mut self,
        b: &mut Board,
        depth: u32,
        (m, mp): (Pos, &[Pattern; 4]),
        s: Pos,
        lo: usize,
        hi: usize,
    ) -> Res {
        let a = b.side_to_move().opposite();
        let o = a.opposite();
        // The defender has no five square here, so a new one lies on a line where the block
        // makes a four (test `new_five_squares_only_along_fours`): only those lines are read.
        let sp = b.patterns(s, o);
        b.make(s);
        // The child probes this slot after the scans below: start loading it now.
        self.sv.tt.prefetch(self.vcf_key(b));
        // The block may give the defender a four: its five square binds the next four.
        let mut dfive = None;
        let mut dn = 0;
        for (d, pat) in sp.iter().enumerate() {
            if !pat.is_four() {
                continue;
            }
            for k in -4isize..=4 {
                let q = s.step(d, k);
                if k != 0
                    && b.contains(q)
                    && b.is_empty(q)
                    && b.pattern(q, d, o) == Pattern::Five
                    && dfive != Some(q)
                {
                    dfive = Some(q);
                    dn += 1;
                }
            }
        }
        if dn >= 2 {
            b.unmake();
            return Res::NoWin;
        }
        // Child candidates: the parent's that still four, plus new ones on m's lines. A parent
        // four off the lines of m and s (within five) kept its line keys, so it still fours.
        let clo = self.sv.cands.len();
        let st = self.next_stamp();
        for j in lo..hi {
            let p = self.sv.cands[j];
            let same = !super::lined_up(p, m) && !super::lined_up(p, s);
            if same || b.is_empty(p) && four_count(&b.patterns(p, a)) > 0 {
                self.sv.cands.push(p);
                self.sv.stamp[p.index()] = st;
            }
        }
        // New fours appear only on lines where m made at least a closed three (test
        // `new_fours_only_along_threes`).
        for (d, &pat) in mp.iter().enumerate() {
            if pat < Pattern::B3 {
                continue;
            }
            for k in -4isize..=4 {
                let q = m.step(d, k);
                if k != 0
                    && b.contains(q)
                    && b.is_empty(q)
                    && self.sv.stamp[q.index()] != st
                    && b.pattern(q, d, a).is_four()
                {
                    self.sv.cands.push(q);
                    self.sv.stamp[q.index()] = st;
                }
            }
        }
        let chi = self.sv.cands.len();
        self.sv.path.push(m);
        self.sv.path.push(s);
        let r = self.vcf_node(b, depth - 1, dfive, clo, chi);
        self.sv.path.truncate(self.sv.path.len() - 2);
        self.sv.cands.truncate(clo);
        b.unmake();
        r
    }

    /// The defender's (side to move) moves that leave the attacker `a` no five on `fives`:
    /// the five square itself where there is one; in caro also a stone that would leave the
    /// five blocked at both ends. Renju black's forbidden squares are left out.
    pub(super) fn four_replies(
        &mut self,
        b: &mut Board,
        a: Color,
        fives: &[Pos],
        out: &mut [Pos; MAX_REPLIES],
    ) -> usize {
        let o = a.opposite();
        let caro = matches!(b.rule(), Rule::Caro | Rule::CaroExact);
        if !caro {
            if fives.len() != 1 || (o == Color::Black && b.is_forbidden(fives[0])) {
                return 0;
            }
            out[0] = fives[0];
            return 1;
        }
        let mut n = 0;
        if let [f] = *fives {
            // One five square: a stone off it stops the five only on the five's line, and only
            // when that is its one line of five. Same squares, same order as the general loop
            // below, which meets `f` itself in direction 0 at offset 0.
            let mut lines = (0..4).filter(|&d| b.pattern(f, d, a) == Pattern::Five);
            let line = match (lines.next(), lines.next()) {
                (Some(d), None) => Some(d),
                _ => None,
            };
            if line != Some(0) {
                out[n] = f;
                n += 1;
            }
            if let Some(d) = line {
                for k in -5isize..=5 {
                    let e = f.step(d, k);
                    if k == 0 {
                        if d == 0 {
                            out[n] = f;
                            n += 1;
                        }
                    } else if b.contains(e)
                        && b.is_empty(e)
                        && b.pattern_with(f, d, k, o, a) != Pattern::Five
                        && n < MAX_REPLIES
                    {
                        out[n] = e;
                        n += 1;
                    }
                }
            }
            return n;
        }
        let st = self.next_stamp();
        for &f in fives {
            for d in 0..4 {
                for k in -5isize..=5 {
                    let e = f.step(d, k);
                    if !b.contains(e) || !b.is_empty(e) || self.sv.stamp[e.index()] == st {
                        continue;
                    }
                    self.sv.stamp[e.index()] = st;
                    // Read off the line keys as if `e` were played: only a line through both
                    // squares changes, and a make and unmake per square was most of caro's time.
                    let stops = fives
                        .iter()
                        .all(|&g| g == e || !b.patterns_after(g, e, o, a).contains(&Pattern::Five));
                    if stops && n < MAX_REPLIES {
                        out[n] = e;
                        n += 1;
                    }
                }
            }
        }
        n
    }

    /// Records the winning line: the VCF path so far and its last moves.
    fn win_line(&mut self, tail: &[Pos]) {
        let sv = &mut *self.sv;
        sv.line.clear();
        sv.line.extend_from_slice(&sv.path[sv.vcf_base..]);
        sv.line.extend_from_slice(tail);
    }
}
