//! Wildcards against a brute-force oracle: every sub-multiset of the hand × every assignment
//! of its wild cards.
//!
//! The oracle enumerates assignments from the reading side: for every valid reading `R` (the
//! classic readings of the full deck, themselves checked against the independent classic
//! oracle in `oracle.rs`, plus long bombs), every way the hand can realise `R` — natural cards
//! standing for themselves, wild cards for the rest (never a joker) — is a move. A play made
//! only of wild cards keeps only its natural readings (and, with both wild ranks, the pair,
//! trio or bomb of either wild rank). This is every sub-multiset × every assignment, without
//! trying the assignments that make no combination.

mod common;

use std::collections::BTreeSet;

use common::rng;
use ddz_core::{BombClass, Cards, Kind, Move, Rank, Rules, Wild, classify, is_legal, legal_moves};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// (cards, kind, main, len, class): a move's identity.
type Key = (u64, Kind, Rank, u8, Option<BombClass>);

fn key(m: &Move) -> Key {
    (m.cards().bits(), m.kind(), m.main(), m.length(), m.class())
}

/// A reading: its multiset and (kind, main, len).
#[derive(Clone, Copy)]
struct Reading {
    ranks: Cards,
    counts: [u8; 15],
    kind: Kind,
    main: Rank,
    len: u8,
}

/// Every valid reading multiset under `rules` without wild cards, plus long bombs.
fn all_readings(rules: &Rules) -> Vec<Reading> {
    let plain = Rules {
        laizi: ddz_core::RankSet::EMPTY,
        ..rules.clone()
    };
    let mut out: Vec<Reading> = legal_moves(Cards::FULL_DECK, None, &plain)
        .into_iter()
        .map(|m| Reading {
            ranks: m.cards(),
            counts: m.cards().counts(),
            kind: m.kind(),
            main: m.main(),
            len: m.length(),
        })
        .collect();
    for size in 5..=rules.max_bomb_cards() {
        for r in Rank::SUITED {
            let ranks = Cards::of(r, size);
            out.push(Reading {
                ranks,
                counts: ranks.counts(),
                kind: Kind::Bomb,
                main: r,
                len: 1,
            });
        }
    }
    out
}

/// Every move of `hand` as the oracle sees it.
fn oracle_leads(hand: Cards, readings: &[Reading], rules: &Rules) -> BTreeSet<Key> {
    let wild_mask = rules.laizi.bits();
    let wild_ranks: Vec<Rank> = rules.laizi.iter().collect();
    let wilds = hand.restrict(wild_mask);
    let naturals = hand.saturating_minus(wilds);
    let nat = naturals.counts();
    let w = wilds.len() as u8;
    let mut out = BTreeSet::new();
    for r in readings {
        // Natural cards of each rank used: any number up to what the reading and hand allow,
        // the rest of the reading filled by wild cards standing for suited ranks.
        let ranks: Vec<usize> = (0..15).filter(|&i| r.counts[i] > 0).collect();
        let mut choice = vec![0u8; ranks.len()];
        'choices: loop {
            let mut deficit = 0u8;
            let mut ok = true;
            let mut used = Cards::EMPTY;
            for (k, &i) in ranks.iter().enumerate() {
                let miss = r.counts[i] - choice[k];
                if miss > 0 && i >= 13 {
                    ok = false; // a wild card never stands for a joker
                }
                deficit += miss;
                used = used.add(Rank::ALL[i], choice[k]);
            }
            if ok && deficit <= w {
                // Every physical split of the wild cards used between the wild ranks.
                let mut splits = vec![];
                match wild_ranks.as_slice() {
                    [a] => splits.push(Cards::of(*a, deficit)),
                    [a, b] => {
                        for na in 0..=deficit {
                            let nb = deficit - na;
                            if na <= wilds.count(*a) && nb <= wilds.count(*b) {
                                splits.push(Cards::of(*a, na).add(*b, nb));
                            }
                        }
                    }
                    _ => splits.push(Cards::EMPTY),
                }
                for split in splits {
                    if !wilds.contains(split) {
                        continue;
                    }
                    let cards = used.union(split);
                    if let Some(class) = admissible(cards, used, r, rules, &wild_ranks) {
                        out.insert((cards.bits(), r.kind, r.main, r.len, class));
                    }
                }
            }
            // Next choice of natural counts.
            let mut k = 0;
            loop {
                if k == ranks.len() {
                    break 'choices;
                }
                let i = ranks[k];
                if choice[k] < r.counts[i].min(nat[i]) {
                    choice[k] += 1;
                    break;
                }
                choice[k] = 0;
                k += 1;
            }
        }
    }
    out
}

