//! The transposition table of proven positions ([`TransTable`]).

/// Bits of the last key word that hold the key (the rest hold the entry's data).
const KEY_BITS: u64 = (1 << 48) - 1;
/// Entry flags in the last key word.
const OCCUPIED: u64 = 1 << 63;
const WIN: u64 = 1 << 62;
const WORK_SHIFT: u32 = 48;

/// The transposition table: buckets of two entries, each entry the whole key (four words)
/// with the result and the size of the search that proved it in the spare bits of the last.
/// It starts small and doubles while more than half its entries are in use, up to its most
/// entries; then proven results displace others (the smaller search first).
#[derive(Clone, Debug)]
pub(super) struct TransTable {
    slots: Vec<[u64; 4]>,
    mask: usize,
    /// Entries in use.
    used: usize,
    /// The most entries the table may grow to.
    max_len: usize,
}

/// Entries a table starts with.
const FIRST_TABLE_BITS: u32 = 10;

impl TransTable {
    pub(super) fn new(max_bits: u32) -> TransTable {
        let n = 1usize << FIRST_TABLE_BITS.min(max_bits);
        TransTable {
            slots: vec![[0u64; 4]; n],
            mask: (n - 1) & !1,
            used: 0,
            max_len: 1 << max_bits,
        }
    }

    #[inline]
    fn index(key: &[u64; 4]) -> usize {
        let mut h = key[3].wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h = (h ^ key[0]).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        h = (h.rotate_left(29) ^ key[1]).wrapping_mul(0x1656_67B1_9E37_79F9);
        h = (h.rotate_left(31) ^ key[2]).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h ^ (h >> 32)) as usize
    }

    #[inline]
    fn matches(slot: &[u64; 4], key: &[u64; 4]) -> bool {
        slot[3] & OCCUPIED != 0
            && slot[3] & KEY_BITS == key[3]
            && slot[0] == key[0]
            && slot[1] == key[1]
            && slot[2] == key[2]
    }

    #[inline]
    pub(super) fn probe(&self, key: &[u64; 4]) -> Option<bool> {
        let i = TransTable::index(key) & self.mask;
        for slot in &self.slots[i..i + 2] {
            if TransTable::matches(slot, key) {
                return Some(slot[3] & WIN != 0);
            }
        }
        None
    }

    #[inline]
    pub(super) fn store(&mut self, key: &[u64; 4], win: bool, work: u64) {
        let work = (64 - work.leading_zeros()) as u64;
        let entry = [
            key[0],
            key[1],
            key[2],
            key[3] | OCCUPIED | if win { WIN } else { 0 } | work << WORK_SHIFT,
        ];
        self.put(entry);
        if self.used * 2 > self.slots.len() && self.slots.len() < self.max_len {
            self.grow();
        }
    }

    /// Stores a whole entry: the bigger search goes to the first entry of its bucket (the one
    /// there moves to the second), a smaller one to the second.
    #[inline]
    fn put(&mut self, entry: [u64; 4]) {
        let key = [entry[0], entry[1], entry[2], entry[3] & KEY_BITS];
        let i = TransTable::index(&key) & self.mask;
        let work = (entry[3] >> WORK_SHIFT) & 0x3F;
        let [first, second] = [self.slots[i], self.slots[i + 1]];
        if TransTable::matches(&first, &key) {
            self.slots[i] = entry;
        } else if TransTable::matches(&second, &key) {
            self.slots[i + 1] = entry;
        } else if first[3] & OCCUPIED == 0 {
            self.slots[i] = entry;
            self.used += 1;
        } else if work >= (first[3] >> WORK_SHIFT) & 0x3F {
            self.used += (second[3] & OCCUPIED == 0) as usize;
            self.slots[i + 1] = first;
            self.slots[i] = entry;
        } else {
            self.used += (second[3] & OCCUPIED == 0) as usize;
            self.slots[i + 1] = entry;
        }
    }

    /// Doubles the table, keeping every entry.
    fn grow(&mut self) {
        let n = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![[0u64; 4]; n]);
        self.mask = (n - 1) & !1;
        self.used = 0;
        for entry in old {
            if entry[3] & OCCUPIED != 0 {
                self.put(entry);
            }
        }
    }

    pub(super) fn clear(&mut self) {
        self.slots.fill([0; 4]);
        self.used = 0;
    }

    /// Bytes held.
    pub(super) fn bytes(&self) -> usize {
        self.slots.len() * 32
    }
}
