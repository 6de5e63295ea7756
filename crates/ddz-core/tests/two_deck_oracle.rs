//! The two-deck combination rules (docs/variants.md, profile `four`) and the `two` profile's
//! 46-card deck against a brute-force oracle written apart from the library: its kinds, its
//! chain lengths, its kicker rules and its comparison are restated here from docs/variants.md
//! and RULES.md section 3, on nothing of the library's but the input types (`Cards`, `Rank`,
//! the `Rules` fields). Library moves are translated into the oracle's terms by kind name, only
//! to compare them.
//!
//! For each random hand: every sub-multiset is classified by the oracle and by `classify`, the
//! oracle's leads are compared with `legal_moves(hand, None)`, and for a few table plays (the
//! oracle's own leads of other hands) its "beats" sets with the generator's follow moves.

mod common;

use std::collections::BTreeSet;

use common::{rng, sub_multisets};
use ddz_core::{
    Cards, Move, Profile, Rank, Readings, Rules, Wild, classify, is_legal, legal_moves,
};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// The oracle's kinds, in the order of the combination table (the generator's order too).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Kind {
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
    FourJokers,
}

impl Kind {
    /// The library's kind, by its notation name.
    fn named(name: &str) -> Kind {
        match name {
            "pass" => Kind::Pass,
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
            "four_jokers" => Kind::FourJokers,
            other => panic!("the library made a {other}, which these rules do not have"),
        }
    }
}

/// A reading: kind, main rank index (the body's top; 14 for the rocket and the four jokers),
/// body length (1 for non-chains).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Reading {
    kind: Kind,
    main: usize,
    len: usize,
}

const PASS: Reading = Reading {
    kind: Kind::Pass,
    main: 0,
    len: 0,
};

/// Rank indices: 3 is 0, A is 11, 2 is 12, the jokers 13 (B) and 14 (R).
const ACE: usize = 11;
const B: usize = 13;
const R: usize = 14;

/// The table of combinations the oracle applies, restated from docs/variants.md (two decks)
/// or RULES.md (one deck), with the kicker choices of the rule fields.
struct Table {
    two_decks: bool,
    trio_single: bool,
    four_with_two: bool,
    pair_kickers: bool,
    singles_repeat: bool,
    four_singles_pair: bool,
    bomb_in_kickers: bool,
    rocket_as_kickers: bool,
    quad_as_two_pairs: bool,
    /// Most ranks of a straight, pair chain, airplane, airplane + singles, airplane + pairs.
    max_straight: usize,
    max_pair_chain: usize,
    max_airplane: usize,
    max_airplane_singles: usize,
    max_airplane_pairs: usize,
    max_bomb: usize,
}

impl Table {
    fn of(rules: &Rules) -> Table {
        // What this oracle does not restate: it checks the rules do not need it.
        assert!(rules.airplane_singles_longer_run && !rules.space_shuttles);
        assert_eq!(rules.readings, Readings::All);
        assert_eq!(rules.wild, Wild::None);
        let two_decks = rules.decks == 2;
        // docs/variants.md: "straights up to 12, pair chains up to 12, airplanes up to 11
        // trios, airplanes + pairs up to 6" (33 cards); with singles 8 (32 cards). One deck:
        // 20 cards.
        let (max_straight, max_pair_chain, max_airplane, max_airplane_singles, max_airplane_pairs) =
            if two_decks {
                (12, 12, 11, 8, 6)
            } else {
                (12, 10, 6, 5, 4)
            };
        Table {
            two_decks,
            trio_single: rules.trio_single_kickers,
            four_with_two: rules.four_with_two,
            pair_kickers: rules.pair_kickers,
            singles_repeat: rules.single_kickers_may_repeat,
            four_singles_pair: rules.four_two_singles_may_pair,
            bomb_in_kickers: rules.bomb_in_kickers,
            rocket_as_kickers: rules.rocket_as_kickers,
            quad_as_two_pairs: rules.quad_as_two_pairs,
            max_straight,
            max_pair_chain,
            max_airplane,
            max_airplane_singles,
            max_airplane_pairs,
            max_bomb: if two_decks { 8 } else { 4 },
        }
    }

