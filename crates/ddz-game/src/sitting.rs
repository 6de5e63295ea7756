//! A sitting: games one after another at one table, as the terminal game and the web rooms
//! play them. It numbers the games and deals each from its seed, keeps the physical cards
//! (suits) in step with the game, adds up the running totals, ends a game by a forfeit when a
//! robot fails, and says what each action did as typed [`SittingEvent`]s for a screen or a
//! wire format to show. Between two actions it can be saved ([`Sitting::save`], a
//! [`SavedSitting`]) and resumed later by replaying the current game ([`Sitting::resume`]).
//!
//! ```
//! use ddz_core::{Bidding, Rules};
//! use ddz_game::{Action, Sitting, SittingEvent};
//!
//! let mut rules = Rules::classic();
//! rules.bidding = Bidding::Fixed;
//! let mut sitting = Sitting::new(&rules, 7);
//! while !sitting.is_over() {
//!     let seat = sitting.game().turn();
//!     let first = sitting.game().legal_moves()[0];
//!     sitting.act(seat, Action::Play(first), None).unwrap();
//! }
//! let total: i64 = sitting.totals().0.iter().sum();
//! assert_eq!(total, 0);
//! let start = sitting.next_game();
//! assert_eq!(start, SittingEvent::Start { game: 2, first_bidder: sitting.game().first_bidder() });
//! assert_eq!(sitting.seed(), 8);
//! ```

use ddz_core::{Card, CardSet, Move, RankSet, Rules, move_notation, parse_move};
use serde::{Deserialize, Serialize};

use crate::action::{Action, Bid, Phase};
use crate::error::ActionError;
use crate::game::Game;
use crate::no_shuffle::gather_pile;
use crate::scoring::GameResult;
use crate::seat::{BySeat, Seat};
use crate::trick::Trick;

/// Something that happened at the table, in the order it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SittingEvent {
    /// A game was dealt: its number in the sitting (1-based) and the seat that bids first.
    Start {
        /// The game's number.
        game: u32,
        /// The first bidder.
        first_bidder: Seat,
    },
    /// A seat decided whether to show its hand (明牌).
    Show {
        /// The seat.
        seat: Seat,
        /// The factor of its show; 0 when it did not show.
        factor: u32,
        /// The physical cards shown (while dealing, those received so far); empty when it
        /// did not show.
        cards: CardSet,
    },
    /// A seat chose its doubling factor (加倍).
    Double {
        /// The seat.
        seat: Seat,
        /// Its factor: 1, or one of the rules' factors.
        factor: u32,
    },
    /// A seat bid (0 is a pass or a decline).
    Bid {
        /// The seat.
        seat: Seat,
        /// The bid.
        bid: Bid,
    },
    /// Everyone passed: the cards were dealt again.
    Redeal {
        /// The first bidder of the new deal.
        first_bidder: Seat,
    },
    /// The landlord is decided and takes the kitty.
    Landlord {
        /// The landlord's seat.
        seat: Seat,
        /// The kitty's physical cards.
        kitty: CardSet,
        /// The base score (the winning bid under points bidding, else 1).
        base: u32,
    },
    /// Wild ranks were revealed (all those revealed so far).
    Wild(RankSet),
    /// A seat played or passed.
    Play {
        /// The seat.
        seat: Seat,
        /// The move.
        play: Move,
        /// The physical cards it took (empty for a pass).
        cards: CardSet,
    },
    /// A seat forfeited the game (a robot that failed).
    Forfeit {
        /// The seat.
        seat: Seat,
        /// Why.
        why: String,
    },
    /// The game is over (played out or forfeited).
    Over(GameResult),
}

/// How the current game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The result: the game's own when played out, else [`Game::forfeit_result`].
    pub result: GameResult,
    /// The seat that forfeited and why, when one did.
    pub forfeit: Option<(Seat, String)>,
}

/// Games at one table: numbering, seeds, physical cards, running totals and events (see the
/// [module docs](self)).
#[derive(Clone, Debug)]
pub struct Sitting {
    rules: Rules,
    /// The current game's seed.
    seed: u64,
    /// 1-based number of the current game.
    number: u32,
    game: Game,
    /// Each seat's physical cards, in step with the game.
    physical: BySeat<CardSet>,
    /// The physical cards each play of the history took (empty for a pass).
    played_physical: Vec<CardSet>,
    /// Redeals and landlord when `physical` was last dealt.
    dealt_for: (u32, Option<Seat>),
    totals: BySeat<i64>,
    finished: u32,
    ending: Option<Ending>,
    /// The pile the current game was dealt from ([`Game::with_pile`]); none for the first.
    pile: Option<Vec<Card>>,
    /// Every action taken in the current game, in order (all-pass rounds included).
    actions: Vec<(Seat, Action)>,
}

