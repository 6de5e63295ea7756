//! The generator and classifier against a brute-force oracle: every sub-multiset of the hand,
//! classified by the independent definitions in `common`, filtered by beating. The table move
//! is chosen among the oracle's own leads of another hand (so the oracle knows its reading
//! without asking the library), then looked up among the library's leads of that hand.

mod common;

use std::collections::BTreeSet;

use common::{
    Kind, Reading, oracle_beats, oracle_kept_readings, random_hand, reading_of, rng, sub_multisets,
};
use ddz_core::{Cards, Move, Profile, Rules, classify, count_legal_moves, is_legal, legal_moves};
use rand::RngExt;

/// Random hands per profile in the default run; each is checked leading and following one table
/// move. The full run (`*_matches_oracle_full`, ignored, one test per profile) checks 10,000 per
/// profile.
const HANDS_PER_PROFILE: usize = 2_000;

/// Random hands per profile in the full run.
const HANDS_PER_PROFILE_FULL: usize = 10_000;

/// Cards of the hand the table move is led from.
const TABLE_HAND: usize = 20;

type Key = (u64, Reading);

fn key(m: &Move) -> Key {
    (m.cards().bits(), reading_of(m))
}

/// The table as the oracle sees it: its cards and the reading the oracle chose.
type Table = (Cards, Reading);

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
    last: Option<Table>,
    rules: &Rules,
) -> BTreeSet<Key> {
    let mut out = BTreeSet::new();
    for (sub, readings) in subs {
        for &r in readings {
            let keep = match last {
                None => true,
                Some((table_cards, table_reading)) => {
                    oracle_beats(r, *sub, table_reading, table_cards, rules)
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

/// A 20-card hand the table moves are led from, with every lead the oracle and the library see
/// in it. Enumerating a hand this size is the oracle's costliest step (up to ~10^5
/// sub-multisets, many times the average hand checked), so each profile draws its table moves
/// from a pool of such hands, enumerated once.
struct TableHand {
    cards: Cards,
    oracle_leads: BTreeSet<Key>,
    library_leads: Vec<Move>,
}

/// Hands checked per table hand of the pool.
const HANDS_PER_TABLE_HAND: usize = 16;

fn table_hand_pool(rng: &mut rand_chacha::ChaCha8Rng, rules: &Rules, n: usize) -> Vec<TableHand> {
    (0..n)
        .map(|_| {
            let cards = random_hand(rng, TABLE_HAND);
            TableHand {
                cards,
                oracle_leads: oracle_moves(&oracle_readings_of_hand(cards, rules), None, rules),
                library_leads: legal_moves(cards, None, rules),
            }
        })
        .collect()
}

/// A random table move: one of the oracle's leads of a random hand of the pool, its kind chosen
/// uniformly among the kinds that hand can lead so rare kinds appear often. Returns the
/// library's move with those cards and that reading, and the oracle's view of it.
fn random_table_move(rng: &mut rand_chacha::ChaCha8Rng, pool: &[TableHand]) -> (Move, Table) {
    let other = &pool[rng.random_range(0..pool.len())];
    let kinds: Vec<Kind> = other
        .oracle_leads
        .iter()
        .map(|(_, r)| r.kind)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let kind = kinds[rng.random_range(0..kinds.len())];
    let of_kind: Vec<&Key> = other
        .oracle_leads
        .iter()
        .filter(|(_, r)| r.kind == kind)
        .collect();
    let &(bits, reading) = of_kind[rng.random_range(0..of_kind.len())];
    let cards = Cards::from_bits(bits).unwrap();
    let found = other
        .library_leads
        .iter()
        .find(|m| key(m) == (bits, reading));
    let table = found.unwrap_or_else(|| {
        panic!(
            "{}: the library cannot lead {cards} as {reading:?}",
            other.cards
        )
    });
    (*table, (cards, reading))
}

fn check_profile(profile: Profile, seed: u64, hands: usize) {
    let rules = Rules::profile(profile);
    let mut rng = rng(seed);
    let pool = table_hand_pool(&mut rng, &rules, hands.div_ceil(HANDS_PER_TABLE_HAND));
    let mut total_moves = 0usize;
    for i in 0..hands {
        let n = rng.random_range(1..=20);
        let hand = random_hand(&mut rng, n);
        let (table, oracle_table) = random_table_move(&mut rng, &pool);
        let subs = oracle_readings_of_hand(hand, &rules);
        for (last, oracle_last) in [(None, None), (Some(&table), Some(oracle_table))] {
            let generated = legal_moves(hand, last, &rules);
            let keys: Vec<Key> = generated.iter().map(key).collect();
            let set: BTreeSet<Key> = keys.iter().cloned().collect();
            assert_eq!(
                set.len(),
                keys.len(),
                "{profile} hand {i} {hand}: duplicate moves"
            );
            let expected = oracle_moves(&subs, oracle_last, &rules);
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
    assert!(total_moves > hands, "{profile}: suspiciously few moves");
}

#[test]
fn classic_matches_oracle() {
    check_profile(Profile::Classic, 1, HANDS_PER_PROFILE);
}

#[test]
fn rlcard_matches_oracle() {
    check_profile(Profile::Rlcard, 2, HANDS_PER_PROFILE);
}

#[test]
fn botzone_matches_oracle() {
    check_profile(Profile::Botzone, 3, HANDS_PER_PROFILE);
}

#[test]
fn douzero_matches_oracle() {
    check_profile(Profile::Douzero, 4, HANDS_PER_PROFILE);
}

// The full run: 10,000 hands per profile (the default tests' hands first), one test per
// profile so that the test threads share them out. Run with
// `cargo test -p ddz-core --test oracle -- --ignored`; result in the README.

#[test]
#[ignore]
fn classic_matches_oracle_full() {
    check_profile(Profile::Classic, 1, HANDS_PER_PROFILE_FULL);
}

#[test]
#[ignore]
fn rlcard_matches_oracle_full() {
    check_profile(Profile::Rlcard, 2, HANDS_PER_PROFILE_FULL);
}

#[test]
#[ignore]
fn botzone_matches_oracle_full() {
    check_profile(Profile::Botzone, 3, HANDS_PER_PROFILE_FULL);
}

#[test]
#[ignore]
fn douzero_matches_oracle_full() {
    check_profile(Profile::Douzero, 4, HANDS_PER_PROFILE_FULL);
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
                let got: Vec<Reading> = classify(sub, &rules).iter().map(reading_of).collect();
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
        // Only the library is compared with itself here: any lead of another hand will do.
        let leads = legal_moves(random_hand(&mut rng, 20), None, &rules);
        let table = leads[rng.random_range(0..leads.len())];
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
