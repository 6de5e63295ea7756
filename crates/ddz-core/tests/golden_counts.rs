//! Full-deck golden counts: the distinct card sets that form a legal combination and the
//! distinct moves (readings), per kind and profile, pinned in `tests/data/golden_counts.txt`.
//!
//! The `rlcard` line is RLCard's published action space (27,471 combinations in 37 sub-types,
//! RULES.md section 6); its per-length chain counts are checked too. The other profiles' counts
//! were produced by this generator and cross-checked by hand for the simple kinds (see the data
//! file's comments); the oracle tests check the generator itself.

use std::collections::{BTreeMap, BTreeSet};

use ddz_core::{Cards, Kind, Profile, Rank, Rules, legal_moves};

/// Kind name -> (card sets, moves) of the rules' full deck (`Rules::deck`: 54 cards, 46 for
/// `two`, 108 for `four`).
fn full_deck_counts(rules: &Rules) -> BTreeMap<String, (usize, usize)> {
    let mut sets: BTreeMap<String, BTreeSet<Cards>> = BTreeMap::new();
    let mut moves: BTreeMap<String, usize> = BTreeMap::new();
    let mut all_sets = BTreeSet::new();
    for m in legal_moves(rules.deck(), None, rules) {
        let name = m.kind().name().to_string();
        sets.entry(name.clone()).or_default().insert(m.cards());
        *moves.entry(name).or_default() += 1;
        all_sets.insert(m.cards());
    }
    let mut out: BTreeMap<String, (usize, usize)> = sets
        .into_iter()
        .map(|(k, s)| {
            let n = moves[&k];
            (k, (s.len(), n))
        })
        .collect();
    out.insert(
        "total".into(),
        (all_sets.len(), out.values().map(|v| v.1).sum()),
    );
    out
}

fn pinned() -> BTreeMap<(String, String), (usize, usize)> {
    let text = include_str!("data/golden_counts.txt");
    let mut out = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            f.len(),
            4,
            "golden_counts.txt line {}: want profile kind sets moves",
            i + 1
        );
        let n = |s: &str| {
            s.parse::<usize>()
                .unwrap_or_else(|_| panic!("line {}: {s}", i + 1))
        };
        out.insert((f[0].to_string(), f[1].to_string()), (n(f[2]), n(f[3])));
    }
    out
}

#[test]
fn full_deck_counts_match_pinned_values() {
    let pinned = pinned();
    let mut report = String::new();
    let mut ok = true;
    let wild = |rules: Rules, ranks: &[Rank]| rules.with_laizi(ranks).unwrap();
    let rule_sets = [
        ("classic", Rules::profile(Profile::Classic)),
        ("rlcard", Rules::profile(Profile::Rlcard)),
        ("douzero", Rules::profile(Profile::Douzero)),
        ("botzone", Rules::profile(Profile::Botzone)),
        ("laizi-9", wild(Rules::laizi(), &[Rank::Nine])),
        (
            "tiandi-7,9",
            wild(Rules::tiandi(), &[Rank::Seven, Rank::Nine]),
        ),
        ("two", Rules::profile(Profile::Two)),
        ("four", Rules::profile(Profile::Four)),
    ];
    for (name, rules) in rule_sets {
        let counts = full_deck_counts(&rules);
        for (kind, (sets, moves)) in &counts {
            report.push_str(&format!("{name} {kind} {sets} {moves}\n"));
            if pinned.get(&(name.to_string(), kind.clone())) != Some(&(*sets, *moves)) {
                ok = false;
            }
        }
        let pinned_kinds = pinned.keys().filter(|(p, _)| p == name).count();
        ok &= pinned_kinds == counts.len();
    }
    assert!(
        ok,
        "full-deck counts differ from tests/data/golden_counts.txt; computed:\n{report}"
    );
}