impl Sitting {
    /// The first game of a sitting under `rules`, dealt from `first_seed` ([`Game::new`]);
    /// each game after it from the seed after the one before ([`Sitting::next_game`]) or
    /// from a seed given ([`Sitting::next_game_from`]).
    pub fn new(rules: &Rules, first_seed: u64) -> Sitting {
        let mut sitting = Sitting {
            rules: rules.clone(),
            seed: first_seed,
            number: 1,
            game: Game::new(rules, first_seed),
            physical: BySeat([CardSet::EMPTY; 3]),
            played_physical: Vec::new(),
            dealt_for: (u32::MAX, None),
            totals: BySeat([0; 3]),
            finished: 0,
            ending: None,
            pile: None,
            actions: Vec::new(),
        };
        sitting.sync_physical();
        sitting
    }

    /// The event of the current game's start.
    pub fn start_event(&self) -> SittingEvent {
        SittingEvent::Start {
            game: self.number,
            first_bidder: self.game.first_bidder(),
        }
    }

    /// Deals the next game (the previous one need not be over) and returns its start event.
    /// Under no-shuffle deals from the previous pile (`no_shuffle.source = "previous"`) its
    /// pile is this game's cards in gather order ([`crate::gather_pile`]): every play in
    /// order, then the hands from the landlord.
    pub fn next_game(&mut self) -> SittingEvent {
        self.next_game_from(self.seed.wrapping_add(1))
    }

    /// Deals the next game from `seed` rather than the one after the current game's (a web
    /// room deals every game from a fresh random seed, so that no game's deal follows from
    /// the seed revealed after the one before); otherwise as [`Sitting::next_game`].
    pub fn next_game_from(&mut self, seed: u64) -> SittingEvent {
        self.seed = seed;
        let pile = gather_pile(&self.played_physical, &self.physical, self.game.landlord());
        self.number += 1;
        self.game = Game::with_pile(&self.rules, self.seed(), Some(&pile));
        self.pile = Some(pile);
        self.actions.clear();
        self.dealt_for = (u32::MAX, None);
        self.ending = None;
        self.sync_physical();
        self.start_event()
    }

    /// The rules of the sitting (without the wild ranks a game reveals: see
    /// [`Game::rules`]).
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The current game's number (1-based).
    pub fn number(&self) -> u32 {
        self.number
    }

    /// The current game's seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Points per seat over the finished games.
    pub fn totals(&self) -> BySeat<i64> {
        self.totals
    }

    /// Games finished in the sitting.
    pub fn finished(&self) -> u32 {
        self.finished
    }

    /// How the current game ended, once it has.
    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// Whether the current game is over (played out or forfeited).
    pub fn is_over(&self) -> bool {
        self.ending.is_some()
    }

    /// A seat's physical cards now (while dealing, those it has received so far).
    pub fn physical(&self, seat: Seat) -> CardSet {
        if self.game.phase() == Phase::Dealing {
            return self
                .game
                .deal()
                .received(seat, self.game.dealt_so_far() as usize);
        }
        self.physical[seat]
    }

    /// The physical cards of the `index`-th play of the history (empty for a pass).
    pub fn played_physical(&self, index: usize) -> CardSet {
        self.played_physical
            .get(index)
            .copied()
            .unwrap_or(CardSet::EMPTY)
    }

    /// Where the trick shown to the players starts in the history: the trick in progress,
    /// or the one just ended when the seat to act leads ([`Trick::shown_start`]).
    pub fn trick_start(&self) -> usize {
        let history: Vec<(Seat, Move)> = self.game.history().collect();
        Trick::shown_start(&history)
    }

