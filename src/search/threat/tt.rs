//! The solver's fixed-size hash table: one slot per index, always replaced, holding a proven
//! result and the depth it was proven at. Allocated once; probing and storing allocate nothing.
//! A NoWin cut short by a limit (a depth, a node budget, the zone phase) is told apart from a
//! proven one, and holds only for the search that stored it (it carries that search's
//! generation), as does every result of a node-budgeted VCF.

/// What a slot says about a position (for the search kind salted into its key).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Entry {
    /// A win needing at most this depth.
    Win(u32),
    /// No win at all over the moves the search tries (no limit cut anything below).
    NoWin,
    /// No win within this depth, some line cut short by a limit of the running search.
    Cut(u32),
    /// No win over the moves tried, but only under the running search's node budgets (a VCF
    /// inside a VCT: its budget counts from wherever it started, so what it proves depends on
    /// what the table held; an earlier search's results would change this one's course).
    LocalNoWin,
}

/// A slot: the key's low and high halves and the value, side by side so that a probe touches
/// one cache line (two arrays cost two misses; the table is far larger than the caches).
type Slot = [u32; 3];

/// The sizes a table may take, log2 of its slots: 12 KiB to 3 GiB.
pub(super) fn clamp_bits(bits: u32) -> u32 {
    bits.clamp(10, 28)
}

/// Bytes of `Table::new(bits)`.
pub(super) fn table_bytes(bits: u32) -> u64 {
    (std::mem::size_of::<Slot>() as u64) << clamp_bits(bits)
}

pub(super) struct Table {
    slots: Vec<Slot>,
    mask: usize,
    /// Generation of the running search, stored with `Cut` entries.
    gen: u32,
}

const WIN: u32 = 1 << 8;
const NOWIN: u32 = 2 << 8;
const CUT: u32 = 3 << 8;
const LOCAL_NOWIN: u32 = 4 << 8;
const KIND: u32 = 7 << 8;
const GEN_SHIFT: u32 = 11;
const GEN_MAX: u32 = (1 << (32 - GEN_SHIFT)) - 1;

impl Table {
    /// A table of 2^bits slots, `bits` clamped by `clamp_bits`.
    pub(super) fn new(bits: u32) -> Table {
        let n = 1usize << clamp_bits(bits);
        Table {
            slots: vec![[0; 3]; n],
            mask: n - 1,
            gen: 0,
        }
    }

    pub(super) fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = [0; 3]);
        self.gen = 0;
    }

    /// Starts a new generation: `Cut` entries of earlier searches stop counting (they depend on
    /// that search's node budgets and zone). Clears the table when the counter wraps.
    pub(super) fn new_generation(&mut self) {
        if self.gen == GEN_MAX {
            self.clear();
        } else {
            self.gen += 1;
        }
    }

    /// Asks the CPU to bring `key`'s slot into the cache, for a probe a little later: the
    /// table is far larger than the caches and most probes miss them.
    #[inline]
    pub(super) fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.slots[index(key, self.mask)].as_ptr() as *const i8;
            // SAFETY: a prefetch is a hint that never faults; `p` points into the table, and
            // SSE (which provides the instruction) is part of the x86_64 baseline.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    #[inline]
    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        let s = &self.slots[index(key, self.mask)];
        if s[0] != key as u32 || s[1] != (key >> 32) as u32 {
            return None;
        }
        let v = s[2];
        let depth = v & 0xff;
        match v & KIND {
            WIN => Some(Entry::Win(depth)),
            NOWIN => Some(Entry::NoWin),
            CUT if v >> GEN_SHIFT == self.gen => Some(Entry::Cut(depth)),
            LOCAL_NOWIN if v >> GEN_SHIFT == self.gen => Some(Entry::LocalNoWin),
            _ => None,
        }
    }

    #[inline]
    pub(super) fn store(&mut self, key: u64, e: Entry) {
        let v = match e {
            Entry::Win(d) => WIN | d.min(255),
            Entry::NoWin => NOWIN,
            Entry::Cut(d) => CUT | d.min(255) | self.gen << GEN_SHIFT,
            Entry::LocalNoWin => LOCAL_NOWIN | self.gen << GEN_SHIFT,
        };
        self.slots[index(key, self.mask)] = [key as u32, (key >> 32) as u32, v];
    }
}

#[inline]
fn index(key: u64, mask: usize) -> usize {
    (key as usize ^ (key >> 32) as usize) & mask
}
