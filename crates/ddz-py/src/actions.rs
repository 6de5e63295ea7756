//! RLCard's Dou Dizhu action space: 27,472 ids, one per card set RLCard may play (27,471) and
//! the pass (27,471, the last id).
//!
//! The ids are RLCard's own: `data/rlcard_action_space.txt` is RLCard's
//! `games/doudizhu/jsondata/action_space.txt` (datamllab/rlcard 1.2, MIT licence), id `i`
//! being its `i`-th word. The tests check that its card sets are exactly the `rlcard` profile's
//! combinations of the full deck, and the Python tests check it against the installed
//! `rlcard` package.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use ddz_core::{Cards, Move};

/// RLCard's action list, as its words separated by spaces (the last word is `pass`).
const ACTION_SPACE: &str = include_str!("../data/rlcard_action_space.txt");

/// Number of RLCard action ids, the pass included.
pub const NUM_ACTIONS: usize = 27_472;

/// RLCard's id of the pass (the last id).
pub const PASS_ID: u16 = 27_471;

/// A hasher for packed [`Cards`] keys: one multiplication, enough for 27,471 distinct keys.
#[derive(Default)]
struct CardsHasher(u64);

impl Hasher for CardsHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, n: u64) {
        let h = (self.0 ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 29);
    }
}

/// RLCard's action space: id to card set and card set to id.
pub struct ActionSpace {
    cards: Vec<Cards>,
    words: Vec<&'static str>,
    ids: HashMap<u64, u16, BuildHasherDefault<CardsHasher>>,
}

impl ActionSpace {
    fn load() -> ActionSpace {
        let words: Vec<&'static str> = ACTION_SPACE.split_whitespace().collect();
        let mut cards = Vec::with_capacity(words.len());
        let mut ids = HashMap::with_capacity_and_hasher(words.len(), Default::default());
        for (i, w) in words.iter().enumerate() {
            // The data file is fixed and checked by the tests: every word but `pass` is cards.
            let c: Cards = if *w == "pass" {
                Cards::EMPTY
            } else {
                w.parse().unwrap_or(Cards::EMPTY)
            };
            cards.push(c);
            ids.insert(c.bits(), i as u16);
        }
        ActionSpace { cards, words, ids }
    }

    /// The id of the card set `cards` (the empty set is the pass), if RLCard has it.
    #[inline]
    pub fn id_of_cards(&self, cards: Cards) -> Option<u16> {
        self.ids.get(&cards.bits()).copied()
    }

    /// The id of a move: the id of its physical cards, [`PASS_ID`] for the pass.
    #[inline]
    pub fn id(&self, m: &Move) -> Option<u16> {
        self.id_of_cards(m.cards())
    }

    /// The card set of an id (empty for the pass), or `None` past the last id.
    pub fn cards(&self, id: usize) -> Option<Cards> {
        self.cards.get(id).copied()
    }

    /// RLCard's word for an id (`33344`, `pass`), or `None` past the last id.
    pub fn word(&self, id: usize) -> Option<&'static str> {
        self.words.get(id).copied()
    }

    /// Number of ids (27,472).
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// Never true: the table is fixed.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }
}

/// The action space, built on first use.
pub fn action_space() -> &'static ActionSpace {
    static SPACE: OnceLock<ActionSpace> = OnceLock::new();
    SPACE.get_or_init(ActionSpace::load)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ddz_core::{Rules, legal_moves};

    #[test]
    fn ids_are_the_rlcard_profiles_combinations() {
        let space = action_space();
        assert_eq!(space.len(), NUM_ACTIONS);
        assert_eq!(space.word(PASS_ID as usize), Some("pass"));
        assert_eq!(space.cards(PASS_ID as usize), Some(Cards::EMPTY));
        assert_eq!(space.word(0), Some("3"));
        assert_eq!(space.word(NUM_ACTIONS - 2), Some("BR"));
        // Every word parses, is written canonically and is distinct.
        for id in 0..PASS_ID as usize {
            let c = space.cards(id).unwrap();
            assert_eq!(c.to_string(), space.word(id).unwrap(), "id {id}");
            assert_eq!(space.id_of_cards(c), Some(id as u16));
        }
        // The card sets are exactly the rlcard profile's leads from the full deck.
        let rules = Rules::rlcard();
        let moves = legal_moves(Cards::FULL_DECK, None, &rules);
        assert_eq!(moves.len(), PASS_ID as usize);
        for m in &moves {
            assert!(space.id(m).is_some(), "{m} has no RLCard id");
        }
        assert_eq!(space.id(&Move::PASS), Some(PASS_ID));
        assert_eq!(space.cards(NUM_ACTIONS), None);
    }
}
