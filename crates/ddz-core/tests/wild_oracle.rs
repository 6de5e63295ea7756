//! Wildcards against a brute-force oracle: every sub-multiset of the hand × every realisation
//! of its wild cards, classified by the independent classic oracle of `common`.
//!
//! The oracle owns every definition it uses: its kinds (`common::Kind`), bomb classes and their
//! order (soft < hard < pure), the longest bomb (4 + the wild cards in the deck, with long
//! bombs), and the readings themselves. The reading multisets are every multiset of the deck
//! that `common::oracle_readings_of_counts` reads as something: candidates are built generously
//! (a body of consecutive ranks with 1-4 cards each, plus any kicker multiset of a size some
//! kind could have) and the classifier alone decides what each is; long bombs are added by
//! their definition. For a hand, the realisations are enumerated from the reading side: for
//! every reading multiset `R`, every way the hand can realise `R` — natural cards standing for
//! themselves, wild cards for the rest (never a joker) — is a move. A play made only of wild
//! cards keeps only its natural readings (and, with both wild ranks, the pair, trio or bomb of
//! either wild rank). Every hand checked holds at least one wild card.
//!
//! The table move is one of the oracle's own leads of another hand, looked up among the
//! library's leads, so the oracle knows its reading without asking the library.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::{Kind, oracle_kept_readings, reading_of, rng};
use ddz_core::{
    BombClass, Cards, Move, Profile, Rank, Rules, Wild, classify, is_legal, legal_moves,
};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// A bomb's class in the oracle's terms, in RULES.md's order: soft < hard < pure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Class {
    Soft,
    Hard,
    Pure,
}

/// (cards, kind, main rank index, length, class): a move's identity.
type Key = (u64, Kind, usize, usize, Option<Class>);

/// A library move in the oracle's terms (to compare the library's output, nothing else).
fn key(m: &Move) -> Key {
    let r = reading_of(m);
    let class = m.class().map(|c| match c {
        BombClass::Soft => Class::Soft,
        BombClass::Hard => Class::Hard,
        BombClass::Pure => Class::Pure,
    });
    (m.cards().bits(), r.kind, r.main, r.len, class)
}

/// A reading: its multiset (counts per rank index; a long bomb has more than 4) and
/// (kind, main, len).
#[derive(Clone, Copy)]
struct Reading {
    counts: [u8; 15],
    kind: Kind,
    main: usize,
    len: usize,
}

/// The most cards a bomb may have: 4, or with long bombs 4 + every wild card of the deck (4 with
/// one wild rank, 8 with heaven and earth).
fn max_bomb_cards(rules: &Rules) -> u8 {
    let wild_ranks = match rules.wild {
        Wild::None => 0,
        Wild::Single => 1,
        Wild::HeavenEarth => 2,
    };
    if rules.long_bombs {
        4 + 4 * wild_ranks
    } else {
        4
    }
}

/// Every multiset of `size` cards with at most `cap[i]` of rank `i`, each passed to `f`.
fn multisets(cap: &[u8; 15], size: u8, step: u8, f: &mut impl FnMut(&[u8; 15])) {
    fn go(
        i: usize,
        left: u8,
        cap: &[u8; 15],
        step: u8,
        cur: &mut [u8; 15],
        f: &mut impl FnMut(&[u8; 15]),
    ) {
        if left == 0 {
            f(cur);
            return;
        }
        if i == 15 {
            return;
        }
        let mut k = 0;
        while k <= left && k <= cap[i] {
            cur[i] = k;
            go(i + 1, left - k, cap, step, cur, f);
            k += step;
        }
        cur[i] = 0;
    }
    go(0, size, cap, step, &mut [0; 15], f);
}

