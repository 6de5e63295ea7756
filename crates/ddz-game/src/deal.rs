//! Deals: seeded and portable, or given (deal files, RULES.md section 2).

use core::fmt;

use ddz_core::{
    Card, CardSet, Cards, DealMethod, LaiziError, NoShuffle, ParseCardsError, PileSource, Rank,
    RankSet, Rules, Wild,
};
use serde::{Deserialize, Serialize};

use crate::no_shuffle::{SplitMix64, count_bombs, cut_swap_deal, groups_pile, whole_deck};
use crate::seat::{BySeat, Seat};
use crate::shuffle::{below, derive_seed, rng, shuffle};

/// Stream index used to derive the wild-rank draw from a deal's seed.
const LAIZI_STREAM: u64 = 0x1A1_2100;

/// One deal: 17 cards to each seat and the 3 kitty cards (底牌), plus the wild ranks drawn for
/// it under the wildcard profiles (heaven first, then earth).
///
/// Seat 0 holds the hand that becomes the landlord's with a fixed landlord; with bidding the
/// kitty goes to whoever wins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    /// Each seat's 17 cards.
    pub hands: BySeat<CardSet>,
    /// The 3 kitty cards.
    pub kitty: CardSet,
    /// The wild ranks, in the order they are revealed (empty without wildcards).
    pub laizi: Vec<Rank>,
    /// Each seat's 17 card ids in the order the seat received them (a shuffled deal: the
    /// order of the shuffled deck; a deal file: ids ascending). Shows during the deal see
    /// the first cards of it ([`Deal::received`]).
    order: BySeat<[u8; 17]>,
}

impl Deal {
    /// The deal of `seed`: the 54 cards in Botzone id order shuffled by [`shuffle`] with
    /// [`rng`]`(seed)`; seat 0 gets cards 0-16, seat 1 cards 17-33, seat 2 cards 34-50, the
    /// kitty cards 51-53. Under the wildcard profiles the wild ranks are drawn uniformly from
    /// 3..2 (two different ranks for heaven-and-earth) with `rng(derive_seed(seed, ...))`.
    ///
    /// Under `deal = "no_shuffle"` it is the no-shuffle deal of `seed` with seat 0 first
    /// ([`Deal::dealt`]).
    pub fn from_seed(seed: u64, rules: &Rules) -> Deal {
        Deal::dealt(seed, rules, Seat::ALL[0], None)
    }

    /// The deal of `seed` as a game deals it: shuffled ([`Deal::from_seed`]), or under
    /// `deal = "no_shuffle"` the no-shuffle deal of `seed` with `first` taking the first chunk
    /// and `pile` (the previous game's cards in gather order) in place of the rank groups when
    /// given and the rules' pile source is `previous`. The wild ranks are drawn as for a
    /// shuffled deal.
    pub fn dealt(seed: u64, rules: &Rules, first: Seat, pile: Option<&[Card]>) -> Deal {
        let mut deal = match rules.deal {
            DealMethod::Shuffle => {
                let mut deck: Vec<Card> = CardSet::FULL_DECK.iter().collect();
                shuffle(&mut rng(seed), &mut deck);
                let seat = |i: usize| deck[17 * i..17 * i + 17].to_vec();
                Deal::from_order(BySeat([seat(0), seat(1), seat(2)]), &deck[51..])
            }
            DealMethod::NoShuffle => {
                let pile = pile.filter(|_| rules.no_shuffle.source == PileSource::Previous);
                deal_no_shuffle(seed, first, &rules.no_shuffle, pile).deal
            }
        };
        let wanted = match rules.wild {
            Wild::None => 0,
            Wild::Single => 1,
            Wild::HeavenEarth => 2,
        };
        let mut draw = rng(derive_seed(seed, LAIZI_STREAM));
        while deal.laizi.len() < wanted {
            let r = Rank::SUITED[below(&mut draw, 13) as usize];
            if !deal.laizi.contains(&r) {
                deal.laizi.push(r);
            }
        }
        deal
    }

