//! Shared pieces of hand analysis: the blog's group value table, and reading a hand's wild
//! cards as the ranks they stand for.
//!
//! Every analysis (the ddzlib split, the blog's hand value, the best split) works on a
//! *natural* hand: rank counts with no wild card. A hand holding wild cards is analysed once
//! per way of reading its wild cards ([`wild_readings`]), and the analysis keeps the reading
//! that serves best (fewest hands, then highest value); the groups found are then turned back
//! into moves of physical cards ([`realise`]).

use ddz_core::{Cards, Kind, Move, Rank, Rules, Wild, read_as};

/// The blog's value of a group of `kind` whose deciding rank is `main` (seed-origins.md
/// section 2.2): 10 is the neutral rank, a 3 is worth −7, a 2 +5, the big joker +7; chains one
/// more than their top card; airplanes and four-with-two half their base; bombs 7 to 19; the
/// rocket 20. Kickers add nothing. Kinds the blog does not have (space shuttles) are valued as
/// the airplanes they extend.
pub fn group_value(kind: Kind, main: Rank) -> i32 {
    // The blog numbers ranks 3..17 (3 = 3, A = 14, 2 = 15, jokers 16 and 17).
    let m = main.index() as i32 + 3;
    match kind {
        Kind::Pass => 0,
        Kind::Single | Kind::Pair | Kind::Trio | Kind::TrioSingle | Kind::TrioPair => m - 10,
        Kind::Straight | Kind::PairChain => m - 9,
        Kind::Airplane
        | Kind::AirplaneSingles
        | Kind::AirplanePairs
        | Kind::SpaceShuttle
        | Kind::SpaceShuttleSingles
        | Kind::SpaceShuttlePairs => (m - 2) / 2,
        Kind::FourTwoSingles | Kind::FourTwoPairs => (m - 3) / 2,
        Kind::Bomb => m + 4,
        Kind::Rocket | Kind::FourJokers => 20,
    }
}

/// The blog's value of a move ([`group_value`] of its kind and main rank).
pub fn move_value(m: &Move) -> i32 {
    group_value(m.kind(), m.main())
}

/// Most wild cards read as other ranks: past four, the extra wild cards stand for their own
/// rank (a hand holds more than four only under heaven-and-earth, rarely), which keeps the
/// readings to at most 1,820.
pub const MAX_SUBSTITUTED_WILD: u32 = 4;

/// The wild cards of `hand` under `rules` (empty when no rank is wild).
pub fn wild_cards(hand: Cards, rules: &Rules) -> Cards {
    if rules.wild == Wild::None {
        return Cards::EMPTY;
    }
    hand.restrict(rules.laizi.bits())
}

/// Every natural hand `hand` can stand for: each wild card read as one rank 3..2 (its own rank
/// included), no rank above four cards. Without wild cards, the hand itself. Distinct hands,
/// in a fixed order (fewest substitutions by rank order first).
pub fn wild_readings(hand: Cards, rules: &Rules) -> Vec<Cards> {
    let wild = wild_cards(hand, rules);
    if wild.is_empty() {
        return vec![hand];
    }
    let natural = hand.minus(wild);
    // The first wild cards (lowest rank first) are free; any beyond the cap keep their rank.
    let mut free = 0u32;
    let mut fixed = natural;
    for rank in wild.iter() {
        if free < MAX_SUBSTITUTED_WILD {
            free += 1;
        } else {
            fixed = fixed.add(rank, 1);
        }
    }
    let mut out = Vec::new();
    place(fixed, free, 0, &mut out);
    out
}

/// Adds `left` more cards to `base` at suited ranks from index `from` up (multisets, so each
/// reading appears once).
fn place(base: Cards, left: u32, from: usize, out: &mut Vec<Cards>) {
    if left == 0 {
        out.push(base);
        return;
    }
    for (i, &rank) in Rank::SUITED.iter().enumerate().skip(from) {
        if base.count(rank) < 4 {
            place(base.add(rank, 1), left - 1, i, out);
        }
    }
}

/// Turns groups found on a natural reading of `hand` back into moves of `hand`'s physical
/// cards: each group is `(reading, kind, main)`, its cards taken natural first, then wild
/// cards of the same rank, then the lowest other wild cards.
/// `None` if the groups do not fit in the hand or one is not a valid play under `rules`.
pub fn realise(hand: Cards, groups: &[(Cards, Kind, Rank)], rules: &Rules) -> Option<Vec<Move>> {
    let mut wild = wild_cards(hand, rules);
    let mut natural = hand.minus(wild);
    groups
        .iter()
        .map(|&(reading, kind, main)| {
            realise_group(&mut natural, &mut wild, reading, kind, main, rules)
        })
        .collect()
}