    /// Single kickers `kick` (counts) of a body of rank set `body`.
    fn singles_ok(&self, kick: &[u8; 15], body: &[usize], four: bool) -> bool {
        if body.iter().any(|&b| kick[b] > 0) {
            return false;
        }
        // Both jokers together: the rocket with one deck; allowed only by the rule field.
        if !self.rocket_as_kickers && kick[B] > 0 && kick[R] > 0 {
            return false;
        }
        // The four jokers are never kickers.
        if kick[B] >= 2 && kick[R] >= 2 {
            return false;
        }
        let repeat = if four {
            self.four_singles_pair
        } else {
            self.singles_repeat
        };
        let most = match (repeat, self.bomb_in_kickers) {
            (false, _) => 1,
            (true, false) => 3,
            (true, true) => 4,
        };
        kick.iter().all(|&k| k <= most)
    }

    /// Pair kickers: the number of pairs, if every kicker rank makes real pairs.
    fn pairs_ok(&self, kick: &[u8; 15], body: &[usize]) -> Option<usize> {
        if kick[B] >= 2 && kick[R] >= 2 {
            return None;
        }
        let mut pairs = 0;
        for (i, &k) in kick.iter().enumerate() {
            if k == 0 {
                continue;
            }
            if body.contains(&i) || (i >= B && !self.two_decks) || k % 2 == 1 {
                return None;
            }
            if k > 2 && !self.quad_as_two_pairs {
                return None;
            }
            pairs += k as usize / 2;
        }
        Some(pairs)
    }

    /// Every reading of the multiset `c`.
    fn readings(&self, c: &[u8; 15]) -> Vec<Reading> {
        let n: usize = c.iter().map(|&k| k as usize).sum();
        let ranks: Vec<usize> = (0..15).filter(|&i| c[i] > 0).collect();
        let mut out = Vec::new();
        if n == 0 {
            return out;
        }
        let mut push = |kind, main, len| out.push(Reading { kind, main, len });
        let one_rank = ranks.len() == 1;
        let top = *ranks.last().unwrap_or(&0);
        let run = ranks.windows(2).all(|w| w[1] == w[0] + 1) && top <= ACE;
        let all = |k: u8| ranks.iter().all(|&r| c[r] == k);
        if n == 1 {
            push(Kind::Single, top, 1);
        }
        if n == 2 && one_rank && (top < B || self.two_decks) {
            push(Kind::Pair, top, 1);
        }
        if !self.two_decks && n == 2 && c[B] == 1 && c[R] == 1 {
            push(Kind::Rocket, R, 1);
        }
        if self.two_decks && n == 4 && c[B] == 2 && c[R] == 2 {
            push(Kind::FourJokers, R, 1);
        }
        if n == 3 && one_rank && top < B {
            push(Kind::Trio, top, 1);
        }
        if one_rank && top < B && (4..=self.max_bomb).contains(&n) {
            push(Kind::Bomb, top, 1);
        }
        let l = ranks.len();
        if run && all(1) && (5..=self.max_straight).contains(&l) {
            push(Kind::Straight, top, l);
        }
        if run && all(2) && (3..=self.max_pair_chain).contains(&l) {
            push(Kind::PairChain, top, l);
        }
        if run && all(3) && (2..=self.max_airplane).contains(&l) {
            push(Kind::Airplane, top, l);
        }
        // Bodies with kickers: each body of `len` ranks of `per` cards (3..2; chains 3..A).
        let mut with_body = |kind: Kind, per: u8, len: usize| {
            let tops = if len > 1 { len - 1..=ACE } else { 0..=12 };
            for t in tops {
                let body: Vec<usize> = (t + 1 - len..=t).collect();
                if body.iter().any(|&b| c[b] < per) {
                    continue;
                }
                let mut kick = *c;
                for &b in &body {
                    kick[b] -= per;
                }
                let ok = match kind {
                    Kind::TrioSingle | Kind::AirplaneSingles => {
                        n == 4 * len && self.singles_ok(&kick, &body, false)
                    }
                    Kind::FourTwoSingles => n == 6 && self.singles_ok(&kick, &body, true),
                    Kind::TrioPair | Kind::AirplanePairs => {
                        n == 5 * len && self.pairs_ok(&kick, &body) == Some(len)
                    }
                    Kind::FourTwoPairs => n == 8 && self.pairs_ok(&kick, &body) == Some(2),
                    _ => unreachable!(),
                };
                if ok {
                    out.push(Reading { kind, main: t, len });
                }
            }
        };
        if self.trio_single {
            if n == 4 {
                with_body(Kind::TrioSingle, 3, 1);
            }
            if n.is_multiple_of(4) && (2..=self.max_airplane_singles).contains(&(n / 4)) {
                with_body(Kind::AirplaneSingles, 3, n / 4);
            }
        }
        if self.pair_kickers {
            if n == 5 {
                with_body(Kind::TrioPair, 3, 1);
            }
            if n.is_multiple_of(5) && (2..=self.max_airplane_pairs).contains(&(n / 5)) {
                with_body(Kind::AirplanePairs, 3, n / 5);
            }
        }
        if self.four_with_two {
            with_body(Kind::FourTwoSingles, 4, 1);
            if self.pair_kickers {
                with_body(Kind::FourTwoPairs, 4, 1);
            }
        }
        out.sort();
        out
    }
}