    /// A deal of each seat's cards in the order received (the first 17 of each count) and
    /// the kitty; no wild ranks.
    pub(crate) fn from_order(order: BySeat<Vec<Card>>, kitty: &[Card]) -> Deal {
        let ids = BySeat::from_fn(|s| {
            let mut ids = [0u8; 17];
            for (slot, c) in ids.iter_mut().zip(&order[s]) {
                *slot = c.id();
            }
            ids
        });
        Deal {
            hands: BySeat::from_fn(|s| order[s].iter().take(17).copied().collect()),
            kitty: kitty.iter().copied().collect(),
            laizi: Vec::new(),
            order: ids,
        }
    }

    /// The first `k` cards `seat` received (all 17 from `k` = 17).
    pub fn received(&self, seat: Seat, k: usize) -> CardSet {
        self.order[seat]
            .iter()
            .take(k)
            .filter_map(|&id| Card::from_id(id))
            .filter(|&c| self.hands[seat].contains(c))
            .collect()
    }

    /// The landlord-to-be's 20 cards (seat 0's hand and the kitty).
    pub fn landlord_cards(&self) -> CardSet {
        CardSet::from_bits(self.hands[Seat::ALL[0]].bits() | self.kitty.bits()).unwrap_or_default()
    }

    /// Each seat's physical cards once `landlord` (if decided) has taken the kitty.
    pub fn hands_with_kitty(&self, landlord: Option<Seat>) -> BySeat<CardSet> {
        let mut hands = self.hands;
        if let Some(l) = landlord {
            hands[l] = CardSet::from_bits(hands[l].bits() | self.kitty.bits()).unwrap_or(hands[l]);
        }
        hands
    }

    /// The deal as a deal-file line (seat 0 as the landlord).
    pub fn to_line(&self) -> DealLine {
        let [_, down, up] = Seat::ALL;
        DealLine {
            landlord: self.landlord_cards().to_cards().to_string(),
            landlord_down: self.hands[down].to_cards().to_string(),
            landlord_up: self.hands[up].to_cards().to_string(),
            kitty: self.kitty.to_cards().to_string(),
            laizi: (!self.laizi.is_empty())
                .then(|| self.laizi.iter().map(|r| r.letter().to_string()).collect()),
        }
    }
}

/// One line of a deal file (RULES.md section 2), cards as rank strings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DealLine {
    /// The landlord's 20 cards, the kitty included.
    pub landlord: String,
    /// The 17 cards of the seat after the landlord.
    pub landlord_down: String,
    /// The 17 cards of the seat before the landlord.
    pub landlord_up: String,
    /// The 3 kitty cards, part of `landlord`.
    pub kitty: String,
    /// The wild ranks, when the deal has them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub laizi: Option<Vec<String>>,
}

/// What is wrong with a deal line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DealError {
    /// The line is not a deal line's JSON; serde's message.
    NotALine(String),
    /// A field's cards are not card notation.
    Cards {
        /// The field (`landlord`, `landlord_down`, `landlord_up` or `kitty`).
        field: &'static str,
        /// Why its text is not card notation.
        error: ParseCardsError,
    },
    /// A field holds the wrong number of cards.
    CardCount {
        /// The field.
        field: &'static str,
        /// How many cards it holds.
        count: u32,
        /// How many it should hold (20, 17 or 3).
        want: u32,
    },
    /// The kitty is not among the landlord's cards.
    KittyNotInLandlord {
        /// The kitty.
        kitty: Cards,
        /// The landlord's cards.
        landlord: Cards,
    },
    /// The three hands are not the 54 cards.
    NotTheDeck {
        /// The cards of the deck no hand holds.
        missing: Cards,
        /// The cards held beyond the deck.
        extra: Cards,
    },
    /// A wild rank is not card notation.
    LaiziCards {
        /// The text given for the rank.
        text: String,
        /// Why it is not card notation.
        error: ParseCardsError,
    },
    /// A wild rank is not exactly one rank.
    LaiziNotOneRank(String),
    /// The wild ranks do not fit the rules.
    Laizi(LaiziError),
}

