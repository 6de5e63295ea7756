//! The best split against an independent exhaustive search, the shape of its result, known
//! hands and the vectors of `tests/data/best_split.txt`.

use ddz_bots::analysis::move_value;
use ddz_bots::best_split::{BestSplit, SplitSolver, best_split};
use ddz_core::{BombClass, Cards, Kind, Move, Rank, Rules, classify, is_legal};
use ddz_game::{below, rng, shuffle};
use rand_chacha::ChaCha8Rng;

fn cards(s: &str) -> Cards {
    s.parse().unwrap()
}

/// The profiles checked, wild ones with their wild ranks.
fn profiles() -> Vec<(&'static str, Rules)> {
    vec![
        ("classic", Rules::classic()),
        ("douzero", Rules::douzero()),
        ("rlcard", Rules::rlcard()),
        ("botzone", Rules::botzone()),
        ("laizi:9", Rules::laizi().with_laizi(&[Rank::Nine]).unwrap()),
        (
            "tiandi:7,Q",
            Rules::tiandi()
                .with_laizi(&[Rank::Seven, Rank::Queen])
                .unwrap(),
        ),
    ]
}

/// Rules from a data-file name: a profile, then `:` and the wild ranks (comma-separated).
fn rules_named(name: &str) -> Rules {
    let (profile, wild) = name.split_once(':').unwrap_or((name, ""));
    let rules = Rules::profile(profile.parse().unwrap());
    let ranks: Vec<Rank> = wild
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| Rank::from_letter(s.chars().next().unwrap()).unwrap())
        .collect();
    rules.with_laizi(&ranks).unwrap()
}

/// A random hand of `n` cards: every other hand dealt from the whole deck, the others from
/// the cards of a few neighbouring ranks (plus the wild ranks and the jokers now and then),
/// so that trios, fours, chains, kickers and wild cards are common.
fn random_hand(rng: &mut ChaCha8Rng, n: usize, rules: &Rules, crowded: bool) -> Cards {
    let mut deck: Vec<Rank> = if crowded {
        let low = below(rng, 11) as usize;
        let width = 3 + below(rng, 3) as usize;
        let mut ranks: Vec<Rank> = (low..(low + width).min(13)).map(|i| Rank::ALL[i]).collect();
        ranks.extend(rules.laizi.iter());
        if below(rng, 3) == 0 {
            ranks.extend([Rank::Two, Rank::SmallJoker, Rank::BigJoker]);
        }
        ranks.sort();
        ranks.dedup();
        ranks
            .iter()
            .flat_map(|&r| std::iter::repeat_n(r, r.deck_count() as usize))
            .collect()
    } else {
        Cards::FULL_DECK.iter().collect()
    };
    shuffle(rng, &mut deck);
    deck.iter().take(n).copied().collect()
}

/// Every non-empty sub-multiset of `hand`.
fn parts(hand: Cards) -> Vec<Cards> {
    let mut out = vec![Cards::EMPTY];
    for rank in hand.ranks() {
        let before = out.len();
        for k in 1..=hand.count(rank) {
            for i in 0..before {
                out.push(out[i].add(rank, k));
            }
        }
    }
    out.retain(|c| !c.is_empty());
    out
}

/// The documented tie order of plays: kind, length, main rank, cards, reading, bomb class.
type Key = (Kind, u8, Rank, u64, u64, Option<BombClass>);

fn key(m: &Move) -> Key {
    (
        m.kind(),
        m.length(),
        m.main(),
        m.cards().bits(),
        m.reading().bits(),
        m.class(),
    )
}

/// The oracle's answer: plays, value and the groups of the best split.
type Answer = (usize, i32, Vec<Move>);

/// The oracle: every partition of `hand` into sets of cards that have a reading under
/// `rules` (by `classify`), each read as its best-valued reading (then the first in the tie
/// order); the fewest blocks, then the highest value, then the smallest listing in the tie
/// order. Blocks are taken in a fixed order (a partition is a multiset of blocks), so each
/// partition is met once; no memo, no choice of a card to cover first.
fn oracle(hand: Cards, rules: &Rules) -> Answer {
    let mut blocks: Vec<(Cards, i32, Move)> = parts(hand)
        .into_iter()
        .filter_map(|b| {
            let best = classify(b, rules)
                .into_iter()
                .min_by_key(|m| (-move_value(m), key(m)))?;
            Some((b, move_value(&best), best))
        })
        .collect();
    blocks.sort_by_key(|b| std::cmp::Reverse(b.0));
    let mut best: Option<(usize, i32, Vec<Key>, Vec<Move>)> = None;
    let mut chosen = Vec::new();
    partitions(hand, &blocks, &mut chosen, &mut |plays: &[Move]| {
        let value: i32 = plays.iter().map(move_value).sum();
        let listing = listing(hand, plays);
        let keys: Vec<Key> = listing.iter().map(key).collect();
        let better = best
            .as_ref()
            .is_none_or(|(p, v, k, _)| (plays.len(), -value, &keys).cmp(&(*p, -*v, k)).is_lt());
        if better {
            best = Some((plays.len(), value, keys, listing));
        }
    });
    let (plays, value, _, groups) = best.expect("single cards always split a hand");
    (plays, value, groups)
}