/// RLCard's per-type counts (RULES.md section 6), chains split by length.
#[test]
fn rlcard_action_space_per_sub_type() {
    let rules = Rules::rlcard();
    let mut by_type: BTreeMap<(Kind, u8), usize> = BTreeMap::new();
    for m in legal_moves(Cards::FULL_DECK, None, &rules) {
        *by_type.entry((m.kind(), m.length())).or_default() += 1;
    }
    let total_of = |k: Kind| {
        by_type
            .iter()
            .filter(|((kk, _), _)| *kk == k)
            .map(|(_, n)| n)
            .sum::<usize>()
    };
    let of_len = |k: Kind, l: u8| by_type.get(&(k, l)).copied().unwrap_or(0);
    assert_eq!(by_type.values().sum::<usize>(), 27_471);
    assert_eq!(by_type.len(), 37, "RLCard has 37 sub-types");
    assert_eq!(total_of(Kind::Single), 15);
    assert_eq!(total_of(Kind::Pair), 13);
    assert_eq!(total_of(Kind::Trio), 13);
    assert_eq!(total_of(Kind::Bomb), 13);
    assert_eq!(total_of(Kind::Rocket), 1);
    assert_eq!(total_of(Kind::TrioSingle), 182);
    assert_eq!(total_of(Kind::TrioPair), 156);
    assert_eq!(total_of(Kind::FourTwoSingles), 1_326);
    assert_eq!(total_of(Kind::FourTwoPairs), 858);
    assert_eq!(total_of(Kind::Straight), 36);
    assert_eq!(total_of(Kind::PairChain), 52);
    assert_eq!(total_of(Kind::Airplane), 45);
    let singles: Vec<usize> = (2..=5).map(|l| of_len(Kind::AirplaneSingles, l)).collect();
    assert_eq!(singles, [968, 3_282, 7_184, 10_388]);
    let pairs: Vec<usize> = (2..=4).map(|l| of_len(Kind::AirplanePairs, l)).collect();
    assert_eq!(pairs, [605, 1_200, 1_134]);
}

/// `four`'s full deck by length: bombs of every size 4..8, and the chains as long as the
/// landlord's 33 cards allow (docs/variants.md).
#[test]
fn four_per_length() {
    let rules = Rules::four();
    let deck = rules.deck();
    assert_eq!(deck.len(), 108);
    let mut by: BTreeMap<(Kind, u32), usize> = BTreeMap::new();
    for m in legal_moves(deck, None, &rules) {
        // Bombs by card count, everything else by body length.
        let len = if m.kind() == Kind::Bomb {
            m.card_count()
        } else {
            u32::from(m.length())
        };
        *by.entry((m.kind(), len)).or_default() += 1;
    }
    let lens = |k: Kind| -> Vec<usize> {
        by.iter()
            .filter(|((kk, _), _)| *kk == k)
            .map(|(_, n)| *n)
            .collect()
    };
    let first = |k: Kind| by.keys().find(|(kk, _)| *kk == k).map(|(_, l)| *l);
    let last = |k: Kind| by.keys().rev().find(|(kk, _)| *kk == k).map(|(_, l)| *l);
    assert_eq!(lens(Kind::Bomb), [13; 5]);
    assert_eq!((first(Kind::Bomb), last(Kind::Bomb)), (Some(4), Some(8)));
    assert_eq!(lens(Kind::AirplanePairs), [847, 2_100, 2_646, 1_568, 343]);
    assert_eq!(last(Kind::Straight), Some(12));
    assert_eq!(lens(Kind::PairChain), (1..=10).rev().collect::<Vec<_>>());
    assert_eq!(last(Kind::PairChain), Some(12));
    assert_eq!(lens(Kind::Airplane), (2..=11).rev().collect::<Vec<_>>());
    assert_eq!(last(Kind::Airplane), Some(11));
    for k in [Kind::TrioSingle, Kind::AirplaneSingles, Kind::Rocket] {
        assert!(lens(k).is_empty(), "{k}");
    }
}
