//! The generator and classifier against a brute-force oracle: every sub-multiset of the hand,
//! classified by the independent definitions in `common`, filtered by beating.

mod common;

use std::collections::BTreeSet;

use common::{Reading, oracle_beats, oracle_kept_readings, random_hand, rng, sub_multisets};
use ddz_core::{
    Cards, Kind, Move, Profile, Rules, classify, count_legal_moves, is_legal, legal_moves,
};
use rand::RngExt;

/// Random hands per profile; each is checked leading and following one table move.
const HANDS_PER_PROFILE: usize = 10_000;

type Key = (u64, Reading);

fn key(m: &Move) -> Key {
    let r = Reading {
        kind: m.kind(),
        main: m.main() as usize,
        len: m.length() as usize,
    };
    (m.cards().bits(), r)
}

/// Every sub-multiset of `hand` with the readings the profile keeps.
fn oracle_readings_of_hand(hand: Cards, rules: &Rules) -> Vec<(Cards, Vec<Reading>)> {
    sub_multisets(hand)
        .into_iter()
        .map(|sub| (sub, oracle_kept_readings(sub, rules)))
        .collect()
}

/// Every move as the oracle sees it, leading (`last` None) or following.
fn oracle_moves(
    subs: &[(Cards, Vec<Reading>)],
    last: Option<&Move>,
    rules: &Rules,
) -> BTreeSet<Key> {
    let mut out = BTreeSet::new();
    for (sub, readings) in subs {
        for &r in readings {
            let keep = match last {
                None => true,
                Some(l) => {
                    let lr = Reading {
                        kind: l.kind(),
                        main: l.main() as usize,
                        len: l.length() as usize,
                    };
                    oracle_beats(r, *sub, lr, l.cards(), rules)
                }
            };
            if keep {
                out.insert((sub.bits(), r));
            }
        }
    }
    if last.is_some() {
        out.insert((
            0,
            Reading {
                kind: Kind::Pass,
                main: 0,
                len: 0,
            },
        ));
    }
    out
}

/// A random table move: a random lead of a random 20-card hand, its kind chosen uniformly
/// among the kinds that hand can lead so rare kinds appear often.
fn random_table_move(rng: &mut rand_chacha::ChaCha8Rng, rules: &Rules) -> Move {
    let other = random_hand(rng, 20);
    let leads = legal_moves(other, None, rules);
    let kinds: Vec<Kind> = leads
        .iter()
        .map(|m| m.kind())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let kind = kinds[rng.random_range(0..kinds.len())];
    let of_kind: Vec<&Move> = leads.iter().filter(|m| m.kind() == kind).collect();
    *of_kind[rng.random_range(0..of_kind.len())]
}

fn check_profile(profile: Profile, seed: u64) {
    let rules = Rules::profile(profile);
    let mut rng = rng(seed);
    let mut total_moves = 0usize;
    for i in 0..HANDS_PER_PROFILE {
        let n = rng.random_range(1..=20);
        let hand = random_hand(&mut rng, n);
        let table = random_table_move(&mut rng, &rules);
        let subs = oracle_readings_of_hand(hand, &rules);
        for last in [None, Some(&table)] {
            let generated = legal_moves(hand, last, &rules);
            let keys: Vec<Key> = generated.iter().map(key).collect();
            let set: BTreeSet<Key> = keys.iter().cloned().collect();
            assert_eq!(
                set.len(),
                keys.len(),
                "{profile} hand {i} {hand}: duplicate moves"
            );
            let expected = oracle_moves(&subs, last, &rules);
            if set != expected {
                let missing: Vec<_> = expected.difference(&set).take(5).collect();
                let extra: Vec<_> = set.difference(&expected).take(5).collect();
                panic!(
                    "{profile} hand {i} {hand} last {last:?}: missing {missing:?} extra {extra:?}"
                );
            }
            assert_eq!(count_legal_moves(hand, last, &rules), generated.len());
            for m in &generated {
                assert!(
                    is_legal(hand, last, m, &rules),
                    "{profile} {hand}: {m} not legal"
                );
            }
            total_moves += generated.len();
        }
    }
    assert!(
        total_moves > HANDS_PER_PROFILE,
        "{profile}: suspiciously few moves"
    );
}

#[test]
fn classic_matches_oracle() {
    check_profile(Profile::Classic, 1);
}

#[test]
fn rlcard_matches_oracle() {
    check_profile(Profile::Rlcard, 2);
}

#[test]
fn botzone_matches_oracle() {
    check_profile(Profile::Botzone, 3);
}

#[test]
fn douzero_matches_oracle() {
    check_profile(Profile::Douzero, 4);
}

/// Every sub-multiset's classification equals the oracle's readings.
#[test]
fn classify_matches_oracle_on_all_subsets() {
    for profile in [
        Profile::Classic,
        Profile::Rlcard,
        Profile::Botzone,
        Profile::Douzero,
    ] {
        let rules = Rules::profile(profile);
        let mut rng = rng(10 + profile as u64);
        for _ in 0..50 {
            let hand = random_hand(&mut rng, 20);
            for sub in sub_multisets(hand) {
                let got: Vec<Reading> = classify(sub, &rules)
                    .iter()
                    .map(|m| Reading {
                        kind: m.kind(),
                        main: m.main() as usize,
                        len: m.length() as usize,
                    })
                    .collect();
                let mut got_sorted = got.clone();
                got_sorted.sort();
                assert_eq!(
                    got_sorted,
                    oracle_kept_readings(sub, &rules),
                    "{profile} {sub}"
                );
            }
        }
    }
}

/// `is_legal` rejects moves that are not in the generated list: moves of other hands.
#[test]
fn is_legal_rejects_what_generation_omits() {
    let rules = Rules::classic();
    let mut rng = rng(99);
    let mut rejected = 0;
    for _ in 0..2_000 {
        let hand = random_hand(&mut rng, 17);
        let table = random_table_move(&mut rng, &rules);
        let legal: BTreeSet<Key> = legal_moves(hand, Some(&table), &rules)
            .iter()
            .map(key)
            .collect();
        let other = random_hand(&mut rng, 20);
        for m in legal_moves(other, None, &rules) {
            let expect = legal.contains(&key(&m));
            assert_eq!(
                is_legal(hand, Some(&table), &m, &rules),
                expect,
                "{hand} vs {table}: {m}"
            );
            rejected += usize::from(!expect);
        }
    }
    assert!(rejected > 0);
}
