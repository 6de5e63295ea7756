//! Card notation (RULES.md section 1): rank strings and Botzone card ids.
//!
//! Rank strings use the canonical letters `3456789TJQKA2BR` and accept the aliases `10`, lower
//! case, `X`/`x` (small joker), `D`/`d` (big joker), `小王` and `大王`. Spaces and commas between
//! cards are ignored. Botzone ids are parsed only from a JSON array of numbers, never mixed with
//! rank strings.

use core::fmt;
use core::str::FromStr;

use crate::cards::Cards;
use crate::physical::{Card, CardSet};
use crate::rank::Rank;
use crate::rules::Rules;

/// What is wrong with a card string or a list of card ids.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseCardsError {
    /// A character that is no rank, at a 1-based character position.
    NotARank {
        /// The offending text (one character, or `1` not followed by `0`).
        found: String,
        /// 1-based character position in the input.
        position: usize,
    },
    /// More cards of one rank than allowed: a deck holds 4 (1 of a joker), two decks 8 (2); a
    /// reading up to 12.
    TooMany {
        /// The rank.
        rank: Rank,
        /// How many were given.
        count: usize,
        /// The most allowed.
        max: usize,
    },
    /// A rank the rules' deck does not hold (`two` removes the 3s and 4s).
    NotInDeck {
        /// The rank.
        rank: Rank,
    },
    /// A Botzone id list that is not a JSON array of whole numbers.
    NotAnIdArray {
        /// What was expected and where.
        detail: String,
    },
    /// A Botzone id outside 0..=53.
    IdOutOfRange {
        /// The id given.
        id: i64,
        /// 1-based index in the array.
        index: usize,
    },
    /// The same Botzone id twice.
    DuplicateId {
        /// The id given twice.
        id: u8,
        /// 1-based index of its second occurrence.
        index: usize,
    },
}

impl fmt::Display for ParseCardsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseCardsError::NotARank { found, position } => {
                write!(f, "\"{found}\" at position {position} is not a rank")
            }
            ParseCardsError::TooMany { rank, count, max } if *max == rank.deck_count() as usize => {
                write!(f, "{count} cards of rank {rank}: a deck has only {max}")
            }
            ParseCardsError::TooMany { rank, count, max }
                if *max == 2 * rank.deck_count() as usize =>
            {
                write!(f, "{count} cards of rank {rank}: two decks have only {max}")
            }
            ParseCardsError::TooMany { rank, count, max } => {
                write!(f, "{count} cards of rank {rank}: at most {max}")
            }
            ParseCardsError::NotInDeck { rank } => {
                write!(f, "rank {rank} is not in this game's deck")
            }
            ParseCardsError::NotAnIdArray { detail } => {
                write!(f, "not a JSON array of card ids: {detail}")
            }
            ParseCardsError::IdOutOfRange { id, index } => {
                write!(f, "card id {id} at index {index} is outside 0..=53")
            }
            ParseCardsError::DuplicateId { id, index } => {
                write!(f, "card id {id} appears twice (again at index {index})")
            }
        }
    }
}

impl std::error::Error for ParseCardsError {}

/// Parses a rank string (`"33344"`, `"10 J Q K A"`, `"小王大王"`) into `Cards`.
///
/// The empty string is no cards. More than 4 of a rank or 2 of a joker is an error.
///
/// ```
/// use ddz_core::parse_cards;
/// assert_eq!(parse_cards("10jqka").unwrap().to_string(), "TJQKA");
/// assert_eq!(parse_cards("XD").unwrap().to_string(), "BR");
/// assert!(parse_cards("334Z").unwrap_err().to_string().contains("position 4"));
/// ```
pub fn parse_cards(text: &str) -> Result<Cards, ParseCardsError> {
    parse_with_limit(text, |rank| rank.deck_count() as usize)
}

/// Parses a rank string into `Cards` of the rules' deck ([`Rules::deck`]): like
/// [`parse_cards`], with as many cards of a rank as the decks hold (two decks, as in `four`: 8
/// of a rank 3..2, 2 of a joker) and none of a removed rank (`two`: no 3s or 4s).
///
/// ```
/// use ddz_core::{parse_cards_in, Rules};
/// assert_eq!(parse_cards_in("BBRR", &Rules::four()).unwrap().len(), 4);
/// assert!(parse_cards_in("BB", &Rules::classic()).is_err());
/// let e = parse_cards_in("555555555", &Rules::four()).unwrap_err();
/// assert_eq!(e.to_string(), "9 cards of rank 5: two decks have only 8");
/// let e = parse_cards_in("3345", &Rules::two()).unwrap_err();
/// assert_eq!(e.to_string(), "rank 3 is not in this game's deck");
/// ```
pub fn parse_cards_in(text: &str, rules: &Rules) -> Result<Cards, ParseCardsError> {
    let decks = rules.decks.max(1) as usize;
    let cards = parse_with_limit(text, |rank| (rank.deck_count() as usize * decks).min(15))?;
    let deck = rules.deck();
    match Rank::ALL
        .into_iter()
        .find(|&r| cards.count(r) > deck.count(r))
    {
        // Counts within the decks' were checked above: only a removed rank is left over.
        Some(rank) => Err(ParseCardsError::NotInDeck { rank }),
        None => Ok(cards),
    }
}

/// Parses the ranks a play is read as (the `=ranks` part of move notation): like
/// [`parse_cards`], but a rank 3..2 may appear up to 12 times (long bombs under wildcards).
pub fn parse_reading(text: &str) -> Result<Cards, ParseCardsError> {
    parse_with_limit(text, |rank| if rank.is_joker() { 1 } else { 12 })
}

