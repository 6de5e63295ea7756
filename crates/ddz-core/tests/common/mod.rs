//! Test helpers: seeded random hands and a brute-force oracle written independently of the
//! library's classifier and generator. The oracle shares only the input types with the library
//! (`Cards`, `Rank`, the `Rules` fields): its kinds, their order, their body shapes and its
//! readings are its own, restated from RULES.md; library moves are mapped into its terms only
//! to compare them ([`reading_of`]).

#![allow(dead_code)]

use ddz_core::{Cards, Move, Rank, Readings, Rules};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A seeded generator.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// `n` cards drawn from a shuffled 54-card deck.
pub fn random_hand(rng: &mut ChaCha8Rng, n: usize) -> Cards {
    let mut deck: Vec<Rank> = Cards::FULL_DECK.iter().collect();
    for i in (1..deck.len()).rev() {
        let j = rng.random_range(0..=i);
        deck.swap(i, j);
    }
    deck[..n].iter().copied().collect()
}

/// Every non-empty sub-multiset of `hand`.
pub fn sub_multisets(hand: Cards) -> Vec<Cards> {
    let counts = hand.counts();
    let mut out = vec![[0u8; 15]];
    for (i, &c) in counts.iter().enumerate() {
        let mut next = Vec::with_capacity(out.len() * (c as usize + 1));
        for base in &out {
            for k in 0..=c {
                let mut b = *base;
                b[i] = k;
                next.push(b);
            }
        }
        out = next;
    }
    out.iter()
        .map(Cards::from_counts)
        .filter(|c| !c.is_empty())
        .collect()
}

/// The oracle's kinds, in the order of RULES.md's table (section 3), then Botzone's space
/// shuttles; `Pass` first. The derived order is that table order (the default reading's
/// tie-break).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Pass,
    Single,
    Pair,
    Trio,
    TrioSingle,
    TrioPair,
    Straight,
    PairChain,
    Airplane,
    AirplaneSingles,
    AirplanePairs,
    FourTwoSingles,
    FourTwoPairs,
    Bomb,
    Rocket,
    SpaceShuttle,
    SpaceShuttleSingles,
    SpaceShuttlePairs,
    /// Two decks only (tests/two_deck_oracle.rs has its own oracle); listed so that every
    /// library kind has a name here.
    FourJokers,
}

impl Kind {
    /// Cards of each body rank (RULES.md's shapes: XXX+Y has a body of one rank of 3).
    pub fn body_per_rank(self) -> usize {
        match self {
            Kind::Pass => 0,
            Kind::Single | Kind::Straight | Kind::Rocket => 1,
            Kind::Pair | Kind::PairChain => 2,
            Kind::Trio
            | Kind::TrioSingle
            | Kind::TrioPair
            | Kind::Airplane
            | Kind::AirplaneSingles
            | Kind::AirplanePairs => 3,
            Kind::FourTwoSingles
            | Kind::FourTwoPairs
            | Kind::Bomb
            | Kind::SpaceShuttle
            | Kind::SpaceShuttleSingles
            | Kind::SpaceShuttlePairs
            | Kind::FourJokers => 4,
        }
    }

    /// The library's kind in the oracle's terms (a name-for-name translation of the output).
    pub fn of(kind: ddz_core::Kind) -> Kind {
        use ddz_core::Kind as L;
        match kind {
            L::Pass => Kind::Pass,
            L::Single => Kind::Single,
            L::Pair => Kind::Pair,
            L::Trio => Kind::Trio,
            L::TrioSingle => Kind::TrioSingle,
            L::TrioPair => Kind::TrioPair,
            L::Straight => Kind::Straight,
            L::PairChain => Kind::PairChain,
            L::Airplane => Kind::Airplane,
            L::AirplaneSingles => Kind::AirplaneSingles,
            L::AirplanePairs => Kind::AirplanePairs,
            L::FourTwoSingles => Kind::FourTwoSingles,
            L::FourTwoPairs => Kind::FourTwoPairs,
            L::Bomb => Kind::Bomb,
            L::Rocket => Kind::Rocket,
            L::SpaceShuttle => Kind::SpaceShuttle,
            L::SpaceShuttleSingles => Kind::SpaceShuttleSingles,
            L::SpaceShuttlePairs => Kind::SpaceShuttlePairs,
            L::FourJokers => Kind::FourJokers,
        }
    }
}

/// One reading as the oracle sees it: kind, main rank index (the body's top rank; 14 for the
/// rocket), body length (ranks in the body; 1 for non-chains).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Reading {
    pub kind: Kind,
    pub main: usize,
    pub len: usize,
}

