//! The ddzlib split (拆牌) of a natural hand, the search over wild readings, and turning the
//! groups found back into moves of physical cards.

use ddz_core::{Cards, Kind, Move, Rank, Rules, read_as};

use crate::analysis::{group_value, realise_group, wild_cards, wild_readings};

/// Rank index of the ace, the highest rank a chain may reach.
const ACE: usize = Rank::Ace as usize;
/// Rank index of the 2, the highest rank a pair, trio or bomb may have.
const TWO: usize = Rank::Two as usize;
/// Rank index of the small joker.
const SMALL: usize = Rank::SmallJoker as usize;
/// Rank index of the big joker.
const BIG: usize = Rank::BigJoker as usize;

/// Fewest ranks of a straight.
const STRAIGHT_MIN: usize = Kind::Straight.shape().min_len as usize;

/// One group found on a natural reading: its kind and the ranks `low..low + len` of its body
/// (one rank for everything but chains; the big joker for the rocket).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Group {
    kind: Kind,
    low: u8,
    len: u8,
}

impl Group {
    fn new(kind: Kind, low: usize, len: usize) -> Group {
        Group {
            kind,
            low: low as u8,
            len: len as u8,
        }
    }

    /// The main rank: the top of the body.
    fn main(self) -> Rank {
        Rank::ALL[usize::from(self.low + self.len - 1)]
    }

    /// The ranks the group stands for.
    fn reading(self) -> Cards {
        if self.kind == Kind::Rocket {
            return Cards::ROCKET;
        }
        let per = self.kind.shape().per_rank;
        (self.low..self.low + self.len).fold(Cards::EMPTY, |acc, i| {
            acc.add(Rank::ALL[usize::from(i)], per)
        })
    }
}

/// Where the split puts the groups it finds: a list, or [`KeySink`], which only scores them.
trait Sink {
    /// Receives the next group.
    fn push(&mut self, g: Group);
}

impl Sink for Vec<Group> {
    fn push(&mut self, g: Group) {
        Vec::push(self, g);
    }
}

/// Bit set of the ranks 3..A held at least `need` times and not in `exclude`.
fn chain_mask(c: &[u8; 15], need: u8, exclude: u16) -> u16 {
    let mut m = 0u16;
    for (r, &n) in c.iter().enumerate().take(ACE + 1) {
        m |= u16::from(n >= need) << r;
    }
    m & !exclude
}

/// The longest run of consecutive bits of `mask` (the lowest on a tie), if it has at least
/// `min_len` bits: `(low, len)`.
fn longest_run(mask: u16, min_len: usize) -> Option<(usize, usize)> {
    // After k steps of `m &= m >> 1`, bit i is set when bits i..=i+k all are.
    let (mut m, mut prev, mut len) = (mask, 0u16, 0usize);
    while m != 0 {
        prev = m;
        m &= m >> 1;
        len += 1;
    }
    (len >= min_len).then(|| (prev.trailing_zeros() as usize, len))
}

/// Pushes the chain `low..low + len` of `kind`, cut into legal lengths when the run is longer
/// than the kind allows (a run of 12 pairs becomes two chains of 6): as few pieces as
/// possible, as even as possible, longer pieces first.
fn push_chain(out: &mut impl Sink, kind: Kind, low: usize, len: usize) {
    let max = usize::from(kind.shape().max_len);
    let pieces = len.div_ceil(max);
    let (base, extra) = (len / pieces, len % pieces);
    let mut at = low;
    for p in 0..pieces {
        let l = base + usize::from(p < extra);
        out.push(Group::new(kind, at, l));
        at += l;
    }
}

/// A straight being built: its lowest rank and length.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Run {
    low: usize,
    len: usize,
}

impl Run {
    fn top(self) -> usize {
        self.low + self.len - 1
    }
}

/// Takes `per` cards of each rank `low..low + len` from the counts.
fn take(c: &mut [u8; 15], low: usize, len: usize, per: u8) {
    for x in &mut c[low..low + len] {
        *x -= per;
    }
}