/// Does reading `a` of `a_n` cards beat reading `b` of `b_n` cards? The four jokers and the
/// rocket beat everything else; bombs beat every other play, a longer bomb a shorter one,
/// bombs of one length by rank; otherwise the same kind, length and card count, a higher main.
fn beats(a: Reading, a_n: u32, b: Reading, b_n: u32) -> bool {
    let top = |k| k == Kind::FourJokers || k == Kind::Rocket;
    match (a.kind, b.kind) {
        (Kind::Pass, _) | (_, Kind::Pass) => false,
        (ka, kb) if top(ka) => !top(kb),
        (_, kb) if top(kb) => false,
        (Kind::Bomb, Kind::Bomb) => (a_n, a.main) > (b_n, b.main),
        (Kind::Bomb, _) => true,
        (_, Kind::Bomb) => false,
        (ka, kb) => ka == kb && a.len == b.len && a_n == b_n && a.main > b.main,
    }
}

type Key = (u64, Reading);

fn key(m: &Move) -> Key {
    let reading = Reading {
        kind: Kind::named(m.kind().name()),
        main: m.main() as usize,
        len: m.length() as usize,
    };
    if m.is_pass() {
        (0, PASS)
    } else {
        (m.cards().bits(), reading)
    }
}

/// The order the generator keeps (crate docs, "Move order"), up to kickers: kind, then length
/// (a bomb's size), then main.
fn order(k: &Key) -> (Kind, usize, usize) {
    let (bits, r) = *k;
    let size = if r.kind == Kind::Bomb {
        Cards::from_bits(bits).map_or(0, |c| c.len() as usize)
    } else {
        r.len
    };
    (r.kind, size, r.main)
}

/// The oracle's deck: 8 of each rank 3..2 and 2 of each joker with two decks; 4 and 1 with one,
/// without the ranks `two` takes out (3 and 4).
fn oracle_deck(two_decks: bool, without_3_4: bool) -> Vec<Rank> {
    let mut deck = Vec::new();
    for (i, &r) in Rank::ALL.iter().enumerate() {
        if without_3_4 && i < 2 {
            continue;
        }
        let per_deck = if i >= B { 1 } else { 4 };
        let decks = if two_decks { 2 } else { 1 };
        deck.extend(std::iter::repeat_n(r, per_deck * decks));
    }
    deck
}

/// `n` cards drawn from `deck`; with `long`, first 5 to 8 copies of one rank (from a deck with
/// 8), so that long bombs appear; with `jokers`, first the four jokers.
fn draw(rng: &mut ChaCha8Rng, deck: &[Rank], n: usize, long: bool, jokers: bool) -> Cards {
    let mut pile = deck.to_vec();
    let mut counts = [0u8; 15];
    let take = |pile: &mut Vec<Rank>, r: Rank, counts: &mut [u8; 15]| {
        if let Some(p) = pile.iter().position(|&x| x == r) {
            pile.swap_remove(p);
            counts[r.index()] += 1;
        }
    };
    if long {
        let r = Rank::SUITED[rng.random_range(0..13)];
        for _ in 0..rng.random_range(5..=8) {
            take(&mut pile, r, &mut counts);
        }
    }
    if jokers {
        for r in [
            Rank::SmallJoker,
            Rank::SmallJoker,
            Rank::BigJoker,
            Rank::BigJoker,
        ] {
            take(&mut pile, r, &mut counts);
        }
    }
    while counts.iter().map(|&k| k as usize).sum::<usize>() < n && !pile.is_empty() {
        let i = rng.random_range(0..pile.len());
        let r = pile.swap_remove(i);
        counts[r.index()] += 1;
    }
    Cards::from_counts(&counts)
}

