//! The transposition table: lock-free 16-byte entries (key XOR data, data) in buckets of four,
//! shared by every search thread, depth-preferred replacement with aging, mate scores stored
//! relative to the node. The memory comes from a zeroed allocation so the OS maps pages only
//! when they are first written: a large table costs nothing before it is used.

use crate::board::Pos;
use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::sync::atomic::{AtomicU64, Ordering};

/// Scores at or beyond this magnitude are forced wins or losses.
pub const MATE: i32 = 30000;
pub const MATE_BOUND: i32 = MATE - 1000;

/// How a stored score bounds the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Upper = 1,
    Lower = 2,
    Exact = 3,
}

/// A probed entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub best: Option<Pos>,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

const BUCKET: usize = 4;
const ENTRY_BYTES: usize = 16;
/// A cache line: one bucket.
const LINE: usize = BUCKET * ENTRY_BYTES;

/// Converts a score to its stored form (mate distance from this node, not the root).
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Converts a stored score back for a node at `ply`.
#[inline]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

pub struct Table {
    /// The first bucket, on a cache-line boundary.
    ptr: *mut AtomicU64,
    /// The allocation (`ptr` lies up to one line into it; see `layout`), for `drop`.
    raw: *mut u8,
    /// Number of u64 words (two per entry).
    words: usize,
    buckets: usize,
    generation: AtomicU64,
}

// The table is a plain array of atomics.
unsafe impl Send for Table {}
unsafe impl Sync for Table {}

impl Table {
    /// A table of at most `bytes` bytes (at least one bucket).
    pub fn new(bytes: u64) -> Table {
        let buckets = ((bytes as usize) / (BUCKET * ENTRY_BYTES)).max(1);
        let words = buckets * BUCKET * 2;
        let layout = Self::layout(words);
        // SAFETY: the layout is not empty. Zeroed memory is a valid array of zero atomics, and
        // an all-zero entry is empty.
        let raw = unsafe { alloc_zeroed(layout) };
        if raw.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        // The block is 8-aligned, so the offset is a whole number of words below one line.
        let skip = (LINE - raw as usize % LINE) % LINE;
        // SAFETY: `skip` bytes plus the buckets' `words * 8` fit in the `words * 8 + LINE` bytes.
        let ptr = unsafe { raw.add(skip) } as *mut AtomicU64;
        Table {
            ptr,
            raw,
            words,
            buckets,
            generation: AtomicU64::new(0),
        }
    }

    /// The allocation for `words` words of buckets: one line more than they need, so that they
    /// can start on a line boundary. A bucket is one cache line, and the allocator's large
    /// blocks start 16 bytes past one (every probe then touched two lines). An alignment of 64
    /// in the layout itself would make the allocator zero every page up front instead of
    /// leaving them to the OS.
    fn layout(words: usize) -> Layout {
        Layout::array::<AtomicU64>(words + LINE / 8).expect("table layout")
    }

    /// Size in bytes.
    pub fn bytes(&self) -> u64 {
        (self.words * 8) as u64
    }