impl fmt::Display for DealError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DealError::NotALine(e) => write!(f, "not a deal line: {e}"),
            DealError::Cards { field, error } => write!(f, "\"{field}\": {error}"),
            DealError::CardCount { field, count, want } => {
                write!(f, "\"{field}\" has {count} cards, not {want}")
            }
            DealError::KittyNotInLandlord { kitty, landlord } => write!(
                f,
                "the kitty {kitty} is not among the landlord's cards {landlord}"
            ),
            DealError::NotTheDeck { missing, extra } => write!(
                f,
                "the three hands are not the 54 cards: missing \"{missing}\", extra \"{extra}\""
            ),
            DealError::LaiziCards { error, .. } => write!(f, "\"laizi\": {error}"),
            DealError::LaiziNotOneRank(text) => write!(f, "\"laizi\": \"{text}\" is not one rank"),
            DealError::Laizi(e) => write!(f, "\"laizi\": {e}"),
        }
    }
}

impl std::error::Error for DealError {}

impl DealLine {
    /// Parses one JSON line of a deal file.
    pub fn parse(line: &str) -> Result<DealLine, DealError> {
        serde_json::from_str(line).map_err(|e| DealError::NotALine(e.to_string()))
    }

    /// The deal this line describes: 20, 17, 17 and 3 cards that make up the 54-card deck
    /// with the kitty among the landlord's cards; wild ranks checked against `rules`. Suits are
    /// assigned in Botzone id order (the rules never look at them).
    pub fn to_deal(&self, rules: &Rules) -> Result<Deal, DealError> {
        let field = |field: &'static str, text: &str, want: u32| -> Result<Cards, DealError> {
            let cards: Cards = text
                .parse()
                .map_err(|error| DealError::Cards { field, error })?;
            if cards.len() != want {
                return Err(DealError::CardCount {
                    field,
                    count: cards.len(),
                    want,
                });
            }
            Ok(cards)
        };
        let landlord = field("landlord", &self.landlord, 20)?;
        let down = field("landlord_down", &self.landlord_down, 17)?;
        let up = field("landlord_up", &self.landlord_up, 17)?;
        let kitty = field("kitty", &self.kitty, 3)?;
        let rest = landlord
            .difference(kitty)
            .ok_or(DealError::KittyNotInLandlord { kitty, landlord })?;
        let all = landlord.union(down).union(up);
        if all != Cards::FULL_DECK {
            let missing = Cards::FULL_DECK.saturating_minus(all);
            let extra = all.saturating_minus(Cards::FULL_DECK);
            return Err(DealError::NotTheDeck { missing, extra });
        }
        // Physical cards: each hand takes the lowest ids of its ranks still in the deck.
        let mut deck = CardSet::FULL_DECK;
        let mut take = |cards: Cards| -> CardSet {
            let set = deck.take(cards).unwrap_or_default();
            deck = CardSet::from_bits(deck.bits() & !set.bits()).unwrap_or_default();
            set
        };
        let hands = BySeat([take(rest), take(down), take(up)]);
        let kitty = take(kitty);
        let order = BySeat::from_fn(|s| hands[s].iter().collect::<Vec<Card>>());
        let mut laizi = Vec::new();
        for text in self.laizi.iter().flatten() {
            let c: Cards = text.parse().map_err(|error| DealError::LaiziCards {
                text: text.clone(),
                error,
            })?;
            match (c.len(), c.lowest()) {
                (1, Some(r)) => laizi.push(r),
                _ => return Err(DealError::LaiziNotOneRank(text.clone())),
            }
        }
        rules.with_laizi(&laizi).map_err(DealError::Laizi)?;
        let mut deal = Deal::from_order(order, &kitty.iter().collect::<Vec<Card>>());
        deal.laizi = laizi;
        Ok(deal)
    }
}

