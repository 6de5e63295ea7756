//! Move notation (RULES.md section 3): `pass`, plain `cards` (the default reading), a declared
//! reading `cards:kind:main`, and for wild cards `cards=ranks` (with `:kind:main` after it when
//! still ambiguous).

use core::fmt;

use crate::cards::Cards;
use crate::classify::classify;
use crate::kind::{Kind, UnknownKind};
use crate::notation::{ParseCardsError, parse_cards, parse_cards_in, parse_reading};
use crate::play::Move;
use crate::rank::Rank;
use crate::rules::Rules;

/// What is wrong with a move written in notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The cards (or the `=ranks` reading) do not parse.
    Cards {
        /// Which part: `cards` or `reading`.
        part: &'static str,
        /// The parse error.
        error: ParseCardsError,
    },
    /// The text after the cards is not `:kind:main`.
    Syntax(String),
    /// The declared kind is unknown.
    Kind(UnknownKind),
    /// The declared main rank is not a rank.
    Main(String),
    /// The cards form no combination under the rules.
    NotACombination(Cards),
    /// The declared `=ranks` reading is not one the cards can have.
    NoSuchWildReading {
        /// The cards.
        cards: Cards,
        /// The reading given.
        reading: Cards,
    },
    /// The cards can be read, but not as the declared kind and main.
    NoSuchReading {
        /// The cards.
        cards: Cards,
        /// The declared kind.
        kind: Kind,
        /// The declared main rank, if given.
        main: Option<Rank>,
        /// The readings the cards do have.
        readings: Vec<Move>,
    },
    /// No reading of the cards beats the play on the table.
    DoesNotBeat {
        /// The cards.
        cards: Cards,
        /// The play on the table.
        last: Move,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Cards { part, error } => write!(f, "in the {part}: {error}"),
            MoveError::Syntax(s) => write!(f, "{s}"),
            MoveError::Kind(e) => write!(f, "{e}"),
            MoveError::Main(s) => write!(f, "main rank \"{s}\" is not one rank"),
            MoveError::NotACombination(c) => write!(f, "{c} is not a combination"),
            MoveError::NoSuchWildReading { cards, reading } => {
                write!(
                    f,
                    "{cards} cannot be read as {reading} (no wild card stands for another rank here)"
                )
            }
            MoveError::NoSuchReading {
                cards,
                kind,
                main,
                readings,
            } => {
                let main = main.map(|m| format!(" with main {m}")).unwrap_or_default();
                let list: Vec<String> = readings.iter().map(|m| m.to_string()).collect();
                write!(
                    f,
                    "{cards} cannot be read as {kind}{main}; its readings: {}",
                    list.join(", ")
                )
            }
            MoveError::DoesNotBeat { cards, last } => {
                write!(f, "{cards} does not beat {last}")
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// The parts of a move as written, before the rules resolve them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Written {
    cards: Cards,
    reading: Option<Cards>,
    kind: Option<Kind>,
    main: Option<Rank>,
}

fn split_written(text: &str, rules: &Rules) -> Result<Option<Written>, MoveError> {
    let text = text.trim();
    if text.is_empty() || text.eq_ignore_ascii_case("pass") {
        return Ok(None);
    }
    let mut parts = text.split(':');
    let card_part = parts.next().unwrap_or_default();
    let kind = parts.next();
    let main = parts.next();
    if parts.next().is_some() || (kind.is_some() && main.is_none()) {
        return Err(MoveError::Syntax(format!(
            "\"{text}\" is not a move: write cards, cards:kind:main, or pass"
        )));
    }
    let (cards_text, reading_text) = match card_part.split_once('=') {
        Some((c, r)) => (c, Some(r)),
        None => (card_part, None),
    };
    let cards = parse_cards_in(cards_text, rules).map_err(|error| MoveError::Cards {
        part: "cards",
        error,
    })?;
    if cards.is_empty() {
        return Err(MoveError::Syntax(format!(
            "\"{text}\" has no cards (write pass to pass)"
        )));
    }
    let reading = reading_text
        .map(|r| {
            parse_reading(r).map_err(|error| MoveError::Cards {
                part: "reading",
                error,
            })
        })
        .transpose()?;
    let kind = kind
        .map(|k| k.trim().parse::<Kind>().map_err(MoveError::Kind))
        .transpose()?;
    let main = main
        .map(|m| {
            let m = m.trim();
            let c = parse_cards(m).ok().filter(|c| c.len() == 1);
            c.and_then(|c| c.lowest())
                .ok_or_else(|| MoveError::Main(m.to_string()))
        })
        .transpose()?;
    Ok(Some(Written {
        cards,
        reading,
        kind,
        main,
    }))
}

/// Parses a move written in notation and resolves its reading under `rules`.
///
/// `pass` (or an empty string) is the pass. Plain cards take their default reading (RULES.md
/// section 3); with `beat`, the default among the readings that beat it. `cards:kind:main`
/// declares the reading.
///
/// ```
/// use ddz_core::{parse_move, Kind, Rules};
/// let rules = Rules::classic();
/// let m = parse_move("333444555666", &rules, None).unwrap();
/// assert_eq!(m.kind(), Kind::Airplane);
/// let m = parse_move("333444555666:airplane_singles:6", &rules, None).unwrap();
/// assert_eq!(m.kind(), Kind::AirplaneSingles);
/// assert!(parse_move("3345", &rules, None).is_err());
/// ```
pub fn parse_move(text: &str, rules: &Rules, beat: Option<&Move>) -> Result<Move, MoveError> {
    let Some(w) = split_written(text, rules)? else {
        return Ok(Move::PASS);
    };
    let all = classify(w.cards, rules);
    if all.is_empty() {
        return Err(MoveError::NotACombination(w.cards));
    }
    let mut candidates: Vec<Move> = all.clone();
    if let Some(reading) = w.reading {
        // The canonical reading, or another reading of the same move: natural cards standing
        // for themselves, the same body, kickers read differently but validly.
        let naturals = w.cards.restrict(!crate::wild::wild_mask(rules));
        candidates.retain(|m| {
            m.reading() == reading
                || (m.kind() != Kind::Bomb
                    && reading.len() == m.reading().len()
                    && reading.contains(naturals)
                    && reading.saturating_minus(naturals).rank_mask() & crate::natural::JOKER_MASK
                        == 0
                    && crate::natural::read_natural(reading, m.kind(), m.main(), rules).is_some())
        });
        if candidates.is_empty() {
            return Err(MoveError::NoSuchWildReading {
                cards: w.cards,
                reading,
            });
        }
    }
    if let Some(kind) = w.kind {
        candidates.retain(|m| m.kind() == kind && w.main.is_none_or(|r| m.main() == r));
        if candidates.is_empty() {
            return Err(MoveError::NoSuchReading {
                cards: w.cards,
                kind,
                main: w.main,
                readings: all,
            });
        }
    }
    if let Some(last) = beat.filter(|l| !l.is_pass()) {
        candidates.retain(|m| m.beats(last, rules));
        if candidates.is_empty() {
            return Err(MoveError::DoesNotBeat {
                cards: w.cards,
                last: *last,
            });
        }
    }
    candidates
        .into_iter()
        .max_by(|a, b| a.default_order(b))
        .ok_or(MoveError::NotACombination(w.cards))
}

/// The shortest notation that names `m` exactly under `rules`: `pass`, the cards, `=ranks`
/// when a wild card stands for another rank, and `:kind:main` only when the cards (and
/// reading) still have more than one reading.
///
/// ```
/// use ddz_core::{move_notation, parse_move, Rules};
/// let rules = Rules::classic();
/// let m = parse_move("333444555666:airplane_singles:6", &rules, None).unwrap();
/// assert_eq!(move_notation(&m, &rules), "333444555666:airplane_singles:6");
/// let m = parse_move("44433", &rules, None).unwrap();
/// assert_eq!(move_notation(&m, &rules), "33444");
/// ```
pub fn move_notation(m: &Move, rules: &Rules) -> String {
    if m.is_pass() {
        return "pass".to_string();
    }
    let mut s = m.cards().to_string();
    if m.reading() != m.cards() {
        s.push('=');
        s.push_str(&m.reading().to_string());
    }
    // Plain cards stand for all their readings; `cards=ranks` for those with that reading.
    let substituted = m.reading() != m.cards();
    let same = classify(m.cards(), rules)
        .into_iter()
        .filter(|r| !substituted || r.reading() == m.reading())
        .count();
    if same > 1 {
        s.push_str(&format!(":{}:{}", m.kind(), m.main()));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_forms() {
        let r = Rules::classic();
        assert_eq!(parse_move("pass", &r, None), Ok(Move::PASS));
        assert_eq!(parse_move(" PASS ", &r, None), Ok(Move::PASS));
        assert_eq!(parse_move("", &r, None), Ok(Move::PASS));
        assert_eq!(move_notation(&Move::PASS, &r), "pass");
    }

    #[test]
    fn syntax_errors_say_what() {
        let r = Rules::classic();
        let e = parse_move("333:trio", &r, None).unwrap_err();
        assert!(e.to_string().contains("cards:kind:main"), "{e}");
        let e = parse_move("333:trip:3", &r, None).unwrap_err();
        assert!(e.to_string().contains("is not a kind"), "{e}");
        let e = parse_move("333:trio:33", &r, None).unwrap_err();
        assert!(e.to_string().contains("main rank"), "{e}");
        let e = parse_move("33Z", &r, None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "in the cards: \"Z\" at position 3 is not a rank"
        );
        let e = parse_move("333:pair:3", &r, None).unwrap_err();
        assert!(e.to_string().contains("its readings: 333:trio:3"), "{e}");
        let e = parse_move("3334=3335", &r, None).unwrap_err();
        assert!(matches!(e, MoveError::NoSuchWildReading { .. }));
    }

    #[test]
    fn following_picks_a_beating_reading() {
        let r = Rules::classic();
        let table = parse_move("444555666777:airplane_singles:6", &r, None).unwrap();
        // 555666777888 leads as the airplane of 4, but follows as the airplane with singles.
        let m = parse_move("555666777888", &r, Some(&table)).unwrap();
        assert_eq!(m.to_string(), "555666777888:airplane_singles:8");
        let low = parse_move("333444555666", &r, Some(&table));
        assert!(matches!(low, Err(MoveError::DoesNotBeat { .. })));
    }
}
