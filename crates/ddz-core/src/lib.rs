//! # ddz-core
//!
//! The Dou Dizhu (斗地主) rules: ranks and cards, notation, rule sets and profiles,
//! classification of card sets into combinations, comparison, and legal-move generation.
//!
//! Everything rule-related works on [`Cards`], a multiset of ranks packed into one `u64`;
//! physical cards ([`Card`], [`CardSet`], Botzone ids 0-53) exist for dealing and display.
//! Every function that depends on rules takes a [`Rules`]; there is no global state.
//!
//! ```
//! use ddz_core::{classify, legal_moves, parse_move, Cards, Kind, Rules};
//!
//! let rules = Rules::classic();
//! let hand: Cards = "33344456789TJQKA2BR".parse().unwrap();
//!
//! // Every reading of a set of cards.
//! let readings = classify("333444555666".parse().unwrap(), &rules);
//! assert_eq!(readings.len(), 3);
//!
//! // What beats a pair of 8s?
//! let table = parse_move("88", &rules, None).unwrap();
//! let replies = legal_moves(hand, Some(&table), &rules);
//! assert!(replies.iter().any(|m| m.kind() == Kind::Rocket));
//! assert!(replies.last().unwrap().is_pass());
//! ```
//!
//! Wildcards (癞子) fit the same types: a [`Move`] carries its physical cards and its reading,
//! and bombs their class under the wild profiles.
//!
//! ```
//! use ddz_core::{classify, parse_move, BombClass, Rank, Rules};
//!
//! let rules = Rules::laizi().with_laizi(&[Rank::Seven]).unwrap();
//! // With 7 wild, 7779 is a soft bomb of 9s, a trio of 9s with a 7, and a trio of any other
//! // rank with the 9.
//! assert_eq!(classify("7779".parse().unwrap(), &rules).len(), 14);
//! let bomb = parse_move("7779=9999", &rules, None).unwrap();
//! assert_eq!(bomb.class(), Some(BombClass::Soft));
//! ```
//!
//! Rules come from a profile, and from what a user gives ([`Rules::build`]): a profile name,
//! wild ranks written `7,9`, and with the `rules-file` feature a JSON or TOML rules file
//! (`Rules::build` does all three the way the `ddz` command's `--rules`, `--rules-file` and
//! `--laizi` do).
//!
//! ```
//! use ddz_core::{Rank, Rules};
//!
//! let rules = Rules::from_profile_name("laizi").unwrap().with_laizi_text("9").unwrap();
//! assert!(rules.laizi.contains(Rank::Nine));
//! ```
//!
//! Rules are documented in the project's RULES.md.
//!
//! # Move order
//!
//! Moves come in a stable order. Leading: by kind in the order of [`Kind`] (the RULES.md
//! table: single, pair, trio, trio + single, trio + pair, straight, pair chain, airplane,
//! airplane + singles, airplane + pairs, four + two singles, four + two pairs, bomb, rocket,
//! then the Botzone space shuttles, then the two-deck four jokers), then by length ascending,
//! then by main rank ascending, then by kickers (their ranks as a sorted sequence,
//! lexicographically); bombs by size, then rank. Following: the moves of the table's kind and
//! length that beat it in the same order, then the bombs that beat it (lowest first), then the
//! rocket (two decks: the four jokers), then the pass.
//!
//! Two decks (the `four` profile, docs/variants.md) fit the same types: a hand holds up to 8
//! of a rank and 2 of each joker, `BB` and `RR` are pairs, bombs have 4 to 8 cards, and the
//! four jokers ([`Kind::FourJokers`]) take the rocket's place.
//!
//! ```
//! use ddz_core::{legal_moves, parse_cards_in, parse_move, Kind, Rules};
//!
//! let rules = Rules::four();
//! let hand = parse_cards_in("55555BBRR", &rules).unwrap();
//! let table = parse_move("2222", &rules, None).unwrap();
//! let replies: Vec<String> = legal_moves(hand, Some(&table), &rules)
//!     .iter().map(|m| m.to_string()).collect();
//! assert_eq!(replies, ["55555:bomb:5", "BBRR:four_jokers:R", "pass"]);
//! ```
//!
//! With wild cards in hand (RULES.md section 5) the order is the same by kind, length and main
//! rank (bombs: by size, then rank); within one body, moves follow the number of natural cards
//! of each body rank used, then the natural kickers, then how many wild cards of each wild rank
//! are used. Every distinct move (cards, kind, main, length, bomb class) comes once.
//!
//! Features: `serde` (Serialize and Deserialize for rules, ranks and moves, and
//! `MoveJson`), `rules-file` (rules files, with `serde`).

mod app_rules;
mod cards;
mod classify;
mod douzero;
#[cfg(feature = "serde")]
mod json;
mod kind;
mod move_notation;
mod movegen;
mod natural;
mod notation;
mod physical;
mod play;
mod rank;
mod rules;
mod rules_spec;
mod wild;

pub use app_rules::{
    Chunks, DealMethod, DoublingOrder, DoublingRules, Factors, NoShuffle, PileSource, ShortList,
    ShowCombine, ShowRules,
};
pub use cards::Cards;
pub use classify::{classify, default_reading, read_as};
#[cfg(feature = "serde")]
pub use json::MoveJson;
pub use kind::{Kickers, Kind, Shape, UnknownKind};
pub use move_notation::{MoveError, move_notation, parse_move};
pub use movegen::{
    count_legal_moves, for_each_legal_move, is_legal, legal_moves, legal_moves_into, moves_of_kind,
};
pub use notation::{
    ParseCardsError, format_botzone_ids, parse_botzone_ids, parse_cards, parse_cards_in,
    parse_reading,
};
pub use physical::{Card, CardSet, Suit};
pub use play::{BombClass, Move};
pub use rank::{Rank, RankSet};
pub use rules::{
    Bidding, BombMultipliers, LaiziError, LaiziReveal, Profile, Readings, Rules, Scoring,
    UnknownProfile, Wild,
};
pub use rules_spec::{MAX_CUTS, MAX_DEAL_ATTEMPTS, MAX_SWAPS, RulesError, parse_wild_ranks};
#[cfg(feature = "rules-file")]
pub use rules_spec::{RulesFileError, RulesFormat};
