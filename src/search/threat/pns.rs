//! VCT by proof-number search over the same threat moves and defences as the depth-first
//! search (`vct`): it expands the most-proving node first, so deep narrow wins come out without
//! iterating the depth. The tree lives in a vector of the solver that keeps its capacity.

use super::{any_legal, Res, Search, UNLIMITED};
use crate::board::{Board, Pos};

const INF: u32 = u32::MAX / 4;
/// Depth handed to the move generators: "no limit".
const FREE: u32 = 200;

#[derive(Clone, Copy)]
pub(super) struct PnNode {
    pn: u32,
    dn: u32,
    first: u32,
    count: u32,
    mv: Pos,
    /// Attacker to move.
    or: bool,
}

impl Search<'_, '_> {
    /// Proves or disproves a VCT for the side to move; on a win `sv.line` holds the main line.
    pub(super) fn pns_root(&mut self, b: &mut Board, max_tree: usize) -> Res {
        self.sv.strict = false;
        self.sv.pn.clear();
        let mut root = PnNode {
            pn: 1,
            dn: 1,
            first: 0,
            count: 0,
            mv: Pos::NONE,
            or: true,
        };
        match self.eval_or(b) {
            Some(Res::Win) => {
                root.pn = 0;
                root.dn = INF;
            }
            Some(_) => return Res::Abort,
            None => {}
        }
        self.sv.pn.push(root);
        let mut stack: Vec<usize> = Vec::with_capacity(256);
        while self.sv.pn[0].pn != 0 && self.sv.pn[0].dn != 0 {
            if self.sv.pn.len() + 512 > max_tree {
                return Res::Abort;
            }
            // Descend to the most-proving node.
            stack.clear();
            let mut idx = 0;
            loop {
                let n = self.sv.pn[idx];
                if n.count == 0 {
                    break;
                }
                let kids = n.first as usize..(n.first + n.count) as usize;
                let mut best = kids.start;
                for c in kids {
                    let cn = &self.sv.pn[c];
                    let better = if n.or {
                        cn.pn < self.sv.pn[best].pn
                    } else {
                        cn.dn < self.sv.pn[best].dn
                    };
                    if better {
                        best = c;
                    }
                }
                stack.push(idx);
                b.make(self.sv.pn[best].mv);
                idx = best;
            }
            let r = self.expand(b, idx);
            // Back up, recomputing each ancestor from its children.
            let mut cur = Some(idx);
            while let Some(i) = cur {
                if i != idx {
                    self.update(i);
                }
                cur = stack.pop();
                if cur.is_some() {
                    b.unmake();
                }
            }
            if r == Res::Abort {
                return Res::Abort;
            }
        }
        if self.sv.pn[0].dn == 0 {
            return Res::NoWin;
        }
        let mut out = Vec::with_capacity(64);
        if self.pn_line(b, 0, &mut out) {
            self.sv.line.clear();
            self.sv.line.extend_from_slice(&out);
            Res::Win
        } else {
            Res::Abort
        }
    }

    fn update(&mut self, i: usize) {
        let n = self.sv.pn[i];
        let kids = n.first as usize..(n.first + n.count) as usize;
        let (mut pn, mut dn) = if n.or { (INF, 0) } else { (0, INF) };
        for c in kids {
            let cn = self.sv.pn[c];
            if n.or {
                pn = pn.min(cn.pn);
                dn = (dn + cn.dn).min(INF);
            } else {
                pn = (pn + cn.pn).min(INF);
                dn = dn.min(cn.dn);
            }
        }
        self.sv.pn[i].pn = pn;
        self.sv.pn[i].dn = dn;
    }

    /// Attacker to move: Some(Win) when a five or a VCF is there, Some(Abort) on a limit.
    fn eval_or(&mut self, b: &mut Board) -> Option<Res> {
        let a = b.side_to_move();
        let mut f = [Pos::NONE; 2];
        if super::five_squares(b, a, &mut f) > 0 {
            return Some(Res::Win);
        }
        match self.vcf_root(b, UNLIMITED) {
            Res::NoWin => None,
            r => Some(r),
        }
    }