/// Every sub-multiset of `hand` with the oracle's readings (those with at least one).
fn oracle_subs(hand: Cards, table: &Table) -> Vec<(Cards, Vec<Reading>)> {
    sub_multisets(hand)
        .into_iter()
        .map(|s| (s, table.readings(&s.counts())))
        .filter(|(_, r)| !r.is_empty())
        .collect()
}

/// The oracle's moves: every lead, or with a table play those that beat it, and the pass.
fn oracle_moves(subs: &[(Cards, Vec<Reading>)], last: Option<(Cards, Reading)>) -> BTreeSet<Key> {
    let mut out = BTreeSet::new();
    for (sub, readings) in subs {
        for &r in readings {
            if last.is_none_or(|(lc, lr)| beats(r, sub.len(), lr, lc.len())) {
                out.insert((sub.bits(), r));
            }
        }
    }
    if last.is_some() {
        out.insert((0, PASS));
    }
    out
}

/// Hands of the pool the table plays are led from.
const POOL: usize = 60;

/// What a profile's check draws: the deck, hand sizes, the share of rigged hands.
struct Draws {
    deck: Vec<Rank>,
    sizes: std::ops::RangeInclusive<usize>,
    rigged: bool,
}

impl Draws {
    fn hand(&self, rng: &mut ChaCha8Rng) -> Cards {
        let n = rng.random_range(self.sizes.clone());
        // A quarter of two-deck hands hold a long bomb, an eighth the four jokers.
        let long = self.rigged && rng.random_range(0..4) == 0;
        let jokers = self.rigged && rng.random_range(0..8) == 0;
        draw(rng, &self.deck, n, long, jokers)
    }
}

/// What a check compared: sub-multisets classified, moves compared, and the (kind, length or
/// bomb size, main) of every move the oracle expected.
#[derive(Default)]
struct Tally {
    subs: usize,
    moves: usize,
    seen: BTreeSet<(Kind, usize, usize)>,
}

/// Checks `hands` random hands under `rules` against the oracle.
fn check(name: &str, rules: &Rules, draws: &Draws, seed: u64, hands: usize) -> Tally {
    let table = Table::of(rules);
    let mut rng = rng(seed);
    // The pool: the oracle's leads of other hands, and the library's moves with those keys.
    let pool: Vec<(Vec<Key>, Vec<Move>)> = (0..POOL)
        .map(|_| {
            let hand = draws.hand(&mut rng);
            let leads: Vec<Key> = oracle_moves(&oracle_subs(hand, &table), None)
                .into_iter()
                .collect();
            (leads, legal_moves(hand, None, rules))
        })
        .collect();
    let mut tally = Tally::default();
    for i in 0..hands {
        let hand = draws.hand(&mut rng);
        let subs = oracle_subs(hand, &table);
        // Classification of every sub-multiset (also those with no reading).
        for sub in sub_multisets(hand) {
            let mut got: Vec<Reading> = classify(sub, rules).iter().map(|m| key(m).1).collect();
            got.sort();
            assert_eq!(got, table.readings(&sub.counts()), "{name}: {sub}");
            tally.subs += 1;
        }
        let mut lasts: Vec<Option<(Move, (Cards, Reading))>> = vec![None];
        for _ in 0..3 {
            let (leads, library) = &pool[rng.random_range(0..POOL)];
            // A kind chosen uniformly among the kinds this hand can lead, so rare kinds appear.
            let kinds: Vec<Kind> = leads
                .iter()
                .map(|k| k.1.kind)
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            let kind = kinds[rng.random_range(0..kinds.len())];
            let of_kind: Vec<&Key> = leads.iter().filter(|k| k.1.kind == kind).collect();
            let &(bits, reading) = of_kind[rng.random_range(0..of_kind.len())];
            let m = library
                .iter()
                .find(|m| key(m) == (bits, reading))
                .unwrap_or_else(|| panic!("{name}: the library cannot lead {reading:?}"));
            lasts.push(Some((*m, (m.cards(), reading))));
        }
        for last in lasts {
            let table_move = last.map(|l| l.0);
            let generated = legal_moves(hand, table_move.as_ref(), rules);
            let keys: Vec<Key> = generated.iter().map(key).collect();
            let set: BTreeSet<Key> = keys.iter().copied().collect();
            assert_eq!(
                set.len(),
                keys.len(),
                "{name} hand {i} {hand}: duplicate moves"
            );
            let expected = oracle_moves(&subs, last.map(|l| l.1));
            if set != expected {
                let missing: Vec<_> = expected.difference(&set).take(5).collect();
                let extra: Vec<_> = set.difference(&expected).take(5).collect();
                panic!(
                    "{name} hand {i} {hand} last {table_move:?}: missing {missing:?} extra {extra:?}"
                );
            }
            let ordered: Vec<_> = keys.iter().filter(|k| k.1 != PASS).map(order).collect();
            assert!(
                ordered.windows(2).all(|w| w[0] <= w[1]),
                "{name} hand {i} {hand}: moves out of order"
            );
            for m in &generated {
                assert!(is_legal(hand, table_move.as_ref(), m, rules), "{name}: {m}");
            }
            tally.moves += generated.len();
            tally.seen.extend(expected.iter().map(order));
        }
    }
    eprintln!(
        "{name}: {hands} hands, {} sub-multisets classified, {} moves compared",
        tally.subs, tally.moves
    );
    tally
}