/// The wild ranks of a deal as a set.
pub fn laizi_set(deal: &Deal) -> RankSet {
    deal.laizi.iter().copied().collect()
}

/// A no-shuffle deal, with how many bombs its hands hold and how many tries it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoShuffleDeal {
    /// The deal (no wild ranks).
    pub deal: Deal,
    /// Bombs in the three hands ([`count_bombs`]).
    pub bombs: u32,
    /// Tries made for `min_bombs` (1 when it is 0 or the first try reaches it).
    pub attempts: u32,
}

/// The no-shuffle deal of `seed` with `first` taking the first chunk, under `params`; `pile`
/// replaces step 1 (the previous game's cards in gather order) when it is 54 different cards.
/// The chunk sizes are the caller's to check (they add up to 17: [`ddz_core::Rules::check_fields`]);
/// other sizes deal what they can and leave the rest to the kitty.
pub fn deal_no_shuffle(
    seed: u64,
    first: Seat,
    params: &NoShuffle,
    pile: Option<&[Card]>,
) -> NoShuffleDeal {
    let mut g = SplitMix64::new(seed);
    let given = pile.and_then(whole_deck);
    let deal_once = |g: &mut SplitMix64| {
        let start = match &given {
            Some(p) => p.clone(),
            None => groups_pile(g),
        };
        let (order, kitty) = cut_swap_deal(g, start, first, params);
        let deal = Deal::from_order(order, &kitty);
        let bombs = count_bombs(&deal.hands);
        (deal, bombs)
    };
    let (deal, bombs) = deal_once(&mut g);
    let mut best = NoShuffleDeal {
        deal,
        bombs,
        attempts: 1,
    };
    let mut attempts = 1;
    while best.bombs < params.min_bombs && attempts < params.max_attempts {
        attempts += 1;
        let (deal, bombs) = deal_once(&mut g);
        if bombs > best.bombs {
            best.deal = deal;
            best.bombs = bombs;
        }
    }
    best.attempts = attempts;
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::no_shuffle::gather_pile;

    #[test]
    fn seeded_deals_are_complete_and_repeatable() {
        let rules = Rules::classic();
        let d = Deal::from_seed(1, &rules);
        assert_eq!(d, Deal::from_seed(1, &rules));
        assert_ne!(d, Deal::from_seed(2, &rules));
        let all = d.landlord_cards().bits() | d.hands.0[1].bits() | d.hands.0[2].bits();
        assert_eq!(all, CardSet::FULL_DECK.bits());
        for (_, h) in d.hands.iter() {
            assert_eq!(h.len(), 17);
        }
        assert!(d.laizi.is_empty());
        let t = Deal::from_seed(1, &Rules::tiandi());
        assert_eq!(t.laizi.len(), 2);
        assert_ne!(t.laizi[0], t.laizi[1]);
    }

    /// Pinned: the same seed gives the same deal on every platform and version.
    #[test]
    fn seeded_deal_is_pinned() {
        let line = Deal::from_seed(1, &Rules::classic()).to_line();
        assert_eq!(line.landlord, "34455777889TTTTQQQKA");
        assert_eq!(line.landlord_down, "3334666899JJKAA22");
        assert_eq!(line.landlord_up, "4556789JJQKKA22BR");
        assert_eq!(line.kitty, "48T");
    }

    #[test]
    fn deal_lines_round_trip_and_errors_say_what() {
        let rules = Rules::laizi();
        let d = Deal::from_seed(5, &rules);
        let line = d.to_line();
        let text = serde_json::to_string(&line).unwrap();
        let back = DealLine::parse(&text).unwrap().to_deal(&rules).unwrap();
        assert_eq!(back.to_line(), line);
        let mut bad = line.clone();
        bad.kitty = "BR3".into();
        let e = bad.to_deal(&rules).unwrap_err().to_string();
        assert!(e.contains("kitty") || e.contains("54 cards"), "{e}");
        let mut short = line.clone();
        short.landlord_up.pop();
        assert!(
            short
                .to_deal(&rules)
                .unwrap_err()
                .to_string()
                .contains("not 17")
        );
        assert!(DealLine::parse("{\"landlord\": 3}").is_err());
        let mut wild = line;
        wild.laizi = Some(vec!["B".into()]);
        assert!(
            wild.to_deal(&rules)
                .unwrap_err()
                .to_string()
                .contains("laizi")
        );
    }

    #[test]
    fn deal_errors_carry_what_is_wrong() {
        let rules = Rules::laizi();
        let line = Deal::from_seed(5, &rules).to_line();
        let mut short = line.clone();
        short.landlord_up.pop();
        assert_eq!(
            short.to_deal(&rules).unwrap_err(),
            DealError::CardCount {
                field: "landlord_up",
                count: 16,
                want: 17
            }
        );
        let mut wild = line.clone();
        wild.laizi = Some(vec!["B".into()]);
        let e = wild.to_deal(&rules).unwrap_err();
        assert_eq!(e, DealError::Laizi(LaiziError::Joker(Rank::SmallJoker)));
        assert_eq!(
            e.to_string(),
            "\"laizi\": B cannot be wild: jokers are never wild"
        );
        wild.laizi = Some(vec!["99".into()]);
        let e = wild.to_deal(&rules).unwrap_err();
        assert_eq!(e, DealError::LaiziNotOneRank("99".into()));
        assert_eq!(e.to_string(), "\"laizi\": \"99\" is not one rank");
        let mut cards = line;
        cards.kitty = "3Z".into();
        let e = cards.to_deal(&rules).unwrap_err();
        assert!(matches!(e, DealError::Cards { field: "kitty", .. }));
        assert!(e.to_string().starts_with("\"kitty\": "), "{e}");
    }

    #[test]
    fn gather_keeps_every_card_once() {
        let deal = deal_no_shuffle(4, Seat::ALL[1], &NoShuffle::DEFAULT, None).deal;
        let first: CardSet = deal.hands[Seat::ALL[2]].iter().take(3).collect();
        let hands = deal.hands_with_kitty(Some(Seat::ALL[2]));
        let left = BySeat::from_fn(|s| {
            CardSet::from_bits(hands[s].bits() & !first.bits()).unwrap_or_default()
        });
        let pile = gather_pile(&[first], &left, Some(Seat::ALL[2]));
        assert_eq!(pile.len(), 54);
        assert_eq!(
            pile.iter().copied().collect::<CardSet>(),
            CardSet::FULL_DECK
        );
        assert_eq!(pile[..3], first.iter().collect::<Vec<_>>()[..]);
        // The landlord's cards come right after the plays.
        assert!(left[Seat::ALL[2]].contains(pile[3]));
    }

    #[test]
    fn min_bombs_retries_on_the_same_stream() {
        let mut params = NoShuffle::DEFAULT;
        params.min_bombs = 6;
        let dealt = deal_no_shuffle(1, Seat::ALL[0], &params, None);
        assert!(dealt.bombs >= 6 || dealt.attempts == params.max_attempts);
        assert!(dealt.attempts > 1);
        // The first try is seed 1's own deal (5 bombs).
        params.min_bombs = 5;
        assert_eq!(deal_no_shuffle(1, Seat::ALL[0], &params, None).attempts, 1);
        params.min_bombs = 99;
        params.max_attempts = 3;
        let dealt = deal_no_shuffle(1, Seat::ALL[0], &params, None);
        assert_eq!(dealt.attempts, 3);
        assert!(
            dealt.bombs >= 5,
            "the best of the tries, the first included"
        );
    }
}