    /// Creates the children of leaf `idx` (the board stands at it) and sets its numbers.
    fn expand(&mut self, b: &mut Board, idx: usize) -> Res {
        if self.tick() {
            return Res::Abort;
        }
        let or = self.sv.pn[idx].or;
        let a = if or {
            b.side_to_move()
        } else {
            b.side_to_move().opposite()
        };
        let o = a.opposite();
        let mlo = self.sv.moves.len();
        if or {
            let mut df = [Pos::NONE; 2];
            match super::five_squares(b, o, &mut df) {
                0 => self.gen_attacks(b, FREE),
                1 if super::legal(b, df[0], a) => self.sv.moves.push((0, df[0])),
                _ => {}
            }
        } else if self.gen_defences(b, a, FREE).is_none() {
            // The defender has a five, or nothing is threatened: refuted.
            self.sv.moves.truncate(mlo);
            self.sv.pn[idx].pn = INF;
            self.sv.pn[idx].dn = 0;
            return Res::NoWin;
        }
        let mhi = self.sv.moves.len();
        let first = self.sv.pn.len() as u32;
        for i in mlo..mhi {
            let mv = self.sv.moves[i].1;
            b.make(mv);
            // Attacks start at (1, 1): judging each at creation costs more than it saves.
            let (pn, dn) = if or {
                (1, 1)
            } else {
                match self.eval_or(b) {
                    Some(Res::Win) => (0, INF),
                    Some(_) => {
                        b.unmake();
                        self.sv.moves.truncate(mlo);
                        return Res::Abort;
                    }
                    None => (1, 1),
                }
            };
            b.unmake();
            if self.sv.aborted {
                self.sv.moves.truncate(mlo);
                return Res::Abort;
            }
            self.sv.pn.push(PnNode {
                pn,
                dn,
                first: 0,
                count: 0,
                mv,
                or: !or,
            });
        }
        self.sv.moves.truncate(mlo);
        let count = self.sv.pn.len() as u32 - first;
        self.sv.pn[idx].first = first;
        self.sv.pn[idx].count = count;
        if count == 0 {
            // No threat to make: lost for the attacker; no defence: won.
            let (pn, dn) = if or { (INF, 0) } else { (0, INF) };
            self.sv.pn[idx].pn = pn;
            self.sv.pn[idx].dn = dn;
        } else {
            self.update(idx);
        }
        Res::NoWin
    }

    /// The main line of the proven tree under `idx` (the board stands at it).
    fn pn_line(&mut self, b: &mut Board, idx: usize, out: &mut Vec<Pos>) -> bool {
        let n = self.sv.pn[idx];
        if out.len() > 600 {
            return false;
        }
        if n.or {
            if n.count == 0 || self.eval_or(b) == Some(Res::Win) {
                let a = b.side_to_move();
                let mut f = [Pos::NONE; 2];
                if super::five_squares(b, a, &mut f) > 0 {
                    out.push(f[0]);
                    return true;
                }
                if self.vcf_root(b, UNLIMITED) == Res::Win {
                    out.extend_from_slice(&self.sv.line);
                    return true;
                }
                if n.count == 0 {
                    return false;
                }
            }
            let kids = n.first as usize..(n.first + n.count) as usize;
            for c in kids {
                if self.sv.pn[c].pn == 0 {
                    let mv = self.sv.pn[c].mv;
                    out.push(mv);
                    b.make(mv);
                    let ok = self.pn_line(b, c, out);
                    b.unmake();
                    return ok;
                }
            }
            false
        } else {
            if n.count == 0 {
                // Nothing defends: any legal reply, then the attacker's five or VCF.
                let o = b.side_to_move();
                let a = o.opposite();
                let mut af = [Pos::NONE; 2];
                let k = super::five_squares(b, a, &mut af);
                let Some(e) = any_legal(b, o, &af[..k]) else {
                    return false;
                };
                out.push(e);
                b.make(e);
                let ok = match self.eval_or(b) {
                    Some(Res::Win) => {
                        let mut f = [Pos::NONE; 2];
                        if super::five_squares(b, a, &mut f) > 0 {
                            out.push(f[0]);
                            true
                        } else if self.vcf_root(b, UNLIMITED) == Res::Win {
                            out.extend_from_slice(&self.sv.line);
                            true
                        } else {
                            false
                        }
                    }
                    _ => false,
                };
                b.unmake();
                return ok;
            }
            // Follow the defence with the biggest proof (the most stubborn one).
            let kids = n.first as usize..(n.first + n.count) as usize;
            let c = kids
                .clone()
                .max_by_key(|&c| self.sv.pn[c].count)
                .unwrap_or(kids.start);
            let mv = self.sv.pn[c].mv;
            out.push(mv);
            b.make(mv);
            let ok = self.pn_line(b, c, out);
            b.unmake();
            ok
        }
    }
}