    #[inline]
    fn word(&self, i: usize) -> &AtomicU64 {
        debug_assert!(i < self.words);
        // SAFETY: every caller's index is below `words` (a slot of a bucket from `bucket_of`, or
        // `clear`'s loop), and the `words` words from `ptr` on lie inside the allocation.
        unsafe { &*self.ptr.add(i) }
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        for i in 0..self.words {
            self.word(i).store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn gen(&self) -> u64 {
        self.generation.load(Ordering::Relaxed) & 0x3f
    }

    #[inline]
    fn bucket_of(&self, key: u64) -> usize {
        ((key as u128 * self.buckets as u128) >> 64) as usize * BUCKET * 2
    }

    /// Data layout: move 16 bits, score 16, eval 16, depth 8, bound 2, generation 6.
    #[inline]
    fn pack(best: Option<Pos>, score: i32, eval: i32, depth: i32, bound: Bound, gen: u64) -> u64 {
        let mv = best.map_or(0, |p| p.index() as u64);
        mv | ((score as i16 as u16 as u64) << 16)
            | ((eval as i16 as u16 as u64) << 32)
            | (((depth.clamp(-1, 254) + 1) as u64) << 48)
            | ((bound as u64) << 56)
            | (gen << 58)
    }

    #[inline]
    fn depth_of(data: u64) -> i32 {
        ((data >> 48) & 0xff) as i32 - 1
    }

    #[inline]
    fn gen_of(data: u64) -> u64 {
        data >> 58
    }

    /// Looks `key` up; the score is adjusted for `ply`.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        let b = self.bucket_of(key);
        for i in 0..BUCKET {
            let k = self.word(b + 2 * i).load(Ordering::Relaxed);
            let data = self.word(b + 2 * i + 1).load(Ordering::Relaxed);
            if data != 0 && k ^ data == key {
                let mv = (data & 0xffff) as usize;
                let bound = match (data >> 56) & 3 {
                    1 => Bound::Upper,
                    2 => Bound::Lower,
                    _ => Bound::Exact,
                };
                return Some(Entry {
                    best: if mv == 0 {
                        None
                    } else {
                        Some(crate::eval::pos_of(mv))
                    },
                    score: score_from_tt((data >> 16) as u16 as i16 as i32, ply),
                    eval: (data >> 32) as u16 as i16 as i32,
                    depth: Self::depth_of(data),
                    bound,
                });
            }
        }
        None
    }

    /// Stores a result; replaces the same key, else the shallowest or oldest entry.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        best: Option<Pos>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        let b = self.bucket_of(key);
        let gen = self.gen();
        let mut victim = 0;
        let mut worst = i32::MAX;
        for i in 0..BUCKET {
            let k = self.word(b + 2 * i).load(Ordering::Relaxed);
            let data = self.word(b + 2 * i + 1).load(Ordering::Relaxed);
            if data == 0 || k ^ data == key {
                if data != 0 && k ^ data == key {
                    // Keep a deeper result of this search unless the new one is exact.
                    if bound != Bound::Exact
                        && Self::depth_of(data) > depth + 2
                        && Self::gen_of(data) == gen
                    {
                        return;
                    }
                    let best = best.or_else(|| {
                        let mv = (data & 0xffff) as usize;
                        (mv != 0).then(|| crate::eval::pos_of(mv))
                    });
                    self.write(b + 2 * i, key, best, score, eval, depth, bound, ply, gen);
                    return;
                }
                victim = i;
                worst = i32::MIN;
                continue;
            }
            let age = ((gen + 64 - Self::gen_of(data)) & 0x3f) as i32;
            let worth = Self::depth_of(data) - 4 * age;
            if worth < worst {
                worst = worth;
                victim = i;
            }
        }
        self.write(
            b + 2 * victim,
            key,
            best,
            score,
            eval,
            depth,
            bound,
            ply,
            gen,
        );
    }

    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn write(
        &self,
        at: usize,
        key: u64,
        best: Option<Pos>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
        gen: u64,
    ) {
        let data = Self::pack(best, score_to_tt(score, ply), eval, depth, bound, gen);
        self.word(at).store(key ^ data, Ordering::Relaxed);
        self.word(at + 1).store(data, Ordering::Relaxed);
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        // SAFETY: `raw` came from `alloc_zeroed` with this same layout (`words` never changes)
        // and is freed only here.
        unsafe { dealloc(self.raw, Self::layout(self.words)) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_start_on_cache_lines() {
        for bytes in [64, 1 << 16, 3 << 20, (1 << 20) + 1000] {
            let t = Table::new(bytes);
            assert_eq!(t.ptr as usize % LINE, 0, "{bytes} bytes");
            // The buckets end inside the allocation.
            let end = t.ptr as usize + t.words * 8;
            assert!(end <= t.raw as usize + Table::layout(t.words).size());
            assert!(t.bytes() <= bytes.max(LINE as u64));
        }
    }

    #[test]
    fn store_and_probe() {
        let t = Table::new(1 << 16);
        assert_eq!(t.bytes(), 1 << 16);
        let key = 0x1234_5678_9abc_def0;
        assert!(t.probe(key, 0).is_none());
        let p = Pos::new(3, 4);
        t.store(key, Some(p), -120, 55, 7, Bound::Lower, 0);
        let e = t.probe(key, 0).unwrap();
        assert_eq!(e.best, Some(p));
        assert_eq!(
            (e.score, e.eval, e.depth, e.bound),
            (-120, 55, 7, Bound::Lower)
        );
        // A different key in the same table misses.
        assert!(t.probe(key ^ 1, 0).is_none());
        // A later store without a move keeps the old move.
        t.store(key, None, 10, 55, 9, Bound::Exact, 0);
        assert_eq!(t.probe(key, 0).unwrap().best, Some(p));
        t.clear();
        assert!(t.probe(key, 0).is_none());
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let t = Table::new(1 << 12);
        // Found at ply 5: a win 3 plies from the root position of the search at ply 5 means
        // "mate in MATE - score plies from the root". Probed from ply 9 it must shift by 4.
        let win = MATE - 8;
        t.store(42, None, win, 0, 3, Bound::Exact, 5);
        assert_eq!(t.probe(42, 5).unwrap().score, win);
        assert_eq!(t.probe(42, 9).unwrap().score, win - 4);
        let loss = -(MATE - 8);
        t.store(43, None, loss, 0, 3, Bound::Exact, 5);
        assert_eq!(t.probe(43, 1).unwrap().score, loss - 4);
        // Ordinary scores never move.
        assert_eq!(score_to_tt(500, 7), 500);
        assert_eq!(score_from_tt(-500, 7), -500);
    }

    #[test]
    fn replacement_prefers_shallow_and_old() {
        let t = Table::new(64); // one bucket of four
        for k in 1..=4u64 {
            t.store(k, None, 0, 0, 10 + k as i32, Bound::Exact, 0);
        }
        t.store(5, None, 0, 0, 1, Bound::Exact, 0);
        assert!(t.probe(1, 0).is_none(), "shallowest entry replaced");
        assert!(t.probe(5, 0).is_some());
        t.new_search();
        t.new_search();
        t.new_search();
        t.store(6, None, 0, 0, 2, Bound::Exact, 0);
        // Every old entry aged equally: the shallowest old one (key 5) went.
        assert!(t.probe(5, 0).is_none());
        assert!(t.probe(4, 0).is_some());
    }
}