/// One group of [`realise`]: takes its cards out of `natural` and `wild` and reads them.
pub(crate) fn realise_group(
    natural: &mut Cards,
    wild: &mut Cards,
    reading: Cards,
    kind: Kind,
    main: Rank,
    rules: &Rules,
) -> Option<Move> {
    let mut cards = Cards::EMPTY;
    for rank in reading.ranks() {
        let need = reading.count(rank);
        let own = need.min(natural.count(rank));
        *natural = natural.remove(rank, own)?;
        cards = cards.add(rank, own);
        // Wild cards of the rank itself first: a wild card standing for its own rank is
        // valid anywhere, one standing for another rank is not (a lone wild single).
        let itself = (need - own).min(wild.count(rank));
        *wild = wild.remove(rank, itself)?;
        cards = cards.add(rank, itself);
        for _ in own + itself..need {
            let w = wild.lowest()?;
            *wild = wild.remove(w, 1)?;
            cards = cards.add(w, 1);
        }
    }
    realise_one(cards, kind, main, rules)
}

/// The move of physical `cards` read as `kind`/`main` (the body is fixed by kind, main and
/// card count; only wild kickers may be read differently, which does not change the move).
fn realise_one(cards: Cards, kind: Kind, main: Rank, rules: &Rules) -> Option<Move> {
    if kind == Kind::Rocket {
        return ddz_core::default_reading(cards, rules).filter(|m| m.kind() == Kind::Rocket);
    }
    read_as(cards, kind, main, rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(s: &str) -> Cards {
        s.parse().unwrap()
    }

    #[test]
    fn value_table_matches_the_blog() {
        assert_eq!(group_value(Kind::Single, Rank::Three), -7);
        assert_eq!(group_value(Kind::Single, Rank::Ten), 0);
        assert_eq!(group_value(Kind::Pair, Rank::Two), 5);
        assert_eq!(group_value(Kind::Single, Rank::BigJoker), 7);
        assert_eq!(group_value(Kind::Straight, Rank::Seven), -2);
        assert_eq!(group_value(Kind::Airplane, Rank::Four), 1);
        assert_eq!(group_value(Kind::Bomb, Rank::Three), 7);
        assert_eq!(group_value(Kind::Bomb, Rank::Two), 19);
        assert_eq!(group_value(Kind::Rocket, Rank::BigJoker), 20);
        assert_eq!(group_value(Kind::FourTwoSingles, Rank::Ace), 5);
    }

    #[test]
    fn readings_without_wild_are_the_hand() {
        let hand = cards("33456");
        assert_eq!(wild_readings(hand, &Rules::classic()), vec![hand]);
        let rules = Rules::laizi();
        assert_eq!(wild_readings(hand, &rules), vec![hand]);
    }

    #[test]
    fn readings_place_each_wild_card() {
        let rules = Rules::laizi().with_laizi(&[Rank::Nine]).unwrap();
        let one = wild_readings(cards("3339"), &rules);
        // 3 has four cards already after one more: the wild card can be any rank 3..2.
        assert_eq!(one.len(), 13);
        assert!(one.contains(&cards("3333")));
        assert!(one.contains(&cards("3339")));
        let two = wild_readings(cards("99"), &rules);
        assert_eq!(two.len(), 13 * 14 / 2);
    }

    #[test]
    fn realise_uses_natural_cards_first() {
        let rules = Rules::laizi().with_laizi(&[Rank::Nine]).unwrap();
        let hand = cards("33349");
        let moves = realise(
            hand,
            &[
                (cards("3333"), Kind::Bomb, Rank::Three),
                (cards("4"), Kind::Single, Rank::Four),
            ],
            &rules,
        )
        .unwrap();
        assert_eq!(moves[0].cards(), cards("3339"));
        assert_eq!(moves[0].kind(), Kind::Bomb);
        assert_eq!(moves[1].cards(), cards("4"));
        assert!(realise(hand, &[(cards("55"), Kind::Pair, Rank::Five)], &rules).is_none());
        // Two wild ranks: the 9s read as themselves go to the pair, the 7 stays a 7.
        let rules = Rules::tiandi()
            .with_laizi(&[Rank::Seven, Rank::Nine])
            .unwrap();
        let groups = [
            (cards("99"), Kind::Pair, Rank::Nine),
            (cards("7"), Kind::Single, Rank::Seven),
        ];
        let moves = realise(cards("799"), &groups, &rules).unwrap();
        assert_eq!(
            (moves[0].cards(), moves[1].cards()),
            (cards("99"), cards("7"))
        );
    }
}