/// The ddzlib split of a natural hand (wild cards read as natural ranks), into `out`. See the
/// module docs of [`crate::ddzlib`] for the steps.
fn split_natural(hand: Cards, out: &mut impl Sink) {
    let mut c = hand.counts();

    // 1. The rocket.
    if c[SMALL] > 0 && c[BIG] > 0 {
        out.push(Group::new(Kind::Rocket, BIG, 1));
        c[SMALL] -= 1;
        c[BIG] -= 1;
    }
    // 2. Bombs (a count above four only comes from cards of no single deck).
    for (r, n) in c.iter_mut().enumerate().take(TWO + 1) {
        while *n >= 4 {
            out.push(Group::new(Kind::Bomb, r, 1));
            *n -= 4;
        }
    }
    // 3. Airplanes (trio chains), longest first.
    let airplane_min = usize::from(Kind::Airplane.shape().min_len);
    while let Some((low, len)) = longest_run(chain_mask(&c, 3, 0), airplane_min) {
        push_chain(out, Kind::Airplane, low, len);
        take(&mut c, low, len, 3);
    }

    // 4. Straights.
    let mut trios = chain_mask(&c, 3, 0) & !chain_mask(&c, 4, 0);
    let mut runs: Vec<Run> = Vec::new();
    // 4a. Straights among the cards that are not trios, longest first, repeated; then (4b) a
    // trio whose rank completes a straight with the other cards around it gives one card to
    // it and becomes a pair (4566678 → 45678 + 66), and 4a runs again on what is left.
    loop {
        while let Some((low, len)) = longest_run(chain_mask(&c, 1, trios), STRAIGHT_MIN) {
            take(&mut c, low, len, 1);
            runs.push(Run { low, len });
        }
        let free = chain_mask(&c, 1, trios);
        let mut found = None;
        let mut ts = trios;
        while ts != 0 {
            let t = ts.trailing_zeros() as usize;
            ts &= ts - 1;
            // The run of cards through t: its part of `free | t`.
            if let Some((low, len)) = run_through(free | 1 << t, t)
                && len >= STRAIGHT_MIN
            {
                found = Some((t, Run { low, len }));
                break;
            }
        }
        let Some((t, run)) = found else { break };
        take(&mut c, run.low, run.len, 1);
        trios &= !(1 << t);
        runs.push(run);
    }
    // 4c. A trio next to a straight: one card of the trio extends the straight through the
    // loose cards (ranks held once, not trios) beyond it, or into the next straight, and the
    // trio becomes a pair (45678 + 999 + TJ → 456789TJ + 99). Only when a loose card or a
    // straight is absorbed, so it never costs a group.
    let mut ts = trios;
    while ts != 0 {
        let t = ts.trailing_zeros() as usize;
        ts &= ts - 1;
        let loose = chain_mask(&c, 1, trios) & !chain_mask(&c, 2, 0);
        for i in 0..runs.len() {
            let run = runs[i];
            let up = run.top() + 1 == t;
            if !up && t + 1 != run.low {
                continue;
            }
            // The loose cards beyond t, then a straight right after them.
            let (lo, hi) = match run_through(loose | 1 << t, t) {
                Some((low, len)) if up => (t, low + len - 1),
                Some((low, _)) => (low, t),
                None => (t, t),
            };
            let next = if up { hi + 1 } else { lo.wrapping_sub(1) };
            let merged = runs
                .iter()
                .position(|r| if up { r.low == next } else { r.top() == next });
            if hi == lo && merged.is_none() {
                continue;
            }
            take(&mut c, lo, hi - lo + 1, 1);
            trios &= !(1 << t);
            let (mut low, mut top) = (run.low.min(lo), run.top().max(hi));
            if let Some(j) = merged {
                low = low.min(runs[j].low);
                top = top.max(runs[j].top());
            }
            runs[i] = Run {
                low,
                len: top - low + 1,
            };
            if let Some(j) = merged {
                runs.remove(j);
            }
            break;
        }
    }
    // Two identical straights make a pair chain.
    let mut doubled: Vec<Run> = Vec::new();
    let mut i = 0;
    while i < runs.len() {
        if let Some(j) = (i + 1..runs.len()).find(|&j| runs[j] == runs[i]) {
            doubled.push(runs[i]);
            runs.remove(j);
            runs.remove(i);
        } else {
            i += 1;
        }
    }
    for run in &runs {
        push_chain(out, Kind::Straight, run.low, run.len);
    }

    // 5. Trios (2s included).
    for (r, n) in c.iter_mut().enumerate().take(TWO + 1) {
        if *n == 3 {
            out.push(Group::new(Kind::Trio, r, 1));
            *n = 0;
        }
    }
    // 6. Pair chains: the merged straights, then runs of pairs, longest first.
    for run in &doubled {
        push_chain(out, Kind::PairChain, run.low, run.len);
    }
    let pair_chain_min = usize::from(Kind::PairChain.shape().min_len);
    while let Some((low, len)) = longest_run(chain_mask(&c, 2, 0), pair_chain_min) {
        push_chain(out, Kind::PairChain, low, len);
        take(&mut c, low, len, 2);
    }
    // 7. Pairs.
    for (r, n) in c.iter_mut().enumerate().take(TWO + 1) {
        if *n == 2 {
            out.push(Group::new(Kind::Pair, r, 1));
            *n = 0;
        }
    }
    // 8. Singles: every card left.
    for (r, &n) in c.iter().enumerate() {
        for _ in 0..n {
            out.push(Group::new(Kind::Single, r, 1));
        }
    }
}