    /// An action of `seat`: a bid, or a play with the physical cards chosen for it (`chosen`,
    /// when they are the play's cards and in the seat's hand; else the lowest card ids of
    /// each rank). Refused with the state unchanged when the game is over or the action is
    /// not legal. Returns the events it caused.
    pub fn act(
        &mut self,
        seat: Seat,
        action: Action,
        chosen: Option<CardSet>,
    ) -> Result<Vec<SittingEvent>, ActionError> {
        if self.is_over() {
            return Err(ActionError::GameOver);
        }
        let before = (self.game.redeals(), self.game.landlord(), self.game.laizi());
        // What a show shows: the seat's cards before the action.
        let showing = self.physical(seat);
        self.game.act(seat, action)?;
        self.actions.push((seat, action));
        let mut events = Vec::with_capacity(2);
        match action {
            Action::Show(_) => {
                let factor = self.game.show_decisions().last().map_or(0, |&(_, f)| f);
                let cards = if factor > 0 { showing } else { CardSet::EMPTY };
                events.push(SittingEvent::Show {
                    seat,
                    factor,
                    cards,
                });
            }
            Action::Double(factor) => events.push(SittingEvent::Double { seat, factor }),
            Action::Bid(bid) => events.push(SittingEvent::Bid { seat, bid }),
            Action::Play(play) => {
                let cards = self.take_physical(seat, &play, chosen);
                events.push(SittingEvent::Play { seat, play, cards });
            }
        }
        let (redeals, landlord, laizi) = before;
        if self.game.redeals() != redeals {
            events.push(SittingEvent::Redeal {
                first_bidder: self.game.first_bidder(),
            });
        }
        if landlord.is_none()
            && let Some(seat) = self.game.landlord()
        {
            events.push(SittingEvent::Landlord {
                seat,
                kitty: self.game.deal().kitty,
                base: self.game.base(),
            });
        }
        if self.game.laizi() != laizi {
            events.push(SittingEvent::Wild(self.game.laizi()));
        }
        self.sync_physical();
        if let Some(result) = self.game.result().cloned() {
            events.push(self.end(result, None));
        }
        Ok(events)
    }

    /// Ends the current game by a forfeit of `seat` ([`Game::forfeit_result`]); returns the
    /// forfeit and over events (none when the game is already over).
    pub fn forfeit(&mut self, seat: Seat, why: &str) -> Vec<SittingEvent> {
        if self.is_over() {
            return Vec::new();
        }
        let result = self.game.forfeit_result(seat);
        let over = self.end(result, Some((seat, why.to_string())));
        vec![
            SittingEvent::Forfeit {
                seat,
                why: why.to_string(),
            },
            over,
        ]
    }

    /// Adds the result to the totals and keeps the ending.
    fn end(&mut self, result: GameResult, forfeit: Option<(Seat, String)>) -> SittingEvent {
        for seat in Seat::ALL {
            self.totals[seat] += result.scores[seat];
        }
        self.finished += 1;
        self.ending = Some(Ending {
            result: result.clone(),
            forfeit,
        });
        SittingEvent::Over(result)
    }

    /// Deals the physical cards afresh when the deal or the landlord changed.
    fn sync_physical(&mut self) {
        let key = (self.game.redeals(), self.game.landlord());
        if key != self.dealt_for {
            self.physical = self.game.deal().hands_with_kitty(self.game.landlord());
            self.dealt_for = key;
            self.played_physical.clear();
        }
    }

    /// Takes a play's physical cards out of the seat's hand: `chosen` when they are the
    /// play's cards and in the hand, else the lowest ids of each rank.
    fn take_physical(&mut self, seat: Seat, play: &Move, chosen: Option<CardSet>) -> CardSet {
        let hand = self.physical[seat];
        let taken = chosen
            .filter(|c| c.to_cards() == play.cards() && c.bits() & !hand.bits() == 0)
            .or_else(|| hand.take(play.cards()))
            .unwrap_or(CardSet::EMPTY);
        self.physical[seat] = CardSet::from_bits(hand.bits() & !taken.bits()).unwrap_or(hand);
        self.played_physical.push(taken);
        taken
    }
}

/// The format version of a saved sitting ([`SavedSitting`]).
pub const SITTING_FORMAT: &str = "ddz-sitting/1";

/// One action of a saved game ([`SavedSitting::actions`]), as JSON
/// `{"type": "show" | "bid" | "double" | "play", "seat": 0-2, ...}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum SavedAction {
    /// A show decision ([`Action::Show`]).
    Show {
        /// The seat.
        seat: Seat,
        /// Whether it showed.
        show: bool,
    },
    /// A bid ([`Action::Bid`]; 0 passes or declines).
    Bid {
        /// The seat.
        seat: Seat,
        /// The bid.
        bid: Bid,
    },
    /// A doubling decision ([`Action::Double`]).
    Double {
        /// The seat.
        seat: Seat,
        /// Its factor.
        factor: u32,
    },
    /// A play or the pass ([`Action::Play`]) and the physical cards it took.
    Play {
        /// The seat.
        seat: Seat,
        /// The move in notation under the rules in force (`pass` for the pass).
        play: String,
        /// The ids (0-53) of the physical cards it took; empty for the pass.
        ids: Vec<u8>,
    },
}