/// Whether `cards` (with natural part `used`) may be read as `r`, and the bomb class.
fn admissible(
    cards: Cards,
    used: Cards,
    r: &Reading,
    rules: &Rules,
    wild_ranks: &[Rank],
) -> Option<Option<BombClass>> {
    let wild_profile = rules.wild != Wild::None;
    let class = |c| {
        if r.kind == Kind::Bomb && wild_profile {
            Some(c)
        } else {
            None
        }
    };
    if used.is_empty() {
        // Only wild cards: natural readings, or with both wild ranks one wild rank throughout.
        if cards == r.ranks {
            return Some(class(BombClass::Pure));
        }
        let both = wild_ranks.len() == 2 && wild_ranks.iter().all(|&x| cards.count(x) > 0);
        let one_rank = r.ranks.distinct_ranks() == 1 && wild_ranks.contains(&r.main);
        let kind_ok = matches!(r.kind, Kind::Pair | Kind::Trio | Kind::Bomb);
        return (both && one_rank && kind_ok).then(|| class(BombClass::Pure));
    }
    let substituted = cards != used;
    Some(class(if substituted {
        BombClass::Soft
    } else {
        BombClass::Hard
    }))
}

/// Bomb order: size (long bombs), class, rank.
fn oracle_beats(a: &Key, a_n: u32, b: &Key, b_n: u32) -> bool {
    match (a.1, b.1) {
        (Kind::Rocket, k) => k != Kind::Rocket,
        (_, Kind::Rocket) => false,
        (Kind::Bomb, Kind::Bomb) => (a_n, a.4, a.2) > (b_n, b.4, b.2),
        (Kind::Bomb, _) => true,
        (_, Kind::Bomb) => false,
        (ka, kb) => ka == kb && a.3 == b.3 && a_n == b_n && a.2 > b.2,
    }
}

/// A random hand of at most `max` cards with `wild_count` of the wild ranks' cards.
fn wild_hand(rng: &mut ChaCha8Rng, rules: &Rules, max: usize, most_wild: usize) -> Cards {
    let wild_ranks: Vec<Rank> = rules.laizi.iter().collect();
    let mut wilds = Cards::EMPTY;
    let wild_count = rng.random_range(0..=most_wild.min(max));
    while (wilds.len() as usize) < wild_count {
        let r = wild_ranks[rng.random_range(0..wild_ranks.len())];
        if wilds.count(r) < 4 {
            wilds = wilds.add(r, 1);
        }
    }
    let naturals_max = max - wild_count;
    let n = rng.random_range(usize::from(wild_count == 0)..=naturals_max);
    let mut naturals = Cards::EMPTY;
    let pool = Cards::FULL_DECK.saturating_minus(Cards::FULL_DECK.restrict(rules.laizi.bits()));
    // Draw naturals from a shuffled copy of the non-wild deck.
    let mut deck: Vec<Rank> = pool.iter().collect();
    for i in (1..deck.len()).rev() {
        let j = rng.random_range(0..=i);
        deck.swap(i, j);
    }
    for r in deck.into_iter().take(n) {
        naturals = naturals.add(r, 1);
    }
    naturals.union(wilds)
}