/// The run of consecutive bits of `mask` that holds bit `t` (set in `mask`): `(low, len)`.
fn run_through(mask: u16, t: usize) -> Option<(usize, usize)> {
    if mask & (1 << t) == 0 {
        return None;
    }
    // Ones from bit t up, then from bit t - 1 down (shifted to the top of the word).
    let len_up = (!(mask >> t)).trailing_zeros() as usize;
    let len_down = if t == 0 {
        0
    } else {
        (mask << (16 - t)).leading_ones() as usize
    };
    Some((t - len_down, len_down + len_up))
}

/// The ordering key of one natural split (smaller is better): fewest groups, then the highest
/// value, then the strongest bombs.
type SplitKey = (usize, i32, u64);

/// Computes the [`SplitKey`] of a split of a reading of a hand as its groups come, without
/// keeping them.
struct KeySink {
    /// The hand's natural (not wild) cards, which tell a bomb's class.
    natural: Cards,
    /// The wild ranks.
    wild_ranks: u16,
    /// Set when a single, pair, trio or bomb has to be made only of wild cards standing for
    /// a rank that is not wild: no valid play, so the reading is dropped without realising it.
    invalid: bool,
    groups: usize,
    value: i32,
    /// Bomb strength codes (class, then rank; the rocket highest), at most eight kept.
    bombs: [u8; 8],
    n_bombs: usize,
}

impl Sink for KeySink {
    fn push(&mut self, g: Group) {
        self.groups += 1;
        self.value += group_value(g.kind, g.main());
        let main = g.main();
        if !matches!(g.kind, Kind::Straight | Kind::PairChain | Kind::Airplane)
            && self.natural.count(main) == 0
            && self.wild_ranks & (1 << main as u16) == 0
        {
            self.invalid = true;
        }
        let code = match g.kind {
            Kind::Rocket => 0xFF,
            Kind::Bomb => {
                let class = match self.natural.count(g.main()) {
                    4.. => 2, // hard
                    0 => 3,   // pure
                    _ => 1,   // soft
                };
                class << 4 | g.low
            }
            _ => return,
        };
        if self.n_bombs < self.bombs.len() {
            self.bombs[self.n_bombs] = code;
            self.n_bombs += 1;
        }
    }
}

impl KeySink {
    /// The key of the split of `reading`, a reading of a hand whose natural cards are
    /// `natural`; `None` if a group cannot be played.
    fn key(reading: Cards, natural: Cards, wild_ranks: u16) -> Option<SplitKey> {
        let mut sink = KeySink {
            natural,
            wild_ranks,
            invalid: false,
            groups: 0,
            value: 0,
            bombs: [0; 8],
            n_bombs: 0,
        };
        split_natural(reading, &mut sink);
        // Strongest first, packed so that comparing the numbers compares the sequences: the
        // class shows which bomb beats which, and the value table cannot see it.
        sink.bombs.sort_unstable_by(|a, b| b.cmp(a));
        (!sink.invalid).then(|| (sink.groups, -sink.value, !u64::from_be_bytes(sink.bombs)))
    }
}

/// The physical cards of `hand` each group of a natural reading takes: natural cards first,
/// given to the smallest groups first (a group made only of wild cards must be read at the
/// wild cards' own rank, so natural cards go where they are scarce), then wild cards of the
/// needed rank, then the lowest wild cards. `None` if the groups do not fit in the hand.
fn assign_cards(hand: Cards, groups: &[Group], rules: &Rules) -> Option<Vec<Cards>> {
    let mut wild = wild_cards(hand, rules);
    let mut natural = hand.minus(wild);
    let mut order: Vec<usize> = (0..groups.len()).collect();
    order.sort_by_key(|&i| groups[i].reading().len());
    let mut cards = vec![Cards::EMPTY; groups.len()];
    for &i in &order {
        let reading = groups[i].reading();
        for r in reading.ranks() {
            let need = reading.count(r);
            let own = need.min(natural.count(r));
            natural = natural.remove(r, own)?;
            let same = (need - own).min(wild.count(r));
            wild = wild.remove(r, same)?;
            let mut got = cards[i].add(r, own + same);
            for _ in own + same..need {
                let w = wild.lowest()?;
                wild = wild.remove(w, 1)?;
                got = got.add(w, 1);
            }
            cards[i] = got;
        }
    }
    Some(cards)
}