fn parse_with_limit(text: &str, limit: impl Fn(Rank) -> usize) -> Result<Cards, ParseCardsError> {
    let mut counts = [0usize; 15];
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let position = i + 1;
        let rank = match c {
            ' ' | '\t' | ',' => {
                i += 1;
                continue;
            }
            '1' => {
                if chars.get(i + 1) == Some(&'0') {
                    i += 1;
                    Rank::Ten
                } else {
                    return Err(ParseCardsError::NotARank {
                        found: "1".into(),
                        position,
                    });
                }
            }
            '小' | '大' if chars.get(i + 1) == Some(&'王') => {
                i += 1;
                if c == '小' {
                    Rank::SmallJoker
                } else {
                    Rank::BigJoker
                }
            }
            _ => Rank::from_letter(c).ok_or_else(|| ParseCardsError::NotARank {
                found: c.to_string(),
                position,
            })?,
        };
        counts[rank.index()] += 1;
        i += 1;
    }
    let mut packed = [0u8; 15];
    for rank in Rank::ALL {
        let count = counts[rank.index()];
        let max = limit(rank);
        if count > max {
            return Err(ParseCardsError::TooMany { rank, count, max });
        }
        packed[rank.index()] = count as u8;
    }
    Ok(Cards::from_counts(&packed))
}

impl FromStr for Cards {
    type Err = ParseCardsError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_cards(s)
    }
}

/// Parses Botzone card ids given as a JSON array of numbers (`[0, 1, 52]`) into physical cards.
///
/// ```
/// use ddz_core::{parse_botzone_ids, Rank};
/// let set = parse_botzone_ids("[0, 4, 53]").unwrap();
/// assert_eq!(set.to_cards().to_string(), "34R");
/// assert!(parse_botzone_ids("[54]").is_err());
/// ```
pub fn parse_botzone_ids(text: &str) -> Result<CardSet, ParseCardsError> {
    let not_array = |detail: &str| ParseCardsError::NotAnIdArray {
        detail: detail.to_string(),
    };
    let inner = text
        .trim()
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(|| not_array("expected '[' ... ']'"))?;
    let mut set = CardSet::EMPTY;
    if inner.trim().is_empty() {
        return Ok(set);
    }
    for (k, item) in inner.split(',').enumerate() {
        let index = k + 1;
        let item = item.trim();
        let id: i64 = item
            .parse()
            .map_err(|_| not_array(&format!("item {index} \"{item}\" is not a whole number")))?;
        let card = u8::try_from(id)
            .ok()
            .and_then(Card::from_id)
            .ok_or(ParseCardsError::IdOutOfRange { id, index })?;
        if set.contains(card) {
            return Err(ParseCardsError::DuplicateId {
                id: card.id(),
                index,
            });
        }
        set = set.with(card);
    }
    Ok(set)
}

/// Writes physical cards as a Botzone JSON id array, ids ascending (`[0,4,53]`).
pub fn format_botzone_ids(set: CardSet) -> String {
    let ids: Vec<String> = set.iter().map(|c| c.id().to_string()).collect();
    format!("[{}]", ids.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_and_aliases() {
        assert_eq!(parse_cards("33344").unwrap().to_string(), "33344");
        assert_eq!(parse_cards("34567").unwrap().to_string(), "34567");
        assert_eq!(parse_cards("BR").unwrap().to_string(), "BR");
        assert_eq!(parse_cards("rb").unwrap().to_string(), "BR");
        assert_eq!(parse_cards("xd").unwrap(), Cards::ROCKET);
        assert_eq!(parse_cards("小王大王").unwrap(), Cards::ROCKET);
        assert_eq!(parse_cards("10 10, t").unwrap().to_string(), "TTT");
        assert_eq!(parse_cards("44433").unwrap().to_string(), "33444");
        assert_eq!(parse_cards("").unwrap(), Cards::EMPTY);
    }

    #[test]
    fn errors_name_character_and_position() {
        let e = parse_cards("334Z5").unwrap_err();
        assert_eq!(e.to_string(), "\"Z\" at position 4 is not a rank");
        let e = parse_cards("31").unwrap_err();
        assert_eq!(
            e,
            ParseCardsError::NotARank {
                found: "1".into(),
                position: 2
            }
        );
        assert!(matches!(
            parse_cards("小"),
            Err(ParseCardsError::NotARank { position: 1, .. })
        ));
        let e = parse_cards("33333").unwrap_err();
        assert_eq!(
            e,
            ParseCardsError::TooMany {
                rank: Rank::Three,
                count: 5,
                max: 4
            }
        );
        assert!(parse_cards("BB").is_err());
        let e = crate::parse_reading("3333333333333").unwrap_err();
        assert_eq!(e.to_string(), "13 cards of rank 3: at most 12");
        assert_eq!(crate::parse_reading("77777").unwrap().len(), 5);
    }

    #[test]
    fn botzone_ids() {
        let set = parse_botzone_ids("[ 0,1,2,3, 48, 52,53 ]").unwrap();
        assert_eq!(set.to_cards().to_string(), "33332BR");
        assert_eq!(format_botzone_ids(set), "[0,1,2,3,48,52,53]");
        assert_eq!(parse_botzone_ids("[]").unwrap(), CardSet::EMPTY);
        assert!(matches!(
            parse_botzone_ids("[1,1]"),
            Err(ParseCardsError::DuplicateId { id: 1, index: 2 })
        ));
        assert!(matches!(
            parse_botzone_ids("[-1]"),
            Err(ParseCardsError::IdOutOfRange { id: -1, index: 1 })
        ));
        assert!(parse_botzone_ids("1,2").is_err());
        assert!(parse_botzone_ids("[1.5]").is_err());
        assert!(parse_botzone_ids("[\"3\"]").is_err());
    }
}