/// A sitting saved between two actions ([`Sitting::save`]), to go on later exactly where it
/// was ([`Sitting::resume`]): the rules, the current game's number, seed and the pile it was
/// dealt from (a no-shuffle deal from the previous game's cards), the totals and the games
/// finished before it, and every action of it in order, with each play's physical cards.
/// Resuming deals the game again and replays the actions through [`Sitting::act`], so every
/// rule is checked again. Its JSON form has `"format": "ddz-sitting/1"`.
///
/// ```
/// use ddz_core::{Bidding, Rules};
/// use ddz_game::{Action, Sitting};
///
/// let mut rules = Rules::classic();
/// rules.bidding = Bidding::Fixed;
/// let mut sitting = Sitting::new(&rules, 7);
/// for _ in 0..5 {
///     let seat = sitting.game().turn();
///     let last = *sitting.game().legal_moves().last().unwrap();
///     sitting.act(seat, Action::Play(last), None).unwrap();
/// }
/// let text = serde_json::to_string(&sitting.save()).unwrap();
/// let resumed = Sitting::resume(&serde_json::from_str(&text).unwrap()).unwrap();
/// assert_eq!(resumed.save(), sitting.save());
/// assert_eq!(resumed.game().turn(), sitting.game().turn());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedSitting {
    /// [`SITTING_FORMAT`].
    pub format: String,
    /// The rules of the sitting.
    pub rules: Rules,
    /// The current game's number (1-based).
    pub game: u32,
    /// The current game's seed.
    pub seed: u64,
    /// The ids of the pile the current game was dealt from (games after the first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pile: Option<Vec<u8>>,
    /// The running totals before the current game.
    pub totals: BySeat<i64>,
    /// The games finished before the current one.
    pub finished: u32,
    /// The current game's actions, in order (all-pass rounds included).
    pub actions: Vec<SavedAction>,
    /// The seat that forfeited the current game and why, when one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<(Seat, String)>,
}

/// A saved sitting that cannot be resumed: where (a field, or the `index`-th action,
/// 1-based) and what is wrong, displayed as `action 12: ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResumeError {
    /// The field or action.
    pub at: String,
    /// What is wrong there.
    pub what: String,
}

impl std::fmt::Display for ResumeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.at, self.what)
    }
}

impl std::error::Error for ResumeError {}

impl ResumeError {
    fn new(at: impl Into<String>, what: impl Into<String>) -> ResumeError {
        ResumeError {
            at: at.into(),
            what: what.into(),
        }
    }
}

impl Sitting {
    /// The sitting as it can be saved and resumed ([`SavedSitting`]).
    pub fn save(&self) -> SavedSitting {
        let mut totals = self.totals;
        let mut finished = self.finished;
        if let Some(ending) = &self.ending {
            for seat in Seat::ALL {
                totals[seat] -= ending.result.scores[seat];
            }
            finished = finished.saturating_sub(1);
        }
        let mut plays = 0;
        let actions = self
            .actions
            .iter()
            .map(|&(seat, action)| {
                let saved = self.saved_action(seat, action, plays);
                plays += usize::from(matches!(action, Action::Play(_)));
                saved
            })
            .collect();
        SavedSitting {
            format: SITTING_FORMAT.to_string(),
            rules: self.rules.clone(),
            game: self.number,
            seed: self.seed,
            pile: self
                .pile
                .as_ref()
                .map(|pile| pile.iter().map(|c| c.id()).collect()),
            totals,
            finished,
            actions,
            forfeit: self.ending.as_ref().and_then(|e| e.forfeit.clone()),
        }
    }

    /// The current game's latest action as [`Sitting::save`] writes it, so that an action
    /// log can append it to a saved sitting; none before the game's first action.
    pub fn last_action(&self) -> Option<SavedAction> {
        let &(seat, action) = self.actions.last()?;
        let plays = self
            .actions
            .iter()
            .filter(|(_, a)| matches!(a, Action::Play(_)))
            .count();
        Some(self.saved_action(seat, action, plays.saturating_sub(1)))
    }