/// The groups of a natural reading of `hand` as moves of `hand`'s physical cards, each made by
/// [`realise`] from the cards [`assign_cards`] gives it; `None` if one is not a valid play.
fn realise_groups(hand: Cards, groups: &[Group], rules: &Rules) -> Option<Vec<Move>> {
    let realise = |g: &Group, natural: &mut Cards, wild: &mut Cards| {
        realise_group(natural, wild, g.reading(), g.kind, g.main(), rules)
    };
    if wild_cards(hand, rules).is_empty() {
        // No wild card: each group takes exactly its reading's cards from the hand, whatever
        // the order (what `assign_cards` gives then), with no sort and no vector of cards.
        let (mut natural, mut wild) = (hand, Cards::EMPTY);
        return groups
            .iter()
            .map(|g| realise(g, &mut natural, &mut wild))
            .collect();
    }
    let cards = assign_cards(hand, groups, rules)?;
    groups
        .iter()
        .zip(cards)
        .map(|(g, c)| {
            let mut wild = wild_cards(c, rules);
            realise(g, &mut c.minus(wild), &mut wild)
        })
        .collect()
}

/// Every card of `hand` as a single (a wild card read as its own rank): the split of last
/// resort, never needed for a hand of one deck.
fn all_singles(hand: Cards, rules: &Rules) -> Vec<Move> {
    hand.iter()
        .filter_map(|r| read_as(Cards::single(r), Kind::Single, r, rules))
        .collect()
}

/// The ddzlib split: see [`crate::ddzlib::split`].
pub(crate) fn split_hand(hand: Cards, rules: &Rules) -> Vec<Move> {
    let mut groups = Vec::with_capacity(20);
    let wild = wild_cards(hand, rules);
    if wild.is_empty() {
        split_natural(hand, &mut groups);
        return realise_groups(hand, &groups, rules).unwrap_or_else(|| all_singles(hand, rules));
    }
    let natural = hand.minus(wild);
    let readings = wild_readings(hand, rules);
    let mut keys: Vec<Option<SplitKey>> = readings
        .iter()
        .map(|&reading| {
            // Wild cards read as 2s with no natural 2 can only make a group of wild cards
            // standing for another rank (2s are in no chain): skip the split.
            let wild_twos = reading.count(Rank::Two) > 0
                && natural.count(Rank::Two) == 0
                && !rules.laizi.contains(Rank::Two);
            if wild_twos {
                None
            } else {
                KeySink::key(reading, natural, rules.laizi.bits())
            }
        })
        .collect();
    // Best key first (the first of equal keys); a reading whose groups cannot all be played is
    // dropped for the next best.
    while let Some(i) = (0..keys.len())
        .filter(|&i| keys[i].is_some())
        .min_by_key(|&i| keys[i])
    {
        keys[i] = None;
        groups.clear();
        split_natural(readings[i], &mut groups);
        if let Some(moves) = realise_groups(hand, &groups, rules) {
            return moves;
        }
    }
    all_singles(hand, rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_of_bits() {
        assert_eq!(longest_run(0b0111_1101_1111, 5), Some((0, 5)));
        assert_eq!(longest_run(0b1111_1101_1111, 5), Some((6, 6)));
        assert_eq!(longest_run(0b1111, 5), None);
        assert_eq!(run_through(0b0111_1101_1111, 7), Some((6, 5)));
        assert_eq!(run_through(0b0111_1101_1111, 0), Some((0, 5)));
        assert_eq!(run_through(0b0111_1101_1111, 5), None);
        assert_eq!(run_through(0b1111_1111_1111, 11), Some((0, 12)));
    }

    #[test]
    fn any_pile_splits_into_its_cards() {
        let rules = Rules::classic();
        let mut odd = [1u8; 15];
        odd[0] = 7;
        odd[13] = 3;
        for hand in [
            Cards::EMPTY,
            Cards::FULL_DECK,
            Cards::from_counts(&[15; 15]),
            Cards::from_counts(&odd),
        ] {
            let groups = split_hand(hand, &rules);
            let total = groups
                .iter()
                .fold(Cards::EMPTY, |acc, g| acc.union(g.cards()));
            assert_eq!(total, hand);
        }
        // The full deck: the rocket, thirteen bombs.
        assert_eq!(split_hand(Cards::FULL_DECK, &rules).len(), 14);
    }
}