/// Calls `f` with every multiset of `blocks` (taken from the first one on, repeats allowed)
/// whose cards add up to `rest`, each with the blocks already `chosen`.
fn partitions(
    rest: Cards,
    blocks: &[(Cards, i32, Move)],
    chosen: &mut Vec<Move>,
    f: &mut impl FnMut(&[Move]),
) {
    if rest.is_empty() {
        f(chosen);
        return;
    }
    for (i, &(b, _, m)) in blocks.iter().enumerate() {
        if rest.contains(b) {
            chosen.push(m);
            partitions(rest.minus(b), &blocks[i..], chosen, f);
            chosen.pop();
        }
    }
}

/// The plays of a partition of `hand` listed as documented: each next group holds the
/// lowest card left, the smallest in the tie order among those that do.
fn listing(hand: Cards, plays: &[Move]) -> Vec<Move> {
    let mut left = plays.to_vec();
    let mut rest = hand;
    let mut out = Vec::with_capacity(plays.len());
    while let Some(low) = rest.lowest() {
        let (i, _) = left
            .iter()
            .enumerate()
            .filter(|(_, m)| m.cards().count(low) > 0)
            .min_by_key(|(_, m)| key(m))
            .expect("a block holds the lowest card");
        let m = left.swap_remove(i);
        rest = rest.minus(m.cards());
        out.push(m);
    }
    out
}

/// The result is a split of `hand`: legal lead moves adding up to the hand, listed by their
/// lowest card, each worth its best reading, and the totals agree.
fn check_shape(hand: Cards, rules: &Rules, split: &BestSplit) {
    let ctx = format!("{hand} under {}", rules.profile);
    assert_eq!(split.plays, split.groups.len(), "{ctx}");
    let mut rest = hand;
    let mut value = 0;
    for m in &split.groups {
        assert!(is_legal(rest, None, m, rules), "{ctx}: {m} is not legal");
        assert_eq!(
            m.cards().lowest(),
            rest.lowest(),
            "{ctx}: {m} does not hold the lowest card of {rest}"
        );
        let best = classify(m.cards(), rules).iter().map(move_value).max();
        assert_eq!(
            Some(move_value(m)),
            best,
            "{ctx}: {m} is not its best reading"
        );
        value += move_value(m);
        rest = rest.difference(m.cards()).expect("groups overlap");
    }
    assert!(rest.is_empty(), "{ctx}: {rest} left over");
    assert_eq!(split.value, value, "{ctx}");
}

#[test]
fn equals_exhaustive_search_on_small_hands() {
    // Plays, value and the groups themselves (so the documented tie order too).
    const HANDS: usize = 3_000;
    for (p, (name, rules)) in profiles().into_iter().enumerate() {
        let mut rng = rng(0xB357 + p as u64);
        let mut solver = SplitSolver::new(&rules);
        let mut kinds = std::collections::BTreeSet::new();
        for i in 0..HANDS {
            let n = 1 + i % 10;
            let hand = random_hand(&mut rng, n, &rules, i % 2 == 1);
            let split = best_split(hand, &rules);
            assert_eq!(
                (split.plays, split.value, split.groups.clone()),
                oracle(hand, &rules),
                "{hand} under {name}"
            );
            check_shape(hand, &rules, &split);
            // A solver that has seen other hands gives the very same split.
            assert_eq!(solver.solve(hand), split, "{hand} under {name}");
            kinds.extend(split.groups.iter().map(|m| m.kind()));
        }
        // The hands exercise every kicker kind, chains and bombs, not only singles and pairs.
        let mut wanted = vec![
            Kind::TrioSingle,
            Kind::TrioPair,
            Kind::Straight,
            Kind::PairChain,
            Kind::AirplaneSingles,
            Kind::AirplanePairs,
            Kind::FourTwoSingles,
            Kind::FourTwoPairs,
            Kind::Bomb,
            Kind::Rocket,
        ];
        if rules.space_shuttles {
            wanted.push(Kind::SpaceShuttle);
        }
        for kind in wanted {
            assert!(kinds.contains(&kind), "{name}: no {kind} in any best split");
        }
    }
}

#[test]
fn full_hands_split_into_legal_moves() {
    for (p, (name, rules)) in profiles().into_iter().enumerate() {
        let mut rng = rng(0x5EED + p as u64);
        for i in 0..60 {
            let n = 10 + i % 11;
            let hand = random_hand(&mut rng, n, &rules, i % 3 == 0);
            let split = best_split(hand, &rules);
            check_shape(hand, &rules, &split);
            // The rest after the first group splits best into exactly the other groups: the
            // order is the same from a hand to its sub-hands.
            assert!(split.plays <= n);
            let mut solver = SplitSolver::new(&rules);
            let rest = hand.minus(split.groups[0].cards());
            let after = solver.solve(rest);
            assert_eq!(after.plays + 1, split.plays, "{hand} under {name}");
            assert_eq!(after.groups[..], split.groups[1..], "{hand} under {name}");
        }
    }
}