/// Random wild ranks: one or two distinct ranks 3..2, A or 2 every fifth time.
fn random_laizi(rng: &mut ChaCha8Rng, two: bool, i: usize) -> Vec<Rank> {
    let first = if i.is_multiple_of(5) {
        [Rank::Ace, Rank::Two][rng.random_range(0..2)]
    } else {
        Rank::SUITED[rng.random_range(0..13)]
    };
    let mut out = vec![first];
    while two && out.len() < 2 {
        let r = Rank::SUITED[rng.random_range(0..13)];
        if r != first {
            out.push(r);
        }
    }
    out
}

fn check(base: Rules, hands: usize, max_cards: usize, most_wild: usize, seed: u64) {
    let two = base.wild == Wild::HeavenEarth;
    let readings = all_readings(&base);
    let mut rng = rng(seed);
    let mut total = 0;
    let mut with_wild = 0;
    for i in 0..hands {
        let rules = base.with_laizi(&random_laizi(&mut rng, two, i)).unwrap();
        let hand = wild_hand(&mut rng, &rules, max_cards, most_wild);
        let table_hand = wild_hand(&mut rng, &rules, 12, most_wild);
        let table_moves = legal_moves(table_hand, None, &rules);
        let expected_lead = oracle_leads(hand, &readings, &rules);
        with_wild += usize::from(!hand.restrict(rules.laizi.bits()).is_empty());
        let mut tables: Vec<Option<Move>> = vec![None];
        if !table_moves.is_empty() {
            tables.push(Some(table_moves[rng.random_range(0..table_moves.len())]));
        }
        for last in tables {
            let generated = legal_moves(hand, last.as_ref(), &rules);
            let keys: Vec<Key> = generated.iter().map(key).collect();
            let got: BTreeSet<Key> = keys.iter().copied().collect();
            assert_eq!(
                got.len(),
                keys.len(),
                "{hand} laizi {:?}: duplicate moves",
                rules.laizi
            );
            let mut expected: BTreeSet<Key> = match &last {
                None => expected_lead.clone(),
                Some(l) => expected_lead
                    .iter()
                    .filter(|k| {
                        let n = Cards::from_bits(k.0).unwrap().len();
                        oracle_beats(k, n, &key(l), l.cards().len())
                    })
                    .copied()
                    .collect(),
            };
            if last.is_some() {
                expected.insert(key(&Move::PASS));
            }
            if got != expected {
                let show = |k: &Key| {
                    format!(
                        "{}:{}:{}:{:?}",
                        Cards::from_bits(k.0).unwrap(),
                        k.1,
                        k.2,
                        k.4
                    )
                };
                let missing: Vec<String> = expected.difference(&got).take(6).map(show).collect();
                let extra: Vec<String> = got.difference(&expected).take(6).map(show).collect();
                panic!(
                    "hand {i} {hand} laizi {:?} last {last:?}: missing {missing:?} extra {extra:?}",
                    rules.laizi
                );
            }
            for m in &generated {
                assert!(
                    is_legal(hand, last.as_ref(), m, &rules),
                    "{hand}: {m} not legal"
                );
                if !m.is_pass() {
                    assert!(
                        classify(m.cards(), &rules).contains(m),
                        "{m} does not classify back"
                    );
                }
            }
            total += generated.len();
        }
    }
    assert!(with_wild > hands / 2, "too few hands with wild cards");
    assert!(total > hands);
}

#[test]
fn laizi_matches_oracle() {
    check(Rules::laizi(), 5_000, 12, 4, 21);
}

#[test]
fn tiandi_matches_oracle() {
    check(Rules::tiandi(), 5_000, 12, 8, 22);
}

/// Larger hands: run with `cargo test --release -- --ignored` (result in BENCHMARKS.md).
#[test]
#[ignore]
fn laizi_and_tiandi_match_oracle_on_large_hands() {
    check(Rules::laizi(), 2_000, 20, 4, 23);
    check(Rules::tiandi(), 1_000, 20, 8, 24);
}
