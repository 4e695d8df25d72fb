//! The solver's fixed-size hash table: one slot per index, always replaced, holding a proven
//! result and the depth it was proven at. Allocated once; probing and storing allocate nothing.

/// What a slot says about a position (for the search kind salted into its key).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Entry {
    /// A win needing at most this depth.
    Win(u32),
    /// No win within this depth.
    NoWin(u32),
}

pub(super) struct Table {
    keys: Vec<u64>,
    vals: Vec<u32>,
    mask: usize,
}

const WIN: u32 = 1 << 8;
const NOWIN: u32 = 2 << 8;

impl Table {
    pub(super) fn new(bits: u32) -> Table {
        let n = 1usize << bits;
        Table {
            keys: vec![0; n],
            vals: vec![0; n],
            mask: n - 1,
        }
    }

    pub(super) fn clear(&mut self) {
        self.keys.iter_mut().for_each(|k| *k = 0);
        self.vals.iter_mut().for_each(|v| *v = 0);
    }

    #[inline]
    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        let i = (key as usize ^ (key >> 32) as usize) & self.mask;
        if self.keys[i] != key {
            return None;
        }
        let v = self.vals[i];
        let depth = v & 0xff;
        match v & !0xff {
            WIN => Some(Entry::Win(depth)),
            NOWIN => Some(Entry::NoWin(depth)),
            _ => None,
        }
    }

    #[inline]
    pub(super) fn store(&mut self, key: u64, e: Entry) {
        let i = (key as usize ^ (key >> 32) as usize) & self.mask;
        self.keys[i] = key;
        self.vals[i] = match e {
            Entry::Win(d) => WIN | d.min(255),
            Entry::NoWin(d) => NOWIN | d.min(255),
        };
    }
}