    /// An action as saved; `play` is the index of the play among the game's plays (for its
    /// physical cards).
    fn saved_action(&self, seat: Seat, action: Action, play: usize) -> SavedAction {
        match action {
            Action::Show(show) => SavedAction::Show { seat, show },
            Action::Bid(bid) => SavedAction::Bid { seat, bid },
            Action::Double(factor) => SavedAction::Double { seat, factor },
            Action::Play(chosen) => SavedAction::Play {
                seat,
                // Plays are made only once the landlord is known, when every wild rank is in
                // force.
                play: move_notation(&chosen, &self.game.rules()),
                ids: self.played_physical(play).iter().map(Card::id).collect(),
            },
        }
    }

    /// The sitting saved: its game dealt again from the seed (and pile) and every action
    /// replayed, each play taking the physical cards it took; the totals then count the
    /// game if it is over. Refused with the field or action that is wrong.
    pub fn resume(saved: &SavedSitting) -> Result<Sitting, ResumeError> {
        if saved.format != SITTING_FORMAT {
            return Err(ResumeError::new(
                "format",
                format!("\"{}\" is not \"{SITTING_FORMAT}\"", saved.format),
            ));
        }
        saved
            .rules
            .check_fields()
            .map_err(|e| ResumeError::new("rules", e.to_string()))?;
        if saved.game == 0 {
            return Err(ResumeError::new("game", "games are numbered from 1"));
        }
        let pile = match &saved.pile {
            None => None,
            Some(ids) => Some(card_ids("pile", ids)?),
        };
        let mut sitting = Sitting {
            rules: saved.rules.clone(),
            seed: saved.seed,
            number: saved.game,
            game: Game::with_pile(&saved.rules, saved.seed, pile.as_deref()),
            physical: BySeat([CardSet::EMPTY; 3]),
            played_physical: Vec::new(),
            dealt_for: (u32::MAX, None),
            totals: saved.totals,
            finished: saved.finished,
            ending: None,
            pile,
            actions: Vec::new(),
        };
        sitting.sync_physical();
        for (i, saved_action) in saved.actions.iter().enumerate() {
            let at = format!("action {}", i + 1);
            let (seat, action, chosen) = match saved_action {
                &SavedAction::Show { seat, show } => (seat, Action::Show(show), None),
                &SavedAction::Bid { seat, bid } => (seat, Action::Bid(bid), None),
                &SavedAction::Double { seat, factor } => (seat, Action::Double(factor), None),
                SavedAction::Play { seat, play, ids } => {
                    let rules = sitting.game.rules();
                    let last = sitting.game.last().map(|(_, m)| m);
                    let m = parse_move(play, &rules, last.as_ref())
                        .map_err(|e| ResumeError::new(&at, format!("\"{play}\": {e}")))?;
                    let cards = card_ids(&at, ids)?;
                    let set = cards.iter().fold(CardSet::EMPTY, |set, &c| set.with(c));
                    (*seat, Action::Play(m), Some(set))
                }
            };
            sitting
                .act(seat, action, chosen)
                .map_err(|e| ResumeError::new(&at, e.to_string()))?;
            if let Some(chosen) = chosen
                && sitting.played_physical.last() != Some(&chosen)
            {
                return Err(ResumeError::new(
                    &at,
                    "the ids are not the play's cards in the seat's hand",
                ));
            }
        }
        if let Some((seat, why)) = &saved.forfeit {
            if sitting.is_over() {
                return Err(ResumeError::new(
                    "forfeit",
                    "the game is over after its actions: nobody forfeited it",
                ));
            }
            sitting.forfeit(*seat, why);
        }
        Ok(sitting)
    }
}

/// Card ids as cards, each at most once; the error names `at` and the position.
fn card_ids(at: &str, ids: &[u8]) -> Result<Vec<Card>, ResumeError> {
    let mut seen = CardSet::EMPTY;
    let mut cards = Vec::with_capacity(ids.len());
    for (i, &id) in ids.iter().enumerate() {
        let card = Card::from_id(id).ok_or_else(|| {
            ResumeError::new(at, format!("item {}: {id} is not a card id 0-53", i + 1))
        })?;
        if seen.contains(card) {
            return Err(ResumeError::new(
                at,
                format!("item {}: card {card} is given twice", i + 1),
            ));
        }
        seen = seen.with(card);
        cards.push(card);
    }
    Ok(cards)
}