/// Every reading multiset of the deck under `rules` without wild cards (each classified by the
/// oracle, keeping the readings the profile keeps), plus long bombs.
fn all_readings(rules: &Rules) -> Vec<Reading> {
    let deck: [u8; 15] = std::array::from_fn(|i| if i < 13 { 4 } else { 1 });
    let mut candidates: BTreeSet<[u8; 15]> = BTreeSet::new();
    candidates.insert(std::array::from_fn(|i| u8::from(i >= 13))); // both jokers
    for per in 1..=4u8 {
        for len in 1..=12usize {
            let tops: Vec<usize> = if len == 1 {
                (0..15).collect()
            } else {
                (len - 1..13).collect()
            };
            for top in tops {
                let mut body = [0u8; 15];
                let mut cap = deck;
                let mut ok = true;
                for b in top + 1 - len..=top {
                    body[b] = per;
                    ok &= deck[b] >= per;
                    cap[b] = deck[b].saturating_sub(per);
                }
                let body_n = per as usize * len;
                if !ok || body_n > 20 {
                    continue;
                }
                // Kickers (RULES.md's shapes): none; with trios, one single or one pair per
                // trio; with fours, two singles or two pairs per four. A multiset of the
                // right size (pairs: counts in twos), whatever its ranks: the classifier
                // decides what is allowed.
                let l = len as u8;
                let mut add = |k: &[u8; 15]| {
                    let c: [u8; 15] = std::array::from_fn(|i| body[i] + k[i]);
                    candidates.insert(c);
                };
                add(&[0; 15]);
                let kickers: &[(u8, u8)] = match per {
                    3 => &[(l, 1), (2 * l, 2)],
                    4 => &[(2 * l, 1), (4 * l, 2)],
                    _ => &[],
                };
                for &(size, step) in kickers {
                    if body_n + size as usize <= 20 {
                        multisets(&cap, size, step, &mut add);
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    for counts in candidates {
        for r in oracle_kept_readings(Cards::from_counts(&counts), rules) {
            out.push(Reading {
                counts,
                kind: r.kind,
                main: r.main,
                len: r.len,
            });
        }
    }
    for size in 5..=max_bomb_cards(rules) {
        for main in 0..13 {
            let mut counts = [0u8; 15];
            counts[main] = size;
            out.push(Reading {
                counts,
                kind: Kind::Bomb,
                main,
                len: 1,
            });
        }
    }
    out
}

fn counts_of(cards: Cards) -> [u8; 15] {
    cards.counts()
}

/// Every move of `hand` as the oracle sees it.
fn oracle_leads(hand: Cards, readings: &[Reading], rules: &Rules) -> BTreeSet<Key> {
    let wild_ranks: Vec<usize> = rules.laizi.iter().map(|r| r.index()).collect();
    let hand_c = counts_of(hand);
    let mut nat = hand_c;
    let mut wild_c = [0u8; 15];
    for &i in &wild_ranks {
        wild_c[i] = hand_c[i];
        nat[i] = 0;
    }
    let w: u8 = wild_c.iter().sum();
    let mut out = BTreeSet::new();
    for r in readings {
        // Natural cards of each rank used: any number up to what the reading and hand allow,
        // the rest of the reading filled by wild cards standing for suited ranks.
        let ranks: Vec<usize> = (0..15).filter(|&i| r.counts[i] > 0).collect();
        if ranks.iter().any(|&i| i >= 13 && nat[i] < r.counts[i]) {
            continue; // a wild card never stands for a joker (checked again below)
        }
        // Skip readings the hand cannot realise however its wild cards are used.
        let least_wild: u8 = ranks
            .iter()
            .map(|&i| r.counts[i].saturating_sub(nat[i]))
            .sum();
        if least_wild > w {
            continue;
        }
        let mut choice = vec![0u8; ranks.len()];
        'choices: loop {
            let mut deficit = 0u8;
            let mut used = [0u8; 15];
            let mut joker_missing = false;
            for (k, &i) in ranks.iter().enumerate() {
                deficit += r.counts[i] - choice[k];
                used[i] = choice[k];
                joker_missing |= i >= 13 && choice[k] < r.counts[i];
            }
            if deficit <= w && !joker_missing {
                // Every physical split of the wild cards used between the wild ranks.
                let mut splits: Vec<[u8; 15]> = vec![];
                match wild_ranks.as_slice() {
                    [a] => {
                        let mut s = [0u8; 15];
                        s[*a] = deficit;
                        splits.push(s);
                    }
                    [a, b] => {
                        for na in 0..=deficit.min(wild_c[*a]) {
                            let nb = deficit - na;
                            if nb <= wild_c[*b] {
                                let mut s = [0u8; 15];
                                s[*a] = na;
                                s[*b] = nb;
                                splits.push(s);
                            }
                        }
                    }
                    _ => {}
                }
                for split in splits {
                    let cards: [u8; 15] = std::array::from_fn(|i| used[i] + split[i]);
                    if let Some(class) = admissible(&cards, &used, r, rules, &wild_ranks) {
                        let bits = Cards::from_counts(&cards).bits();
                        out.insert((bits, r.kind, r.main, r.len, class));
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
    cards: &[u8; 15],
    used: &[u8; 15],
    r: &Reading,
    rules: &Rules,
    wild_ranks: &[usize],
) -> Option<Option<Class>> {
    let wild_profile = rules.wild != Wild::None;
    let class = |c| (r.kind == Kind::Bomb && wild_profile).then_some(c);
    if used.iter().all(|&k| k == 0) {
        // Only wild cards: natural readings, or with both wild ranks one wild rank throughout.
        if *cards == r.counts {
            return Some(class(Class::Pure));
        }
        let both = wild_ranks.len() == 2 && wild_ranks.iter().all(|&x| cards[x] > 0);
        let one_rank =
            r.counts.iter().filter(|&&k| k > 0).count() == 1 && wild_ranks.contains(&r.main);
        let kind_ok = matches!(r.kind, Kind::Pair | Kind::Trio | Kind::Bomb);
        return (both && one_rank && kind_ok).then(|| class(Class::Pure));
    }
    let substituted = cards != used;
    Some(class(if substituted {
        Class::Soft
    } else {
        Class::Hard
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

/// A random hand of at most `max` cards with 1 to `most_wild` of the wild ranks' cards.
fn wild_hand(rng: &mut ChaCha8Rng, rules: &Rules, max: usize, most_wild: usize) -> Cards {
    let wild_ranks: Vec<Rank> = rules.laizi.iter().collect();
    let mut wilds = Cards::EMPTY;
    let wild_count = rng.random_range(1..=most_wild.min(max));
    while (wilds.len() as usize) < wild_count {
        let r = wild_ranks[rng.random_range(0..wild_ranks.len())];
        if wilds.count(r) < 4 {
            wilds = wilds.add(r, 1);
        }
    }
    let naturals_max = max - wild_count;
    let n = rng.random_range(0..=naturals_max);
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
    let show = |k: &Key| {
        let cards = Cards::from_bits(k.0).unwrap();
        format!("{cards}:{:?}:{}:{}:{:?}", k.1, k.2, k.3, k.4)
    };
    for i in 0..hands {
        let rules = base.with_laizi(&random_laizi(&mut rng, two, i)).unwrap();
        let hand = wild_hand(&mut rng, &rules, max_cards, most_wild);
        assert!(!hand.restrict(rules.laizi.bits()).is_empty());
        let expected_lead = oracle_leads(hand, &readings, &rules);
        // The table: one of the oracle's leads of another hand, and the library's move for it.
        let table_hand = wild_hand(&mut rng, &rules, 12, most_wild);
        let table_leads: Vec<Key> = oracle_leads(table_hand, &readings, &rules)
            .into_iter()
            .collect();
        let table_key = table_leads[rng.random_range(0..table_leads.len())];
        let table = legal_moves(table_hand, None, &rules)
            .into_iter()
            .find(|m| key(m) == table_key)
            .unwrap_or_else(|| {
                panic!(
                    "{table_hand} laizi {:?}: the library cannot lead {}",
                    rules.laizi,
                    show(&table_key)
                )
            });
        for last in [None, Some(table)] {
            let generated = legal_moves(hand, last.as_ref(), &rules);
            let passes = generated.iter().filter(|m| m.is_pass()).count();
            assert_eq!(passes, usize::from(last.is_some()), "{hand}: passes");
            let keys: Vec<Key> = generated.iter().filter(|m| !m.is_pass()).map(key).collect();
            let got: BTreeSet<Key> = keys.iter().copied().collect();
            assert_eq!(
                got.len(),
                keys.len(),
                "{hand} laizi {:?}: duplicate moves",
                rules.laizi
            );
            let table_n = Cards::from_bits(table_key.0).unwrap().len();
            let expected: BTreeSet<Key> = expected_lead
                .iter()
                .filter(|k| {
                    let n = Cards::from_bits(k.0).unwrap().len();
                    last.is_none() || oracle_beats(k, n, &table_key, table_n)
                })
                .copied()
                .collect();
            if got != expected {
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
    assert!(total > hands);
}

/// The oracle's full-deck leads equal the pinned golden counts of `name` (which the generator
/// produced): distinct card sets and moves of every kind.
fn full_deck_check(name: &str, rules: &Rules) {
    let pinned = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/golden_counts.txt"
    ))
    .unwrap();
    let readings = all_readings(rules);
    let leads: Vec<(u64, Kind)> = if rules.laizi.is_empty() {
        readings
            .iter()
            .map(|r| (Cards::from_counts(&r.counts).bits(), r.kind))
            .collect()
    } else {
        oracle_leads(Cards::FULL_DECK, &readings, rules)
            .into_iter()
            .map(|k| (k.0, k.1))
            .collect()
    };
    let mut sets: BTreeMap<Kind, BTreeSet<u64>> = BTreeMap::new();
    let mut moves: BTreeMap<Kind, usize> = BTreeMap::new();
    for &(bits, kind) in &leads {
        sets.entry(kind).or_default().insert(bits);
        *moves.entry(kind).or_default() += 1;
    }
    let all_sets: BTreeSet<u64> = leads.iter().map(|k| k.0).collect();
    let mut checked = 0;
    for line in pinned
        .lines()
        .filter(|l| l.starts_with(&format!("{name} ")))
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let want: (usize, usize) = (f[2].parse().unwrap(), f[3].parse().unwrap());
        let got = if f[1] == "total" {
            (all_sets.len(), leads.len())
        } else {
            let kind = kind_named(f[1]);
            let n_sets = sets.get(&kind).map_or(0, |s| s.len());
            (n_sets, moves.get(&kind).copied().unwrap_or(0))
        };
        assert_eq!(got, want, "{line}");
        checked += 1;
    }
    assert_eq!(
        checked,
        sets.len() + 1,
        "{name}: the oracle's kinds and the pinned lines differ"
    );
}

/// The golden full-deck counts, produced by the generator, checked against the oracle: the
/// profiles without wild cards, and laizi with 9 wild.
#[test]
fn full_deck_counts_match_the_oracle() {
    for profile in [
        Profile::Classic,
        Profile::Rlcard,
        Profile::Douzero,
        Profile::Botzone,
    ] {
        full_deck_check(&profile.to_string(), &Rules::profile(profile));
    }
    full_deck_check(
        "laizi-9",
        &Rules::laizi().with_laizi(&[Rank::Nine]).unwrap(),
    );
}

/// Tiandi with 7 and 9 wild (5.7 million moves, about 1 GB): run with
/// `cargo test -p ddz-core --test wild_oracle -- --ignored` (result in BENCHMARKS.md).
#[test]
#[ignore]
fn full_deck_counts_match_the_oracle_tiandi() {
    let rules = Rules::tiandi()
        .with_laizi(&[Rank::Seven, Rank::Nine])
        .unwrap();
    full_deck_check("tiandi-7,9", &rules);
}

/// The oracle's kind for a name of the golden-counts file (RULES.md's names).
fn kind_named(name: &str) -> Kind {
    match name {
        "single" => Kind::Single,
        "pair" => Kind::Pair,
        "trio" => Kind::Trio,
        "trio_single" => Kind::TrioSingle,
        "trio_pair" => Kind::TrioPair,
        "straight" => Kind::Straight,
        "pair_chain" => Kind::PairChain,
        "airplane" => Kind::Airplane,
        "airplane_singles" => Kind::AirplaneSingles,
        "airplane_pairs" => Kind::AirplanePairs,
        "four_two_singles" => Kind::FourTwoSingles,
        "four_two_pairs" => Kind::FourTwoPairs,
        "bomb" => Kind::Bomb,
        "rocket" => Kind::Rocket,
        "space_shuttle" => Kind::SpaceShuttle,
        "space_shuttle_singles" => Kind::SpaceShuttleSingles,
        "space_shuttle_pairs" => Kind::SpaceShuttlePairs,
        other => panic!("unknown kind {other}"),
    }
}

/// Hands per profile in the default run; the full run (ignored) checks `HANDS_FULL`, the same
/// hands first.
const HANDS: usize = 2_000;
/// Hands per profile in the full run.
const HANDS_FULL: usize = 5_000;

#[test]
fn laizi_matches_oracle() {
    check(Rules::laizi(), HANDS, 12, 4, 21);
}

#[test]
fn tiandi_matches_oracle() {
    check(Rules::tiandi(), HANDS, 12, 8, 22);
}

/// The full run of the two tests above, then larger hands: run with
/// `cargo test -p ddz-core --test wild_oracle -- --ignored` (result in BENCHMARKS.md).
#[test]
#[ignore]
fn laizi_and_tiandi_match_oracle_full_and_on_large_hands() {
    check(Rules::laizi(), HANDS_FULL, 12, 4, 21);
    check(Rules::tiandi(), HANDS_FULL, 12, 8, 22);
    check(Rules::laizi(), 2_000, 20, 4, 23);
    check(Rules::tiandi(), 1_000, 20, 8, 24);
}