/// A library move's reading in the oracle's terms, to compare the library's output with the
/// oracle's (never used to compute what the oracle expects).
pub fn reading_of(m: &Move) -> Reading {
    Reading {
        kind: Kind::of(m.kind()),
        main: m.main() as usize,
        len: m.length() as usize,
    }
}

fn is_run(ranks: &[usize]) -> bool {
    ranks.windows(2).all(|w| w[1] == w[0] + 1) && ranks.last().is_some_and(|&r| r <= 11)
}

/// Ranks with a non-zero count, ascending.
fn present(c: &[u8; 15]) -> Vec<usize> {
    (0..15).filter(|&i| c[i] > 0).collect()
}

/// Checks single kickers (a list of counts per rank) against the rules.
fn singles_ok(kick: &[u8; 15], body: &[usize], kind: Kind, rules: &Rules) -> bool {
    if body.iter().any(|&b| kick[b] > 0) {
        return false;
    }
    if !rules.rocket_as_kickers && kick[13] == 1 && kick[14] == 1 {
        return false;
    }
    if !rules.bomb_in_kickers && kick.iter().any(|&k| k >= 4) {
        return false;
    }
    let may_repeat = if kind == Kind::FourTwoSingles {
        rules.four_two_singles_may_pair
    } else {
        rules.single_kickers_may_repeat
    };
    may_repeat || kick.iter().all(|&k| k <= 1)
}

/// Checks pair kickers; returns the number of pairs if valid.
fn pairs_ok(kick: &[u8; 15], body: &[usize], rules: &Rules) -> Option<usize> {
    let mut pairs = 0;
    for (i, &k) in kick.iter().enumerate() {
        if k == 0 {
            continue;
        }
        if i >= 13 || body.contains(&i) {
            return None;
        }
        match k {
            2 => pairs += 1,
            4 if rules.quad_as_two_pairs => pairs += 2,
            _ => return None,
        }
    }
    Some(pairs)
}

/// Longest run of consecutive ranks 3..A held three or more times that contains `body`.
fn trio_run_around(c: &[u8; 15], lo: usize, hi: usize) -> usize {
    let mut a = lo;
    while a > 0 && c[a - 1] >= 3 {
        a -= 1;
    }
    let mut b = hi;
    while b < 11 && c[b + 1] >= 3 {
        b += 1;
    }
    b - a + 1
}

/// Every reading of `cards` under the combination fields of `rules` (ignoring `readings`),
/// found by trying each kind's definition directly.
pub fn oracle_readings(cards: Cards, rules: &Rules) -> Vec<Reading> {
    oracle_readings_of_counts(&cards.counts(), rules)
}