#[test]
fn known_hands() {
    let classic = Rules::classic();
    // The ddzlib README hand. Without a 10 no straight reaches J..A, and the only trio (777)
    // would take the 7 every straight of 4..9 needs: with it, 4 5 66 8 99 alone cost five
    // plays. So the low cards are a straight and three small plays (456789 + 6 + 77 + 9, or
    // 45678 + 6 + 77 + 99) and J, Q, K, AA, 22 five more: 9 plays, as ddzlib's split. Values:
    // 456789 0, 6 −4, 77 −3, 9 −1, J 1, Q 2, K 3, AA 4, 22 5 = 7 (the other split makes 6).
    let split = best_split(cards("22AAKQJ9987776654"), &classic);
    assert_eq!((split.plays, split.value), (9, 7));
    let names: Vec<String> = split.groups.iter().map(|m| m.cards().to_string()).collect();
    assert_eq!(names, ["456789", "6", "77", "9", "J", "Q", "K", "AA", "22"]);

    for one in [
        "33344456",
        "3456789TJQKA",
        "3333",
        "BR",
        "334455",
        "33344455",
        "33334455",
    ] {
        let split = best_split(cards(one), &classic);
        assert_eq!(split.plays, 1, "{one}");
        assert_eq!(split.groups[0].cards(), cards(one));
    }
    let split = best_split(cards("BR3"), &classic);
    assert_eq!(split.plays, 2);
    // The single 3 holds the lowest card, so it comes first.
    assert_eq!(split.groups[0].cards(), cards("3"));
    assert_eq!(split.groups[1].kind(), Kind::Rocket);
    assert_eq!(split.value, -7 + 20);

    // Ties on plays go to value: 3334 + 5 (−7 − 5) beats 3335 + 4 (−7 − 6).
    let split = best_split(cards("33345"), &classic);
    assert_eq!((split.plays, split.value), (2, -12));
    assert_eq!(split.groups[0].cards(), cards("3334"));

    // Empty hand.
    let split = best_split(Cards::EMPTY, &classic);
    assert_eq!((split.plays, split.value, split.groups.len()), (0, 0, 0));
}

#[test]
fn wild_cards_take_their_best_reading() {
    let laizi = Rules::laizi().with_laizi(&[Rank::Nine]).unwrap();
    // 3 4 5 6 8 + a wild 9 standing for 7: one straight.
    let split = best_split(cards("345689"), &laizi);
    assert_eq!(split.plays, 1);
    assert_eq!(split.groups[0].kind(), Kind::Straight);
    // 3339: a soft bomb of 3s (value 7) rather than 333 + 9 (−7).
    let split = best_split(cards("3339"), &laizi);
    assert_eq!((split.plays, split.value), (1, 7));
    assert_eq!(split.groups[0].kind(), Kind::Bomb);
    // Wild cards never stand for jokers.
    assert_eq!(best_split(cards("9B"), &laizi).plays, 2);
}

#[test]
fn vectors_from_data_file() {
    let data = include_str!("data/best_split.txt");
    let mut checked = 0;
    for (no, line) in data.lines().enumerate() {
        let line = line.split('#').next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [hand, rules, plays] = fields[..] else {
            panic!("line {}: expected hand, rules, plays", no + 1);
        };
        let rules = rules_named(rules);
        let hand = cards(hand);
        let split = best_split(hand, &rules);
        assert_eq!(
            split.plays,
            plays.parse::<usize>().unwrap(),
            "line {}: {hand} under {}: {:?}",
            no + 1,
            rules.profile,
            split.groups
        );
        check_shape(hand, &rules, &split);
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} vectors");
}

#[test]
fn big_hands_do_not_panic() {
    // Past 20 cards the search grows quickly, but hands of 26 to 30 cards still take
    // milliseconds.
    let classic = Rules::classic();
    let laizi = Rules::laizi().with_laizi(&[Rank::Nine]).unwrap();
    let tiandi = Rules::tiandi()
        .with_laizi(&[Rank::Seven, Rank::Queen])
        .unwrap();
    for (hand, rules) in [
        ("33334444555566667777889TJQ", &classic),
        ("3333444556677888999TJJQKKAA2BR", &laizi),
        ("334455667778899TTJQQKA2B", &tiandi),
    ] {
        let hand = cards(hand);
        let split = best_split(hand, rules);
        check_shape(hand, rules, &split);
    }
    // Not cards of one deck: no split, no panic.
    let too_many = Cards::from_counts(&[15; 15]);
    assert_eq!(best_split(too_many, &classic).plays, 0);
    assert_eq!(best_split(Cards::of(Rank::BigJoker, 2), &classic).plays, 0);
}