/// Two-deck draws: the 108 cards, hands of 12 to 16 cards, some rigged.
fn four_draws() -> Draws {
    Draws {
        deck: oracle_deck(true, false),
        sizes: 12..=16,
        rigged: true,
    }
}

#[test]
fn decks_are_the_oracles() {
    for (rules, two_decks, without) in [
        (Rules::four(), true, false),
        (Rules::two(), false, true),
        (Rules::classic(), false, false),
    ] {
        let deck: Cards = oracle_deck(two_decks, without).into_iter().collect();
        assert_eq!(rules.deck(), deck, "{}", rules.profile);
    }
}

#[test]
fn four_matches_oracle() {
    let t = check(
        "four",
        &Rules::profile(Profile::Four),
        &four_draws(),
        54,
        2_000,
    );
    assert!(t.moves > 50_000, "{}", t.moves);
    // Every kind of the two-deck table came up, bombs of every size, the joker pairs.
    let kinds: BTreeSet<Kind> = t.seen.iter().map(|s| s.0).collect();
    let want = [
        Kind::Pass,
        Kind::Single,
        Kind::Pair,
        Kind::Trio,
        Kind::TrioPair,
        Kind::Straight,
        Kind::PairChain,
        Kind::Airplane,
        Kind::AirplanePairs,
        Kind::FourTwoSingles,
        Kind::FourTwoPairs,
        Kind::Bomb,
        Kind::FourJokers,
    ];
    assert_eq!(kinds, want.into_iter().collect());
    for size in 4..=8 {
        assert!(
            t.seen.iter().any(|s| (s.0, s.1) == (Kind::Bomb, size)),
            "{size}"
        );
    }
    for joker in [B, R] {
        assert!(t.seen.contains(&(Kind::Pair, 1, joker)));
    }
}

#[test]
fn two_matches_oracle() {
    let draws = Draws {
        deck: oracle_deck(false, true),
        sizes: 8..=17,
        rigged: false,
    };
    let t = check("two", &Rules::profile(Profile::Two), &draws, 46, 2_000);
    assert!(t.moves > 50_000, "{}", t.moves);
    // No 3 or 4 in any move, and the lowest straight starts at 5.
    assert!(t.seen.iter().all(|s| s.0 == Kind::Pass || s.2 >= 2));
    assert!(t.seen.contains(&(Kind::Straight, 5, 6)));
    assert!(t.seen.contains(&(Kind::Rocket, 1, R)));
}

/// `trio_single_kickers` on its own: off under classic, on with two decks (airplanes with
/// singles of up to 8 trios).
#[test]
fn trio_single_kickers_under_other_profiles() {
    let mut classic = Rules::classic();
    classic.trio_single_kickers = false;
    let draws = Draws {
        deck: oracle_deck(false, false),
        sizes: 8..=20,
        rigged: false,
    };
    check("classic without trio + single", &classic, &draws, 7, 300);
    let mut four = Rules::four();
    four.trio_single_kickers = true;
    check("four with trio + single", &four, &four_draws(), 8, 300);
}