/// [`oracle_readings`] of a multiset given as counts per rank index (3..2, small and big
/// joker), at most 4 of a rank and one of each joker.
pub fn oracle_readings_of_counts(counts: &[u8; 15], rules: &Rules) -> Vec<Reading> {
    let c = *counts;
    let n: usize = c.iter().map(|&k| k as usize).sum();
    let ranks = present(&c);
    let mut out = Vec::new();
    let mut push = |kind, main, len| out.push(Reading { kind, main, len });
    if n == 0 {
        return vec![];
    }
    let one_rank = ranks.len() == 1;
    if n == 1 {
        push(Kind::Single, ranks[0], 1);
    }
    if n == 2 && one_rank && ranks[0] < 13 {
        push(Kind::Pair, ranks[0], 1);
    }
    if n == 2 && c[13] == 1 && c[14] == 1 {
        push(Kind::Rocket, 14, 1);
    }
    if n == 3 && one_rank {
        push(Kind::Trio, ranks[0], 1);
    }
    if n == 4 && one_rank {
        push(Kind::Bomb, ranks[0], 1);
    }
    if (5..=12).contains(&n) && ranks.len() == n && is_run(&ranks) {
        push(Kind::Straight, ranks[n - 1], n);
    }
    let all = |k: u8| ranks.iter().all(|&r| c[r] == k);
    if n.is_multiple_of(2) && (3..=10).contains(&(n / 2)) && all(2) && is_run(&ranks) {
        push(Kind::PairChain, *ranks.last().unwrap(), n / 2);
    }
    if n.is_multiple_of(3) && (2..=6).contains(&(n / 3)) && all(3) && is_run(&ranks) {
        push(Kind::Airplane, *ranks.last().unwrap(), n / 3);
    }
    // Bodies with kickers: try every body window of the right size.
    let mut with_body = |kind: Kind, per: u8, len: usize, chain: bool| {
        let tops: Vec<usize> = if chain {
            (len - 1..12).collect()
        } else {
            (0..13).collect()
        };
        for top in tops {
            let lo = top + 1 - len;
            let body: Vec<usize> = (lo..=top).collect();
            if body.iter().any(|&b| c[b] < per) {
                continue;
            }
            let mut kick = c;
            for &b in &body {
                kick[b] -= per;
            }
            let kick_n: usize = kick.iter().map(|&k| k as usize).sum();
            let ok = match kind {
                Kind::TrioSingle | Kind::FourTwoSingles | Kind::SpaceShuttleSingles => {
                    let want = if kind == Kind::TrioSingle {
                        len
                    } else {
                        2 * len
                    };
                    kick_n == want && singles_ok(&kick, &body, kind, rules)
                }
                Kind::AirplaneSingles => {
                    kick_n == len
                        && singles_ok(&kick, &body, kind, rules)
                        && (rules.airplane_singles_longer_run
                            || trio_run_around(&c, lo, top) == len)
                }
                Kind::TrioPair | Kind::AirplanePairs => pairs_ok(&kick, &body, rules) == Some(len),
                Kind::FourTwoPairs | Kind::SpaceShuttlePairs => {
                    pairs_ok(&kick, &body, rules) == Some(2 * len)
                }
                Kind::SpaceShuttle => kick_n == 0,
                _ => unreachable!(),
            };
            if ok {
                out.push(Reading {
                    kind,
                    main: top,
                    len,
                });
            }
        }
    };
    if n == 4 {
        with_body(Kind::TrioSingle, 3, 1, false);
    }
    if n == 5 && rules.pair_kickers {
        with_body(Kind::TrioPair, 3, 1, false);
    }
    if n.is_multiple_of(4) && (2..=5).contains(&(n / 4)) {
        with_body(Kind::AirplaneSingles, 3, n / 4, true);
    }
    if n.is_multiple_of(5) && (2..=4).contains(&(n / 5)) && rules.pair_kickers {
        with_body(Kind::AirplanePairs, 3, n / 5, true);
    }
    if n == 6 && rules.four_with_two {
        with_body(Kind::FourTwoSingles, 4, 1, false);
    }
    if n == 8 && rules.four_with_two && rules.pair_kickers {
        with_body(Kind::FourTwoPairs, 4, 1, false);
    }
    if rules.space_shuttles {
        if n.is_multiple_of(4) && n / 4 >= 2 {
            with_body(Kind::SpaceShuttle, 4, n / 4, true);
        }
        if n.is_multiple_of(6) && n / 6 >= 2 {
            with_body(Kind::SpaceShuttleSingles, 4, n / 6, true);
        }
        if n.is_multiple_of(8) && n / 8 >= 2 && rules.pair_kickers {
            with_body(Kind::SpaceShuttlePairs, 4, n / 8, true);
        }
    }
    out.sort();
    out
}

/// Body cards of a reading (for the default-reading order).
fn body_cards(r: &Reading) -> usize {
    match r.kind {
        Kind::Rocket => 2,
        k => k.body_per_rank() * r.len,
    }
}

/// The readings a profile keeps: all, or the one preferred by RULES.md's default order.
pub fn oracle_kept_readings(cards: Cards, rules: &Rules) -> Vec<Reading> {
    let all = oracle_readings(cards, rules);
    // Most sub-multisets of a hand read as nothing: no profile's filter can keep anything then.
    if all.is_empty() {
        return all;
    }
    match rules.readings {
        Readings::All => all,
        Readings::Default => all
            .into_iter()
            .max_by(|a, b| {
                body_cards(a)
                    .cmp(&body_cards(b))
                    .then(a.main.cmp(&b.main))
                    .then(b.kind.cmp(&a.kind))
            })
            .into_iter()
            .collect(),
        Readings::Douzero => {
            // The detector's reading, when the profile's kicker rules also allow it.
            let detected = douzero_oracle::detect(cards);
            all.into_iter().filter(|r| Some(*r) == detected).collect()
        }
    }
}

/// Does reading `a` of `a_cards` beat reading `b` of `b_cards`?
pub fn oracle_beats(a: Reading, a_cards: Cards, b: Reading, b_cards: Cards, rules: &Rules) -> bool {
    let (a_n, b_n) = (a_cards.len(), b_cards.len());
    if rules.readings == Readings::Douzero && a.kind == Kind::AirplaneSingles && b.kind == a.kind {
        return a.len == b.len
            && douzero_oracle::top_trio(a_cards) > douzero_oracle::top_trio(b_cards);
    }
    match (a.kind, b.kind) {
        (Kind::Rocket, k) => k != Kind::Rocket,
        (_, Kind::Rocket) => false,
        (Kind::Bomb, Kind::Bomb) => a.main > b.main,
        (Kind::Bomb, _) => true,
        (_, Kind::Bomb) => false,
        (ka, kb) => ka == kb && a.len == b.len && a_n == b_n && a.main > b.main,
    }
}

pub mod douzero_oracle {
    //! DouZero's move detector, restated independently for the oracle on DouZero's own card
    //! encoding (3..14 for 3..A, 17 for the 2, 20 and 30 for the jokers).
    use super::{Kind, Reading};
    use ddz_core::Cards;
    use std::collections::BTreeMap;

    fn encode(cards: Cards) -> Vec<u32> {
        cards
            .iter()
            .map(|r| match r.index() {
                i @ 0..=11 => i as u32 + 3,
                12 => 17,
                13 => 20,
                _ => 30,
            })
            .collect()
    }

    fn decode(v: u32) -> usize {
        match v {
            3..=14 => v as usize - 3,
            17 => 12,
            20 => 13,
            _ => 14,
        }
    }

    fn continuous(v: &[u32]) -> bool {
        v.windows(2).all(|w| w[1] == w[0] + 1)
    }

    /// (kind, lowest rank in DouZero's terms, length) as `get_move_type` returns it.
    pub fn detect(cards: Cards) -> Option<Reading> {
        let m = encode(cards);
        let size = m.len();
        let mut counter: BTreeMap<u32, usize> = BTreeMap::new();
        for &c in &m {
            *counter.entry(c).or_default() += 1;
        }
        let r = |kind, low: u32, len: usize| {
            Some(Reading {
                kind,
                main: decode(low) + len.saturating_sub(1),
                len,
            })
        };
        match size {
            0 => return None,
            1 => return r(Kind::Single, m[0], 1),
            2 if m[0] == m[1] => return r(Kind::Pair, m[0], 1),
            2 if m == [20, 30] => {
                return Some(Reading {
                    kind: Kind::Rocket,
                    main: 14,
                    len: 1,
                });
            }
            2 => return None,
            3 => {
                return if counter.len() == 1 {
                    r(Kind::Trio, m[0], 1)
                } else {
                    None
                };
            }
            4 if counter.len() == 1 => return r(Kind::Bomb, m[0], 1),
            4 if counter.len() == 2 && m[1] == m[2] && (m[0] == m[1] || m[2] == m[3]) => {
                return r(Kind::TrioSingle, m[1], 1);
            }
            4 => return None,
            _ => {}
        }
        if continuous(&m) {
            return r(Kind::Straight, m[0], size);
        }
        if size == 5 {
            return if counter.len() == 2 {
                r(Kind::TrioPair, m[2], 1)
            } else {
                None
            };
        }
        let mut count_of: BTreeMap<usize, usize> = BTreeMap::new();
        for &n in counter.values() {
            *count_of.entry(n).or_default() += 1;
        }
        let cnt = |k| count_of.get(&k).copied().unwrap_or(0);
        if size == 6
            && (counter.len() == 2 || counter.len() == 3)
            && cnt(4) == 1
            && (cnt(2) == 1 || cnt(1) == 2)
        {
            return r(Kind::FourTwoSingles, m[2], 1);
        }
        if size == 8
            && (((counter.len() == 2 || counter.len() == 3) && cnt(4) == 1 && cnt(2) == 2)
                || cnt(4) == 2)
        {
            let top = counter
                .iter()
                .filter(|(_, n)| **n == 4)
                .map(|(k, _)| *k)
                .max()
                .unwrap();
            return r(Kind::FourTwoPairs, top, 1);
        }
        let keys: Vec<u32> = counter.keys().copied().collect();
        if counter.len() == cnt(2) && continuous(&keys) {
            return r(Kind::PairChain, keys[0], keys.len());
        }
        if counter.len() == cnt(3) && continuous(&keys) {
            return r(Kind::Airplane, keys[0], keys.len());
        }
        if cnt(3) >= 2 {
            let (mut serial, mut single, mut pair) = (vec![], vec![], vec![]);
            for (&k, &v) in &counter {
                match v {
                    3 => serial.push(k),
                    1 => single.push(k),
                    2 => pair.push(k),
                    _ => return None,
                }
            }
            if continuous(&serial) {
                if serial.len() == single.len() + 2 * pair.len() {
                    return r(Kind::AirplaneSingles, serial[0], serial.len());
                }
                if serial.len() == pair.len() && counter.len() == 2 * serial.len() {
                    return r(Kind::AirplanePairs, serial[0], serial.len());
                }
            }
            if serial.len() == 4 {
                if continuous(&serial[1..]) {
                    return r(Kind::AirplaneSingles, serial[1], 3);
                }
                if continuous(&serial[..3]) {
                    return r(Kind::AirplaneSingles, serial[0], 3);
                }
            }
        }
        None
    }

    /// The highest rank held exactly three times (DouZero's airplane + singles comparison).
    pub fn top_trio(cards: Cards) -> usize {
        let c = cards.counts();
        (0..15).rev().find(|&i| c[i] == 3).unwrap_or(0)
    }
}
